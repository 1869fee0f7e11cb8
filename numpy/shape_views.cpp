// Shape functions that return views of their argument: broadcast_to,
// broadcast_arrays, flip/fliplr/flipud, moveaxis, expand_dims, atleast_nd,
// diagonal, ascontiguousarray/asfortranarray (views unless a copy is needed).
#include <algorithm>

#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using dag::Shape;

// The broadcast shape of arrays, or NumPy's message naming the first pair that clashes.
Shape broadcast_all(const std::vector<Value>& xs) {
    Shape out;
    std::vector<size_t> owner;  // which argument set each dim of `out` (from the right)
    for (size_t i = 0; i < xs.size(); ++i) {
        const Shape& s = xs[i].as<ArrayObj>()->shape;
        if (s.size() > out.size()) {
            out.insert(out.begin(), s.size() - out.size(), 1);
            owner.insert(owner.begin(), s.size() - owner.size(), i);
        }
        for (size_t k = 0; k < s.size(); ++k) {
            size_t d = out.size() - s.size() + k;
            if (s[k] == out[d] || s[k] == 1) continue;
            if (out[d] != 1)
                raise(types::ValueError, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg " +
                                             std::to_string(owner[d]) + " with shape " + shape_text(xs[owner[d]].as<ArrayObj>()->shape) +
                                             " and arg " + std::to_string(i) + " with shape " + shape_text(s) + ".");
            out[d] = s[k];
            owner[d] = i;
        }
    }
    return out;
}

namespace {

Value np_broadcast_to(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "array", "broadcast_to"));
    const Value& shape = required(a, 1, "shape", "broadcast_to");
    Shape s;
    if (is_kind(shape, OK::Tuple) || is_kind(shape, OK::List))
        for (auto& d : to_vector(in, shape)) s.push_back(to_index(d));
    else
        s.push_back(to_index(shape));
    return broadcast_view(x.as<ArrayObj>(), s);
}

Value np_broadcast_arrays(Interp& in, CallArgs& a) {
    std::vector<Value> xs;
    for (size_t k = 0; k < a.npos; ++k) xs.push_back(materialized(in, a.pos[k]));
    Shape s = broadcast_all(xs);
    std::vector<Value> out;
    for (auto& x : xs) out.push_back(x.as<ArrayObj>()->shape == s ? x : broadcast_view(x.as<ArrayObj>(), s));
    return make_tuple(std::move(out));
}

Value flip_axes(ArrayObj* x, const std::vector<int>& axes) {
    Value r = Value::object(x);
    for (int d : axes) {
        ArrayObj* c = r.as<ArrayObj>();
        int64_t n = c->shape[size_t(d)];
        r = reversed_axis(c, d, n - 1, n);
    }
    return r;
}

Value np_flip(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "m", "flip"));
    ArrayObj* xa = x.as<ArrayObj>();
    const Value* axis = arg_not_none(a, 1, "axis");
    std::vector<int> axes;
    if (axis) axes = axis_tuple(in, *axis, xa->ndim());
    else for (int d = 0; d < xa->ndim(); ++d) axes.push_back(d);
    // NumPy indexes m[()] for a 0-d m: a NumPy scalar.
    if (xa->ndim() == 0) return get_item(in, x, make_tuple({}));
    if (axes.empty()) return view_of(xa, xa->shape, xa->strides, xa->offset);
    return flip_axes(xa, axes);
}

Value np_fliplr(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "m", "fliplr"));
    if (x.as<ArrayObj>()->ndim() < 2) raise(types::ValueError, "Input must be >= 2-d.");
    return flip_axes(x.as<ArrayObj>(), {1});
}

Value np_flipud(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "m", "flipud"));
    if (x.as<ArrayObj>()->ndim() < 1) raise(types::ValueError, "Input must be >= 1-d.");
    return flip_axes(x.as<ArrayObj>(), {0});
}

Value np_moveaxis(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "a", "moveaxis"));
    ArrayObj* xa = x.as<ArrayObj>();
    auto src = axis_tuple(in, required(a, 1, "source", "moveaxis"), xa->ndim(), "source");
    auto dst = axis_tuple(in, required(a, 2, "destination", "moveaxis"), xa->ndim(), "destination");
    if (src.size() != dst.size())
        raise(types::ValueError, "`source` and `destination` arguments must have the same number of elements");
    // NumPy: the remaining axes keep their order; the moved ones go to their destinations.
    std::vector<int> order;
    for (int d = 0; d < xa->ndim(); ++d)
        if (std::find(src.begin(), src.end(), d) == src.end()) order.push_back(d);
    std::vector<std::pair<int, int>> moves;
    for (size_t k = 0; k < src.size(); ++k) moves.push_back({dst[k], src[k]});
    std::sort(moves.begin(), moves.end());
    for (auto [d, s] : moves) order.insert(order.begin() + d, s);
    Shape shape;
    std::vector<int64_t> strides;
    for (int d : order) {
        shape.push_back(xa->shape[size_t(d)]);
        strides.push_back(xa->strides[size_t(d)]);
    }
    return view_of(xa, shape, strides, xa->offset);
}

Value np_expand_dims(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "a", "expand_dims"));
    ArrayObj* xa = x.as<ArrayObj>();
    const Value& axis = required(a, 1, "axis", "expand_dims");
    size_t count = is_kind(axis, OK::Tuple) || is_kind(axis, OK::List) ? to_vector(in, axis).size() : 1;
    auto axes = axis_tuple(in, axis, xa->ndim() + int(count));
    std::sort(axes.begin(), axes.end());
    Value r = x;
    for (int d : axes) r = insert_axis(r.as<ArrayObj>(), d);
    if (axes.empty()) r = view_of(xa, xa->shape, xa->strides, xa->offset);
    return r;
}

}  // namespace

// np.atleast_Nd's rule for one array: where the new length-1 axes go.
Value atleast_nd(Interp& in, const Value& v, int n) {
    Value x = materialized(in, v);
    ArrayObj* xa = x.as<ArrayObj>();
    int nd = xa->ndim();
    if (nd >= n) return x;
    Value r = x;
    auto add = [&](int at) { r = insert_axis(r.as<ArrayObj>(), at); };
    if (nd == 0) for (int k = 0; k < n; ++k) add(0);
    else if (nd == 1) { add(0); if (n == 3) add(2); }  // (N,) -> (1, N) or (1, N, 1)
    else add(2);                                       // (M, N) -> (M, N, 1)
    return r;
}

namespace {

template <int N>
Value np_atleast(Interp& in, CallArgs& a) {
    if (a.npos == 1) return atleast_nd(in, a.pos[0], N);
    std::vector<Value> out;
    for (size_t k = 0; k < a.npos; ++k) out.push_back(atleast_nd(in, a.pos[k], N));
    return make_tuple(std::move(out));
}

}  // namespace

// np.diagonal(x, offset, axis1, axis2): the diagonal as the last axis of a view.
Value diagonal_view(ArrayObj* x, int64_t offset, int64_t axis1, int64_t axis2) {
    if (x->ndim() < 2) raise(types::ValueError, "diag requires an array of at least two dimensions");
    int i = normalize_axis_named(axis1, x->ndim(), "axis1"), j = normalize_axis_named(axis2, x->ndim(), "axis2");
    if (i == j) raise(types::ValueError, "axis1 and axis2 cannot be the same");
    materialize(x);
    int64_t n1 = x->shape[size_t(i)], n2 = x->shape[size_t(j)];
    int64_t s1 = x->strides[size_t(i)], s2 = x->strides[size_t(j)];
    int64_t len = offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2);
    len = std::max<int64_t>(len, 0);
    int64_t start = x->offset;
    if (len > 0) start += offset >= 0 ? offset * s2 : -offset * s1;
    Shape shape;
    std::vector<int64_t> strides;
    for (int d = 0; d < x->ndim(); ++d) {
        if (d == i || d == j) continue;
        shape.push_back(x->shape[size_t(d)]);
        strides.push_back(x->strides[size_t(d)]);
    }
    shape.push_back(len);
    strides.push_back(s1 + s2);
    return view_of(x, shape, strides, start);
}

namespace {

Value diagonal_args(Interp& in, CallArgs& a, const Value& x) {
    Value m = materialized(in, x);
    const Value* off = arg(a, 1, "offset");
    const Value* a1 = arg(a, 2, "axis1");
    const Value* a2 = arg(a, 3, "axis2");
    return diagonal_view(m.as<ArrayObj>(), off ? to_index(*off) : 0, a1 ? to_index(*a1) : 0, a2 ? to_index(*a2) : 1);
}

Value np_diagonal(Interp& in, CallArgs& a) { return diagonal_args(in, a, required(a, 0, "a", "diagonal")); }
Value m_diagonal(Interp& in, CallArgs& a) { return diagonal_args(in, a, a.pos[0]); }

// np.ascontiguousarray / np.asfortranarray: the input itself when already laid
// out so, else a copy; at least 1-d.
template <char ORDER>
Value np_as_ordered(Interp& in, CallArgs& a) {
    Value x = as_array_value(in, required(a, 0, "a", ORDER == 'C' ? "ascontiguousarray" : "asfortranarray"), dtype_arg(in, a, 1));
    if (x.as<ArrayObj>()->ndim() == 0) x = insert_axis(x.as<ArrayObj>(), 0);
    ArrayObj* xa = x.as<ArrayObj>();
    bool ok = ORDER == 'C' ? is_c_contiguous(xa) : is_f_contiguous(xa);
    return ok ? x : copy_order(in, x, xa->dtype, ORDER);
}

const FunctionSpec kFunctions[] = {
    {"broadcast_to", np_broadcast_to, "broadcast_to(array, shape)", "Broadcast an array to a new shape (a view)."},
    {"broadcast_arrays", np_broadcast_arrays, "broadcast_arrays(*args)", "Broadcast any number of arrays against each other (views)."},
    {"flip", np_flip, "flip(m, axis=None)", "Reverse the order of elements along the given axes (a view)."},
    {"fliplr", np_fliplr, "fliplr(m)", "Reverse the order of elements along axis 1 (left/right)."},
    {"flipud", np_flipud, "flipud(m)", "Reverse the order of elements along axis 0 (up/down)."},
    {"moveaxis", np_moveaxis, "moveaxis(a, source, destination)", "Move axes of an array to new positions (a view)."},
    {"expand_dims", np_expand_dims, "expand_dims(a, axis)", "Insert new axes of length one at the given positions (a view)."},
    {"atleast_1d", np_atleast<1>, "atleast_1d(*arys)", "View inputs as arrays with at least one dimension."},
    {"atleast_2d", np_atleast<2>, "atleast_2d(*arys)", "View inputs as arrays with at least two dimensions."},
    {"atleast_3d", np_atleast<3>, "atleast_3d(*arys)", "View inputs as arrays with at least three dimensions."},
    {"ascontiguousarray", np_as_ordered<'C'>, "ascontiguousarray(a, dtype=None)", "A C-contiguous array (ndim >= 1) with the data of a."},
    {"asfortranarray", np_as_ordered<'F'>, "asfortranarray(a, dtype=None)", "A Fortran-contiguous array (ndim >= 1) with the data of a."},
    {"diagonal", np_diagonal, "diagonal(a, offset=0, axis1=0, axis2=1)", "Return specified diagonals (a view)."},
};

}  // namespace

void add_view_functions(Interp&, ModuleObj* m) {
    add_functions(m, kFunctions);
}

void install_view_methods() {
    def_method(types::ndarray, "diagonal", m_diagonal, "ndarray.diagonal(offset=0, axis1=0, axis2=1)", "Return specified diagonals (a view).");
}

}  // namespace gpy
