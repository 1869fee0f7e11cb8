// The numpy.ufunc type: np.add and friends are callable objects (a
// BuiltinObj of this type, so calls take the interpreter's builtin fast path)
// with NumPy's attributes and the methods reduce, accumulate, outer and at.
#include <cstring>
#include <map>

#include "codegen/promote.h"
#include "stdlib/array.h"
#include "stdlib/dtype_dispatch.h"
#include "stdlib/np_args.h"
#include "stdlib/reduce.h"
#include "stdlib/scan.h"
#include "stdlib/ufunc_object.h"
#include "stdlib/ufuncs.h"

namespace gpy {

using namespace dag;

namespace {

const std::string& ufunc_name(const Value& self) { return self.as<BuiltinObj>()->name; }

int nin_of(const std::string& name) {
    int n = ufunc_nin(name);
    return n < 0 ? 2 : n;
}

// NumPy's ufunc.identity (None for the rest).
Value identity_of(const std::string& name) {
    static const std::map<std::string, Value, std::less<>> ids = {
        {"add", Value::integer(0)},          {"multiply", Value::integer(1)},     {"logical_and", Value::boolean(true)},
        {"logical_or", Value::boolean(false)}, {"logical_xor", Value::boolean(false)}, {"bitwise_and", Value::integer(-1)},
        {"bitwise_or", Value::integer(0)},   {"bitwise_xor", Value::integer(0)},  {"hypot", Value::integer(0)},
    };
    auto it = ids.find(name);
    return it == ids.end() ? Value::none() : it->second;
}

// The existing reduction that computes name.reduce, if any.
std::optional<ReduceOp> reduce_op_of(const std::string& name) {
    if (name == "add") return ReduceOp::Sum;
    if (name == "multiply") return ReduceOp::Prod;
    if (name == "maximum") return ReduceOp::Max;
    if (name == "minimum") return ReduceOp::Min;
    if (name == "logical_and") return ReduceOp::All;
    if (name == "logical_or") return ReduceOp::Any;
    return std::nullopt;
}

std::string repr_ufunc(Interp&, const Value& v) { return "<ufunc '" + ufunc_name(v) + "'>"; }

Value getattr_ufunc(Interp&, const Value& v, const std::string& attr) {
    const std::string& name = ufunc_name(v);
    int nin = nin_of(name);
    if (attr == "nin") return Value::integer(nin);
    if (attr == "nout") return Value::integer(1);
    if (attr == "nargs") return Value::integer(nin + 1);
    if (attr == "identity") return identity_of(name);
    return Value();
}

void require_binary(const std::string& name, const char* what) {
    if (nin_of(name) != 2) raise(types::ValueError, std::string(what) + " only supported for binary functions");
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

// A fresh array of `shape` filled with the Python scalar v.
Value filled(DType t, const Shape& shape, const Value& v) {
    return compute_into_new(make_scalar(t, convert_scalar(v, t)), t, shape);
}

// name.reduce for ufuncs without a reduction kernel (subtract, bitwise_or,
// ...): a left fold along one axis, one lazy elementwise node per step (the
// planner computes the growing tree every 64 nodes).
Value fold(Interp& in, const std::string& name, ArrayObj* x, int axis, const ReduceOptions& o) {
    materialize(x);
    int64_t n = x->shape[size_t(axis)];
    Value acc;
    if (o.initial) acc = *o.initial;
    else if (n > 0) acc = take_axis(x, axis, 0);
    Value id = identity_of(name);
    Shape shape = x->shape;
    shape.erase(shape.begin() + axis);
    if (acc.is_undef()) {
        if (id.is_none()) raise(types::ValueError, "zero-size array to reduction operation " + name + " which has no identity");
        acc = id;
    }
    UfuncOptions uo;
    uo.dtype = o.dtype;
    for (int64_t i = o.initial ? 0 : 1; i < n; ++i) acc = apply_ufunc(in, name, {acc, take_axis(x, axis, i)}, uo);
    if (!as_array(acc) || as_array(acc)->shape != shape) {
        // The identity or initial alone (n == 0), or a 0-d initial folded into nothing.
        Value a = as_array_value(in, acc);
        DType t = o.dtype ? *o.dtype : resolve_ufunc(name, {Operand::array(x->dtype), Operand::array(x->dtype)}).out[0];
        acc = compute_into_new(make_cast(array_node(a.as<ArrayObj>()), t), t, shape);
    }
    if (shape.empty()) acc.as<ArrayObj>()->numpy_scalar = true;
    return acc;
}

// ufunc.reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=<no value>, where=True)
Value m_reduce(Interp& in, CallArgs& a) {
    const std::string& name = ufunc_name(a.pos[0]);
    require_binary(name, "reduce");
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
    // NumPy resolves the loop first: bitwise_or.reduce of floats is a
    // TypeError even over no elements.
    try {
        DType t = o.dtype.value_or(xa->dtype);
        resolve_ufunc(name, {Operand::array(t), Operand::array(t)});
    } catch (const PromotionError& e) {
        raise(e.kind == "UFuncTypeError" ? types::UFuncTypeError : types::TypeError, e.what());
    }
    if (auto op = reduce_op_of(name)) return reduce(in, *op, x, o);
    std::vector<int> axes = parse_axes(in, o.axis, xa->ndim());
    if (axes.size() > 1)
        raise(types::ValueError, "reduction operation '" + name + "' is not reorderable, so at most one axis may be specified");
    if (o.where) raise(types::NotImplementedError, name + ".reduce(where=...) is not supported yet");
    Value r = axes.empty() ? x : fold(in, name, xa, axes[0], o);
    if (o.keepdims) r = keep_dims(r, axes, xa->ndim());
    if (o.out) return store_reduction_out(in, *o.out, r, name.c_str(), xa->shape, o.keepdims);
    return r;
}

// ufunc.accumulate(array, axis=0, dtype=None, out=None)
Value m_accumulate(Interp& in, CallArgs& a) {
    const std::string& name = ufunc_name(a.pos[0]);
    require_binary(name, "accumulate");
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
    ScanOp op;
    if (name == "add") op = ScanOp::Sum;
    else if (name == "multiply") op = ScanOp::Prod;
    else if (name == "maximum") op = ScanOp::Max;
    else if (name == "minimum") op = ScanOp::Min;
    // On bools, or is a running maximum and and a running minimum.
    else if (name == "logical_or" || name == "logical_and") {
        op = name == "logical_or" ? ScanOp::Max : ScanOp::Min;
        dtype = DType::Bool;
    } else {
        raise(types::NotImplementedError, name + ".accumulate is not supported yet");
    }
    return scan(in, op, x, axis, dtype, out);
}

// ufunc.outer(A, B): A viewed with B.ndim trailing size-1 axes, broadcast
// against B: one elementwise kernel, no copies.
Value m_outer(Interp& in, CallArgs& a) {
    const std::string& name = ufunc_name(a.pos[0]);
    require_binary(name, "outer product");
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
    Value xv = array_from_buffer(xa->buffer, xa->dtype, shape, strides, xa->offset);
    UfuncOptions uo;
    uo.out = checked_out(kwarg(a, "out"));
    if (const Value* d = kwarg(a, "dtype"); d && !d->is_none()) uo.dtype = to_dtype(in, *d);
    return apply_ufunc(in, name, {xv, y}, uo);
}

// The flat list of first-axis positions an `at` index selects.
std::vector<int64_t> at_indices(Interp& in, const Value& idx, int64_t size) {
    std::vector<int64_t> r;
    auto add = [&](int64_t i) {
        if (i < -size || i >= size)
            raise(types::IndexError, "index " + std::to_string(i) + " is out of bounds for axis 0 with size " + std::to_string(size));
        r.push_back(i < 0 ? i + size : i);
    };
    if (idx.is_intlike()) {
        add(idx.as_int());
        return r;
    }
    Value arr = as_array_value(in, idx);
    ArrayObj* ia = arr.as<ArrayObj>();
    if (!is_integer(ia->dtype) && !(ia->size() == 0))
        raise(types::IndexError, "arrays used as indices must be of integer (or boolean) type");
    HostArrayView hv = host_view(as_array(flat_copy(ia, DType::Int64)));
    for (int64_t k = 0; k < hv.size(); ++k) add(reinterpret_cast<const int64_t*>(hv.data)[k]);
    return r;
}

// ufunc.at on a 1-D array for add/multiply/maximum/minimum when the loop
// runs in a's own dtype: one typed host loop over the indices. Returns false
// when the case is not covered.
bool at_fast_1d(Interp& in, const std::string& name, ArrayObj* x, const std::vector<int64_t>& idx, const Value& bv) {
    std::optional<ScanOp> op = name == "add" ? ScanOp::Sum : name == "multiply" ? ScanOp::Prod
                             : name == "maximum" ? ScanOp::Max : name == "minimum" ? ScanOp::Min : std::optional<ScanOp>();
    if (!op || x->ndim() != 1 || !(as_array(bv) || bv.is_number())) return false;
    Value b = as_array_value(in, bv);
    ArrayObj* ba = b.as<ArrayObj>();
    int64_t n = int64_t(idx.size());
    if (ba->size() != 1 && ba->shape != Shape{n}) return false;
    UfuncLoop loop;
    try {
        loop = resolve_ufunc(name, {Operand::array(x->dtype), operand_of(bv)});
    } catch (const PromotionError&) {
        return false;  // the generic path raises NumPy's error
    }
    DType t = x->dtype;
    if (loop.in[0] != t || loop.in[1] != t || loop.out[0] != t) return false;
    Value bc = compute_into_new(make_cast(array_node(ba), t), t, {n});
    flush_readers(x->buffer.get());
    uint8_t* base = x->buffer.bytes() + x->offset;
    int64_t stride = x->strides[0];
    const uint8_t* src = bc.as<ArrayObj>()->buffer.bytes();
    with_real_ctype(t, "ufunc.at", [&](auto tv) {
        using T = decltype(tv);
        const T* vals = reinterpret_cast<const T*>(src);
        auto run = [&](auto f) {
            for (int64_t k = 0; k < n; ++k) {
                T* p = reinterpret_cast<T*>(base + idx[size_t(k)] * stride);
                *p = f(*p, vals[k]);
            }
        };
        switch (*op) {
            case ScanOp::Sum: run(scan_combine<ScanOp::Sum, T>); break;
            case ScanOp::Prod: run(scan_combine<ScanOp::Prod, T>); break;
            case ScanOp::Max: run(scan_combine<ScanOp::Max, T>); break;
            case ScanOp::Min: run(scan_combine<ScanOp::Min, T>); break;
        }
    });
    return true;
}

// ufunc.at(a, indices, b=None): unbuffered, so a repeated index applies the
// operation again to the updated value. One elementwise step per index, in
// order (each writes a[i] before the next reads it).
Value m_at(Interp& in, CallArgs& a) {
    const std::string& name = ufunc_name(a.pos[0]);
    if (a.npos < 3) raise(types::TypeError, "at() takes at least 2 positional arguments");
    ArrayObj* x = as_array(a.pos[1]);
    if (!x) raise(types::TypeError, "first operand must be array");
    if (x->ndim() == 0) raise(types::IndexError, "too many indices for array: array is 0-dimensional, but 1 were indexed");
    int nin = nin_of(name);
    const Value* bv = arg_not_none(a, 3, "b");
    if (nin == 2 && !bv) raise(types::ValueError, "second operand needed for ufunc");
    if (nin == 1 && bv) raise(types::ValueError, "second operand provided when ufunc is unary");
    materialize(x);
    std::vector<int64_t> idx = at_indices(in, a.pos[2], x->shape[0]);
    if (bv && at_fast_1d(in, name, x, idx, *bv)) return Value::none();
    Value b;
    ArrayObj* ba = nullptr;
    if (bv) {
        b = as_array_value(in, *bv);
        ba = b.as<ArrayObj>();
        materialize(ba);
    }
    // b broadcasts against a[indices] (shape (len(indices),) + a.shape[1:]):
    // with that many dims, b's row k goes with index k.
    if (ba && ba->ndim() > x->ndim()) raise(types::ValueError, "array is not broadcastable to correct shape");
    bool per_index = ba && ba->ndim() == x->ndim() && ba->shape[0] != 1;
    if (per_index && ba->shape[0] != int64_t(idx.size()))
        raise(types::ValueError, "array is not broadcastable to correct shape");
    for (size_t k = 0; k < idx.size(); ++k) {
        Value row = take_axis(x, 0, idx[k]);
        Value r;
        if (!ba) r = apply_ufunc(in, name, {row});
        else r = apply_ufunc(in, name, {row, per_index ? take_axis(ba, 0, int64_t(k)) : b});
        assign_array(in, row, r);
    }
    return Value::none();
}

}  // namespace

Value call_ufunc(Interp& in, std::string_view name, CallArgs& a) {
    int nin = nin_of(std::string(name));
    if (a.npos < size_t(nin) || a.npos > size_t(nin) + 1)
        raise(types::TypeError, std::string(name) + "() takes from " + std::to_string(nin) + " to " + std::to_string(nin + 1) +
                                    " positional arguments but " + std::to_string(a.npos) + (a.npos == 1 ? " was" : " were") + " given");
    UfuncOptions o;
    o.out = checked_out(a.npos > size_t(nin) ? &a.pos[nin] : kwarg(a, "out"));
    if (const Value* d = kwarg(a, "dtype"); d && !d->is_none()) o.dtype = to_dtype(in, *d);
    o.where = kwarg(a, "where");
    if (o.where && o.where->is_bool() && o.where->b) o.where = nullptr;
    return apply_ufunc(in, name, std::vector<Value>(a.pos, a.pos + nin), o);
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

Value make_ufunc(const char* name, NativeFn call) {
    int nin = nin_of(name);
    std::string sig = std::string(name) + (nin == 1 ? "(x, /, out=None, *, where=True, dtype=None)"
                                                    : "(x1, x2, /, out=None, *, where=True, dtype=None)");
    auto* b = new BuiltinObj(name, call, sig, std::string("NumPy ufunc ") + name + ".");
    b->type = ufunc_type();
    return Value::object(b);
}

void install_ufunc_type() {
    TypeObject* t = ufunc_type();
    def_method(t, "reduce", m_reduce, "ufunc.reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=<no value>, where=True)", "Reduces array's dimension by one, by applying the ufunc along one axis.");
    def_method(t, "accumulate", m_accumulate, "ufunc.accumulate(array, axis=0, dtype=None, out=None)", "Accumulate the result of applying the operator to all elements.");
    def_method(t, "outer", m_outer, "ufunc.outer(A, B, /, **kwargs)", "Apply the ufunc op to all pairs (a, b) with a in A and b in B.");
    def_method(t, "at", m_at, "ufunc.at(a, indices, b=None, /)", "Performs unbuffered in place operation on operand 'a' for elements specified by 'indices'.");
}

}  // namespace gpy
