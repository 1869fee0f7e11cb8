// NumPy's tri(N, M, k) mask, computed as NumPy's Python code computes it:
//     greater_equal.outer(arange(N, dtype=_min_int(0, N)),
//                         arange(-k, M - k, dtype=_min_int(-k, M - k)))
// with the arguments' own arithmetic. For Python ints that is plain diagonal
// k, but a NumPy integer k negates and subtracts in its own width
// (-np.uint8(200) is 56, so tril(m, np.uint8(200)) keeps nothing), a float k
// truncates arange's first two values (triu(m, 0.5) zeroes everything), and
// arange's own checks raise (tril(m, np.uint8(2)): "Python integer 254 out of
// bounds for int8"). The mask has arange's length, which need not be M:
// tril/triu then fail to broadcast as NumPy's where() does.
#include <cmath>
#include <vector>

#include "numpy/array.h"
#include "numpy/array_print.h"
#include "numpy/module_parts.h"
#include "numpy/promote.h"
#include "numpy/tri_mask.h"

namespace gpy {

namespace {

int bits_of(DType t) { return int(itemsize(t)) * 8; }
bool is_signed_int(DType t) { return kind(t) == DKind::Int; }
__int128 min_of(DType t) { return is_signed_int(t) ? -((__int128)1 << (bits_of(t) - 1)) : 0; }
__int128 max_of(DType t) {
    return is_signed_int(t) ? ((__int128)1 << (bits_of(t) - 1)) - 1 : ((__int128)1 << bits_of(t)) - 1;
}

// v reduced into t's range as C's wrapping conversion does.
__int128 wrap(__int128 v, DType t) {
    if (t == DType::Bool) return v != 0;
    int b = bits_of(t);
    unsigned __int128 m = (unsigned __int128)1 << b;
    unsigned __int128 u = (unsigned __int128)v & (m - 1);
    if (is_signed_int(t) && (u >> (b - 1))) return __int128(u) - __int128(m);
    return __int128(u);
}

double round_to(double v, DType t) {
    if (t == DType::Float32) return double(float(v));
    if (t == DType::Float16) return half_to_double(double_to_half(v));
    return v;
}

// A number with the arithmetic of its type: a Python int (exact; gpy's ints
// are 64-bit, so __int128 holds every intermediate) or float (weak, NEP 50),
// a NumPy integer (wraps in its width) or float (rounds to its precision).
struct Num {
    enum Kind { PyInt, PyFloat, Int, Float } kind = PyInt;
    DType dtype = DType::Int64;  // Int/Float: the NumPy type
    __int128 i = 0;
    double f = 0;
    bool array = false;  // from an array of one or more dimensions (size 1)

    bool is_float() const { return kind == PyFloat || kind == Float; }
    bool is_python() const { return kind == PyInt || kind == PyFloat; }
    double as_double() const { return is_float() ? f : double(i); }
    DType type() const { return kind == PyInt ? DType::Int64 : kind == PyFloat ? DType::Float64 : dtype; }
};

Num py_int(__int128 v) { return Num{Num::PyInt, DType::Int64, v, 0}; }

// A NumPy value of type t (wrapped or rounded into it).
Num typed(DType t, __int128 i, double f) {
    if (is_float(t)) return Num{Num::Float, t, 0, round_to(f, t)};
    return Num{Num::Int, t, wrap(i, t), 0};
}

Num as_type(const Num& x, DType t) { return typed(t, x.i, x.is_float() ? x.f : double(x.i)); }

// The type a binary operation on a and b computes in (NEP 50: a Python int
// takes the other's type and must fit an integer one; a Python float gives
// way to a NumPy float and makes a NumPy integer float64).
Num::Kind combine(const Num& a, const Num& b, DType& t) {
    if (a.is_python() && b.is_python()) {
        t = DType::Float64;
        return a.kind == Num::PyInt && b.kind == Num::PyInt ? Num::PyInt : Num::PyFloat;
    }
    const Num& py = a.is_python() ? a : b;
    const Num& np = a.is_python() ? b : a;
    if (a.is_python() || b.is_python()) {
        if (py.kind == Num::PyInt) {
            t = np.dtype == DType::Bool ? DType::Int64 : np.dtype;
            if (is_integer(t) && (py.i < min_of(t) || py.i > max_of(t)))
                raise(types::OverflowError, "Python integer " + std::to_string(int64_t(py.i)) + " out of bounds for " + name(t));
        } else {
            t = is_float(np.dtype) ? np.dtype : DType::Float64;
        }
        return is_float(t) ? Num::Float : Num::Int;
    }
    t = promote_types(a.dtype, b.dtype);
    return is_float(t) ? Num::Float : Num::Int;
}

Num arith_values(const Num& a, const Num& b, int sign) {
    DType t;
    Num::Kind k = combine(a, b, t);
    if (k == Num::PyInt) return py_int(a.i + sign * b.i);
    if (k == Num::PyFloat) return Num{Num::PyFloat, DType::Float64, 0, a.as_double() + sign * b.as_double()};
    if (t == DType::Bool && sign < 0)
        raise(types::TypeError,
              "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.");
    if (k == Num::Float) return typed(t, 0, as_type(a, t).f + sign * as_type(b, t).f);
    return typed(t, as_type(a, t).i + sign * as_type(b, t).i, 0);
}

Num arith(const Num& a, const Num& b, int sign) {
    Num r = arith_values(a, b, sign);
    r.array = a.array || b.array;
    return r;
}

Num neg(const Num& x) {
    if (x.kind == Num::Int && x.dtype == DType::Bool)
        raise(types::TypeError,
              "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.");
    if (x.is_python()) return Num{x.kind, x.dtype, -x.i, -x.f, x.array};
    Num r = typed(x.dtype, -x.i, -x.f);
    r.array = x.array;
    return r;
}

bool le(const Num& x, __int128 v) { return x.is_float() ? x.f <= double(v) : x.i <= v; }
bool ge(const Num& x, __int128 v) { return x.is_float() ? x.f >= double(v) : x.i >= v; }

// NumPy's _min_int(low, high): the smallest signed type with high <= max and low >= min.
DType min_int(const Num& low, const Num& high) {
    for (DType t : {DType::Int8, DType::Int16, DType::Int32})
        if (le(high, max_of(t)) && ge(low, min_of(t))) return t;
    return DType::Int64;
}

// arange's store of one bound into an element of t (its setitem).
// A float is int(x) first, then the same checks.
__int128 store(const Num& x, DType t) {
    __int128 v = x.i;
    if (x.is_float()) {
        double tr = std::trunc(x.f);
        if (!(tr >= -0x1p63 && tr < 0x1p63)) raise(types::OverflowError, "Python int too large to convert to C long");
        v = __int128(int64_t(tr));
    }
    if (v > INT64_MAX || v < INT64_MIN) raise(types::OverflowError, "Python int too large to convert to C long");
    if (v > max_of(t) || v < min_of(t))
        raise(types::OverflowError, "Python integer " + std::to_string(int64_t(v)) + " out of bounds for " + name(t));
    return v;
}

Num num_of(const Value& v) {
    if (ArrayObj* a = as_array(v); a && a->size() == 1 && !is_complex(a->dtype)) {
        HostArrayView h = host_view(a);
        bool array = a->ndim() > 0;  // its arithmetic works; arange's float() of it does not
        if (is_float(a->dtype)) return Num{Num::Float, a->dtype, 0, element_to_python(a, h.data).as_float(), array};
        if (a->dtype == DType::UInt64) return Num{Num::Int, a->dtype, __int128(*reinterpret_cast<const uint64_t*>(h.data)), 0, array};
        return Num{Num::Int, a->dtype, element_to_python(a, h.data).as_int(), 0, array};
    }
    if (v.is_float()) return Num{Num::PyFloat, DType::Float64, 0, v.as_float()};
    return py_int(to_index(v));
}

[[noreturn]] void raise_too_big() {
    raise(types::ValueError, "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
}

// a + sign * b inside arange's _calc_length, where an OverflowError (a
// Python int out of a NumPy type's bounds) becomes its ValueError.
Num arange_arith(const Num& a, const Num& b, int sign) {
    try {
        return arith(a, b, sign);
    } catch (const GpyError& e) {
        if (e.obj()->type != types::OverflowError) throw;
    }
    raise(types::ValueError, "Maximum allowed size exceeded");
}

// The length of arange(lo, hi): ceil(hi - lo) in the bounds' arithmetic.
int64_t arange_length(const Num& lo, const Num& hi) {
    Num range = arange_arith(hi, lo, -1);
    if (range.array) raise(types::TypeError, "only 0-dimensional arrays can be converted to Python scalars");
    // NumPy's _arange_safe_ceil_to_intp of (hi - lo) / 1 as a Python float:
    // exactly 2**63 passes its check and casts to INT64_MIN on x86 (empty).
    double len = std::ceil(range.is_float() ? range.f : double(range.i));
    if (std::isnan(len)) raise(types::ValueError, "arange: cannot compute length");
    if (!(len >= -0x1p63 && len <= 0x1p63)) raise(types::ValueError, "Maximum allowed size exceeded");
    return len > 0 && len < 0x1p63 ? int64_t(len) : 0;
}

// The mask as a fused kernel on the array device: column j compares with
// first + j (no wrapping in T), row i with i; `invert` flips it. What
// tril/triu of a GPU array read, where the host's loop would build and
// upload rows x cols bytes.
Value device_tri_mask(Interp& in, int64_t rows, int64_t first, int64_t length, bool invert) {
    auto arange = [&](int64_t lo, int64_t hi) {
        Value pos[2] = {Value::integer(lo), Value::integer(hi)};
        CallArgs ca{pos, 2, nullptr};
        Value r = np_arange(in, ca);
        materialize(r.as<ArrayObj>());
        return r;
    };
    Value r = arange(0, rows), c = arange(first, first + length);
    ArrayObj *ra = r.as<ArrayObj>(), *ca = c.as<ArrayObj>();
    dag::Shape shape{rows, length};
    Value rv = array_from_buffer(ra->buffer, ra->dtype, {rows, 1}, {ra->strides[0], 0}, ra->offset);
    Value cv = array_from_buffer(ca->buffer, ca->dtype, {1, length}, {0, ca->strides[0]}, ca->offset);
    dag::NodeP cmp = dag::make_binary(invert ? dag::BinaryOp::Lt : dag::BinaryOp::Ge, array_node(rv.as<ArrayObj>()),
                                      array_node(cv.as<ArrayObj>()), DType::Bool, shape);
    return compute_into_new(cmp, DType::Bool, shape);
}

}  // namespace

Value tri_mask(Interp& in, const Value& n_value, const Value& m_value, const Value& k_value, int64_t k_offset, bool invert) {
    Num N = num_of(n_value), M = m_value.is_none() ? N : num_of(m_value), k = num_of(k_value);
    if (k_offset) k = arith(k, py_int(k_offset < 0 ? -k_offset : k_offset), k_offset < 0 ? -1 : 1);  // k - 1, not k + (-1)
    Num lo = neg(k), hi = arith(M, k, -1);
    DType T = min_int(lo, hi);
    // The rows: arange(N, dtype=_min_int(0, N)).
    DType row_type = min_int(py_int(0), N);
    int64_t rows = arange_length(py_int(0), N);  // a float N counts ceil(N) rows, as arange
    if (rows > INT64_MAX / int64_t(itemsize(row_type))) raise_too_big();
    // The columns: arange(lo, hi, dtype=T).
    int64_t length = arange_length(lo, hi);
    if (length > INT64_MAX / int64_t(itemsize(T))) raise_too_big();
    Value mask = new_array(DType::Bool, {rows, length});
    if (length == 0 || rows == 0) return mask;
    // arange stores start and start + 1 and steps by their difference in T.
    __int128 first = store(lo, T);
    __int128 delta = wrap(store(arange_arith(lo, py_int(1), 1), T) - first, T);
    if (array_device_kind() == DeviceKind::CUDA && delta == 1 && wrap(first + (length - 1), T) == first + (length - 1) &&
        first + length < (__int128(1) << 62) && first > -(__int128(1) << 62))
        return device_tri_mask(in, rows, int64_t(first), length, invert);
    std::vector<int64_t> cols(static_cast<size_t>(length));  // within T, so within int64
    for (int64_t j = 0; j < length; ++j) cols[size_t(j)] = int64_t(wrap(first + j * delta, T));
    uint8_t* p = mask.as<ArrayObj>()->buffer.bytes();
    for (int64_t i = 0; i < rows; ++i)  // row-major, as the buffer is laid out
        for (int64_t j = 0; j < length; ++j) p[i * length + j] = (i >= cols[size_t(j)]) != invert;
    return mask;
}

}  // namespace gpy
