// cuSOLVER's dense LU, loaded with dlopen on first use (like cuBLAS): the
// linear solves of the CUDA backend (np.linalg.solve). Looked for where
// dynlib::cuda_library_candidates says ($GPY_CUSOLVER_LIB first).
//
// One handle per device, bound to the current stream before each call.
#pragma once

#include <cstdint>
#include <string>

namespace gpy::cusolver {

// Whether libcusolver could be loaded; when not, `why` says what was tried.
bool available(std::string* why = nullptr);

// LAPACK's gesv on device `device`: A (n x n, column-major, overwritten by
// its LU factors) X = B (n x nrhs, column-major, overwritten by X), float64
// when `dbl`, else float32. Waits for the device; returns LAPACK's info (> 0:
// U(info, info) is exactly zero, the matrix is singular). Device-accessible
// pointers. Throws std::runtime_error naming the cuSOLVER status.
int gesv(int device, bool dbl, int n, int nrhs, void* a, void* b);

}  // namespace gpy::cusolver
