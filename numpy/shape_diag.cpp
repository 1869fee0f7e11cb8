// Diagonals and triangles: diag, diagflat (copies into a zero matrix through
// its diagonal view), tril, triu (a lazy where() with a triangular mask).
#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"
#include "numpy/tri_mask.h"
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
// two axes, zeros elsewhere: NumPy's where(tri(N, M, k), m, 0) for tril and
// where(tri(N, M, k - 1), 0, m) for triu (k in its own arithmetic: tri_mask.cpp).
Value triangle(Interp& in, CallArgs& a, bool lower, const char* fname) {
    Value m = as_array_value(in, required(a, 0, "m", fname));
    ArrayObj* ma = m.as<ArrayObj>();
    if (ma->ndim() == 0) raise(types::TypeError, "tri() missing 1 required positional argument: 'N'");
    const Value* k = arg(a, 1, "k");
    // A 1-D m is the row of a square matrix (NumPy's tri(*m.shape[-2:])).
    int64_t rows = ma->shape[size_t(ma->ndim() == 1 ? 0 : ma->ndim() - 2)];
    int64_t cols = ma->shape.back();
    Value mask = tri_mask(in, Value::integer(rows), Value::integer(cols), k ? *k : Value::integer(0), lower ? 0 : -1, !lower);
    ArrayObj* mk = mask.as<ArrayObj>();
    // NumPy's where() broadcasts the mask, m and a (1,) zero in that order
    // (zero before m for triu): a mask narrower than m is its ValueError.
    dag::Shape one{1};
    const dag::Shape* shapes[3] = {&mk->shape, lower ? &ma->shape : &one, lower ? &one : &ma->shape};
    Shape shape = broadcast_shapes(shapes);
    dag::NodeP zero = dag::make_scalar(ma->dtype, dag::ScalarValue());
    return array_from_node(dag::make_where(array_node(mk), array_node(ma), zero, shape));
}


// tri(N, M=None, k=0, dtype=float): the mask as `dtype`.
Value np_tri(Interp& in, CallArgs& a) {
    Value n = required(a, 0, "N", "tri");
    const Value* m = arg(a, 1, "M");
    const Value* k = arg(a, 2, "k");
    std::optional<DType> dt = dtype_arg(in, a, 3);
    Value mask = tri_mask(in, n, m ? *m : Value::none(), k ? *k : Value::integer(0));
    DType to = dt ? *dt : DType::Float64;
    if (to == DType::Bool) return mask;
    ArrayObj* mk = mask.as<ArrayObj>();
    return compute_into_new(dag::make_cast(array_node(mk), to), to, mk->shape);
}

// The (rows, cols) of a mask's true (lower) or false (upper) elements, row-major.
Value mask_positions(const Value& mask, bool want) {
    ArrayObj* mk = mask.as<ArrayObj>();
    int64_t cols = mk->shape[1];
    const uint8_t* p = mk->buffer.bytes();
    std::vector<int64_t> r, c;
    int64_t n = 0;
    for (int64_t i = 0; i < mk->size(); ++i) n += bool(p[i]) == want;
    r.reserve(size_t(n));
    c.reserve(size_t(n));
    for (int64_t i = 0, rows = mk->shape[0]; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j)
            if (bool(p[i * cols + j]) == want) r.push_back(i), c.push_back(j);
    return make_tuple({int64_array(r), int64_array(c)});
}

// tril_indices(n, k=0, m=None) / triu_indices: NumPy's nonzero of tri(n, m, k)
// and of ~tri(n, m, k - 1).
Value tri_indices(Interp& in, const Value& n, const Value* k, const Value* m, bool lower) {
    Value mask = tri_mask(in, n, m ? *m : Value::none(), k ? *k : Value::integer(0), lower ? 0 : -1);
    return mask_positions(mask, lower);
}

Value np_tril_indices(Interp& in, CallArgs& a) {
    return tri_indices(in, required(a, 0, "n", "tril_indices"), arg(a, 1, "k"), arg(a, 2, "m"), true);
}
Value np_triu_indices(Interp& in, CallArgs& a) {
    return tri_indices(in, required(a, 0, "n", "triu_indices"), arg(a, 1, "k"), arg(a, 2, "m"), false);
}

// tril_indices_from(arr, k=0): the indices for arr's (2-D) shape.
Value indices_from(Interp& in, CallArgs& a, bool lower, const char* fname) {
    Value arr = as_array_value(in, required(a, 0, "arr", fname));
    ArrayObj* aa = arr.as<ArrayObj>();
    if (aa->ndim() != 2) raise(types::ValueError, "input array must be 2-d");
    Value cols = Value::integer(aa->shape[1]);
    return tri_indices(in, Value::integer(aa->shape[0]), arg(a, 1, "k"), &cols, lower);
}
Value np_tril_indices_from(Interp& in, CallArgs& a) { return indices_from(in, a, true, "tril_indices_from"); }
Value np_triu_indices_from(Interp& in, CallArgs& a) { return indices_from(in, a, false, "triu_indices_from"); }

}  // namespace

Value np_tril(Interp& in, CallArgs& a) { return triangle(in, a, true, "tril"); }
Value np_triu(Interp& in, CallArgs& a) { return triangle(in, a, false, "triu"); }

void add_diag_functions(Interp&, ModuleObj* m) {
    m->set("diag", make_builtin("diag", np_diag, "diag(v, k=0)", "Extract a diagonal or construct a diagonal array."));
    m->set("diagflat", make_builtin("diagflat", np_diagflat, "diagflat(v, k=0)", "Create a 2-D array with the flattened input as a diagonal."));
    m->set("tril", make_builtin("tril", np_tril, "tril(m, k=0)", "Lower triangle of an array (zeros above diagonal k)."));
    m->set("triu", make_builtin("triu", np_triu, "triu(m, k=0)", "Upper triangle of an array (zeros below diagonal k)."));
    m->set("tri", make_builtin("tri", np_tri, "tri(N, M=None, k=0, dtype=float)", "An array with ones at and below the given diagonal and zeros elsewhere."));
    m->set("tril_indices", make_builtin("tril_indices", np_tril_indices, "tril_indices(n, k=0, m=None)", "Return the indices for the lower-triangle of an (n, m) array."));
    m->set("triu_indices", make_builtin("triu_indices", np_triu_indices, "triu_indices(n, k=0, m=None)", "Return the indices for the upper-triangle of an (n, m) array."));
    m->set("tril_indices_from", make_builtin("tril_indices_from", np_tril_indices_from, "tril_indices_from(arr, k=0)", "Return the indices for the lower-triangle of arr."));
    m->set("triu_indices_from", make_builtin("triu_indices_from", np_triu_indices_from, "triu_indices_from(arr, k=0)", "Return the indices for the upper-triangle of arr."));
}

}  // namespace gpy
