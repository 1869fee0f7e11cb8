// Products: matmul / @, dot, vdot, inner, outer, tensordot, kron, trace. Each
// checks its shapes with NumPy's messages, then labels the operands' axes and
// hands them to contract() (einsum.cpp): BLAS for float matrix products, one
// fused multiply-and-sum kernel for integer and bool dtypes (as NumPy, which
// does not use BLAS for those either).
#include <algorithm>

#include "numpy/promote.h"
#include "numpy/linalg.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

void add_einsum_function(ModuleObj* m);       // einsum.cpp
void add_linalg_module(Interp& in, ModuleObj* m);  // linalg_module.cpp
void install_linalg_error_type();             // linalg_module.cpp

namespace {

ArrayObj* arr(const Value& v) { return v.as<ArrayObj>(); }

// A label for each of `n` axes starting at `first`.
std::vector<int> range_labels(int first, int n) {
    std::vector<int> r;
    for (int k = 0; k < n; ++k) r.push_back(first + k);
    return r;
}

DType product_dtype(const Value& a, const Value& b, const char* fname) {
    (void)fname;
    return promote_types(arr(a)->dtype, arr(b)->dtype);
}

// A C-contiguous 1-D view of `a` (copying when needed).
Value flat(const Value& a) {
    ArrayObj* x = arr(a);
    materialize(x);
    Value c = x->c_contiguous() ? a : compute_into_new(array_node(x), x->dtype, x->shape);
    ArrayObj* cx = arr(c);
    return array_from_buffer(cx->buffer, cx->dtype, {cx->size()}, {int64_t(itemsize(cx->dtype))}, cx->offset);
}

// Gives a fresh C-contiguous result a new shape (a view of the same memory).
Value reshaped(const Value& r, const Shape& shape) {
    ArrayObj* x = arr(r);
    materialize(x);
    Value c = x->c_contiguous() ? r : compute_into_new(array_node(x), x->dtype, x->shape);
    ArrayObj* cx = arr(c);
    return array_from_buffer(cx->buffer, cx->dtype, shape, contiguous_strides(shape, itemsize(cx->dtype)), cx->offset);
}

Value matmul_impl(Interp& in, const Value& av, const Value& bv, const Value* out) {
    Value A = as_array_value(in, av), B = as_array_value(in, bv);
    ArrayObj* a = arr(A);
    ArrayObj* b = arr(B);
    if (a->ndim() == 0 || b->ndim() == 0)
        raise(types::ValueError, "matmul: Input operand " + std::string(a->ndim() == 0 ? "0" : "1") +
                                     " does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)");
    const std::string sig = "with gufunc signature (n?,k),(k,m?)->(n?,m?)";
    bool a1 = a->ndim() == 1, b1 = b->ndim() == 1;
    int na = a1 ? 0 : a->ndim() - 2, nb = b1 ? 0 : b->ndim() - 2;
    int64_t n = a1 ? 1 : a->shape[size_t(na)], k = a->shape.back();
    int64_t kb = b->shape[size_t(nb)], m = b1 ? 1 : b->shape.back();
    if (k != kb)
        raise(types::ValueError, "matmul: Input operand 1 has a mismatch in its core dimension 0, " + sig + " (size " + std::to_string(kb) +
                                     " is different from " + std::to_string(k) + ")");
    // Batch dims broadcast (right-aligned); NumPy's gufunc message shows them remapped.
    int nbatch = std::max(na, nb);
    Shape batch(size_t(nbatch), 1);
    bool bad = false;
    for (auto [x, nx] : {std::pair{a, na}, std::pair{b, nb}})
        for (int d = 0; d < nx; ++d) {
            int64_t s = x->shape[size_t(d)];
            int64_t& o = batch[size_t(nbatch - nx + d)];
            if (o == 1) o = s;
            else if (s != 1 && s != o) bad = true;
        }
    Shape core;
    if (!a1) core.push_back(n);
    if (!b1) core.push_back(m);
    if (bad) {
        std::string msg = "operands could not be broadcast together with remapped shapes [original->remapped]: ";
        for (auto [x, nx, x1] : {std::tuple{a, na, a1}, std::tuple{b, nb, b1}}) {
            std::vector<int64_t> dims(size_t(nbatch - nx), -1);
            for (int d = 0; d < nx; ++d) dims.push_back(x->shape[size_t(d)]);
            for (int d = 0; d < (x1 ? 1 : 2); ++d) dims.push_back(-1);
            msg += compact_shape_text(x->shape) + "->" + remapped_text(dims) + " ";
        }
        raise(types::ValueError, msg + " and requested shape " + compact_shape_text(core));
    }
    // Labels: batch 0..nbatch-1, then n, m, k.
    int ln = nbatch, lm = nbatch + 1, lk = nbatch + 2;
    std::vector<int> la = range_labels(nbatch - na, na), lb = range_labels(nbatch - nb, nb);
    if (!a1) la.push_back(ln);
    la.push_back(lk);
    lb.push_back(lk);
    if (!b1) lb.push_back(lm);
    std::vector<int> lo = range_labels(0, nbatch);
    if (!a1) lo.push_back(ln);
    if (!b1) lo.push_back(lm);
    DType t = product_dtype(A, B, "matmul");
    Value r = contract(in, {A, B}, {la, lb}, lo, t);
    if (!out) return r;
    ArrayObj* o = as_array(*out);
    if (!o) raise(types::TypeError, "return arrays must be of ArrayType");
    Shape want = batch;
    want.insert(want.end(), core.begin(), core.end());
    for (size_t d = 0; d < core.size(); ++d) {
        int64_t have = o->ndim() >= int(core.size()) ? o->shape[size_t(o->ndim()) - core.size() + d] : -1;
        if (have != core[d])
            raise(types::ValueError, "matmul: Output operand 0 has a mismatch in its core dimension " + std::to_string(d) + ", " + sig +
                                         " (size " + std::to_string(have) + " is different from " + std::to_string(core[d]) + ")");
    }
    if (o->shape != want) raise(types::ValueError, "non-broadcastable output operand with shape " + compact_shape_text(o->shape) +
                                                       " doesn't match the broadcast shape " + compact_shape_text(want));
    if (!can_cast(t, o->dtype, Casting::SameKind))
        raise(types::UFuncTypeError, std::string("Cannot cast ufunc 'matmul' output from dtype('") + name(t) + "') to dtype('" + name(o->dtype) +
                                         "') with casting rule 'same_kind'");
    assign_array(in, *out, r);
    return *out;
}

Value np_matmul(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "x1");
    const Value* y = arg(a, 1, "x2");
    if (!x || !y) raise(types::TypeError, "matmul() takes from 2 to 3 positional arguments but " + std::to_string(a.npos) + " were given");
    return matmul_impl(in, *x, *y, out_arg(a, 2));
}

// np.dot's out= must be exactly what dot would return.
Value store_out(Interp& in, const Value* out, const Value& r) {
    if (!out) return r;
    ArrayObj* o = as_array(*out);
    ArrayObj* x = arr(r);
    if (!o) raise(types::TypeError, "'out' must be an array");
    if (o->dtype != x->dtype || o->ndim() != x->ndim() || !o->c_contiguous())
        raise(types::ValueError, "output array is not acceptable (must have the right datatype, number of dimensions, and be a C-Array)");
    if (o->shape != x->shape) raise(types::ValueError, "output array has wrong dimensions");
    assign_array(in, *out, r);
    return *out;
}

// NumPy's dot and inner pick their dtype with the legacy PyArray_ObjectType,
// ObjectType(b, ObjectType(a)): an empty list or tuple second takes a's dtype
// (np.dot(int8 array, ()) is int8); first, it is float64 like np.asarray's.
void empty_second_takes_first_dtype(Interp& in, const Value& bv, const Value& A, Value& B) {
    if ((is_kind(bv, OK::List) || is_kind(bv, OK::Tuple)) && B.as<ArrayObj>()->size() == 0)
        B = as_array_value(in, bv, A.as<ArrayObj>()->dtype);
}

// NumPy's dot and inner of a 0-d and a 1- or 2-d float32/64 or complex
// array (more than one element) go through BLAS axpy into zeros: out = 0 +
// s * x, which OpenBLAS skips when s is 0. So a zero scalar gives zeros even
// where x holds NaN or inf, and a product of -0.0 comes out +0.0. `r` is
// multiply(A, B); returns what NumPy returns.
Value as_blas_scaled(Interp& in, const Value& r, const Value& A, const Value& B) {
    ArrayObj* ra = as_array(r);
    const ArrayObj* s = arr(A)->ndim() == 0 ? arr(A) : arr(B);
    const ArrayObj* x = s == arr(A) ? arr(B) : arr(A);
    const DType t = ra ? ra->dtype : DType::Bool;
    const bool blas = t == DType::Float32 || t == DType::Float64 || t == DType::Complex64 || t == DType::Complex128;
    if (!ra || !blas || x->ndim() == 0 || x->ndim() > 2 || x->size() <= 1) return r;
    Value sv = Value::object(const_cast<ArrayObj*>(s));
    if (!truthy(sv)) return new_array(t, ra->shape, true);
    return apply_ufunc(in, Ufunc::add, {r, is_complex(t) ? make_complex(0.0, 0.0) : Value::real(0.0)});
}

Value dot_impl(Interp& in, const Value& av, const Value& bv, const Value* out) {
    Value A = as_array_value(in, av), B = as_array_value(in, bv);
    empty_second_takes_first_dtype(in, bv, A, B);
    ArrayObj* a = arr(A);
    ArrayObj* b = arr(B);
    if (a->ndim() == 0 || b->ndim() == 0) {
        // Both operands are arrays by now: a Python scalar is not weak here
        // (np.dot(int8 array, 0) is int64, as NumPy).
        UfuncOptions o;
        o.out = out;
        Value r = apply_ufunc(in, Ufunc::multiply, {A, B}, o);
        ArrayObj* ra = as_array(r);
        if (ra && !out && ra->ndim() == 0) set_numpy_scalar(ra, true);
        return out ? r : as_blas_scaled(in, r, A, B);
    }
    int na = a->ndim(), nb = b->ndim();
    int bk = nb == 1 ? 0 : nb - 2;
    if (a->shape.back() != b->shape[size_t(bk)])
        raise(types::ValueError, "shapes " + compact_shape_text(a->shape) + " and " + compact_shape_text(b->shape) + " not aligned: " +
                                     std::to_string(a->shape.back()) + " (dim " + std::to_string(na - 1) + ") != " +
                                     std::to_string(b->shape[size_t(bk)]) + " (dim " + std::to_string(bk) + ")");
    // dot(a, b)[i.., j.., m] = sum(a[i.., :] * b[j.., :, m])
    std::vector<int> la = range_labels(0, na - 1), lb = range_labels(na - 1, bk);
    int lk = na - 1 + bk, lm = lk + 1;
    std::vector<int> lo = la;
    lo.insert(lo.end(), lb.begin(), lb.end());
    la.push_back(lk);
    lb.push_back(lk);
    if (nb > 1) {
        lb.push_back(lm);
        lo.push_back(lm);
    }
    return store_out(in, out, contract(in, {A, B}, {la, lb}, lo, product_dtype(A, B, "dot")));
}

Value np_dot(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    const Value* y = arg(a, 1, "b");
    if (!x || !y) raise(types::TypeError, "dot() missing required argument 'b' (pos 1)");
    return dot_impl(in, *x, *y, out_arg(a, 2, OutWording::Quoted));
}

Value m_dot(Interp& in, CallArgs& a) {
    expect_args(a, "dot", 2, 3);
    return dot_impl(in, a.pos[0], a.pos[1], out_arg(a, 2, OutWording::Quoted));
}

Value np_vdot(Interp& in, CallArgs& a) {
    expect_args(a, "vdot", 2, 2);
    Value A = as_array_value(in, a.pos[0]), B = as_array_value(in, a.pos[1]);
    empty_second_takes_first_dtype(in, a.pos[1], A, B);
    A = flat(A);
    B = flat(B);
    if (arr(A)->size() != arr(B)->size())
        raise(types::ValueError, "cannot reshape array of size " + std::to_string(arr(B)->size()) + " into shape (" +
                                     std::to_string(arr(A)->size()) + ",)");
    if (is_complex(arr(A)->dtype)) A = apply_ufunc(in, Ufunc::conjugate, {A});  // vdot conjugates its first argument
    return contract(in, {A, B}, {{0}, {0}}, {}, product_dtype(A, B, "vdot"));
}

Value np_inner(Interp& in, CallArgs& a) {
    expect_args(a, "inner", 2, 2);
    Value A = as_array_value(in, a.pos[0]), B = as_array_value(in, a.pos[1]);
    empty_second_takes_first_dtype(in, a.pos[1], A, B);
    int na = arr(A)->ndim(), nb = arr(B)->ndim();
    if (na == 0 || nb == 0) {
        // As dot: both are arrays here, a Python scalar is not weak.
        Value r = apply_ufunc(in, Ufunc::multiply, {A, B});
        if (ArrayObj* ra = as_array(r); ra && ra->ndim() == 0) set_numpy_scalar(ra, true);
        return as_blas_scaled(in, r, A, B);
    }
    if (arr(A)->shape.back() != arr(B)->shape.back()) {
        // NumPy reports b with its last axis moved to second-to-last, as dot sees it.
        Shape bs = arr(B)->shape;
        if (nb >= 2) std::swap(bs[size_t(nb - 1)], bs[size_t(nb - 2)]);
        raise(types::ValueError, "shapes " + compact_shape_text(arr(A)->shape) + " and " + compact_shape_text(bs) + " not aligned: " +
                                     std::to_string(arr(A)->shape.back()) + " (dim " + std::to_string(na - 1) + ") != " +
                                     std::to_string(arr(B)->shape.back()) + " (dim " + std::to_string(std::max(nb - 2, 0)) + ")");
    }
    std::vector<int> la = range_labels(0, na - 1), lb = range_labels(na - 1, nb - 1);
    std::vector<int> lo = la;
    lo.insert(lo.end(), lb.begin(), lb.end());
    int lk = na + nb;
    la.push_back(lk);
    lb.push_back(lk);
    return contract(in, {A, B}, {la, lb}, lo, product_dtype(A, B, "inner"));
}

Value np_outer(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    const Value* y = arg(a, 1, "b");
    if (!x || !y) raise(types::TypeError, "outer() missing required argument 'b' (pos 1)");
    Value A = flat(as_array_value(in, *x)), B = flat(as_array_value(in, *y));
    Value r = contract(in, {A, B}, {{0}, {1}}, {0, 1}, product_dtype(A, B, "outer"));
    if (const Value* out = out_arg(a, 2)) {
        assign_array(in, *out, r);
        return *out;
    }
    return r;
}

// tensordot's axes: an int N (a's last N with b's first N) or a pair of axis lists.
void tensordot_axes(Interp& in, const Value& axes, int na, int nb, std::vector<int>& xa, std::vector<int>& xb) {
    if (axes.is_intlike()) {
        int64_t n = axes.as_int();
        // More axes than either operand has cannot match (and 2**62 of them would fill memory).
        if (n > na || n > nb) raise(types::IndexError, "tuple index out of range");
        for (int64_t k = 0; k < n; ++k) {
            xa.push_back(int(na - n + k));
            xb.push_back(int(k));
        }
        return;
    }
    std::vector<Value> pair = to_vector(in, axes);
    if (pair.size() != 2) raise(types::ValueError, "Axes must consist of two sequences.");
    auto list = [&](const Value& v, std::vector<int>& o) {
        if (v.is_intlike()) o.push_back(int(v.as_int()));
        else for (auto& x : to_vector(in, v)) o.push_back(int(to_index(x)));
    };
    list(pair[0], xa);
    list(pair[1], xb);
}

Value np_tensordot(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    const Value* y = arg(a, 1, "b");
    if (!x || !y) raise(types::TypeError, "tensordot() missing required argument 'b' (pos 1)");
    Value A = as_array_value(in, *x), B = as_array_value(in, *y);
    int na = arr(A)->ndim(), nb = arr(B)->ndim();
    const Value* axv = arg(a, 2, "axes");
    std::vector<int> xa, xb;
    tensordot_axes(in, axv ? *axv : Value::integer(2), na, nb, xa, xb);
    if (xa.size() != xb.size()) raise(types::ValueError, "shape-mismatch for sum");
    // Labels: a's axes 0..na-1, b's na..na+nb-1, summed pairs share a's label.
    std::vector<int> la = range_labels(0, na), lb = range_labels(na, nb);
    for (size_t k = 0; k < xa.size(); ++k) {
        int ia = xa[k] < 0 ? xa[k] + na : xa[k], ib = xb[k] < 0 ? xb[k] + nb : xb[k];
        if (ia < 0 || ia >= na || ib < 0 || ib >= nb) raise(types::IndexError, "tuple index out of range");
        if (arr(A)->shape[size_t(ia)] != arr(B)->shape[size_t(ib)]) raise(types::ValueError, "shape-mismatch for sum");
        lb[size_t(ib)] = ia;
    }
    std::vector<int> lo;
    for (int l : la)
        if (std::count(lb.begin(), lb.end(), l) == 0) lo.push_back(l);
    for (int l : lb)
        if (l >= na) lo.push_back(l);
    return contract(in, {A, B}, {la, lb}, lo, product_dtype(A, B, "tensordot"));
}

Value np_kron(Interp& in, CallArgs& a) {
    expect_args(a, "kron", 2, 2);
    Value A = as_array_value(in, a.pos[0]), B = as_array_value(in, a.pos[1]);
    int nd = std::max(arr(A)->ndim(), arr(B)->ndim());
    // Both as nd dims (leading 1s); out[i*bs + j] = a[i] * b[j] along every axis.
    Shape sa(size_t(nd - arr(A)->ndim()), 1), sb(size_t(nd - arr(B)->ndim()), 1);
    sa.insert(sa.end(), arr(A)->shape.begin(), arr(A)->shape.end());
    sb.insert(sb.end(), arr(B)->shape.begin(), arr(B)->shape.end());
    A = reshaped(A, sa);
    B = reshaped(B, sb);
    std::vector<int> la, lb, lo;
    Shape shape;
    for (int d = 0; d < nd; ++d) {
        la.push_back(2 * d);
        lb.push_back(2 * d + 1);
        lo.push_back(2 * d);
        lo.push_back(2 * d + 1);
        shape.push_back(sa[size_t(d)] * sb[size_t(d)]);
    }
    Value r = contract(in, {A, B}, {la, lb}, lo, product_dtype(A, B, "kron"));
    Value k = reshaped(r, shape);
    set_numpy_scalar(arr(k), nd == 0);
    return k;
}

// trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None): the sum of a diagonal view.
Value np_trace(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "trace() missing required argument 'a' (pos 0)");
    Value A = as_array_value(in, *x);
    ArrayObj* t = arr(A);
    materialize(t);
    if (t->ndim() < 2) raise(types::ValueError, "diag requires an array of at least two dimensions");
    const Value* ov = arg(a, 1, "offset");
    int64_t offset = ov ? to_index(*ov) : 0;
    const Value* a1 = arg(a, 2, "axis1");
    const Value* a2 = arg(a, 3, "axis2");
    int ax1 = normalize_axis(a1 ? to_index(*a1) : 0, t->ndim()), ax2 = normalize_axis(a2 ? to_index(*a2) : 1, t->ndim());
    if (ax1 == ax2) raise(types::ValueError, "axis1 and axis2 cannot be the same");
    int64_t d1 = t->shape[size_t(ax1)], d2 = t->shape[size_t(ax2)];
    int64_t len = offset >= 0 ? std::min(d1, d2 - offset) : std::min(d1 + offset, d2);
    len = std::max<int64_t>(len, 0);
    int64_t start = t->offset;
    if (len > 0) start += offset >= 0 ? offset * t->strides[size_t(ax2)] : -offset * t->strides[size_t(ax1)];
    Shape shape;
    std::vector<int64_t> strides;
    for (int d = 0; d < t->ndim(); ++d)
        if (d != ax1 && d != ax2) {
            shape.push_back(t->shape[size_t(d)]);
            strides.push_back(t->strides[size_t(d)]);
        }
    shape.push_back(len);
    strides.push_back(t->strides[size_t(ax1)] + t->strides[size_t(ax2)]);
    Value diag = array_from_buffer(t->buffer, t->dtype, shape, strides, start);
    Value axis = Value::integer(-1);
    ReduceOptions o;
    o.axis = &axis;
    if (const Value* d = arg(a, 4, "dtype"); d && !d->is_none()) o.dtype = to_dtype(in, *d);
    o.out = out_arg(a, 5, OutWording::CApi);
    return reduce(in, ReduceOp::Sum, diag, o);
}

const FunctionSpec kFunctions[] = {
    {"matmul", np_matmul, "matmul(x1, x2, /, out=None)", "Matrix product of two arrays."},
    {"dot", np_dot, "dot(a, b, out=None)", "Dot product of two arrays."},
    {"vdot", np_vdot, "vdot(a, b, /)", "Return the dot product of two vectors (flattened)."},
    {"inner", np_inner, "inner(a, b, /)", "Inner product of two arrays (over their last axes)."},
    {"outer", np_outer, "outer(a, b, out=None)", "Compute the outer product of two vectors."},
    {"tensordot", np_tensordot, "tensordot(a, b, axes=2)", "Compute tensor dot product along specified axes."},
    {"kron", np_kron, "kron(a, b)", "Kronecker product of two arrays."},
    {"trace", np_trace, "trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None)", "Return the sum along diagonals of the array."},
};

}  // namespace

Value matmul(Interp& in, const Value& a, const Value& b) { return matmul_impl(in, a, b, nullptr); }

void add_linalg_functions(Interp& in, ModuleObj* m) {
    add_functions(m, kFunctions);
    add_einsum_function(m);
    add_linalg_module(in, m);
}

void install_linalg_methods() {
    install_linalg_error_type();
    def_method(types::ndarray, "dot", m_dot, "dot(b, out=None)", "Dot product of two arrays.");
    def_method(types::ndarray, "trace", np_trace, "trace(offset=0, axis1=0, axis2=1, dtype=None, out=None)",
               "Return the sum along diagonals of the array.");
}

}  // namespace gpy
