// Python semantics of the operators and object protocols: truth, repr/str,
// equality and hashing, arithmetic, comparisons, attribute and item access.
#include <unistd.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

#include "lang/utf8.h"
#include "lang/format.h"
#include "base/interrupt.h"
#include "base/python_error.h"
#include "lang/interp.h"

namespace gpy {

bool truthy(const Value& v) {
    switch (v.kind) {
        case VK::Undef: case VK::None: return false;
        case VK::Bool: return v.b;
        case VK::Int: return v.i != 0;
        case VK::Float: return v.f != 0.0;
        case VK::Obj: break;
    }
    switch (v.o->type->kind) {
        case OK::Str: return !v.as<StrObj>()->s.empty();
        case OK::List: return !v.as<ListObj>()->items.empty();
        case OK::Tuple: return !v.as<TupleObj>()->items.empty();
        case OK::Dict: return v.as<DictObj>()->table.live != 0;
        case OK::Set: return v.as<SetObj>()->table.live != 0;
        case OK::Range: return v.as<RangeObj>()->count() != 0;
        case OK::DictView: return v.as<DictViewObj>()->dict->table.live != 0;
        default: return v.o->type->truth ? v.o->type->truth(v) : true;
    }
}

// ---- repr / str ----

namespace {

// Guards against infinite recursion when a container contains itself.
struct ReprGuard {
    static thread_local std::vector<const Object*> active;
    bool recursive = false;
    const Object* o;
    explicit ReprGuard(const Object* obj) : o(obj) {
        for (auto* a : active)
            if (a == obj) recursive = true;
        if (!recursive) active.push_back(obj);
    }
    ~ReprGuard() { if (!recursive) active.pop_back(); }
};
thread_local std::vector<const Object*> ReprGuard::active;

std::string address_of(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)(uintptr_t)p);
    return buf;
}

std::string join_repr(Interp& in, const std::vector<Value>& items) {
    std::string out;
    for (size_t k = 0; k < items.size(); ++k) {
        if (k) out += ", ";
        out += repr(in, items[k]);
    }
    return out;
}

}  // namespace

std::string repr(Interp& in, const Value& v) {
    switch (v.kind) {
        case VK::Undef: return "<undefined>";
        case VK::None: return "None";
        case VK::Bool: return v.b ? "True" : "False";
        case VK::Int: return fmt::int_to_string(v.i);
        case VK::Float: return fmt::float_repr(v.f);
        case VK::Obj: break;
    }
    in.check_native_stack();
    // Nesting counts against the recursion limit, as in CPython: a list
    // nested 400k deep raises at once instead of copying ever longer strings.
    struct Depth {
        Interp& in;
        explicit Depth(Interp& i) : in(i) {
            if (++in.repr_depth + in.depth > in.recursion_limit) {
                --in.repr_depth;
                raise(types::RecursionError, "maximum recursion depth exceeded while getting the repr of an object");
            }
        }
        ~Depth() { --in.repr_depth; }
    } depth(in);
    Object* o = v.o;
    if (o->type->repr) return o->type->repr(in, v);
    switch (o->type->kind) {
        case OK::Str: return fmt::str_repr(v.as<StrObj>()->s);
        case OK::List: {
            ReprGuard g(o);
            if (g.recursive) return "[...]";
            return "[" + join_repr(in, v.as<ListObj>()->items) + "]";
        }
        case OK::Tuple: {
            if (o->type == types::ellipsis) return "Ellipsis";
            ReprGuard g(o);
            if (g.recursive) return "(...)";
            auto& items = v.as<TupleObj>()->items;
            return "(" + join_repr(in, items) + (items.size() == 1 ? ",)" : ")");
        }
        case OK::Dict: {
            ReprGuard g(o);
            if (g.recursive) return "{...}";
            std::string out = "{";
            bool first = true;
            for (auto& e : v.as<DictObj>()->table.entries) {
                if (e.key.is_undef()) continue;
                if (!first) out += ", ";
                first = false;
                out += repr(in, e.key) + ": " + repr(in, e.value);
            }
            return out + "}";
        }
        case OK::Set: {
            auto& t = v.as<SetObj>()->table;
            if (t.live == 0) return "set()";
            ReprGuard g(o);
            if (g.recursive) return "set(...)";
            std::string out = "{";
            bool first = true;
            for (auto& e : t.entries) {
                if (e.key.is_undef()) continue;
                if (!first) out += ", ";
                first = false;
                out += repr(in, e.key);
            }
            return out + "}";
        }
        case OK::DictView: {
            auto* dv = v.as<DictViewObj>();
            std::vector<Value> items;
            for (auto& e : dv->dict->table.entries) {
                if (e.key.is_undef()) continue;
                if (dv->which == 0) items.push_back(e.key);
                else if (dv->which == 1) items.push_back(e.value);
                else items.push_back(make_tuple({e.key, e.value}));
            }
            return o->type->name + "([" + join_repr(in, items) + "])";
        }
        case OK::Function: return "<function " + v.as<FunctionObj>()->info->qualname + " at " + address_of(o) + ">";
        case OK::Builtin: {
            auto* b = v.as<BuiltinObj>();
            if (!b->bound.is_undef())
                return "<built-in method " + b->name + " of " + type_name(b->bound) + " object at " + address_of(b->bound.is_obj() ? b->bound.o : nullptr) + ">";
            return "<built-in function " + b->name + ">";
        }
        case OK::BoundMethod: {
            auto* m = v.as<BoundMethodObj>();
            std::string fname = is_kind(m->func, OK::Function) ? m->func.as<FunctionObj>()->info->qualname
                                : is_kind(m->func, OK::Builtin) ? m->func.as<BuiltinObj>()->name : "?";
            return "<bound method " + fname + " of " + repr(in, m->self) + ">";
        }
        case OK::Module: {
            auto* m = v.as<ModuleObj>();
            return "<module '" + m->name + "' (built-in)>";
        }
        case OK::Type: {
            const auto* t = v.as<TypeObject>();
            return "<class '" + (t->heap ? t->module_name + "." + t->qualname : t->name) + "'>";
        }
        case OK::Exception: {
            auto* e = v.as<ExceptionObj>();
            auto& args = e->args.as<TupleObj>()->items;
            if (args.size() == 1) return e->type->name + "(" + repr(in, args[0]) + ")";
            return e->type->name + "(" + join_repr(in, args) + ")";
        }
        case OK::Range: {
            auto* r = v.as<RangeObj>();
            return "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop) +
                   (r->step != 1 ? ", " + std::to_string(r->step) : "") + ")";
        }
        case OK::Iter: return "<" + std::string(static_cast<IterObj*>(o)->type_name()) + " object at " + address_of(o) + ">";
        case OK::Cell: return "<cell at " + address_of(o) + ">";
        default: break;
    }
    if (o->type == types::slice) {
        auto* s = v.as<SliceObj>();
        return "slice(" + repr(in, s->start) + ", " + repr(in, s->stop) + ", " + repr(in, s->step) + ")";
    }
    return "<" + o->type->name + " object at " + address_of(o) + ">";
}

std::string to_str(Interp& in, const Value& v) {
    if (is_kind(v, OK::Str)) return v.as<StrObj>()->s;
    if (v.is_obj() && v.o->type->str) return v.o->type->str(in, v);
    if (is_kind(v, OK::Exception)) {
        auto* e = v.as<ExceptionObj>();
        auto& args = e->args.as<TupleObj>()->items;
        if (args.empty()) return "";
        if (args.size() == 1) {
            if (is_kind(args[0], OK::Str) && !e->type->is_subtype_of(types::KeyError)) return args[0].as<StrObj>()->s;
            return repr(in, args[0]);
        }
        return repr(in, e->args);
    }
    return repr(in, v);
}

std::string format_value(Interp& in, const Value& v, std::string_view spec) {
    try {
        switch (v.kind) {
            case VK::Bool: return fmt::format_bool(v.b, spec);
            case VK::Int: return fmt::format_int(v.i, spec);
            case VK::Float: return fmt::format_float(v.f, spec);
            default: break;
        }
        if (v.is_obj() && v.o->type->format) return v.o->type->format(in, v, spec);
        if (v.is_obj() && v.o->type->scalar && !spec.empty()) return format_value(in, v.o->type->scalar(v), spec);
        if (is_kind(v, OK::Str)) return fmt::format_str(v.as<StrObj>()->s, spec);
    } catch (const fmt::FormatError& e) {
        raise(e.py_type == "OverflowError" ? types::OverflowError : types::ValueError, e.what());
    } catch (const std::length_error&) {
        raise(types::MemoryError, "format width too large");
    }
    if (spec.empty()) return to_str(in, v);
    raise(types::TypeError, std::string("unsupported format string passed to ") + type_name(v) + ".__format__");
}

// ---- equality and hashing ----

// Exact comparison of an int with a float (no rounding of large ints).
static int compare_int_float(int64_t a, double b) {
    long double la = (long double)a, lb = (long double)b;  // x87 long double holds any int64 exactly
    return la < lb ? -1 : la > lb ? 1 : 0;
}

bool values_equal(Interp& in, const Value& a, const Value& b) {
    if (a.is_obj() && a.o->type->equal) return a.o->type->equal(in, a, b);
    if (b.is_obj() && b.o->type->equal) return b.o->type->equal(in, b, a);
    if (a.is_number() && b.is_number()) {
        if (a.is_float() || b.is_float()) {
            if (a.is_float() && b.is_float()) return a.f == b.f;
            if (a.is_float()) return !std::isnan(a.f) && compare_int_float(b.as_int(), a.f) == 0;
            return !std::isnan(b.f) && compare_int_float(a.as_int(), b.f) == 0;
        }
        return a.as_int() == b.as_int();
    }
    if (a.kind != b.kind) return false;
    if (a.kind == VK::None || a.kind == VK::Undef) return true;
    if (a.o == b.o) return true;
    TypeObject* ta = a.o->type;
    TypeObject* tb = b.o->type;
    if (ta->kind != tb->kind) return false;
    switch (ta->kind) {
        case OK::Str: return a.as<StrObj>()->s == b.as<StrObj>()->s;
        case OK::List: case OK::Tuple: {
            if (ta != tb) return false;
            auto& x = ta->kind == OK::List ? a.as<ListObj>()->items : a.as<TupleObj>()->items;
            auto& y = ta->kind == OK::List ? b.as<ListObj>()->items : b.as<TupleObj>()->items;
            if (x.size() != y.size()) return false;
            in.check_native_stack();
            for (size_t k = 0; k < x.size(); ++k)
                if (!values_equal(in, x[k], y[k])) return false;
            return true;
        }
        case OK::Dict: {
            auto& x = a.as<DictObj>()->table;
            auto& y = b.as<DictObj>()->table;
            if (x.live != y.live) return false;
            for (auto& e : x.entries) {
                if (e.key.is_undef()) continue;
                long k = y.find(in, e.key);
                if (k < 0 || !values_equal(in, e.value, y.entries[size_t(k)].value)) return false;
            }
            return true;
        }
        case OK::Set: {
            auto& x = a.as<SetObj>()->table;
            auto& y = b.as<SetObj>()->table;
            if (x.live != y.live) return false;
            for (auto& e : x.entries)
                if (!e.key.is_undef() && y.find(in, e.key) < 0) return false;
            return true;
        }
        case OK::Range: {
            auto* x = a.as<RangeObj>();
            auto* y = b.as<RangeObj>();
            uint64_t n = x->count();
            if (n != y->count()) return false;
            if (n == 0) return true;
            if (x->start != y->start) return false;
            return n == 1 || x->step == y->step;
        }
        case OK::BoundMethod: {
            auto* x = a.as<BoundMethodObj>();
            auto* y = b.as<BoundMethodObj>();
            return x->self.is_obj() && y->self.is_obj() && x->self.o == y->self.o && values_equal(in, x->func, y->func);
        }
        default: return false;
    }
}

// CPython's numeric hash: equal numbers hash equal across int, float, bool.
static constexpr uint64_t kHashModulus = (uint64_t(1) << 61) - 1;

static int64_t hash_int(int64_t v) {
    uint64_t m = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    int64_t h = int64_t(m % kHashModulus);
    if (v < 0) h = -h;
    return h == -1 ? -2 : h;
}

int64_t hash_double(double v) {
    if (std::isinf(v)) return v > 0 ? 314159 : -314159;
    if (std::isnan(v)) return 0;
    int e;
    double m = std::frexp(v, &e);
    int sign = 1;
    if (m < 0) { sign = -1; m = -m; }
    uint64_t x = 0;
    while (m) {
        x = ((x << 28) & kHashModulus) | x >> (61 - 28);
        m *= 268435456.0;
        e -= 28;
        uint64_t y = uint64_t(m);
        m -= double(y);
        x += y;
        if (x >= kHashModulus) x -= kHashModulus;
    }
    e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
    x = ((x << e) & kHashModulus) | x >> (61 - e);
    int64_t h = int64_t(x) * sign;
    return h == -1 ? -2 : h;
}

uint64_t hash_value(Interp& in, const Value& v) {
    switch (v.kind) {
        case VK::Undef: case VK::None: return 0xFCA86420u;
        case VK::Bool: return uint64_t(hash_int(v.b));
        case VK::Int: return uint64_t(hash_int(v.i));
        case VK::Float: return uint64_t(hash_double(v.f));
        case VK::Obj: break;
    }
    switch (v.o->type->kind) {
        case OK::Str: {
            auto* s = v.as<StrObj>();
            if (s->hash == -1) {
                uint64_t h = 1469598103934665603ull;  // FNV-1a
                for (unsigned char c : s->s) h = (h ^ c) * 1099511628211ull;
                s->hash = int64_t(h & 0x7FFFFFFFFFFFFFFFull);
                if (s->hash == -1) s->hash = -2;
            }
            return uint64_t(s->hash);
        }
        case OK::Tuple: {
            in.check_native_stack();
            uint64_t h = 0x27D4EB2F165667C5ull;
            for (auto& item : v.as<TupleObj>()->items) {
                h ^= hash_value(in, item) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
            }
            return h;
        }
        case OK::List: case OK::Dict: case OK::Set: case OK::DictView:
            raise(types::TypeError, std::string("unhashable type: '") + type_name(v) + "'");
        default:
            if (v.o->type->hash) return v.o->type->hash(in, v);
            return uint64_t(uintptr_t(v.o) >> 4);
    }
}

// ---- arithmetic ----

[[noreturn]] static void unsupported(BinOp op, const Value& a, const Value& b) {
    raise(types::TypeError, std::string("unsupported operand type(s) for ") + binop_symbol(op) + ": '" + type_name(a) +
                                "' and '" + type_name(b) + "'");
}

[[noreturn]] static void int_overflow() { raise(types::OverflowError, "integer overflow"); }

static int64_t int_floordiv(int64_t a, int64_t b) {
    if (b == 0) raise(types::ZeroDivisionError, "integer division or modulo by zero");
    if (a == INT64_MIN && b == -1) int_overflow();
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

static int64_t int_mod(int64_t a, int64_t b) {
    if (b == 0) raise(types::ZeroDivisionError, "integer modulo by zero");
    if (b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

static Value int_pow(int64_t base, int64_t exp) {
    if (exp < 0) {
        if (base == 0) raise(types::ZeroDivisionError, "0.0 cannot be raised to a negative power");
        return Value::real(std::pow(double(base), double(exp)));
    }
    int64_t result = 1;
    while (exp) {
        if (exp & 1)
            if (__builtin_mul_overflow(result, base, &result)) int_overflow();
        exp >>= 1;
        if (exp && __builtin_mul_overflow(base, base, &base)) int_overflow();
    }
    return Value::integer(result);
}

// CPython's float floor division and modulo (sign follows the divisor).
static void float_divmod(double vx, double wx, double& floordiv, double& mod) {
    mod = std::fmod(vx, wx);
    double div = (vx - mod) / wx;
    if (mod) {
        if ((wx < 0) != (mod < 0)) {
            mod += wx;
            div -= 1.0;
        }
    } else {
        mod = std::copysign(0.0, wx);
    }
    if (div) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
    } else {
        floordiv = std::copysign(0.0, vx / wx);
    }
}

static Value float_op(BinOp op, double a, double b, const Value& va, const Value& vb) {
    switch (op) {
        case BinOp::Add: return Value::real(a + b);
        case BinOp::Sub: return Value::real(a - b);
        case BinOp::Mul: return Value::real(a * b);
        case BinOp::Div:
            if (b == 0) raise(types::ZeroDivisionError, va.is_float() ? "float division by zero" : "division by zero");
            return Value::real(a / b);
        case BinOp::FloorDiv: {
            if (b == 0) raise(types::ZeroDivisionError, "float floor division by zero");
            double q, m;
            float_divmod(a, b, q, m);
            return Value::real(q);
        }
        case BinOp::Mod: {
            if (b == 0) raise(types::ZeroDivisionError, "float modulo");
            double q, m;
            float_divmod(a, b, q, m);
            return Value::real(m);
        }
        case BinOp::Pow: {
            if (a == 0 && b < 0) raise(types::ZeroDivisionError, "0.0 cannot be raised to a negative power");
            // Python 3: a negative base with a fractional exponent gives a complex.
            if (a < 0 && b != std::floor(b) && std::isfinite(b)) return complex_power(a, 0, b, 0);
            double r = std::pow(a, b);
            if (std::isinf(r) && std::isfinite(a) && std::isfinite(b)) raise(types::OverflowError, "(34, 'Numerical result out of range')");
            return Value::real(r);
        }
        default: unsupported(op, va, vb);
    }
}

static Value repeat_seq(Interp& in, const Value& seq, int64_t n) {
    if (n < 0) n = 0;
    if (is_kind(seq, OK::Str)) {
        const std::string& s = seq.as<StrObj>()->s;
        int64_t bytes;  // CPython: past PY_SSIZE_T_MAX an OverflowError, else MemoryError when it cannot fit
        if (__builtin_mul_overflow(int64_t(s.size()), n, &bytes)) raise(types::OverflowError, "repeated string is too long");
        check_host_bytes(in, uint64_t(bytes));
        std::string out;
        out.reserve(s.size() * size_t(n));
        for (int64_t k = 0; k < n; ++k) out += s;
        return make_str(std::move(out));
    }
    auto& items = is_kind(seq, OK::List) ? seq.as<ListObj>()->items : seq.as<TupleObj>()->items;
    int64_t count;
    if (__builtin_mul_overflow(int64_t(items.size()), n, &count) || uint64_t(count) > UINT64_MAX / sizeof(Value)) raise(types::MemoryError, "");
    check_host_bytes(in, uint64_t(count) * sizeof(Value));
    std::vector<Value> out;
    out.reserve(items.size() * size_t(n));
    for (int64_t k = 0; k < n; ++k) out.insert(out.end(), items.begin(), items.end());
    return is_kind(seq, OK::List) ? make_list(std::move(out)) : make_tuple(std::move(out));
}

static bool is_seq(const Value& v) { return is_kind(v, OK::Str) || is_kind(v, OK::List) || is_kind(v, OK::Tuple); }

Value percent_format(Interp& in, const std::string& fmt, const Value& args);

static Value set_op(Interp& in, BinOp op, const Value& a, const Value& b) {
    auto& x = a.as<SetObj>()->table;
    auto& y = b.as<SetObj>()->table;
    auto* out = new SetObj();
    Value result = Value::object(out);
    switch (op) {
        case BinOp::BitOr:
            for (auto& e : x.entries) if (!e.key.is_undef()) out->table.set(in, e.key, Value::none());
            for (auto& e : y.entries) if (!e.key.is_undef()) out->table.set(in, e.key, Value::none());
            break;
        case BinOp::BitAnd:
            for (auto& e : x.entries) if (!e.key.is_undef() && y.find(in, e.key) >= 0) out->table.set(in, e.key, Value::none());
            break;
        case BinOp::Sub:
            for (auto& e : x.entries) if (!e.key.is_undef() && y.find(in, e.key) < 0) out->table.set(in, e.key, Value::none());
            break;
        case BinOp::BitXor:
            for (auto& e : x.entries) if (!e.key.is_undef() && y.find(in, e.key) < 0) out->table.set(in, e.key, Value::none());
            for (auto& e : y.entries) if (!e.key.is_undef() && x.find(in, e.key) < 0) out->table.set(in, e.key, Value::none());
            break;
        default: unsupported(op, a, b);
    }
    return result;
}

Value binary_op(Interp& in, BinOp op, const Value& a, const Value& b) {
    if (a.is_intlike() && b.is_intlike()) {
        int64_t x = a.as_int(), y = b.as_int(), out;
        bool both_bool = a.is_bool() && b.is_bool();
        switch (op) {
            case BinOp::Add: if (__builtin_add_overflow(x, y, &out)) int_overflow(); return Value::integer(out);
            case BinOp::Sub: if (__builtin_sub_overflow(x, y, &out)) int_overflow(); return Value::integer(out);
            case BinOp::Mul: if (__builtin_mul_overflow(x, y, &out)) int_overflow(); return Value::integer(out);
            case BinOp::Div:
                if (y == 0) raise(types::ZeroDivisionError, "division by zero");
                return Value::real(double(x) / double(y));
            case BinOp::FloorDiv: return Value::integer(int_floordiv(x, y));
            case BinOp::Mod: return Value::integer(int_mod(x, y));
            case BinOp::Pow: return int_pow(x, y);
            case BinOp::BitAnd: return both_bool ? Value::boolean(x & y) : Value::integer(x & y);
            case BinOp::BitOr: return both_bool ? Value::boolean(x | y) : Value::integer(x | y);
            case BinOp::BitXor: return both_bool ? Value::boolean(x ^ y) : Value::integer(x ^ y);
            case BinOp::LShift:
                if (y < 0) raise(types::ValueError, "negative shift count");
                if (x == 0) return Value::integer(0);
                if (y >= 63 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y))) int_overflow();
                return Value::integer(int64_t(uint64_t(x) << y));
            case BinOp::RShift:
                if (y < 0) raise(types::ValueError, "negative shift count");
                return Value::integer(y >= 63 ? (x < 0 ? -1 : 0) : x >> y);
            case BinOp::MatMul: unsupported(op, a, b);
        }
    }
    if (a.is_number() && b.is_number()) return float_op(op, a.as_float(), b.as_float(), a, b);
    if (a.is_obj() && a.o->type->binary) {
        Value r = a.o->type->binary(in, op, a, b);
        if (!r.is_undef()) return r;
    }
    if (b.is_obj() && b.o->type->binary) {
        Value r = b.o->type->binary(in, op, a, b);
        if (!r.is_undef()) return r;
    }
    // Sequences and containers.
    switch (op) {
        case BinOp::Add:
            if (is_kind(a, OK::Str) && is_kind(b, OK::Str)) return make_str(a.as<StrObj>()->s + b.as<StrObj>()->s);
            if (is_kind(a, OK::List) && is_kind(b, OK::List)) {
                std::vector<Value> out = a.as<ListObj>()->items;
                out.insert(out.end(), b.as<ListObj>()->items.begin(), b.as<ListObj>()->items.end());
                return make_list(std::move(out));
            }
            if (is_kind(a, OK::Tuple) && is_kind(b, OK::Tuple)) {
                std::vector<Value> out = a.as<TupleObj>()->items;
                out.insert(out.end(), b.as<TupleObj>()->items.begin(), b.as<TupleObj>()->items.end());
                return make_tuple(std::move(out));
            }
            if (is_kind(a, OK::Str)) raise(types::TypeError, std::string("can only concatenate str (not \"") + type_name(b) + "\") to str");
            if (is_kind(a, OK::List)) raise(types::TypeError, std::string("can only concatenate list (not \"") + type_name(b) + "\") to list");
            if (is_kind(a, OK::Tuple)) raise(types::TypeError, std::string("can only concatenate tuple (not \"") + type_name(b) + "\") to tuple");
            break;
        case BinOp::Mul:
            if (int64_t n; is_seq(a) && index_value(b, n)) return repeat_seq(in, a, n);
            if (int64_t n; is_seq(b) && index_value(a, n)) return repeat_seq(in, b, n);
            if (is_seq(a) || is_seq(b))
                raise(types::TypeError, std::string("can't multiply sequence by non-int of type '") + type_name(is_seq(a) ? b : a) + "'");
            break;
        case BinOp::Mod:
            if (is_kind(a, OK::Str)) return percent_format(in, a.as<StrObj>()->s, b);
            break;
        case BinOp::BitOr: case BinOp::BitAnd: case BinOp::Sub: case BinOp::BitXor:
            if (is_kind(a, OK::Set) && is_kind(b, OK::Set)) return set_op(in, op, a, b);
            if (op == BinOp::BitOr && is_kind(a, OK::Dict) && is_kind(b, OK::Dict)) {
                auto* out = new DictObj();
                Value r = Value::object(out);
                for (auto& e : a.as<DictObj>()->table.entries) if (!e.key.is_undef()) out->table.set(in, e.key, e.value);
                for (auto& e : b.as<DictObj>()->table.entries) if (!e.key.is_undef()) out->table.set(in, e.key, e.value);
                return r;
            }
            break;
        default: break;
    }
    unsupported(op, a, b);
}

Value inplace_op(Interp& in, BinOp op, Value& a, const Value& b) {
    // Mutable containers and uniquely-owned strings are updated in place.
    if (a.is_obj()) {
        if (a.o->type->inplace) {
            Value r = a.o->type->inplace(in, op, a, b);
            if (!r.is_undef()) return r;
        }
        OK k = a.o->type->kind;
        if (k == OK::List && op == BinOp::Add) {
            auto& items = a.as<ListObj>()->items;
            if (is_kind(b, OK::List)) {
                std::vector<Value> copy = b.as<ListObj>()->items;  // b may be a itself
                items.insert(items.end(), copy.begin(), copy.end());
            } else {
                std::vector<Value> extra = to_vector(in, b);
                items.insert(items.end(), extra.begin(), extra.end());
            }
            return a;
        }
        if (k == OK::Str && op == BinOp::Add && is_kind(b, OK::Str) && a.o->refcount == 1) {
            auto* s = a.as<StrObj>();
            s->s += b.as<StrObj>()->s;
            s->hash = -1;
            return std::move(a);
        }
        if (k == OK::Dict && op == BinOp::BitOr && is_kind(b, OK::Dict)) {
            for (auto& e : b.as<DictObj>()->table.entries)
                if (!e.key.is_undef()) a.as<DictObj>()->table.set(in, e.key, e.value);
            return a;
        }
        if (k == OK::Set && is_kind(b, OK::Set) && op == BinOp::BitOr) {
            for (auto& e : b.as<SetObj>()->table.entries)
                if (!e.key.is_undef()) a.as<SetObj>()->table.set(in, e.key, Value::none());
            return a;
        }
    }
    try {
        return binary_op(in, op, a, b);
    } catch (GpyError& e) {
        // Python names the augmented operator (`+=`) in the message.
        auto* ex = e.obj();
        if (ex->type == types::TypeError) {
            std::string msg = to_str(in, e.exc);
            std::string from = std::string("for ") + binop_symbol(op) + ":";
            size_t at = msg.find(from);
            if (at != std::string::npos && msg.rfind("unsupported operand", 0) == 0) {
                msg.replace(at, from.size(), std::string("for ") + binop_symbol(op) + "=:");
                ex->args = make_tuple({make_str(msg)});
            }
        }
        throw;
    }
}

Value unary_op(Interp& in, UnOp op, const Value& v) {
    if (v.is_obj() && v.o->type->unary && op != UnOp::Not) {
        Value r = v.o->type->unary(in, op, v);
        if (!r.is_undef()) return r;
    }
    switch (op) {
        case UnOp::Not: return Value::boolean(!truthy(v));
        case UnOp::Neg:
            if (v.is_intlike()) {
                if (v.as_int() == INT64_MIN) int_overflow();
                return Value::integer(-v.as_int());
            }
            if (v.is_float()) return Value::real(-v.f);
            raise(types::TypeError, std::string("bad operand type for unary -: '") + type_name(v) + "'");
        case UnOp::Pos:
            if (v.is_intlike()) return Value::integer(v.as_int());
            if (v.is_float()) return v;
            raise(types::TypeError, std::string("bad operand type for unary +: '") + type_name(v) + "'");
        case UnOp::Invert:
            if (v.is_intlike()) return Value::integer(~v.as_int());
            raise(types::TypeError, std::string("bad operand type for unary ~: '") + type_name(v) + "'");
    }
    return Value::none();
}

// ---- comparisons ----

// Three-way ordering for `<`-family operators; raises for unorderable types.
static int order(Interp& in, CmpOp op, const Value& a, const Value& b, bool& unordered) {
    unordered = false;
    if (a.is_number() && b.is_number()) {
        if (a.is_float() || b.is_float()) {
            if ((a.is_float() && std::isnan(a.f)) || (b.is_float() && std::isnan(b.f))) { unordered = true; return 0; }
            if (a.is_float() && b.is_float()) return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
            if (a.is_float()) return -compare_int_float(b.as_int(), a.f);
            return compare_int_float(a.as_int(), b.f);
        }
        int64_t x = a.as_int(), y = b.as_int();
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (is_kind(a, OK::Str) && is_kind(b, OK::Str)) {
        int c = a.as<StrObj>()->s.compare(b.as<StrObj>()->s);  // byte order == code point order for UTF-8
        return c < 0 ? -1 : c > 0 ? 1 : 0;
    }
    bool lists = is_kind(a, OK::List) && is_kind(b, OK::List);
    bool tuples = is_kind(a, OK::Tuple) && is_kind(b, OK::Tuple);
    if (lists || tuples) {
        auto& x = lists ? a.as<ListObj>()->items : a.as<TupleObj>()->items;
        auto& y = lists ? b.as<ListObj>()->items : b.as<TupleObj>()->items;
        for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
            if (values_equal(in, x[k], y[k])) continue;
            int c = order(in, op, x[k], y[k], unordered);
            return c;
        }
        return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
    }
    if (is_kind(a, OK::Set) && is_kind(b, OK::Set)) {
        // Subset ordering: encode as -1 (proper subset), 0 (equal), 1 (superset), else unordered.
        auto& x = a.as<SetObj>()->table;
        auto& y = b.as<SetObj>()->table;
        bool sub = true, super = true;
        for (auto& e : x.entries) if (!e.key.is_undef() && y.find(in, e.key) < 0) sub = false;
        for (auto& e : y.entries) if (!e.key.is_undef() && x.find(in, e.key) < 0) super = false;
        if (sub && super) return 0;
        if (sub) return -1;
        if (super) return 1;
        unordered = true;
        return 0;
    }
    raise(types::TypeError, std::string("'") + cmpop_symbol(op) + "' not supported between instances of '" +
                                type_name(a) + "' and '" + type_name(b) + "'");
}

bool contains(Interp& in, const Value& container, const Value& item) {
    if (container.is_obj()) {
        switch (container.o->type->kind) {
            case OK::Str: {
                if (!is_kind(item, OK::Str))
                    raise(types::TypeError, std::string("'in <string>' requires string as left operand, not ") + type_name(item));
                return container.as<StrObj>()->s.find(item.as<StrObj>()->s) != std::string::npos;
            }
            case OK::List: case OK::Tuple: {
                auto& items = is_kind(container, OK::List) ? container.as<ListObj>()->items : container.as<TupleObj>()->items;
                for (size_t k = 0; k < items.size(); ++k)
                    if ((items[k].kind == item.kind && items[k].i == item.i) || values_equal(in, items[k], item)) return true;
                return false;
            }
            case OK::Dict: return container.as<DictObj>()->table.find(in, item) >= 0;
            case OK::Set: return container.as<SetObj>()->table.find(in, item) >= 0;
            case OK::DictView: {
                auto* dv = container.as<DictViewObj>();
                if (dv->which == 0) return dv->dict->table.find(in, item) >= 0;
                break;
            }
            case OK::Range: {
                auto* r = container.as<RangeObj>();
                if (item.is_intlike() || (item.is_float() && item.f == std::floor(item.f) && std::isfinite(item.f))) {
                    if (item.is_float() && std::fabs(item.f) > 9e18) return false;
                    int64_t x = item.is_float() ? int64_t(item.f) : item.as_int();
                    if (r->step > 0 ? (x < r->start || x >= r->stop) : (x > r->start || x <= r->stop)) return false;
                    // The distance from start, unsigned: it may pass int64.
                    uint64_t dist = r->step > 0 ? uint64_t(x) - uint64_t(r->start) : uint64_t(r->start) - uint64_t(x);
                    uint64_t st = r->step > 0 ? uint64_t(r->step) : uint64_t(-(r->step + 1)) + 1;
                    return dist % st == 0;
                }
                return false;
            }
            case OK::Iter: break;
            default: {
                // A native type's __contains__ (deque), else its iterator.
                if (const Value* m = container.o->type->lookup("__contains__")) {
                    Value args[2] = {container, item};
                    CallArgs c{args, 2, nullptr};
                    return truthy(in.call(*m, c));
                }
                if (container.o->type->iter && !(container.o->type->heap && !class_defines(container.o->type, "__iter__") &&
                                                 !class_defines(container.o->type, "__getitem__")))
                    break;
                raise(types::TypeError, std::string("argument of type '") + type_name(container) + "' is not iterable");
            }
        }
        bool found = false;
        for_each(in, container, [&](const Value& v) { found = values_equal(in, v, item); return !found; });
        return found;
    }
    raise(types::TypeError, std::string("argument of type '") + type_name(container) + "' is not iterable");
}

namespace {
// The built-in comparison, after any type's compare slot declined. It must
// never dispatch back to the slots: a slot that declines both ways (an
// array against None) would otherwise recurse until the stack overflows.
bool compare_builtin(Interp& in, CmpOp op, const Value& a, const Value& b) {
    switch (op) {
        case CmpOp::Eq: return values_equal(in, a, b);
        case CmpOp::Ne: return !values_equal(in, a, b);
        case CmpOp::Is: return a.kind == b.kind && (a.kind != VK::Obj ? (a.kind == VK::None || a.i == b.i) : a.o == b.o);
        case CmpOp::IsNot: return !compare_op(in, CmpOp::Is, a, b);
        case CmpOp::In: return contains(in, b, a);
        case CmpOp::NotIn: return !contains(in, b, a);
        default: break;
    }
    bool unordered;
    int c = order(in, op, a, b, unordered);
    if (unordered) return false;
    switch (op) {
        case CmpOp::Lt: return c < 0;
        case CmpOp::Gt: return c > 0;
        case CmpOp::Le: return c <= 0;
        case CmpOp::Ge: return c >= 0;
        default: return false;
    }
}
}  // namespace

bool compare_op(Interp& in, CmpOp op, const Value& a, const Value& b) {
    if (op != CmpOp::Is && op != CmpOp::IsNot && op != CmpOp::In && op != CmpOp::NotIn &&
        ((a.is_obj() && a.o->type->compare) || (b.is_obj() && b.o->type->compare)))
        return truthy(rich_compare(in, op, a, b));
    return compare_builtin(in, op, a, b);
}

Value rich_compare(Interp& in, CmpOp op, const Value& a, const Value& b) {
    if (a.is_obj() && a.o->type->compare) {
        Value r = a.o->type->compare(in, op, a, b);
        if (!r.is_undef()) return r;
    }
    if (b.is_obj() && b.o->type->compare) {
        Value r = b.o->type->compare(in, op, a, b);
        if (!r.is_undef()) return r;
    }
    return Value::boolean(compare_builtin(in, op, a, b));
}

std::string memory_error_text(const std::exception& e) {
    std::string what = e.what();
    return what == std::bad_alloc().what() ? "out of host memory" : what;
}

void check_host_bytes(Interp& in, uint64_t bytes) {
    static const uint64_t physical = [] {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
        return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : UINT64_MAX;
    }();
    uint64_t budget = physical;
    if (in.cfg.max_array_bytes) budget = std::min<uint64_t>(budget, in.cfg.max_array_bytes);
    if (bytes > budget) raise(types::MemoryError, "");
}

GpyError python_error_from(const std::exception& e) {
    if (dynamic_cast<const Interrupted*>(&e)) {  // Ctrl-C stopped native work (base/interrupt.h): taken now
        if (t_interrupt_flag) *t_interrupt_flag = 0;
        return GpyError{make_exception(types::KeyboardInterrupt, "")};
    }
    if (auto* fatal = dynamic_cast<const FatalError*>(&e)) return GpyError{make_exception(types::SystemExit, fatal->what())};
    if (auto* typed = dynamic_cast<const PythonTypedError*>(&e)) {  // a lower layer's NumPy error, by name
        // (UFuncTypeError belongs to the array module: it arrives as its base, TypeError.)
        for (TypeObject* t : types::all_exceptions())
            if (t->name == typed->kind) return GpyError{make_exception(t, e.what())};
        return GpyError{make_exception(types::TypeError, e.what())};
    }
    if (dynamic_cast<const std::bad_alloc*>(&e)) return GpyError{make_exception(types::MemoryError, memory_error_text(e))};
    if (dynamic_cast<const std::length_error*>(&e)) return GpyError{make_exception(types::MemoryError, "out of host memory")};
    return GpyError{make_exception(types::SystemError, std::string("internal error (please report): ") + e.what())};
}

// ---- attributes ----

Value get_attr(Interp& in, const Value& obj, const std::string& name) {
    TypeObject* t = type_of(obj);
    if (obj.is_obj() && t->getattr) {
        Value r = t->getattr(in, obj, name);
        if (!r.is_undef()) return r;
    }
    if (obj.is_obj()) {
        switch (t->kind) {
            case OK::Module: {
                auto* m = obj.as<ModuleObj>();
                if (const Value* v = m->get(name)) return *v;
                if (name == "__name__") return make_str(m->name);
                if (name == "__doc__") return make_str(m->doc);
                raise(types::AttributeError, "module '" + m->name + "' has no attribute '" + name + "'");
            }
            case OK::Type: {
                auto* ty = obj.as<TypeObject>();
                if (name == "__name__") return make_str(ty->name.substr(ty->name.rfind('.') + 1));
                if (Value v = type_attribute(in, ty, name); !v.is_undef()) return v;
                raise(types::AttributeError, "type object '" + ty->name + "' has no attribute '" + name + "'");
            }
            case OK::Exception: {
                auto* e = obj.as<ExceptionObj>();
                if (name == "args") return e->args;
                if (Value* v = e->attrs.find(name)) return *v;
                if (name == "value" && e->type->is_subtype_of(types::StopIteration)) {  // a generator's return value
                    const auto& items = e->args.as<TupleObj>()->items;
                    return items.empty() ? Value::none() : items[0];
                }
                if (name == "__cause__" || name == "__context__" || name == "__traceback__") return Value::none();
                if (name == "__suppress_context__") return Value::boolean(false);
                break;
            }
            case OK::Function:
                if (name == "__name__") return make_str(obj.as<FunctionObj>()->info->name);
                if (name == "__doc__") {  // the body's first statement, when a string
                    const Block& body = obj.as<FunctionObj>()->info->body;
                    if (!body.empty() && body[0]->kind == SK::Expr) {
                        const Expr& e = *static_cast<const ExprStmt&>(*body[0]).value;
                        if (e.kind == EK::Const && is_kind(static_cast<const ConstExpr&>(e).value, OK::Str)) return static_cast<const ConstExpr&>(e).value;
                    }
                    return Value::none();
                }
                if (name == "__module__") return make_str(obj.as<FunctionObj>()->module ? obj.as<FunctionObj>()->module->name : "__main__");
                if (name == "__qualname__") return make_str(obj.as<FunctionObj>()->info->qualname);
                break;
            case OK::Builtin:
                if (name == "__name__") return make_str(obj.as<BuiltinObj>()->name);
                if (name == "__doc__") return make_str(obj.as<BuiltinObj>()->doc);
                break;
            case OK::BoundMethod: {
                // A method's __name__, __self__ and __func__ (Python's).
                auto* m = obj.as<BoundMethodObj>();
                if (name == "__self__") return m->self;
                if (name == "__func__") return m->func;
                if (name == "__name__" || name == "__qualname__" || name == "__doc__") return get_attr(in, m->func, name);
                break;
            }
            case OK::Range: {
                auto* r = obj.as<RangeObj>();
                if (name == "start") return Value::integer(r->start);
                if (name == "stop") return Value::integer(r->stop);
                if (name == "step") return Value::integer(r->step);
                break;
            }
            default:
                if (t == types::slice) {
                    auto* s = obj.as<SliceObj>();
                    if (name == "start") return s->start;
                    if (name == "stop") return s->stop;
                    if (name == "step") return s->step;
                }
                break;
        }
    } else if (obj.is_number()) {
        if (name == "real") return obj.is_float() ? obj : Value::integer(obj.as_int());
        if (name == "imag") return obj.is_float() ? Value::real(0.0) : Value::integer(0);
    }
    if (const Value* m = t->lookup(name)) {
        if (is_kind(*m, OK::Builtin) || is_kind(*m, OK::Function))
            return Value::object(new BoundMethodObj(obj, *m));
        return *m;
    }
    raise(types::AttributeError, std::string("'") + t->name + "' object has no attribute '" + name + "'");
}

bool has_attr(Interp& in, const Value& obj, const std::string& name) {
    try {
        get_attr(in, obj, name);
        return true;
    } catch (GpyError& e) {
        if (e.obj()->type->is_subtype_of(types::AttributeError)) return false;
        throw;
    }
}

void set_attr(Interp& in, const Value& obj, const std::string& name, Value v) {
    if (obj.is_obj() && obj.o->type->setattr) { obj.o->type->setattr(in, obj, name, std::move(v)); return; }
    if (is_kind(obj, OK::Module)) { obj.as<ModuleObj>()->set(name, std::move(v)); return; }
    if (is_kind(obj, OK::Type)) {
        auto* t = obj.as<TypeObject>();
        if (t->heap) {  // a class's attribute (Counter.count += 1)
            t->dict[name] = std::move(v);
            return;
        }
        raise(types::TypeError, "cannot set '" + name + "' attribute of immutable type '" + t->name + "'");
    }
    if (type_of(obj)->lookup(name))
        raise(types::AttributeError, std::string("'") + type_name(obj) + "' object attribute '" + name + "' is read-only");
    raise(types::AttributeError, std::string("'") + type_name(obj) + "' object has no attribute '" + name + "'");
}

std::vector<std::string> attribute_names(Interp& in, const Value& v) {
    (void)in;
    std::vector<std::string> out;
    if (is_kind(v, OK::Module)) {
        auto* m = v.as<ModuleObj>();
        for (size_t k = 0; k < m->names.size(); ++k)
            if (!m->values[k].is_undef()) out.push_back(m->names[k]);
        return out;
    }
    for (const TypeObject* t = is_kind(v, OK::Type) ? v.as<TypeObject>() : type_of(v); t; t = t->base)
        for (auto& [k, _] : t->dict) out.push_back(k);
    return out;
}

// ---- items ----

int64_t length(Interp& in, const Value& v) {
    if (v.is_obj() && v.o->type->len) return v.o->type->len(in, v);
    if (v.is_obj()) {
        switch (v.o->type->kind) {
            case OK::Str: return count_code_points(v.as<StrObj>()->s);
            case OK::List: return int64_t(v.as<ListObj>()->items.size());
            case OK::Tuple: return int64_t(v.as<TupleObj>()->items.size());
            case OK::Dict: return int64_t(v.as<DictObj>()->table.live);
            case OK::Set: return int64_t(v.as<SetObj>()->table.live);
            case OK::DictView: return int64_t(v.as<DictViewObj>()->dict->table.live);
            case OK::Range: return v.as<RangeObj>()->length();
            default: break;
        }
    }
    raise(types::TypeError, std::string("object of type '") + type_name(v) + "' has no len()");
}

bool index_value(const Value& v, int64_t& out) {
    if (v.is_intlike()) {
        out = v.as_int();
        return true;
    }
    return v.is_obj() && v.o->type->index && v.o->type->index(v, out);
}

int64_t index_arg(const Value& v) {
    int64_t i;
    if (index_value(v, i)) return i;
    raise(types::TypeError, std::string("'") + type_name(v) + "' object cannot be interpreted as an integer");
}

int64_t to_index(const Value& v, const char* what) {
    int64_t i;
    if (index_value(v, i)) return i;
    if (std::strcmp(what, "slice indices") == 0)
        raise(types::TypeError, "slice indices must be integers or None or have an __index__ method");
    raise(types::TypeError, std::string(what) + " must be integers or slices, not " + type_name(v));
}


static Value str_getitem(const StrObj* s, const Value& index) {
    bool ascii = s->ascii();
    std::vector<size_t> offs;
    if (!ascii) offs = code_point_offsets(s->s);
    int64_t n = ascii ? int64_t(s->s.size()) : int64_t(offs.size() - 1);
    auto cp = [&](int64_t k) { return ascii ? s->s.substr(size_t(k), 1) : s->s.substr(offs[size_t(k)], offs[size_t(k) + 1] - offs[size_t(k)]); };
    if (index.o && is_kind(index, OK::Other) && index.o->type == types::slice) {
        int64_t b, e, st, cnt;
        index.as<SliceObj>()->indices(n, b, e, st, cnt);
        std::string out;
        if (st == 1 && ascii) return make_str(s->s.substr(size_t(b), size_t(cnt)));
        for (int64_t k = 0, p = b; k < cnt; ++k, p += st) out += cp(p);
        return make_str(std::move(out));
    }
    int64_t k;
    if (!index_value(index, k)) raise(types::TypeError, std::string("string indices must be integers, not '") + type_name(index) + "'");
    if (k < 0) k += n;
    if (k < 0 || k >= n) raise(types::IndexError, "string index out of range");
    return make_str(cp(k));
}

static bool is_slice(const Value& v) { return v.is_obj() && v.o->type == types::slice; }

Value get_item(Interp& in, const Value& obj, const Value& index) {
    if (!obj.is_obj()) raise(types::TypeError, std::string("'") + type_name(obj) + "' object is not subscriptable");
    if (obj.o->type->getitem) return obj.o->type->getitem(in, obj, index);
    switch (obj.o->type->kind) {
        case OK::List: case OK::Tuple: {
            bool is_list = is_kind(obj, OK::List);
            auto& items = is_list ? obj.as<ListObj>()->items : obj.as<TupleObj>()->items;
            if (is_slice(index)) {
                int64_t b, e, st, cnt;
                index.as<SliceObj>()->indices(int64_t(items.size()), b, e, st, cnt);
                std::vector<Value> out;
                out.reserve(size_t(cnt));
                for (int64_t k = 0, p = b; k < cnt; ++k, p += st) out.push_back(items[size_t(p)]);
                return is_list ? make_list(std::move(out)) : make_tuple(std::move(out));
            }
            int64_t k = to_index(index, is_list ? "list indices" : "tuple indices");
            if (k < 0) k += int64_t(items.size());
            if (k < 0 || k >= int64_t(items.size()))
                raise(types::IndexError, is_list ? "list index out of range" : "tuple index out of range");
            return items[size_t(k)];
        }
        case OK::Str: return str_getitem(obj.as<StrObj>(), index);
        case OK::Dict: {
            auto& t = obj.as<DictObj>()->table;
            long k = t.find(in, index);
            if (k < 0) {
                Value e = make_exception(types::KeyError, "");
                e.as<ExceptionObj>()->args = make_tuple({index});
                throw GpyError{e};
            }
            return t.entries[size_t(k)].value;
        }
        case OK::Range: {
            auto* r = obj.as<RangeObj>();
            if (is_slice(index)) {
                int64_t n = r->length(), b, e, st, cnt;
                index.as<SliceObj>()->indices(n, b, e, st, cnt);
                // Elements of the range are int64s, so start is; the step and
                // stop of a range of a range may not be (CPython: big ints).
                int64_t start = int64_t(uint64_t(r->start) + uint64_t(b) * uint64_t(r->step)), step, span, stop;
                if (__builtin_mul_overflow(st, r->step, &step) || __builtin_mul_overflow(cnt, step, &span) ||
                    __builtin_add_overflow(start, span, &stop))
                    raise(types::OverflowError, "Python int too large to convert to C long");
                return Value::object(new RangeObj(start, stop, step));
            }
            // The count may pass int64 (range(-2**62, 2**62)): index in unsigned arithmetic.
            uint64_t n = r->count();
            int64_t k = to_index(index, "range indices");
            uint64_t back = k < 0 ? uint64_t(-(k + 1)) + 1 : 0;
            if (k < 0 ? back > n : uint64_t(k) >= n) raise(types::IndexError, "range object index out of range");
            uint64_t at = k < 0 ? n - back : uint64_t(k);
            return Value::integer(int64_t(uint64_t(r->start) + at * uint64_t(r->step)));  // in range: no overflow in the result
        }
        default: break;
    }
    if (is_kind(obj, OK::Type)) {
        // list[int] style generic aliases are accepted and ignored.
        return obj;
    }
    raise(types::TypeError, std::string("'") + type_name(obj) + "' object is not subscriptable");
}

void set_item(Interp& in, const Value& obj, const Value& index, Value v) {
    if (obj.is_obj() && obj.o->type->setitem) { obj.o->type->setitem(in, obj, index, std::move(v)); return; }
    if (is_kind(obj, OK::List)) {
        auto& items = obj.as<ListObj>()->items;
        if (is_slice(index)) {
            std::vector<Value> src = to_vector(in, v);
            auto* sl = index.as<SliceObj>();
            int64_t b, e, st, cnt;
            sl->indices(int64_t(items.size()), b, e, st, cnt);
            if (st == 1) {
                if (e < b) e = b;
                items.erase(items.begin() + b, items.begin() + e);
                items.insert(items.begin() + b, src.begin(), src.end());
                return;
            }
            if (int64_t(src.size()) != cnt)
                raise(types::ValueError, "attempt to assign sequence of size " + std::to_string(src.size()) +
                                             " to extended slice of size " + std::to_string(cnt));
            for (int64_t k = 0, p = b; k < cnt; ++k, p += st) items[size_t(p)] = src[size_t(k)];
            return;
        }
        int64_t k = to_index(index, "list indices");
        if (k < 0) k += int64_t(items.size());
        if (k < 0 || k >= int64_t(items.size())) raise(types::IndexError, "list assignment index out of range");
        items[size_t(k)] = std::move(v);
        return;
    }
    if (is_kind(obj, OK::Dict)) {
        obj.as<DictObj>()->table.set(in, index, std::move(v));
        return;
    }
    raise(types::TypeError, std::string("'") + type_name(obj) + "' object does not support item assignment");
}

void del_item(Interp& in, const Value& obj, const Value& index) {
    if (Value r; call_user_dunder(in, obj, "__delitem__", r, &index, 1)) return;
    if (is_kind(obj, OK::List)) {
        auto& items = obj.as<ListObj>()->items;
        if (is_slice(index)) {
            int64_t b, e, st, cnt;
            index.as<SliceObj>()->indices(int64_t(items.size()), b, e, st, cnt);
            std::vector<bool> drop(items.size(), false);
            for (int64_t k = 0, p = b; k < cnt; ++k, p += st) drop[size_t(p)] = true;
            std::vector<Value> kept;
            for (size_t k = 0; k < items.size(); ++k)
                if (!drop[k]) kept.push_back(std::move(items[k]));
            items = std::move(kept);
            return;
        }
        int64_t k = to_index(index, "list indices");
        if (k < 0) k += int64_t(items.size());
        if (k < 0 || k >= int64_t(items.size())) raise(types::IndexError, "list assignment index out of range");
        items.erase(items.begin() + k);
        return;
    }
    if (is_kind(obj, OK::Dict)) {
        if (!obj.as<DictObj>()->table.erase(in, index)) {
            Value e = make_exception(types::KeyError, "");
            e.as<ExceptionObj>()->args = make_tuple({index});
            throw GpyError{e};
        }
        return;
    }
    raise(types::TypeError, std::string("'") + type_name(obj) + "' object doesn't support item deletion");
}

const char* binop_symbol(BinOp op) {
    switch (op) {
        case BinOp::Add: return "+";
        case BinOp::Sub: return "-";
        case BinOp::Mul: return "*";
        case BinOp::Div: return "/";
        case BinOp::FloorDiv: return "//";
        case BinOp::Mod: return "%";
        case BinOp::Pow: return "** or pow()";
        case BinOp::MatMul: return "@";
        case BinOp::BitAnd: return "&";
        case BinOp::BitOr: return "|";
        case BinOp::BitXor: return "^";
        case BinOp::LShift: return "<<";
        case BinOp::RShift: return ">>";
    }
    return "?";
}

const char* cmpop_symbol(CmpOp op) {
    switch (op) {
        case CmpOp::Lt: return "<";
        case CmpOp::Gt: return ">";
        case CmpOp::Le: return "<=";
        case CmpOp::Ge: return ">=";
        case CmpOp::Eq: return "==";
        case CmpOp::Ne: return "!=";
        case CmpOp::In: return "in";
        case CmpOp::NotIn: return "not in";
        case CmpOp::Is: return "is";
        case CmpOp::IsNot: return "is not";
    }
    return "?";
}

}  // namespace gpy
