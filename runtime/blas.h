// BLAS and LAPACK, loaded at run time (dlopen) like the CUDA driver: the gpy
// binary starts on machines without OpenBLAS, and only linear algebra then
// fails. The C++ wrappers below pick the float or double routine from the
// element type; LAPACK is called through its Fortran ABI (column-major,
// arguments by pointer) because Debian's OpenBLAS exports no LAPACKE.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

namespace gpy::blas {

// CBLAS enum values (cblas.h).
constexpr int kRowMajor = 101;
constexpr int kNoTrans = 111, kTrans = 112;

using lapack_int = int;  // LP64 builds (Debian's OpenBLAS)
using Cf = std::complex<float>;   // std::complex has LAPACK's layout
using Cd = std::complex<double>;

// The real type of element type T (float for std::complex<float>).
template <class T> struct real_type { using type = T; };
template <class T> struct real_type<std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_type<T>::type;

struct Library {
    std::string name;  // what was loaded, e.g. "libopenblas.so.0"
    void (*sgemm)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
    void (*dgemm)(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
    void (*sgemv)(int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
    void (*dgemv)(int, int, int, int, double, const double*, int, const double*, int, double, double*, int);
    float (*sdot)(int, const float*, int, const float*, int);
    double (*ddot)(int, const double*, int, const double*, int);
    // LAPACK, Fortran ABI: every argument by pointer, then the hidden lengths
    // of the character arguments (gfortran passes them; extra ones are harmless).
    void (*sgesv)(const lapack_int*, const lapack_int*, float*, const lapack_int*, lapack_int*, float*, const lapack_int*, lapack_int*);
    void (*dgesv)(const lapack_int*, const lapack_int*, double*, const lapack_int*, lapack_int*, double*, const lapack_int*, lapack_int*);
    void (*sgetrf)(const lapack_int*, const lapack_int*, float*, const lapack_int*, lapack_int*, lapack_int*);
    void (*dgetrf)(const lapack_int*, const lapack_int*, double*, const lapack_int*, lapack_int*, lapack_int*);
    // Complex solve and LU (std::complex has LAPACK's layout).
    void (*cgesv)(const lapack_int*, const lapack_int*, std::complex<float>*, const lapack_int*, lapack_int*, std::complex<float>*,
                  const lapack_int*, lapack_int*);
    void (*zgesv)(const lapack_int*, const lapack_int*, std::complex<double>*, const lapack_int*, lapack_int*, std::complex<double>*,
                  const lapack_int*, lapack_int*);
    void (*cgetrf)(const lapack_int*, const lapack_int*, std::complex<float>*, const lapack_int*, lapack_int*, lapack_int*);
    void (*zgetrf)(const lapack_int*, const lapack_int*, std::complex<double>*, const lapack_int*, lapack_int*, lapack_int*);
    void (*sgesdd)(const char*, const lapack_int*, const lapack_int*, float*, const lapack_int*, float*, float*, const lapack_int*, float*,
                   const lapack_int*, float*, const lapack_int*, lapack_int*, lapack_int*, size_t);
    void (*dgesdd)(const char*, const lapack_int*, const lapack_int*, double*, const lapack_int*, double*, double*, const lapack_int*, double*,
                   const lapack_int*, double*, const lapack_int*, lapack_int*, lapack_int*, size_t);
    void (*sgeqrf)(const lapack_int*, const lapack_int*, float*, const lapack_int*, float*, float*, const lapack_int*, lapack_int*);
    void (*dgeqrf)(const lapack_int*, const lapack_int*, double*, const lapack_int*, double*, double*, const lapack_int*, lapack_int*);
    void (*sorgqr)(const lapack_int*, const lapack_int*, const lapack_int*, float*, const lapack_int*, const float*, float*, const lapack_int*,
                   lapack_int*);
    void (*dorgqr)(const lapack_int*, const lapack_int*, const lapack_int*, double*, const lapack_int*, const double*, double*, const lapack_int*,
                   lapack_int*);
    void (*ssyevd)(const char*, const char*, const lapack_int*, float*, const lapack_int*, float*, float*, const lapack_int*, lapack_int*,
                   const lapack_int*, lapack_int*, size_t, size_t);
    void (*dsyevd)(const char*, const char*, const lapack_int*, double*, const lapack_int*, double*, double*, const lapack_int*, lapack_int*,
                   const lapack_int*, lapack_int*, size_t, size_t);
    void (*sgelsd)(const lapack_int*, const lapack_int*, const lapack_int*, float*, const lapack_int*, float*, const lapack_int*, float*,
                   const float*, lapack_int*, float*, const lapack_int*, lapack_int*, lapack_int*);
    void (*dgelsd)(const lapack_int*, const lapack_int*, const lapack_int*, double*, const lapack_int*, double*, const lapack_int*, double*,
                   const double*, lapack_int*, double*, const lapack_int*, lapack_int*, lapack_int*);
    void (*sgeev)(const char*, const char*, const lapack_int*, float*, const lapack_int*, float*, float*, float*, const lapack_int*,
                  float*, const lapack_int*, float*, const lapack_int*, lapack_int*, size_t, size_t);
    void (*dgeev)(const char*, const char*, const lapack_int*, double*, const lapack_int*, double*, double*, double*,
                  const lapack_int*, double*, const lapack_int*, double*, const lapack_int*, lapack_int*, size_t, size_t);
    void (*spotrf)(const char*, const lapack_int*, float*, const lapack_int*, lapack_int*, size_t);
    void (*dpotrf)(const char*, const lapack_int*, double*, const lapack_int*, lapack_int*, size_t);
    // Complex forms: singular values and Hermitian eigenvalues are real, and
    // the routines take a real workspace `rwork` besides the complex `work`.
    void (*cgesdd)(const char*, const lapack_int*, const lapack_int*, Cf*, const lapack_int*, float*, Cf*, const lapack_int*, Cf*,
                   const lapack_int*, Cf*, const lapack_int*, float*, lapack_int*, lapack_int*, size_t);
    void (*zgesdd)(const char*, const lapack_int*, const lapack_int*, Cd*, const lapack_int*, double*, Cd*, const lapack_int*, Cd*,
                   const lapack_int*, Cd*, const lapack_int*, double*, lapack_int*, lapack_int*, size_t);
    void (*cheevd)(const char*, const char*, const lapack_int*, Cf*, const lapack_int*, float*, Cf*, const lapack_int*, float*,
                   const lapack_int*, lapack_int*, const lapack_int*, lapack_int*, size_t, size_t);
    void (*zheevd)(const char*, const char*, const lapack_int*, Cd*, const lapack_int*, double*, Cd*, const lapack_int*, double*,
                   const lapack_int*, lapack_int*, const lapack_int*, lapack_int*, size_t, size_t);
    void (*cgeev)(const char*, const char*, const lapack_int*, Cf*, const lapack_int*, Cf*, Cf*, const lapack_int*, Cf*,
                  const lapack_int*, Cf*, const lapack_int*, float*, lapack_int*, size_t, size_t);
    void (*zgeev)(const char*, const char*, const lapack_int*, Cd*, const lapack_int*, Cd*, Cd*, const lapack_int*, Cd*,
                  const lapack_int*, Cd*, const lapack_int*, double*, lapack_int*, size_t, size_t);
    void (*cgeqrf)(const lapack_int*, const lapack_int*, Cf*, const lapack_int*, Cf*, Cf*, const lapack_int*, lapack_int*);
    void (*zgeqrf)(const lapack_int*, const lapack_int*, Cd*, const lapack_int*, Cd*, Cd*, const lapack_int*, lapack_int*);
    void (*cungqr)(const lapack_int*, const lapack_int*, const lapack_int*, Cf*, const lapack_int*, const Cf*, Cf*, const lapack_int*,
                   lapack_int*);
    void (*zungqr)(const lapack_int*, const lapack_int*, const lapack_int*, Cd*, const lapack_int*, const Cd*, Cd*, const lapack_int*,
                   lapack_int*);
    void (*cpotrf)(const char*, const lapack_int*, Cf*, const lapack_int*, lapack_int*, size_t);
    void (*zpotrf)(const char*, const lapack_int*, Cd*, const lapack_int*, lapack_int*, size_t);
    void (*cgelsd)(const lapack_int*, const lapack_int*, const lapack_int*, Cf*, const lapack_int*, Cf*, const lapack_int*, float*,
                   const float*, lapack_int*, Cf*, const lapack_int*, float*, lapack_int*, lapack_int*);
    void (*zgelsd)(const lapack_int*, const lapack_int*, const lapack_int*, Cd*, const lapack_int*, Cd*, const lapack_int*, double*,
                   const double*, lapack_int*, Cd*, const lapack_int*, double*, lapack_int*, lapack_int*);
};

// The loaded library (loaded once per process), or null with `why` set to a
// message naming the libraries tried and the package to install.
const Library* library(std::string* why);

// ---- typed wrappers: T is float or double, and for the LAPACK ones
// also Cf or Cd (an `rwork` argument is ignored for real T) ----

template <class T>
void gemm(const Library& L, int ta, int tb, int m, int n, int k, const T* a, int lda, const T* b, int ldb, T* c, int ldc) {
    if constexpr (sizeof(T) == 4) L.sgemm(kRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
    else L.dgemm(kRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
}
template <class T>
T dot(const Library& L, int n, const T* x, int incx, const T* y, int incy) {
    if constexpr (sizeof(T) == 4) return L.sdot(n, x, incx, y, incy);
    else return L.ddot(n, x, incx, y, incy);
}

template <class T>
void gemv(const Library& L, int ta, int m, int n, const T* a, int lda, const T* x, int incx, T* y, int incy) {
    if constexpr (sizeof(T) == 4) L.sgemv(kRowMajor, ta, m, n, 1.0f, a, lda, x, incx, 0.0f, y, incy);
    else L.dgemv(kRowMajor, ta, m, n, 1.0, a, lda, x, incx, 0.0, y, incy);
}
template <class T>
void gesv(const Library& L, lapack_int n, lapack_int nrhs, T* a, lapack_int* ipiv, T* b, lapack_int* info) {
    if constexpr (std::is_same_v<T, std::complex<float>>) L.cgesv(&n, &nrhs, a, &n, ipiv, b, &n, info);
    else if constexpr (std::is_same_v<T, std::complex<double>>) L.zgesv(&n, &nrhs, a, &n, ipiv, b, &n, info);
    else if constexpr (sizeof(T) == 4) L.sgesv(&n, &nrhs, a, &n, ipiv, b, &n, info);
    else L.dgesv(&n, &nrhs, a, &n, ipiv, b, &n, info);
}
template <class T>
void getrf(const Library& L, lapack_int n, T* a, lapack_int* ipiv, lapack_int* info) {
    if constexpr (std::is_same_v<T, std::complex<float>>) L.cgetrf(&n, &n, a, &n, ipiv, info);
    else if constexpr (std::is_same_v<T, std::complex<double>>) L.zgetrf(&n, &n, a, &n, ipiv, info);
    else if constexpr (sizeof(T) == 4) L.sgetrf(&n, &n, a, &n, ipiv, info);
    else L.dgetrf(&n, &n, a, &n, ipiv, info);
}
template <class T>
void gesdd(const Library& L, char jobz, lapack_int m, lapack_int n, T* a, real_t<T>* s, T* u, lapack_int ldu, T* vt, lapack_int ldvt,
           T* work, lapack_int lwork, real_t<T>* rwork, lapack_int* iwork, lapack_int* info) {
    lapack_int lda = m > 1 ? m : 1;
    if constexpr (std::is_same_v<T, Cf>) L.cgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, iwork, info, 1);
    else if constexpr (std::is_same_v<T, Cd>) L.zgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rwork, iwork, info, 1);
    else if constexpr (sizeof(T) == 4) L.sgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1);
    else L.dgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info, 1);
}
template <class T>
void geqrf(const Library& L, lapack_int m, lapack_int n, T* a, T* tau, T* work, lapack_int lwork, lapack_int* info) {
    lapack_int lda = m > 1 ? m : 1;
    if constexpr (std::is_same_v<T, Cf>) L.cgeqrf(&m, &n, a, &lda, tau, work, &lwork, info);
    else if constexpr (std::is_same_v<T, Cd>) L.zgeqrf(&m, &n, a, &lda, tau, work, &lwork, info);
    else if constexpr (sizeof(T) == 4) L.sgeqrf(&m, &n, a, &lda, tau, work, &lwork, info);
    else L.dgeqrf(&m, &n, a, &lda, tau, work, &lwork, info);
}
template <class T>
void orgqr(const Library& L, lapack_int m, lapack_int n, lapack_int k, T* a, const T* tau, T* work, lapack_int lwork, lapack_int* info) {
    lapack_int lda = m > 1 ? m : 1;
    if constexpr (std::is_same_v<T, Cf>) L.cungqr(&m, &n, &k, a, &lda, tau, work, &lwork, info);  // complex: unitary Q
    else if constexpr (std::is_same_v<T, Cd>) L.zungqr(&m, &n, &k, a, &lda, tau, work, &lwork, info);
    else if constexpr (sizeof(T) == 4) L.sorgqr(&m, &n, &k, a, &lda, tau, work, &lwork, info);
    else L.dorgqr(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
// General eigenproblem (column-major a, overwritten): eigenvalues wr + i wi,
// right eigenvectors in vr when jobvr = 'V' (conjugate pairs as LAPACK packs them).
template <class T>
void geev(const Library& L, char jobvr, lapack_int n, T* a, T* wr, T* wi, T* vr, lapack_int ldvr, T* work, lapack_int lwork,
          lapack_int* info) {
    const char jobvl = 'N';
    lapack_int lda = n > 0 ? n : 1, ldvl = 1;
    T vl = 0;
    if constexpr (sizeof(T) == 4) L.sgeev(&jobvl, &jobvr, &n, a, &lda, wr, wi, &vl, &ldvl, vr, &ldvr, work, &lwork, info, 1, 1);
    else L.dgeev(&jobvl, &jobvr, &n, a, &lda, wr, wi, &vl, &ldvl, vr, &ldvr, work, &lwork, info, 1, 1);
}
// The complex form: eigenvalues w directly (no conjugate-pair packing);
// rwork holds 2n reals.
template <class T>
void geev(const Library& L, char jobvr, lapack_int n, T* a, T* w, T* vr, lapack_int ldvr, T* work, lapack_int lwork, real_t<T>* rwork,
          lapack_int* info) {
    const char jobvl = 'N';
    lapack_int lda = n > 0 ? n : 1, ldvl = 1;
    T vl = 0;
    if constexpr (std::is_same_v<T, Cf>) L.cgeev(&jobvl, &jobvr, &n, a, &lda, w, &vl, &ldvl, vr, &ldvr, work, &lwork, rwork, info, 1, 1);
    else L.zgeev(&jobvl, &jobvr, &n, a, &lda, w, &vl, &ldvl, vr, &ldvr, work, &lwork, rwork, info, 1, 1);
}

// Symmetric (real T: syevd) or Hermitian (complex T: heevd) eigenproblem;
// the eigenvalues w are real either way.
template <class T>
void syevd(const Library& L, char jobz, char uplo, lapack_int n, T* a, real_t<T>* w, T* work, lapack_int lwork, real_t<T>* rwork,
           lapack_int lrwork, lapack_int* iwork, lapack_int liwork, lapack_int* info) {
    lapack_int lda = n > 1 ? n : 1;
    if constexpr (std::is_same_v<T, Cf>) L.cheevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork, &lrwork, iwork, &liwork, info, 1, 1);
    else if constexpr (std::is_same_v<T, Cd>) L.zheevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, rwork, &lrwork, iwork, &liwork, info, 1, 1);
    else if constexpr (sizeof(T) == 4) L.ssyevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1);
    else L.dsyevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info, 1, 1);
}
// Minimum-norm least squares; a is m x n (lda = max(1, m)), b is max(m, n) x nrhs.
template <class T>
void gelsd(const Library& L, lapack_int m, lapack_int n, lapack_int nrhs, T* a, T* b, lapack_int ldb, real_t<T>* s, real_t<T> rcond,
           lapack_int* rank, T* work, lapack_int lwork, real_t<T>* rwork, lapack_int* iwork, lapack_int* info) {
    lapack_int lda = m > 1 ? m : 1;
    if constexpr (std::is_same_v<T, Cf>) L.cgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, rwork, iwork, info);
    else if constexpr (std::is_same_v<T, Cd>) L.zgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, rwork, iwork, info);
    else if constexpr (sizeof(T) == 4) L.sgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, info);
    else L.dgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, info);
}
template <class T>
void potrf(const Library& L, char uplo, lapack_int n, T* a, lapack_int* info) {
    lapack_int lda = n > 1 ? n : 1;
    if constexpr (std::is_same_v<T, Cf>) L.cpotrf(&uplo, &n, a, &lda, info, 1);
    else if constexpr (std::is_same_v<T, Cd>) L.zpotrf(&uplo, &n, a, &lda, info, 1);
    else if constexpr (sizeof(T) == 4) L.spotrf(&uplo, &n, a, &lda, info, 1);
    else L.dpotrf(&uplo, &n, a, &lda, info, 1);
}

}  // namespace gpy::blas
