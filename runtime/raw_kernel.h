// Kernels users write whole, in CUDA C++ (np.RawKernel, np.RawModule: CuPy's
// classes). On a GPU NVRTC compiles them (runtime/raw_cuda.cpp); on the CPU
// the in-process Clang compiles the same text over an emulation of CUDA's
// execution model (runtime/raw_cpu.cpp): blocks, threads, shared memory,
// barriers, warp shuffles and atomics. The array module (numpy/raw_kernels.cpp)
// packs the arguments and calls the interpreter's Backend.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpy {

// A module's source as the user gave it.
struct RawSource {
    std::string code;
    std::vector<std::string> options;           // NVRTC options (the CPU ignores them but -D and -I... none)
    std::vector<std::string> name_expressions;  // RawModule(name_expressions=...): template instances
    std::string file = "kernel.cu";             // the name diagnostics use
    bool checked = false;                       // gpy --check-kernels: pointer accesses bounds-checked (CPU)
};

// One kernel parameter as the CPU compile sees it (C++'s type, reduced).
struct RawParam {
    bool pointer = false;
    bool const_pointee = false;
    char kind = 'o';  // of the value or the pointee: 'f' float, 'i' signed, 'u' unsigned, 'b' bool, 'o' other
    int size = 0;     // bytes of the value, or of the pointee (0: void)
    bool written = true;  // a pointer the kernel may write through (Clang's analysis: runtime/raw_analysis.h)
};

// "float*", "const int*", "double", "float2 (8 bytes)": for messages.
std::string raw_param_text(const RawParam& p);

// A kernel compiled for the interpreter's backend, ready to launch.
struct RawFunction {
    virtual ~RawFunction() = default;
    // The parameters, where known (the CPU compile finds them; on a GPU the
    // array module asks the CPU compile too and leaves them unknown when the
    // source uses what the emulation lacks).
    std::optional<std::vector<RawParam>> params;
    // CuPy's `attributes`: max_threads_per_block, num_regs, shared_size_bytes,
    // const_size_bytes, local_size_bytes, ptx_version, binary_version,
    // max_dynamic_shared_size_bytes, ...
    std::map<std::string, int> attributes;
    // Where the script launches it ("file.gpy:12"), for a GPU fault's
    // message; `site_key` (the launching statement) says when to remake it.
    std::string site;
    const void* site_key = nullptr;
    // --check-kernels: compiled with checked pointers (its launches take
    // each array argument's bytes); or asked for, but the checked compile
    // failed: why, for a note to the user (the kernel runs unchecked).
    bool checked = false;
    std::string check_note;
};

// --check-kernels: the bytes [lo, hi) an array argument may touch (a
// scalar's entry is ignored).
struct RawBounds {
    const char* lo = nullptr;
    const char* hi = nullptr;
    int64_t elements = 0;     // the array's size
    bool contiguous = true;   // false: a strided view, whose bytes [lo, hi) hold gaps
};

// A checked launch touched memory outside an argument's array: what() says
// which element, thread, block and kernel line (the array module's IndexError).
struct RawOutOfBounds : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct RawDims {
    unsigned x = 1, y = 1, z = 1;
    uint64_t count() const { return uint64_t(x) * y * z; }
};

// The user's source does not compile: `log` is the compiler's diagnostics,
// with the user's file name and line numbers.
struct RawCompileError : std::runtime_error {
    RawCompileError(const std::string& what, std::string log) : std::runtime_error(what), log(std::move(log)) {}
    std::string log;
};

// A launch the device refuses before running (too many threads per block,
// too much shared memory): the array module raises ValueError.
struct RawLaunchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The CPU's kernel `expr` (a name, or one of the name expressions) of
// `source`: compiled (cached in memory and on disk) with the emulation
// prelude. Throws RawCompileError.
std::shared_ptr<RawFunction> cpu_raw_function(const RawSource& source, const std::string& expr, const std::string& cache_dir);
// Runs it: `args` holds one pointer per parameter, to its value's bytes.
// Throws RawLaunchError (and the kernel's own deadlock: a barrier not all
// threads reach). A checked kernel (RawSource::checked) takes each pointer
// argument's array bytes from `bounds` (none given: unbounded) and throws
// RawOutOfBounds after the launch when an access fell outside them.
void cpu_raw_launch(RawFunction& f, RawDims grid, RawDims block, size_t shared_bytes, std::span<void* const> args,
                    std::span<const RawBounds> bounds = {});

// Clang's analysis of `source` over the CPU emulation's text
// (runtime/raw_analysis.h), cached in memory and on disk. A GPU's module
// takes its kernels' parameters from it. Throws RawCompileError (Clang's
// diagnostics) when the emulation cannot parse the source.
struct RawModuleInfo;
std::shared_ptr<const RawModuleInfo> raw_module_info(const RawSource& source, const std::string& cache_dir);

// RawModule.get_global on the CPU: the address and size of a module-scope
// __device__/__constant__ variable in the module the kernels run in.
// Throws RawLaunchError (CUDA_ERROR_NOT_FOUND) and RawCompileError.
std::pair<void*, size_t> cpu_raw_global(const RawSource& source, const std::string& name, const std::string& cache_dir);

// The same on a GPU (runtime/raw_cuda.cpp): NVRTC's cubin for `device`'s
// architecture (cached on disk with the generated kernels' cubins), loaded
// once per device; launched on the interpreter's current stream.
// cuda_raw_launch throws cuda::Error; cuda_raw_set_attribute sets a function
// attribute by CuPy's name (max_dynamic_shared_size_bytes,
// preferred_shared_memory_carveout).
std::shared_ptr<RawFunction> cuda_raw_function(int device, const RawSource& source, const std::string& expr, const std::string& cache_dir);
void cuda_raw_launch(RawFunction& f, RawDims grid, RawDims block, size_t shared_bytes, std::span<void* const> args);
void cuda_raw_set_attribute(RawFunction& f, const std::string& name, int value);
// RawModule.get_global: the address and size of a __device__/__constant__
// variable of `source`'s module on `device` (the module its kernels run in).
std::pair<uintptr_t, size_t> cuda_raw_global(int device, const RawSource& source, const std::string& name, const std::string& cache_dir);

}  // namespace gpy
