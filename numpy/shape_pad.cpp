// np.pad, following numpy/lib/_arraypad_impl.py step by step: the input is
// copied into the middle of a new array, then each axis in turn fills its
// two pad areas from a view ("roi") whose later axes are cut to the original
// area, so corners come from the last axis, as in NumPy.
#include <algorithm>
#include <map>
#include <optional>

#include "numpy/promote.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using dag::Shape;

namespace {

// One (before, after) pair per axis; absent entries (stat_length=None) are nullopt.
using Pairs = std::vector<std::pair<std::optional<Value>, std::optional<Value>>>;

// The elements of x as Python values, in C order.
std::vector<Value> elements(ArrayObj* x) {
    HostArrayView hv = host_view(x);
    std::vector<Value> out;
    std::vector<int64_t> idx(size_t(x->ndim()), 0);
    for (int64_t k = 0; k < x->size(); ++k) {
        const uint8_t* p = hv.data;
        for (int d = 0; d < x->ndim(); ++d) p += idx[size_t(d)] * x->strides[size_t(d)];
        out.push_back(element_to_python(x, p));
        for (int d = x->ndim() - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < x->shape[size_t(d)]) break;
            idx[size_t(d)] = 0;
        }
    }
    return out;
}

// NumPy's _as_pairs: a scalar, a (before, after) pair, or one pair per axis.
// Its one- and two-value paths return NumPy scalars of np.array(v)'s dtype,
// its general path Python scalars (tolist): `strong` is set to that dtype on
// the first paths (the dtype linear_ramp's linspace computes in depends on it).
Pairs as_pairs(Interp& in, const Value* v, int ndim, bool as_index, std::optional<DType>* strong = nullptr) {
    if (!v || v->is_none()) return Pairs(size_t(ndim));
    Value x = materialized(in, *v);
    if (as_index && !is_integer(x.as<ArrayObj>()->dtype))  // NumPy rounds stat_length to intp
        x = materialized(in, copy_order(in, apply_ufunc(in, Ufunc::rint, {x}), DType::Int64, 'C'));
    ArrayObj* xa = x.as<ArrayObj>();
    std::vector<Value> items = elements(xa);
    for (auto& e : items)
        if (as_index && e.as_float() < 0) raise(types::ValueError, "index can't contain negative values");
    if (strong) *strong = xa->ndim() < 3 && (items.size() == 1 || (items.size() == 2 && xa->shape != Shape{2, 1})) ? std::optional(xa->dtype) : std::nullopt;
    if (xa->ndim() < 3 && items.size() == 1) return Pairs(size_t(ndim), {items[0], items[0]});
    // A pair for both sides, except (2, 1): one value per axis for two axes.
    if (xa->ndim() < 3 && items.size() == 2 && xa->shape != Shape{2, 1}) return Pairs(size_t(ndim), {items[0], items[1]});
    std::vector<Value> all = elements(broadcast_view(xa, {int64_t(ndim), 2}).as<ArrayObj>());
    Pairs out;
    for (int d = 0; d < ndim; ++d) out.push_back({all[size_t(2 * d)], all[size_t(2 * d + 1)]});
    return out;
}

// The state of one axis being padded: the roi view and its pad widths.
struct AxisPad {
    ArrayObj* roi;
    int axis;
    int64_t before, after;
    int64_t length() const { return roi->shape[size_t(axis)]; }
};

Value area(const AxisPad& p, int64_t begin, int64_t end) { return slice_axis(p.roi, p.axis, begin, end); }

void set_pad_area(Interp& in, const AxisPad& p, const Value& left, const Value& right) {
    if (p.before > 0) assign_array(in, area(p, 0, p.before), left);
    if (p.after > 0) assign_array(in, area(p, p.length() - p.after, p.length()), right);
}

std::pair<Value, Value> edges(const AxisPad& p) {
    int64_t right = p.length() - p.after;
    return {area(p, p.before, p.before + 1), area(p, right - 1, right)};
}

// NumPy's _set_reflect_both: one round of reflect/symmetric padding; returns
// the widths still to fill (a pad wider than the data takes several rounds).
std::pair<int64_t, int64_t> reflect_both(Interp& in, const AxisPad& p, int64_t period, bool include_edge, bool odd) {
    int64_t left = p.before, right = p.after, n = p.length();
    int64_t old_length = n - right - left, edge_offset = 0;
    if (include_edge) {
        old_length = old_length / period * period;
        edge_offset = 1;
    } else {
        old_length = (old_length - 1) / (period - 1) * (period - 1) + 1;
        old_length -= 1;
    }
    auto oddify = [&](Value chunk, int64_t edge) {
        if (!odd) return chunk;
        Value e = area(p, edge, edge + 1);
        return apply_ufunc(in, Ufunc::subtract, {apply_ufunc(in, Ufunc::multiply, {Value::integer(2), e}), chunk});
    };
    if (left > 0) {
        int64_t chunk = std::min(old_length, left);
        int64_t stop = left - edge_offset, start = stop + chunk;
        Value c = oddify(reversed_axis(p.roi, p.axis, start, chunk), left);
        assign_array(in, area(p, left - chunk, left), c);
        left -= chunk;
    }
    if (right > 0) {
        int64_t chunk = std::min(old_length, right);
        int64_t start = n - right + edge_offset - 2;
        Value c = oddify(reversed_axis(p.roi, p.axis, start, chunk), n - right - 1);
        int64_t at = n - right;
        assign_array(in, area(p, at, at + chunk), c);
        right -= chunk;
    }
    return {left, right};
}

// NumPy's _set_wrap_both: one round of wrap padding.
std::pair<int64_t, int64_t> wrap_both(Interp& in, const AxisPad& p, int64_t original_period) {
    int64_t left = p.before, right = p.after, n = p.length();
    int64_t period = (n - right - left) / original_period * original_period;
    int64_t new_left = 0, new_right = 0;
    if (left > 0) {
        int64_t end = left + period, begin = end - std::min(period, left);
        Value chunk = area(p, begin, end);
        if (left > period) {
            assign_array(in, area(p, left - period, left), chunk);
            new_left = left - period;
        } else {
            assign_array(in, area(p, 0, left), chunk);
        }
    }
    if (right > 0) {
        int64_t begin = n - right - period, end = begin + std::min(period, right);
        Value chunk = area(p, begin, end);
        if (right > period) {
            assign_array(in, area(p, n - right, n - right + period), chunk);
            new_right = right - period;
        } else {
            assign_array(in, area(p, n - right, n), chunk);
        }
    }
    return {new_left, new_right};
}

// NumPy's _get_linear_ramps: linspace(end_value, edge, width, endpoint=False,
// dtype=padded.dtype), the right ramp reversed. linspace computes in
// result_type(end_value, edge) made inexact (end_value is a Python scalar,
// weak: float32 arrays ramp in float32, complex ones ramp both parts), then
// floors for an integer array and casts to its dtype.
std::pair<Value, Value> linear_ramps(Interp& in, const AxisPad& p, const Value& end_left, const Value& end_right,
                                     std::optional<DType> strong) {
    auto [edge_l, edge_r] = edges(p);
    DType t = p.roi->dtype;
    auto ramp = [&](const Value& end, const Value& edge, int64_t width) {
        DType dt = result_type({strong ? Operand::array(*strong) : operand_of(end), Operand::array(t)});
        if (!is_inexact(dt)) dt = DType::Float64;
        Shape kshape(size_t(p.roi->ndim()), 1);
        kshape[size_t(p.axis)] = width;
        Value k = new_array(dt, kshape);
        uint8_t* kp = k.as<ArrayObj>()->buffer.bytes();
        for (int64_t i = 0; i < width; ++i) {
            dag::ScalarValue sv = convert_scalar(Value::integer(i), dt);
            std::memcpy(kp + i * int64_t(itemsize(dt)), sv.raw, itemsize(dt));
        }
        Value start = as_array_value(in, end, dt);
        Value delta = apply_ufunc(in, Ufunc::subtract, {copy_order(in, edge, dt, 'C'), start});
        Value step = materialized(in, apply_ufunc(in, Ufunc::true_divide, {delta, Value::integer(width)}));
        ReduceOptions all;
        bool any_zero = truthy(reduce(in, dag::ReduceOp::Any, apply_ufunc(in, Ufunc::equal, {step, Value::integer(0)}), all));
        // linspace's two formulas: k * step, or k / div * delta when a step is zero.
        Value y = any_zero ? apply_ufunc(in, Ufunc::multiply, {apply_ufunc(in, Ufunc::true_divide, {k, Value::integer(width)}), delta})
                           : apply_ufunc(in, Ufunc::multiply, {k, step});
        y = apply_ufunc(in, Ufunc::add, {y, start});
        if (is_integer(t)) y = apply_ufunc(in, Ufunc::floor, {y});
        if (dt != t) y = array_from_node(dag::make_cast(array_node(materialized(in, y).as<ArrayObj>()), t));  // astype (a complex ramp into reals keeps the real part)
        return y;
    };
    Value left = p.before > 0 ? ramp(end_left, edge_l, p.before) : edge_l;
    Value right = edge_r;
    if (p.after > 0) {
        Value r = materialized(in, ramp(end_right, edge_r, p.after));
        right = reversed_axis(r.as<ArrayObj>(), p.axis, p.after - 1, p.after);
    }
    return {left, right};
}

// NumPy's _get_stats: the statistic of the first/last `length` values.
std::pair<Value, Value> stats(Interp& in, const AxisPad& p, const std::string& mode, std::optional<Value> len_l, std::optional<Value> len_r) {
    int64_t left_index = p.before, right_index = p.length() - p.after, max_length = right_index - left_index;
    int64_t ll = len_l ? std::min(to_index(*len_l), max_length) : max_length;
    int64_t rl = len_r ? std::min(to_index(*len_r), max_length) : max_length;
    if ((ll == 0 || rl == 0) && (mode == "maximum" || mode == "minimum"))
        raise(types::ValueError, "stat_length of 0 yields no value for padding");
    DType t = p.roi->dtype;
    auto stat = [&](const Value& chunk) {
        ReduceOptions o;
        Value ax = Value::integer(p.axis);
        o.axis = &ax;
        o.keepdims = true;
        Value r;
        if (mode == "maximum") r = reduce(in, dag::ReduceOp::Max, chunk, o);
        else if (mode == "minimum") r = reduce(in, dag::ReduceOp::Min, chunk, o);
        else if (mode == "mean") r = mean(in, chunk, o);
        else {  // the module's np.median (statistics.cpp)
            Value pos[2] = {chunk, ax};
            std::vector<std::pair<std::string, Value>> kw{{"keepdims", Value::boolean(true)}};
            CallArgs ca{pos, 2, &kw};
            r = in.import_module("numpy")->get("median")->as<BuiltinObj>()->fn(in, ca);
        }
        // NumPy's _round_if_needed: integer arrays get the rounded mean.
        if (is_integer(t) && !is_integer(r.as<ArrayObj>()->dtype)) r = apply_ufunc(in, Ufunc::rint, {r});
        return materialized(in, r);
    };
    Value left = stat(area(p, left_index, left_index + ll));
    if (ll == max_length && rl == max_length) return {left, left};
    return {left, stat(area(p, right_index - rl, right_index))};
}

Value np_pad(Interp& in, CallArgs& a) {
    Value x = materialized(in, required(a, 0, "array", "pad"));
    ArrayObj* xa = x.as<ArrayObj>();
    const Value& width_v = required(a, 1, "pad_width", "pad");
    const Value* mode_v = arg(a, 2, "mode");
    std::string mode = mode_v ? str_of(*mode_v, "mode") : "constant";
    static const std::map<std::string, std::vector<std::string>> kAllowed = {
        {"empty", {}}, {"edge", {}}, {"wrap", {}}, {"constant", {"constant_values"}}, {"linear_ramp", {"end_values"}},
        {"maximum", {"stat_length"}}, {"mean", {"stat_length"}}, {"median", {"stat_length"}}, {"minimum", {"stat_length"}},
        {"reflect", {"reflect_type"}}, {"symmetric", {"reflect_type"}},
    };
    auto allowed = kAllowed.find(mode);
    if (allowed == kAllowed.end()) raise(types::ValueError, "mode '" + mode + "' is not supported");
    std::vector<std::string> unsupported;
    for (size_t k = 0; k < a.nkw(); ++k) {
        const std::string& key = (*a.kw)[k].first;
        if (key == "array" || key == "pad_width" || key == "mode") continue;
        if (std::find(allowed->second.begin(), allowed->second.end(), key) == allowed->second.end()) unsupported.push_back(key);
    }
    if (!unsupported.empty()) {
        std::string set = "{";
        for (size_t k = 0; k < unsupported.size(); ++k) set += (k ? ", '" : "'") + unsupported[k] + "'";
        raise(types::ValueError, "unsupported keyword arguments for mode '" + mode + "': " + set + "}");
    }

    Value wv = as_array_value(in, width_v);
    if (!is_integer(wv.as<ArrayObj>()->dtype)) raise(types::TypeError, "`pad_width` must be of integral type.");
    int nd = xa->ndim();
    Pairs widths = as_pairs(in, &wv, nd, true);

    // _pad_simple: the input in the middle of a new array (F order for F-contiguous input).
    Shape shape;
    for (int d = 0; d < nd; ++d)
        shape.push_back(size_add(size_add(xa->shape[size_t(d)], widths[size_t(d)].first->as_int()), widths[size_t(d)].second->as_int()));
    char order = is_f_contiguous(xa) && !is_c_contiguous(xa) ? 'F' : 'C';
    Value padded = new_array_order(xa->dtype, shape, order);
    Value middle = padded;
    for (int d = 0; d < nd; ++d) {
        int64_t b = widths[size_t(d)].first->as_int();
        middle = slice_axis(middle.as<ArrayObj>(), d, b, b + xa->shape[size_t(d)]);
    }
    if (xa->size() > 0) assign_array(in, middle, x);
    if (mode == "empty") return padded;

    auto roi_for = [&](int axis) {
        // Axes after `axis` cut to the original area (NumPy's _view_roi).
        Value roi = padded;
        for (int d = axis + 1; d < nd; ++d) {
            int64_t b = widths[size_t(d)].first->as_int();
            roi = slice_axis(roi.as<ArrayObj>(), d, b, b + xa->shape[size_t(d)]);
        }
        return roi;
    };
    auto axis_pad = [&](const Value& roi, int axis) {
        return AxisPad{roi.as<ArrayObj>(), axis, widths[size_t(axis)].first->as_int(), widths[size_t(axis)].second->as_int()};
    };

    if (mode == "constant") {
        Pairs values = as_pairs(in, kwarg(a, "constant_values") ? kwarg(a, "constant_values") : nullptr, nd, false);
        for (int d = 0; d < nd; ++d) {
            Value roi = roi_for(d);
            auto& v = values[size_t(d)];
            Value zero = Value::integer(0);
            set_pad_area(in, axis_pad(roi, d), v.first ? *v.first : zero, v.second ? *v.second : zero);
        }
        return padded;
    }
    if (xa->size() == 0) {
        // Only constant and empty can extend an empty axis.
        for (int d = 0; d < nd; ++d)
            if (xa->shape[size_t(d)] == 0 && (widths[size_t(d)].first->as_int() || widths[size_t(d)].second->as_int()))
                raise(types::ValueError, "can't extend empty axis " + std::to_string(d) + " using modes other than 'constant' or 'empty'");
        return padded;
    }
    if (mode == "edge") {
        for (int d = 0; d < nd; ++d) {
            Value roi = roi_for(d);
            AxisPad p = axis_pad(roi, d);
            auto [l, r] = edges(p);
            set_pad_area(in, p, l, r);
        }
    } else if (mode == "linear_ramp") {
        // end_values=0 by default: np.array(0), an int64 NumPy scalar.
        std::optional<DType> strong = DType::Int64;
        Pairs ends = as_pairs(in, kwarg(a, "end_values"), nd, false, &strong);
        for (int d = 0; d < nd; ++d) {
            Value roi = roi_for(d);
            AxisPad p = axis_pad(roi, d);
            Value zero = Value::integer(0);
            auto& e = ends[size_t(d)];
            auto [l, r] = linear_ramps(in, p, e.first ? *e.first : zero, e.second ? *e.second : zero, strong);
            set_pad_area(in, p, l, r);
        }
    } else if (mode == "maximum" || mode == "minimum" || mode == "mean" || mode == "median") {
        Pairs lengths = as_pairs(in, kwarg(a, "stat_length"), nd, true);
        for (int d = 0; d < nd; ++d) {
            Value roi = roi_for(d);
            AxisPad p = axis_pad(roi, d);
            auto [l, r] = stats(in, p, mode, lengths[size_t(d)].first, lengths[size_t(d)].second);
            set_pad_area(in, p, l, r);
        }
    } else if (mode == "reflect" || mode == "symmetric") {
        bool odd = false;
        if (const Value* rt = kwarg(a, "reflect_type")) odd = str_of(*rt, "reflect_type") == "odd";
        for (int d = 0; d < nd; ++d) {
            Value roi = roi_for(d);
            AxisPad p = axis_pad(roi, d);
            if (xa->shape[size_t(d)] == 1 && (p.before > 0 || p.after > 0)) {
                // A length-1 axis is extended with its edge (NumPy's legacy behaviour).
                auto [l, r] = edges(p);
                set_pad_area(in, p, l, r);
                continue;
            }
            while (p.before > 0 || p.after > 0)
                std::tie(p.before, p.after) = reflect_both(in, p, xa->shape[size_t(d)], mode == "symmetric", odd);
        }
    } else if (mode == "wrap") {
        for (int d = 0; d < nd; ++d) {
            Value roi = roi_for(d);
            AxisPad p = axis_pad(roi, d);
            while (p.before > 0 || p.after > 0) std::tie(p.before, p.after) = wrap_both(in, p, xa->shape[size_t(d)]);
        }
    }
    return padded;
}

}  // namespace

void add_pad_functions(Interp&, ModuleObj* m) {
    m->set("pad", make_builtin("pad", np_pad, "pad(array, pad_width, mode='constant', **kwargs)", "Pad an array."));
}

}  // namespace gpy
