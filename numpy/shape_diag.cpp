// Diagonals and triangles: diag, diagflat (copies into a zero matrix through
// its diagonal view), tril, triu (a lazy where() with a triangular mask).
#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using dag::Shape;

namespace {

// A zero (n+|k|)-square matrix with v (1-D) on diagonal k.
Value diag_matrix(Interp& in, ArrayObj* v, int64_t k) {
    if (k == INT64_MIN) raise_size_overflow();
    int64_t n = size_add(v->shape[0], k < 0 ? -k : k);
    Value out = new_array(v->dtype, {n, n}, true);
    if (v->size() > 0) assign_array(in, diagonal_view(out.as<ArrayObj>(), k, 0, 1), Value::object(v));
    return out;
}

int64_t k_arg(CallArgs& a) {
    const Value* k = arg(a, 1, "k");
    return k ? to_index(*k) : 0;
}

Value np_diag(Interp& in, CallArgs& a) {
    Value v = materialized(in, required(a, 0, "v", "diag"));
    ArrayObj* va = v.as<ArrayObj>();
    if (va->ndim() == 1) return diag_matrix(in, va, k_arg(a));
    if (va->ndim() == 2) return diagonal_view(va, k_arg(a), 0, 1);
    raise(types::ValueError, "Input must be 1- or 2-d.");
}

Value np_diagflat(Interp& in, CallArgs& a) {
    Value v = materialized(in, required(a, 0, "v", "diagflat"));
    Value flat = ravel_order(v.as<ArrayObj>(), 'C');
    return diag_matrix(in, flat.as<ArrayObj>(), k_arg(a));
}

// m's elements on and below (lower) or above (upper) diagonal k of its last
// two axes, zeros elsewhere: NumPy's where(tri(N, M, k), m, 0).
Value triangle(Interp& in, CallArgs& a, bool lower, const char* fname) {
    Value m = as_array_value(in, required(a, 0, "m", fname));
    ArrayObj* ma = m.as<ArrayObj>();
    if (ma->ndim() == 0) raise(types::TypeError, "tri() missing 1 required positional argument: 'N'");
    int64_t k = k_arg(a);
    int64_t rows = ma->shape[size_t(ma->ndim() == 1 ? 0 : ma->ndim() - 2)];
    int64_t cols = ma->shape.back();
    // NumPy builds the mask as tri(N, M, k') with arange(-k', M - k') (k' = k
    // for tril, k - 1 for triu): bounds past a C long are its OverflowError.
    __int128 kk = __int128(k) - (lower ? 0 : 1);
    auto fits = [](__int128 v) { return v >= INT64_MIN && v <= INT64_MAX; };
    if (!fits(kk) || !fits(-kk) || !fits(__int128(cols) - kk)) raise(types::OverflowError, "Python int too large to convert to C long");
    // A 1-D m is the row of a square matrix (NumPy's tri(*m.shape[-2:])).
    Value mask = new_array(DType::Bool, {rows, cols});
    uint8_t* p = mask.as<ArrayObj>()->buffer.bytes();
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) p[i * cols + j] = lower ? j - i <= k : j - i >= k;  // i + k may overflow
    ArrayObj* mk = mask.as<ArrayObj>();
    Shape shape = broadcast_shapes({&mk->shape, &ma->shape});
    dag::NodeP zero = dag::make_scalar(ma->dtype, dag::ScalarValue());
    return array_from_node(dag::make_where(array_node(mk), array_node(ma), zero, shape));
}

Value np_tril(Interp& in, CallArgs& a) { return triangle(in, a, true, "tril"); }
Value np_triu(Interp& in, CallArgs& a) { return triangle(in, a, false, "triu"); }

}  // namespace

void add_diag_functions(Interp&, ModuleObj* m) {
    m->set("diag", make_builtin("diag", np_diag, "diag(v, k=0)", "Extract a diagonal or construct a diagonal array."));
    m->set("diagflat", make_builtin("diagflat", np_diagflat, "diagflat(v, k=0)", "Create a 2-D array with the flattened input as a diagonal."));
    m->set("tril", make_builtin("tril", np_tril, "tril(m, k=0)", "Lower triangle of an array (zeros above diagonal k)."));
    m->set("triu", make_builtin("triu", np_triu, "triu(m, k=0)", "Upper triangle of an array (zeros below diagonal k)."));
}

}  // namespace gpy
