// The CPU kernel compiler: generated C++ kernel source -> machine code in
// this process, through libclang-cpp (in-process, in-memory source, no
// headers) and an LLVM ORC LLJIT. Compiled object code is cached in memory and
// on disk (runtime/kernel_cache.h).
//
// Compile options: C++17, -O3, the host CPU (name and features), PIC,
// -fno-math-errno, -ffp-contract=off (no FMA contraction: results match
// NumPy's unfused arithmetic), -fveclib=libmvec (loops calling __builtin_exp,
// expf, log, sin, cos, pow... vectorise into glibc's libmvec). No -ffast-math:
// NaN, Inf and signed zeros keep IEEE semantics.
//
// Kernels include nothing and define extern "C" entry points; any other
// symbol they reference is resolved from this process, libm.so.6 and
// libmvec.so.1.
//
// The compiler lives in the module libgpy_cpujit.so (linking libclang-cpp
// and libLLVM), loaded with dlopen on the first lookup that misses memory, so
// processes that never compile a kernel do not pay the ~18 ms those libraries
// take to load. It is looked for in $GPY_CPUJIT_LIB, next to the executable,
// in <exe dir>/../lib/gpy/, in the build tree, then on the loader's path.
//
// Thread-safe: any number of threads may call lookup(); different kernels
// compile concurrently, the same kernel is compiled once (others wait).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace gpy {

// A kernel that failed to compile or link. what() is a one-line summary;
// compiler_log holds clang's full diagnostics (file name "kernel.cpp").
struct JitError : std::runtime_error {
    JitError(const std::string& message, std::string log)
        : std::runtime_error(message), compiler_log(std::move(log)) {}
    std::string compiler_log;
};

class CpuJit {
public:
    static CpuJit& instance();

    // The address of `symbol` (an extern "C" name) in the kernel compiled
    // from `source`: from memory, else from the disk cache, else compiled now
    // (and written to the disk cache). Throws JitError. `cache_dir`: the
    // calling interpreter's cache folder (Config::cache_dir); "" = the one
    // set_cache_dir set. Memory is shared: a kernel another interpreter
    // compiled is found there whatever the folder.
    void* lookup(const std::string& source, const std::string& symbol, const std::string& cache_dir = "");

    // Clang's analysis of `source` without compiling it: the back end's
    // description of the bytes [user_begin, user_end) (the text form
    // runtime/raw_analysis.h reads). Cached in memory and on disk like object
    // code. Throws JitError with clang's diagnostics when it does not parse.
    std::string analyse(const std::string& source, size_t user_begin, size_t user_end, const std::string& cache_dir = "");

    // The default disk cache root ("" = $GPY_CACHE_DIR, else ~/.cache/gpy)
    // for lookups that name none (tests). Entries live in <dir>/cpu/.
    // Kernels already in memory stay there.
    void set_cache_dir(const std::string& dir);
    // The folder holding this JIT's entries (<root>/cpu).
    std::string cache_entry_dir() const;
    // The disk file that holds (or would hold) the object code for `source`.
    std::string cache_path_for(const std::string& source) const;

    struct Stats {
        uint64_t compiles = 0;      // clang runs (successful or not)
        uint64_t memory_hits = 0;   // lookups answered from memory
        uint64_t disk_hits = 0;     // kernels loaded from a verified disk entry
        uint64_t disk_writes = 0;   // entries written
        double last_compile_ms = 0;
        double total_compile_ms = 0;
        double startup_ms = 0;      // loading libgpy_cpujit.so + LLVM + ORC (once, on first need)
    };
    Stats stats() const;

    // Forgets every kernel in memory (already returned addresses stay valid:
    // the code is never unloaded). The next lookup goes to disk.
    void clear_memory_cache_for_testing();

    // "triple=... cpu=... features=+avx2,+fma,..." for diagnostics.
    std::string target_description() const;
    // The clang -cc1 options used (part of the cache key), space-separated.
    std::string compile_options() const;

    // Compiles `source` without caching and returns the optimised LLVM IR
    // (text) or, with `assembly`, the assembly. For tests and debugging.
    std::string emit_for_inspection(const std::string& source, bool assembly);

    CpuJit(const CpuJit&) = delete;
    CpuJit& operator=(const CpuJit&) = delete;

private:
    CpuJit();
    ~CpuJit();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gpy
