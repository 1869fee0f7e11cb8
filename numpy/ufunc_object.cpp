// The numpy.ufunc type: np.add and friends are callable objects (a
// BuiltinObj of this type, so calls take the interpreter's builtin fast path)
// with NumPy's attributes and the methods reduce, accumulate, outer and at.
#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

#include "runtime/backend.h"
#include "numpy/promote.h"
#include "numpy/ufunc_table.h"
#include "numpy/array.h"
#include "numpy/dtype_dispatch.h"
#include "numpy/indexing.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/scan.h"
#include "numpy/shape_funcs.h"
#include "numpy/sort_keys.h"  // device_element_type
#include "numpy/ufunc_object.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

namespace {

// A ufunc object: a builtin that knows which ufunc it is.
struct UfuncObj : BuiltinObj {
    Ufunc id;
    UfuncObj(Ufunc f, NativeFn call, std::string sig)
        : BuiltinObj(std::string(ufunc_def(f).name), call, std::move(sig), "NumPy ufunc " + std::string(ufunc_def(f).name) + "."), id(f) {}
};

Ufunc ufunc_of(const Value& self) { return static_cast<UfuncObj*>(self.as<BuiltinObj>())->id; }
const std::string& ufunc_name(const Value& self) { return self.as<BuiltinObj>()->name; }

int nin_of(Ufunc f) { return ufunc_def(f).nin; }

// NumPy's ufunc.identity (None for the rest).
Value identity_of(Ufunc f) {
    switch (f) {
        case Ufunc::add: case Ufunc::bitwise_or: case Ufunc::bitwise_xor: case Ufunc::hypot: case Ufunc::gcd: return Value::integer(0);
        case Ufunc::logaddexp: case Ufunc::logaddexp2: return Value::real(-__builtin_inf());
        case Ufunc::multiply: return Value::integer(1);
        case Ufunc::bitwise_and: return Value::integer(-1);
        case Ufunc::logical_and: return Value::boolean(true);
        case Ufunc::logical_or: case Ufunc::logical_xor: return Value::boolean(false);
        default: return Value::none();
    }
}

// The existing reduction that computes f.reduce, if any.
std::optional<ReduceOp> reduce_op_of(Ufunc f) {
    switch (f) {
        case Ufunc::add: return ReduceOp::Sum;
        case Ufunc::multiply: return ReduceOp::Prod;
        case Ufunc::maximum: return ReduceOp::Max;
        case Ufunc::minimum: return ReduceOp::Min;
        case Ufunc::logical_and: return ReduceOp::All;
        case Ufunc::logical_or: return ReduceOp::Any;
        default: return std::nullopt;
    }
}

// add/multiply/maximum/minimum as a running scan (accumulate, at).
std::optional<ScanOp> scan_op_of(Ufunc f) {
    switch (f) {
        case Ufunc::add: return ScanOp::Sum;
        case Ufunc::multiply: return ScanOp::Prod;
        case Ufunc::maximum: return ScanOp::Max;
        case Ufunc::minimum: return ScanOp::Min;
        default: return std::nullopt;
    }
}

std::string repr_ufunc(Interp&, const Value& v) { return "<ufunc '" + ufunc_name(v) + "'>"; }

Value getattr_ufunc(Interp&, const Value& v, const std::string& attr) {
    Ufunc f = ufunc_of(v);
    int nin = nin_of(f);
    if (attr == "nin") return Value::integer(nin);
    if (attr == "nout") return Value::integer(1);
    if (attr == "nargs") return Value::integer(nin + 1);
    if (attr == "identity") return identity_of(f);
    return Value();
}

void require_binary(Ufunc f, const char* what) {
    if (nin_of(f) != 2) raise(types::ValueError, std::string(what) + " only supported for binary functions");
}

// x[i] along `axis` (x materialised): a view without that axis.
Value take_axis(ArrayObj* x, int axis, int64_t i) {
    Shape shape = x->shape;
    std::vector<int64_t> strides = x->strides;
    int64_t off = x->offset + i * strides[size_t(axis)];
    shape.erase(shape.begin() + axis);
    strides.erase(strides.begin() + axis);
    return array_from_buffer(x->buffer, x->dtype, shape, strides, off);
}

// The loop dtype of name.reduce: NumPy's reduction resolution. The loop for
// (t, t), t being dtype= or the input's (bool for the logical ufuncs), must
// take and give one dtype (dtype= itself when given): less.reduce of ints
// (-> bool) and true_divide.reduce(dtype=int64) (-> float64) have none.
DType fold_dtype(Ufunc f, DType xdt, std::optional<DType> requested, std::optional<DType> out) {
    const UfuncDef& def = ufunc_def(f);
    DType t = requested ? *requested : def.resolver == UfuncResolver::Logical ? DType::Bool : xdt;
    // Given out= (and no dtype=), out is the accumulator: the loop for (out, input).
    DType acc = !requested && out && def.resolver != UfuncResolver::Logical ? *out : t;
    UfuncLoop loop;
    try {
        loop = resolve_ufunc(f, {Operand::array(acc), Operand::array(t)});
    } catch (const PromotionError& e) {
        std::string text = e.what();
        // A reduction's no-loop error names no first operand: "(None, <class ...>)".
        static constexpr std::string_view kTypes = "matching types (";
        size_t open = text.find(kTypes), comma = text.find(", <class", open);
        if (!out && open != std::string::npos && comma != std::string::npos)
            text.replace(open + kTypes.size(), comma - (open + kTypes.size()), "None");
        raise(e.kind == "UFuncTypeError" ? types::UFuncTypeError : types::TypeError, text);
    }
    DType lt = loop.out[0];
    if (loop.in[0] != lt || loop.in[1] != lt || (requested && lt != *requested))
        raise(types::TypeError, "No loop matching the specified signature and casting was found for ufunc " +
                                    std::string(def.numpy_name));
    return lt;
}

// name.reduce for ufuncs without a reduction kernel (subtract, bitwise_or,
// ...): a left fold along one axis of x (already in the loop dtype t), one
// lazy elementwise node per step (the planner computes the growing tree every
// 64 nodes). The fold starts from `init` (initial= or the identity) or else
// from the first element; where `mask` (bool, x's
// shape) is False the step keeps the accumulator.
Value fold(Interp& in, Ufunc f, ArrayObj* x, int axis, DType t, Value init, ArrayObj* mask) {
    int64_t n = x->shape[size_t(axis)];
    Shape shape = x->shape;
    shape.erase(shape.begin() + axis);
    Value acc = init;
    int64_t first = 0;
    if (acc.is_undef() && n == 0) raise(types::ValueError, "zero-size array to reduction operation " + std::string(ufunc_def(f).name) + " which has no identity");
    if (acc.is_undef()) {
        acc = take_axis(x, axis, 0);
        first = 1;
    }
    UfuncOptions uo;
    uo.dtype = t;
    for (int64_t i = first; i < n; ++i) {
        Value step = apply_ufunc(in, f, {acc, take_axis(x, axis, i)}, uo);
        if (mask) {
            Value m = take_axis(mask, axis, i);
            Value prev = as_array_value(in, acc);
            acc = array_from_node(make_where(array_node(m.as<ArrayObj>()), array_node(step.as<ArrayObj>()),
                                             array_node(prev.as<ArrayObj>()), shape));
        } else {
            acc = step;
        }
    }
    // The start value alone (n == 0, or a 0-d initial and a masked-out axis) is broadcast.
    ArrayObj* aa = as_array_value(in, acc).as<ArrayObj>();
    if (aa->shape != shape || aa->dtype != t) acc = compute_into_new(make_cast(array_node(aa), t), t, shape);
    if (shape.empty()) set_numpy_scalar(acc.as<ArrayObj>(), true);
    return acc;
}

// x with the `axes` moved last and merged into one axis (a copy when the
// layout needs one): a reorderable ufunc folds them as one.
Value axes_last_merged(ArrayObj* x, const std::vector<int>& axes) {
    materialize(x);
    Shape shape, kept_shape;
    std::vector<int64_t> strides;
    int64_t merged = 1;
    for (int d = 0; d < x->ndim(); ++d)
        if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
            shape.push_back(x->shape[size_t(d)]);
            strides.push_back(x->strides[size_t(d)]);
        }
    kept_shape = shape;
    for (int d : axes) {
        shape.push_back(x->shape[size_t(d)]);
        strides.push_back(x->strides[size_t(d)]);
        merged *= x->shape[size_t(d)];
    }
    Value moved = view_of(x, shape, strides, x->offset);
    kept_shape.push_back(merged);
    return reshape_order(moved.as<ArrayObj>(), kept_shape, 'C');
}

// ufunc.reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=<no value>, where=True)
Value m_reduce(Interp& in, CallArgs& a) {
    const Ufunc f = ufunc_of(a.pos[0]);
    const std::string& name = ufunc_name(a.pos[0]);
    require_binary(f, "reduce");
    const Value* xv = arg(a, 1, "array");
    if (!xv) raise(types::TypeError, "reduce() missing required argument 'array' (pos 0)");
    Value x = as_array_value(in, *xv);
    ArrayObj* xa = x.as<ArrayObj>();
    static const Value kAxis0 = Value::integer(0);
    ReduceOptions o;
    o.axis = arg(a, 2, "axis");
    if (!o.axis) o.axis = &kAxis0;
    o.dtype = dtype_arg(in, a, 3);
    o.out = out_arg(a, 4);
    if (const Value* k = arg(a, 5, "keepdims")) o.keepdims = truthy(*k);
    o.initial = initial_arg(arg(a, 6, "initial"));
    o.where = arg(a, 7, "where");
    if (o.where && o.where->is_bool() && o.where->b) o.where = nullptr;
    if (auto op = reduce_op_of(f)) {
        // NumPy resolves the loop first: a TypeError even over no elements.
        try {
            DType t = o.dtype.value_or(xa->dtype);
            resolve_ufunc(f, {Operand::array(t), Operand::array(t)});
        } catch (const PromotionError& e) {
            raise(e.kind == "UFuncTypeError" ? types::UFuncTypeError : types::TypeError, e.what());
        }
        return reduce(in, *op, x, o);
    }
    std::optional<DType> out_dt;
    if (o.out)
        if (ArrayObj* oa = as_array(*o.out)) out_dt = oa->dtype;
    DType t = fold_dtype(f, xa->dtype, o.dtype, out_dt);
    std::vector<int> axes = parse_axes(in, o.axis, xa->ndim());
    // A ufunc with an identity is reorderable (NumPy): several axes fold as one.
    if (axes.size() > 1 && identity_of(f).is_none())
        raise(types::ValueError, "reduction operation '" + name + "' is not reorderable, so at most one axis may be specified");
    // The fold starts from initial=, else from the ufunc's identity (NumPy:
    // hypot.reduce([-3.0]) is hypot(0, -3.0) = 3.0), else from the first element.
    Value init;
    if (o.initial) init = initial_value(in, *o.initial, t);
    else if (Value id = identity_of(f); !id.is_none()) init = initial_value(in, id, t, true);
    Value mask;
    if (o.where) {
        if (init.is_undef())
            raise(types::ValueError, "reduction operation '" + name +
                                         "' does not have an identity, so to use a where mask one has to specify 'initial'");
        mask = compute_into_new(where_mask(in, *o.where, xa->shape), DType::Bool, xa->shape);
    }
    Value xt = compute_into_new(make_cast(array_node(xa), t), t, xa->shape);
    Value r;
    if (axes.empty()) {
        // No axis: each element on its own, combined with the start value where the mask allows.
        r = init.is_undef() ? xt : apply_ufunc(in, f, {init, xt}, UfuncOptions{.dtype = t});
        if (!mask.is_undef())
            r = array_from_node(make_where(array_node(mask.as<ArrayObj>()), array_node(r.as<ArrayObj>()),
                                           array_node(init.as<ArrayObj>()), xa->shape));
        if (xa->ndim() == 0) {
            r = compute_into_new(array_node(r.as<ArrayObj>()), t, {});
            set_numpy_scalar(r.as<ArrayObj>(), true);
        }
    } else if (axes.size() == 1) {
        r = fold(in, f, xt.as<ArrayObj>(), axes[0], t, init, mask.is_undef() ? nullptr : mask.as<ArrayObj>());
    } else {
        Value xm = axes_last_merged(xt.as<ArrayObj>(), axes);
        Value mm = mask.is_undef() ? Value() : axes_last_merged(mask.as<ArrayObj>(), axes);
        ArrayObj* xma = xm.as<ArrayObj>();
        r = fold(in, f, xma, xma->ndim() - 1, t, init, mm.is_undef() ? nullptr : mm.as<ArrayObj>());
    }
    if (o.keepdims) r = keep_dims(r, axes, xa->ndim());
    if (o.out) return store_reduction_out(in, *o.out, r, name.c_str(), xa->shape, o.keepdims);
    return r;
}

// accumulate for ufuncs without a scan kernel (subtract, gcd, logaddexp,
// ...): x copied in the loop dtype, then result[i] = f(result[i-1], result[i])
// in place along the axis, one lazy elementwise step each.
Value accumulate_fold(Interp& in, Ufunc f, ArrayObj* x, int axis, std::optional<DType> dtype, const Value* out) {
    std::optional<DType> out_dt;
    if (out)
        if (ArrayObj* oa = as_array(*out)) out_dt = oa->dtype;
    DType t = fold_dtype(f, x->dtype, dtype, out_dt);
    Value r = compute_into_new(make_cast(array_node(x), t), t, x->shape);
    ArrayObj* ra = r.as<ArrayObj>();
    UfuncOptions uo;
    uo.dtype = t;
    for (int64_t i = 1; i < x->shape[size_t(axis)]; ++i) {
        Value dst = take_axis(ra, axis, i);
        uo.out = &dst;
        apply_ufunc(in, f, {take_axis(ra, axis, i - 1), dst}, uo);
    }
    if (out) return store_reduction_out(in, *out, r, ufunc_def(f).name.data(), x->shape, false);
    return r;
}

// ufunc.accumulate(array, axis=0, dtype=None, out=None)
Value m_accumulate(Interp& in, CallArgs& a) {
    const Ufunc f = ufunc_of(a.pos[0]);
    require_binary(f, "accumulate");
    const Value* xv = arg(a, 1, "array");
    if (!xv) raise(types::TypeError, "accumulate() missing required argument 'array' (pos 0)");
    Value x = as_array_value(in, *xv);
    if (x.as<ArrayObj>()->ndim() == 0) raise(types::TypeError, "cannot accumulate on a scalar");
    static const Value kAxis0 = Value::integer(0);
    const Value* axis = arg(a, 2, "axis");
    if (!axis) axis = &kAxis0;
    if (axis->is_none() || !axis->is_intlike()) raise(types::ValueError, "accumulate does not allow multiple axes");
    std::optional<DType> dtype = dtype_arg(in, a, 3);
    const Value* out = out_arg(a, 4);
    std::optional<ScanOp> op = scan_op_of(f);
    // On bools, or is a running maximum and and a running minimum.
    if (f == Ufunc::logical_or || f == Ufunc::logical_and) {
        op = f == Ufunc::logical_or ? ScanOp::Max : ScanOp::Min;
        dtype = DType::Bool;
    }
    if (op) return scan(in, *op, x, axis, dtype, out);
    return accumulate_fold(in, f, x.as<ArrayObj>(), int(normalize_axis_named(axis->as_int(), x.as<ArrayObj>()->ndim(), nullptr)),
                           dtype, out);
}

// ufunc.outer(A, B, **kwargs): A viewed with B.ndim trailing size-1 axes,
// broadcast against B: one elementwise kernel, no copies. The keywords are
// the call's (out=, where=, dtype=: where= broadcasts into the result).
// ufunc.reduceat: numpy/py/misc_more.py's _ufunc_reduceat, one reduce per
// slice through this ufunc's own reduce.
Value m_reduceat(Interp& in, CallArgs& a) {
    const Value* f = in.import_module("numpy")->get("_ufunc_reduceat");
    if (!f) raise(types::RuntimeError, "numpy._ufunc_reduceat is missing");
    return in.call(*f, a);
}

Value m_outer(Interp& in, CallArgs& a) {
    const Ufunc f = ufunc_of(a.pos[0]);
    require_binary(f, "outer product");
    if (a.npos != 3) raise(types::TypeError, "outer() takes exactly 2 positional arguments");
    Value x = as_array_value(in, a.pos[1]);
    Value y = as_array_value(in, a.pos[2]);
    ArrayObj* xa = x.as<ArrayObj>();
    materialize(xa);
    Shape shape = xa->shape;
    std::vector<int64_t> strides = xa->strides;
    for (int d = 0; d < y.as<ArrayObj>()->ndim(); ++d) {
        shape.push_back(1);
        strides.push_back(0);
    }
    Value operands[2] = {array_from_buffer(xa->buffer, xa->dtype, shape, strides, xa->offset), y};
    CallArgs call{operands, 2, a.kw};
    if (a.kw) reject_unknown_keywords(a.pos[0].as<BuiltinObj>(), call);
    Value r = call_ufunc(in, f, call);
    // Like any ufunc result, a 0-d one is a NumPy scalar.
    if (ArrayObj* ra = as_array(r); ra && ra->ndim() == 0 && !kwarg(a, "out")) set_numpy_scalar(ra, true);
    return r;
}

// What ufunc.at(x, indices) works on: the byte offsets into x's buffer of the
// elements x[indices] selects, in the order NumPy's indexing lists them (a
// tuple indexes several axes, a boolean array masks, a repeat repeats), and
// the selection's shape. The indexing itself is x's, so every index NumPy
// takes works and every bad one raises NumPy's IndexError. An element's
// offset is offset + sum_d i_d * stride_d and indexing is linear, so each
// term is indexed on its own: a short arange along axis d, broadcast to x's
// shape (a view, no copy), costs the selection's size, not x's.
struct AtSelection {
    std::vector<int64_t> offsets;
    Shape shape;
};

AtSelection at_selection(Interp& in, ArrayObj* x, const Value& indices) {
    AtSelection r;
    int nd = x->ndim();
    // A 1-d x by an integer array: the offsets straight from the indices
    // (the general path below indexes a table as large as x: add.at of 2^16
    // values into 2^20 bins took 40x NumPy's time).
    if (ArrayObj* ia = as_array(indices); nd == 1 && ia && ia->dtype != DType::Bool && is_integer(ia->dtype)) {
        Value c = contiguous_as(ia, DType::Int64);
        HostArrayView hv = host_view(c.as<ArrayObj>());
        const auto* p = reinterpret_cast<const int64_t*>(hv.data);
        const int64_t n = x->shape[0], stride = x->strides[0];
        r.shape = ia->shape;
        r.offsets.resize(size_t(hv.size()));
        for (size_t k = 0; k < r.offsets.size(); ++k) {
            int64_t j = p[k] < 0 ? p[k] + n : p[k];
            if (j < 0 || j >= n)
                raise(types::IndexError, "index " + std::to_string(p[k]) + " is out of bounds for axis 0 with size " + std::to_string(n));
            r.offsets[k] = x->offset + j * stride;
        }
        return r;
    }
    for (int d = 0; d < std::max(nd, 1); ++d) {
        Shape along(size_t(nd), 1);
        std::vector<int64_t> term(nd ? size_t(x->shape[size_t(d)]) : 1);
        for (size_t i = 0; i < term.size(); ++i) term[i] = (nd ? int64_t(i) * x->strides[size_t(d)] : 0) + (d == 0 ? x->offset : 0);
        if (nd) along[size_t(d)] = x->shape[size_t(d)];
        Value view = broadcast_view(int64_array(term, along).as<ArrayObj>(), x->shape);
        Value sel = as_array_value(in, array_getitem(in, view, indices));
        HostArrayView hv = host_view(as_array(flat_copy(sel.as<ArrayObj>(), DType::Int64)));
        const auto* p = reinterpret_cast<const int64_t*>(hv.data);
        if (d == 0) {
            r.offsets.assign(p, p + hv.size());
            r.shape = sel.as<ArrayObj>()->shape;
        } else {
            for (size_t k = 0; k < r.offsets.size(); ++k) r.offsets[k] += p[k];
        }
    }
    return r;
}

// A fresh 1-D array of dtype t holding the elements at base + offsets[k] for
// each k in `which`.
Value gather_bytes(const uint8_t* base, const std::vector<int64_t>& offsets, const std::vector<int64_t>& which, DType t) {
    Value r = new_array(t, {int64_t(which.size())});
    size_t item = itemsize(t);
    uint8_t* dst = r.as<ArrayObj>()->buffer.bytes();
    for (size_t k = 0; k < which.size(); ++k) std::memcpy(dst + k * item, base + offsets[size_t(which[k])], item);
    return r;
}

// The add/multiply/maximum/minimum case whose loop runs in x's own dtype: one
// typed host loop in index order (a repeat sees the previous update).
// Returns false when the case is not covered.
bool at_host_loop(Ufunc f, ArrayObj* x, uint8_t* base, const std::vector<int64_t>& offsets,
                  ArrayObj* b, const UfuncLoop& loop) {
    std::optional<ScanOp> op = scan_op_of(f);
    DType t = x->dtype;
    if (!op || t == DType::Bool || is_complex(t) || loop.in[0] != t || loop.in[1] != t || loop.out[0] != t) return false;
    Value bc = flat_copy(b, t);
    const uint8_t* src = host_view(bc.as<ArrayObj>()).data;
    base = x->buffer.bytes();  // again: the copy's kernel may have read x (b a view of it)
    bool done = false;
    with_real_ctype(t, "ufunc.at", [&](auto tv) {
        using T = decltype(tv);
        if constexpr (!std::is_same_v<T, bool>) {
            const T* vals = reinterpret_cast<const T*>(src);
            auto run = [&](auto f) {
                for (size_t k = 0; k < offsets.size(); ++k) {
                    T* p = reinterpret_cast<T*>(base + offsets[k]);
                    *p = f(*p, vals[k]);
                }
            };
            switch (*op) {
                case ScanOp::Sum: run(scan_combine<ScanOp::Sum, T>); break;
                case ScanOp::Prod: run(scan_combine<ScanOp::Prod, T>); break;
                case ScanOp::Max: run(scan_combine<ScanOp::Max, T>); break;
                case ScanOp::Min: run(scan_combine<ScanOp::Min, T>); break;
            }
            done = true;
        }
    });
    return done;
}

// add/maximum/minimum.at of a 1-d device array by one integer index array,
// the loop in x's dtype: on the device (runtime/gather_cuda.h). False: the
// host's.
bool at_on_device(Interp& in, Ufunc f, ArrayObj* x, const Value& indices, const Value& b, const UfuncLoop& loop) {
    Backend* be = array_backend();
    std::optional<ScanOp> op = scan_op_of(f);
    const DType t = x->dtype;
    if (!be || x->ndim() != 1 || !x->buffer || x->buffer->device != DeviceKind::CUDA || !op || *op == ScanOp::Prod ||
        loop.in[0] != t || loop.in[1] != t || loop.out[0] != t)
        return false;
    DeviceSearchType type;
    const bool integer = t == DType::Int32 || t == DType::UInt32 || t == DType::Int64 || t == DType::UInt64;
    if (!device_element_type(t, &type) || !(integer || ((t == DType::Float32 || t == DType::Float64) && *op == ScanOp::Sum))) return false;
    ArrayObj* ia = as_array(indices);
    if (!ia || ia->dtype == DType::Bool || !is_integer(ia->dtype) || uint64_t(ia->size()) >= (uint64_t(1) << 32)) return false;
    ArrayObj* ba = b.as<ArrayObj>();
    bool fits = ba->ndim() <= ia->ndim();  // b broadcasts against x[indices]
    for (int d = 1; fits && d <= ba->ndim(); ++d) {
        int64_t bd = ba->shape[size_t(ba->ndim() - d)], sd = ia->shape[size_t(ia->ndim() - d)];
        fits = bd == sd || bd == 1;
    }
    if (!fits) return false;  // the host raises, after NumPy's IndexError for a bad index
    const bool uniform = ba->size() == 1;
    materialize(ba);
    Value vals = uniform ? new_array(t, {1}) : new_array(t, ia->shape);
    assign_array(in, vals, uniform ? array_from_buffer(ba->buffer, ba->dtype, {1}, {0}, ba->offset) : b);
    ArrayObj* va = vals.as<ArrayObj>();
    materialize(va);
    Value idx = contiguous_as(ia, DType::Int64);
    // add.at(x, x, 1): the kernels would read indices the update is writing
    // (NumPy copies overlapping operands too).
    if (idx.as<ArrayObj>()->buffer.get() == x->buffer.get()) idx = fresh_copy(idx.as<ArrayObj>());
    ArrayObj* xi = idx.as<ArrayObj>();
    if (!xi->buffer || xi->buffer->device != DeviceKind::CUDA || !va->buffer || va->buffer->device != DeviceKind::CUDA) return false;
    flush_readers(x->buffer.get());  // pending results that read x keep the values from before
    const int64_t count = xi->size(), n = x->shape[0];
    int64_t first_bad = count;
    const int dop = *op == ScanOp::Sum ? 0 : *op == ScanOp::Max ? 1 : 2;
    if (!be->ufunc_at(dop, type, reinterpret_cast<const int64_t*>(xi->buffer.device_bytes() + xi->offset), count,
                      reinterpret_cast<char*>(x->buffer.device_bytes() + x->offset), n, x->strides[0], va->buffer.device_bytes() + va->offset,
                      uniform, &first_bad))
        return false;
    if (first_bad < count)
        raise(types::IndexError, "index " + std::to_string(reinterpret_cast<const int64_t*>(xi->buffer.bytes() + xi->offset)[first_bad]) +
                                     " is out of bounds for axis 0 with size " + std::to_string(n));
    return true;
}

// ufunc.at(a, indices, b=None): unbuffered, so a repeated index applies the
// operation again to the updated value, and each step's result is cast back
// to a's dtype (unsafe casting, as NumPy) before the next reads it. b is an
// array here (a Python scalar is not weak: np.add.at(int8, i, 1000) wraps).
// Generic ufuncs run in rounds: round r updates every element's r-th
// occurrence at once (one gather, one elementwise kernel, one scatter), so
// an index list without repeats is one round.
Value m_at(Interp& in, CallArgs& a) {
    const Ufunc f = ufunc_of(a.pos[0]);
    if (a.npos < 3) raise(types::TypeError, "at() takes at least 2 positional arguments");
    if (a.npos > 4) raise(types::TypeError, "at() takes at most 3 arguments (" + std::to_string(a.npos - 1) + " given)");
    ArrayObj* x = as_array(a.pos[1]);
    if (!x) raise(types::TypeError, "first operand must be array");
    int nin = nin_of(f);
    const Value* bv = arg_not_none(a, 3, "b");
    if (nin == 2 && !bv) raise(types::ValueError, "second operand needed for ufunc");
    if (nin == 1 && bv) raise(types::ValueError, "second operand provided when ufunc is unary");
    Value b;
    ArrayObj* ba = nullptr;
    if (bv) {
        b = as_array_value(in, *bv);
        ba = b.as<ArrayObj>();
    }
    // NumPy resolves the loop before it looks at the indices.
    UfuncLoop loop;
    try {
        std::vector<Operand> ops{Operand::array(x->dtype)};
        if (ba) ops.push_back(Operand::array(ba->dtype));
        loop = resolve_ufunc(f, ops);
    } catch (const PromotionError& e) {
        raise(e.kind == "UFuncTypeError" ? types::UFuncTypeError : types::TypeError, e.what());
    }
    materialize(x);
    if (ba && at_on_device(in, f, x, a.pos[2], b, loop)) return Value::none();
    AtSelection sel = at_selection(in, x, a.pos[2]);
    if (ba) {
        // b broadcasts against x[indices].
        bool fits = ba->ndim() <= int(sel.shape.size());
        for (int d = 1; fits && d <= ba->ndim(); ++d) {
            int64_t bd = ba->shape[size_t(ba->ndim() - d)], sd = sel.shape[sel.shape.size() - size_t(d)];
            fits = bd == sd || bd == 1;
        }
        if (!fits) raise(types::ValueError, "array is not broadcastable to correct shape");
        b = broadcast_view(ba, sel.shape);
        ba = b.as<ArrayObj>();
    }
    size_t n = sel.offsets.size();
    if (n == 0) return Value::none();
    // Pending arrays that read x keep the values from before the update.
    materialize(x);
    flush_readers(x->buffer.get());
    uint8_t* base = x->buffer.bytes();
    if (ba && at_host_loop(f, x, base, sel.offsets, ba, loop)) return Value::none();
    // Round r holds the positions k whose offset occurs for the r-th time.
    std::vector<std::vector<int64_t>> rounds;
    {
        std::unordered_map<int64_t, uint32_t> seen;
        seen.reserve(n);
        for (size_t k = 0; k < n; ++k) {
            uint32_t r = seen[sel.offsets[k]]++;
            if (r == rounds.size()) rounds.emplace_back();
            rounds[r].push_back(int64_t(k));
        }
    }
    Value bflat;
    std::vector<int64_t> boffsets;
    if (ba) {
        bflat = flat_copy(ba, ba->dtype);
        boffsets.resize(n);
        for (size_t k = 0; k < n; ++k) boffsets[k] = int64_t(k * itemsize(ba->dtype));
    }
    size_t item = itemsize(x->dtype);
    for (const std::vector<int64_t>& which : rounds) {
        std::vector<Value> args{gather_bytes(base, sel.offsets, which, x->dtype)};
        if (ba) args.push_back(gather_bytes(host_view(bflat.as<ArrayObj>()).data, boffsets, which, ba->dtype));
        Value r = apply_ufunc(in, f, args);
        Value rc = compute_into_new(make_cast(array_node(as_array_value(in, r).as<ArrayObj>()), x->dtype), x->dtype, {int64_t(which.size())});
        const uint8_t* src = host_view(rc.as<ArrayObj>()).data;
        // The kernels above may have read x; they are done before the writes
        // (host access to x again: device memory's mirror is current).
        base = x->buffer.bytes();
        for (size_t k = 0; k < which.size(); ++k) std::memcpy(base + sel.offsets[size_t(which[k])], src + k * item, item);
    }
    return Value::none();
}

}  // namespace

Value call_ufunc(Interp& in, Ufunc f, CallArgs& a) {
    const std::string_view name = ufunc_def(f).name;
    int nin = nin_of(f);
    if (a.npos < size_t(nin) || a.npos > size_t(nin) + 1)
        raise(types::TypeError, std::string(name) + "() takes from " + std::to_string(nin) + " to " + std::to_string(nin + 1) +
                                    " positional arguments but " + std::to_string(a.npos) + (a.npos == 1 ? " was" : " were") + " given");
    UfuncOptions o;
    o.out = checked_out(a.npos > size_t(nin) ? &a.pos[nin] : kwarg(a, "out"));
    if (const Value* d = kwarg(a, "dtype"); d && !d->is_none()) o.dtype = to_dtype(in, *d);
    o.where = kwarg(a, "where");
    if (o.where && o.where->is_bool() && o.where->b) o.where = nullptr;
    return apply_ufunc(in, f, std::span<const Value>(a.pos, size_t(nin)), o);
}

TypeObject* ufunc_type() {
    static TypeObject* t = [] {
        auto* u = new TypeObject("numpy.ufunc", types::builtin, OK::Builtin);
        u->doc = "Functions that operate element by element on whole arrays.";
        u->repr = repr_ufunc;
        u->getattr = getattr_ufunc;
        return u;
    }();
    return t;
}

Value make_ufunc(Ufunc f, NativeFn call) {
    std::string sig = std::string(ufunc_def(f).name) + (nin_of(f) == 1 ? "(x, /, out=None, *, where=True, dtype=None)"
                                                                       : "(x1, x2, /, out=None, *, where=True, dtype=None)");
    auto* b = new UfuncObj(f, call, sig);
    b->type = ufunc_type();
    return Value::object(b);
}

namespace {
template <Ufunc F>
Value np_ufunc(Interp& in, CallArgs& a) {
    return call_ufunc(in, F, a);
}
}  // namespace

// np._ufunc_loop(name, *operands): the loop NumPy picks for them, as a
// tuple of dtypes (inputs, then outputs), or NumPy's TypeError. For the
// ufuncs numpy/py/ composes from other operations (ldexp, frexp, gcd, ...).
Value np_ufunc_loop(Interp& in, CallArgs& a) {
    if (a.npos < 1 || !is_kind(a.pos[0], OK::Str)) raise(types::TypeError, "_ufunc_loop(name, *operands)");
    std::vector<Operand> ops;
    for (size_t k = 1; k < a.npos; ++k) ops.push_back(operand_of(as_array(a.pos[k]) || a.pos[k].is_number() || as_complex(a.pos[k]) ? a.pos[k] : as_array_value(in, a.pos[k])));
    UfuncLoop loop;
    try {
        loop = resolve_ufunc(std::string_view(a.pos[0].as<StrObj>()->s), ops);
    } catch (const PromotionError& e) {
        raise(e.kind == "OverflowError" ? types::OverflowError : e.kind == "UFuncTypeError" ? types::UFuncTypeError : types::TypeError, e.what());
    }
    std::vector<Value> items;
    for (DType t : loop.in) items.push_back(dtype_value(t));
    for (DType t : loop.out) items.push_back(dtype_value(t));
    return make_tuple(std::move(items));
}

// np._unary_op(name, x, dtype): the DAG operation `name` (dag::UnaryOp's
// names) of array x, as dtype: the parts of ufuncs numpy/py/ composes
// (frexp's mantissa and exponent), computed in one fused kernel each.
Value np_unary_op(Interp& in, CallArgs& a) {
    if (a.npos != 3 || !is_kind(a.pos[0], OK::Str) || !as_array(a.pos[1])) raise(types::TypeError, "_unary_op(name, array, dtype)");
    const std::string& name = a.pos[0].as<StrObj>()->s;
#define X(n, s) dag::UnaryOp::n,
    static constexpr dag::UnaryOp kOps[] = {GPY_UNARY_OPS(X)};
#undef X
    for (dag::UnaryOp op : kOps)
        if (name == dag::unary_name(op)) return array_from_node(dag::make_unary(op, array_node(as_array(a.pos[1])), to_dtype(in, a.pos[2])));
    raise(types::ValueError, "_unary_op: no operation " + name);
}

void add_ufuncs(ModuleObj* m) {
    static const struct {
        Ufunc id;
        NativeFn fn;
    } kUfuncObjects[] = {
#define GPY_UFUNC_ENTRY(n, op) {Ufunc::n, np_ufunc<Ufunc::n>},
#define GPY_UFUNC_SKIP(n)
        GPY_UFUNCS(GPY_UFUNC_ENTRY, GPY_UFUNC_ENTRY, GPY_UFUNC_SKIP)
#undef GPY_UFUNC_ENTRY
#undef GPY_UFUNC_SKIP
    };
    for (const auto& u : kUfuncObjects) m->set(std::string(ufunc_def(u.id).name), make_ufunc(u.id, u.fn));
    // NumPy's aliases are the same objects (np.true_divide.__name__ == 'divide').
    for (auto [alias, target] : {std::pair{"true_divide", "divide"}, {"mod", "remainder"}, {"abs", "absolute"}, {"pow", "power"}})
        m->set(alias, *m->get(target));
    m->set("ufunc", Value::object(ufunc_type()));
    m->set("_ufunc_loop", Value::object(new BuiltinObj("_ufunc_loop", np_ufunc_loop, "_ufunc_loop(name, *operands)",
                                                       "The loop dtypes NumPy picks for a ufunc and operands (inputs, then outputs).")));
    m->set("_unary_op", Value::object(new BuiltinObj("_unary_op", np_unary_op, "_unary_op(name, array, dtype)",
                                                     "A DAG unary operation of an array, as dtype (the parts of composed ufuncs).")));
}

void install_ufunc_type() {
    TypeObject* t = ufunc_type();
    def_method(t, "reduce", m_reduce, "ufunc.reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=<no value>, where=True)", "Reduces array's dimension by one, by applying the ufunc along one axis.");
    def_method(t, "accumulate", m_accumulate, "ufunc.accumulate(array, axis=0, dtype=None, out=None)", "Accumulate the result of applying the operator to all elements.");
    def_method(t, "reduceat", m_reduceat, "ufunc.reduceat(array, indices, axis=0, dtype=None, out=None)",
               "Performs a (local) reduce with specified slices over a single axis.");
    def_method(t, "outer", m_outer, "ufunc.outer(A, B, /, **kwargs)", "Apply the ufunc op to all pairs (a, b) with a in A and b in B.");
    def_method(t, "at", m_at, "ufunc.at(a, indices, b=None, /)", "Performs unbuffered in place operation on operand 'a' for elements specified by 'indices'.");
}

}  // namespace gpy
