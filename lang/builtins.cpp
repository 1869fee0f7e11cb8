// The built-in functions (print, len, range, ...) and the constructors of the
// built-in types (int(), str(), list(), ...).
#include <algorithm>
#include <functional>
#include <cmath>
#include <cstring>

#include "lang/format.h"
#include "lang/interp.h"
#include "lang/utf8.h"

namespace gpy {

// ---- argument helpers ----

void expect_args(CallArgs& a, const char* fname, size_t min, size_t max) {
    if (a.npos >= min && a.npos <= max) return;
    std::string f = fname;
    if (min == max) {
        if (min == 0) raise(types::TypeError, f + "() takes no arguments (" + std::to_string(a.npos) + " given)");
        if (min == 1) raise(types::TypeError, f + "() takes exactly one argument (" + std::to_string(a.npos) + " given)");
        raise(types::TypeError, f + " expected " + std::to_string(min) + " arguments, got " + std::to_string(a.npos));
    }
    if (a.npos < min)
        raise(types::TypeError, f + " expected at least " + std::to_string(min) + " argument" + (min == 1 ? "" : "s") +
                                    ", got " + std::to_string(a.npos));
    raise(types::TypeError, f + " expected at most " + std::to_string(max) + " argument" + (max == 1 ? "" : "s") + ", got " +
                                std::to_string(a.npos));
}

void no_kwargs(CallArgs& a, const char* fname) {
    if (a.nkw()) raise(types::TypeError, std::string(fname) + "() takes no keyword arguments");
}

const Value* kwarg(CallArgs& a, const char* name) {
    if (!a.kw) return nullptr;
    for (auto& [k, v] : *a.kw)
        if (k == name) return &v;
    return nullptr;
}

// Raises for keywords not in `allowed` (a null-terminated list).
static void allow_kwargs(CallArgs& a, const char* fname, std::initializer_list<const char*> allowed) {
    if (!a.kw) return;
    for (auto& [k, v] : *a.kw) {
        bool ok = false;
        for (const char* n : allowed) ok |= k == n;
        if (!ok) raise(types::TypeError, "'" + k + "' is an invalid keyword argument for " + fname + "()");
    }
}

bool real_value(const Value& v, double& out) {
    if (v.is_number()) {
        out = v.as_float();
        return true;
    }
    if (v.is_obj() && v.o->type->scalar) {
        Value s = v.o->type->scalar(v);
        if (!s.is_number()) return false;
        out = s.as_float();
        return true;
    }
    return false;
}

double to_double(const Value& v, const char* fname) {
    double d;
    if (real_value(v, d)) return d;
    raise(types::TypeError, std::string("must be real number, not ") + type_name(v));
    (void)fname;
}

const std::string& str_of(const Value& v, const char* what) {
    if (!is_kind(v, OK::Str)) raise(types::TypeError, std::string(what) + " must be str, not " + type_name(v));
    return v.as<StrObj>()->s;
}

void def_method(TypeObject* type, const char* name, NativeFn fn, const char* signature, const char* doc) {
    Value b = make_builtin(name, fn, signature, doc);
    b.o->make_immortal();
    type->dict[name] = b;
}

// ---- iterator objects for enumerate / zip / map / filter / reversed ----

namespace {

struct EnumerateIter : IterObj {
    Value it;
    int64_t n;
    EnumerateIter(Value i, int64_t start) : it(std::move(i)), n(start) {}
    bool next(Interp& in, Value& out) override {
        Value item;
        if (!iter_next(in, it, item)) return false;
        out = make_tuple({Value::integer(n++), std::move(item)});
        return true;
    }
    const char* type_name() const override { return "enumerate"; }
};

struct ZipIter : IterObj {
    std::vector<Value> its;
    bool strict = false;
    bool next(Interp& in, Value& out) override {
        if (its.empty()) return false;
        std::vector<Value> items(its.size());
        for (size_t k = 0; k < its.size(); ++k) {
            if (!iter_next(in, its[k], items[k])) {
                if (strict && k > 0)
                    raise(types::ValueError, "zip() argument " + std::to_string(k + 1) + " is shorter than argument 1");
                return false;
            }
        }
        out = make_tuple(std::move(items));
        return true;
    }
    const char* type_name() const override { return "zip"; }
};

struct MapIter : IterObj {
    Value fn;
    std::vector<Value> its;
    bool next(Interp& in, Value& out) override {
        std::vector<Value> args(its.size());
        for (size_t k = 0; k < its.size(); ++k)
            if (!iter_next(in, its[k], args[k])) return false;
        CallArgs ca{args.data(), args.size(), nullptr};
        out = in.call(fn, ca);
        return true;
    }
    const char* type_name() const override { return "map"; }
};

struct FilterIter : IterObj {
    Value fn, it;
    bool next(Interp& in, Value& out) override {
        Value item;
        while (iter_next(in, it, item)) {
            bool keep = fn.is_none() ? truthy(item) : truthy(in.call1(fn, item));
            if (keep) { out = std::move(item); return true; }
        }
        return false;
    }
    const char* type_name() const override { return "filter"; }
};

struct ReversedIter : IterObj {
    std::vector<Value> items;
    size_t left;
    explicit ReversedIter(std::vector<Value> v) : items(std::move(v)), left(items.size()) {}
    bool next(Interp&, Value& out) override {
        if (!left) return false;
        out = items[--left];
        return true;
    }
    const char* type_name() const override { return "reversed"; }
};

// ---- built-in functions ----

Value bi_print(Interp& in, CallArgs& a) {
    allow_kwargs(a, "print", {"sep", "end", "file", "flush"});
    std::string sep = " ", end = "\n";
    if (const Value* s = kwarg(a, "sep"); s && !s->is_none()) sep = str_of(*s, "sep");
    if (const Value* e = kwarg(a, "end"); e && !e->is_none()) end = str_of(*e, "end");
    std::string out;
    for (size_t k = 0; k < a.npos; ++k) {
        if (k) out += sep;
        if (is_kind(a.pos[k], OK::Str)) out += a.pos[k].as<StrObj>()->s;
        else out += to_str(in, a.pos[k]);
    }
    out += end;
    in.write_out(out);
    if (const Value* f = kwarg(a, "flush"); f && truthy(*f)) in.flush_out();
    return Value::none();
}

Value bi_len(Interp& in, CallArgs& a) {
    no_kwargs(a, "len");
    expect_args(a, "len", 1, 1);
    return Value::integer(length(in, a[0]));
}

Value bi_repr(Interp& in, CallArgs& a) {
    expect_args(a, "repr", 1, 1);
    return make_str(repr(in, a[0]));
}

Value bi_abs(Interp& in, CallArgs& a) {
    expect_args(a, "abs", 1, 1);
    const Value& v = a[0];
    if (v.is_obj()) {
        if (const Value* m = v.o->type->lookup("__abs__")) {
            CallArgs self{a.pos, 1, nullptr};
            return in.call(*m, self);
        }
    }
    if (v.is_intlike()) {
        if (v.as_int() == INT64_MIN) raise(types::OverflowError, "integer overflow");
        return Value::integer(std::llabs(v.as_int()));
    }
    if (v.is_float()) return Value::real(std::fabs(v.f));
    raise(types::TypeError, std::string("bad operand type for abs(): '") + type_name(v) + "'");
}

// Python's round-half-to-even for floats, with an optional number of digits.
Value bi_round(Interp& in, CallArgs& a) {
    allow_kwargs(a, "round", {"ndigits"});
    expect_args(a, "round", 1, 2);
    const Value& v = a[0];
    const Value* nd = a.npos > 1 ? &a.pos[1] : kwarg(a, "ndigits");
    if (nd && nd->is_none()) nd = nullptr;
    // A type's own __round__ first (NumPy scalars round as np.round does).
    if (const Value* m = v.is_obj() ? v.o->type->lookup("__round__") : nullptr) {
        Value args2[2] = {v, nd ? *nd : Value()};
        CallArgs self{args2, size_t(nd ? 2 : 1), nullptr};
        return in.call(*m, self);
    }
    if (v.is_obj() && v.o->type->scalar) {
        std::vector<Value> args2{v.o->type->scalar(v)};
        if (nd) args2.push_back(*nd);
        CallArgs a2{args2.data(), args2.size(), nullptr};
        return bi_round(in, a2);
    }
    if (v.is_intlike()) {
        if (!nd || nd->as_int() >= 0) return Value::integer(v.as_int());
        int64_t p = 1;
        for (int64_t k = 0; k < -nd->as_int() && p < INT64_MAX / 10; ++k) p *= 10;
        int64_t x = v.as_int(), q = x / p, r = x % p;
        if (r < 0) { r += p; --q; }
        if (2 * r > p || (2 * r == p && (q & 1))) ++q;
        return Value::integer(q * p);
    }
    if (!v.is_float()) raise(types::TypeError, std::string("type ") + type_name(v) + " doesn't define __round__ method");
    double x = v.f;
    if (!nd) {
        if (std::isnan(x)) raise(types::ValueError, "cannot convert float NaN to integer");
        if (std::isinf(x)) raise(types::OverflowError, "cannot convert float infinity to integer");
        double r = std::nearbyint(x);  // default rounding mode: half to even
        if (std::fabs(r) >= 9.2233720368547758e18) raise(types::OverflowError, "integer overflow");
        return Value::integer(int64_t(r));
    }
    int64_t digits = index_arg(*nd);
    if (!std::isfinite(x) || digits > 308) return Value::real(x);
    if (digits < -308) return Value::real(0.0 * x);
    // Correctly rounded via decimal text, as CPython does.
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", int(std::max<int64_t>(digits, 0)), x);
    if (digits >= 0) return Value::real(std::strtod(buf, nullptr));
    double p = std::pow(10.0, double(-digits));
    return Value::real(std::nearbyint(x / p) * p);
}

Value bi_isinstance(Interp&, CallArgs& a) {
    expect_args(a, "isinstance", 2, 2);
    // (tuples nest: isinstance(x, (int, (str, float))))
    std::function<bool(const Value&)> check = [&](const Value& c) -> bool {
        if (is_kind(c, OK::Tuple)) {
            for (auto& x : c.as<TupleObj>()->items)
                if (check(x)) return true;
            return false;
        }
        if (!is_kind(c, OK::Type))
            raise(types::TypeError, "isinstance() arg 2 must be a type, a tuple of types, or a union");
        return isinstance(a[0], c.as<TypeObject>());
    };
    return Value::boolean(check(a[1]));
}

Value bi_issubclass(Interp&, CallArgs& a) {
    expect_args(a, "issubclass", 2, 2);
    if (!is_kind(a[0], OK::Type)) raise(types::TypeError, "issubclass() arg 1 must be a class");
    const TypeObject* sub = a[0].as<TypeObject>();
    std::function<bool(const Value&)> check = [&](const Value& c) -> bool {
        if (is_kind(c, OK::Tuple)) {
            for (auto& x : c.as<TupleObj>()->items)
                if (check(x)) return true;
            return false;
        }
        if (!is_kind(c, OK::Type))
            raise(types::TypeError, "issubclass() arg 2 must be a class, a tuple of classes, or a union");
        return sub->is_subtype_of(c.as<TypeObject>());
    };
    return Value::boolean(check(a[1]));
}

Value bi_hash(Interp& in, CallArgs& a) {
    expect_args(a, "hash", 1, 1);
    uint64_t h = hash_value(in, a[0]);
    return Value::integer(int64_t(h));
}

Value bi_id(Interp&, CallArgs& a) {
    expect_args(a, "id", 1, 1);
    return Value::integer(a[0].is_obj() ? int64_t(uintptr_t(a[0].o)) : int64_t(a[0].i));
}

Value bi_callable(Interp&, CallArgs& a) {
    expect_args(a, "callable", 1, 1);
    const Value& v = a[0];
    // Instances of types with a __call__ method (kernels, poly1d) are callable too.
    return Value::boolean(v.is_obj() && (v.o->type->kind == OK::Function || v.o->type->kind == OK::Builtin ||
                                         v.o->type->kind == OK::BoundMethod || v.o->type->kind == OK::Type ||
                                         v.o->type->lookup("__call__")));
}

Value bi_iter(Interp& in, CallArgs& a) {
    expect_args(a, "iter", 1, 1);
    return get_iter(in, a[0]);
}

Value bi_next(Interp& in, CallArgs& a) {
    expect_args(a, "next", 1, 2);
    if (a[0].is_obj() && a[0].o->type->lookup("__next__")) {  // an iterator class, a generator (StopIteration carries its value)
        try {
            return in.call0(get_attr(in, a[0], "__next__"));
        } catch (GpyError& e) {
            if (a.npos == 2 && e.obj()->type->is_subtype_of(types::StopIteration)) return a[1];
            throw;
        }
    }
    if (!is_kind(a[0], OK::Iter)) raise(types::TypeError, std::string("'") + type_name(a[0]) + "' object is not an iterator");
    Value out;
    if (iter_next(in, a[0], out)) return out;
    if (a.npos == 2) return a[1];
    Value e = make_exception(types::StopIteration, "");
    e.as<ExceptionObj>()->args = make_tuple();
    throw GpyError{e};
}

// min() / max(): one iterable or several arguments; key= and default=.
Value min_max(Interp& in, CallArgs& a, bool is_max) {
    const char* fname = is_max ? "max" : "min";
    allow_kwargs(a, fname, {"key", "default"});
    if (a.npos == 0) raise(types::TypeError, std::string(fname) + " expected at least 1 argument, got 0");
    const Value* key = kwarg(a, "key");
    if (key && key->is_none()) key = nullptr;
    const Value* dflt = kwarg(a, "default");
    std::vector<Value> items;
    if (a.npos == 1) items = to_vector(in, a[0]);
    else {
        if (dflt) raise(types::TypeError, std::string("Cannot specify a default for ") + fname + "() with multiple positional arguments");
        items.assign(a.pos, a.pos + a.npos);
    }
    if (items.empty()) {
        if (dflt) return *dflt;
        raise(types::ValueError, std::string(fname) + "() arg is an empty sequence");
    }
    size_t best = 0;
    Value best_key = key ? in.call1(*key, items[0]) : items[0];
    for (size_t k = 1; k < items.size(); ++k) {
        Value kv = key ? in.call1(*key, items[k]) : items[k];
        if (compare_op(in, is_max ? CmpOp::Gt : CmpOp::Lt, kv, best_key)) { best = k; best_key = kv; }
    }
    return items[best];
}
Value bi_min(Interp& in, CallArgs& a) { return min_max(in, a, false); }
Value bi_max(Interp& in, CallArgs& a) { return min_max(in, a, true); }

Value bi_sum(Interp& in, CallArgs& a) {
    allow_kwargs(a, "sum", {"start"});
    expect_args(a, "sum", 1, 2);
    Value total = a.npos > 1 ? a[1] : kwarg(a, "start") ? *kwarg(a, "start") : Value::integer(0);
    if (is_kind(total, OK::Str)) raise(types::TypeError, "sum() can't sum strings [use ''.join(seq) instead]");
    for_each(in, a[0], [&](const Value& item) {
        if (total.kind == VK::Int && item.kind == VK::Int) {
            int64_t out;
            if (!__builtin_add_overflow(total.i, item.i, &out)) { total.i = out; return true; }
        }
        if (total.kind == VK::Float && item.kind == VK::Float) { total.f += item.f; return true; }
        total = binary_op(in, BinOp::Add, total, item);
        return true;
    });
    return total;
}

Value bi_any(Interp& in, CallArgs& a) {
    expect_args(a, "any", 1, 1);
    bool found = false;
    for_each(in, a[0], [&](const Value& v) { found = truthy(v); return !found; });
    return Value::boolean(found);
}

Value bi_all(Interp& in, CallArgs& a) {
    expect_args(a, "all", 1, 1);
    bool ok = true;
    for_each(in, a[0], [&](const Value& v) { ok = truthy(v); return ok; });
    return Value::boolean(ok);
}

Value bi_enumerate(Interp& in, CallArgs& a) {
    allow_kwargs(a, "enumerate", {"start"});
    expect_args(a, "enumerate", 1, 2);
    const Value* start = a.npos > 1 ? &a.pos[1] : kwarg(a, "start");
    int64_t s = start ? to_index(*start, "start") : 0;
    return Value::object(new EnumerateIter(get_iter(in, a[0]), s));
}

Value bi_zip(Interp& in, CallArgs& a) {
    allow_kwargs(a, "zip", {"strict"});
    auto* z = new ZipIter();
    Value v = Value::object(z);
    if (const Value* s = kwarg(a, "strict")) z->strict = truthy(*s);
    for (size_t k = 0; k < a.npos; ++k) {
        if (!a[k].is_obj() || ((a[k].o->type->kind == OK::Other || a[k].o->type->kind == OK::Function) && !a[k].o->type->iter))
            raise(types::TypeError, "zip argument #" + std::to_string(k + 1) + " must support iteration");
        z->its.push_back(get_iter(in, a[k]));
    }
    return v;
}

Value bi_map(Interp& in, CallArgs& a) {
    if (a.npos < 2) raise(types::TypeError, "map() must have at least two arguments.");
    auto* m = new MapIter();
    Value v = Value::object(m);
    m->fn = a[0];
    for (size_t k = 1; k < a.npos; ++k) m->its.push_back(get_iter(in, a[k]));
    return v;
}

Value bi_filter(Interp& in, CallArgs& a) {
    expect_args(a, "filter", 2, 2);
    auto* f = new FilterIter();
    Value v = Value::object(f);
    f->fn = a[0];
    f->it = get_iter(in, a[1]);
    return v;
}

Value bi_reversed(Interp& in, CallArgs& a) {
    expect_args(a, "reversed", 1, 1);
    const Value& s = a[0];
    if (s.is_obj() && s.o->type->kind == OK::Other) {
        // A native type's __reversed__ (deque); built-in kinds take the path below.
        if (const Value* m = s.o->type->lookup("__reversed__")) {
            Value self = s;
            CallArgs c{&self, 1, nullptr};
            return in.call(*m, c);
        }
    }
    if (s.is_obj() && s.o->type->heap && class_defines(s.o->type, "__len__") && class_defines(s.o->type, "__getitem__")) {
        // The sequence protocol: s[len(s) - 1] ... s[0].
        std::vector<Value> items;
        for (int64_t k = length(in, s); k-- > 0;) items.push_back(get_item(in, s, Value::integer(k)));
        std::reverse(items.begin(), items.end());
        return Value::object(new ReversedIter(std::move(items)));
    }
    if (!s.is_obj() || (s.o->type->kind != OK::List && s.o->type->kind != OK::Tuple && s.o->type->kind != OK::Str &&
                        s.o->type->kind != OK::Range && s.o->type->kind != OK::Dict && s.o->type->kind != OK::DictView))
        raise(types::TypeError, std::string("'") + type_name(s) + "' object is not reversible");
    return Value::object(new ReversedIter(to_vector(in, s)));
}

}  // namespace

// Stable sort with Python's `<` and optional key; shared with list.sort.
void sort_values(Interp& in, std::vector<Value>& items, const Value* key, bool reverse) {
    if (!key) {
        std::vector<Value> copy = items;
        std::stable_sort(copy.begin(), copy.end(), [&](const Value& x, const Value& y) {
            return reverse ? compare_op(in, CmpOp::Lt, y, x) : compare_op(in, CmpOp::Lt, x, y);
        });
        items = std::move(copy);
        return;
    }
    std::vector<std::pair<Value, Value>> keyed;
    keyed.reserve(items.size());
    for (auto& it : items) keyed.emplace_back(in.call1(*key, it), it);
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
        return reverse ? compare_op(in, CmpOp::Lt, y.first, x.first) : compare_op(in, CmpOp::Lt, x.first, y.first);
    });
    for (size_t k = 0; k < items.size(); ++k) items[k] = std::move(keyed[k].second);
}

namespace {

Value bi_sorted(Interp& in, CallArgs& a) {
    allow_kwargs(a, "sorted", {"key", "reverse"});
    if (a.npos != 1) raise(types::TypeError, "sorted expected 1 argument, got " + std::to_string(a.npos));
    std::vector<Value> items = to_vector(in, a[0]);
    const Value* key = kwarg(a, "key");
    if (key && key->is_none()) key = nullptr;
    const Value* rev = kwarg(a, "reverse");
    sort_values(in, items, key, rev && truthy(*rev));
    return make_list(std::move(items));
}

Value bi_divmod(Interp& in, CallArgs& a) {
    expect_args(a, "divmod", 2, 2);
    return make_tuple({binary_op(in, BinOp::FloorDiv, a[0], a[1]), binary_op(in, BinOp::Mod, a[0], a[1])});
}

Value bi_pow(Interp& in, CallArgs& a) {
    expect_args(a, "pow", 2, 3);
    if (a.npos == 3 && !a[2].is_none()) {
        Value args[2] = {a[1], a[2]};
        if (Value r; call_user_dunder(in, a[0], "__pow__", r, args, 2)) return r;  // pow(obj, e, m): its three-argument __pow__
        if (!a[0].is_intlike() || !a[1].is_intlike() || !a[2].is_intlike())
            raise(types::TypeError, "pow() 3rd argument not allowed unless all arguments are integers");
        int64_t base = a[0].as_int(), e = a[1].as_int(), m = a[2].as_int();
        if (m == 0) raise(types::ValueError, "pow() 3rd argument cannot be 0");
        if (e < 0) raise(types::ValueError, "base is not invertible for the given modulus");
        __int128 r = 1, b = ((base % m) + m) % m;
        while (e) {
            if (e & 1) r = (r * b) % m;
            b = (b * b) % m;
            e >>= 1;
        }
        int64_t res = int64_t(r);
        if (res != 0 && ((res < 0) != (m < 0))) res += m;
        return Value::integer(res);
    }
    return binary_op(in, BinOp::Pow, a[0], a[1]);
}

Value bi_chr(Interp&, CallArgs& a) {
    expect_args(a, "chr", 1, 1);
    int64_t c = index_arg(a[0]);
    if (c < 0 || c > 0x10FFFF) raise(types::ValueError, "chr() arg not in range(0x110000)");
    std::string out;
    append_utf8(out, char32_t(c));
    return make_str(out);
}

Value bi_ord(Interp& in, CallArgs& a) {
    expect_args(a, "ord", 1, 1);
    if (!is_kind(a[0], OK::Str)) raise(types::TypeError, std::string("ord() expected string of length 1, but ") + type_name(a[0]) + " found");
    int64_t n = length(in, a[0]);
    if (n != 1) raise(types::TypeError, "ord() expected a character, but string of length " + std::to_string(n) + " found");
    const std::string& s = a[0].as<StrObj>()->s;
    uint8_t c0 = uint8_t(s[0]);
    uint32_t cp = c0 < 0x80 ? c0 : c0 < 0xE0 ? c0 & 0x1F : c0 < 0xF0 ? c0 & 0x0F : c0 & 0x07;
    for (size_t k = 1; k < s.size(); ++k) cp = (cp << 6) | (uint8_t(s[k]) & 0x3F);
    return Value::integer(cp);
}

Value radix(CallArgs& a, const char* fname, const char* spec) {
    expect_args(a, fname, 1, 1);
    return make_str(fmt::format_int(index_arg(a[0]), spec));
}
Value bi_hex(Interp&, CallArgs& a) { return radix(a, "hex", "#x"); }
Value bi_oct(Interp&, CallArgs& a) { return radix(a, "oct", "#o"); }
Value bi_bin(Interp&, CallArgs& a) { return radix(a, "bin", "#b"); }

Value bi_format(Interp& in, CallArgs& a) {
    expect_args(a, "format", 1, 2);
    return make_str(format_value(in, a[0], a.npos > 1 ? str_of(a[1], "format() argument 2") : ""));
}

Value bi_getattr(Interp& in, CallArgs& a) {
    expect_args(a, "getattr", 2, 3);
    const std::string& name = str_of(a[1], "attribute name");
    if (a.npos == 3) {
        try {
            return get_attr(in, a[0], name);
        } catch (GpyError& e) {
            if (!e.obj()->type->is_subtype_of(types::AttributeError)) throw;
            return a[2];
        }
    }
    return get_attr(in, a[0], name);
}

Value bi_hasattr(Interp& in, CallArgs& a) {
    expect_args(a, "hasattr", 2, 2);
    return Value::boolean(has_attr(in, a[0], str_of(a[1], "attribute name")));
}

Value bi_setattr(Interp& in, CallArgs& a) {
    expect_args(a, "setattr", 3, 3);
    set_attr(in, a[0], str_of(a[1], "attribute name"), a[2]);
    return Value::none();
}

Value bi_dir(Interp& in, CallArgs& a) {
    expect_args(a, "dir", 0, 1);
    std::vector<std::string> names;
    if (a.npos == 0) {
        for (size_t k = 0; k < in.main->names.size(); ++k)
            if (!in.main->values[k].is_undef()) names.push_back(in.main->names[k]);
    } else {
        names = attribute_names(in, a[0]);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::vector<Value> out;
    for (auto& n : names) out.push_back(make_str(n));
    return make_list(std::move(out));
}

Value bi_exit(Interp&, CallArgs& a) {
    Value e = make_exception(types::SystemExit, "");
    e.as<ExceptionObj>()->args = make_tuple(std::vector<Value>(a.pos, a.pos + a.npos));
    throw GpyError{e};
}

Value bi_input(Interp& in, CallArgs& a) {
    expect_args(a, "input", 0, 1);
    if (a.npos) in.write_out(to_str(in, a[0]));
    in.flush_out();
    std::string line;
    int c;
    bool any = false;
    while ((c = std::fgetc(stdin)) != EOF) {
        any = true;
        if (c == '\n') break;
        line += char(c);
    }
    if (!any) raise(types::RuntimeError, "EOF when reading a line");  // Python raises EOFError
    return make_str(line);
}

}  // namespace

std::string function_signature(const FuncInfo& info) {
    std::string s = info.name + "(";
    for (size_t k = 0; k < info.params.size(); ++k) {
        const Param& p = info.params[k];
        if (k) s += ", ";
        if (p.kind == Param::KwOnly && (k == 0 || info.params[k - 1].kind == Param::Positional) && info.varargs < 0) s += "*, ";
        if (p.kind == Param::VarArgs) s += "*";
        if (p.kind == Param::VarKw) s += "**";
        s += p.name;
        if (p.default_value) s += "=...";
    }
    return s + ")";
}

namespace {

Value bi_synchronize(Interp& in, CallArgs& a) {
    expect_args(a, "synchronize", 0, 0);
    if (in.synchronize_hook) in.synchronize_hook();
    return Value::none();
}

Value bi_help(Interp& in, CallArgs& a) {
    expect_args(a, "help", 0, 1);
    if (a.npos == 0) {
        in.write_out("Type help(name) for a built-in's signature, e.g. help(len). Modules: math, time, sys, numpy (arrays: coming).\n");
        return Value::none();
    }
    const Value& v = a[0];
    std::string text;
    if (is_kind(v, OK::Builtin)) text = v.as<BuiltinObj>()->signature + "\n    " + v.as<BuiltinObj>()->doc;
    else if (is_kind(v, OK::Function)) text = function_signature(*v.as<FunctionObj>()->info);
    else if (is_kind(v, OK::Type)) text = "class " + v.as<TypeObject>()->name + (v.as<TypeObject>()->doc.empty() ? "" : "\n    " + v.as<TypeObject>()->doc);
    else if (is_kind(v, OK::Module)) text = "module " + v.as<ModuleObj>()->name + (v.as<ModuleObj>()->doc.empty() ? "" : "\n    " + v.as<ModuleObj>()->doc);
    else if (is_kind(v, OK::BoundMethod) && is_kind(v.as<BoundMethodObj>()->func, OK::Builtin)) {
        auto* b = v.as<BoundMethodObj>()->func.as<BuiltinObj>();
        text = b->signature + "\n    " + b->doc;
    } else text = repr(in, v);
    in.write_out(text + "\n");
    return Value::none();
}

// ---- type constructors ----

// Parses Python int() text: optional sign, underscores between digits, base prefix.
bool parse_int_text(std::string_view s, int base, int64_t& out, bool& overflow) {
    overflow = false;
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(uint8_t(s[b]))) ++b;
    while (e > b && std::isspace(uint8_t(s[e - 1]))) --e;
    bool neg = false;
    if (b < e && (s[b] == '+' || s[b] == '-')) neg = s[b++] == '-';
    if (base == 0 || base == 16 || base == 8 || base == 2) {
        if (e - b >= 2 && s[b] == '0') {
            char p = char(std::tolower(uint8_t(s[b + 1])));
            int pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
            if (pb && (base == 0 || base == pb)) { base = pb; b += 2; if (b < e && s[b] == '_') ++b; }
        }
        if (base == 0) {
            base = 10;
            if (e - b > 1 && s[b] == '0' && s.substr(b).find_first_not_of("0_") != std::string_view::npos) return false;
        }
    }
    if (b >= e) return false;
    unsigned __int128 v = 0;
    bool last_us = true;
    for (size_t k = b; k < e; ++k) {
        char c = s[k];
        if (c == '_') { if (last_us) return false; last_us = true; continue; }
        int d = std::isdigit(uint8_t(c)) ? c - '0' : std::isalpha(uint8_t(c)) ? std::tolower(uint8_t(c)) - 'a' + 10 : 99;
        if (d >= base) return false;
        last_us = false;
        v = v * unsigned(base) + unsigned(d);
        if (v > (unsigned __int128)INT64_MAX + 1) overflow = true, v = (unsigned __int128)INT64_MAX + 2;
    }
    if (last_us) return false;
    if (!neg && v > (unsigned __int128)INT64_MAX) overflow = true;
    if (overflow) return true;
    out = neg ? int64_t(-(__int128)v) : int64_t(v);
    return true;
}

Value t_int(Interp& in, CallArgs& a) {
    allow_kwargs(a, "int", {"base"});
    expect_args(a, "int", 0, 2);
    if (a.npos == 0) return Value::integer(0);
    const Value* basev = a.npos > 1 ? &a.pos[1] : kwarg(a, "base");
    const Value& v = a[0];
    if (basev && !is_kind(v, OK::Str)) raise(types::TypeError, "int() can't convert non-string with explicit base");
    if (v.is_obj() && v.o->type->scalar) {
        Value sv = v.o->type->scalar(v);
        CallArgs one{&sv, 1, nullptr};
        return t_int(in, one);
    }
    if (Value r; call_user_dunder(in, v, "__int__", r) || call_user_dunder(in, v, "__index__", r) || call_user_dunder(in, v, "__trunc__", r)) {
        if (!r.is_intlike()) raise(types::TypeError, std::string("__int__ returned non-int (type ") + type_name(r) + ")");
        return Value::integer(r.as_int());
    }
    if (v.is_intlike()) return Value::integer(v.as_int());
    if (v.is_float()) {
        if (std::isnan(v.f)) raise(types::ValueError, "cannot convert float NaN to integer");
        if (std::isinf(v.f)) raise(types::OverflowError, "cannot convert float infinity to integer");
        double t = std::trunc(v.f);
        if (t >= 9.2233720368547758e18 || t < -9.2233720368547758e18) raise(types::OverflowError, "integer overflow");
        return Value::integer(int64_t(t));
    }
    if (is_kind(v, OK::Str)) {
        int base = basev ? int(to_index(*basev, "base")) : 10;
        if (base != 0 && (base < 2 || base > 36)) raise(types::ValueError, "int() base must be >= 2 and <= 36, or 0");
        int64_t out;
        bool overflow;
        if (!parse_int_text(v.as<StrObj>()->s, base, out, overflow))
            raise(types::ValueError, "invalid literal for int() with base " + std::to_string(base) + ": " + repr(in, v));
        if (overflow) raise(types::OverflowError, "integer overflow");
        return Value::integer(out);
    }
    raise(types::TypeError, std::string("int() argument must be a string, a bytes-like object or a real number, not '") + type_name(v) + "'");
}

Value t_float(Interp& in, CallArgs& a) {
    no_kwargs(a, "float");
    expect_args(a, "float", 0, 1);
    if (a.npos == 0) return Value::real(0.0);
    const Value& v = a[0];
    double d;
    if (real_value(v, d)) return Value::real(d);
    if (Value r; call_user_dunder(in, v, "__float__", r) || call_user_dunder(in, v, "__index__", r)) {
        if (!r.is_float() && !r.is_int()) raise(types::TypeError, std::string("__float__ returned non-float (type ") + type_name(r) + ")");
        return Value::real(r.as_float());
    }
    if (v.is_obj() && v.o->type->scalar)
        raise(types::TypeError, std::string("float() argument must be a string or a real number, not '") + type_name(v.o->type->scalar(v)) + "'");
    if (is_kind(v, OK::Str)) {
        std::string s = v.as<StrObj>()->s;
        size_t b = s.find_first_not_of(" \t\n\r\f\v"), e = s.find_last_not_of(" \t\n\r\f\v");
        std::string t = b == std::string::npos ? "" : s.substr(b, e - b + 1);
        std::string clean;
        bool ok = !t.empty();
        for (size_t k = 0; k < t.size(); ++k) {
            if (t[k] == '_') {
                if (k == 0 || k + 1 == t.size() || !std::isdigit(uint8_t(t[k - 1])) || !std::isdigit(uint8_t(t[k + 1]))) ok = false;
                continue;
            }
            clean += t[k];
        }
        std::string lower;
        for (char c : clean) lower += char(std::tolower(uint8_t(c)));
        std::string body = lower;
        if (!body.empty() && (body[0] == '+' || body[0] == '-')) body = body.substr(1);
        if (ok && (body == "inf" || body == "infinity" || body == "nan")) {
            double r = body == "nan" ? NAN : INFINITY;
            return Value::real(lower[0] == '-' ? -r : r);
        }
        if (ok && !body.empty() && (std::isdigit(uint8_t(body[0])) || body[0] == '.') && body.find_first_of("xp") == std::string::npos) {
            char* end = nullptr;
            double r = std::strtod(clean.c_str(), &end);
            if (end && *end == '\0') return Value::real(r);
        }
        raise(types::ValueError, "could not convert string to float: " + repr(in, v));
    }
    raise(types::TypeError, std::string("float() argument must be a string or a real number, not '") + type_name(v) + "'");
}

Value t_bool(Interp&, CallArgs& a) {
    no_kwargs(a, "bool");
    expect_args(a, "bool", 0, 1);
    return Value::boolean(a.npos && truthy(a[0]));
}

Value t_str(Interp& in, CallArgs& a) {
    expect_args(a, "str", 0, 1);
    if (a.npos == 0) return make_str("");
    if (is_kind(a[0], OK::Str)) return a[0];
    return make_str(to_str(in, a[0]));
}

Value t_list(Interp& in, CallArgs& a) {
    no_kwargs(a, "list");
    expect_args(a, "list", 0, 1);
    return make_list(a.npos ? to_vector(in, a[0]) : std::vector<Value>{});
}

Value t_tuple(Interp& in, CallArgs& a) {
    no_kwargs(a, "tuple");
    expect_args(a, "tuple", 0, 1);
    if (a.npos && is_kind(a[0], OK::Tuple)) return a[0];
    return make_tuple(a.npos ? to_vector(in, a[0]) : std::vector<Value>{});
}

void dict_update_from(Interp& in, DictObj* d, const Value& src) {
    if (is_kind(src, OK::Dict)) {
        for (auto& e : src.as<DictObj>()->table.entries)
            if (!e.key.is_undef()) d->table.set(in, e.key, e.value);
        return;
    }
    size_t k = 0;
    for_each(in, src, [&](const Value& item) {
        std::vector<Value> pair;
        if (!item.is_obj() || (item.o->type->kind != OK::Tuple && item.o->type->kind != OK::List && item.o->type->kind != OK::Str))
            raise(types::TypeError, "cannot convert dictionary update sequence element #" + std::to_string(k) + " to a sequence");
        pair = to_vector(in, item);
        if (pair.size() != 2)
            raise(types::ValueError, "dictionary update sequence element #" + std::to_string(k) + " has length " +
                                         std::to_string(pair.size()) + "; 2 is required");
        d->table.set(in, pair[0], pair[1]);
        ++k;
        return true;
    });
}

Value t_dict(Interp& in, CallArgs& a) {
    expect_args(a, "dict", 0, 1);
    auto* d = new DictObj();
    Value v = Value::object(d);
    if (a.npos) dict_update_from(in, d, a[0]);
    if (a.kw)
        for (auto& [k, val] : *a.kw) d->table.set(in, make_str(k), val);
    return v;
}

Value t_set(Interp& in, CallArgs& a) {
    no_kwargs(a, "set");
    expect_args(a, "set", 0, 1);
    auto* s = new SetObj();
    Value v = Value::object(s);
    if (a.npos) for_each(in, a[0], [&](const Value& item) { s->table.set(in, item, Value::none()); return true; });
    return v;
}

Value t_range(Interp&, CallArgs& a) {
    no_kwargs(a, "range");
    if (a.npos < 1 || a.npos > 3) {
        if (a.npos == 0) raise(types::TypeError, "range expected at least 1 argument, got 0");
        raise(types::TypeError, "range expected at most 3 arguments, got " + std::to_string(a.npos));
    }
    int64_t bounds[3];
    for (size_t k = 0; k < a.npos; ++k) bounds[k] = index_arg(a[k]);
    int64_t start = 0, stop, step = 1;
    if (a.npos == 1) stop = bounds[0];
    else { start = bounds[0]; stop = bounds[1]; }
    if (a.npos == 3) step = bounds[2];
    if (step == 0) raise(types::ValueError, "range() arg 3 must not be zero");
    return Value::object(new RangeObj(start, stop, step));
}

Value t_type(Interp&, CallArgs& a) {
    if (a.npos != 1) raise(types::TypeError, "type() takes 1 argument (creating classes is not supported yet)");
    return Value::object(type_of(a[0]));
}

Value t_slice(Interp&, CallArgs& a) {
    expect_args(a, "slice", 1, 3);
    if (a.npos == 1) return make_slice(Value::none(), a[0], Value::none());
    return make_slice(a[0], a[1], a.npos > 2 ? a[2] : Value::none());
}

// ---- int / float methods ----

Value m_int_bit_length(Interp&, CallArgs& a) {
    expect_args(a, "bit_length", 1, 1);
    uint64_t x = a[0].as_int() < 0 ? uint64_t(0) - uint64_t(a[0].as_int()) : uint64_t(a[0].as_int());
    return Value::integer(x ? 64 - __builtin_clzll(x) : 0);
}

Value m_float_is_integer(Interp&, CallArgs& a) {
    expect_args(a, "is_integer", 1, 1);
    double x = a[0].as_float();
    return Value::boolean(std::isfinite(x) && x == std::floor(x));
}

Value m_conjugate(Interp&, CallArgs& a) { return a[0].is_float() ? a[0] : Value::integer(a[0].as_int()); }

Value m_exc_with_traceback(Interp&, CallArgs& a) { return a[0]; }

struct BuiltinSpec {
    const char* name;
    NativeFn fn;
    const char* sig;
    const char* doc;
};

const BuiltinSpec kBuiltins[] = {
    {"print", bi_print, "print(*values, sep=' ', end='\\n')", "Prints the values, separated by sep and followed by end."},
    {"len", bi_len, "len(obj, /)", "Return the number of items in a container."},
    {"repr", bi_repr, "repr(obj, /)", "Return the canonical string representation of the object."},
    {"abs", bi_abs, "abs(x, /)", "Return the absolute value of the argument."},
    {"round", bi_round, "round(number, ndigits=None)", "Round a number to a given precision in decimal digits (half to even)."},
    {"isinstance", bi_isinstance, "isinstance(obj, class_or_tuple, /)", "Return whether an object is an instance of a class or of a subclass thereof."},
    {"issubclass", bi_issubclass, "issubclass(cls, class_or_tuple, /)", "Return whether 'cls' is derived from another class or is the same class."},
    {"hash", bi_hash, "hash(obj, /)", "Return the hash value for the given object."},
    {"id", bi_id, "id(obj, /)", "Return the identity of an object."},
    {"callable", bi_callable, "callable(obj, /)", "Return whether the object is callable."},
    {"iter", bi_iter, "iter(iterable, /)", "Get an iterator from an object."},
    {"next", bi_next, "next(iterator[, default])", "Return the next item from the iterator."},
    {"min", bi_min, "min(iterable, *[, default=obj, key=func]) / min(arg1, arg2, *args, *[, key=func])", "Return the smallest item."},
    {"max", bi_max, "max(iterable, *[, default=obj, key=func]) / max(arg1, arg2, *args, *[, key=func])", "Return the largest item."},
    {"sum", bi_sum, "sum(iterable, /, start=0)", "Return the sum of a 'start' value (default: 0) plus an iterable of numbers."},
    {"any", bi_any, "any(iterable, /)", "Return True if bool(x) is True for any x in the iterable."},
    {"all", bi_all, "all(iterable, /)", "Return True if bool(x) is True for all values x in the iterable."},
    {"enumerate", bi_enumerate, "enumerate(iterable, start=0)", "Return an iterator of (index, value) pairs."},
    {"zip", bi_zip, "zip(*iterables, strict=False)", "Iterate over several iterables in parallel, producing tuples."},
    {"map", bi_map, "map(func, *iterables)", "Apply func to every item of the iterables."},
    {"filter", bi_filter, "filter(function or None, iterable)", "Return the items of iterable for which function(item) is true."},
    {"reversed", bi_reversed, "reversed(sequence, /)", "Return a reverse iterator over the values of the given sequence."},
    {"sorted", bi_sorted, "sorted(iterable, /, *, key=None, reverse=False)", "Return a new list containing all items from the iterable in ascending order."},
    {"divmod", bi_divmod, "divmod(x, y, /)", "Return the tuple (x//y, x%y)."},
    {"pow", bi_pow, "pow(base, exp, mod=None)", "Equivalent to base**exp with 2 arguments or base**exp % mod with 3 arguments."},
    {"chr", bi_chr, "chr(i, /)", "Return a Unicode string of one character with ordinal i."},
    {"ord", bi_ord, "ord(c, /)", "Return the Unicode code point for a one-character string."},
    {"hex", bi_hex, "hex(number, /)", "Return the hexadecimal representation of an integer."},
    {"oct", bi_oct, "oct(number, /)", "Return the octal representation of an integer."},
    {"bin", bi_bin, "bin(number, /)", "Return the binary representation of an integer."},
    {"format", bi_format, "format(value, format_spec='', /)", "Return value formatted according to format_spec."},
    {"getattr", bi_getattr, "getattr(object, name[, default])", "Get a named attribute from an object."},
    {"hasattr", bi_hasattr, "hasattr(obj, name, /)", "Return whether the object has an attribute with the given name."},
    {"setattr", bi_setattr, "setattr(obj, name, value, /)", "Sets the named attribute on the given object to the specified value."},
    {"dir", bi_dir, "dir([object])", "Return the sorted names in the current scope or the attributes of the object."},
    {"exit", bi_exit, "exit(code=None)", "Exit the interpreter by raising SystemExit(code)."},
    {"quit", bi_exit, "quit(code=None)", "Exit the interpreter by raising SystemExit(code)."},
    {"input", bi_input, "input(prompt='', /)", "Read a string from standard input; the trailing newline is stripped."},
    {"help", bi_help, "help(obj)", "Print the signature and a one-line description of obj."},
    {"synchronize", bi_synchronize, "synchronize()", "Compute every pending array and wait until the backend has finished."},
};

}  // namespace

void install_number_methods() {
    def_method(types::integer, "bit_length", m_int_bit_length, "int.bit_length()", "Number of bits necessary to represent self in binary.");
    def_method(types::integer, "conjugate", m_conjugate, "int.conjugate()", "Returns self, the complex conjugate of any int.");
    def_method(types::real, "is_integer", m_float_is_integer, "float.is_integer()", "Return True if the float is an integer.");
    def_method(types::real, "conjugate", m_conjugate, "float.conjugate()", "Return self, the complex conjugate of any float.");
    def_method(types::BaseException, "with_traceback", m_exc_with_traceback, "BaseException.with_traceback(tb)", "Returns the exception itself.");
    types::integer->construct = t_int;
    types::integer->doc = "int([x]) -> integer; int(x, base=10) -> integer (64-bit in gpy)";
    types::real->construct = t_float;
    types::real->doc = "float(x=0, /): convert a string or number to a floating point number";
    types::boolean->construct = t_bool;
    types::boolean->doc = "bool(x) -> True if x is truthy else False";
    types::str->construct = t_str;
    types::str->doc = "str(object='') -> str";
    types::list->construct = t_list;
    types::list->doc = "list(iterable=(), /): built-in mutable sequence";
    types::tuple->construct = t_tuple;
    types::tuple->doc = "tuple(iterable=(), /): built-in immutable sequence";
    types::dict->construct = t_dict;
    types::dict->doc = "dict(mapping_or_iterable=(), **kwargs): insertion-ordered mapping";
    types::set->construct = t_set;
    types::set->doc = "set(iterable=(), /): unordered collection of unique elements";
    types::range->construct = t_range;
    types::range->doc = "range(stop) / range(start, stop[, step]): immutable sequence of integers";
    types::type->construct = t_type;
    types::type->doc = "type(object) -> the object's type";
    types::slice->construct = t_slice;
}

// slice.indices(length): (start, stop, step) clamped as a sequence of that length sees them.
Value m_slice_indices(Interp&, CallArgs& a) {
    expect_args(a, "indices", 2, 2);
    int64_t n = index_arg(a[1]);
    if (n < 0) raise(types::ValueError, "length should not be negative");
    int64_t b, e, st, cnt;
    a[0].as<SliceObj>()->indices(n, b, e, st, cnt);
    return make_tuple({Value::integer(b), Value::integer(e), Value::integer(st)});
}

void install_type_methods() {
    def_method(types::slice, "indices", m_slice_indices, "slice.indices(len, /)", "Assuming a sequence of length len, calculate the start and stop indices, and the stride length of the extended slice described by the slice object.");
    install_number_methods();
    install_complex_type();
    install_str_methods();
    install_container_methods();
}

void install_builtins(Interp& in) {
    for (const BuiltinSpec& b : kBuiltins) in.builtins[b.name] = make_builtin(b.name, b.fn, b.sig, b.doc);
    auto type_value = [](TypeObject* t) { return Value::object(t); };
    in.builtins["int"] = type_value(types::integer);
    in.builtins["float"] = type_value(types::real);
    in.builtins["complex"] = type_value(types::complex);
    in.builtins["bool"] = type_value(types::boolean);
    in.builtins["str"] = type_value(types::str);
    in.builtins["list"] = type_value(types::list);
    in.builtins["tuple"] = type_value(types::tuple);
    in.builtins["dict"] = type_value(types::dict);
    in.builtins["set"] = type_value(types::set);
    in.builtins["range"] = type_value(types::range);
    in.builtins["type"] = type_value(types::type);
    in.builtins["slice"] = type_value(types::slice);
    for (TypeObject* e : types::all_exceptions()) in.builtins[e->name] = type_value(e);
    in.builtins["Ellipsis"] = ellipsis_value();
    add_class_builtins(in);
}

}  // namespace gpy
