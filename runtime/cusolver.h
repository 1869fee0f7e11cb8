// cuSOLVER's dense LU, Cholesky, QR, SVD and symmetric eigensolver, loaded
// with dlopen on first use (like cuBLAS): np.linalg's solve, inv, det,
// slogdet, cholesky, qr, svd, eigh and eigvalsh of the CUDA backend. Looked for where
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

// The other routines, each on device `device` with device pointers, waiting
// for the device and returning LAPACK's info. Column-major n x n A, float64
// when `dbl`, else float32.
// getrf: A's LU factors in place; the n pivots (1-based, LAPACK's) to the
// host array `ipiv`.
int getrf(int device, bool dbl, int n, void* a, int* ipiv);
// potrf: the Cholesky factor of A's lower (`lower`) or upper triangle, in
// that triangle (the other is left as it was); info > 0: not positive definite.
int potrf(int device, bool dbl, bool lower, int n, void* a);
// syevd: A's eigenvalues into w (n, ascending) and, with `vectors`, its
// eigenvectors over A (columns), reading A's lower or upper triangle.
int syevd(int device, bool dbl, bool vectors, bool lower, int n, void* a, void* w);
// geqrf then ormqr: A (m x n) becomes its QR factors (R in its upper
// triangle) and B (m x nrhs) becomes Q^T B: a least-squares problem reduced
// to R's n x n one (np.linalg.lstsq).
int qr_apply(int device, bool dbl, int m, int n, void* a, int nrhs, void* b);
// geqrf, then (q not null) orgqr: A (m x n) becomes its QR factors (R in
// its upper triangle) and q (m x qcols, qcols <= m) the first qcols columns
// of Q (np.linalg.qr).
int qr(int device, bool dbl, int m, int n, void* a, int qcols, void* q);
// gesvd (m >= n, as cuSOLVER requires): A (m x n, destroyed) = U S VT with
// jobu/jobvt LAPACK's 'A', 'S' or 'N'; s gets min(m, n) singular values,
// descending.
int gesvd(int device, bool dbl, char jobu, char jobvt, int m, int n, void* a, void* s, void* u, int ldu, void* vt, int ldvt);
// Whether the library has the 64-bit geev (cuSOLVER 11.7 / CUDA 12.6 on).
bool geev_available();
// geev of a real n x n A (column-major, destroyed): w gets 2n values, the
// eigenvalues' real parts then their imaginary parts (LAPACK's wr, wi), and
// with `vectors` vr (n x n) the right eigenvectors in LAPACK's packing (a
// conjugate pair as a column of real parts and one of imaginary parts).
int geev(int device, bool dbl, bool vectors, int64_t n, void* a, void* w, void* vr);

}  // namespace gpy::cusolver
