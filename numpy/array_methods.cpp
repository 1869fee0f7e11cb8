// ndarray methods (x.sum(), x.reshape(), x.astype(), ...) and the operator
// slots that make arrays work with Python operators.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "codegen/plan.h"
#include "numpy/array.h"
#include "numpy/linalg.h"
#include "numpy/array_state.h"
#include "numpy/promote.h"
#include "numpy/indexing.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

namespace {

ArrayObj* self_array(CallArgs& a) { return a.pos[0].as<ArrayObj>(); }

ReduceOptions reduce_options(Interp& in, CallArgs& a, size_t first) {
    ReduceOptions o;
    o.axis = arg(a, first, "axis");
    if (const Value* d = arg(a, first + 1, "dtype"); d && !d->is_none()) o.dtype = to_dtype(in, *d);
    o.out = out_arg(a, first + 2, OutWording::Reduction);
    if (const Value* k = kwarg(a, "keepdims")) o.keepdims = truthy(*k);
    o.initial = initial_arg(kwarg(a, "initial"));
    if (const Value* w = kwarg(a, "where")) o.where = w;
    return o;
}

template <ReduceOp OP>
Value m_reduce(Interp& in, CallArgs& a) {
    ReduceOptions o;
    o.axis = arg(a, 1, "axis");
    if (OP == ReduceOp::Sum || OP == ReduceOp::Prod) o = reduce_options(in, a, 1);
    else {
        o.out = out_arg(a, 2, OP == ReduceOp::ArgMax || OP == ReduceOp::ArgMin ? OutWording::CApi : OutWording::Reduction);
        if (const Value* k = kwarg(a, "keepdims")) o.keepdims = truthy(*k);
        o.initial = initial_arg(kwarg(a, "initial"));
        if (const Value* w = kwarg(a, "where")) o.where = w;
    }
    return reduce(in, OP, a.pos[0], o);
}

Value m_mean(Interp& in, CallArgs& a) { return mean(in, a.pos[0], reduce_options(in, a, 1)); }

Value m_var_std(Interp& in, CallArgs& a, bool sq) {
    ReduceOptions o = reduce_options(in, a, 1);
    const Value* ddof = kwarg(a, "ddof");
    return variance(in, a.pos[0], o, ddof ? *ddof : Value::integer(0), sq);
}
Value m_var(Interp& in, CallArgs& a) { return m_var_std(in, a, false); }
Value m_std(Interp& in, CallArgs& a) { return m_var_std(in, a, true); }

// ndarray.astype(dtype, order='K', casting='unsafe', subok=True, copy=True)
Value m_astype(Interp& in, CallArgs& a) {
    expect_args(a, "astype", 2, 6);
    DType t = to_dtype(in, a.pos[1]);
    ArrayObj* x = self_array(a);
    Casting casting = casting_arg(arg(a, 3, "casting"), Casting::Unsafe, true);
    if (!can_cast(x->dtype, t, casting))
        raise(types::TypeError, std::string("Cannot cast array data from dtype('") + name(x->dtype) + "') to dtype('" + name(t) +
                                    "') according to the rule '" + casting_name(casting) + "'");
    // order='K' (the default) keeps an F-ordered array F-ordered; other
    // layouts become C (a lazy cast, so it fuses).
    char order = order_arg(arg(a, 2, "order"), 'K');
    // copy=False: the array itself when no cast or relayout is needed (NumPy's identity).
    bool laid_out = (order != 'C' || is_c_contiguous(x)) && (order != 'F' || is_f_contiguous(x));
    if (const Value* c = arg(a, 5, "copy"); c && !truthy(*c) && t == x->dtype && laid_out) return a.pos[0];
    if (order == 'F' || (order != 'C' && is_f_contiguous(x) && !is_c_contiguous(x)))
        return copy_order(in, a.pos[0], t, order == 'A' ? 'F' : order);
    return array_from_node(make_cast(array_node(x), t), x->numpy_scalar);
}

// A fresh C-contiguous copy (one copy kernel).
Value copy_array(ArrayObj* x) { return compute_into_new(array_node(x), x->dtype, x->shape); }

Value m_copy(Interp& in, CallArgs& a) {
    return copy_order(in, a.pos[0], self_array(a)->dtype, order_arg(arg(a, 1, "order"), 'C'));
}

Shape parse_shape(Interp& in, CallArgs& a, size_t first, int64_t size, DType dt) {
    std::vector<Value> dims;
    if (a.npos == first + 1 && (is_kind(a.pos[first], OK::Tuple) || is_kind(a.pos[first], OK::List))) dims = to_vector(in, a.pos[first]);
    else for (size_t k = first; k < a.npos; ++k) dims.push_back(a.pos[k]);
    return resolve_new_shape(dims, size, dt);
}

Value m_reshape(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a);
    return reshape_order(x, parse_shape(in, a, 1, x->size(), x->dtype), order_arg(kwarg(a, "order"), 'C'));
}

Value m_ravel(Interp&, CallArgs& a) { return ravel_order(self_array(a), order_arg(arg(a, 1, "order"), 'C')); }

// ndarray.view(dtype=None, type=None): the same memory read as another
// dtype (NumPy's array_descr_set rules and messages). Where the itemsize
// changes, the last axis must be contiguous and its bytes are re-divided.
// gpy refuses views whose elements would be misaligned for the new dtype
// (generated kernels load whole elements): docs/differences.md.
Value m_view(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a);
    const Value* dt = arg(a, 1, "dtype");
    const Value* type = arg(a, 2, "type");
    if (type && !type->is_none() && !(is_kind(*type, OK::Type) && type->as<TypeObject>() == types::ndarray))
        raise(types::ValueError, "Type must be a sub-type of ndarray type");
    // view(np.ndarray): the type, not a dtype.
    if (dt && is_kind(*dt, OK::Type) && dt->as<TypeObject>() == types::ndarray) dt = nullptr;
    // An explicit None is np.dtype(None), float64 (NumPy: uint64.view(None)
    // reinterprets as float64); no argument keeps the dtype.
    DType to = dt ? (dt->is_none() ? DType::Float64 : to_dtype(in, *dt)) : x->dtype;
    materialize(x);
    Shape shape = x->shape;
    std::vector<int64_t> strides = x->strides;
    const int64_t old_size = int64_t(itemsize(x->dtype)), new_size = int64_t(itemsize(to));
    if (new_size != old_size) {
        if (shape.empty()) raise(types::ValueError, "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
        const size_t last = shape.size() - 1;
        if (shape[last] != 1 && x->size() != 0 && strides[last] != old_size)
            raise(types::ValueError, "To change to a dtype of a different size, the last axis must be contiguous");
        const int64_t bytes = shape[last] * old_size;
        if (new_size > old_size && bytes % new_size != 0)
            raise(types::ValueError, "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis of the array.");
        shape[last] = bytes / new_size;
        strides[last] = new_size;
    }
    const int64_t align = std::min<int64_t>(new_size, 8);
    bool aligned = x->offset % align == 0;
    for (size_t d = 0; d < shape.size(); ++d) aligned = aligned && (shape[d] <= 1 || strides[d] % align == 0);
    if (!aligned && x->size() != 0)
        raise(types::ValueError, "gpy does not support a view whose elements are not aligned for dtype('" + std::string(name(to)) +
                                     "') (NumPy allows it); copy the array first");
    Value v = array_from_buffer(x->buffer, to, std::move(shape), std::move(strides), x->offset);
    set_numpy_scalar(v.as<ArrayObj>(), x->numpy_scalar);  // np.float32(1).view(np.int32) is a scalar
    return v;
}

// A fresh copy laid out in the order it is read: its buffer is the result.
Value m_flatten(Interp& in, CallArgs& a) {
    (void)in;
    return flat_order(self_array(a), order_arg(arg(a, 1, "order"), 'C'), true);
}

Value m_transpose(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a);
    materialize(x);
    std::vector<int> perm;
    std::vector<Value> axes;
    if (a.npos == 2 && (is_kind(a.pos[1], OK::Tuple) || is_kind(a.pos[1], OK::List))) axes = to_vector(in, a.pos[1]);
    else for (size_t k = 1; k < a.npos; ++k) axes.push_back(a.pos[k]);
    if (axes.empty()) for (int d = x->ndim() - 1; d >= 0; --d) perm.push_back(d);
    else {
        if (int(axes.size()) != x->ndim()) raise(types::ValueError, "axes don't match array");
        std::vector<bool> seen(size_t(x->ndim()), false);
        for (auto& v : axes) {
            int d = normalize_axis(to_index(v), x->ndim());
            if (seen[size_t(d)]) raise(types::ValueError, "repeated axis in transpose");
            seen[size_t(d)] = true;
            perm.push_back(d);
        }
    }
    Shape shape;
    std::vector<int64_t> strides;
    for (int d : perm) {
        shape.push_back(x->shape[size_t(d)]);
        strides.push_back(x->strides[size_t(d)]);
    }
    return array_from_buffer(x->buffer, x->dtype, shape, strides, x->offset);
}

Value m_swapaxes(Interp&, CallArgs& a) {
    expect_args(a, "swapaxes", 3, 3);
    ArrayObj* x = self_array(a);
    materialize(x);
    int i = normalize_axis(to_index(a.pos[1]), x->ndim()), j = normalize_axis(to_index(a.pos[2]), x->ndim());
    Shape shape = x->shape;
    auto strides = x->strides;
    std::swap(shape[size_t(i)], shape[size_t(j)]);
    std::swap(strides[size_t(i)], strides[size_t(j)]);
    return array_from_buffer(x->buffer, x->dtype, shape, strides, x->offset);
}

Value m_squeeze(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a);
    materialize(x);
    const Value* axis = arg(a, 1, "axis");
    std::vector<int> axes;
    const bool all = !axis || axis->is_none();  // axis=() squeezes nothing
    if (!all) {
        axes = parse_axes(in, axis, x->ndim());
        for (int d : axes)
            if (x->shape[size_t(d)] != 1) raise(types::ValueError, "cannot select an axis to squeeze out which has size not equal to one");
    }
    Shape shape;
    std::vector<int64_t> strides;
    for (int d = 0; d < x->ndim(); ++d) {
        bool drop = all ? x->shape[size_t(d)] == 1 : std::find(axes.begin(), axes.end(), d) != axes.end();
        if (drop) continue;
        shape.push_back(x->shape[size_t(d)]);
        strides.push_back(x->strides[size_t(d)]);
    }
    return array_from_buffer(x->buffer, x->dtype, shape, strides, x->offset);
}

Value tolist_rec(const ArrayObj* x, const uint8_t* p, int dim) {
    if (dim == x->ndim()) return element_to_python(x, p);
    std::vector<Value> items;
    for (int64_t k = 0; k < x->shape[size_t(dim)]; ++k) items.push_back(tolist_rec(x, p + k * x->strides[size_t(dim)], dim + 1));
    return make_list(std::move(items));
}

Value m_tolist(Interp&, CallArgs& a) {
    ArrayObj* x = self_array(a);
    HostArrayView hv = host_view(x);
    return tolist_rec(x, hv.data, 0);
}

// ndarray.byteswap(inplace=False): every element's bytes reversed (each
// part of a complex number), the dtype kept, as NumPy's. In place, the
// pending arrays that read the buffer are computed first.
Value m_byteswap(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a);
    if (a.npos > 2) raise(types::TypeError, "byteswap() takes at most 1 argument (" + std::to_string(a.npos - 1) + " given)");
    const Value* ip = arg(a, 1, "inplace");
    const bool inplace = ip && truthy(*ip);
    if (inplace && x->numpy_scalar) raise(types::ValueError, "cannot byteswap a scalar in-place");
    Value out = a.pos[0];
    if (inplace) {
        materialize(x);
        flush_readers(x->buffer.get(), x);
    } else {
        out = copy_order(in, a.pos[0], x->dtype, 'C');
    }
    ArrayObj* o = out.as<ArrayObj>();
    HostArrayView hv = host_view(o);
    hv.data = o->buffer.bytes() + o->offset;  // written: device memory's host copy becomes the current one
    const size_t isz = itemsize(o->dtype), part = is_complex(o->dtype) ? isz / 2 : isz;
    const int nd = o->ndim();
    std::vector<int64_t> idx(size_t(nd), 0);
    for (int64_t n = o->size(); n > 0; --n) {
        uint8_t* p = const_cast<uint8_t*>(hv.data);  // write access taken above
        for (int d = 0; d < nd; ++d) p += idx[size_t(d)] * o->strides[size_t(d)];
        for (size_t q = 0; q < isz; q += part) std::reverse(p + q, p + q + part);
        for (int d = nd - 1; d >= 0; --d) {
            if (++idx[size_t(d)] < o->shape[size_t(d)]) break;
            idx[size_t(d)] = 0;
        }
    }
    return out;
}

Value m_item(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a);
    HostArrayView hv = host_view(x);
    if (a.npos == 1) {
        if (x->size() != 1) raise(types::ValueError, "can only convert an array of size 1 to a Python scalar");
        return element_to_python(x, hv.data);
    }
    Value v = a.npos == 2 ? a.pos[1] : make_tuple(std::vector<Value>(a.pos + 1, a.pos + a.npos));
    if (v.is_intlike()) {
        int64_t i = v.as_int(), n = x->size();
        if (i < 0) i += n;
        if (i < 0 || i >= n) raise(types::IndexError, "index " + std::to_string(v.as_int()) + " is out of bounds for size " + std::to_string(n));
        // Row-major position i.
        int64_t off = 0;
        for (int d = x->ndim() - 1; d >= 0; --d) {
            off += (i % x->shape[size_t(d)]) * x->strides[size_t(d)];
            i /= x->shape[size_t(d)];
        }
        return element_to_python(x, hv.data + off);
    }
    Value one[1] = {get_item(in, Value::object(x), v)};
    CallArgs c{one, 1, nullptr};
    return m_item(in, c);
}

Value m_fill(Interp& in, CallArgs& a) {
    expect_args(a, "fill", 2, 2);
    // fill takes a scalar: NumPy refuses any sequence, even of one element.
    const Value& v = a.pos[1];
    if (is_kind(v, OK::List) || is_kind(v, OK::Tuple) || (as_array(v) && as_array(v)->ndim() > 0))
        raise(types::ValueError, "setting an array element with a sequence.");
    // A NumPy scalar is immutable: its fill works on a temporary copy.
    ArrayObj* self = as_array(a.pos[0]);
    if (self) check_numpy_scalar_store(v, self->dtype);
    assign_array(in, self && self->numpy_scalar ? copy_array(self) : a.pos[0], v);
    return Value::none();
}

// x.get(stream=None, order='C', out=None, blocking=True): CuPy's host copy;
// out= receives it (an array of x's shape and dtype, CuPy's errors).
Value m_get(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a);
    const Value* out = arg_not_none(a, 3, "out");
    const Value* stream = arg(a, 1, "stream");
    StreamScope on(stream ? *stream : Value::none());
    if (!out) {
        const Value* order = arg_not_none(a, 2, "order");
        return order ? copy_order(in, a.pos[0], x->dtype, order_arg(order, 'C')) : copy_array(x);
    }
    ArrayObj* o = as_array(*out);
    if (!o) raise(types::TypeError, std::string("Only numpy.ndarray can be obtained from cupy.ndarray, not ") + type_name(*out));
    if (o->dtype != x->dtype)
        raise(types::TypeError, std::string("dtype mismatch: out has ") + name(o->dtype) + ", but self has " + name(x->dtype));
    if (o->shape != x->shape)
        raise(types::ValueError, "Shape mismatch. Old shape: " + shape_text(x->shape) + ", new shape: " + shape_text(o->shape));
    assign_array(in, *out, a.pos[0]);
    return *out;
}

// x.set(arr, stream=None): CuPy's copy of a host array into x (same shape and dtype).
Value m_set(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a);
    const Value* v = arg(a, 1, "arr");
    if (!v) raise(types::TypeError, "set() missing required argument 'arr' (pos 1)");
    ArrayObj* src = as_array(*v);
    if (!src || src->numpy_scalar) raise(types::TypeError, std::string("Only numpy.ndarray can be set to cupy.ndarray, not ") + type_name(*v));
    if (src->shape != x->shape)
        raise(types::ValueError, "Shape mismatch. Old shape: " + shape_text(x->shape) + ", new shape: " + shape_text(src->shape));
    if (src->dtype != x->dtype)
        raise(types::TypeError, std::string("Dtype mismatch. Old dtype: ") + name(x->dtype) + ", new dtype: " + name(src->dtype));
    const Value* stream = arg(a, 2, "stream");
    StreamScope on(stream ? *stream : Value::none());
    assign_array(in, a.pos[0], *v);
    return Value::none();
}

Value m_abs(Interp& in, CallArgs& a) { return apply_ufunc(in, Ufunc::absolute, {a.pos[0]}); }

Value m_clip(Interp& in, CallArgs& a) {
    UfuncOptions o;
    o.out = out_arg(a, 3);
    return clip(in, a.pos[0], arg(a, 1, "min"), arg(a, 2, "max"), o);
}

// x.round(decimals=0, out=None), as NumPy's PyArray_Round: floats scale by a
// weak Python float, rint and scale back (divide first for negative
// decimals); integers are kept for decimals >= 0, else go through float64;
// bools round as float16; complex parts round on their own.
// NumPy's PyArray_Round for bool, which is neither integer nor inexact there:
// rint (its float16 loop) for decimals=0; otherwise multiply by 10**decimals
// (a float64 loop), rint and divide, each into the output, which must be
// given and able to hold a float64 result (else UFuncTypeError, NumPy's text).
static Value round_bool(Interp& in, ArrayObj* x, int64_t d, const Value* out) {
    auto cannot_cast = [](const char* uf, DType from, DType to) {
        raise(types::UFuncTypeError, std::string("Cannot cast ufunc '") + uf + "' output from dtype('" + name(from) + "') to dtype('" +
                                         name(to) + "') with casting rule 'same_kind'");
    };
    Value xv = Value::object(x);
    if (d == 0) {
        if (out && !can_cast(DType::Float16, as_array(*out)->dtype, Casting::SameKind)) cannot_cast("rint", DType::Float16, as_array(*out)->dtype);
        Value r = apply_ufunc(in, Ufunc::rint, {xv});
        if (!out) return r;
        assign_array(in, *out, r);
        return *out;
    }
    const Ufunc first = d > 0 ? Ufunc::multiply : Ufunc::true_divide;
    DType o = out ? as_array(*out)->dtype : DType::Bool;
    if (!can_cast(DType::Float64, o, Casting::SameKind)) cannot_cast(d > 0 ? "multiply" : "divide", DType::Float64, o);
    Value f = Value::real(std::pow(10.0, std::fabs(double(d))));
    Value s = apply_ufunc(in, first, {xv, f});
    s = array_from_node(make_cast(array_node(s.as<ArrayObj>()), o));
    s = apply_ufunc(in, Ufunc::rint, {s});
    s = apply_ufunc(in, d > 0 ? Ufunc::true_divide : Ufunc::multiply, {s, f});
    assign_array(in, *out, s);
    return *out;
}

Value m_round(Interp& in, CallArgs& a) {
    const Value* dec = arg(a, 1, "decimals");
    int64_t d = dec ? to_index(*dec) : 0;
    const Value* out = out_arg(a, 2, OutWording::CApi);
    Value x = a.pos[0];
    DType t = self_array(a)->dtype;
    if (t == DType::Bool) return round_bool(in, self_array(a), d, out);
    Value r;
    if (is_integer(t) && d >= 0) {
        r = copy_array(self_array(a));
        set_numpy_scalar(r.as<ArrayObj>(), self_array(a)->numpy_scalar);
    } else if (is_integer(t)) {
        // NumPy's PyArray_Round: an integer array with negative decimals is
        // divided in float64, rinted, multiplied back and cast to its dtype,
        // or straight to out='s (int32 max into a float32 out does not wrap).
        Value f = Value::real(std::pow(10.0, std::fabs(double(d))));
        Value s = apply_ufunc(in, Ufunc::rint, {apply_ufunc(in, Ufunc::true_divide, {x, f})});
        s = apply_ufunc(in, Ufunc::multiply, {s, f});
        DType to = out && as_array(*out) ? as_array(*out)->dtype : t;
        r = array_from_node(make_cast(array_node(s.as<ArrayObj>()), to), self_array(a)->numpy_scalar);
    } else {
        auto round_real = [&](const Value& v) {
            if (d == 0) return apply_ufunc(in, Ufunc::rint, {v});
            Value f = Value::real(std::pow(10.0, std::fabs(double(d))));  // (-d overflows for d = -2**63)
            Value s = apply_ufunc(in, d > 0 ? Ufunc::multiply : Ufunc::true_divide, {v, f});
            s = apply_ufunc(in, Ufunc::rint, {s});
            return apply_ufunc(in, d > 0 ? Ufunc::true_divide : Ufunc::multiply, {s, f});
        };
        if (is_complex(t)) {
            // NumPy rounds the real and imaginary parts on their own (a NaN
            // real part leaves the imaginary part alone).
            ArrayObj* xa = self_array(a);
            r = new_array(t, xa->shape);
            set_numpy_scalar(r.as<ArrayObj>(), xa->numpy_scalar);
            assign_array(in, complex_part(r, false), round_real(complex_part(x, false)));
            assign_array(in, complex_part(r, true), round_real(complex_part(x, true)));
        } else {
            r = round_real(x);
        }
    }
    if (!out) {
        // A 0-d array rounds to a NumPy scalar (PyArray_Return), as np.round(7) does.
        if (self_array(a)->ndim() == 0) set_numpy_scalar(as_array(r), true);
        return r;
    }
    assign_array(in, *out, r);
    return *out;
}

Value m_dot(Interp& in, CallArgs& a) {
    expect_args(a, "dot", 2, 2);
    return matmul(in, a.pos[0], a.pos[1]);
}

Value getitem_slot(Interp& in, const Value& self, const Value& index) { return array_getitem(in, self, index); }
void setitem_slot(Interp& in, const Value& self, const Value& index, Value v) { array_setitem(in, self, index, std::move(v)); }

}  // namespace

void install_array_methods() {
    TypeObject* t = types::ndarray;
    t->binary = slot_binary;
    t->inplace = slot_inplace;
    t->unary = slot_unary;
    t->compare = slot_compare;
    t->getitem = getitem_slot;
    t->setitem = setitem_slot;
    def_method(t, "sum", m_reduce<ReduceOp::Sum>, "ndarray.sum(axis=None, dtype=None, out=None, keepdims=False, initial=0, where=True)", "Sum of array elements over the given axes.");
    def_method(t, "prod", m_reduce<ReduceOp::Prod>, "ndarray.prod(axis=None, dtype=None, out=None, keepdims=False, initial=1, where=True)", "Product of array elements over the given axes.");
    def_method(t, "max", m_reduce<ReduceOp::Max>, "ndarray.max(axis=None, out=None, keepdims=False, initial=<no value>, where=True)", "Maximum along the given axes.");
    def_method(t, "min", m_reduce<ReduceOp::Min>, "ndarray.min(axis=None, out=None, keepdims=False, initial=<no value>, where=True)", "Minimum along the given axes.");
    def_method(t, "any", m_reduce<ReduceOp::Any>, "ndarray.any(axis=None, out=None, keepdims=False, *, where=True)", "True if any element evaluates to True.");
    def_method(t, "all", m_reduce<ReduceOp::All>, "ndarray.all(axis=None, out=None, keepdims=False, *, where=True)", "True if all elements evaluate to True.");
    def_method(t, "argmax", m_reduce<ReduceOp::ArgMax>, "ndarray.argmax(axis=None, out=None, *, keepdims=False)", "Indices of the maximum values along an axis.");
    def_method(t, "argmin", m_reduce<ReduceOp::ArgMin>, "ndarray.argmin(axis=None, out=None, *, keepdims=False)", "Indices of the minimum values along an axis.");
    def_method(t, "mean", m_mean, "ndarray.mean(axis=None, dtype=None, out=None, keepdims=False, *, where=True)", "Average of the array elements along the given axes.");
    def_method(t, "var", m_var, "ndarray.var(axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True)", "Variance along the given axes.");
    def_method(t, "std", m_std, "ndarray.std(axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True)", "Standard deviation along the given axes.");
    def_method(t, "astype", m_astype, "ndarray.astype(dtype, order='K', casting='unsafe', subok=True, copy=True)", "Copy of the array, cast to a specified type.");
    def_method(t, "copy", m_copy, "ndarray.copy(order='C')", "Return a copy of the array.");
    def_method(t, "reshape", m_reshape, "ndarray.reshape(*shape, order='C')", "Gives a new shape to an array without changing its data.");
    def_method(t, "ravel", m_ravel, "ndarray.ravel(order='C')", "Return a flattened array (a view when possible).");
    def_method(t, "view", m_view, "ndarray.view(dtype=None, type=None)", "New view of the array with the same data, read as another dtype.");
    def_method(t, "flatten", m_flatten, "ndarray.flatten(order='C')", "Return a copy of the array collapsed into one dimension.");
    def_method(t, "transpose", m_transpose, "ndarray.transpose(*axes)", "Returns a view of the array with axes transposed.");
    def_method(t, "swapaxes", m_swapaxes, "ndarray.swapaxes(axis1, axis2)", "Return a view of the array with axis1 and axis2 interchanged.");
    def_method(t, "squeeze", m_squeeze, "ndarray.squeeze(axis=None)", "Remove axes of length one.");
    def_method(t, "tolist", m_tolist, "ndarray.tolist()", "Return the array as nested Python lists.");
    def_method(t, "byteswap", m_byteswap, "ndarray.byteswap(inplace=False)", "Swap the bytes of the array elements.");
    def_method(t, "item", m_item, "ndarray.item(*args)", "Copy an element of an array to a standard Python scalar.");
    def_method(t, "fill", m_fill, "ndarray.fill(value)", "Fill the array with a scalar value.");
    def_method(t, "get", m_get, "ndarray.get(stream=None, order='C', out=None, blocking=True)", "A host copy of the array (CuPy's name).");
    def_method(t, "set", m_set, "ndarray.set(arr, stream=None)", "Copies a host array of the same shape and dtype into this one (CuPy's).");
    def_method(t, "clip", m_clip, "ndarray.clip(min=None, max=None, out=None)", "Return an array whose values are limited to [min, max].");
    def_method(t, "round", m_round, "ndarray.round(decimals=0, out=None)", "Round to the given number of decimals (half to even).");
    def_method(t, "dot", m_dot, "ndarray.dot(b)", "Dot product of two arrays.");
    def_method(t, "__abs__", m_abs, "ndarray.__abs__()", "abs(self)");
}

}  // namespace gpy
