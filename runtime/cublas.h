// cuBLAS, loaded with dlopen on first use (like the driver and NVRTC): the
// matrix products of the CUDA backend. Looked for where
// dynlib::cuda_library_candidates says ($GPY_CUBLAS_LIB first;
// runtime/dynamic_library.h).
//
// One handle per device, bound to the current stream before each call. Math
// mode is cuBLAS's default: no TF32 for float32 (NumPy users expect float32
// products rounded as float32); set_allow_tf32(true) or GPY_TF32=1 (CuPy's
// CUPY_TF32) lets float32 products use TF32 tensor cores.
#pragma once

#include <string>

namespace gpy::cublas {

// Whether libcublas could be loaded; when not, `why` says what was tried.
bool available(std::string* why = nullptr);

void set_allow_tf32(bool allow);
bool allow_tf32();

// Row-major C (m x n, leading dimension ldc) = op(A) (m x k) op(B) (k x n) on
// device `device`'s current stream, as CBLAS's row-major gemm: `trans_a` /
// `trans_b` say whether the stored A / B are transposed, lda / ldb are their
// row strides in elements. Pointers are device-accessible (managed memory).
// Queued, not waited for. Throws std::runtime_error naming the cuBLAS status.
void sgemm(int device, bool trans_a, bool trans_b, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
           float* c, int ldc);
void dgemm(int device, bool trans_a, bool trans_b, int m, int n, int k, const double* a, int lda, const double* b, int ldb,
           double* c, int ldc);

}  // namespace gpy::cublas
