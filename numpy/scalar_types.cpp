#include "numpy/scalar_types.h"

#include <cmath>
#include <mutex>
#include <vector>

#include "lang/interp.h"
#include "lang/method_args.h"
#include "numpy/array.h"

namespace gpy {

namespace {

// The Python value of a scalar (computing it if pending).
Value python_value(const Value& v) { return types::ndarray->scalar(v); }

bool scalar_index(const Value& v, int64_t& out) {
    const ArrayObj* a = v.as<ArrayObj>();
    if (!is_integer(a->dtype)) return false;
    Value p = python_value(v);
    out = p.as_int();  // uint64 past int64 wraps: gpy has no big ints (docs/differences.md)
    return true;
}

// == as containers see it ({1: 'a'}[np.int64(1)], list.index): the Python values'.
bool scalar_equal(Interp& in, const Value& a, const Value& b) {
    Value other = b;
    if (ArrayObj* o = as_array(b); o && o->numpy_scalar) other = python_value(b);
    else if (as_array(b)) return false;
    return values_equal(in, python_value(a), other);
}

std::string scalar_format(Interp& in, const Value& v, std::string_view spec) {
    return format_value(in, python_value(v), spec);
}

// NumPy indexes the scalar as a 0-d array (x[()] is x, x[...] a 0-d array,
// x[None] a 1-d one), and any failure is "invalid index to scalar variable.".
Value scalar_getitem(Interp& in, const Value& v, const Value& index) {
    ArrayObj* a = v.as<ArrayObj>();
    materialize(a);
    Value zero_d = array_from_buffer(a->buffer, a->dtype, {}, {}, a->offset);
    try {
        return types::ndarray->getitem(in, zero_d, index);
    } catch (const GpyError& e) {
        const TypeObject* t = e.obj()->type;
        if (t->is_subtype_of(types::KeyboardInterrupt) || t->is_subtype_of(types::MemoryError)) throw;
        raise(types::IndexError, "invalid index to scalar variable.");
    }
}

// ---- methods of the scalar types ----

// An array method called on a scalar (pos[0]: the method, pos[1]: the
// scalar): it runs on the scalar as a 0-d array, and a 0-d array result is
// returned as a scalar (NumPy's PyArray_Return: np.float64(3).T and
// .copy() are np.float64; an out= array itself is not changed).
Value scalar_method(Interp& in, CallArgs& a) {
    CallArgs rest{a.pos + 1, a.npos - 1, a.kw};
    Value r = in.call(a.pos[0], rest);
    ArrayObj* x = as_array(r);
    if (!x || x->ndim() != 0 || x->numpy_scalar) return r;
    return array_from_node(array_node(x), true);
}

// float.is_integer and float.as_integer_ratio, on the Python float.
Value m_is_integer(Interp&, CallArgs& a) {
    expect_args(a, "is_integer", 1, 1);
    double x = python_value(a.pos[0]).as_float();  // (installed on np.floating and np.integer only)
    return Value::boolean(std::isfinite(x) && x == std::floor(x));
}

Value m_as_integer_ratio(Interp&, CallArgs& a) {
    expect_args(a, "as_integer_ratio", 1, 1);
    Value v = python_value(a.pos[0]);
    if (v.is_intlike()) return make_tuple({Value::integer(v.as_int()), Value::integer(1)});
    double x = v.as_float();
    if (std::isnan(x)) raise(types::ValueError, "cannot convert NaN to integer ratio");
    if (std::isinf(x)) raise(types::OverflowError, "cannot convert Infinity to integer ratio");
    // x = m * 2**e with m made integral; then the power of two goes to one side.
    int e = 0;
    double m = std::frexp(x, &e);
    while (m != std::floor(m)) {
        m *= 2;
        --e;
    }
    int bits = m == 0 ? 0 : std::ilogb(m) + 1;
    if (e > 0 ? bits + e > 63 : -e > 62) raise(types::OverflowError, "integer overflow (the ratio needs more than 64 bits)");
    int64_t num = int64_t(m), den = 1;
    if (e > 0) num = int64_t(uint64_t(num) << e);
    else den = int64_t(1) << -e;
    return make_tuple({Value::integer(num), Value::integer(den)});
}

Value m_bit_count(Interp&, CallArgs& a) {
    expect_args(a, "bit_count", 1, 1);
    int64_t i = python_value(a.pos[0]).as_int();
    uint64_t m = i < 0 ? uint64_t(0) - uint64_t(i) : uint64_t(i);
    return Value::integer(__builtin_popcountll(m));
}

// round(x[, ndigits]): np.round (round half to even after scaling by
// 10**ndigits, so round(np.float64(2.675), 2) is 2.68), a Python int
// without ndigits.
Value m_round(Interp& in, CallArgs& a) {
    if (a.npos < 1 || a.npos > 2) raise(types::TypeError, "__round__() takes at most 1 argument");
    if (a.npos == 1 || a.pos[1].is_none()) {
        Value x = python_value(a.pos[0]);
        if (x.is_intlike()) return Value::integer(x.as_int());
        if (!x.is_float()) raise(types::TypeError, std::string("type ") + type_name(a.pos[0]) + " doesn't define __round__ method");
        if (std::isnan(x.f)) raise(types::ValueError, "cannot convert float NaN to integer");
        if (std::isinf(x.f)) raise(types::OverflowError, "cannot convert float infinity to integer");
        double r = std::nearbyint(x.f);  // half to even
        if (std::fabs(r) >= 9.2233720368547758e18) raise(types::OverflowError, "integer overflow");
        return Value::integer(int64_t(r));
    }
    const Value* round = types::ndarray->lookup("round");
    return in.call(*round, a);
}

std::vector<TypeObject*>& scalar_types() {
    static std::vector<TypeObject*> all;  // filled once, under init_array_types' once_flag
    return all;
}

}  // namespace

TypeObject* abstract_scalar_type(size_t k) {
    static TypeObject* types_[kNumAbstractScalarTypes];
    static std::once_flag once;
    std::call_once(once, [] {
        static const char* const names[] = {"generic", "number", "integer", "signedinteger", "unsignedinteger",
                                            "inexact", "floating", "complexfloating"};
        static const int parent[] = {-1, 0, 1, 2, 2, 1, 5, 5};
        for (size_t i = 0; i < kNumAbstractScalarTypes; ++i) {
            TypeObject* base = parent[i] < 0 ? nullptr : types_[parent[i]];
            types_[i] = new TypeObject(std::string("numpy.") + names[i], base, OK::Other);
            types_[i]->doc = "abstract NumPy scalar type";
        }
    });
    return types_[k];
}

TypeObject* make_scalar_type(DType t, NativeFn construct) {
    size_t parent = t == DType::Bool ? 0 : kind(t) == DKind::Int ? 3 : kind(t) == DKind::UInt ? 4 : is_float(t) ? 6 : 7;
    auto* s = new TypeObject(std::string("numpy.") + name(t), abstract_scalar_type(parent), OK::Array);
    s->construct = construct;
    s->doc = std::string("NumPy's ") + name(t) + " scalar type";
    // NumPy's float64 and complex128 derive from Python's float and complex.
    if (t == DType::Float64) s->base2 = types::real;
    if (t == DType::Complex128) s->base2 = types::complex;
    s->getitem = scalar_getitem;
    s->equal = scalar_equal;
    s->index = scalar_index;
    s->format = scalar_format;
    // no len, iter or setitem: "has no len()", "is not iterable", "does not support item assignment"
    scalar_types().push_back(s);
    return s;
}

void inherit_array_methods(const TypeObject* ndarray) {
    // A scalar is a 0-d array inside: the array slots serve it, except
    // where a scalar differs (set by make_scalar_type).
    for (TypeObject* s : scalar_types()) {
        s->binary = ndarray->binary;
        s->unary = ndarray->unary;
        s->compare = ndarray->compare;
        s->truth = ndarray->truth;
        s->inplace = ndarray->inplace;
        s->repr = ndarray->repr;
        s->str = ndarray->str;
        s->getattr = ndarray->getattr;
        s->hash = ndarray->hash;
        s->scalar = ndarray->scalar;
        s->on_bind = ndarray->on_bind;
    }
    // The array methods, each behind scalar_method (its result as NumPy's
    // scalar methods give it).
    TypeObject* generic = abstract_scalar_type(0);
    for (const auto& [attr, method] : ndarray->dict) {
        if (!is_kind(method, OK::Builtin)) {
            generic->dict.emplace(attr, method);
            continue;
        }
        const auto* m = method.as<BuiltinObj>();
        auto* w = new BuiltinObj(m->name, scalar_method, m->signature, m->doc);
        w->bound = method;
        w->make_immortal();
        generic->dict.emplace(attr, Value::object(w));
    }
    def_method(generic, "__round__", m_round, "__round__(ndigits=None)", "round(x[, ndigits]) as np.round; a Python int without ndigits.");
    def_method(abstract_scalar_type(6), "is_integer", m_is_integer, "is_integer()", "Return True if the floating point number is finite with integral value.");
    def_method(abstract_scalar_type(6), "as_integer_ratio", m_as_integer_ratio, "as_integer_ratio()", "Return the integer ratio of the value, as float.as_integer_ratio.");
    def_method(abstract_scalar_type(2), "is_integer", m_is_integer, "is_integer()", "Return True (an integer scalar is integral).");
    def_method(abstract_scalar_type(2), "bit_count", m_bit_count, "bit_count()", "Number of ones in the binary representation of the absolute value.");
    def_method(abstract_scalar_type(2), "as_integer_ratio", m_as_integer_ratio, "as_integer_ratio()", "Return the pair (value, 1).");
}

}  // namespace gpy
