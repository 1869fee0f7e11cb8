// The table the CPU JIT's back end (runtime/llvm/cpu_jit_backend.cpp: clang
// and ORC, built into libgpy_cpujit.so) hands its front (runtime/cpu_jit.cpp:
// caches, stats, loading the module). Both halves come from the same build
// (same compiler, same standard library), so std::string crosses.
#pragma once

#include <cstddef>
#include <string>

namespace gpy::cpujit_abi {

constexpr int kVersion = 2;  // 2: analyse
struct Backend {
    int version;
    size_t string_size;  // sizeof(std::string), a cheap same-build check
    // Starts LLVM and the ORC JIT; "" or an error.
    std::string (*init)();
    // Valid after init():
    std::string (*key_prefix)();  // format + compiler version + options + target
    std::string (*target_description)();
    std::string (*options)();
    double (*startup_ms)();
    // emit: 0 object, 1 assembly, 2 LLVM IR. True: `out` holds it; false:
    // the compile failed and `log` holds clang's diagnostics.
    bool (*compile)(const std::string& source, int emit, std::string& out, std::string& log);
    // Adds an object file to a fresh JITDylib: a handle, or nullptr + error.
    void* (*load)(const std::string& object, std::string& error);
    // The address of `symbol` in a loaded object: the address, or nullptr + error.
    void* (*resolve)(void* handle, const std::string& symbol, std::string& error);
    // Parses `source` without generating code and describes the user's part
    // of it, bytes [user_begin, user_end) (runtime/raw_analysis.h's text
    // form). True: `out` holds it; false: `log` holds clang's errors.
    bool (*analyse)(const std::string& source, size_t user_begin, size_t user_end, std::string& out, std::string& log);
};

}  // namespace gpy::cpujit_abi

// The back end's entry point: dlsym'd from libgpy_cpujit.so, or linked
// directly with -DGPY_CPUJIT_DLOPEN=OFF.
extern "C" const gpy::cpujit_abi::Backend* gpy_cpujit_backend();
