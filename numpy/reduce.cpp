// Reductions (sum, prod, min, max, any, all, argmin, argmax) and the
// statistics built from them (mean, var, std). A reduction's elementwise input
// fuses into its kernel, so np.sum(x*x) reads x once and allocates nothing else.
#include <algorithm>
#include <cmath>
#include <functional>

#include "codegen/kernel.h"
#include "codegen/plan.h"
#include "numpy/promote.h"
#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/reduce.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

// One axis of axis=: an int or a NumPy integer scalar; NumPy refuses bools.
static int64_t axis_int(const Value& v) {
    if (v.is_bool()) raise(types::TypeError, "an integer is required");
    if (v.is_int()) return v.i;
    if (ArrayObj* x = as_array(v); x && x->numpy_scalar && is_integer(x->dtype)) return to_index(v, "axis");
    raise(types::TypeError, std::string("'") + type_name(v) + "' object cannot be interpreted as an integer");
}

std::vector<int> parse_axes(Interp& in, const Value* axis, int ndim) {
    std::vector<int> axes;
    // NumPy lets a 0-d array be reduced along axis 0 / -1 (which is no axis).
    if (ndim == 0 && axis && !axis->is_none() && !is_kind(*axis, OK::Tuple) && !is_kind(*axis, OK::List)) {
        normalize_axis(axis_int(*axis), 1);
        return axes;
    }
    if (!axis || axis->is_none()) {
        for (int d = 0; d < ndim; ++d) axes.push_back(d);
        return axes;
    }
    auto add = [&](const Value& v) {
        int a = normalize_axis(axis_int(v), ndim);
        if (std::find(axes.begin(), axes.end(), a) != axes.end()) raise(types::ValueError, "duplicate value in 'axis'");
        axes.push_back(a);
    };
    if (is_kind(*axis, OK::Tuple) || is_kind(*axis, OK::List)) {
        for (auto& v : to_vector(in, *axis)) add(v);
    } else {
        add(*axis);
    }
    std::sort(axes.begin(), axes.end());
    return axes;
}

static const char* ufunc_of(ReduceOp op) {
    switch (op) {
        case ReduceOp::Sum: return "add";
        case ReduceOp::Prod: return "multiply";
        case ReduceOp::Max: return "maximum";
        case ReduceOp::Min: return "minimum";
        case ReduceOp::Any: return "logical_or";
        case ReduceOp::All: return "logical_and";
        case ReduceOp::ArgMax: return "argmax";
        case ReduceOp::ArgMin: return "argmin";
    }
    return "?";
}

DType reduce_dtype(ReduceOp op, DType in, std::optional<DType> requested) {
    if (requested) return *requested;
    switch (op) {
        case ReduceOp::Sum: case ReduceOp::Prod:
            if (in == DType::Bool || (kind(in) == DKind::Int && itemsize(in) < 8)) return DType::Int64;
            if (kind(in) == DKind::UInt && itemsize(in) < 8) return DType::UInt64;
            return in;
        case ReduceOp::Any: case ReduceOp::All: return DType::Bool;
        case ReduceOp::ArgMax: case ReduceOp::ArgMin: return DType::Int64;
        default: return in;
    }
}

Value keep_dims(const Value& r, const std::vector<int>& axes, int ndim) {
    ArrayObj* a = r.as<ArrayObj>();
    // A pending reduction stays pending: x / x.sum(axis=-1, keepdims=True)
    // can then be one row kernel (codegen/plan.cpp).
    if (a->node && !a->node->result && a->node->op != dag::Op::Input && a->node->op != dag::Op::Scalar) {
        std::vector<int> sorted = axes;
        std::sort(sorted.begin(), sorted.end());
        return array_from_node(dag::make_expand(a->node, sorted));
    }
    materialize(a);
    Shape shape;
    std::vector<int64_t> strides;
    size_t k = 0;
    for (int d = 0; d < ndim; ++d) {
        if (std::find(axes.begin(), axes.end(), d) != axes.end()) {
            shape.push_back(1);
            strides.push_back(0);
        } else {
            shape.push_back(a->shape[k]);
            strides.push_back(a->strides[k]);
            ++k;
        }
    }
    return array_from_buffer(a->buffer, a->dtype, shape, strides, a->offset);
}

Value replace_nan(Interp& in, const Value& x, const Value& fill) {
    Value arr = as_array_value(in, x);
    ArrayObj* a = arr.as<ArrayObj>();
    if (!is_inexact(a->dtype)) return arr;
    NodeP isnan = array_node(apply_ufunc(in, Ufunc::isnan, {arr}).as<ArrayObj>());
    NodeP f = make_scalar(a->dtype, convert_scalar(fill, a->dtype));
    return array_from_node(make_where(isnan, f, array_node(a), a->shape), a->numpy_scalar);
}

// A where= mask as a bool node; it must broadcast to `shape`.
NodeP where_mask(Interp& in, const Value& where, const Shape& shape) {
    Value w = as_array_value(in, where);
    ArrayObj* wa = w.as<ArrayObj>();
    if (broadcast_shapes({&wa->shape, &shape}) != shape)
        raise(types::ValueError, "could not broadcast where mask from shape " + shape_text(wa->shape) + " into shape " + shape_text(shape));
    return make_cast(array_node(wa), DType::Bool);
}

// where=: the elements left out become the reduction's identity (for
// maximum/minimum, which have none, the initial value NumPy requires).
static NodeP mask_input(Interp& in, ReduceOp op, NodeP input, const ArrayObj* a, const ReduceOptions& o) {
    Value fill;
    switch (op) {
        case ReduceOp::Sum: case ReduceOp::Any: fill = Value::integer(0); break;
        case ReduceOp::Prod: case ReduceOp::All: fill = Value::integer(1); break;
        case ReduceOp::Max: case ReduceOp::Min:
            if (!o.initial)
                raise(types::ValueError, std::string("reduction operation '") + ufunc_of(op) +
                                             "' does not have an identity, so to use a where mask one has to specify 'initial'");
            fill = *o.initial;
            break;
        default: raise(types::TypeError, std::string(ufunc_of(op)) + "() got an unexpected keyword argument 'where'");
    }
    NodeP f = make_scalar(input->dtype, convert_scalar(fill, input->dtype));
    return make_where(where_mask(in, *o.where, a->shape), input, f, a->shape);
}

Value initial_value(Interp& in, const Value& v, DType t, bool is_identity) {
    // A NumPy scalar counts as the Python number it holds (NumPy's wording too).
    ArrayObj* va = as_array(v);
    if (!is_identity) check_python_store(va && va->ndim() == 0 ? element_to_python(va, host_view(va).data) : v, t);
    Value a = as_array_value(in, v);
    return compute_into_new(make_cast(array_node(a.as<ArrayObj>()), t), t, {});
}

// max/min/argmax/argmin of a complex array: numpy/py/complex_order.py
// (NumPy's lexicographic order from real reductions; where= not supported).
Value complex_extreme(Interp& in, ReduceOp op, const Value& arr, const ReduceOptions& o) {
    const bool index = op == ReduceOp::ArgMax || op == ReduceOp::ArgMin;
    if (o.where) raise(types::NotImplementedError, std::string(ufunc_of(op)) + " of complex arrays with where= is not supported yet");
    if (o.dtype && !index && !is_complex(*o.dtype))
        raise(types::TypeError, std::string("Cannot cast ufunc '") + ufunc_of(op) + "' output from dtype('" + name(as_array(arr)->dtype) +
                                    "') to dtype('" + name(*o.dtype) + "') with casting rule 'same_kind'");
    const Value* f = in.import_module("numpy")->get("_complex_extreme");
    if (!f) raise(types::RuntimeError, "numpy/py/complex_order.py is missing");
    Value args[] = {arr,
                    o.axis ? *o.axis : Value::none(),
                    Value::boolean(o.keepdims),
                    Value::boolean(op == ReduceOp::Max || op == ReduceOp::ArgMax),
                    Value::boolean(index),
                    o.out ? *o.out : Value::none(),
                    o.initial ? *o.initial : Value::none()};
    CallArgs c{args, 7, nullptr};
    return in.call(*f, c);
}

Value reduce(Interp& in, ReduceOp op, const Value& x, const ReduceOptions& o) {
    Value arr = as_array_value(in, x);
    ArrayObj* a = arr.as<ArrayObj>();
    if ((op == ReduceOp::ArgMax || op == ReduceOp::ArgMin) && o.axis && !o.axis->is_none() && !o.axis->is_intlike())
        raise(types::TypeError, std::string("'") + type_name(*o.axis) + "' object cannot be interpreted as an integer");
    std::vector<int> axes = parse_axes(in, o.axis, a->ndim());
    int64_t count = 1;
    for (int d : axes) count *= a->shape[size_t(d)];
    DType out = reduce_dtype(op, a->dtype, o.dtype);
    // NumPy resolves a reduction given out= (and no dtype=) from (out, input):
    // out is the accumulator, so sum(float64, out=int) adds in float64 and
    // min(bool, out=float64, initial=-2**40) compares in float64.
    if (o.out && !o.dtype && (op == ReduceOp::Sum || op == ReduceOp::Prod || op == ReduceOp::Max || op == ReduceOp::Min))
        if (ArrayObj* oa = as_array(*o.out)) out = promote_types(oa->dtype, a->dtype);
    if (is_complex(a->dtype) && (op == ReduceOp::Max || op == ReduceOp::Min || op == ReduceOp::ArgMax || op == ReduceOp::ArgMin))
        return complex_extreme(in, op, arr, o);
    if (is_complex(a->dtype) && (op == ReduceOp::Any || op == ReduceOp::All))  // a complex value is true where it is not 0
        return reduce(in, op, apply_ufunc(in, Ufunc::not_equal, {arr, Value::integer(0)}), o);
    if ((is_complex(a->dtype) || is_complex(out)) && !complex_reduce_supported(op))
        raise(types::NotImplementedError, std::string(ufunc_of(op)) + " reduction of complex arrays is not supported yet");
    NodeP input = array_node(a);
    if (op == ReduceOp::Sum || op == ReduceOp::Prod || op == ReduceOp::Max || op == ReduceOp::Min) {
        NodeP cast = make_cast(input, out);
        if (cast != input) cast->loop_cast = true;
        input = cast;
    }
    if (o.where) input = mask_input(in, op, input, a, o);
    if (count == 0 && !o.initial) {
        if (op == ReduceOp::Max || op == ReduceOp::Min)
            raise(types::ValueError, std::string("zero-size array to reduction operation ") + ufunc_of(op) + " which has no identity");
        if (op == ReduceOp::ArgMax || op == ReduceOp::ArgMin)
            raise(types::ValueError, std::string("attempt to get ") + ufunc_of(op) + " of an empty sequence");
    }
    // NumPy casts initial= to the result dtype before it combines (sum of
    // int16 with initial=-2.5 adds -2).
    Value init = o.initial ? initial_value(in, *o.initial, out) : Value();
    if (o.initial && op == ReduceOp::Prod && is_float(out) && !truthy(init)) {
        // NumPy folds initial= in first: a zero start stays +-0 through finite
        // factors (its sign flipping at each negative one) and turns NaN at an
        // inf or NaN, where the elements' own product may overflow first
        // (np.prod(float16 [3, -7, 65504], initial=0) is -0.0, not 0 * -inf).
        // Against a zero start each element counts by its sign alone.
        const Shape& s = input->shape;
        NodeP one = make_scalar(out, convert_scalar(Value::real(1.0), out));
        NodeP nan = make_scalar(out, convert_scalar(Value::real(NAN), out));
        input = make_where(make_unary(UnaryOp::IsFinite, input, DType::Bool),
                           make_binary(BinaryOp::Copysign, one, input, out, s), nan, s);
    }
    NodeP node = make_reduce(op, input, axes, out);
    if (o.initial) {
        // (argmax/argmin take no initial=)
        const Ufunc uf = op == ReduceOp::Sum ? Ufunc::add : op == ReduceOp::Prod ? Ufunc::multiply : op == ReduceOp::Max ? Ufunc::maximum
                       : op == ReduceOp::Min ? Ufunc::minimum : op == ReduceOp::Any ? Ufunc::logical_or : Ufunc::logical_and;
        Value r = array_from_node(node);
        // No element: the initial value itself (a complex NaN+0j stays so;
        // NaN+0j times the identity 1+0j would be NaN+NaNj).
        Value combined = count == 0 ? broadcast_view(init.as<ArrayObj>(), r.as<ArrayObj>()->shape) : apply_ufunc(in, uf, {r, init});
        node = array_node(combined.as<ArrayObj>());
        node = make_cast(node, out);
    }
    // A 0-d result is a NumPy scalar, keepdims or not (a 0-d input keeps no dims).
    bool scalar = axes.size() == size_t(a->ndim()) && (!o.keepdims || a->ndim() == 0);
    Value result = array_from_node(node, scalar);
    if (o.keepdims && a->ndim() > 0) result = keep_dims(result, axes, a->ndim());
    if (o.out) return store_reduction_out(in, *o.out, result, ufunc_of(op), a->shape, o.keepdims);
    return result;
}

Value store_reduction_out(Interp& in, const Value& out, const Value& r, const char* op, const Shape& input, bool keepdims) {
    const Shape& os = as_array(out)->shape;
    const Shape& rs = as_array(r)->shape;
    if (os.size() != rs.size())
        raise(types::ValueError, std::string("output parameter for reduction operation ") + op + " has the wrong number of dimensions: Found " +
                                     std::to_string(os.size()) + " but expected " + std::to_string(rs.size()) +
                                     (keepdims ? " (must match the operand's when keepdims=True)" : ""));
    if (os != rs) {
        std::string remapped = shape_text(os);
        if (os.size() == 1) remapped.erase(remapped.size() - 2, 1);  // "(4,)" -> "(4)", as NumPy prints it
        raise(types::ValueError, "operands could not be broadcast together with remapped shapes [original->remapped]: " + shape_text(os) +
                                     "->" + remapped + " " + compact_shape_text(input) + " ");
    }
    assign_array(in, out, r);
    return out;
}

// NumPy computes float16 statistics in float32 and rounds the result back.
static Value via_float32(Interp& in, const Value& arr, const ReduceOptions& o, const std::function<Value(const Value&, const ReduceOptions&)>& f) {
    ArrayObj* a = arr.as<ArrayObj>();
    ReduceOptions inner = o;
    inner.out = nullptr;
    Value r = f(array_from_node(make_cast(array_node(a), DType::Float32)), inner);
    ArrayObj* ra = r.as<ArrayObj>();
    Value back = array_from_node(make_cast(array_node(ra), DType::Float16), ra->numpy_scalar);
    if (o.out) return store_reduction_out(in, *o.out, back, "add", a->shape, o.keepdims);
    return back;
}

// The number of elements each result of a reduction over `axes` combines:
// a Python int, or with where= an int64 array counting the mask.
static Value element_count(Interp& in, const ArrayObj* a, const std::vector<int>& axes, const ReduceOptions& o) {
    if (!o.where) {
        int64_t count = 1;
        for (int d : axes) count *= a->shape[size_t(d)];
        return Value::integer(count);
    }
    NodeP ones = make_where(where_mask(in, *o.where, a->shape), make_scalar(DType::Int64, convert_scalar(Value::integer(1), DType::Int64)),
                            make_scalar(DType::Int64, ScalarValue()), a->shape);
    return array_from_node(make_reduce(ReduceOp::Sum, ones, axes, DType::Int64), axes.size() == size_t(a->ndim()));
}

// mean/var/std (unlike the ufunc reductions) reject any axis on a 0-d array.
static void check_0d_axis(const ArrayObj* a, const ReduceOptions& o) {
    if (a->ndim() == 0 && o.axis && o.axis->is_intlike()) normalize_axis(o.axis->as_int(), 0);
}

Value mean(Interp& in, const Value& x, const ReduceOptions& o) {
    Value arr = as_array_value(in, x);
    ArrayObj* a = arr.as<ArrayObj>();
    check_0d_axis(a, o);
    if (a->dtype == DType::Float16 && !o.dtype)
        return via_float32(in, arr, o, [&](const Value& v, const ReduceOptions& ro) { return mean(in, v, ro); });
    std::vector<int> axes = parse_axes(in, o.axis, a->ndim());
    // NumPy: integer and bool inputs average in float64; floats in their own type.
    DType acc = o.dtype ? *o.dtype : (is_inexact(a->dtype) ? a->dtype : DType::Float64);
    ReduceOptions so = o;
    so.dtype = acc;
    so.keepdims = false;
    so.out = nullptr;
    Value s = reduce(in, ReduceOp::Sum, arr, so);
    Value m = apply_ufunc(in, Ufunc::true_divide, {s, element_count(in, a, axes, o)});
    if (m.as<ArrayObj>()->dtype != acc) m = array_from_node(make_cast(array_node(m.as<ArrayObj>()), acc), m.as<ArrayObj>()->numpy_scalar);
    if (o.keepdims && a->ndim() > 0) m = keep_dims(m, axes, a->ndim());  // a 0-d input's mean stays a scalar
    if (o.out) return store_reduction_out(in, *o.out, m, "add", a->shape, o.keepdims);
    return m;
}

// NumPy's _var divides sums by an intp count (a strong int64), in place:
// the quotient is computed in float64 and cast back to the sum's dtype
// (float16 sums over 65504 elements do not divide by an inf count).
static Value divide_by_count(Interp& in, const Value& sum, const Value& count) {
    Value c = count;
    if (count.is_int()) {
        ScalarValue sv;
        sv.i = count.i;
        c = array_from_node(make_scalar(DType::Int64, sv), true);
    }
    ArrayObj* sa = sum.as<ArrayObj>();
    Value q = apply_ufunc(in, Ufunc::true_divide, {sum, c});
    ArrayObj* qa = q.as<ArrayObj>();
    if (qa->dtype == sa->dtype) {
        if (sa->numpy_scalar && qa->ndim() == 0) set_numpy_scalar(qa, true);  // also over a 0-d count array (ddof=np.uint64)
        return q;
    }
    return array_from_node(make_cast(array_node(qa), sa->dtype), sa->numpy_scalar && qa->ndim() == 0);
}

Value squared_magnitude(Interp& in, const Value& x) {
    if (!is_complex(x.as<ArrayObj>()->dtype)) return apply_ufunc(in, Ufunc::multiply, {x, x});
    Value re = complex_part(x, false), im = complex_part(x, true);
    return apply_ufunc(in, Ufunc::add, {apply_ufunc(in, Ufunc::multiply, {re, re}), apply_ufunc(in, Ufunc::multiply, {im, im})});
}

// NumPy's _var, step for step: bool and integer inputs default to dtype
// float64, other inputs sum in their own dtype (or dtype=); the mean and the
// variance are sums divided in place by the count (divide_by_count); complex
// deviations square to re^2 + im^2, so the result is real. std is the sqrt,
// cast back to the variance's dtype as NumPy's scalar path does (an array
// result that sqrt cannot be cast back into is its UFuncTypeError).
Value variance(Interp& in, const Value& x, const ReduceOptions& o, const Value& ddof, bool take_sqrt) {
    Value arr = as_array_value(in, x);
    ArrayObj* a = arr.as<ArrayObj>();
    check_0d_axis(a, o);
    std::vector<int> axes = parse_axes(in, o.axis, a->ndim());
    std::optional<DType> dt = o.dtype;
    if (!dt && !is_inexact(a->dtype)) dt = DType::Float64;
    ReduceOptions mo;
    mo.axis = o.axis;
    mo.keepdims = true;
    mo.dtype = dt;
    mo.where = o.where;
    Value mcount = element_count(in, a, axes, mo);
    if (!mcount.is_int()) mcount = keep_dims(mcount, axes, a->ndim());
    Value mu = divide_by_count(in, reduce(in, ReduceOp::Sum, arr, mo), mcount);
    Value sq = squared_magnitude(in, apply_ufunc(in, Ufunc::subtract, {arr, mu}));
    ReduceOptions so;
    so.axis = o.axis;
    // keepdims before the division, as NumPy's _var: a ddof array then
    // broadcasts against the kept dims (var(ddof=[0], keepdims=True) of a
    // 3-d array is (1, 1, 1), not (1, 1, 1, 1)).
    so.keepdims = o.keepdims;
    so.dtype = dt;
    so.where = o.where;
    Value ss = reduce(in, ReduceOp::Sum, sq, so);
    Value count = element_count(in, a, axes, o);
    if (o.keepdims && !count.is_int()) count = keep_dims(count, axes, a->ndim());
    // NumPy's _var first tests `ddof >= rcount` for its warning (without
    // where=): a ddof array of several elements is then ambiguous, ValueError.
    if (!o.where && !ddof.is_number()) (void)truthy(apply_ufunc(in, Ufunc::greater_equal, {ddof, count}));
    // max(count - ddof, 0); ddof may be a float or an array (then broadcast, as NumPy).
    // NumPy's count is an intp (strong): count - np.uint64(3) is float64 -2.0, not a wrapped uint64.
    Value dof = count.is_int() && ddof.is_int()
                    ? Value::integer(std::max<int64_t>(count.i - ddof.i, 0))
                    : apply_ufunc(in, Ufunc::maximum, {apply_ufunc(in, Ufunc::subtract, {count.is_int() ? as_array_value(in, count, DType::Int64) : count, ddof}),
                                                  Value::integer(0)});
    if (o.out) {
        // NumPy sums into out, then divides (and takes the sqrt) in place in
        // out's dtype: into a complex out the division is complex, so an inf
        // variance is inf+nanj, and std's sqrt is complex128's.
        Value ret = store_reduction_out(in, *o.out, ss, "add", a->shape, o.keepdims);
        assign_array(in, ret, divide_by_count(in, ret, dof));
        if (take_sqrt) {
            Value r = apply_ufunc(in, Ufunc::sqrt, {ret});
            DType rt = r.as<ArrayObj>()->dtype, ot = as_array(ret)->dtype;
            if (!can_cast(rt, ot, Casting::SameKind))  // sqrt(ret, out=ret) casts same_kind
                raise(types::UFuncTypeError, std::string("Cannot cast ufunc 'sqrt' output from dtype('") + name(rt) + "') to dtype('" +
                                                 name(ot) + "') with casting rule 'same_kind'");
            assign_array(in, ret, r);
        }
        return ret;
    }
    Value v = divide_by_count(in, ss, dof);
    if (take_sqrt) {
        ArrayObj* va = v.as<ArrayObj>();
        Value r = apply_ufunc(in, Ufunc::sqrt, {v});
        DType rt = r.as<ArrayObj>()->dtype;
        if (rt != va->dtype) {
            if (!va->numpy_scalar && !can_cast(rt, va->dtype, Casting::SameKind))
                raise(types::UFuncTypeError, std::string("Cannot cast ufunc 'sqrt' output from dtype('") + name(rt) + "') to dtype('" +
                                                 name(va->dtype) + "') with casting rule 'same_kind'");
            r = array_from_node(make_cast(array_node(r.as<ArrayObj>()), va->dtype), va->numpy_scalar);
        }
        v = r;
    }
    return v;
}

}  // namespace gpy
