// Grids and index conversions: meshgrid, logspace and geomspace (on top of
// the module's linspace), ravel_multi_index and unravel_index.
#include <cmath>

#include "numpy/promote.h"
#include "numpy/indexing.h"
#include "numpy/reduce.h"
#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using dag::Shape;

namespace {

Value np_meshgrid(Interp& in, CallArgs& a) {
    bool copy = true, sparse = false, xy = true;
    if (const Value* v = kwarg(a, "copy")) copy = truthy(*v);
    if (const Value* v = kwarg(a, "sparse")) sparse = truthy(*v);
    if (const Value* v = kwarg(a, "indexing")) {
        const std::string& s = str_of(*v, "indexing");
        if (s != "xy" && s != "ij") raise(types::ValueError, "Valid values for `indexing` are 'xy' and 'ij'.");
        xy = s == "xy";
    }
    size_t nd = a.npos;
    std::vector<Value> out;
    for (size_t i = 0; i < nd; ++i) {
        Value x = materialized(in, a.pos[i]);
        // Input i varies along axis i (axes 0 and 1 swap for 'xy').
        size_t at = xy && nd > 1 && i < 2 ? 1 - i : i;
        Shape shape(nd, 1);
        shape[at] = x.as<ArrayObj>()->size();
        out.push_back(reshape_order(x.as<ArrayObj>(), shape, 'C'));
    }
    if (!sparse && nd > 0) {
        Shape full(nd, 1);
        for (auto& x : out)
            for (size_t d = 0; d < nd; ++d) full[d] = std::max(full[d], x.as<ArrayObj>()->shape[d]);
        for (auto& x : out) x = broadcast_view(x.as<ArrayObj>(), full);
    }
    if (copy)
        for (auto& x : out) x = copy_order(in, x, x.as<ArrayObj>()->dtype, 'C');
    return make_tuple(std::move(out));
}

// The module's linspace (numpy_module.cpp), looked up once: its logic is reused as is.
NativeFn g_linspace = nullptr;

// NumPy's logspace: power(base, linspace(start, stop, num, endpoint, axis));
// a Python number base stays weak (a complex64 exponent gives complex64). An
// array base (ndim > 0) is broadcast with the bounds first: all three get
// the broadcast's ndim (ones in front), and base an axis at `axis` for the
// samples (base=[[[1]], [[2]]] gives shape (50, 2, 1, 1)).
Value logspace(Interp& in, Value start, Value stop, const Value& num, bool endpoint, Value base, const Value& axis) {
    bool python_number = base.is_number() || as_complex(base);
    if (!python_number) {
        base = as_array_value(in, base);
        if (base.as<ArrayObj>()->ndim() > 0) {
            start = as_array_value(in, start);
            stop = as_array_value(in, stop);
            int ndmax = 0;
            for (const Value* v : {&start, &stop, &base}) ndmax = std::max(ndmax, v->as<ArrayObj>()->ndim());
            broadcast_all({start, stop, base});  // np.broadcast's error when they do not
            for (Value* v : {&start, &stop, &base})
                while (v->as<ArrayObj>()->ndim() < ndmax) *v = insert_axis(v->as<ArrayObj>(), 0);
            int ax = normalize_axis(to_index(axis, "axis"), ndmax + 1);
            base = insert_axis(base.as<ArrayObj>(), ax);
        }
    }
    Value args[7] = {start, stop, num, Value::boolean(endpoint), Value::boolean(false), Value::none(), axis};
    CallArgs la{args, 7, nullptr};
    Value y = g_linspace(in, la);
    return apply_ufunc(in, Ufunc::power, {base, y});
}

Value np_logspace(Interp& in, CallArgs& a) {
    const Value& start = required(a, 0, "start", "logspace");
    const Value& stop = required(a, 1, "stop", "logspace");
    const Value* num = arg(a, 2, "num");
    const Value* ep = arg(a, 3, "endpoint");
    const Value* base = arg(a, 4, "base");
    const Value* axis = arg(a, 6, "axis");
    Value r = logspace(in, start, stop, num ? *num : Value::integer(50), !ep || truthy(*ep), base ? *base : Value::real(10.0),
                       axis ? *axis : Value::integer(0));
    if (auto dt = dtype_arg(in, a, 5)) r = array_from_node(dag::make_cast(array_node(r.as<ArrayObj>()), *dt));
    return r;
}

// NumPy's geomspace (numpy/_core/function_base.py) step by step in array
// operations: bounds may be arrays (broadcast, the samples on a new axis 0,
// moved to `axis`); they are computed in result_type(start, stop, float,
// dtype) with start rotated to the positive real axis (out_sign = sign(start),
// so a NaN start makes every sample NaN), the ends set exactly, the sign put
// back, and the result cast to dtype= (truncating, no floor).
Value np_geomspace(Interp& in, CallArgs& a) {
    Value start = as_array_value(in, required(a, 0, "start", "geomspace"));
    Value stop = as_array_value(in, required(a, 1, "stop", "geomspace"));
    const Value* num_v = arg(a, 2, "num");
    int64_t num = num_v ? to_index(*num_v) : 50;
    if (num < 0) raise(types::ValueError, "Number of samples, " + std::to_string(num) + ", must be non-negative.");
    const Value* ep = arg(a, 3, "endpoint");
    bool endpoint = !ep || truthy(*ep);
    auto want = dtype_arg(in, a, 4);
    const Value* axis_v = arg(a, 5, "axis");
    ReduceOptions any;
    for (const Value* v : {&start, &stop})
        if (truthy(reduce(in, dag::ReduceOp::Any, apply_ufunc(in, Ufunc::equal, {*v, Value::integer(0)}), any)))
            raise(types::ValueError, "Geometric sequence cannot include zero");
    Operand ops[4] = {Operand::array(start.as<ArrayObj>()->dtype), Operand::array(stop.as<ArrayObj>()->dtype),
                      Operand::py_float(double(num)), Operand::array(want.value_or(DType::Float64))};
    DType dt = result_type(ops);
    auto as_dt = [&](const Value& v) { return compute_into_new(dag::make_cast(array_node(v.as<ArrayObj>()), dt), dt, v.as<ArrayObj>()->shape); };
    start = as_dt(start);
    stop = as_dt(stop);
    Value out_sign = apply_ufunc(in, Ufunc::sign, {start});
    start = as_dt(apply_ufunc(in, Ufunc::true_divide, {start, out_sign}));
    stop = apply_ufunc(in, Ufunc::true_divide, {stop, out_sign});
    Value r = logspace(in, apply_ufunc(in, Ufunc::log10, {start}), apply_ufunc(in, Ufunc::log10, {stop}), Value::integer(num), endpoint,
                       Value::real(10.0), Value::integer(0));
    r = compute_into_new(dag::make_cast(array_node(r.as<ArrayObj>()), dt), dt, r.as<ArrayObj>()->shape);
    if (num > 0) {
        array_setitem(in, r, Value::integer(0), start);
        if (num > 1 && endpoint) array_setitem(in, r, Value::integer(-1), stop);
    }
    r = apply_ufunc(in, Ufunc::multiply, {r, out_sign});
    if (axis_v) {
        ArrayObj* ra = r.as<ArrayObj>();
        int ax = normalize_axis(to_index(*axis_v, "axis"), ra->ndim());
        if (ax != 0) r = moveaxis_view(ra, 0, ax);
    }
    DType final_dt = want.value_or(dt);
    ArrayObj* ra = r.as<ArrayObj>();
    if (ra->dtype != final_dt) r = array_from_node(dag::make_cast(array_node(ra), final_dt));
    return r;
}

// ---- index conversions ----

Shape dims_arg(Interp& in, const Value& v) {
    Shape s;
    if (is_kind(v, OK::Tuple) || is_kind(v, OK::List)) for (auto& d : to_vector(in, v)) s.push_back(to_index(d));
    else s.push_back(to_index(v));
    return s;
}

// Element strides (in elements) of a C or F layout of dims.
std::vector<int64_t> index_strides(const Shape& dims, char order) {
    std::vector<int64_t> st(dims.size());
    int64_t m = 1;
    for (size_t k = 0; k < dims.size(); ++k) {
        size_t d = order == 'F' ? k : dims.size() - 1 - k;
        st[d] = m;
        m *= dims[d];
    }
    return st;
}

// An int64 array of `shape` from `vals`; a NumPy scalar when `scalar`.
Value int_result(const std::vector<int64_t>& vals, const Shape& shape, bool scalar) {
    Value out = new_array(DType::Int64, shape);
    std::copy(vals.begin(), vals.end(), reinterpret_cast<int64_t*>(out.as<ArrayObj>()->buffer.bytes()));
    set_numpy_scalar(out.as<ArrayObj>(), scalar);
    return out;
}

// The int64 values of an index array-like, in C order.
std::vector<int64_t> int_values(Interp& in, const Value& v, Shape& shape) {
    Value x = as_array_value(in, v);
    if (!is_integer(x.as<ArrayObj>()->dtype)) raise(types::TypeError, "only int indices permitted");
    Value c = copy_order(in, x, DType::Int64, 'C');
    ArrayObj* ca = c.as<ArrayObj>();
    shape = ca->shape;
    auto* p = reinterpret_cast<const int64_t*>(ca->buffer.bytes());
    return std::vector<int64_t>(p, p + ca->size());
}

// The element count dims describe; a count past int64 is NumPy's ValueError
// (worded per function).
int64_t dims_size(const Shape& dims, const char* too_big) {
    int64_t size = 1;
    for (int64_t d : dims)
        if (__builtin_mul_overflow(size, d, &size)) raise(types::ValueError, too_big);
    return size;
}

Value np_unravel_index(Interp& in, CallArgs& a) {
    Shape ishape;
    std::vector<int64_t> idx = int_values(in, required(a, 0, "indices", "unravel_index"), ishape);
    Shape dims = dims_arg(in, required(a, 1, "shape", "unravel_index"));
    char order = c_or_f_order(arg(a, 2, "order"));
    int64_t size = dims_size(dims, "dimensions are too large; arrays and shapes with a total size greater than 'intp' are not supported.");
    auto st = index_strides(dims, order);
    std::vector<std::vector<int64_t>> coords(dims.size());
    for (int64_t i : idx) {
        if (i < 0 || i >= size)
            raise(types::ValueError, "index " + std::to_string(i) + " is out of bounds for array with size " + std::to_string(size));
        for (size_t d = 0; d < dims.size(); ++d) coords[d].push_back(i / st[d] % dims[d]);
    }
    std::vector<Value> out;
    for (auto& c : coords) out.push_back(int_result(c, ishape, ishape.empty()));
    return make_tuple(std::move(out));
}

Value np_ravel_multi_index(Interp& in, CallArgs& a) {
    std::vector<Value> multi = to_vector(in, required(a, 0, "multi_index", "ravel_multi_index"));
    Shape dims = dims_arg(in, required(a, 1, "dims", "ravel_multi_index"));
    if (multi.size() != dims.size())
        raise(types::ValueError, "parameter multi_index must be a sequence of length " + std::to_string(dims.size()));
    std::vector<std::string> modes(dims.size(), "raise");
    if (const Value* m = arg(a, 2, "mode")) {
        if (is_kind(*m, OK::Str)) modes.assign(dims.size(), m->as<StrObj>()->s);
        else {
            auto ms = to_vector(in, *m);
            for (size_t d = 0; d < dims.size() && d < ms.size(); ++d) modes[d] = str_of(ms[d], "mode");
        }
    }
    char order = c_or_f_order(arg(a, 3, "order"));
    dims_size(dims, "invalid dims: array size defined by dims is larger than the maximum possible size.");
    auto st = index_strides(dims, order);
    std::vector<std::vector<int64_t>> coords;
    std::vector<Shape> shapes;
    Shape shape;
    for (auto& m : multi) {
        Shape s;
        coords.push_back(int_values(in, m, s));
        shapes.push_back(s);
    }
    std::vector<const Shape*> sp;
    for (auto& s : shapes) sp.push_back(&s);
    shape = broadcast_shapes(sp);
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    std::vector<int64_t> out(size_t(count), 0);
    for (size_t d = 0; d < dims.size(); ++d) {
        // Broadcast coordinate array d: its element for each output position.
        Value cv = int_result(coords[d], shapes[d], false);
        Value b = copy_order(in, broadcast_view(cv.as<ArrayObj>(), shape), DType::Int64, 'C');
        auto* p = reinterpret_cast<const int64_t*>(b.as<ArrayObj>()->buffer.bytes());
        for (int64_t k = 0; k < count; ++k) {
            int64_t v = p[k], n = dims[d];
            if (modes[d] == "wrap") v = n ? ((v % n) + n) % n : 0;
            else if (modes[d] == "clip") v = std::clamp<int64_t>(v, 0, n - 1);
            else if (v < 0 || v >= n) raise(types::ValueError, "invalid entry in coordinates array");
            out[size_t(k)] += v * st[d];
        }
    }
    return int_result(out, shape, shape.empty());
}

}  // namespace

void add_grid_functions(Interp&, ModuleObj* m) {
    g_linspace = m->get("linspace")->as<BuiltinObj>()->fn;
    m->set("meshgrid", make_builtin("meshgrid", np_meshgrid, "meshgrid(*xi, copy=True, sparse=False, indexing='xy')", "Coordinate matrices from coordinate vectors."));
    m->set("logspace", make_builtin("logspace", np_logspace, "logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0)", "Numbers spaced evenly on a log scale."));
    m->set("geomspace", make_builtin("geomspace", np_geomspace, "geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0)", "Numbers spaced evenly on a log scale (a geometric progression)."));
    m->set("unravel_index", make_builtin("unravel_index", np_unravel_index, "unravel_index(indices, shape, order='C')", "Convert flat indices into a tuple of coordinate arrays."));
    m->set("ravel_multi_index", make_builtin("ravel_multi_index", np_ravel_multi_index, "ravel_multi_index(multi_index, dims, mode='raise', order='C')", "Convert a tuple of index arrays into an array of flat indices."));
}

}  // namespace gpy
