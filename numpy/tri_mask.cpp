// NumPy's tri(N, M, k) mask, computed as NumPy's Python code computes it:
//     greater_equal.outer(arange(N), arange(-k, M - k, dtype=_min_int(-k, M - k)))
// with k's own arithmetic. For a Python int that is plain diagonal k, but a
// NumPy integer k negates and subtracts in its own width (-np.uint8(200) is 56,
// so tril(m, np.uint8(200)) keeps nothing), a float k truncates arange's first
// two values (triu(m, 0.5) zeroes everything), and arange's own checks raise
// (tril(m, np.uint8(2)): "Python integer 254 out of bounds for int8"). The
// mask has arange's length, which need not be M: tril/triu then fail to
// broadcast as NumPy's where() does.
#include <cmath>

#include "numpy/array.h"
#include "numpy/array_print.h"
#include "numpy/tri_mask.h"

namespace gpy {

namespace {

// A number with the arithmetic of its type: a Python int (exact; gpy's ints
// are 64-bit, so __int128 holds every intermediate), a NumPy integer (wraps
// in its width) or a float (rounds to its precision).
struct Typed {
    enum Kind { PyInt, Int, Float } kind = PyInt;
    DType dtype = DType::Int64;  // Int/Float: the NumPy type (a Python float is Float64)
    __int128 i = 0;
    double f = 0;

    bool is_float() const { return kind == Float; }
    double as_double() const { return is_float() ? f : double(i); }
};

int bits_of(DType t) { return int(itemsize(t)) * 8; }
bool is_signed_int(DType t) { return kind(t) == DKind::Int; }

__int128 min_of(DType t) { return is_signed_int(t) ? -((__int128)1 << (bits_of(t) - 1)) : 0; }
__int128 max_of(DType t) {
    return is_signed_int(t) ? ((__int128)1 << (bits_of(t) - 1)) - 1 : ((__int128)1 << bits_of(t)) - 1;
}

// v reduced into t's range as C's wrapping conversion does.
__int128 wrap(__int128 v, DType t) {
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

Typed result(const Typed& like, __int128 i, double f) {
    Typed r = like;
    if (r.kind == Typed::Float) r.f = round_to(f, r.dtype);
    else if (r.kind == Typed::Int) r.i = wrap(i, r.dtype);
    else r.i = i;
    return r;
}

Typed neg(const Typed& x) {
    if (x.kind == Typed::Int && x.dtype == DType::Bool)
        raise(types::TypeError,
              "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.");
    return result(x, -x.i, -x.f);
}

// x + d for a Python int d: a NumPy bool becomes the default int first (NEP 50).
Typed add_int(Typed x, int64_t d) {
    if (x.kind == Typed::Int && x.dtype == DType::Bool) x.dtype = DType::Int64;
    return result(x, x.i + d, x.f + double(d));
}

// M - x for a Python int M: NEP 50 converts M to x's integer type first.
Typed rsub(int64_t M, const Typed& x) {
    if (x.kind == Typed::Int) {
        if (M < min_of(x.dtype) || M > max_of(x.dtype))
            raise(types::OverflowError, "Python integer " + std::to_string(M) + " out of bounds for " + name(x.dtype));
    }
    return result(x, __int128(M) - x.i, round_to(double(M), x.dtype) - x.f);
}


bool le(const Typed& x, __int128 v) { return x.is_float() ? x.f <= double(v) : x.i <= v; }
bool ge(const Typed& x, __int128 v) { return x.is_float() ? x.f >= double(v) : x.i >= v; }

// NumPy's _min_int(low, high): the smallest signed type with high <= max and low >= min.
DType min_int(const Typed& low, const Typed& high) {
    for (DType t : {DType::Int8, DType::Int16, DType::Int32})
        if (le(high, max_of(t)) && ge(low, min_of(t))) return t;
    return DType::Int64;
}

// arange's store of one bound into an element of t (its setitem).
__int128 store(const Typed& x, DType t) {
    if (x.is_float()) return wrap(__int128(std::trunc(x.f)), t);  // within t: the caller checked the bounds
    if (x.i > INT64_MAX || x.i < INT64_MIN) raise(types::OverflowError, "Python int too large to convert to C long");
    if (x.i > max_of(t) || x.i < min_of(t))
        raise(types::OverflowError, "Python integer " + std::to_string(int64_t(x.i)) + " out of bounds for " + name(t));
    return x.i;
}

Typed typed_k(Interp& in, const Value& k) {
    Typed t;
    if (ArrayObj* a = as_array(k); a && a->ndim() == 0) {
        HostArrayView v = host_view(a);
        Value s = element_to_python(a, v.data);
        if (is_float(a->dtype)) return Typed{Typed::Float, a->dtype, 0, s.as_float()};
        if (a->dtype == DType::UInt64) {
            uint64_t u = *reinterpret_cast<const uint64_t*>(v.data);
            return Typed{Typed::Int, a->dtype, __int128(u), 0};
        }
        if (!is_complex(a->dtype)) return Typed{Typed::Int, a->dtype, s.as_int(), 0};
    }
    if (k.is_float()) return Typed{Typed::Float, DType::Float64, 0, k.as_float()};
    (void)in;
    t.i = to_index(k);
    return t;
}

}  // namespace

Value tri_mask(Interp& in, int64_t N, int64_t M, const Value& k_value, int64_t k_offset) {
    Typed k = typed_k(in, k_value);
    if (k_offset) k = add_int(k, k_offset);
    Typed lo = neg(k), hi = rsub(M, k);
    DType T = min_int(lo, hi);
    // arange(lo, hi): its length is ceil(hi - lo) in the bounds' arithmetic.
    Typed range = result(hi, hi.i - lo.i, hi.f - lo.f);
    int64_t length = 0;
    if (range.is_float()) {
        if (!std::isfinite(range.f)) raise(types::ValueError, "arange: cannot compute length");
        if (range.f > 0) length = int64_t(std::ceil(range.f));
    } else if (range.i > 0) {
        length = int64_t(range.i);
    }
    Value mask = new_array(DType::Bool, {N, length});
    if (length == 0) return mask;
    // arange stores start and start + 1 and steps by their difference in T.
    __int128 first = store(lo, T);
    Typed next = add_int(lo, 1);
    __int128 delta = wrap(store(next, T) - first, T);
    uint8_t* p = mask.as<ArrayObj>()->buffer.bytes();
    for (int64_t j = 0; j < length; ++j) {
        __int128 col = wrap(first + j * delta, T);
        for (int64_t i = 0; i < N; ++i) p[i * length + j] = i >= col;
    }
    return mask;
}

}  // namespace gpy
