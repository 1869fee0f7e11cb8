// Optional shared libraries loaded at run time (dlopen), so the gpy binary
// runs where they are missing: the CUDA toolkit's libraries (NVRTC, cuBLAS)
// and BLAS/LAPACK. Each stays loaded for the life of the process.
#pragma once

#include <dlfcn.h>

#include <string>
#include <vector>

namespace gpy::dynlib {

// Binds `fn` to `symbol` of `lib`; false when the library lacks it.
template <class F>
bool bind(void* lib, const char* symbol, F& fn) {
    fn = reinterpret_cast<F>(dlsym(lib, symbol));
    return fn != nullptr;
}

// Where a CUDA toolkit library `stem` ("libnvrtc", "libcublas") may be, in
// order: $env_var, $CUDA_HOME/lib64, /usr/local/cuda (lib64 and the target
// folder), the sonames .13, .12 and unversioned on the loader's path, then
// the NVIDIA wheels of a Python installation (site-packages/nvidia/*/lib),
// where CuPy and PyTorch users have them.
std::vector<std::string> cuda_library_candidates(const char* env_var, const char* stem);

// The first candidate that loads, or nullptr with `tried` listing them all.
void* open_first(const std::vector<std::string>& candidates, std::string& tried);

}  // namespace gpy::dynlib
