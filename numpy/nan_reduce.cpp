// Reductions that ignore NaN (nansum, nanprod, nanmean, nanvar, nanstd,
// nanmax, nanmin, nanargmax, nanargmin), each built as fused expressions over
// the existing reductions: nansum(x) is sum(where(isnan(x), 0, x)), one
// kernel. Integer and bool inputs hold no NaN: they take the plain reduction.
#include <cmath>

#include "numpy/array.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/scan.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

namespace {

// (a, axis=None, [dtype=None,] out=None, <more>...): NumPy's positional
// order; keepdims, initial and where are read by keyword.
ReduceOptions options(Interp& in, CallArgs& a, bool has_dtype) {
    if (a.npos < 1) raise(types::TypeError, "missing required argument 'a' (pos 0)");
    ReduceOptions o;
    o.axis = arg(a, 1, "axis");
    size_t out_pos = 2;
    if (has_dtype) {
        o.dtype = dtype_arg(in, a, 2);
        out_pos = 3;
    }
    o.out = out_arg(a, out_pos, OutWording::Reduction);
    if (const Value* k = kwarg(a, "keepdims")) o.keepdims = truthy(*k);
    o.initial = initial_arg(kwarg(a, "initial"));
    o.where = kwarg(a, "where");
    return o;
}

Value finish(Interp& in, const Value& r, const ReduceOptions& o) {
    if (!o.out) return r;
    return store_reduction_out(in, *o.out, r, "add", as_array(r)->shape, o.keepdims);
}

bool has_nan_values(const Value& x) { return is_inexact(x.as<ArrayObj>()->dtype); }

Value not_nan(Interp& in, const Value& x) { return apply_ufunc(in, Ufunc::logical_not, {apply_ufunc(in, Ufunc::isnan, {x})}); }

// c ? r : nan, keeping r's dtype and scalar-ness.
Value nan_unless(const Value& c, const Value& r) {
    ArrayObj* ra = r.as<ArrayObj>();
    ScalarValue nan = convert_scalar(Value::real(NAN), ra->dtype);
    return array_from_node(make_where(array_node(c.as<ArrayObj>()), array_node(ra), make_scalar(ra->dtype, nan), ra->shape),
                           ra->numpy_scalar);
}

// r cast to t (an int64 count array promotes float32 quotients; NumPy divides in place).
Value cast_to(const Value& r, DType t) {
    ArrayObj* ra = r.as<ArrayObj>();
    return ra->dtype == t ? r : array_from_node(make_cast(array_node(ra), t), ra->numpy_scalar);
}

template <ReduceOp OP>
Value nan_sum_prod(Interp& in, CallArgs& a) {
    ReduceOptions o = options(in, a, true);
    return reduce(in, OP, replace_nan(in, a.pos[0], Value::integer(OP == ReduceOp::Prod ? 1 : 0)), o);
}

// nanmax: NaNs become -inf for the maximum; a slice of NaNs only gives NaN
// (NumPy also warns "All-NaN slice encountered"; gpy has no warnings).
template <ReduceOp OP>
Value nan_max_min(Interp& in, CallArgs& a) {
    ReduceOptions o = options(in, a, false);
    Value x = as_array_value(in, a.pos[0]);
    if (!has_nan_values(x)) return reduce(in, OP, x, o);
    Value neutral = Value::real(OP == ReduceOp::Max ? -INFINITY : INFINITY);
    ArrayObj* given = as_array(a.pos[0]);
    if (!given || given->numpy_scalar) {
        // NumPy's nanmax of anything but an ndarray (a list, a Python or
        // NumPy scalar): amax of it with NaNs replaced, then NaN wherever
        // all(isnan(a), where=where) holds, an empty where-slice included
        // (nanmax(np.float32(2.5), initial=-2.5, where=False) is nan).
        ReduceOptions inner = o;
        inner.out = nullptr;
        Value m = reduce(in, OP, replace_nan(in, x, neutral), inner);
        inner.initial = nullptr;
        Value valid = reduce(in, ReduceOp::Any, not_nan(in, x), inner);
        return finish(in, nan_unless(valid, m), o);
    }
    ArrayObj* xa = x.as<ArrayObj>();
    int64_t count = 1;
    for (int d : parse_axes(in, o.axis, xa->ndim())) count *= xa->shape[size_t(d)];
    if (count == 0 && !o.initial)
        raise(types::ValueError, std::string("zero-size array to reduction operation ") + (OP == ReduceOp::Max ? "fmax" : "fmin") +
                                     " which has no identity");
    ReduceOptions inner = o;
    inner.out = nullptr;
    // With initial= on an ndarray NumPy runs fmax.reduce(a, initial=...): a
    // NaN initial is ignored too, and a slice of NaNs gives the initial value.
    if (o.initial) {
        inner.initial = &neutral;
        Value m = reduce(in, OP, replace_nan(in, x, neutral), inner);
        Value init = initial_value(in, *o.initial, m.as<ArrayObj>()->dtype);
        Value r = apply_ufunc(in, OP == ReduceOp::Max ? Ufunc::fmax : Ufunc::fmin, {m, init});
        // A slice with no number (empty, or all NaN) folds to the initial
        // value itself, NaN included (nanmin(empty, initial=nan) is nan).
        inner.initial = nullptr;
        Value any_number = reduce(in, ReduceOp::Any, not_nan(in, x), inner);
        ArrayObj* ra = r.as<ArrayObj>();
        NodeP init_b = make_cast(array_node(init.as<ArrayObj>()), ra->dtype);
        r = array_from_node(make_where(array_node(any_number.as<ArrayObj>()), array_node(ra), init_b, ra->shape));
        if (ArrayObj* rb = as_array(r); rb && rb->ndim() == 0) set_numpy_scalar(rb, true);
        return finish(in, r, o);
    }
    Value m = reduce(in, OP, replace_nan(in, x, neutral), inner);
    inner.initial = nullptr;
    Value valid = reduce(in, ReduceOp::Any, not_nan(in, x), inner);
    return finish(in, nan_unless(valid, m), o);
}

template <ReduceOp OP>
Value nan_arg(Interp& in, CallArgs& a) {
    ReduceOptions o = options(in, a, false);
    Value x = as_array_value(in, a.pos[0]);
    if (has_nan_values(x) && x.as<ArrayObj>()->size() > 0) {
        ReduceOptions all;
        all.axis = o.axis;
        Value all_nan = reduce(in, ReduceOp::All, apply_ufunc(in, Ufunc::isnan, {x}), all);
        if (truthy(reduce(in, ReduceOp::Any, all_nan, ReduceOptions{})))
            raise(types::ValueError, "All-NaN slice encountered");
        x = replace_nan(in, x, Value::real(OP == ReduceOp::ArgMax ? -INFINITY : INFINITY));
    }
    return reduce(in, OP, x, o);
}

// Sum and count of the non-NaN elements (count as int64; keepdims as asked).
struct SumCount {
    Value sum, count;
};
SumCount sum_count(Interp& in, const Value& x, const ReduceOptions& o, bool keepdims) {
    ReduceOptions so = o;
    so.out = nullptr;
    so.keepdims = keepdims;
    Value s = reduce(in, ReduceOp::Sum, replace_nan(in, x, Value::integer(0)), so);
    so.dtype = DType::Int64;
    return {s, reduce(in, ReduceOp::Sum, not_nan(in, x), so)};
}

Value np_nanmean(Interp& in, CallArgs& a) {
    ReduceOptions o = options(in, a, true);
    Value x = as_array_value(in, a.pos[0]);
    if (!has_nan_values(x)) return mean(in, x, o);
    SumCount sc = sum_count(in, x, o, o.keepdims);
    // An all-NaN slice divides 0 by 0: NaN, as in NumPy (which also warns).
    Value avg = apply_ufunc(in, Ufunc::true_divide, {sc.sum, sc.count});
    return finish(in, cast_to(avg, sc.sum.as<ArrayObj>()->dtype), o);
}

Value nan_var_std(Interp& in, CallArgs& a, bool take_sqrt) {
    ReduceOptions o = options(in, a, true);
    const Value* ddofv = arg(a, 4, "ddof");
    Value ddof = ddofv ? *ddofv : Value::integer(0);  // an int, a float or an array (broadcast)
    Value x = as_array_value(in, a.pos[0]);
    if (!has_nan_values(x)) return finish(in, variance(in, x, o, ddof, take_sqrt), o);
    SumCount k = sum_count(in, x, o, true);
    DType t = k.sum.as<ArrayObj>()->dtype;
    Value avg = cast_to(apply_ufunc(in, Ufunc::true_divide, {k.sum, k.count}), t);
    // Deviations are zeroed where x is NaN (not where they are: inf - inf
    // stays NaN, as in NumPy's _nanvar); complex ones square to re^2 + im^2.
    Value diff = apply_ufunc(in, Ufunc::subtract, {x, avg});
    ArrayObj* da = diff.as<ArrayObj>();
    NodeP isnan_x = array_node(apply_ufunc(in, Ufunc::isnan, {x}).as<ArrayObj>());
    Value dev = array_from_node(make_where(isnan_x, make_scalar(da->dtype, ScalarValue()), array_node(da), da->shape));
    Value sq = squared_magnitude(in, dev);
    ReduceOptions so = o;
    so.out = nullptr;
    Value ss = reduce(in, ReduceOp::Sum, sq, so);
    so.dtype = DType::Int64;
    Value dof = apply_ufunc(in, Ufunc::subtract, {reduce(in, ReduceOp::Sum, not_nan(in, x), so), ddof});
    Value v = cast_to(apply_ufunc(in, Ufunc::true_divide, {ss, dof}), ss.as<ArrayObj>()->dtype);
    // Slices with no degrees of freedom are NaN (NumPy warns as well).
    v = nan_unless(apply_ufunc(in, Ufunc::greater, {dof, Value::integer(0)}), v);
    if (take_sqrt) v = apply_ufunc(in, Ufunc::sqrt, {v});
    return finish(in, v, o);
}
Value np_nanvar(Interp& in, CallArgs& a) { return nan_var_std(in, a, false); }
Value np_nanstd(Interp& in, CallArgs& a) { return nan_var_std(in, a, true); }

}  // namespace

void add_nan_reduce_functions(Interp&, ModuleObj* m) {
    const FunctionSpec fns[] = {
        {"nansum", nan_sum_prod<ReduceOp::Sum>, "nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=0, where=True)", "Sum of array elements treating NaNs as zero."},
        {"nanprod", nan_sum_prod<ReduceOp::Prod>, "nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=1, where=True)", "Product of array elements treating NaNs as one."},
        {"nanmax", nan_max_min<ReduceOp::Max>, "nanmax(a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)", "Maximum of an array, ignoring NaNs."},
        {"nanmin", nan_max_min<ReduceOp::Min>, "nanmin(a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)", "Minimum of an array, ignoring NaNs."},
        {"nanargmax", nan_arg<ReduceOp::ArgMax>, "nanargmax(a, axis=None, out=None, *, keepdims=False)", "Indices of the maximum values, ignoring NaNs."},
        {"nanargmin", nan_arg<ReduceOp::ArgMin>, "nanargmin(a, axis=None, out=None, *, keepdims=False)", "Indices of the minimum values, ignoring NaNs."},
        {"nanmean", np_nanmean, "nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)", "Arithmetic mean ignoring NaNs."},
        {"nanvar", np_nanvar, "nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True)", "Variance ignoring NaNs."},
        {"nanstd", np_nanstd, "nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True)", "Standard deviation ignoring NaNs."},
    };
    add_functions(m, fns);
}

}  // namespace gpy
