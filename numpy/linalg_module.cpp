// np.linalg: norm, solve, inv, det, slogdet, svd, qr, eigh, eigvalsh, eig,
// eigvals, cholesky, matrix_rank, pinv, lstsq on LAPACK (runtime/blas.h), over
// stacks of matrices, for float and complex inputs (complex through the c/z
// routines; singular values, Hermitian eigenvalues, norms and residuals come
// back real, as NumPy's). LAPACK is column-major: a C-contiguous matrix is its
// transpose to LAPACK, which several routines here use directly (inv(A^T) =
// inv(A)^T; the SVD of A^T hands back U and Vh swapped, for complex too); the
// others get a transposed copy.
#include <complex>
#include <cmath>
#include <cstring>
#include <limits>

#include "runtime/backend.h"
#include "numpy/promote.h"
#include "numpy/linalg.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;
using blas::lapack_int;

namespace {

TypeObject* g_linalg_error = nullptr;

[[noreturn]] void linalg_error(const std::string& msg) { raise(g_linalg_error, msg); }

ArrayObj* arr(const Value& v) { return v.as<ArrayObj>(); }

// NumPy computes integers and bools in float64 and keeps float32 and complex.
DType lapack_dtype(DType d) {
    if (is_complex(d)) return d;
    if (d == DType::Float16) raise(types::TypeError, "array type float16 is unsupported in linalg");
    return d == DType::Float32 ? DType::Float32 : DType::Float64;
}

// NumPy's _commonType for two operands: single precision only when both
// are float32 or complex64 (an integer or bool operand computes in float64:
// solve(float32 eye, int8 b) is float64), complex when either is.
DType lapack_dtype(DType a, DType b) {
    lapack_dtype(a);  // float16 is refused
    lapack_dtype(b);
    bool single = (a == DType::Float32 || a == DType::Complex64) && (b == DType::Float32 || b == DType::Complex64);
    if (is_complex(a) || is_complex(b)) return single ? DType::Complex64 : DType::Complex128;
    return single ? DType::Float32 : DType::Float64;
}

// A stack of matrices (..., rows, cols) copied C-contiguous into the LAPACK
// dtype (LAPACK overwrites its input); `transposed` copies each matrix's
// transpose instead, i.e. the matrix itself in column-major order.
struct Stack {
    Value a;
    Shape batch;
    int64_t rows = 0, cols = 0, count = 1;
    DType t = DType::Float64;       // what LAPACK computes in
    DType result = DType::Float64;  // what the function returns
    template <class T>
    T* mat(int64_t k) const {
        return reinterpret_cast<T*>(arr(a)->buffer.bytes() + arr(a)->offset) + k * rows * cols;
    }
    // Matrix k on the device (for cuSOLVER), and read-only on the host.
    template <class T>
    T* device_mat(int64_t k) const {
        return reinterpret_cast<T*>(arr(a)->buffer.device_bytes() + arr(a)->offset) + k * rows * cols;
    }
    template <class T>
    const T* read_mat(int64_t k) const {
        return reinterpret_cast<const T*>(arr(a)->buffer.host_read_bytes() + arr(a)->offset) + k * rows * cols;
    }
};

Value checked_matrices(Interp& in, const Value& v, bool square) {
    Value x = as_array_value(in, v);
    ArrayObj* a = arr(x);
    if (a->ndim() < 2) linalg_error(std::to_string(a->ndim()) + "-dimensional array given. Array must be at least two-dimensional");
    if (square && a->shape[size_t(a->ndim() - 1)] != a->shape[size_t(a->ndim() - 2)])
        linalg_error("Last 2 dimensions of the array must be square");
    return x;
}

// A C-contiguous copy (NumPy's linalg outputs are C-contiguous).
Value contiguous(const Value& v) { return compute_into_new(array_node(arr(v)), arr(v)->dtype, arr(v)->shape); }

// Swaps the last two axes (a view).
Value swap_last(const Value& v) {
    ArrayObj* a = arr(v);
    materialize(a);
    Shape s = a->shape;
    std::vector<int64_t> st = a->strides;
    size_t n = s.size();
    std::swap(s[n - 1], s[n - 2]);
    std::swap(st[n - 1], st[n - 2]);
    return array_from_buffer(a->buffer, a->dtype, s, st, a->offset);
}

// NumPy's linalg computes in double precision whatever the input ("lite
// version, use higher precision": _commonType) and casts the result back.
// `wide` does the same (all but eig/eigvals of real input); without it
// single precision computes in single.
DType wide_dtype(DType t) { return t == DType::Float32 ? DType::Float64 : t == DType::Complex64 ? DType::Complex128 : t; }

Stack stack_of(const Value& x, bool transposed, const Shape* batch = nullptr, bool wide = false) {
    Stack s;
    ArrayObj* a = arr(x);
    s.result = lapack_dtype(a->dtype);
    s.t = wide ? wide_dtype(s.result) : s.result;
    size_t n = a->shape.size();
    s.rows = a->shape[n - 2];
    s.cols = a->shape[n - 1];
    s.batch = batch ? *batch : Shape(a->shape.begin(), a->shape.end() - 2);
    for (int64_t d : s.batch) s.count *= d;
    Value src = transposed ? swap_last(x) : x;
    Shape shape = s.batch;
    shape.push_back(arr(src)->shape[n - 2]);
    shape.push_back(arr(src)->shape[n - 1]);
    s.a = compute_into_new(make_cast(array_node(arr(src)), s.t), s.t, shape);
    return s;
}

template <class T> struct is_std_complex : std::false_type {};
template <class T> struct is_std_complex<std::complex<T>> : std::true_type {};

// f(T{}) with T the C++ type of LAPACK dtype t.
template <class F>
void with_lapack_type(DType t, F&& f) {
    switch (t) {
        case DType::Float32: f(float{}); break;
        case DType::Complex64: f(std::complex<float>{}); break;
        case DType::Complex128: f(std::complex<double>{}); break;
        default: f(double{}); break;
    }
}

// The real dtype of a LAPACK dtype (singular values, Hermitian eigenvalues,
// norms and residuals of a complex matrix are real).
DType real_dtype(DType t) { return t == DType::Complex64 ? DType::Float32 : t == DType::Complex128 ? DType::Float64 : t; }

// A workspace size LAPACK reported in work[0] (complex: its real part).
template <class T>
size_t work_size(T query) {
    return size_t(std::real(query)) + 1;
}

template <class T>
bool has_inf(T x) {
    if constexpr (is_std_complex<T>::value) return std::isinf(x.real()) || std::isinf(x.imag());
    else return std::isinf(x);
}
template <class T>
bool has_nan(T x) {
    if constexpr (is_std_complex<T>::value) return std::isnan(x.real()) || std::isnan(x.imag());
    else return std::isnan(x);
}

template <class T>
T* data(const Value& v) {
    return reinterpret_cast<T*>(arr(v)->buffer.bytes() + arr(v)->offset);
}

lapack_int lint(int64_t v) {
    if (v > std::numeric_limits<lapack_int>::max()) raise(types::ValueError, "matrix too large for LAPACK (32-bit indices)");
    return lapack_int(v);
}

// Results with shape batch + dims.
Shape with_batch(const Shape& batch, std::initializer_list<int64_t> dims) {
    Shape s = batch;
    s.insert(s.end(), dims);
    return s;
}

// v cast to `to` (a wide computation's result back in the input's
// precision); anything else (an integer rank, a non-array) as it is.
Value narrowed(const Value& v, DType to) {
    ArrayObj* a = as_array(v);
    if (!a || a->dtype == to || !(is_float(a->dtype) || is_complex(a->dtype))) return v;
    return compute_into_new(make_cast(array_node(a), to), to, a->shape);
}

Value scalar_if_0d(Value v) {
    if (arr(v)->ndim() == 0) set_numpy_scalar(arr(v), true);
    return v;
}

// ---- solve, inv ----

// From this order up, real systems in device memory solve with cuSOLVER
// (runtime/cusolver.h); smaller ones stay on the host's LAPACK, whose
// roundings NumPy prints.
constexpr int64_t kDeviceSolveMin = 256;

// The backend to factor a real stack of order kDeviceSolveMin and up on its
// device (the stack's buffer lives there), or nullptr: LAPACK on the host.
template <class T>
Backend* device_solver(const Stack& s) {
    if constexpr (!std::is_same_v<T, float> && !std::is_same_v<T, double>) {
        return nullptr;
    } else {
        Backend* be = array_backend();
        ArrayObj* a = arr(s.a);
        if (!be || s.rows < kDeviceSolveMin || !a->buffer || a->buffer->device != DeviceKind::CUDA) return nullptr;
        return be;
    }
}

template <class T>
void gesv_all(const Stack& A, Value& B, int64_t nrhs) {
    const blas::Library& L = blas_library();
    lapack_int n = lint(A.rows), info = 0;
    std::vector<lapack_int> ipiv(size_t(std::max<int64_t>(n, 1)));
    if (n == 0) return;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        Backend* be = array_backend();
        ArrayObj *a = arr(A.a), *b = arr(B);
        if (be && n >= kDeviceSolveMin && a->buffer && a->buffer->device == DeviceKind::CUDA && b->buffer &&
            b->buffer->device == DeviceKind::CUDA) {
            bool all = true;
            for (int64_t k = 0; all && k < A.count; ++k) {
                int dinfo = 0;
                T* bk = reinterpret_cast<T*>(b->buffer.device_bytes() + b->offset) + k * n * nrhs;
                T* ak = reinterpret_cast<T*>(a->buffer.device_bytes() + a->offset) + k * n * n;
                all = be->gesv(std::is_same_v<T, double>, n, nrhs, ak, bk, &dinfo);
                if (all && dinfo > 0) linalg_error("Singular matrix");
            }
            if (all) return;
        }
    }
    for (int64_t k = 0; k < A.count; ++k) {
        blas::gesv<T>(L, n, lint(nrhs), A.mat<T>(k), ipiv.data(), data<T>(B) + k * n * nrhs, &info);
        if (info > 0) linalg_error("Singular matrix");
    }
}

Value la_solve(Interp& in, CallArgs& a) {
    expect_args(a, "solve", 2, 2);
    Value A = checked_matrices(in, a.pos[0], true);
    Value B = as_array_value(in, a.pos[1]);
    bool vec = arr(B)->ndim() == 1;
    int64_t n = arr(A)->shape.back();
    const char* sig = vec ? "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m)->(m)"
                          : "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (m,m),(m,n)->(m,n)";
    if (arr(B)->ndim() == 0) raise(types::ValueError, "solve1: Input operand 1 does not have enough dimensions (has 0, gufunc core with signature (m,m),(m)->(m) requires 1)");
    int64_t bn = arr(B)->shape[size_t(arr(B)->ndim() - (vec ? 1 : 2))];
    if (bn != n) raise(types::ValueError, std::string(sig) + " (size " + std::to_string(bn) + " is different from " + std::to_string(n) + ")");
    Shape ab(arr(A)->shape.begin(), arr(A)->shape.end() - 2);
    Shape bb(arr(B)->shape.begin(), arr(B)->shape.end() - (vec ? 1 : 2));
    Shape batch = broadcast_shapes({&ab, &bb});
    int64_t nrhs = vec ? 1 : arr(B)->shape.back();
    // A as column-major copies over the broadcast batch; B likewise (nrhs columns of n).
    auto broadcast_to = [&](const Value& x, int core) {
        ArrayObj* xa = arr(x);
        materialize(xa);
        Shape s = batch;
        std::vector<int64_t> st(batch.size(), 0);
        size_t own = size_t(xa->ndim() - core);
        for (size_t d = 0; d < own; ++d)
            if (xa->shape[d] != 1) st[batch.size() - own + d] = xa->strides[d];
        for (int d = core; d > 0; --d) {
            s.push_back(xa->shape[size_t(xa->ndim() - d)]);
            st.push_back(xa->strides[size_t(xa->ndim() - d)]);
        }
        return array_from_buffer(xa->buffer, xa->dtype, s, st, xa->offset);
    };
    Value Ab = broadcast_to(A, 2);
    Value Bb = broadcast_to(B, vec ? 1 : 2);
    if (vec) {  // (..., n) as (..., n, 1)
        ArrayObj* b = arr(Bb);
        Shape s = b->shape;
        std::vector<int64_t> st = b->strides;
        s.push_back(1);
        st.push_back(0);
        Bb = array_from_buffer(b->buffer, b->dtype, s, st, b->offset);
    }
    DType result = lapack_dtype(arr(A)->dtype, arr(B)->dtype), t = wide_dtype(result);
    Stack sa = stack_of(array_from_node(make_cast(array_node(arr(Ab)), t)), true, &batch);
    Stack sb = stack_of(array_from_node(make_cast(array_node(arr(Bb)), t)), true, &batch);
    with_lapack_type(t, [&](auto z) { gesv_all<decltype(z)>(sa, sb.a, nrhs); });
    // sb.a holds each solution column-major: its transpose is the answer.
    Value x = contiguous(swap_last(sb.a));
    if (vec) {
        ArrayObj* xa = arr(x);
        Shape s(xa->shape.begin(), xa->shape.end() - 1);
        std::vector<int64_t> st(xa->strides.begin(), xa->strides.end() - 1);
        x = array_from_buffer(xa->buffer, xa->dtype, s, st, xa->offset);
    }
    return narrowed(x, result);
}

Value la_inv(Interp& in, CallArgs& a) {
    expect_args(a, "inv", 1, 1);
    // As NumPy: A column-major to LAPACK, gesv against I, the solution read
    // back transposed (solving A^T instead gives other roundings).
    Stack s = stack_of(checked_matrices(in, a.pos[0], true), true, nullptr, true);
    Value eye = new_array(s.t, with_batch(s.batch, {s.rows, s.rows}), true);
    int64_t isz = int64_t(itemsize(s.t));
    uint8_t* p = arr(eye)->buffer.bytes();
    ScalarValue one = convert_scalar(Value::integer(1), s.t);
    for (int64_t k = 0; k < s.count; ++k)
        for (int64_t i = 0; i < s.rows; ++i) std::memcpy(p + ((k * s.rows + i) * s.rows + i) * isz, one.raw, size_t(isz));
    with_lapack_type(s.t, [&](auto z) { gesv_all<decltype(z)>(s, eye, s.rows); });
    return narrowed(contiguous(swap_last(eye)), s.result);
}

// ---- det, slogdet ----

// LU-factors each matrix; calls f(k, sign, log|det|) (sign 0, log -inf when
// singular), computed in the element's precision as NumPy's
// slogdet_from_factored_diagonal: a complex sign is the product of the
// pivots' d/|d|.
template <class T, class F>
void lu_dets(const Stack& s, F&& f) {
    using R = blas::real_t<T>;
    const blas::Library& L = blas_library();
    lapack_int n = lint(s.rows), info = 0;
    std::vector<lapack_int> ipiv(size_t(std::max<int64_t>(n, 1)));
    // On the device: every matrix factored there, pivots to the host, then
    // the factors read back once (the diagonals are what the loop needs).
    std::vector<int> device_pivots;
    if (Backend* be = device_solver<T>(s)) {
        device_pivots.resize(size_t(s.count * n));
        for (int64_t k = 0; k < s.count; ++k) {
            int dinfo = 0;
            if (!be->getrf(std::is_same_v<T, double>, n, s.device_mat<T>(k), device_pivots.data() + k * n, &dinfo)) {
                device_pivots.clear();
                break;
            }
        }
    }
    const bool on_device = !device_pivots.empty();
    for (int64_t k = 0; k < s.count; ++k) {
        T* m = on_device ? const_cast<T*>(s.read_mat<T>(k)) : s.mat<T>(k);
        if (n > 0 && !on_device) blas::getrf<T>(L, n, m, ipiv.data(), &info);
        const int* piv = on_device ? device_pivots.data() + k * n : nullptr;
        T sign = 1;
        R logdet = 0;
        for (lapack_int i = 0; i < n; ++i) {
            T d = m[i * n + i];
            if ((piv ? piv[i] : ipiv[size_t(i)]) != i + 1) sign = -sign;
            R ad = std::abs(d);
            if (ad == 0) {
                sign = 0;
                logdet = -R(INFINITY);
                break;
            }
            if constexpr (is_std_complex<T>::value) {
                T e(d.real() / ad, d.imag() / ad);
                sign = T(sign.real() * e.real() - sign.imag() * e.imag(), sign.real() * e.imag() + sign.imag() * e.real());
            } else if (d < 0) {
                sign = -sign;
            }
            logdet += std::log(ad);
        }
        f(k, sign, logdet, m);
    }
}

Value la_det(Interp& in, CallArgs& a) {
    expect_args(a, "det", 1, 1);
    // LU of A itself (a transposed copy), as NumPy does: the same rounding.
    Stack s = stack_of(checked_matrices(in, a.pos[0], true), true, nullptr, true);
    Value out = new_array(s.t, s.batch);
    with_lapack_type(s.t, [&](auto z) {
        using T = decltype(z);
        T* o = data<T>(out);
        // sign * exp(log|det|), as NumPy computes it.
        lu_dets<T>(s, [&](int64_t k, T sign, auto logdet, T*) { o[k] = sign * std::exp(logdet); });
    });
    return scalar_if_0d(narrowed(out, s.result));
}

Value la_slogdet(Interp& in, CallArgs& a) {
    expect_args(a, "slogdet", 1, 1);
    Stack s = stack_of(checked_matrices(in, a.pos[0], true), true, nullptr, true);
    // A complex matrix's logdet is real (complex64 -> float32).
    Value sign = new_array(s.t, s.batch), logdet = new_array(real_dtype(s.t), s.batch);
    with_lapack_type(s.t, [&](auto z) {
        using T = decltype(z);
        using R = blas::real_t<T>;
        T* so = data<T>(sign);
        R* lo = data<R>(logdet);
        lu_dets<T>(s, [&](int64_t k, T sg, R ld, T*) {
            so[k] = sg;
            lo[k] = ld;
        });
    });
    return make_tuple({scalar_if_0d(narrowed(sign, s.result)), scalar_if_0d(narrowed(logdet, real_dtype(s.result)))});
}

// ---- svd ----

struct SvdResult {
    Value u, s, vh;
};

// SVD of the row-major stack: LAPACK sees A^T = V S U^T, so its "U" is our Vh
// and its "VT" our U, both already in row-major order. For complex A the
// same holds (A^T = U' S V'^H transposes to A = (V'^H)^T S U'^T: plain
// transposes, no conjugation).
template <class T>
void svd_run(const Stack& st, bool full, bool uv, SvdResult& r) {
    using R = blas::real_t<T>;
    const blas::Library& L = blas_library();
    int64_t M = st.rows, N = st.cols, K = std::min(M, N);
    lapack_int m = lint(N), n = lint(M), info = 0;  // LAPACK's A is N x M
    char jobz = !uv ? 'N' : full ? 'A' : 'S';
    r.s = new_array(real_dtype(st.t), with_batch(st.batch, {K}));
    if (uv) {
        r.u = new_array(st.t, with_batch(st.batch, {M, full ? M : K}), true);
        r.vh = new_array(st.t, with_batch(st.batch, {full ? N : K, N}), true);
    }
    if (K == 0) {  // no singular values; the full factors are identities
        auto eye = [&](const Value& v, int64_t n) {
            if (!uv || !full) return;
            for (int64_t k = 0; k < st.count; ++k)
                for (int64_t i = 0; i < n; ++i) data<T>(v)[(k * n + i) * n + i] = 1;
        };
        eye(r.u, M);
        eye(r.vh, N);
        return;
    }
    lapack_int ldu = m;                          // LAPACK U: N x (N or K) = our Vh
    lapack_int ldvt = lint(full ? M : K);        // LAPACK VT: (M or K) x M = our U
    std::vector<lapack_int> iwork(size_t(8 * K));
    // Complex gesdd's real workspace: LAPACK 3.7's bound for vectors (5K+7)K
    // or (2max+2K+1)K, and 7K without (older LAPACKs asked 7K, newer 5K).
    int64_t mx = std::max(M, N);
    std::vector<R> rwork(is_std_complex<T>::value ? size_t(std::max({K * std::max(5 * K + 7, 2 * mx + 2 * K + 1), 7 * K, int64_t(1)})) : 1);
    T dummy = 0, query = 0;
    T* lu = uv ? data<T>(r.vh) : &dummy;
    T* lvt = uv ? data<T>(r.u) : &dummy;
    blas::gesdd<T>(L, jobz, m, n, st.mat<T>(0), data<R>(r.s), lu, ldu, lvt, ldvt, &query, -1, rwork.data(), iwork.data(), &info);
    std::vector<T> work(work_size(query));
    int64_t usz = (full ? N : K) * N, vsz = M * (full ? M : K);
    for (int64_t k = 0; k < st.count; ++k) {
        // An infinite entry (and no NaN, which LAPACK reports itself) sends
        // the reference LAPACK's gesdd with vectors into an endless loop;
        // NumPy's (OpenBLAS's) reports "SVD did not converge".
        if (uv) {
            const T* a = st.mat<T>(k);
            bool inf = false, nan = false;
            for (int64_t i = 0; i < M * N; ++i) inf |= has_inf(a[i]), nan |= has_nan(a[i]);
            if (inf && !nan) linalg_error("SVD did not converge");
        }
        blas::gesdd<T>(L, jobz, m, n, st.mat<T>(k), data<R>(r.s) + k * K, uv ? lu + k * usz : lu, ldu, uv ? lvt + k * vsz : lvt, ldvt,
                       work.data(), lapack_int(work.size()), rwork.data(), iwork.data(), &info);
        if (info != 0) linalg_error("SVD did not converge");  // info < 0: LAPACK 3.7+ reports a NaN entry as argument 4
    }
}

// The SVD of real matrices of at least kDeviceSolveMin rows and columns on
// the device (cuSOLVER's gesvd, which wants m >= n). The row-major stack is
// A^T column-major: a wide or square A is that (N x M) matrix as it is,
// and gesvd's U and VT are our Vh and U, already row-major; a tall A is
// first transposed into column-major A (M x N), whose U and VT come back as
// U^T and V. False: not applicable (LAPACK on the host).
template <class T>
bool svd_on_device(Interp& in, const Stack& st, bool full, bool uv, SvdResult& r) {
    const int64_t M = st.rows, N = st.cols, K = std::min(M, N);
    Backend* be = device_solver<T>(st);
    if (!be || K < kDeviceSolveMin) return false;
    // LAPACK (NumPy's OpenBLAS) does not converge on an inf or NaN.
    ReduceOptions o;
    if (!truthy(reduce(in, ReduceOp::All, apply_ufunc(in, Ufunc::isfinite, {st.a}), o))) linalg_error("SVD did not converge");
    const bool wide = N >= M;
    Value src = wide ? st.a : contiguous(swap_last(st.a));
    const int64_t gm = wide ? N : M, ucols = full ? gm : K;  // gesvd's m; its n is K
    Value s = new_array(st.t, with_batch(st.batch, {K}));
    Value lu, lvt;
    if (uv) {
        lu = new_array(st.t, with_batch(st.batch, {ucols, gm}));  // column-major gm x ucols
        lvt = new_array(st.t, with_batch(st.batch, {K, K}));
    }
    auto at = [](const Value& v, int64_t k, int64_t per) {
        return v.is_undef() ? nullptr : reinterpret_cast<T*>(arr(v)->buffer.device_bytes() + arr(v)->offset) + k * per;
    };
    const char jobu = !uv ? 'N' : full ? 'A' : 'S', jobvt = uv ? 'A' : 'N';
    for (int64_t k = 0; k < st.count; ++k) {
        int info = 0;
        if (!be->gesvd(std::is_same_v<T, double>, jobu, jobvt, gm, K, at(src, k, gm * K), at(s, k, K), at(lu, k, ucols * gm), gm,
                       at(lvt, k, K * K), K, &info)) {
            if (k == 0) return false;
            throw std::logic_error("svd: the device solver stopped mid-stack");
        }
        if (info != 0) linalg_error("SVD did not converge");
    }
    r.s = s;
    if (uv) {
        r.u = wide ? lvt : contiguous(swap_last(lu));
        r.vh = wide ? lu : contiguous(swap_last(lvt));
    }
    return true;
}

SvdResult svd_of(Interp& in, const Value& x, bool full, bool uv) {
    Stack st = stack_of(checked_matrices(in, x, false), false, nullptr, true);
    SvdResult r;
    bool done = false;
    with_lapack_type(st.t, [&](auto z) { done = svd_on_device<decltype(z)>(in, st, full, uv, r); });
    if (!done) with_lapack_type(st.t, [&](auto z) { svd_run<decltype(z)>(st, full, uv, r); });
    r.u = narrowed(r.u, st.result);
    r.s = narrowed(r.s, real_dtype(st.result));
    r.vh = narrowed(r.vh, st.result);
    return r;
}

Value la_svd(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "svd() missing required argument 'a' (pos 0)");
    const Value* fm = arg(a, 1, "full_matrices");
    const Value* cu = arg(a, 2, "compute_uv");
    if (const Value* h = arg(a, 3, "hermitian"); h && truthy(*h))
        raise(types::NotImplementedError, "svd(hermitian=True) is not supported yet");
    bool uv = !cu || truthy(*cu);
    SvdResult r = svd_of(in, *x, !fm || truthy(*fm), uv);
    return uv ? make_tuple({r.u, r.s, r.vh}) : r.s;
}

// ---- qr ----

template <class T>
void qr_run(const Stack& st, const std::string& mode, Value& q, Value& r) {
    const blas::Library& L = blas_library();
    int64_t M = st.rows, N = st.cols, K = std::min(M, N);
    bool complete = mode == "complete";
    int64_t rrows = complete ? M : K, qcols = complete ? M : K;
    r = new_array(st.t, with_batch(st.batch, {rrows, N}), true);
    if (mode != "r") q = new_array(st.t, with_batch(st.batch, {M, qcols}), true);
    lapack_int m = lint(M), n = lint(N), info = 0;
    std::vector<T> tau(size_t(std::max<int64_t>(K, 1)));
    std::vector<T> qbuf(size_t(M * std::max(N, qcols)));
    for (int64_t k = 0; k < st.count; ++k) {
        T* A = st.mat<T>(k);  // column-major M x N (a transposed copy)
        T* R = data<T>(r) + k * rrows * N;
        if (K > 0) {
            T query = 0;
            blas::geqrf<T>(L, m, n, A, tau.data(), &query, -1, &info);
            std::vector<T> work(work_size(query));
            blas::geqrf<T>(L, m, n, A, tau.data(), work.data(), lapack_int(work.size()), &info);
        }
        for (int64_t i = 0; i < std::min(rrows, M); ++i)
            for (int64_t j = i; j < N; ++j) R[i * N + j] = A[j * M + i];
        if (mode == "r") continue;
        T* Q = data<T>(q) + k * M * qcols;
        if (K == 0) {
            for (int64_t i = 0; i < std::min(M, qcols); ++i) Q[i * qcols + i] = 1;
            continue;
        }
        // orgqr expands the reflectors in place: M x qcols, column-major.
        std::copy(A, A + M * std::min(N, qcols), qbuf.begin());
        T query = 0;
        lapack_int qc = lint(qcols);
        blas::orgqr<T>(L, m, qc, lint(K), qbuf.data(), tau.data(), &query, -1, &info);
        std::vector<T> work(work_size(query));
        blas::orgqr<T>(L, m, qc, lint(K), qbuf.data(), tau.data(), work.data(), lapack_int(work.size()), &info);
        for (int64_t i = 0; i < M; ++i)
            for (int64_t j = 0; j < qcols; ++j) Q[i * qcols + j] = qbuf[size_t(j * M + i)];
    }
}

// QR of real matrices of at least kDeviceSolveMin rows and columns on the
// device (cuSOLVER's geqrf + orgqr): the stack is column-major A (M x N);
// R is the upper triangle of its first rows, Q (M x qcols, column-major)
// comes from orgqr over a copy of the reflectors. False: not applicable.
template <class T>
bool qr_on_device(Interp& in, const Stack& st, const std::string& mode, Value& q, Value& r) {
    const int64_t M = st.rows, N = st.cols, K = std::min(M, N);
    Backend* be = device_solver<T>(st);
    if (!be || K < kDeviceSolveMin) return false;
    ArrayObj* a = arr(st.a);
    const bool complete = mode == "complete", with_q = mode != "r";
    const int64_t rrows = complete ? M : K, qcols = complete ? M : K;
    Value qc;
    if (with_q) qc = new_array(st.t, with_batch(st.batch, {qcols, M}));  // column-major M x qcols
    for (int64_t k = 0; k < st.count; ++k) {
        int info = 0;
        T* ak = reinterpret_cast<T*>(a->buffer.device_bytes() + a->offset) + k * M * N;
        T* qk = with_q ? reinterpret_cast<T*>(arr(qc)->buffer.device_bytes() + arr(qc)->offset) + k * M * qcols : nullptr;
        if (!be->qr(std::is_same_v<T, double>, M, N, ak, qcols, qk, &info)) {
            if (k == 0) return false;
            throw std::logic_error("qr: the device solver stopped mid-stack");
        }
    }
    // R: the factored matrix read row-major (M x N), its upper triangle, first rrows rows.
    Value pos[1] = {swap_last(st.a)};
    CallArgs ca{pos, 1, nullptr};
    Value upper = np_triu(in, ca);
    r = contiguous(slice_axis(arr(upper), arr(upper)->ndim() - 2, 0, rrows));
    if (with_q) q = contiguous(swap_last(qc));
    return true;
}

Value la_qr(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "qr() missing required argument 'a' (pos 0)");
    const Value* mv = arg(a, 1, "mode");
    std::string mode = mv ? str_of(*mv, "mode") : "reduced";
    if (mode == "raw" || mode == "full" || mode == "economic")
        raise(types::NotImplementedError, "qr(mode='" + mode + "') is not supported (deprecated in NumPy)");
    if (mode != "reduced" && mode != "complete" && mode != "r") raise(types::ValueError, "Unrecognized mode '" + mode + "'");
    Stack st = stack_of(checked_matrices(in, *x, false), true, nullptr, true);
    Value q, r;
    bool done = false;
    with_lapack_type(st.t, [&](auto z) { done = qr_on_device<decltype(z)>(in, st, mode, q, r); });
    if (!done) with_lapack_type(st.t, [&](auto z) { qr_run<decltype(z)>(st, mode, q, r); });
    r = narrowed(r, st.result);
    return mode == "r" ? r : make_tuple({narrowed(q, st.result), r});
}

// ---- eigh, eigvalsh, cholesky ----

std::string uplo_arg(CallArgs& a, size_t pos) {
    const Value* u = arg(a, pos, "UPLO");
    std::string s = u ? str_of(*u, "UPLO") : "L";
    if (s != "L" && s != "U") raise(types::ValueError, "UPLO argument must be 'L' or 'U'");
    return s;
}

template <class T>
void eigh_run(const Stack& st, bool vectors, char uplo, Value& w) {
    using R = blas::real_t<T>;
    const blas::Library& L = blas_library();
    lapack_int n = lint(st.rows), info = 0;
    w = new_array(real_dtype(st.t), with_batch(st.batch, {st.rows}));
    if (n == 0) return;
    char jobz = vectors ? 'V' : 'N';
    T wq = 0;
    R rq = 0;
    lapack_int iq = 0;
    if constexpr (std::is_same_v<T, R>) {
        if (Backend* be = device_solver<T>(st)) {
            ArrayObj* wa = arr(w);
            bool all = true;
            for (int64_t k = 0; all && k < st.count; ++k) {
                int dinfo = 0;
                T* wk = reinterpret_cast<T*>(wa->buffer.device_bytes() + wa->offset) + k * n;
                all = be->syevd(std::is_same_v<T, double>, vectors, uplo == 'L', n, st.device_mat<T>(k), wk, &dinfo);
                if (all && dinfo != 0) linalg_error("Eigenvalues did not converge");
            }
            if (all) return;
        }
    }
    blas::syevd<T>(L, jobz, uplo, n, st.mat<T>(0), data<R>(w), &wq, -1, &rq, -1, &iq, -1, &info);
    std::vector<T> work(work_size(wq));
    std::vector<R> rwork(work_size(rq));  // complex only (real syevd reports nothing here)
    std::vector<lapack_int> iwork(size_t(iq) + 1);
    for (int64_t k = 0; k < st.count; ++k) {
        blas::syevd<T>(L, jobz, uplo, n, st.mat<T>(k), data<R>(w) + k * n, work.data(), lapack_int(work.size()), rwork.data(),
                       lapack_int(rwork.size()), iwork.data(), lapack_int(iwork.size()), &info);
        if (info != 0) linalg_error("Eigenvalues did not converge");
    }
}

Value eigh_impl(Interp& in, CallArgs& a, bool vectors) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "missing required argument 'a' (pos 0)");
    // The row-major copy is A^T to LAPACK: A's lower triangle is its upper
    // one. A complex A^T is conj(A) (Hermitian), whose eigenvectors are the
    // conjugates: complex A goes column-major instead, with UPLO as given.
    Value m = checked_matrices(in, *x, true);
    bool cplx = is_complex(arr(m)->dtype);
    char uplo = (uplo_arg(a, 1) == "L") != cplx ? 'U' : 'L';
    Stack st = stack_of(m, cplx, nullptr, true);
    Value w;
    with_lapack_type(st.t, [&](auto z) { eigh_run<decltype(z)>(st, vectors, uplo, w); });
    w = narrowed(w, real_dtype(st.result));
    if (!vectors) return w;
    // Eigenvectors are LAPACK's columns: the transpose of the row-major buffer.
    return make_tuple({w, narrowed(contiguous(swap_last(st.a)), st.result)});
}

// ---- eig, eigvals ----

// geev of a real stack of order kDeviceSolveMin and up on its device
// (cuSOLVER's Xgeev, where the library has it): LAPACK's wr, wi and packed
// right vectors, copied to the host for eig_run's unpacking. False: LAPACK.
template <class T>
bool eig_on_device(const Stack& st, bool vectors, std::vector<T>& wr, std::vector<T>& wi, std::vector<T>& vr) {
    Backend* be = device_solver<T>(st);
    if (!be) return false;
    const int64_t n = st.rows;
    const size_t N = size_t(n);
    Value w = new_array(st.t, {st.count, 2 * n});
    Value v = new_array(st.t, {vectors ? st.count : 1, vectors ? n * n : 1});
    T* wd = reinterpret_cast<T*>(arr(w)->buffer.device_bytes());
    T* vd = reinterpret_cast<T*>(arr(v)->buffer.device_bytes());
    for (int64_t k = 0; k < st.count; ++k) {
        int info = 0;
        if (!be->geev(std::is_same_v<T, double>, vectors, n, st.device_mat<T>(k), wd + k * 2 * n, vectors ? vd + k * n * n : nullptr, &info)) {
            if (k == 0) return false;
            throw std::logic_error("eig: the device solver stopped mid-stack");
        }
        if (info < 0) throw std::logic_error("eig: cusolverDnXgeev rejected argument " + std::to_string(-info));
        if (info != 0) linalg_error("Eigenvalues did not converge");
    }
    const T* wh = reinterpret_cast<const T*>(arr(w)->buffer.host_read_bytes());
    for (size_t k = 0; k < size_t(st.count); ++k) {
        std::copy(wh + k * 2 * N, wh + k * 2 * N + N, wr.data() + k * N);
        std::copy(wh + k * 2 * N + N, wh + (k + 1) * 2 * N, wi.data() + k * N);
    }
    if (vectors) {
        const T* vh = reinterpret_cast<const T*>(arr(v)->buffer.host_read_bytes());
        std::copy(vh, vh + size_t(st.count) * N * N, vr.data());
    }
    return true;
}

// geev on each matrix (NumPy's route: a column-major copy, right vectors
// only). Real results when every eigenvalue of the stack is real, as NumPy;
// otherwise complex, each conjugate pair's vectors unpacked from LAPACK's
// (re, im) column pair.
template <class T>
void eig_run(Interp& in, const Stack& st, bool vectors, Value& w, Value& v) {
    const blas::Library& L = blas_library();
    lapack_int n = lint(st.rows), info = 0;
    size_t N = size_t(n), count = size_t(st.count);
    std::vector<T> wr(count * N), wi(count * N), vr(vectors ? count * N * N : 1);
    if (eig_on_device<T>(st, vectors, wr, wi, vr)) {
    } else if (n > 0) {
        T wq = 0;
        blas::geev<T>(L, vectors ? 'V' : 'N', n, st.mat<T>(0), wr.data(), wi.data(), vr.data(), n, &wq, -1, &info);
        std::vector<T> work(size_t(wq) + 1);
        for (size_t k = 0; k < count; ++k) {
            blas::geev<T>(L, vectors ? 'V' : 'N', n, st.mat<T>(int64_t(k)), wr.data() + k * N, wi.data() + k * N,
                          vectors ? vr.data() + k * N * N : vr.data(), n, work.data(), lapack_int(work.size()), &info);
            if (info != 0) linalg_error("Eigenvalues did not converge");
        }
    }
    bool real = std::all_of(wi.begin(), wi.end(), [](T x) { return x == 0; });
    DType ct = st.t == DType::Float32 ? DType::Complex64 : DType::Complex128;
    using C = std::complex<T>;
    w = new_array(real ? st.t : ct, with_batch(st.batch, {st.rows}));
    if (vectors) v = new_array(real ? st.t : ct, with_batch(st.batch, {st.rows, st.rows}));
    for (size_t k = 0; k < count; ++k) {
        const T* r = wr.data() + k * N;
        const T* im = wi.data() + k * N;
        const T* V = vr.data() + (vectors ? k * N * N : 0);  // column j at V + j * N
        if (real) {
            std::copy(r, r + N, data<T>(w) + k * N);
            if (vectors)
                for (size_t i = 0; i < N; ++i)
                    for (size_t j = 0; j < N; ++j) data<T>(v)[k * N * N + i * N + j] = V[j * N + i];
            continue;
        }
        for (size_t j = 0; j < N; ++j) data<C>(w)[k * N + j] = C(r[j], im[j]);
        if (!vectors) continue;
        C* out = data<C>(v) + k * N * N;
        for (size_t j = 0; j < N; ++j) {
            if (im[j] != 0 && j + 1 < N) {
                for (size_t i = 0; i < N; ++i) {
                    out[i * N + j] = C(V[j * N + i], V[(j + 1) * N + i]);
                    out[i * N + j + 1] = C(V[j * N + i], -V[(j + 1) * N + i]);
                }
                ++j;
            } else {
                for (size_t i = 0; i < N; ++i) out[i * N + j] = C(V[j * N + i], 0);
            }
        }
    }
    (void)in;
}

// Complex geev (complex input, computed in complex128 as NumPy's
// _commonType): eigenvalues straight into w, right vectors column-major in
// vr, read back transposed. Always complex results.
template <class T>
void eig_run_complex(const Stack& st, bool vectors, Value& w, Value& v) {
    const blas::Library& L = blas_library();
    lapack_int n = lint(st.rows), info = 0;
    w = new_array(st.t, with_batch(st.batch, {st.rows}));
    Value vr = new_array(st.t, vectors ? with_batch(st.batch, {st.rows, st.rows}) : Shape{1});
    if (n > 0) {
        T wq = 0;
        std::vector<blas::real_t<T>> rwork(size_t(2 * n));
        blas::geev<T>(L, vectors ? 'V' : 'N', n, st.mat<T>(0), data<T>(w), data<T>(vr), n, &wq, -1, rwork.data(), &info);
        std::vector<T> work(work_size(wq));
        for (int64_t k = 0; k < st.count; ++k) {
            blas::geev<T>(L, vectors ? 'V' : 'N', n, st.mat<T>(k), data<T>(w) + k * n, data<T>(vr) + (vectors ? k * n * n : 0), n,
                          work.data(), lapack_int(work.size()), rwork.data(), &info);
            if (info != 0) linalg_error("Eigenvalues did not converge");
        }
    }
    if (vectors) v = contiguous(swap_last(vr));
}

Value eig_impl(Interp& in, CallArgs& a, bool vectors) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, std::string(vectors ? "eig" : "eigvals") + "() missing required argument 'a' (pos 0)");
    Value m = checked_matrices(in, *x, true);
    ReduceOptions o;
    if (!truthy(reduce(in, ReduceOp::All, apply_ufunc(in, Ufunc::isfinite, {m}), o)))
        linalg_error("Array must not contain infs or NaNs");
    if (is_complex(arr(m)->dtype)) {
        Stack st = stack_of(m, true, nullptr, true);
        Value w, v;
        with_lapack_type(st.t, [&](auto z) {
            if constexpr (is_std_complex<decltype(z)>::value) eig_run_complex<decltype(z)>(st, vectors, w, v);
        });
        w = narrowed(w, st.result);
        return vectors ? make_tuple({w, narrowed(v, st.result)}) : w;
    }
    Stack st = stack_of(m, true);  // the transpose's row-major copy: column-major for LAPACK
    Value w, v;
    if (st.t == DType::Float32) eig_run<float>(in, st, vectors, w, v);
    else eig_run<double>(in, st, vectors, w, v);
    return vectors ? make_tuple({w, v}) : w;
}
Value la_eig(Interp& in, CallArgs& a) { return eig_impl(in, a, true); }
Value la_eigvals(Interp& in, CallArgs& a) { return eig_impl(in, a, false); }

Value la_eigh(Interp& in, CallArgs& a) { return eigh_impl(in, a, true); }
Value la_eigvalsh(Interp& in, CallArgs& a) { return eigh_impl(in, a, false); }

// NumPy's cholesky reads one triangle of each matrix: the lower one (L with
// A = L L^H), or with upper=True the upper one (R with A = R^H R), so a
// matrix that is not symmetric gives different factors for the two.
template <class T>
void cholesky_run(const Stack& st, bool upper) {
    const blas::Library& L = blas_library();
    lapack_int n = lint(st.rows), info = 0;
    if (Backend* be = device_solver<T>(st)) {
        // cuSOLVER leaves the other triangle as it was: la_cholesky zeroes it.
        bool all = true;
        for (int64_t k = 0; all && k < st.count; ++k) {
            int dinfo = 0;
            // LAPACK's view is A^T, as on the host: its lower triangle is R's.
            all = be->potrf(std::is_same_v<T, double>, /*lower=*/upper, n, st.device_mat<T>(k), &dinfo);
            if (all && dinfo > 0) linalg_error("Matrix is not positive definite");
        }
        if (all) return;
    }
    for (int64_t k = 0; k < st.count; ++k) {
        T* m = st.mat<T>(k);
        // The row-major matrix is A^T to LAPACK: 'U' of it is L of A's lower
        // triangle, 'L' of it is R of A's upper triangle, read back row-major.
        if (n > 0) blas::potrf<T>(L, upper ? 'L' : 'U', n, m, &info);
        if (info > 0) linalg_error("Matrix is not positive definite");
        for (int64_t i = 0; i < n; ++i)
            for (int64_t j = 0; j < n; ++j)
                if (upper ? j < i : j > i) m[i * n + j] = 0;
    }
}

Value la_cholesky(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "cholesky() missing required argument 'a' (pos 0)");
    const Value* up = kwarg(a, "upper");
    bool upper = up && truthy(*up);
    // Complex works unchanged: potrf of A^T (the row-major copy) gives A^T's
    // Hermitian = U^H U, so A = U^T conj(U): L = U^T, which is U read row-major.
    Stack st = stack_of(checked_matrices(in, *x, true), false, nullptr, true);
    with_lapack_type(st.t, [&](auto z) { cholesky_run<decltype(z)>(st, upper); });
    if (arr(st.a)->buffer->device == DeviceKind::CUDA && st.rows >= kDeviceSolveMin && !is_complex(st.t)) {
        // Factored on the device: the triangle NumPy zeroes, zeroed by a kernel.
        Value pos[1] = {st.a};
        CallArgs ca{pos, 1, nullptr};
        st.a = upper ? np_triu(in, ca) : np_tril(in, ca);
    }
    return narrowed(st.a, st.result);
}

// ---- matrix_rank, pinv ----

double eps_of(DType t) { return real_dtype(t) == DType::Float32 ? double(std::numeric_limits<float>::epsilon()) : std::numeric_limits<double>::epsilon(); }

Value la_matrix_rank(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "A");
    if (!x) raise(types::TypeError, "matrix_rank() missing required argument 'A' (pos 0)");
    Value A = as_array_value(in, *x);
    if (arr(A)->ndim() < 2) {
        ReduceOptions o;
        Value all_zero = reduce(in, ReduceOp::All, apply_ufunc(in, Ufunc::equal, {A, Value::integer(0)}), o);
        return Value::integer(truthy(all_zero) ? 0 : 1);
    }
    if (const Value* h = arg(a, 2, "hermitian"); h && truthy(*h))
        raise(types::NotImplementedError, "matrix_rank(hermitian=True) is not supported yet");
    SvdResult r = svd_of(in, A, false, false);
    ArrayObj* s = arr(r.s);
    int64_t M = arr(A)->shape[size_t(arr(A)->ndim() - 2)], N = arr(A)->shape.back();
    Value axis = Value::integer(-1);
    ReduceOptions mo;
    mo.axis = &axis;
    mo.keepdims = true;
    // A given tol or rtol is asarray(v)[..., newaxis], as NumPy: an array of
    // them broadcasts against the stack of matrices.
    auto per_matrix = [&](const Value& v) {
        Value t = as_array_value(in, v);
        return insert_axis(t.as<ArrayObj>(), t.as<ArrayObj>()->ndim());
    };
    Value tol;
    if (const Value* t = arg_not_none(a, 1, "tol")) {
        tol = per_matrix(*t);
    } else {
        Value rtol = Value::real(double(std::max(M, N)) * eps_of(s->dtype));
        if (const Value* rt = arg_not_none(a, 3, "rtol")) rtol = per_matrix(*rt);
        tol = apply_ufunc(in, Ufunc::multiply, {reduce(in, ReduceOp::Max, r.s, mo), rtol});
    }
    ReduceOptions co;
    co.axis = &axis;
    co.dtype = DType::Int64;
    return reduce(in, ReduceOp::Sum, apply_ufunc(in, Ufunc::greater, {r.s, tol}), co);
}

// NumPy's pinv: rcond= or rtol= (not both; neither: 1e-15; rtol=None:
// max(M, N) * eps), as an array whose [..., newaxis] scales max(s); the
// mask of kept singular values must broadcast to s (NumPy divides with
// out=s, where=large).
Value la_pinv(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "pinv() missing required argument 'a' (pos 0)");
    if (const Value* h = arg(a, 2, "hermitian"); h && truthy(*h)) raise(types::NotImplementedError, "pinv(hermitian=True) is not supported yet");
    Value A = checked_matrices(in, *x, false);
    ArrayObj* aa = arr(A);
    int64_t M = aa->shape[size_t(aa->ndim() - 2)], N = aa->shape.back();
    DType t = real_dtype(lapack_dtype(aa->dtype));  // the singular values' dtype
    const Value* rc = arg_not_none(a, 1, "rcond");
    const Value* rt = arg(a, 3, "rtol");
    if (rc && rt) raise(types::ValueError, "`rtol` and `rcond` can't be both set.");
    Value rcond = Value::real(1e-15);
    if (rc) rcond = *rc;
    else if (rt) rcond = rt->is_none() ? Value::real(double(std::max(M, N)) * eps_of(t)) : *rt;
    Value rca = as_array_value(in, rcond);
    rcond = insert_axis(rca.as<ArrayObj>(), rca.as<ArrayObj>()->ndim());
    if (M == 0 || N == 0) {
        Shape shape(aa->shape.begin(), aa->shape.end() - 2);
        shape.push_back(N);
        shape.push_back(M);
        return new_array(aa->dtype, shape);
    }
    // pinv = V diag(1/s where s > rcond * max(s), else 0) U^H. As NumPy: the
    // SVD of conj(A) (= conj(U) S conj(Vh)), so plain transposes of its
    // factors give V and U^H.
    SvdResult r = svd_of(in, is_complex(aa->dtype) ? apply_ufunc(in, Ufunc::conjugate, {A}) : A, false, true);
    Value axis = Value::integer(-1);
    ReduceOptions mo;
    mo.axis = &axis;
    mo.keepdims = true;
    Value cutoff = apply_ufunc(in, Ufunc::multiply, {rcond, reduce(in, ReduceOp::Max, r.s, mo)});
    Value large = apply_ufunc(in, Ufunc::greater, {r.s, cutoff});
    const Shape& ss = arr(r.s)->shape;
    Shape bs = broadcast_shapes({&arr(large)->shape, &ss});
    if (bs != ss)
        raise(types::ValueError, "non-broadcastable output operand with shape " + compact_shape_text(ss) +
                                     " doesn't match the broadcast shape " + compact_shape_text(bs));
    Value inv = apply_ufunc(in, Ufunc::true_divide, {Value::integer(1), r.s});
    Value sinv = array_from_node(make_where(array_node(arr(large)), array_node(arr(inv)), make_scalar(t, ScalarValue()), ss));
    // NumPy's order: V (N x K) @ (U^H (K x M) with its rows scaled by sinv[..., newaxis]).
    ArrayObj* si = arr(sinv);
    materialize(si);
    Shape s1 = si->shape;
    std::vector<int64_t> st1 = si->strides;
    s1.push_back(1);
    st1.push_back(0);
    Value su = apply_ufunc(in, Ufunc::multiply, {array_from_buffer(si->buffer, si->dtype, s1, st1, si->offset), swap_last(r.u)});
    return matmul(in, swap_last(r.vh), su);
}

// ---- lstsq ----

// From this many rows (and at least twice as many rows as columns) a real
// least-squares system in device memory is reduced by QR on the device.
constexpr int64_t kDeviceLstsqMinRows = 4096;

template <class T>
Backend* device_lstsq(const Stack& A, const Stack& B, int64_t nrhs) {
    if constexpr (!std::is_same_v<T, float> && !std::is_same_v<T, double>) {
        return nullptr;
    } else {
        Backend* be = array_backend();
        ArrayObj *a = arr(A.a), *b = arr(B.a);
        if (!be || A.rows < kDeviceLstsqMinRows || A.rows < 2 * A.cols || A.cols == 0 || nrhs == 0 || !a->buffer ||
            a->buffer->device != DeviceKind::CUDA || !b->buffer || b->buffer->device != DeviceKind::CUDA)
            return nullptr;
        return be;
    }
}

template <class T>
Value lstsq_run(const Stack& A, const Stack& B, int64_t nrhs, double rcond, bool vec) {
    using R = blas::real_t<T>;
    const blas::Library& L = blas_library();
    int64_t M = A.rows, N = A.cols, K = std::min(M, N), ldb = std::max<int64_t>({M, N, 1});
    // b padded to max(M, N) rows: gelsd writes the N-row solution over it.
    // LAPACK refuses nrhs = 0, so that gets one zero column, as NumPy does
    // (rank and s are still reported).
    lapack_int cols = lint(std::max<int64_t>(nrhs, 1));
    std::vector<T> b(size_t(ldb * cols), T(0));
    DType rt = real_dtype(A.t);  // singular values and residuals are real
    Value s = new_array(rt, {K});
    lapack_int rank = 0, info = 0;
    // A tall device system: QR on the device (A = QR, b -> Q^T b), then
    // gelsd of the n x n R on the host: the same solution, rank and singular
    // values (R's are A's), and Q^T b's rows past N give the residuals.
    int64_t rows = M;
    T* amat = nullptr;
    std::vector<T> r_host;
    if (Backend* be = device_lstsq<T>(A, B, nrhs)) {
        int dinfo = 0;
        if (be->qr_apply(std::is_same_v<T, double>, M, N, A.device_mat<T>(0), nrhs, B.device_mat<T>(0), &dinfo)) {
            const T* qa = A.read_mat<T>(0);
            r_host.assign(size_t(N * N), T(0));
            for (int64_t j = 0; j < N; ++j)
                for (int64_t i = 0; i <= j; ++i) r_host[size_t(j * N + i)] = qa[j * M + i];
            const T* qb = B.read_mat<T>(0);
            for (int64_t j = 0; j < nrhs; ++j)
                for (int64_t i = 0; i < M; ++i) b[size_t(j * ldb + i)] = qb[j * M + i];
            rows = N;
            amat = r_host.data();
        }
    }
    if (!amat) {
        const T* bsrc = B.read_mat<T>(0);  // column-major M x nrhs
        for (int64_t j = 0; j < nrhs; ++j)
            for (int64_t i = 0; i < M; ++i) b[size_t(j * ldb + i)] = bsrc[j * M + i];
        if (M > 0 && N > 0) amat = A.mat<T>(0);
    }
    if (M > 0 && N > 0) {
        T wq = 0;
        R rq = 0;
        lapack_int iq = 0;
        blas::gelsd<T>(L, lint(rows), lint(N), cols, amat, b.data(), lint(ldb), data<R>(s), R(rcond), &rank, &wq, -1, &rq, &iq,
                       &info);
        std::vector<T> work(work_size(wq));
        std::vector<R> rwork(work_size(rq));  // complex only
        std::vector<lapack_int> iwork(size_t(std::max<lapack_int>(iq, 1)));
        blas::gelsd<T>(L, lint(rows), lint(N), cols, amat, b.data(), lint(ldb), data<R>(s), R(rcond), &rank, work.data(),
                       lapack_int(work.size()), rwork.data(), iwork.data(), &info);
        if (info != 0) linalg_error("SVD did not converge in Linear Least Squares");
    }
    Value x = new_array(A.t, vec ? Shape{N} : Shape{N, nrhs}, true);
    for (int64_t i = 0; i < N; ++i)
        for (int64_t j = 0; j < nrhs; ++j) data<T>(x)[i * nrhs + j] = b[size_t(j * ldb + i)];
    // Residuals (sums of squares of b's rows past N) only for a full-rank tall system.
    bool resid = rank == N && M > N;
    Value r = new_array(rt, {resid ? nrhs : 0});
    for (int64_t j = 0; resid && j < nrhs; ++j) {
        R acc = 0;
        for (int64_t i = N; i < M; ++i) acc += std::norm(b[size_t(j * ldb + i)]);  // |b|^2
        data<R>(r)[j] = acc;
    }
    Value rk = new_array(DType::Int32, {});
    *data<int32_t>(rk) = rank;
    set_numpy_scalar(arr(rk), true);
    return make_tuple({x, r, rk, s});
}

Value la_lstsq(Interp& in, CallArgs& a) {
    const Value* av = arg(a, 0, "a");
    const Value* bv = arg(a, 1, "b");
    if (!av || !bv) raise(types::TypeError, "lstsq() missing required argument 'b' (pos 1)");
    Value A = as_array_value(in, *av), B = as_array_value(in, *bv);
    for (const Value* v : {&A, &B}) {
        int nd = arr(*v)->ndim();
        if (nd != 2 && !(v == &B && nd == 1)) linalg_error(std::to_string(nd) + "-dimensional array given. Array must be two-dimensional");
    }
    bool vec = arr(B)->ndim() == 1;
    int64_t M = arr(A)->shape[0], N = arr(A)->shape[1];
    if (arr(B)->shape[0] != M) linalg_error("Incompatible dimensions");
    int64_t nrhs = vec ? 1 : arr(B)->shape[1];
    DType result = lapack_dtype(arr(A)->dtype, arr(B)->dtype), t = wide_dtype(result);
    if (vec) {  // as an M x 1 matrix
        ArrayObj* b = arr(B);
        materialize(b);
        B = array_from_buffer(b->buffer, b->dtype, {M, 1}, {b->strides[0], 0}, b->offset);
    }
    Stack sa = stack_of(array_from_node(make_cast(array_node(arr(A)), t)), true);
    Stack sb = stack_of(array_from_node(make_cast(array_node(arr(B)), t)), true);
    double rcond = double(std::max(M, N)) * eps_of(t);
    if (const Value* rc = arg_not_none(a, 2, "rcond")) rcond = to_double(*rc, "lstsq");
    Value r;
    with_lapack_type(t, [&](auto z) { r = lstsq_run<decltype(z)>(sa, sb, nrhs, rcond, vec); });
    if (result == t) return r;
    std::vector<Value> parts = r.as<TupleObj>()->items;  // x, residuals, rank, s
    parts[0] = narrowed(parts[0], result);
    parts[1] = narrowed(parts[1], real_dtype(result));
    parts[3] = narrowed(parts[3], real_dtype(result));
    return make_tuple(std::move(parts));
}

// ---- norm ----

Value sum_over(Interp& in, const Value& x, const Value& axis, bool keepdims) {
    ReduceOptions o;
    o.axis = &axis;
    o.keepdims = keepdims;
    return reduce(in, ReduceOp::Sum, x, o);
}

Value extreme(Interp& in, ReduceOp op, const Value& x, const Value& axis, bool keepdims) {
    ReduceOptions o;
    o.axis = &axis;
    o.keepdims = keepdims;
    return reduce(in, op, x, o);
}

// |x|^2 elementwise as NumPy's norm computes it: x * x, or for complex x
// (x.conj() * x).real (re*re + im*im, not abs(x)**2's rounding).
Value abs2(Interp& in, const Value& x) {
    if (!is_complex(arr(x)->dtype)) return apply_ufunc(in, Ufunc::multiply, {x, x});
    return complex_part(apply_ufunc(in, Ufunc::multiply, {apply_ufunc(in, Ufunc::conjugate, {x}), x}), false);
}

Value vector_norm(Interp& in, const Value& x, const Value* ord, const Value& axis, bool keepdims) {
    Value ab = apply_ufunc(in, Ufunc::absolute, {x});
    if (!ord || ord->is_none()) return apply_ufunc(in, Ufunc::sqrt, {sum_over(in, abs2(in, x), axis, keepdims)});
    if (!ord->is_number()) raise(types::ValueError, "Invalid norm order '" + to_str(in, *ord) + "' for vectors");
    double p = ord->as_float();
    if (std::isinf(p)) return extreme(in, p > 0 ? ReduceOp::Max : ReduceOp::Min, ab, axis, keepdims);
    if (p == 0) {
        Value nz = apply_ufunc(in, Ufunc::not_equal, {x, Value::integer(0)});
        Value c = array_from_node(make_cast(array_node(arr(nz)), real_dtype(arr(x)->dtype)));
        return sum_over(in, c, axis, keepdims);
    }
    if (p == 1) return sum_over(in, ab, axis, keepdims);
    if (p == 2) return apply_ufunc(in, Ufunc::sqrt, {sum_over(in, abs2(in, x), axis, keepdims)});
    Value powered = apply_ufunc(in, Ufunc::power, {ab, *ord});
    return apply_ufunc(in, Ufunc::power, {sum_over(in, powered, axis, keepdims), Value::real(1.0 / p)});
}

// Singular values of x's (row, col) matrices: the other axes first.
Value singular_values(Interp& in, const Value& x, int row, int col) {
    ArrayObj* a = arr(x);
    materialize(a);
    Shape s;
    std::vector<int64_t> st;
    for (int d = 0; d < a->ndim(); ++d)
        if (d != row && d != col) {
            s.push_back(a->shape[size_t(d)]);
            st.push_back(a->strides[size_t(d)]);
        }
    for (int d : {row, col}) {
        s.push_back(a->shape[size_t(d)]);
        st.push_back(a->strides[size_t(d)]);
    }
    return svd_of(in, array_from_buffer(a->buffer, a->dtype, s, st, a->offset), false, false).s;
}

Value matrix_norm(Interp& in, const Value& x, const Value* ord, int row, int col, bool keepdims) {
    int nd = arr(x)->ndim();
    Value both = make_tuple({Value::integer(row), Value::integer(col)});
    Value r;
    auto restore = [&](Value v) {  // keepdims for the svd-based norms
        if (!keepdims) return v;
        ArrayObj* va = arr(v);
        materialize(va);
        Shape s;
        std::vector<int64_t> st;
        size_t k = 0;
        for (int d = 0; d < nd; ++d) {
            if (d == row || d == col) {
                s.push_back(1);
                st.push_back(0);
            } else {
                s.push_back(va->shape[k]);
                st.push_back(va->strides[k++]);
            }
        }
        return array_from_buffer(va->buffer, va->dtype, s, st, va->offset);
    };
    Value last = Value::integer(-1);
    if (!ord || ord->is_none() || (is_kind(*ord, OK::Str) && str_of(*ord, "ord") == "fro"))
        return apply_ufunc(in, Ufunc::sqrt, {sum_over(in, abs2(in, x), both, keepdims)});
    if (is_kind(*ord, OK::Str)) {
        if (str_of(*ord, "ord") != "nuc") raise(types::ValueError, "Invalid norm order for matrices.");
        return restore(sum_over(in, singular_values(in, x, row, col), last, false));
    }
    if (!ord->is_number()) raise(types::ValueError, "Invalid norm order for matrices.");
    double p = ord->as_float();
    Value ab = apply_ufunc(in, Ufunc::absolute, {x});
    if (p == 2 || p == -2) return restore(extreme(in, p > 0 ? ReduceOp::Max : ReduceOp::Min, singular_values(in, x, row, col), last, false));
    // 1 / -1: max / min over columns of the column sums; inf / -inf: rows of row sums.
    int sum_axis, ext_axis;
    if (p == 1 || p == -1) {
        sum_axis = row;
        ext_axis = col;
    } else if (std::isinf(p)) {
        sum_axis = col;
        ext_axis = row;
    } else {
        raise(types::ValueError, "Invalid norm order for matrices.");
    }
    if (!keepdims && ext_axis > sum_axis) --ext_axis;
    Value sums = sum_over(in, ab, Value::integer(sum_axis), keepdims);
    return extreme(in, p > 0 ? ReduceOp::Max : ReduceOp::Min, sums, Value::integer(ext_axis), keepdims);
}

Value la_norm(Interp& in, CallArgs& a) {
    const Value* xv = arg(a, 0, "x");
    if (!xv) raise(types::TypeError, "norm() missing required argument 'x' (pos 0)");
    Value x = as_array_value(in, *xv);
    if (!is_inexact(arr(x)->dtype)) x = array_from_node(make_cast(array_node(arr(x)), DType::Float64));
    const Value* ord = arg_not_none(a, 1, "ord");
    const Value* axis = arg_not_none(a, 2, "axis");
    const Value* kd = arg(a, 3, "keepdims");
    bool keepdims = kd && truthy(*kd);
    int nd = arr(x)->ndim();
    std::vector<int> axes;
    if (!axis) {
        if (!ord) {  // the 2-norm of everything
            Value r = apply_ufunc(in, Ufunc::sqrt, {sum_over(in, abs2(in, x), Value::none(), keepdims)});
            return r;
        }
        if (nd != 1 && nd != 2) raise(types::ValueError, "Improper number of dimensions to norm.");
        for (int d = 0; d < nd; ++d) axes.push_back(d);
    } else if (axis->is_intlike()) {
        axes.push_back(normalize_axis(axis->as_int(), nd));
    } else {
        for (auto& v : to_vector(in, *axis)) axes.push_back(normalize_axis(to_index(v), nd));
    }
    if (axes.size() == 1) return vector_norm(in, x, ord, Value::integer(axes[0]), keepdims);
    if (axes.size() == 2) {
        if (axes[0] == axes[1]) raise(types::ValueError, "Duplicate axes given.");
        return matrix_norm(in, x, ord, axes[0], axes[1], keepdims);
    }
    raise(types::ValueError, "Improper number of dimensions to norm.");
}

const FunctionSpec kFunctions[] = {
    {"norm", la_norm, "norm(x, ord=None, axis=None, keepdims=False)", "Matrix or vector norm."},
    {"solve", la_solve, "solve(a, b)", "Solve a linear matrix equation, or system of linear scalar equations."},
    {"inv", la_inv, "inv(a)", "Compute the inverse of a matrix."},
    {"det", la_det, "det(a)", "Compute the determinant of an array."},
    {"slogdet", la_slogdet, "slogdet(a)", "Compute the sign and (natural) logarithm of the determinant of an array."},
    {"svd", la_svd, "svd(a, full_matrices=True, compute_uv=True, hermitian=False)", "Singular Value Decomposition: (U, S, Vh)."},
    {"qr", la_qr, "qr(a, mode='reduced')", "Compute the qr factorization of a matrix: (Q, R)."},
    {"eigh", la_eigh, "eigh(a, UPLO='L')", "Eigenvalues and eigenvectors of a symmetric matrix: (eigenvalues, eigenvectors)."},
    {"eig", la_eig, "eig(a)", "Eigenvalues and right eigenvectors of a square matrix: (eigenvalues, eigenvectors)."},
    {"eigvals", la_eigvals, "eigvals(a)", "Eigenvalues of a general matrix."},
    {"eigvalsh", la_eigvalsh, "eigvalsh(a, UPLO='L')", "Eigenvalues of a symmetric matrix, ascending."},
    {"cholesky", la_cholesky, "cholesky(a, /, *, upper=False)", "Cholesky decomposition."},
    {"matrix_rank", la_matrix_rank, "matrix_rank(A, tol=None, hermitian=False, *, rtol=None)", "Return matrix rank of array using SVD method."},
    {"lstsq", la_lstsq, "lstsq(a, b, rcond=None)", "Return the least-squares solution to a linear matrix equation: (x, residuals, rank, s)."},
    {"pinv", la_pinv, "pinv(a, rcond=None, hermitian=False, *, rtol=<no value>)", "Compute the (Moore-Penrose) pseudo-inverse of a matrix."},
};

}  // namespace

void install_linalg_error_type() {
    g_linalg_error = new TypeObject("LinAlgError", types::ValueError, OK::Exception);
    g_linalg_error->doc = "Generic Python-exception-derived object raised by linalg functions.";
}

void add_linalg_module(Interp&, ModuleObj* m) {
    auto* la = new ModuleObj("numpy.linalg");
    la->doc = "Linear algebra on LAPACK (OpenBLAS, loaded at run time).";
    add_functions(la, kFunctions);
    la->set("LinAlgError", Value::object(g_linalg_error));
    m->set("linalg", Value::object(la));
}

}  // namespace gpy
