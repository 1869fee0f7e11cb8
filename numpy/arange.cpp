// np.arange, value for value as NumPy's PyArray_ArangeObj computes it:
//   length = ceil((stop - start) / step)   in the arguments' own arithmetic
//   out[0] = start, out[1] = start + step  stored into the result's type
//   out[i] = out[0] + i * (out[1] - out[0]) in the result's type (its fill)
// so np.arange(1, 2, 0.1)[2] is 1.2000000000000002 (not 1.2),
// np.arange(-0.5, 3.5, dtype=np.int8) is [0 0 0 0] and np.arange(300,
// dtype=np.int8) wraps, all as in NumPy.
#include <cmath>
#include <cstring>

#include "lang/ast.h"
#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/ufuncs.h"
#include "runtime/backend.h"

namespace gpy {

namespace {

bool is_numpy_scalar(const Value& v) {
    ArrayObj* a = as_array(v);
    return a && a->ndim() == 0;
}

bool arange_number(const Value& v) {
    if (v.is_number() || as_complex(v)) return true;
    ArrayObj* a = as_array(v);
    if (a && a->ndim() != 0) raise(types::TypeError, "only 0-dimensional arrays can be converted to Python scalars");
    return a != nullptr;
}

// NumPy's errors for arguments that are not numbers: a string's type first
// (its dtype discovery), then the Python operator that fails on it.
void check_arange_numbers(const Value& start, const Value& stop, const Value& step) {
    for (const Value* v : {&start, &stop, &step}) {
        const char* name = type_name(*v);
        if (!std::strcmp(name, "str") || !std::strcmp(name, "bytes"))
            raise(types::TypeError, std::string("arange() not supported for inputs with DType <class 'numpy.dtypes.") +
                                        (name[0] == 's' ? "StrDType" : "BytesDType") + "'>.");
    }
    bool ok_start = arange_number(start), ok_stop = arange_number(stop);
    if (!ok_start || !ok_stop)
        raise(types::TypeError, std::string("unsupported operand type(s) for -: '") + type_name(stop) + "' and '" + type_name(start) + "'");
    if (!arange_number(step))
        raise(types::TypeError, std::string("unsupported operand type(s) for /: '") +
                                    (start.is_intlike() && stop.is_intlike() ? "int" : "float") + "' and '" + type_name(step) + "'");
}

// A number's real and imaginary parts (a NumPy scalar's through its value).
std::pair<double, double> parts_of(const Value& v) {
    Value s = v;
    if (ArrayObj* a = as_array(v)) s = element_to_python(a, host_view(a).data);
    if (ComplexObj* c = as_complex(s)) return {c->re, c->im};
    return {s.as_float(), 0.0};
}

double as_double(const Value& v) { return parts_of(v).first; }

bool is_complex_number(const Value& v) {
    ArrayObj* a = as_array(v);
    return as_complex(v) || (a && is_complex(a->dtype));
}

// The default result type: NumPy promotes the arguments' types with a C long,
// so integers give int64, a uint64 float64 (no integer holds both), and any
// float float64.
DType default_dtype(const std::vector<Value>& args) {
    bool has_float = false, has_uint64 = false, has_complex = false;
    for (const Value& v : args) {
        DType t = DType::Int64;
        if (ArrayObj* a = as_array(v)) t = a->dtype;
        else if (as_complex(v)) t = DType::Complex128;
        else if (v.is_float()) t = DType::Float64;
        has_float |= is_float(t);
        has_complex |= is_complex(t);
        has_uint64 |= t == DType::UInt64;
    }
    if (has_complex) return DType::Complex128;
    return has_float || has_uint64 ? DType::Float64 : DType::Int64;
}

// Stores arange's first or second value into element p of type t (NumPy's
// setitem: a Python int out of an integer type's range is an OverflowError;
// a float into an integer type is int(x) first, then that check).
void store(Interp& in, const Value& v, DType t, uint8_t* p) {
    ArrayObj* a = as_array(v);
    bool float_into_int = is_integer(t) && (v.is_float() || (a && is_float(a->dtype)));
    if (float_into_int) {
        double f = a ? element_to_python(a, host_view(a).data).as_float() : v.as_float();
        if (std::isnan(f)) raise(types::ValueError, "cannot convert float NaN to integer");
        if (std::isinf(f)) raise(types::OverflowError, "cannot convert float infinity to integer");
        double tr = std::trunc(f);
        if (t == DType::UInt64 && tr >= 0x1p63 && tr < 0x1p64) {  // past int64, within uint64
            uint64_t u = uint64_t(tr);
            std::memcpy(p, &u, sizeof u);
            return;
        }
        if (!(tr >= -0x1p63 && tr < 0x1p63)) raise(types::OverflowError, "Python int too large to convert to C long");
        Value iv = Value::integer(int64_t(tr));
        check_python_store(iv, t);
        dag::ScalarValue sv = convert_scalar(iv, t);
        std::memcpy(p, sv.raw, itemsize(t));
        return;
    }
    if (a) {
        Value cast = compute_into_new(dag::make_cast(array_node(a), t), t, {});
        std::memcpy(p, host_view(cast.as<ArrayObj>()).data, itemsize(t));
        return;
    }
    (void)in;
    if (v.is_int()) check_python_store(v, t);
    dag::ScalarValue sv = convert_scalar(v, t);
    std::memcpy(p, sv.raw, itemsize(t));
}

// NumPy's fill functions: out[i] = out[0] + i * (out[1] - out[0]) in the
// element type (integers wrap; float16 computes in float, as NumPy's HALF_fill).
template <class T>
void fill_real(uint8_t* bytes, int64_t n) {
    T* p = reinterpret_cast<T*>(bytes);
    if constexpr (std::is_integral_v<T>) {
        // In 64-bit unsigned arithmetic: narrow types would promote to int,
        // whose overflow is undefined; the low bits are the same.
        using U = std::make_unsigned_t<T>;
        uint64_t start = U(p[0]), delta = U(U(p[1]) - U(p[0]));
        for (int64_t i = 2; i < n; ++i) p[i] = T(U(start + uint64_t(i) * delta));
    } else if constexpr (std::is_same_v<T, _Float16>) {
        float start = float(p[0]), delta = float(p[1]) - start;
        for (int64_t i = 2; i < n; ++i) p[i] = _Float16(start + float(i) * delta);
    } else {
        T start = p[0], delta = p[1] - start;
        for (int64_t i = 2; i < n; ++i) p[i] = start + T(i) * delta;
    }
}

template <class T>
void fill_complex(uint8_t* bytes, int64_t n) {
    T* p = reinterpret_cast<T*>(bytes);  // re, im pairs
    T re = p[0], im = p[1], dre = p[2] - re, dim = p[3] - im;
    for (int64_t i = 2; i < n; ++i) p[2 * i] = re + T(i) * dre, p[2 * i + 1] = im + T(i) * dim;
}

void fill(DType t, uint8_t* bytes, int64_t n) {
    switch (t) {
        case DType::Int8: return fill_real<int8_t>(bytes, n);
        case DType::Int16: return fill_real<int16_t>(bytes, n);
        case DType::Int32: return fill_real<int32_t>(bytes, n);
        case DType::Int64: return fill_real<int64_t>(bytes, n);
        case DType::UInt8: return fill_real<uint8_t>(bytes, n);
        case DType::UInt16: return fill_real<uint16_t>(bytes, n);
        case DType::UInt32: return fill_real<uint32_t>(bytes, n);
        case DType::UInt64: return fill_real<uint64_t>(bytes, n);
        case DType::Float16: return fill_real<_Float16>(bytes, n);
        case DType::Float32: return fill_real<float>(bytes, n);
        case DType::Float64: return fill_real<double>(bytes, n);
        case DType::Complex64: return fill_complex<float>(bytes, n);
        case DType::Complex128: return fill_complex<double>(bytes, n);
        case DType::Bool: break;  // at most 2 elements: nothing to fill
    }
}

// ceil((stop - start) / step) with NumPy's checks (_arange_safe_ceil_to_intp):
// a length outside intp's range, even a negative one, is an error; exactly
// 2**63 passes its check and casts to INT64_MIN on x86, an empty result.
int64_t length_of(double distance, double q) {
    double len = std::ceil(q);
    if (std::isnan(len)) raise(types::ValueError, "arange: cannot compute length");
    if (!(len >= -0x1p63 && len <= 0x1p63)) raise(types::ValueError, "Maximum allowed size exceeded");
    int64_t n = len > 0 && len < 0x1p63 ? int64_t(len) : 0;
    // A quotient that underflows to 0 (an infinite step) with a non-zero
    // distance gives one element when it is +0 (np.arange(1.0, step=np.inf)
    // is [0.]), none when -0.
    if (q == 0 && distance != 0) n = std::signbit(q) ? 0 : 1;
    return n;
}

// Below this many elements the host fills (a launch costs more).
constexpr int64_t kDeviceFillMin = 4096;

RangeFill range_fill_kind(DType t) {
    switch (t) {
        case DType::Int8: case DType::UInt8: return RangeFill::Int8;
        case DType::Int16: case DType::UInt16: return RangeFill::Int16;
        case DType::Int32: case DType::UInt32: return RangeFill::Int32;
        case DType::Int64: case DType::UInt64: return RangeFill::Int64;
        case DType::Float16: return RangeFill::Half;
        case DType::Float32: return RangeFill::Float;
        case DType::Float64: return RangeFill::Double;
        case DType::Complex64: return RangeFill::ComplexFloat;
        default: return RangeFill::ComplexDouble;
    }
}

}  // namespace

Value np_arange(Interp& in, CallArgs& a) {
    std::vector<Value> nums;
    for (size_t k = 0; k < a.npos; ++k) nums.push_back(a.pos[k]);
    if (const Value* s = kwarg(a, "start")) nums.insert(nums.begin(), *s);
    if (const Value* s = kwarg(a, "stop")) nums.push_back(*s);
    if (const Value* s = kwarg(a, "step")) { if (nums.size() == 1) nums.insert(nums.begin(), Value::integer(0)); nums.push_back(*s); }
    if (nums.empty() || nums.size() > 3) raise(types::TypeError, "arange() requires stop to be specified.");
    Value start = nums.size() >= 2 ? nums[0] : Value::integer(0);
    Value stop = nums.size() >= 2 ? nums[1] : nums[0];
    Value step = nums.size() == 3 ? nums[2] : Value::integer(1);
    // NumPy: a None stop makes start the stop (arange(5, None) is arange(5)); a None step is 1.
    if (nums.size() >= 2 && stop.is_none()) stop = start, start = Value::integer(0);
    if (step.is_none()) step = Value::integer(1);
    check_arange_numbers(start, stop, step);
    std::optional<DType> dt;  // keyword only: the positionals are start, stop, step
    if (const Value* d = kwarg(a, "dtype"); d && !d->is_none()) dt = to_dtype(in, *d);
    DType t = dt.value_or(default_dtype({start, stop, step}));
    bool scalars = is_numpy_scalar(start) || is_numpy_scalar(stop) || is_numpy_scalar(step) || is_complex_number(start) ||
                   is_complex_number(stop) || is_complex_number(step);

    // The length and the second value, in the arguments' own arithmetic: a
    // NumPy scalar's through gpy's operators (np.int8 wraps, np.float16
    // rounds), Python ints exactly (in 128 bits), Python floats in double.
    int64_t n;
    Value next;
    if (!scalars && start.is_intlike() && stop.is_intlike() && step.is_intlike()) {
        int64_t b = start.as_int(), e = stop.as_int(), s = step.as_int();
        if (s == 0) raise(types::ZeroDivisionError, "division by zero");
        // Python's (stop - start) / step: exact operands (the distance may
        // pass int64), one rounding in long double's 64-bit mantissa, then
        // NumPy's checks on its ceiling (arange(2**62, -2**63) is too long).
        __int128 distance = __int128(e) - b;
        n = length_of(double(distance), double((long double)distance / (long double)s));
        __int128 second = __int128(b) + s;
        next = second > INT64_MAX || second < INT64_MIN ? Value::real(double(second)) : Value::integer(int64_t(second));
    } else if (!scalars) {
        if (step.as_float() == 0) raise(types::ZeroDivisionError, "float division by zero");  // Python's (stop - start) / step
        double distance = stop.as_float() - start.as_float();
        n = length_of(distance, distance / step.as_float());
        next = Value::real(start.as_float() + step.as_float());
    } else {
        // A zero NumPy step divides to inf or NaN: NumPy's length errors.
        Value distance = binary_op(in, BinOp::Sub, stop, start);
        Value q = binary_op(in, BinOp::Div, distance, step);
        double dre = parts_of(distance).first;
        auto [qre, qim] = parts_of(q);
        // NumPy's _calc_length: a complex result and a Python complex quotient
        // (np.complex128 is one) take the shorter of the plain ceilings of
        // its parts; any other quotient its float() (a complex64's real part).
        ArrayObj* qa = as_array(q);
        bool py_complex = as_complex(q) || (qa && qa->dtype == DType::Complex128);
        if (is_complex(t) && py_complex) {
            n = std::min(length_of(0, qre), length_of(0, qim));  // a zero distance: no infinite-step rule
        } else {
            if (py_complex) raise(types::TypeError, "must be real number, not complex");
            n = length_of(dre, qre);
        }
        next = binary_op(in, BinOp::Add, start, step);
    }
    if (t == DType::Bool && n > 2)
        raise(types::TypeError, "arange() is only supported for booleans when the result has at most length 2.");
    Value out = new_array(t, {n});
    // A device array fills on the device (the host's loop writes managed
    // memory whose pages then travel to the GPU).
    Backend* be = array_backend();
    ArrayObj* o = out.as<ArrayObj>();
    if (be && n >= kDeviceFillMin && t != DType::Bool && o->buffer && o->buffer->device == DeviceKind::CUDA) {
        alignas(16) uint8_t first[32] = {};
        store(in, start, t, first);
        store(in, next, t, first + itemsize(t));
        if (be->range_fill(range_fill_kind(t), first, n, o->buffer.device_bytes())) return out;
    }
    uint8_t* p = o->buffer.bytes();
    if (n >= 1) store(in, start, t, p);
    if (n >= 2) store(in, next, t, p + itemsize(t));
    if (n >= 3) fill(t, p, n);
    return out;
}

}  // namespace gpy
