// The array module, bound by `import numpy as np`, `import cupy as cp` and
// `import gpy`: creation functions, ufuncs, reductions, shape functions,
// dtypes and constants, with NumPy's names and keyword arguments.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <unordered_set>
#include <fstream>
#include <map>
#include <mutex>

#include "numpy/numpy_module.h"

#include "codegen/plan.h"
#include "numpy/array.h"
#include "numpy/dlpack.h"
#include "numpy/array_state.h"
#include "numpy/indexing.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/promote.h"
#include "numpy/reduce.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufunc_object.h"
#include "numpy/ufuncs.h"
#include "runtime/array_memory.h"
#include "runtime/backend.h"
#include "numpy/py_sources.h"

namespace gpy {

using namespace dag;

TypeObject* scalar_type_object(DType t);

std::optional<DType> dtype_arg(Interp& in, CallArgs& a, size_t pos) {
    const Value* d = arg(a, pos, "dtype");
    if (!d || d->is_none()) return std::nullopt;
    return to_dtype(in, *d);
}

const Value* checked_out(const Value* out, OutWording w) {
    if (!out || out->is_none()) return nullptr;
    if (w == OutWording::Ufunc && is_kind(*out, OK::Tuple)) {
        auto& items = out->as<TupleObj>()->items;
        if (items.size() != 1) raise(types::ValueError, "The 'out' tuple must have exactly one entry per ufunc output");
        out = &items[0];
        if (out->is_none()) return nullptr;
    }
    // A NumPy scalar is not an array NumPy can write into.
    if (ArrayObj* o = as_array(*out); o && !o->numpy_scalar) return out;
    switch (w) {
        case OutWording::Ufunc:
        case OutWording::Reduction: raise(types::TypeError, "return arrays must be of ArrayType");
        case OutWording::CApi: raise(types::TypeError, "output must be an array");
        case OutWording::Quoted: raise(types::TypeError, "'out' must be an array");
        case OutWording::Einsum: raise(types::TypeError, "keyword parameter out must be an array for einsum");
    }
    return nullptr;
}

const Value* out_arg(CallArgs& a, size_t pos, OutWording w) { return checked_out(arg(a, pos, "out"), w); }

Casting casting_arg(const Value* v, Casting dflt, bool astype) {
    if (!v) return dflt;
    const std::string& s = str_of(*v, "casting");
    if (s == "no") return Casting::No;
    if (s == "equiv") return Casting::Equiv;
    if (s == "safe") return Casting::Safe;
    if (s == "same_kind") return Casting::SameKind;
    if (s == "unsafe") return Casting::Unsafe;
    // astype also knows NumPy 2.4's 'same_value' (gpy does not).
    if (astype && s == "same_value") raise(types::NotImplementedError, "astype(casting='same_value') is not supported");
    raise(types::ValueError, std::string("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'") +
                                 (astype ? ", 'same_value'" : "") + " (got '" + s + "')");
}

const char* casting_name(Casting c) {
    switch (c) {
        case Casting::No: return "no";
        case Casting::Equiv: return "equiv";
        case Casting::Safe: return "safe";
        case Casting::SameKind: return "same_kind";
        case Casting::Unsafe: return "unsafe";
    }
    return "";
}

const Value* initial_arg(const Value* v) {
    if (!v || v->is_none()) return nullptr;
    if (v->is_number() || as_complex(*v)) return v;
    if (ArrayObj* x = as_array(*v)) {
        if (x->ndim() == 0) return v;
    } else if (!is_kind(*v, OK::List) && !is_kind(*v, OK::Tuple)) {
        raise(types::TypeError, std::string("initial must be a number, not '") + type_name(*v) + "'");
    }
    raise(types::ValueError, "setting an array element with a sequence.");
}

Shape shape_arg(Interp& in, const Value& v) {
    Shape s;
    if (is_kind(v, OK::Tuple) || is_kind(v, OK::List)) {
        for (auto& d : to_vector(in, v)) {
            if (d.is_bool()) raise(types::TypeError, "an integer is required");  // NumPy refuses bools as dimensions
            s.push_back(to_index(d, "shape"));
        }
    } else if (v.is_none()) {
        raise(types::TypeError, "Use () not None as shape arguments");
    } else {
        if (v.is_bool()) raise(types::TypeError, std::string("expected a sequence of integers or a single integer, got '") + (v.b ? "True" : "False") + "'");
        s.push_back(to_index(v, "shape"));
    }
    for (int64_t d : s)
        if (d < 0) raise(types::ValueError, "negative dimensions are not allowed");
    return s;
}

namespace {

// ---- creation ----

// NumPy 2's words when copy=False cannot be honoured.
const char* const kAvoidCopyText = "Unable to avoid copy while creating an array as requested.\nIf using `np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when needed (no behavior change in NumPy 1.x).\nFor more details, see https://numpy.org/devdocs/numpy_2_0_migration_guide.html#adapting-to-changes-in-the-copy-keyword.";

Value array_impl(Interp& in, CallArgs& a);

// np.array(..., ndmin=n): leading axes of length 1 up to n dims (a view of
// the result, as NumPy's).
Value np_array(Interp& in, CallArgs& a) {
    int64_t ndmin = 0;
    if (const Value* v = kwarg(a, "ndmin"); v && !v->is_none()) ndmin = to_index(*v);
    if (ndmin > 64) raise(types::ValueError, "ndmin must be <= ndmax (64)");
    Value r = array_impl(in, a);
    ArrayObj* x = as_array(r);
    while (x && x->ndim() < ndmin) {
        r = insert_axis(x, 0);
        x = as_array(r);
    }
    return r;
}

Value array_impl(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "array() missing required argument 'object' (pos 0)");
    auto dt = dtype_arg(in, a, 1);
    const Value& obj = a.pos[0];
    char order = order_arg(kwarg(a, "order"), 'K');
    // copy=False (never copy: ValueError if one is needed) and copy=None (copy
    // only if needed) give the array itself when it already is what is asked.
    const Value* copyv = kwarg(a, "copy");
    if (copyv && !truthy(*copyv)) {
        ArrayObj* x = as_array(obj);
        // A NumPy scalar is not an array: making one is a copy.
        if (x && !x->numpy_scalar && (!dt || *dt == x->dtype) && (order != 'F' || is_f_contiguous(x)) && (order != 'C' || is_c_contiguous(x)))
            return obj;
        if (!copyv->is_none()) raise(types::ValueError, kAvoidCopyText);
    }
    if (ArrayObj* x = as_array(obj)) {
        // np.array copies (and casts); from another device, the copy comes across first.
        Value here = to_current_device(in, obj);
        if (here.o != obj.o && (!dt || *dt == x->dtype) && order != 'F') return here;
        return copy_order(in, here, dt ? *dt : x->dtype, order);
    }
    Value r = as_array_value(in, obj, dt);
    // A new array from nested sequences is C-contiguous unless 'F' is asked for.
    return order == 'F' ? copy_order(in, r, r.as<ArrayObj>()->dtype, 'F') : r;
}

// CuPy's cp.asnumpy(x): a host copy. On the CPU backend arrays already live
// on the host; it copies like x.get() so the result never aliases x.
Value np_asnumpy(Interp& in, CallArgs& a) {
    expect_args(a, "asnumpy", 1, 1);
    Value r = as_array_value(in, a.pos[0]);
    ArrayObj* ra = r.as<ArrayObj>();
    return ra == as_array(a.pos[0]) ? copy_order(in, r, ra->dtype, 'C') : r;
}

Value np_asarray(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "asarray() missing required argument 'a' (pos 0)");
    Value r = as_array_value(in, to_current_device(in, a.pos[0]), dtype_arg(in, a, 1));
    ArrayObj* ra = r.as<ArrayObj>();
    // copy=True always copies; copy=False refuses to (NumPy's ValueError).
    if (const Value* c = kwarg(a, "copy"); c && !c->is_none()) {
        if (truthy(*c)) return copy_order(in, r, ra->dtype, order_arg(arg(a, 2, "order"), 'K'));
        if (r.o != a.pos[0].o) raise(types::ValueError, kAvoidCopyText);
    }
    // A copy only when the layout asked for differs ('A' and 'K' keep any layout).
    char order = order_arg(arg(a, 2, "order"), 'K');
    if ((order == 'C' && !is_c_contiguous(ra)) || (order == 'F' && !is_f_contiguous(ra))) return copy_order(in, r, ra->dtype, order);
    // A NumPy scalar becomes a 0-d array (over the same value).
    if (ra->numpy_scalar) return array_from_node(array_node(ra));
    return r;
}

// A new array holding v, laid out in `order` ('K': like proto's memory).
// A fill that is not a Python number (a NumPy scalar, an array, a nested
// list) is broadcast into the new array as NumPy's copyto does.
Value filled(Interp& in, DType t, const Shape& shape, const Value& v, char order = 'C', const ArrayObj* proto = nullptr) {
    if (!v.is_number() && !as_complex(v)) {
        Value out = new_array_order(t, shape, order, proto);
        assign_array(in, out, v);
        return out;
    }
    NodeP n = make_scalar(t, convert_scalar(v, t));
    if (order == 'C') return compute_into_new(n, t, shape);
    Value out = new_array_order(t, shape, order, proto);
    ArrayObj* o = out.as<ArrayObj>();
    if (o->size() > 0) materialize_into(n, Target{o->buffer, 0, o->shape, o->strides});
    return out;
}

Value np_zeros(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "zeros() missing required argument 'shape' (pos 0)");
    return new_array_order(dtype_arg(in, a, 1).value_or(DType::Float64), shape_arg(in, a.pos[0]), c_or_f_order(arg(a, 2, "order")), nullptr, true);
}
Value np_empty(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "empty() missing required argument 'shape' (pos 0)");
    return new_array_order(dtype_arg(in, a, 1).value_or(DType::Float64), shape_arg(in, a.pos[0]), c_or_f_order(arg(a, 2, "order")), nullptr, true);
}
Value np_ones(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "ones() missing required argument 'shape' (pos 0)");
    return filled(in, dtype_arg(in, a, 1).value_or(DType::Float64), shape_arg(in, a.pos[0]), Value::integer(1), c_or_f_order(arg(a, 2, "order")));
}

DType python_scalar_dtype(const Value& v) {
    if (v.is_bool()) return DType::Bool;
    if (v.is_int()) return DType::Int64;
    if (ArrayObj* x = as_array(v)) return x->dtype;
    if (as_complex(v)) return DType::Complex128;
    return DType::Float64;
}

Value np_full(Interp& in, CallArgs& a) {
    const Value* shape = arg(a, 0, "shape");
    const Value* fill = arg(a, 1, "fill_value");
    if (!shape || !fill) raise(types::TypeError, "full() missing required argument 'fill_value' (pos 1)");
    bool number = fill->is_number() || as_complex(*fill);
    // NumPy: dtype=None means array(fill_value).dtype.
    DType t = dtype_arg(in, a, 2).value_or(number ? python_scalar_dtype(*fill) : as_array_value(in, *fill).as<ArrayObj>()->dtype);
    char order = c_or_f_order(arg(a, 3, "order"));
    if (fill->is_int()) check_python_store(*fill, t);  // floats cast unsafely, as NumPy's copyto
    return filled(in, t, shape_arg(in, *shape), *fill, order);
}

Value like(Interp& in, CallArgs& a, int kind) {
    if (a.npos < 1) raise(types::TypeError, "missing required argument 'a'");
    Value x = as_array_value(in, a.pos[0]);
    ArrayObj* xa = x.as<ArrayObj>();
    size_t dpos = kind == 3 ? 2 : 1;
    DType t = dtype_arg(in, a, dpos).value_or(xa->dtype);
    // like(a, dtype, order='K', subok=True, shape=None): 'K' follows a's memory layout.
    char order = resolve_order(order_arg(arg(a, dpos + 1, "order"), 'K'), xa);
    Shape shape = xa->shape;
    if (const Value* s = arg_not_none(a, dpos + 3, "shape")) shape = shape_arg(in, *s);
    if (kind == 0 || kind == 2) return new_array_order(t, shape, order, xa, true);
    if (kind == 1) return filled(in, t, shape, Value::integer(1), order, xa);
    const Value* fill = arg(a, 1, "fill_value");
    if (!fill) raise(types::TypeError, "full_like() missing required argument 'fill_value' (pos 1)");
    return filled(in, t, shape, *fill, order, xa);
}
Value np_zeros_like(Interp& in, CallArgs& a) { return like(in, a, 0); }
Value np_ones_like(Interp& in, CallArgs& a) { return like(in, a, 1); }
Value np_empty_like(Interp& in, CallArgs& a) { return like(in, a, 2); }
Value np_full_like(Interp& in, CallArgs& a) { return like(in, a, 3); }

// linspace of two Python real numbers: the same float64 arithmetic as the
// general path below, on the host (no kernel for a handful of values).
Value linspace_of_numbers(Interp& in, double b, double e, int64_t num, bool endpoint, bool retstep, std::optional<DType> want,
                          const Value* axisv) {
    if (axisv) normalize_axis(to_index(*axisv, "axis"), 1);
    int64_t div = endpoint ? num - 1 : num;
    double delta = e - b, step = div > 0 ? delta / double(div) : NAN;
    Value out = new_array(DType::Float64, {num});
    double* p = reinterpret_cast<double*>(out.as<ArrayObj>()->buffer.bytes());
    for (int64_t i = 0; i < num; ++i) {
        double y = div > 0 ? (step == 0 ? double(i) / double(div) * delta : double(i) * step) : double(i) * delta;
        p[i] = y + b;
    }
    if (endpoint && num > 1) p[num - 1] = e;
    if (want && is_integer(*want)) out = apply_ufunc(in, Ufunc::floor, {out});
    if (want && *want != DType::Float64) out = array_from_node(make_cast(array_node(out.as<ArrayObj>()), *want));
    if (!retstep) return out;
    ScalarValue sv;
    sv.f = step;
    return make_tuple({out, array_from_node(make_scalar(DType::Float64, sv), true)});
}

// NumPy's linspace (numpy/_core/function_base.py) step by step in array
// operations, so its bounds may be NumPy scalars, 0-d arrays or arrays
// (broadcast: one sample axis in front, moved to `axis`), in the dtype NumPy
// computes in: the result type of the bounds, made inexact.
Value np_linspace(Interp& in, CallArgs& a) {
    const Value* startv = arg(a, 0, "start");
    const Value* stopv = arg(a, 1, "stop");
    if (!startv) raise(types::TypeError, "linspace() missing required argument 'start' (pos 0)");
    if (!stopv) raise(types::TypeError, "linspace() missing required argument 'stop' (pos 1)");
    const Value* numv = arg(a, 2, "num");
    if (numv && numv->is_float()) raise(types::TypeError, "'float' object cannot be interpreted as an integer");
    int64_t num = numv ? to_index(*numv) : 50;
    if (num < 0) raise(types::ValueError, "Number of samples, " + std::to_string(num) + ", must be non-negative.");
    const Value* ep = arg(a, 3, "endpoint");
    bool endpoint = !ep || truthy(*ep);
    const Value* rs = arg(a, 4, "retstep");
    bool retstep = rs && truthy(*rs);
    std::optional<DType> want = dtype_arg(in, a, 5);
    const Value* axisv = arg(a, 6, "axis");
    int64_t div = endpoint ? num - 1 : num;

    if (startv->is_number() && stopv->is_number()) return linspace_of_numbers(in, startv->as_float(), stopv->as_float(), num, endpoint, retstep, want, axisv);
    auto bound = [&](const Value& v) { return v.is_number() || as_complex(v) ? v : as_array_value(in, v); };
    Value start = bound(*startv), stop = bound(*stopv);
    DType dt = result_type({operand_of(start), operand_of(stop)});
    if (!is_inexact(dt)) dt = result_type({Operand::array(dt), Operand::py_float(0)});
    UfuncOptions in_dt;
    in_dt.dtype = dt;
    Value delta = apply_ufunc(in, Ufunc::subtract, {stop, start}, in_dt);
    ArrayObj* da = delta.as<ArrayObj>();

    // y = arange(0, num, dtype=dt).reshape((-1,) + (1,) * ndim(delta))
    checked_size(Shape{num}, DType::Int64);  // before a host vector of num values
    check_array_bytes(size_t(num) * 8);
    check_host_bytes(in, uint64_t(num) * 8);
    std::vector<int64_t> ramp(static_cast<size_t>(num));
    for (int64_t i = 0; i < num; ++i) ramp[size_t(i)] = i;
    Shape yshape{num};
    for (int d = 0; d < da->ndim(); ++d) yshape.push_back(1);
    Value y = int64_array(ramp, yshape);
    y = array_from_node(make_cast(array_node(y.as<ArrayObj>()), dt));
    Value step;
    if (div > 0) {
        step = apply_ufunc(in, Ufunc::true_divide, {delta, Value::integer(div)});
        Value zero = apply_ufunc(in, Ufunc::equal, {step, Value::integer(0)});
        ReduceOptions any_axis;
        if (truthy(reduce(in, ReduceOp::Any, zero, any_axis))) {
            y = apply_ufunc(in, Ufunc::true_divide, {y, Value::integer(div)});
            y = apply_ufunc(in, Ufunc::multiply, {y, delta});
        } else {
            y = apply_ufunc(in, Ufunc::multiply, {y, step});
        }
    } else {
        step = Value::real(NAN);
        y = apply_ufunc(in, Ufunc::multiply, {y, delta});
    }
    y = apply_ufunc(in, Ufunc::add, {y, start});
    ArrayObj* ya = y.as<ArrayObj>();
    if (endpoint && num > 1) {
        y = compute_into_new(array_node(ya), ya->dtype, ya->shape);
        set_item(in, y, Value::integer(-1), stop);  // y[-1] = stop (a scalar index gives a copy, not a view)
        ya = y.as<ArrayObj>();
    }
    if (axisv) {
        int ax = normalize_axis(to_index(*axisv, "axis"), ya->ndim());
        if (ax != 0) {
            y = moveaxis_view(materialized(in, y).as<ArrayObj>(), 0, ax);
            ya = y.as<ArrayObj>();
        }
    }
    if (want && is_integer(*want)) {
        y = apply_ufunc(in, Ufunc::floor, {y});
        ya = y.as<ArrayObj>();
    }
    if (want && *want != ya->dtype) y = array_from_node(make_cast(array_node(ya), *want));
    if (!retstep) return y;
    if (ArrayObj* sa = as_array(step); sa && sa->ndim() == 0) set_numpy_scalar(sa, true);
    return make_tuple({y, step});
}

Value np_eye(Interp& in, CallArgs& a) {
    const Value* nv = arg(a, 0, "N");
    if (!nv) raise(types::TypeError, "eye() missing required argument 'N' (pos 0)");
    int64_t n = to_index(*nv);
    const Value* mv = arg(a, 1, "M");
    int64_t m = mv && !mv->is_none() ? to_index(*mv) : n;
    const Value* kv = arg(a, 2, "k");
    int64_t k = kv ? to_index(*kv) : 0;
    DType t = DType::Float64;
    if (const Value* d = arg(a, 3, "dtype"); d && !d->is_none()) t = to_dtype(in, *d);
    Value out = new_array(t, {n, m}, true);
    uint8_t* p = out.as<ArrayObj>()->buffer.bytes();
    ScalarValue one = convert_scalar(Value::integer(1), t);
    // Only the rows the diagonal crosses (np.eye(2**40, 0) is empty: no loop over its rows).
    int64_t first = k < 0 ? std::min<int64_t>(n, -k) : 0;
    int64_t last = k >= m ? first : std::min<int64_t>(n, m - k);
    for (int64_t i = first; i < last; ++i) std::memcpy(p + (i * m + i + k) * int64_t(itemsize(t)), one.raw, itemsize(t));
    return out;
}

// identity(n, dtype=float): eye(n) with dtype second.
Value np_identity(Interp& in, CallArgs& a) {
    const Value* nv = arg(a, 0, "n");
    if (!nv) raise(types::TypeError, "identity() missing required argument 'n' (pos 0)");
    const Value* d = arg(a, 1, "dtype");
    Value pos[4] = {*nv, Value::none(), Value::integer(0), d ? *d : Value::none()};
    CallArgs eye{pos, 4, nullptr};
    return np_eye(in, eye);
}

// np._named_tuple(name, fields, values): NumPy's result tuples (EighResult,
// UniqueCountsResult, ...) for numpy/py/; one immortal type per name and fields.
Value np_named_tuple(Interp& in, CallArgs& a) {
    expect_args(a, "_named_tuple", 3, 3);
    std::string name = to_str(in, a.pos[0]);
    std::vector<std::string> fields;
    std::string key = name;
    for (const Value& f : to_vector(in, a.pos[1])) {
        fields.push_back(to_str(in, f));
        key += "," + fields.back();
    }
    static std::mutex mu;
    static std::map<std::string, TypeObject*> types_by_key;
    TypeObject* t;
    {
        std::lock_guard<std::mutex> lock(mu);
        TypeObject*& slot = types_by_key[key];
        if (!slot) slot = make_named_tuple_type(name, fields);
        t = slot;
    }
    std::vector<Value> items = to_vector(in, a.pos[2]);
    if (items.size() != fields.size()) raise(types::ValueError, "_named_tuple: one value per field");
    return make_named_tuple(t, std::move(items));
}

Value np_where(Interp& in, CallArgs& a) {
    if (a.npos == 1) return nonzero(in, a.pos[0], true);
    expect_args(a, "where", 3, 3);
    Value c = as_array_value(in, a.pos[0], DType::Bool);
    Value x = a.pos[1], y = a.pos[2];
    // Python numbers, complex included, stay weak (NEP 50, as NumPy's where).
    if (!x.is_number() && !as_complex(x)) x = as_array_value(in, x);
    if (!y.is_number() && !as_complex(y)) y = as_array_value(in, y);
    DType t = result_type({operand_of(x), operand_of(y)});
    auto node_of = [&](const Value& v) {
        return as_array(v) ? make_cast(array_node(as_array(v)), t) : make_scalar(t, convert_scalar(v, t));
    };
    static const Shape kScalarShape;
    auto shape_of = [&](const Value& v) { return as_array(v) ? &as_array(v)->shape : &kScalarShape; };
    ArrayObj* ca = c.as<ArrayObj>();
    Shape shape = broadcast_shapes({&ca->shape, shape_of(x), shape_of(y)});
    return array_from_node(make_where(array_node(ca), node_of(x), node_of(y), shape));
}

Value np_clip(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "clip() missing required argument 'a' (pos 0)");
    const Value* lo = arg(a, 1, "a_min");
    const Value* hi = arg(a, 2, "a_max");
    if (!lo) lo = kwarg(a, "min");
    if (!hi) hi = kwarg(a, "max");
    UfuncOptions o;
    o.out = out_arg(a, 3);
    if (const Value* d = kwarg(a, "dtype"); d && !d->is_none()) o.dtype = to_dtype(in, *d);
    return clip(in, *x, lo, hi, o);
}

// ---- reductions and methods as functions: np.sum(x, ...) == x.sum(...) ----

Value call_method(Interp& in, const char* name, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, std::string(name) + "() missing required argument 'a' (pos 0)");
    Value x = as_array_value(in, a.pos[0]);
    // The method of x's own type, as NumPy's _wrapfunc: on a NumPy scalar
    // it returns a scalar (np.squeeze(np.float64(2)) is np.float64(2.0)).
    const Value* m = x.o->type->lookup(name);
    std::vector<Value> pos(a.pos, a.pos + a.npos);
    pos[0] = x;
    CallArgs ca{pos.data(), pos.size(), a.kw};
    return in.call(*m, ca);
}

#define METHOD_FN(NAME) Value np_##NAME(Interp& in, CallArgs& a) { return call_method(in, #NAME, a); }
METHOD_FN(sum) METHOD_FN(prod) METHOD_FN(max) METHOD_FN(min) METHOD_FN(any) METHOD_FN(all) METHOD_FN(argmax)
METHOD_FN(argmin) METHOD_FN(mean) METHOD_FN(var) METHOD_FN(std) METHOD_FN(ravel)
METHOD_FN(squeeze) METHOD_FN(swapaxes) METHOD_FN(round)
#undef METHOD_FN

// np.transpose(a, axes=None): the method takes its axes only by position.
Value np_transpose(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "transpose() missing required argument 'a' (pos 0)");
    const Value* axes = arg(a, 1, "axes");
    Value pos[2] = {as_array_value(in, *x), axes ? *axes : Value::none()};
    CallArgs inner{pos, axes && !axes->is_none() ? size_t(2) : size_t(1), nullptr};
    return call_method(in, "transpose", inner);
}

// np.reshape(a, shape, order='C'): the method takes order only by keyword.
Value np_reshape(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    const Value* shape = arg(a, 1, "shape");
    if (!x || !shape) raise(types::TypeError, "reshape() missing required argument 'shape' (pos 1)");
    Value pos[2] = {as_array_value(in, *x), *shape};
    std::vector<std::pair<std::string, Value>> kw;
    if (const Value* order = arg(a, 2, "order")) kw.push_back({"order", *order});
    CallArgs ca{pos, 2, &kw};
    return in.call(*pos[0].o->type->lookup("reshape"), ca);
}

// np.copy(a, order='K'): unlike ndarray.copy (order='C') it keeps a's layout.
Value np_copy(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "copy() missing required argument 'a' (pos 0)");
    Value xv = as_array_value(in, *x);
    return copy_order(in, xv, xv.as<ArrayObj>()->dtype, order_arg(arg(a, 1, "order"), 'K'));
}

// ptp(a, axis=None, out=None, keepdims=False): max and min without out=, then
// their difference into out.
Value np_ptp(Interp& in, CallArgs& a) {
    const Value* out = out_arg(a, 2, OutWording::Reduction);
    std::vector<Value> pos(a.pos, a.pos + std::min<size_t>(a.npos, 2));
    std::vector<std::pair<std::string, Value>> kw;
    if (a.npos > 3) kw.emplace_back("keepdims", a.pos[3]);  // ptp(a, axis, out, keepdims)
    if (a.kw)
        for (auto& [k, v] : *a.kw)
            if (k != "out") kw.emplace_back(k, v);
    CallArgs inner{pos.data(), pos.size(), kw.empty() ? nullptr : &kw};
    if (!out) return apply_ufunc(in, Ufunc::subtract, {call_method(in, "max", inner), call_method(in, "min", inner)});
    // NumPy's _ptp: the maximum into out (out's dtype is the accumulator),
    // then subtract(out, minimum, out): int16 data into a float64 out do not wrap.
    std::vector<std::pair<std::string, Value>> kwo = kw;
    kwo.emplace_back("out", *out);
    CallArgs with_out{pos.data(), pos.size(), &kwo};
    Value mx = call_method(in, "max", with_out);
    UfuncOptions o;
    o.out = out;
    return apply_ufunc(in, Ufunc::subtract, {mx, call_method(in, "min", inner)}, o);
}

Value np_count_nonzero(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "count_nonzero() missing required argument 'a' (pos 0)");
    Value b = as_array_value(in, a.pos[0], DType::Bool);
    ReduceOptions o;
    o.axis = arg(a, 1, "axis");
    o.dtype = DType::Int64;
    Value r = reduce(in, ReduceOp::Sum, b, o);
    return r;
}

// ---- comparisons of whole arrays ----

Value np_isclose(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    const Value* y = arg(a, 1, "b");
    if (!x || !y) raise(types::TypeError, "isclose() missing required argument 'b' (pos 1)");
    const Value* rt = arg(a, 2, "rtol");
    const Value* at = arg(a, 3, "atol");
    const Value* en = arg(a, 4, "equal_nan");
    Value rtol = rt ? *rt : Value::real(1e-5), atol = at ? *at : Value::real(1e-8);
    // NumPy's isclose: y made inexact first (result_type(y, 1.0); a Python
    // int becomes a float), so |x - y| cannot wrap (abs(0 - int16 -32768));
    // close is |x - y| <= atol + rtol * |y| where y is finite, or x == y.
    Value yv = *y;
    if (yv.is_int() || yv.is_bool()) yv = Value::real(double(yv.as_int()));
    else if (!yv.is_number() && !as_complex(yv)) {
        Value ya = as_array_value(in, yv);
        DType yt = ya.as<ArrayObj>()->dtype;
        yv = is_inexact(yt) ? ya : array_from_node(make_cast(array_node(ya.as<ArrayObj>()), promote_types(yt, DType::Float64)));
    }
    Value diff = apply_ufunc(in, Ufunc::absolute, {apply_ufunc(in, Ufunc::subtract, {*x, yv})});
    // With Python numbers NumPy's tolerance is Python arithmetic, a weak
    // float (|x - 1e300| <= 1e295 compares in float32 for float32 x: inf <= inf).
    Value tol;
    if (rtol.is_number() && atol.is_number() && yv.is_number()) {
        tol = Value::real(atol.as_float() + rtol.as_float() * std::fabs(yv.as_float()));
    } else {
        Value scaled = apply_ufunc(in, Ufunc::multiply, {rtol, apply_ufunc(in, Ufunc::absolute, {yv})});
        tol = apply_ufunc(in, Ufunc::add, {atol, scaled});
    }
    Value close = apply_ufunc(in, Ufunc::logical_and, {apply_ufunc(in, Ufunc::less_equal, {diff, tol}), apply_ufunc(in, Ufunc::isfinite, {yv})});
    Value same = apply_ufunc(in, Ufunc::equal, {*x, yv});
    Value r = apply_ufunc(in, Ufunc::logical_or, {close, same});
    if (en && truthy(*en))
        r = apply_ufunc(in, Ufunc::logical_or, {r, apply_ufunc(in, Ufunc::logical_and, {apply_ufunc(in, Ufunc::isnan, {*x}), apply_ufunc(in, Ufunc::isnan, {*y})})});
    return r;
}

Value np_allclose(Interp& in, CallArgs& a) {
    Value c = np_isclose(in, a);
    ReduceOptions o;
    Value r = reduce(in, ReduceOp::All, c, o);
    return Value::boolean(truthy(r));
}

Value np_array_equal(Interp& in, CallArgs& a) {
    const Value* a1 = arg(a, 0, "a1");
    const Value* a2 = arg(a, 1, "a2");
    if (!a1 || !a2) raise(types::TypeError, "array_equal() missing required argument 'a2' (pos 1)");
    const Value* en = arg(a, 2, "equal_nan");
    Value x = as_array_value(in, *a1), y = as_array_value(in, *a2);
    if (x.as<ArrayObj>()->shape != y.as<ArrayObj>()->shape) return Value::boolean(false);
    ReduceOptions o;
    Value same = apply_ufunc(in, Ufunc::equal, {x, y});
    // equal_nan (any truthy value, as NumPy's `if equal_nan:`): NaN where
    // both have NaN counts as equal.
    if (en && truthy(*en) && is_inexact(x.as<ArrayObj>()->dtype) | is_inexact(y.as<ArrayObj>()->dtype)) {
        Value both_nan = apply_ufunc(in, Ufunc::logical_and, {apply_ufunc(in, Ufunc::isnan, {x}), apply_ufunc(in, Ufunc::isnan, {y})});
        same = apply_ufunc(in, Ufunc::logical_or, {same, both_nan});
    }
    return Value::boolean(truthy(reduce(in, ReduceOp::All, same, o)));
}

// ---- misc ----

Value np_synchronize(Interp&, CallArgs&) {
    materialize_all_pending();
    return Value::none();
}

Value np_dtype(Interp& in, CallArgs& a) {
    expect_args(a, "dtype", 1, 1);
    return dtype_value(to_dtype(in, a.pos[0]));
}

Value np_shape(Interp& in, CallArgs& a) {
    expect_args(a, "shape", 1, 1);
    return get_attr(in, as_array_value(in, a.pos[0]), "shape");
}

Value np_ndim(Interp& in, CallArgs& a) {
    expect_args(a, "ndim", 1, 1);
    return get_attr(in, as_array_value(in, a.pos[0]), "ndim");
}

Value np_size(Interp& in, CallArgs& a) {
    expect_args(a, "size", 1, 1);
    return get_attr(in, as_array_value(in, a.pos[0]), "size");
}

const FunctionSpec kFunctions[] = {
    {"array", np_array, "array(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, like=None)", "Create an array from nested lists, tuples or another array."},
    {"_named_tuple", np_named_tuple, "_named_tuple(name, fields, values)", "A named result tuple (for the module's own functions)."},
    {"asnumpy", np_asnumpy, "asnumpy(a)", "A host copy of the array (CuPy's name)."},
    {"asarray", np_asarray, "asarray(a, dtype=None, order=None, *, copy=None)", "Convert the input to an array (no copy if it already is one)."},
    {"zeros", np_zeros, "zeros(shape, dtype=float, order='C')", "Return a new array of given shape and type, filled with zeros."},
    {"ones", np_ones, "ones(shape, dtype=float, order='C')", "Return a new array of given shape and type, filled with ones."},
    {"empty", np_empty, "empty(shape, dtype=float, order='C')", "Return a new array of given shape and type (gpy zero-fills it)."},
    {"full", np_full, "full(shape, fill_value, dtype=None, order='C')", "Return a new array of given shape and type, filled with fill_value."},
    {"zeros_like", np_zeros_like, "zeros_like(a, dtype=None, order='K', subok=True, shape=None)", "Return an array of zeros with the same shape and type as a given array."},
    {"ones_like", np_ones_like, "ones_like(a, dtype=None, order='K', subok=True, shape=None)", "Return an array of ones with the same shape and type as a given array."},
    {"empty_like", np_empty_like, "empty_like(a, dtype=None, order='K', subok=True, shape=None)", "Return a new array with the same shape and type as a given array."},
    {"full_like", np_full_like, "full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None)", "Return a full array with the same shape and type as a given array."},
    {"arange", np_arange, "arange([start,] stop[, step], dtype=None)", "Return evenly spaced values within a given interval."},
    {"linspace", np_linspace, "linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None)", "Return evenly spaced numbers over a specified interval."},
    {"eye", np_eye, "eye(N, M=None, k=0, dtype=float)", "Return a 2-D array with ones on the diagonal and zeros elsewhere."},
    {"identity", np_identity, "identity(n, dtype=float)", "Return the identity array."},
    {"where", np_where, "where(condition, [x, y])", "Return elements chosen from x or y depending on condition (nonzero(condition) when alone)."},
    {"clip", np_clip, "clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, dtype=None)", "Clip (limit) the values in an array."},
    {"sum", np_sum, "sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=0, where=True)", "Sum of array elements over a given axis."},
    {"prod", np_prod, "prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=1, where=True)", "Product of array elements over a given axis."},
    {"max", np_max, "max(a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)", "Maximum of an array or maximum along an axis."},
    {"amax", np_max, "amax(a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)", "Maximum of an array or maximum along an axis."},
    {"min", np_min, "min(a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)", "Minimum of an array or minimum along an axis."},
    {"amin", np_min, "amin(a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)", "Minimum of an array or minimum along an axis."},
    {"any", np_any, "any(a, axis=None, out=None, keepdims=False, *, where=True)", "Test whether any array element along a given axis evaluates to True."},
    {"all", np_all, "all(a, axis=None, out=None, keepdims=False, *, where=True)", "Test whether all array elements along a given axis evaluate to True."},
    {"argmax", np_argmax, "argmax(a, axis=None, out=None, *, keepdims=False)", "Returns the indices of the maximum values along an axis."},
    {"argmin", np_argmin, "argmin(a, axis=None, out=None, *, keepdims=False)", "Returns the indices of the minimum values along an axis."},
    {"mean", np_mean, "mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)", "Compute the arithmetic mean along the specified axis."},
    {"var", np_var, "var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True)", "Compute the variance along the specified axis."},
    {"std", np_std, "std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True)", "Compute the standard deviation along the specified axis."},
    {"ptp", np_ptp, "ptp(a, axis=None, out=None, keepdims=False)", "Range of values (maximum - minimum) along an axis."},
    {"count_nonzero", np_count_nonzero, "count_nonzero(a, axis=None)", "Counts the number of non-zero values in the array."},
    {"reshape", np_reshape, "reshape(a, shape, order='C')", "Gives a new shape to an array without changing its data."},
    {"ravel", np_ravel, "ravel(a, order='C')", "Return a contiguous flattened array."},
    {"transpose", np_transpose, "transpose(a, axes=None)", "Returns an array with axes transposed."},
    {"squeeze", np_squeeze, "squeeze(a, axis=None)", "Remove axes of length one from a."},
    {"swapaxes", np_swapaxes, "swapaxes(a, axis1, axis2)", "Interchange two axes of an array."},
    {"copy", np_copy, "copy(a, order='K')", "Return an array copy of the given object."},
    {"around", np_round, "around(a, decimals=0, out=None)", "Evenly round to the given number of decimals."},
    {"round", np_round, "round(a, decimals=0, out=None)", "Evenly round to the given number of decimals."},
    {"isclose", np_isclose, "isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)", "Element-wise: whether two arrays are equal within a tolerance."},
    {"allclose", np_allclose, "allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)", "True if two arrays are element-wise equal within a tolerance."},
    {"array_equal", np_array_equal, "array_equal(a1, a2, equal_nan=False)", "True if two arrays have the same shape and elements."},
    {"synchronize", np_synchronize, "synchronize()", "Materialise every pending array and wait for the backend to finish."},
    {"dtype", np_dtype, "dtype(obj)", "Create a data type object."},
    {"shape", np_shape, "shape(a)", "Return the shape of an array."},
    {"ndim", np_ndim, "ndim(a)", "Return the number of dimensions of an array."},
    {"size", np_size, "size(a)", "Return the number of elements."},
};

}  // namespace

// Every native function and method the module reaches (its submodules, the
// types it exports) checks keywords against its signature: an argument gpy
// does not implement raises TypeError instead of being ignored. Types are
// shared by interpreters, hence the lock.
void check_keywords_below(Object* o, std::unordered_set<const Object*>& seen) {
    if (!seen.insert(o).second) return;
    switch (o->type->kind) {
        case OK::Builtin: check_keywords_from_signature(static_cast<BuiltinObj*>(o)); break;
        case OK::Module:
            for (const Value& x : static_cast<ModuleObj*>(o)->values)
                if (x.is_obj()) check_keywords_below(x.o, seen);
            break;
        case OK::Type:
            for (auto& [name, x] : static_cast<TypeObject*>(o)->dict)
                if (x.is_obj()) check_keywords_below(x.o, seen);
            break;
        default: break;
    }
}

ModuleObj* make_numpy_module(Interp& in) {
    init_array_types();
    make_array_context(in);
    // Bound from now on: the interpreter binds it at each later entry
    // (lang/interpreter.cpp); this import runs inside an entry that began without it.
    t_bound_context = in.array_context.get();
    in.synchronize_hook = [] {
        MaterializeReason why("the end of a script or REPL input, or synchronize()", /*only_if_unset=*/true);
        materialize_all_pending();
        // A failure of queued device work: RuntimeError.
        if (Backend* device = array_backend()) {
            try {
                device->synchronize();
            } catch (const DeviceError& e) {
                raise(types::RuntimeError, e.what());
            }
        }
    };
    auto* m = new ModuleObj("numpy");
    m->doc = "gpy's NumPy-compatible array module (lazy, fused, compiled kernels).";
    add_functions(m, kFunctions);
    add_ufuncs(m);
    add_shape_functions(in, m);
    add_sorting_functions(in, m);
    add_linalg_functions(in, m);
    add_random_module(in, m);
    add_fft_module(in, m);
    add_index_tricks(in, m);
    add_exceptions_module(in, m);
    add_error_state_functions(in, m);
    add_print_functions(in, m);
    add_poly1d(in, m);
    add_memory_functions(in, m);
    // np.testing's functions are written in the language (numpy/py/testing.py).
    m->set("testing", Value::object(new ModuleObj("numpy.testing")));
    add_io_functions(in, m);
    add_type_info_functions(in, m);
    add_scan_functions(in, m);
    add_histogram_functions(in, m);
    add_indexing_functions(in, m);
    add_complex_functions(in, m);
    add_dlpack_functions(in, m);
    add_cuda_functions(in, m);
    add_stream_functions(in, m);
    add_pinned_memory_functions(in, m);
    add_benchmark_function(in, m);
    add_user_kernel_functions(in, m);
    add_raw_kernel_functions(in, m);
    add_reduction_kernel_functions(in, m);
    m->set("pi", Value::real(M_PI));
    m->set("e", Value::real(M_E));
    m->set("inf", Value::real(INFINITY));
    m->set("nan", Value::real(NAN));
    m->set("newaxis", Value::none());
    m->set("ndarray", Value::object(types::ndarray));
    m->set("AxisError", Value::object(types::AxisError));
    m->set("UFuncTypeError", Value::object(types::UFuncTypeError));
    for (int k = 0; k < kNumDTypes; ++k) m->set(name(DType(k)), Value::object(scalar_type_object(DType(k))));
    m->set("bool_", Value::object(scalar_type_object(DType::Bool)));
    m->set("intp", Value::object(scalar_type_object(DType::Int64)));
    m->set("double", Value::object(scalar_type_object(DType::Float64)));
    m->set("single", Value::object(scalar_type_object(DType::Float32)));
    m->set("half", Value::object(scalar_type_object(DType::Float16)));
    // NumPy's C-type names for the scalar types (LP64 Linux: long is 64 bits).
    for (auto [alias, t] : {std::pair{"byte", DType::Int8}, {"ubyte", DType::UInt8}, {"short", DType::Int16}, {"ushort", DType::UInt16},
                            {"intc", DType::Int32}, {"uintc", DType::UInt32}, {"int_", DType::Int64}, {"uint", DType::UInt64},
                            {"long", DType::Int64}, {"ulong", DType::UInt64}, {"longlong", DType::Int64}, {"ulonglong", DType::UInt64},
                            {"uintp", DType::UInt64}, {"cdouble", DType::Complex128}, {"csingle", DType::Complex64}})
        m->set(alias, Value::object(scalar_type_object(t)));
    m->set("euler_gamma", Value::real(0.57721566490153286060651209008240243));
    for (bool b : {true, false}) {  // np.True_ and np.False_: NumPy bool scalars
        // Constant nodes: no memory until used (a GPU's pool starts empty, as CuPy's).
        dag::ScalarValue v;
        v.b = b;
        m->set(b ? "True_" : "False_", array_from_node(dag::make_scalar(DType::Bool, v), /*numpy_scalar=*/true));
    }
    m->set("__version__", make_str(std::string("gpy-") + version()));
    // The functions written in the language (numpy/py/), defined in the module itself.
    if (in.cfg.numpy_py_dir.empty()) {
        for (const PySource* s = kNumpyPySources; s->file; ++s) in.run_in_module(m, s->file, s->text);
    } else {
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(in.cfg.numpy_py_dir))
            if (e.path().extension() == ".py") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            std::ifstream is(f);
            std::string text((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
            in.run_in_module(m, "numpy/py/" + f.filename().string(), text);
        }
    }
    static std::mutex types_lock;
    std::lock_guard<std::mutex> lock(types_lock);
    std::unordered_set<const Object*> seen;
    check_keywords_below(m, seen);
    return m;
}

}  // namespace gpy
