// Python's collections, natively, so far only deque (a double-ended queue
// with maxlen, rotate and CPython's repr and errors). Counter, defaultdict,
// OrderedDict and namedtuple are dict and tuple subclasses in CPython: they
// wait for user classes (issue 25).
#include <algorithm>
#include <deque>

#include "lang/stdlib_modules.h"

namespace gpy {

namespace {

TypeObject* deque_type();

struct DequeObj : Object {
    std::deque<Value> items;
    int64_t maxlen = -1;  // -1: unbounded
    uint64_t mutations = 0;  // iterators notice a change (CPython's RuntimeError)
    DequeObj() : Object(deque_type()) {}
    void push_back(Value v) {
        if (maxlen == 0) return;
        items.push_back(std::move(v));
        if (maxlen > 0 && int64_t(items.size()) > maxlen) items.pop_front();
        ++mutations;
    }
    void push_front(Value v) {
        if (maxlen == 0) return;
        items.push_front(std::move(v));
        if (maxlen > 0 && int64_t(items.size()) > maxlen) items.pop_back();
        ++mutations;
    }
};

DequeObj* self_deque(CallArgs& a) { return static_cast<DequeObj*>(a.pos[0].o); }

struct DequeIter : IterObj {
    Value d;
    size_t pos = 0;
    uint64_t mutations;
    bool reverse;
    DequeIter(Value q, bool rev) : d(std::move(q)), mutations(static_cast<DequeObj*>(d.o)->mutations), reverse(rev) {}
    bool next(Interp&, Value& out) override {
        auto* q = static_cast<DequeObj*>(d.o);
        if (q->mutations != mutations) raise(types::RuntimeError, "deque mutated during iteration");
        if (pos >= q->items.size()) return false;
        out = reverse ? q->items[q->items.size() - 1 - pos] : q->items[pos];
        ++pos;
        return true;
    }
    const char* type_name() const override { return reverse ? "_collections._deque_reverse_iterator" : "_collections._deque_iterator"; }
};

Value deque_construct(Interp& in, CallArgs& a) {
    if (a.npos > 2) raise(types::TypeError, "deque() takes at most 2 arguments (" + std::to_string(a.npos) + " given)");
    auto* q = new DequeObj();
    Value keep = Value::object(q);
    if (const Value* m = stdlib_arg(a, 1, "maxlen"); m && !m->is_none()) {
        if (!m->is_intlike()) raise(types::TypeError, std::string("an integer is required"));
        if (m->as_int() < 0) raise(types::ValueError, "maxlen must be non-negative");
        q->maxlen = m->as_int();
    }
    if (const Value* it = stdlib_arg(a, 0, "iterable"))
        for (const Value& v : to_vector(in, *it)) q->push_back(v);
    return keep;
}

Value dq_append(Interp&, CallArgs& a) { expect_args(a, "append", 2, 2); self_deque(a)->push_back(a.pos[1]); return Value::none(); }
Value dq_appendleft(Interp&, CallArgs& a) { expect_args(a, "appendleft", 2, 2); self_deque(a)->push_front(a.pos[1]); return Value::none(); }
Value dq_extend(Interp& in, CallArgs& a) {
    expect_args(a, "extend", 2, 2);
    for (const Value& v : to_vector(in, a.pos[1])) self_deque(a)->push_back(v);
    return Value::none();
}
Value dq_extendleft(Interp& in, CallArgs& a) {
    expect_args(a, "extendleft", 2, 2);
    for (const Value& v : to_vector(in, a.pos[1])) self_deque(a)->push_front(v);
    return Value::none();
}
Value dq_pop(Interp&, CallArgs& a) {
    expect_args(a, "pop", 1, 1);
    DequeObj* q = self_deque(a);
    if (q->items.empty()) raise(types::IndexError, "pop from an empty deque");
    Value v = q->items.back();
    q->items.pop_back();
    ++q->mutations;
    return v;
}
Value dq_popleft(Interp&, CallArgs& a) {
    expect_args(a, "popleft", 1, 1);
    DequeObj* q = self_deque(a);
    if (q->items.empty()) raise(types::IndexError, "pop from an empty deque");
    Value v = q->items.front();
    q->items.pop_front();
    ++q->mutations;
    return v;
}
Value dq_clear(Interp&, CallArgs& a) {
    DequeObj* q = self_deque(a);
    q->items.clear();
    ++q->mutations;
    return Value::none();
}
Value dq_rotate(Interp&, CallArgs& a) {
    expect_args(a, "rotate", 1, 2);
    DequeObj* q = self_deque(a);
    int64_t n = a.npos > 1 ? index_arg(a.pos[1]) : 1;
    const int64_t len = int64_t(q->items.size());
    if (len <= 1) return Value::none();
    n %= len;
    if (n < 0) n += len;
    std::rotate(q->items.begin(), q->items.begin() + (len - n), q->items.end());
    ++q->mutations;
    return Value::none();
}
Value dq_count(Interp& in, CallArgs& a) {
    expect_args(a, "count", 2, 2);
    DequeObj* q = self_deque(a);
    const uint64_t before = q->mutations;
    int64_t n = 0;
    for (size_t k = 0; k < q->items.size(); ++k) {
        Value v = q->items[k];
        n += values_equal(in, v, a.pos[1]) ? 1 : 0;
        if (q->mutations != before) raise(types::RuntimeError, "deque mutated during iteration");
    }
    return Value::integer(n);
}
Value dq_index(Interp& in, CallArgs& a) {
    expect_args(a, "index", 2, 4);
    DequeObj* q = self_deque(a);
    const int64_t len = int64_t(q->items.size());
    int64_t lo = a.npos > 2 ? index_arg(a.pos[2]) : 0, hi = a.npos > 3 ? index_arg(a.pos[3]) : len;
    if (lo < 0) lo = std::max<int64_t>(0, lo + len);
    if (hi < 0) hi = std::max<int64_t>(0, hi + len);
    const uint64_t before = q->mutations;
    for (int64_t k = lo; k < std::min(hi, len); ++k) {
        Value v = q->items[size_t(k)];
        const bool eq = values_equal(in, v, a.pos[1]);
        if (q->mutations != before) raise(types::RuntimeError, "deque mutated during iteration");
        if (eq) return Value::integer(k);
    }
    raise(types::ValueError, repr(in, a.pos[1]) + " is not in deque");
}
Value dq_remove(Interp& in, CallArgs& a) {
    expect_args(a, "remove", 2, 2);
    DequeObj* q = self_deque(a);
    const uint64_t before = q->mutations;
    for (size_t k = 0; k < q->items.size(); ++k) {
        Value v = q->items[k];
        const bool eq = values_equal(in, v, a.pos[1]);
        if (q->mutations != before) raise(types::IndexError, "deque mutated during remove().");
        if (eq) {
            q->items.erase(q->items.begin() + long(k));
            ++q->mutations;
            return Value::none();
        }
    }
    raise(types::ValueError, repr(in, a.pos[1]) + " is not in deque");
}
Value dq_insert(Interp&, CallArgs& a) {
    expect_args(a, "insert", 3, 3);
    DequeObj* q = self_deque(a);
    if (q->maxlen >= 0 && int64_t(q->items.size()) >= q->maxlen) raise(types::IndexError, "deque already at its maximum size");
    const int64_t len = int64_t(q->items.size());
    int64_t i = index_arg(a.pos[1]);
    if (i < 0) i = std::max<int64_t>(0, i + len);
    i = std::min(i, len);
    q->items.insert(q->items.begin() + i, a.pos[2]);
    ++q->mutations;
    return Value::none();
}
Value dq_reverse(Interp&, CallArgs& a) {
    DequeObj* q = self_deque(a);
    std::reverse(q->items.begin(), q->items.end());
    ++q->mutations;
    return Value::none();
}
Value dq_copy(Interp&, CallArgs& a) {
    auto* c = new DequeObj();
    Value keep = Value::object(c);
    c->items = self_deque(a)->items;
    c->maxlen = self_deque(a)->maxlen;
    return keep;
}

Value dq_getattr(Interp&, const Value& self, const std::string& name) {
    if (name == "maxlen") {
        const int64_t m = static_cast<DequeObj*>(self.o)->maxlen;
        return m < 0 ? Value::none() : Value::integer(m);
    }
    return Value();
}

size_t dq_position(DequeObj* q, const Value& key) {
    int64_t i = index_arg(key);
    const int64_t len = int64_t(q->items.size());
    if (i < 0) i += len;
    if (i < 0 || i >= len) raise(types::IndexError, "deque index out of range");
    return size_t(i);
}
Value dq_getitem(Interp&, const Value& self, const Value& key) {
    if (key.is_obj() && key.o->type == types::slice) raise(types::TypeError, "sequence index must be integer, not 'slice'");
    auto* q = static_cast<DequeObj*>(self.o);
    return q->items[dq_position(q, key)];
}
void dq_setitem(Interp&, const Value& self, const Value& key, Value v) {
    auto* q = static_cast<DequeObj*>(self.o);
    q->items[dq_position(q, key)] = std::move(v);
}
int64_t dq_len(Interp&, const Value& self) { return int64_t(static_cast<DequeObj*>(self.o)->items.size()); }
Value dq_iter(Interp&, const Value& self) { return Value::object(new DequeIter(self, false)); }
Value dq_reversed(Interp&, CallArgs& a) { return Value::object(new DequeIter(a.pos[0], true)); }
bool dq_truth(const Value& self) { return !static_cast<DequeObj*>(self.o)->items.empty(); }

std::string dq_repr(Interp& in, const Value& self) {
    auto* q = static_cast<DequeObj*>(self.o);
    std::string s = "deque([";
    for (size_t k = 0; k < q->items.size(); ++k) s += (k ? ", " : "") + repr(in, q->items[k]);
    s += "]";
    if (q->maxlen >= 0) s += ", maxlen=" + std::to_string(q->maxlen);
    return s + ")";
}

Value dq_compare(Interp& in, CmpOp op, const Value& a, const Value& b) {
    if (!a.is_obj() || a.o->type != deque_type() || !b.is_obj() || b.o->type != deque_type()) return Value();
    const auto& x = static_cast<DequeObj*>(a.o)->items;
    const auto& y = static_cast<DequeObj*>(b.o)->items;
    Value lx = make_list(std::vector<Value>(x.begin(), x.end())), ly = make_list(std::vector<Value>(y.begin(), y.end()));
    return rich_compare(in, op, lx, ly);
}

Value dq_contains(Interp& in, CallArgs& a) {
    DequeObj* q = self_deque(a);
    const uint64_t before = q->mutations;
    for (size_t k = 0; k < q->items.size(); ++k) {
        Value v = q->items[k];
        const bool eq = values_equal(in, v, a.pos[1]);
        if (q->mutations != before) raise(types::RuntimeError, "deque mutated during iteration");
        if (eq) return Value::boolean(true);
    }
    return Value::boolean(false);
}

TypeObject* deque_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("collections.deque", nullptr, OK::Other);
        t->doc = "deque([iterable[, maxlen]]): a list-like sequence optimized for data accesses near its endpoints.";
        t->construct = deque_construct;
        t->getattr = dq_getattr;
        t->getitem = dq_getitem;
        t->setitem = dq_setitem;
        t->len = dq_len;
        t->iter = dq_iter;
        t->truth = dq_truth;
        t->repr = dq_repr;
        t->compare = dq_compare;
        def_method(t, "append", dq_append, "append(x, /)", "Add an element to the right side of the deque.");
        def_method(t, "appendleft", dq_appendleft, "appendleft(x, /)", "Add an element to the left side of the deque.");
        def_method(t, "extend", dq_extend, "extend(iterable, /)", "Extend the right side of the deque with elements from the iterable.");
        def_method(t, "extendleft", dq_extendleft, "extendleft(iterable, /)", "Extend the left side of the deque with elements from the iterable.");
        def_method(t, "pop", dq_pop, "pop()", "Remove and return the rightmost element.");
        def_method(t, "popleft", dq_popleft, "popleft()", "Remove and return the leftmost element.");
        def_method(t, "clear", dq_clear, "clear()", "Remove all elements from the deque.");
        def_method(t, "rotate", dq_rotate, "rotate(n=1, /)", "Rotate the deque n steps to the right (default n=1).  If n is negative, rotates left.");
        def_method(t, "count", dq_count, "count(value, /)", "Return number of occurrences of value.");
        def_method(t, "index", dq_index, "index(value, [start, [stop]])", "Return first index of value.");
        def_method(t, "remove", dq_remove, "remove(value, /)", "Remove first occurrence of value.");
        def_method(t, "insert", dq_insert, "insert(index, object, /)", "Insert value before index.");
        def_method(t, "reverse", dq_reverse, "reverse()", "Reverse *IN PLACE*.");
        def_method(t, "copy", dq_copy, "copy()", "Return a shallow copy of a deque.");
        def_method(t, "__copy__", dq_copy, "__copy__()", "Return a shallow copy of a deque.");
        def_method(t, "__reversed__", dq_reversed, "__reversed__()", "Return a reverse iterator over the deque.");
        def_method(t, "__contains__", dq_contains, "__contains__(value, /)", "Return value in deque.");
        return t;
    }();
    return t;
}

}  // namespace

ModuleObj* make_collections(Interp&) {
    auto* m = new ModuleObj("collections");
    m->doc = "Container datatypes (Python's collections; deque so far).";
    m->set("deque", Value::object(deque_type()));
    return m;
}

}  // namespace gpy
