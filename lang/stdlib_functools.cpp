// Python's functools, natively: reduce, partial, lru_cache/cache,
// cmp_to_key, wraps (which returns the wrapper as it is: gpy's functions
// carry no attributes yet) and update_wrapper.
#include <deque>

#include "lang/stdlib_modules.h"

namespace gpy {

namespace {

Value reduce(Interp& in, CallArgs& a) {
    no_kwargs(a, "reduce");
    if (a.npos < 2 || a.npos > 3)
        raise(types::TypeError, a.npos < 2 ? "reduce expected at least 2 arguments, got " + std::to_string(a.npos)
                                           : "reduce expected at most 3 arguments, got " + std::to_string(a.npos));
    Value it = get_iter(in, a[1]);
    Value acc;
    if (a.npos == 3) acc = a[2];
    else if (!iter_next(in, it, acc)) raise(types::TypeError, "reduce() of empty iterable with no initial value");
    Value item;
    while (iter_next(in, it, item)) {
        Value args[2] = {acc, item};
        CallArgs c{args, 2, nullptr};
        acc = in.call(a[0], c);
    }
    return acc;
}

// ---- partial ----

TypeObject* partial_type();

struct PartialObj : Object {
    Value func;
    std::vector<Value> args;
    std::vector<std::pair<std::string, Value>> keywords;
    PartialObj() : Object(partial_type()) {}
};

Value partial_construct(Interp&, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "type 'partial' takes at least one argument");
    auto* p = new PartialObj();
    Value keep = Value::object(p);
    Value f = a[0];
    // A partial of a partial flattens, as CPython's.
    if (f.is_obj() && f.o->type == partial_type()) {
        auto* inner = static_cast<PartialObj*>(f.o);
        p->func = inner->func;
        p->args = inner->args;
        p->keywords = inner->keywords;
    } else {
        p->func = f;
    }
    for (size_t k = 1; k < a.npos; ++k) p->args.push_back(a[k]);
    for (size_t k = 0; k < a.nkw(); ++k) {
        bool replaced = false;
        for (auto& [n, v] : p->keywords)
            if (n == (*a.kw)[k].first) {
                v = (*a.kw)[k].second;
                replaced = true;
            }
        if (!replaced) p->keywords.push_back((*a.kw)[k]);
    }
    return keep;
}

Value partial_call(Interp& in, CallArgs& a) {
    auto* p = static_cast<PartialObj*>(a.pos[0].o);
    std::vector<Value> args = p->args;
    args.insert(args.end(), a.pos + 1, a.pos + a.npos);
    std::vector<std::pair<std::string, Value>> kw = p->keywords;
    for (size_t k = 0; k < a.nkw(); ++k) {
        bool replaced = false;
        for (auto& [n, v] : kw)
            if (n == (*a.kw)[k].first) {
                v = (*a.kw)[k].second;
                replaced = true;
            }
        if (!replaced) kw.push_back((*a.kw)[k]);
    }
    CallArgs c{args.data(), args.size(), kw.empty() ? nullptr : &kw};
    return in.call(p->func, c);
}

Value partial_getattr(Interp& in, const Value& self, const std::string& name) {
    auto* p = static_cast<PartialObj*>(self.o);
    if (name == "func") return p->func;
    if (name == "args") return make_tuple(p->args);
    if (name == "keywords") {
        auto* d = new DictObj();
        Value r = Value::object(d);
        for (auto& [n, v] : p->keywords) d->table.set(in, make_str(n), v);
        return r;
    }
    return Value();
}

std::string partial_repr(Interp& in, const Value& self) {
    auto* p = static_cast<PartialObj*>(self.o);
    std::string s = "functools.partial(" + repr(in, p->func);
    for (const Value& v : p->args) s += ", " + repr(in, v);
    for (auto& [n, v] : p->keywords) s += ", " + n + "=" + repr(in, v);
    return s + ")";
}

TypeObject* partial_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("functools.partial", nullptr, OK::Other);
        t->construct = partial_construct;
        t->getattr = partial_getattr;
        t->repr = partial_repr;
        def_method(t, "__call__", partial_call, "__call__(*args, **keywords)", "Calls func with the stored and the new arguments.");
        return t;
    }();
    return t;
}

// ---- lru_cache / cache ----

TypeObject* cached_type();

struct CachedObj : Object {
    Value func;
    int64_t maxsize = 128;  // -1: unbounded
    DictObj* table = new DictObj();
    Value keep_table = Value::object(table);
    std::deque<Value> order;  // least recently used first (bounded caches)
    int64_t hits = 0, misses = 0;
    CachedObj() : Object(cached_type()) {}
};

// The cache key of a call: the positional arguments, then a marker and the
// keyword pairs (CPython's _make_key, without typed=).
Value call_key(CallArgs& a) {
    std::vector<Value> items(a.pos + 1, a.pos + a.npos);
    if (a.nkw()) {
        items.push_back(make_str("\x01gpy-kwargs"));
        for (auto& [n, v] : *a.kw) {
            items.push_back(make_str(n));
            items.push_back(v);
        }
    }
    return make_tuple(std::move(items));
}

Value cached_call(Interp& in, CallArgs& a) {
    auto* c = static_cast<CachedObj*>(a.pos[0].o);
    if (c->maxsize == 0) {
        ++c->misses;
        CallArgs rest{a.pos + 1, a.npos - 1, a.kw};
        return in.call(c->func, rest);
    }
    Value key = call_key(a);
    const long at = c->table->table.find(in, key);
    if (at >= 0) {
        ++c->hits;
        if (c->maxsize > 0) {
            for (auto it = c->order.begin(); it != c->order.end(); ++it)
                if (values_equal(in, *it, key)) {
                    c->order.erase(it);
                    break;
                }
            c->order.push_back(key);
        }
        return c->table->table.entries[size_t(at)].value;
    }
    ++c->misses;
    CallArgs rest{a.pos + 1, a.npos - 1, a.kw};
    Value r = in.call(c->func, rest);
    c->table->table.set(in, key, r);
    if (c->maxsize > 0) {
        c->order.push_back(key);
        while (int64_t(c->order.size()) > c->maxsize) {
            c->table->table.erase(in, c->order.front());
            c->order.pop_front();
        }
    }
    return r;
}

Value cache_info(Interp&, CallArgs& a) {
    auto* c = static_cast<CachedObj*>(a.pos[0].o);
    // CPython's CacheInfo is a named tuple; its repr is what scripts print.
    return make_str("CacheInfo(hits=" + std::to_string(c->hits) + ", misses=" + std::to_string(c->misses) + ", maxsize=" +
                    (c->maxsize < 0 ? std::string("None") : std::to_string(c->maxsize)) + ", currsize=" +
                    std::to_string(c->table->table.live) + ")");
}

Value cache_clear(Interp&, CallArgs& a) {
    auto* c = static_cast<CachedObj*>(a.pos[0].o);
    c->table->table.clear();
    c->order.clear();
    c->hits = c->misses = 0;
    return Value::none();
}

Value cached_getattr(Interp& in, const Value& self, const std::string& name) {
    auto* c = static_cast<CachedObj*>(self.o);
    if (name == "__wrapped__") return c->func;
    if (name == "__name__" || name == "__doc__" || name == "__qualname__") return get_attr(in, c->func, name);
    return Value();
}

std::string cached_repr(Interp& in, const Value& self) {
    return "<functools._lru_cache_wrapper object of " + repr(in, static_cast<CachedObj*>(self.o)->func) + ">";
}

TypeObject* cached_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("functools._lru_cache_wrapper", nullptr, OK::Other);
        t->getattr = cached_getattr;
        t->repr = cached_repr;
        def_method(t, "__call__", cached_call, "__call__(*args, **kwargs)", "The function's result, from the cache when the arguments were seen.");
        def_method(t, "cache_info", cache_info, "cache_info()", "Report cache statistics.");
        def_method(t, "cache_clear", cache_clear, "cache_clear()", "Clear the cache and cache statistics.");
        return t;
    }();
    return t;
}

Value make_cached(const Value& func, int64_t maxsize) {
    auto* c = new CachedObj();
    Value keep = Value::object(c);
    c->func = func;
    c->maxsize = maxsize;
    return keep;
}

bool callable_value(const Value& v) {
    return v.is_obj() && (v.o->type->kind == OK::Function || v.o->type->kind == OK::Builtin || v.o->type->kind == OK::BoundMethod ||
                          v.o->type->kind == OK::Type || v.o->type->lookup("__call__"));
}

Value lru_decorate(Interp&, CallArgs& a) {
    expect_args(a, "decorating_function", 2, 2);  // (the bound maxsize, then the function)
    return make_cached(a.pos[1], a.pos[0].as_int());
}

// lru_cache(maxsize=128, typed=False), or @lru_cache on a function.
Value lru_cache(Interp&, CallArgs& a) {
    const Value* m = stdlib_arg(a, 0, "maxsize");
    if (m && callable_value(*m) && a.npos == 1) return make_cached(*m, 128);
    int64_t maxsize = 128;
    if (m) {
        if (m->is_none()) maxsize = -1;
        else if (m->kind == VK::Int) maxsize = std::max<int64_t>(0, m->i);
        else raise(types::TypeError, "Expected first argument to be an integer, a callable, or None");
    }
    auto* b = new BuiltinObj("decorating_function", lru_decorate, "decorating_function(user_function)", "Wraps a function in an LRU cache.");
    b->bound = Value::integer(maxsize);
    return Value::object(b);
}

Value cache(Interp&, CallArgs& a) {
    expect_args(a, "cache", 1, 1);
    return make_cached(a[0], -1);
}

// ---- cmp_to_key ----

TypeObject* cmp_key_type();

struct CmpKeyObj : Object {
    Value cmp, obj;
    CmpKeyObj() : Object(cmp_key_type()) {}
};

Value cmp_key_compare(Interp& in, CmpOp op, const Value& a, const Value& b) {
    if (!a.is_obj() || a.o->type != cmp_key_type() || !b.is_obj() || b.o->type != cmp_key_type()) return Value();
    auto* x = static_cast<CmpKeyObj*>(a.o);
    Value args[2] = {x->obj, static_cast<CmpKeyObj*>(b.o)->obj};
    CallArgs c{args, 2, nullptr};
    Value r = in.call(x->cmp, c);
    return Value::boolean(compare_op(in, op, r, Value::integer(0)));
}

TypeObject* cmp_key_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("functools.KeyWrapper", nullptr, OK::Other);
        t->compare = cmp_key_compare;
        return t;
    }();
    return t;
}

Value make_cmp_key(Interp&, CallArgs& a) {
    expect_args(a, "K", 2, 2);
    auto* k = new CmpKeyObj();
    Value keep = Value::object(k);
    k->cmp = a.pos[0];
    k->obj = a.pos[1];
    return keep;
}

Value cmp_to_key(Interp&, CallArgs& a) {
    expect_args(a, "cmp_to_key", 1, 1);
    auto* b = new BuiltinObj("K", make_cmp_key, "K(obj)", "A key comparing objects with the cmp function.");
    b->bound = a[0];
    return Value::object(b);
}

// wraps(wrapped): a decorator returning the wrapper itself (no attributes to copy in gpy).
Value identity_decorate(Interp&, CallArgs& a) {
    expect_args(a, "decorator", 2, 2);  // (the bound wrapped, then the wrapper)
    return a.pos[1];
}
Value wraps(Interp&, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "wraps() missing 1 required positional argument: 'wrapped'");
    auto* b = new BuiltinObj("decorator", identity_decorate, "decorator(wrapper)", "Returns the wrapper.");
    b->bound = a[0];
    return Value::object(b);
}
Value update_wrapper(Interp&, CallArgs& a) {
    if (a.npos < 2) raise(types::TypeError, "update_wrapper() missing required arguments 'wrapper' and 'wrapped'");
    return a[0];
}

}  // namespace

// total_ordering: the comparisons a class lacks, from the one it defines
// (CPython's formulas: from __lt__, a > b is not (a < b) and a != b, ...).
// Each is a builtin bound to the root method; NotImplemented passes through.
Value ordering_result(Interp& in, const Value& r) {
    return is_kind(r, OK::Other) && r.o == in.builtins["NotImplemented"].o ? r : Value();
}

template <int Kind>  // which derived method: see total_ordering's table
Value derived_compare(Interp& in, CallArgs& a) {
    if (a.npos != 3) raise(types::TypeError, "comparison takes exactly one argument");
    const Value& root = a[0];
    const Value& self = a[1];
    const Value& other = a[2];
    Value args[2] = {self, other};
    CallArgs c{args, 2, nullptr};
    Value r = in.call(root, c);
    if (Value ni = ordering_result(in, r); !ni.is_undef()) return ni;
    const bool op = truthy(r);
    switch (Kind) {
        case 0: return Value::boolean(!op && !values_equal(in, self, other));  // __gt__ from __lt__
        case 1: return Value::boolean(op || values_equal(in, self, other));    // __le__ from __lt__
        case 2: return Value::boolean(!op);                                      // __ge__ from __lt__, __lt__ from __ge__, ...
        case 3: return Value::boolean(!op || values_equal(in, self, other));   // __ge__ from __le__ / __le__ from __ge__
        case 4: return Value::boolean(op && !values_equal(in, self, other));   // __lt__ from __le__ / __gt__ from __ge__
        default: return Value::boolean(!op && !values_equal(in, self, other));
    }
}

Value total_ordering(Interp&, CallArgs& a) {
    if (a.npos != 1 || !is_kind(a[0], OK::Type)) raise(types::TypeError, "total_ordering() takes a class");
    auto* cls = a[0].as<TypeObject>();
    const char* ops[] = {"__lt__", "__le__", "__gt__", "__ge__"};
    const char* root = nullptr;
    for (const char* op : ops)
        if (class_defines(cls, op)) {
            root = op;
            break;
        }
    if (!root) raise(types::ValueError, "must define at least one ordering operation: < > <= >=");
    struct Derived {
        const char* name;
        NativeFn fn;
    };
    std::vector<Derived> table;
    const std::string r = root;
    if (r == "__lt__") table = {{"__gt__", derived_compare<0>}, {"__le__", derived_compare<1>}, {"__ge__", derived_compare<2>}};
    if (r == "__le__") table = {{"__ge__", derived_compare<3>}, {"__lt__", derived_compare<4>}, {"__gt__", derived_compare<2>}};
    if (r == "__gt__") table = {{"__lt__", derived_compare<0>}, {"__ge__", derived_compare<1>}, {"__le__", derived_compare<2>}};
    if (r == "__ge__") table = {{"__le__", derived_compare<3>}, {"__gt__", derived_compare<4>}, {"__lt__", derived_compare<2>}};
    const Value root_fn = *cls->lookup(root);
    for (const Derived& d : table) {
        if (class_defines(cls, d.name)) continue;
        auto* b = new BuiltinObj(d.name, d.fn, std::string(d.name) + "(self, other)", "");
        b->bound = root_fn;
        cls->dict[d.name] = Value::object(b);
    }
    return a[0];
}

ModuleObj* make_functools(Interp&) {
    auto* m = new ModuleObj("functools");
    m->doc = "Tools for working with functions and callable objects (Python's functools).";
    stdlib_def(m, "total_ordering", total_ordering, "total_ordering(cls)", "Class decorator that fills in missing ordering methods.");
    stdlib_def(m, "reduce", reduce, "reduce(function, iterable[, initial], /)", "Apply a function of two arguments cumulatively to the items of a sequence.");
    m->set("partial", Value::object(partial_type()));
    stdlib_def(m, "lru_cache", lru_cache, "lru_cache(maxsize=128, typed=False)", "Least-recently-used cache decorator.");
    stdlib_def(m, "cache", cache, "cache(user_function, /)", "Simple lightweight unbounded cache.  Sometimes called \"memoize\".");
    stdlib_def(m, "cmp_to_key", cmp_to_key, "cmp_to_key(mycmp, /)", "Convert a cmp= function into a key= function.");
    stdlib_def(m, "wraps", wraps, "wraps(wrapped, assigned=..., updated=...)", "Decorator factory to apply update_wrapper() to a wrapper function.");
    stdlib_def(m, "update_wrapper", update_wrapper, "update_wrapper(wrapper, wrapped, assigned=..., updated=...)", "Update a wrapper function to look like the wrapped function.");
    return m;
}

}  // namespace gpy
