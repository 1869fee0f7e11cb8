// Dtype information: finfo and iinfo (machine limits), the abstract scalar
// type hierarchy for issubdtype (np.number, np.integer, np.floating, ...),
// and NumPy 2's promotion queries (result_type, promote_types, can_cast,
// min_scalar_type) on top of numpy/promote.
#include <cmath>
#include <cstring>
#include <mutex>

#include "numpy/promote.h"
#include "lang/format.h"
#include "numpy/array.h"
#include "numpy/scalar_types.h"
#include "numpy/array_print.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/ufuncs.h"

namespace gpy {

TypeObject* scalar_type_object(DType t);  // numpy/array.cpp

namespace {

// ---- what np.dtype(x), falling back to np.dtype(type(x)), gives ----

// The dtype finfo/iinfo look at, or the NumPy type character of what NumPy
// would get instead ('O' for arrays and other objects, 'U' for strings NumPy
// does not understand as a dtype).
struct Resolved {
    std::optional<DType> dtype;
    char other = 'O';
};

Resolved resolve(Interp& in, const Value& v) {
    if (v.is_none()) return {DType::Float64};  // NumPy: deprecated, means float64
    if (v.is_bool()) return {DType::Bool};
    if (v.is_int()) return {DType::Int64};
    if (v.is_float()) return {DType::Float64};
    if (ArrayObj* a = as_array(v)) {
        // NumPy scalars have a dtype; arrays become dtype(ndarray) = object.
        if (a->numpy_scalar) return {a->dtype};
        return {};
    }
    if (is_kind(v, OK::Type) && v.as<TypeObject>() == types::complex) return {DType::Complex128};
    if (auto d = maybe_dtype(in, v)) return {d};
    if (is_kind(v, OK::Str)) return {std::nullopt, 'U'};
    return {};
}

std::string type_repr(Interp& in, const Resolved& r) {
    if (r.dtype) return repr(in, Value::object(scalar_type_object(*r.dtype)));
    return r.other == 'U' ? "<class 'numpy.str_'>" : "<class 'numpy.object_'>";
}

// A NumPy scalar of type t holding `value` (a C value of t's layout).
template <class T>
Value scalar_of(DType t, T value) {
    Value s = new_array(t, {});
    ArrayObj* a = s.as<ArrayObj>();
    std::memcpy(a->buffer.bytes(), &value, sizeof(T));
    set_numpy_scalar(a, true);
    return s;
}

Value float_scalar(DType t, double v) {
    if (t == DType::Float16) return scalar_of(t, _Float16(v));
    if (t == DType::Float32) return scalar_of(t, float(v));
    return scalar_of(t, v);
}

std::string scalar_text(const Value& v) {
    ArrayObj* a = v.as<ArrayObj>();
    return scalar_str(a->dtype, host_view(a).data);
}

// ---- finfo ----

struct FloatParams {
    int bits, precision, nmant, minexp, maxexp, nexp;
    const char* repr_fmt;  // NumPy's _MACHAR_PARAMS 'fmt' for repr's min/max
};

const FloatParams& float_params(DType t) {
    static const FloatParams f16{16, 3, 10, -14, 16, 5, ".5e"};
    static const FloatParams f32{32, 6, 23, -126, 128, 8, ".7e"};
    static const FloatParams f64{64, 15, 52, -1022, 1024, 11, ".16e"};
    return t == DType::Float16 ? f16 : t == DType::Float32 ? f32 : f64;
}

TypeObject* finfo_type();
TypeObject* iinfo_type();

struct FInfoObj : Object {
    DType dtype;  // a float dtype (complex resolves to its component type)
    explicit FInfoObj(DType t) : Object(finfo_type()), dtype(t) {}
};

struct IInfoObj : Object {
    DType dtype;
    explicit IInfoObj(DType t) : Object(iinfo_type()), dtype(t) {}
};

double float_max(DType t) {
    const FloatParams& p = float_params(t);
    return (2 - std::ldexp(1.0, -p.nmant)) * std::ldexp(1.0, p.maxexp - 1);
}

Value finfo_getattr(Interp&, const Value& v, const std::string& n) {
    DType t = static_cast<FInfoObj*>(v.o)->dtype;
    const FloatParams& p = float_params(t);
    if (n == "dtype") return dtype_value(t);
    if (n == "bits") return Value::integer(p.bits);
    if (n == "precision") return Value::integer(p.precision);
    if (n == "nmant") return Value::integer(p.nmant);
    if (n == "minexp") return Value::integer(p.minexp);
    if (n == "maxexp") return Value::integer(p.maxexp);
    if (n == "nexp" || n == "iexp") return Value::integer(p.nexp);
    if (n == "machep") return Value::integer(-p.nmant);
    if (n == "negep") return Value::integer(-p.nmant - 1);
    if (n == "eps") return float_scalar(t, std::ldexp(1.0, -p.nmant));
    if (n == "epsneg") return float_scalar(t, std::ldexp(1.0, -p.nmant - 1));
    if (n == "max") return float_scalar(t, float_max(t));
    if (n == "min") return float_scalar(t, -float_max(t));
    if (n == "tiny" || n == "smallest_normal") return float_scalar(t, std::ldexp(1.0, p.minexp));
    if (n == "smallest_subnormal") return float_scalar(t, std::ldexp(1.0, p.minexp - p.nmant));
    if (n == "resolution") return float_scalar(t, std::pow(10.0, -p.precision));
    return Value();
}

std::string finfo_repr(Interp& in, const Value& v) {
    DType t = static_cast<FInfoObj*>(v.o)->dtype;
    const FloatParams& p = float_params(t);
    // NumPy formats max/min with '%.Ne' of the value as a Python float.
    double mx = float_max(t);
    return std::string("finfo(resolution=") + scalar_text(finfo_getattr(in, v, "resolution")) +
           ", min=" + fmt::format_float(-mx, p.repr_fmt) + ", max=" + fmt::format_float(mx, p.repr_fmt) +
           ", dtype=" + name(t) + ")";
}

std::string finfo_str(Interp& in, const Value& v) {
    DType t = static_cast<FInfoObj*>(v.o)->dtype;
    const FloatParams& p = float_params(t);
    auto s = [&](const char* attr) { return scalar_text(finfo_getattr(in, v, attr)); };
    // The ljust() in NumPy's get_str has no effect (its result is discarded).
    auto i = [](int x) { return std::to_string(x); };
    return std::string("Machine parameters for ") + name(t) +
           "\n---------------------------------------------------------------\n"
           "precision = " + i(p.precision) + "   resolution = " + s("resolution") + "\n"
           "machep = " + i(-p.nmant) + "   eps =        " + s("eps") + "\n"
           "negep =  " + i(-p.nmant - 1) + "   epsneg =     " + s("epsneg") + "\n"
           "minexp = " + i(p.minexp) + "   tiny =       " + s("tiny") + "\n"
           "maxexp = " + i(p.maxexp) + "   max =        " + s("max") + "\n"
           "nexp =   " + i(p.nexp) + "   min =        -max\n"
           "smallest_normal = " + s("smallest_normal") + "   smallest_subnormal = " + s("smallest_subnormal") +
           "\n---------------------------------------------------------------\n";
}

Value finfo_construct(Interp& in, CallArgs& a) {
    if (a.npos != 1 || a.nkw()) raise(types::TypeError, "finfo() takes exactly one argument (dtype)");
    Resolved r = resolve(in, a.pos[0]);
    if (!r.dtype || !is_inexact(*r.dtype)) raise(types::ValueError, "data type " + type_repr(in, r) + " not inexact");
    DType t = *r.dtype == DType::Complex64 ? DType::Float32 : *r.dtype == DType::Complex128 ? DType::Float64 : *r.dtype;
    return Value::object(new FInfoObj(t));
}

// ---- iinfo ----

// iinfo.min / .max. gpy has no big ints: uint64's max is a np.uint64 scalar.
Value int_limit(DType t, bool max) {
    size_t bits = 8 * itemsize(t);
    if (kind(t) == DKind::UInt) {
        if (!max) return Value::integer(0);
        if (bits == 64) return scalar_of(DType::UInt64, UINT64_MAX);
        return Value::integer(int64_t((uint64_t(1) << bits) - 1));
    }
    int64_t hi = int64_t((uint64_t(1) << (bits - 1)) - 1);
    return Value::integer(max ? hi : -hi - 1);
}

std::string limit_text(DType t, bool max) {
    if (kind(t) == DKind::UInt && max && itemsize(t) == 8) return "18446744073709551615";
    return std::to_string(int_limit(t, max).as_int());
}

Value iinfo_getattr(Interp&, const Value& v, const std::string& n) {
    DType t = static_cast<IInfoObj*>(v.o)->dtype;
    if (n == "dtype") return dtype_value(t);
    if (n == "bits") return Value::integer(int64_t(8 * itemsize(t)));
    if (n == "kind") return make_str(kind(t) == DKind::Int ? "i" : "u");
    if (n == "min") return int_limit(t, false);
    if (n == "max") return int_limit(t, true);
    return Value();
}

std::string iinfo_repr(Interp&, const Value& v) {
    DType t = static_cast<IInfoObj*>(v.o)->dtype;
    return "iinfo(min=" + limit_text(t, false) + ", max=" + limit_text(t, true) + ", dtype=" + name(t) + ")";
}

std::string iinfo_str(Interp&, const Value& v) {
    DType t = static_cast<IInfoObj*>(v.o)->dtype;
    return std::string("Machine parameters for ") + name(t) +
           "\n---------------------------------------------------------------\n"
           "min = " + limit_text(t, false) + "\nmax = " + limit_text(t, true) +
           "\n---------------------------------------------------------------\n";
}

Value iinfo_construct(Interp& in, CallArgs& a) {
    if (a.npos != 1 || a.nkw()) raise(types::TypeError, "iinfo() takes exactly one argument (int_type)");
    Resolved r = resolve(in, a.pos[0]);
    if (!r.dtype || !is_integer(*r.dtype)) {
        char k = r.other;
        if (r.dtype) k = kind(*r.dtype) == DKind::Bool ? 'b' : kind(*r.dtype) == DKind::Float ? 'f' : 'c';
        raise(types::ValueError, std::string("Invalid integer data type '") + k + "'.");
    }
    return Value::object(new IInfoObj(*r.dtype));
}

TypeObject* finfo_type() {
    static TypeObject* t = [] {
        auto* type = new TypeObject("numpy.finfo", nullptr, OK::Other);
        type->doc = "finfo(dtype): machine limits for floating point types";
        type->construct = finfo_construct;
        type->getattr = finfo_getattr;
        type->repr = finfo_repr;
        type->str = finfo_str;
        return type;
    }();
    return t;
}

TypeObject* iinfo_type() {
    static TypeObject* t = [] {
        auto* type = new TypeObject("numpy.iinfo", nullptr, OK::Other);
        type->doc = "iinfo(int_type): machine limits for integer types";
        type->construct = iinfo_construct;
        type->getattr = iinfo_getattr;
        type->repr = iinfo_repr;
        type->str = iinfo_str;
        return type;
    }();
    return t;
}

// ---- the abstract scalar types (np.generic > np.number > np.integer > ...) ----

// Which concrete dtypes an abstract type covers.
struct Abstract {
    const char* name;
    bool (*covers)(DType);
};
const Abstract kAbstract[] = {
    {"generic", [](DType) { return true; }},
    {"number", [](DType t) { return kind(t) != DKind::Bool; }},
    {"integer", [](DType t) { return is_integer(t); }},
    {"signedinteger", [](DType t) { return kind(t) == DKind::Int; }},
    {"unsignedinteger", [](DType t) { return kind(t) == DKind::UInt; }},
    {"inexact", [](DType t) { return is_inexact(t); }},
    {"floating", [](DType t) { return is_float(t); }},
    {"complexfloating", [](DType t) { return is_complex(t); }},
};
constexpr size_t kNumAbstract = sizeof kAbstract / sizeof kAbstract[0];

// The types themselves: numpy/scalar_types.cpp (the scalar types derive from them).
TypeObject* abstract_type(size_t k) { return abstract_scalar_type(k); }
static_assert(kNumAbstractScalarTypes == sizeof kAbstract / sizeof kAbstract[0]);

int abstract_index(const Value& v) {
    if (!is_kind(v, OK::Type)) return -1;
    for (size_t k = 0; k < kNumAbstract; ++k)
        if (v.as<TypeObject>() == abstract_type(k)) return int(k);
    return -1;
}

// ---- functions ----

Value np_issubdtype(Interp& in, CallArgs& a) {
    expect_args(a, "issubdtype", 2, 2);
    int super = abstract_index(a.pos[1]);
    int sub = abstract_index(a.pos[0]);
    if (sub >= 0) {  // abstract <= abstract: walk the parents
        if (super < 0) return Value::boolean(false);
        for (const TypeObject* t = abstract_type(size_t(sub)); t; t = t->base)
            if (t == abstract_type(size_t(super))) return Value::boolean(true);
        return Value::boolean(false);
    }
    DType t = to_dtype(in, a.pos[0]);
    if (super >= 0) return Value::boolean(kAbstract[super].covers(t));
    return Value::boolean(to_dtype(in, a.pos[1]) == t);
}

Value np_isscalar(Interp&, CallArgs& a) {
    expect_args(a, "isscalar", 1, 1);
    const Value& v = a.pos[0];
    if (ArrayObj* x = as_array(v)) return Value::boolean(x->numpy_scalar);
    return Value::boolean(v.is_number() || as_complex(v) || is_kind(v, OK::Str));
}

// A dtype-like argument or the dtype of an array (for result_type / can_cast).
std::optional<DType> dtype_or_array(Interp& in, const Value& v) {
    if (ArrayObj* x = as_array(v)) return x->dtype;
    if (v.is_number()) return std::nullopt;
    return to_dtype(in, v);
}

Value np_result_type(Interp& in, CallArgs& a) {
    if (a.npos == 0) raise(types::ValueError, "at least one array or dtype is required");
    std::vector<Operand> ops;
    for (size_t k = 0; k < a.npos; ++k) {
        const Value& v = a.pos[k];
        if (v.is_number() || as_complex(v)) ops.push_back(operand_of(v));  // Python scalars are weak (NEP 50)
        else if (auto d = dtype_or_array(in, v)) ops.push_back(Operand::array(*d));
        else ops.push_back(operand_of(v));
    }
    return dtype_value(result_type(ops));
}

Value np_promote_types(Interp& in, CallArgs& a) {
    expect_args(a, "promote_types", 2, 2);
    return dtype_value(promote_types(to_dtype(in, a.pos[0]), to_dtype(in, a.pos[1])));
}

Value np_can_cast(Interp& in, CallArgs& a) {
    const Value* from = arg(a, 0, "from_");
    const Value* to = arg(a, 1, "to");
    if (!from || !to) raise(types::TypeError, "can_cast() missing required argument 'to' (pos 2)");
    Casting casting = Casting::Safe;
    if (const Value* c = arg(a, 2, "casting")) {
        const std::string& s = str_of(*c, "casting");
        if (s == "no") casting = Casting::No;
        else if (s == "equiv") casting = Casting::Equiv;
        else if (s == "safe") casting = Casting::Safe;
        else if (s == "same_kind") casting = Casting::SameKind;
        else if (s == "unsafe") casting = Casting::Unsafe;
        else raise(types::ValueError, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got " + fmt::str_repr(s) + ")");
    }
    auto f = dtype_or_array(in, *from);
    if (!f)
        raise(types::TypeError, "can_cast() does not support Python ints, floats, and complex because the result used "
                                "to depend on the value.\nThis change was part of adopting NEP 50, we may explicitly "
                                "allow them again in the future.");
    return Value::boolean(can_cast(*f, to_dtype(in, *to), casting));
}

// The smallest dtype of the same kind that holds the value (NumPy's legacy
// value-based rule): ints prefer unsigned when non-negative, floats the
// narrowest type that does not overflow.
DType min_type_of(double f) {
    double m = std::fabs(f);
    if (!std::isfinite(f) || m <= 65504.0) return DType::Float16;
    if (m <= 3.4028234663852886e38) return DType::Float32;
    return DType::Float64;
}
DType min_type_of_int(int64_t v, bool is_unsigned_big) {
    if (is_unsigned_big) return DType::UInt64;
    if (v >= 0) return v <= 0xff ? DType::UInt8 : v <= 0xffff ? DType::UInt16 : v <= 0xffffffffLL ? DType::UInt32 : DType::UInt64;
    return v >= -128 ? DType::Int8 : v >= -32768 ? DType::Int16 : v >= INT32_MIN ? DType::Int32 : DType::Int64;
}

Value np_min_scalar_type(Interp&, CallArgs& a) {
    expect_args(a, "min_scalar_type", 1, 1);
    const Value& v = a.pos[0];
    if (v.is_bool()) return dtype_value(DType::Bool);
    if (v.is_int()) return dtype_value(min_type_of_int(v.i, false));
    if (v.is_float()) return dtype_value(min_type_of(v.f));
    ArrayObj* x = as_array(v);
    if (!x) raise(types::TypeError, std::string("min_scalar_type() does not support '") + type_name(v) + "'");
    if (x->ndim() > 0 || is_complex(x->dtype) || x->dtype == DType::Bool) return dtype_value(x->dtype);
    const uint8_t* p = host_view(x).data;
    if (x->dtype == DType::UInt64) {
        uint64_t u;
        std::memcpy(&u, p, 8);
        return dtype_value(min_type_of_int(int64_t(u), u > uint64_t(INT64_MAX)));
    }
    Value s = element_to_python(x, p);
    if (is_integer(x->dtype)) return dtype_value(min_type_of_int(s.as_int(), false));
    return dtype_value(min_type_of(s.as_float()));
}

}  // namespace

void add_type_info_functions(Interp&, ModuleObj* m) {
    m->set("finfo", Value::object(finfo_type()));
    m->set("iinfo", Value::object(iinfo_type()));
    for (size_t k = 0; k < kNumAbstract; ++k) m->set(kAbstract[k].name, Value::object(abstract_type(k)));
    static const FunctionSpec kFunctions[] = {
        {"issubdtype", np_issubdtype, "issubdtype(arg1, arg2)", "Returns True if first argument is a typecode lower/equal in type hierarchy."},
        {"isscalar", np_isscalar, "isscalar(element)", "Returns True if the type of element is a scalar type."},
        {"result_type", np_result_type, "result_type(*arrays_and_dtypes)", "The dtype NumPy's type promotion gives the arguments."},
        {"promote_types", np_promote_types, "promote_types(type1, type2)", "The smallest dtype both types can be safely cast to."},
        {"can_cast", np_can_cast, "can_cast(from_, to, casting='safe')", "True if the cast can occur under the casting rule."},
        {"min_scalar_type", np_min_scalar_type, "min_scalar_type(a)", "The smallest dtype of the same kind that holds a's value."},
    };
    add_functions(m, kFunctions);
}

}  // namespace gpy
