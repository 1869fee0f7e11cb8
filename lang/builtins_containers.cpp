// The methods of list, tuple, dict and set, with CPython 3.11's error text.
//
// Known differences from CPython:
//   - set.pop() removes the oldest element (sets iterate in insertion order
//     here), where CPython's choice follows its hash layout;
//   - dict.fromkeys works both as dict.fromkeys(it[, v]) and d.fromkeys(it[, v]),
//     but a method looked up on the type and one bound to an instance reach
//     it the same way, so dict.fromkeys(some_dict, v) with a dict as the
//     iterable is read as the type-level call (which is what it usually is)
//     and {}.fromkeys(it, v) with two arguments as well;
//   - list.sort() leaves the list in its original order if a comparison or
//     the key function raises (CPython leaves it partly sorted).
#include <algorithm>
#include <climits>
#include <numeric>

#include "lang/interp.h"
#include "lang/method_args.h"

namespace gpy {

namespace {

using namespace margs;

[[noreturn]] void key_error(const Value& key) {
    Value e = make_exception(types::KeyError, "");
    e.as<ExceptionObj>()->args = make_tuple({key});
    throw GpyError{e};
}

// start/stop of list.index and tuple.index (None is not accepted).
int64_t index_bound(const Value& v, int64_t len) {
    int64_t x;
    if (!index_value(v, x)) type_error("slice indices must be integers or have an __index__ method");
    if (x < 0) {
        x += len;
        if (x < 0) x = 0;
    }
    return x;
}

// Identity first, as CPython does (and as `in` does here).
bool same_or_equal(Interp& in, const Value& a, const Value& b) {
    return (a.kind == b.kind && a.i == b.i) || values_equal(in, a, b);
}

// ---------------------------------------------------------------- list --

std::vector<Value>& list_items(CallArgs& a) { return a.pos[0].as<ListObj>()->items; }

Value list_append(Interp&, CallArgs& a) {
    onearg(a, types::list, "append");
    list_items(a).push_back(a.pos[1]);
    return Value::none();
}

Value list_extend(Interp& in, CallArgs& a) {
    onearg(a, types::list, "extend");
    std::vector<Value> extra;
    const Value& it = a.pos[1];
    if (is_kind(it, OK::List)) extra = it.as<ListObj>()->items;  // may be the list itself
    else if (is_kind(it, OK::Tuple)) extra = it.as<TupleObj>()->items;
    else extra = to_vector(in, it);
    auto& items = list_items(a);
    items.insert(items.end(), std::make_move_iterator(extra.begin()), std::make_move_iterator(extra.end()));
    return Value::none();
}

Value list_pop(Interp&, CallArgs& a) {
    clinic(a, types::list, "pop", 0, 1);
    auto& items = list_items(a);
    int64_t k = a.npos > 1 ? int_arg(a.pos[1]) : -1;
    if (items.empty()) raise(types::IndexError, "pop from empty list");
    int64_t n = int64_t(items.size());
    if (k < 0) k += n;
    if (k < 0 || k >= n) raise(types::IndexError, "pop index out of range");
    Value v = std::move(items[size_t(k)]);
    items.erase(items.begin() + k);
    return v;
}

Value list_insert(Interp&, CallArgs& a) {
    clinic(a, types::list, "insert", 2, 2);
    auto& items = list_items(a);
    int64_t k = int_arg(a.pos[1]);
    int64_t n = int64_t(items.size());
    if (k < 0) {
        k += n;
        if (k < 0) k = 0;
    } else if (k > n) {
        k = n;
    }
    items.insert(items.begin() + k, a.pos[2]);
    return Value::none();
}

// index(x[, start[, stop]]) for list and tuple; -1 when absent.
int64_t seq_index(Interp& in, CallArgs& a, const std::vector<Value>& items) {
    int64_t n = int64_t(items.size());
    int64_t start = a.npos > 2 ? index_bound(a.pos[2], n) : 0;
    int64_t stop = a.npos > 3 ? index_bound(a.pos[3], n) : INT64_MAX;
    for (int64_t k = start; k < stop && k < int64_t(items.size()); ++k)
        if (same_or_equal(in, items[size_t(k)], a.pos[1])) return k;
    return -1;
}

Value list_index(Interp& in, CallArgs& a) {
    clinic(a, types::list, "index", 1, 3);
    int64_t k = seq_index(in, a, list_items(a));
    if (k < 0) value_error(repr(in, a.pos[1]) + " is not in list");
    return Value::integer(k);
}

int64_t seq_count(Interp& in, const std::vector<Value>& items, const Value& x) {
    int64_t c = 0;
    for (size_t k = 0; k < items.size(); ++k)
        if (same_or_equal(in, items[k], x)) ++c;
    return c;
}

Value list_count(Interp& in, CallArgs& a) {
    onearg(a, types::list, "count");
    return Value::integer(seq_count(in, list_items(a), a.pos[1]));
}

Value list_remove(Interp& in, CallArgs& a) {
    onearg(a, types::list, "remove");
    auto& items = list_items(a);
    for (size_t k = 0; k < items.size(); ++k) {
        if (same_or_equal(in, items[k], a.pos[1])) {
            if (k < items.size()) items.erase(items.begin() + int64_t(k));
            return Value::none();
        }
    }
    value_error("list.remove(x): x not in list");
}

Value list_clear(Interp&, CallArgs& a) {
    noargs(a, types::list, "clear");
    std::vector<Value> old;
    old.swap(list_items(a));  // items are released after the list is already empty
    return Value::none();
}

Value list_copy(Interp&, CallArgs& a) {
    noargs(a, types::list, "copy");
    return make_list(list_items(a));
}

Value list_reverse(Interp&, CallArgs& a) {
    noargs(a, types::list, "reverse");
    auto& items = list_items(a);
    std::reverse(items.begin(), items.end());
    return Value::none();
}

Value list_sort(Interp& in, CallArgs& a) {
    check_self(a, types::list, "sort");
    if (a.npos > 3) type_error("sort() takes at most 2 arguments (" + std::to_string(a.npos - 1) + " given)");
    if (a.npos > 1) type_error("sort() takes no positional arguments");
    Value key = Value::none();
    bool reverse = false;
    if (a.kw) {
        for (auto& [name, v] : *a.kw) {
            if (name == "key") key = v;
            else if (name == "reverse") reverse = int_arg(v) != 0;
            else type_error("'" + name + "' is an invalid keyword argument for sort()");
        }
    }
    auto* list = a.pos[0].as<ListObj>();
    // As in CPython the list looks empty while it is being sorted.
    std::vector<Value> items = std::move(list->items);
    list->items.clear();
    std::vector<size_t> order(items.size());
    std::iota(order.begin(), order.end(), size_t(0));
    try {
        std::vector<Value> keys;
        if (!key.is_none()) {
            keys.reserve(items.size());
            for (const Value& v : items) keys.push_back(in.call1(key, v));
        }
        const std::vector<Value>& k = key.is_none() ? items : keys;
        // Sorting indices keeps every Value in place if a comparison raises.
        if (reverse)
            std::stable_sort(order.begin(), order.end(),
                             [&](size_t x, size_t y) { return compare_op(in, CmpOp::Lt, k[y], k[x]); });
        else
            std::stable_sort(order.begin(), order.end(),
                             [&](size_t x, size_t y) { return compare_op(in, CmpOp::Lt, k[x], k[y]); });
    } catch (...) {
        std::vector<Value> added = std::move(list->items);
        list->items = std::move(items);
        throw;
    }
    std::vector<Value> sorted;
    sorted.reserve(items.size());
    for (size_t x : order) sorted.push_back(std::move(items[x]));
    bool modified = !list->items.empty();
    std::vector<Value> added = std::move(list->items);
    list->items = std::move(sorted);
    if (modified) value_error("list modified during sort");
    return Value::none();
}

// --------------------------------------------------------------- tuple --

Value tuple_index(Interp& in, CallArgs& a) {
    clinic(a, types::tuple, "index", 1, 3);
    int64_t k = seq_index(in, a, a.pos[0].as<TupleObj>()->items);
    if (k < 0) value_error("tuple.index(x): x not in tuple");
    return Value::integer(k);
}

Value tuple_count(Interp& in, CallArgs& a) {
    onearg(a, types::tuple, "count");
    return Value::integer(seq_count(in, a.pos[0].as<TupleObj>()->items, a.pos[1]));
}

// ---------------------------------------------------------------- dict --

HashTable& dict_table(CallArgs& a) { return a.pos[0].as<DictObj>()->table; }

Value dict_view(CallArgs& a, const char* name, int which) {
    noargs(a, types::dict, name);
    return Value::object(new DictViewObj(a.pos[0].as<DictObj>(), which));
}

Value dict_keys(Interp&, CallArgs& a) { return dict_view(a, "keys", 0); }
Value dict_values(Interp&, CallArgs& a) { return dict_view(a, "values", 1); }
Value dict_items(Interp&, CallArgs& a) { return dict_view(a, "items", 2); }

Value dict_get(Interp& in, CallArgs& a) {
    clinic(a, types::dict, "get", 1, 2);
    auto& t = dict_table(a);
    long k = t.find(in, a.pos[1]);
    if (k >= 0) return t.entries[size_t(k)].value;
    return a.npos > 2 ? a.pos[2] : Value::none();
}

Value dict_pop(Interp& in, CallArgs& a) {
    clinic(a, types::dict, "pop", 1, 2);
    auto& t = dict_table(a);
    long k = t.live == 0 ? -1 : t.find(in, a.pos[1]);  // an empty dict hashes nothing, as in CPython
    if (k < 0) {
        if (a.npos > 2) return a.pos[2];
        key_error(a.pos[1]);
    }
    Value v = t.entries[size_t(k)].value;
    t.erase(in, a.pos[1]);
    return v;
}

Value dict_popitem(Interp& in, CallArgs& a) {
    noargs(a, types::dict, "popitem");
    auto& t = dict_table(a);
    // Dead entries at the end are referenced by no slot: drop them so that
    // repeated popitem() stays O(1).
    while (!t.entries.empty() && t.entries.back().key.is_undef()) t.entries.pop_back();
    if (t.live == 0 || t.entries.empty()) raise(types::KeyError, "popitem(): dictionary is empty");
    Value key = t.entries.back().key, value = t.entries.back().value;
    t.erase(in, key);
    while (!t.entries.empty() && t.entries.back().key.is_undef()) t.entries.pop_back();
    return make_tuple({std::move(key), std::move(value)});
}

Value dict_setdefault(Interp& in, CallArgs& a) {
    clinic(a, types::dict, "setdefault", 1, 2);
    auto& t = dict_table(a);
    long k = t.find(in, a.pos[1]);
    if (k >= 0) return t.entries[size_t(k)].value;
    Value d = a.npos > 2 ? a.pos[2] : Value::none();
    t.set(in, a.pos[1], d);
    return d;
}

// Adds the pairs of `other` (a dict, or an iterable of 2-sequences) to t.
void merge_into(Interp& in, HashTable& t, const Value& other) {
    if (is_kind(other, OK::Dict)) {
        std::vector<std::pair<Value, Value>> pairs;
        for (auto& e : other.as<DictObj>()->table.entries)
            if (!e.key.is_undef()) pairs.emplace_back(e.key, e.value);
        for (auto& [k, v] : pairs) t.set(in, k, v);
        return;
    }
    std::vector<Value> elems = to_vector(in, other);
    for (size_t n = 0; n < elems.size(); ++n) {
        const Value& e = elems[n];
        std::vector<Value> kv;
        if (is_kind(e, OK::Tuple)) kv = e.as<TupleObj>()->items;
        else if (is_kind(e, OK::List)) kv = e.as<ListObj>()->items;
        else {
            try {
                kv = to_vector(in, e);
            } catch (GpyError& err) {
                if (err.obj()->type == types::TypeError)
                    type_error("cannot convert dictionary update sequence element #" + std::to_string(n) + " to a sequence");
                throw;
            }
        }
        if (kv.size() != 2)
            value_error("dictionary update sequence element #" + std::to_string(n) + " has length " +
                        std::to_string(kv.size()) + "; 2 is required");
        t.set(in, kv[0], kv[1]);
    }
}

Value dict_update(Interp& in, CallArgs& a) {
    clinic(a, types::dict, "update", 0, 1, true);
    auto& t = dict_table(a);
    if (a.npos > 1) merge_into(in, t, a.pos[1]);
    if (a.kw)
        for (auto& [k, v] : *a.kw) t.set(in, make_str(k), v);
    return Value::none();
}

Value dict_clear(Interp&, CallArgs& a) {
    noargs(a, types::dict, "clear");
    HashTable old = std::move(dict_table(a));
    dict_table(a).clear();
    return Value::none();
}

Value dict_copy(Interp& in, CallArgs& a) {
    noargs(a, types::dict, "copy");
    auto* d = new DictObj();
    Value out = Value::object(d);
    for (auto& e : dict_table(a).entries)
        if (!e.key.is_undef()) d->table.set(in, e.key, e.value);
    return out;
}

Value dict_fromkeys(Interp& in, CallArgs& a) {
    if (a.nkw()) type_error("dict.fromkeys() takes no keyword arguments");
    // Through an instance self comes first; through the type it does not.
    size_t first = 0;
    if (a.npos == 3 && is_kind(a.pos[0], OK::Dict)) first = 1;
    size_t n = a.npos - first;
    if (n < 1) type_error("fromkeys expected at least 1 argument, got " + std::to_string(n));
    if (n > 2) type_error("fromkeys expected at most 2 arguments, got " + std::to_string(n));
    Value v = n > 1 ? a.pos[first + 1] : Value::none();
    auto* d = new DictObj();
    Value out = Value::object(d);
    for_each(in, a.pos[first], [&](const Value& k) { d->table.set(in, k, v); return true; });
    return out;
}

// ----------------------------------------------------------------- set --

HashTable& set_table(CallArgs& a) { return a.pos[0].as<SetObj>()->table; }

// The elements of a set, or of any iterable.
std::vector<Value> elements(Interp& in, const Value& v) {
    if (is_kind(v, OK::Set)) {
        std::vector<Value> out;
        for (auto& e : v.as<SetObj>()->table.entries)
            if (!e.key.is_undef()) out.push_back(e.key);
        return out;
    }
    if (is_kind(v, OK::Dict)) {
        std::vector<Value> out;
        for (auto& e : v.as<DictObj>()->table.entries)
            if (!e.key.is_undef()) out.push_back(e.key);
        return out;
    }
    return to_vector(in, v);
}

// A hash table holding the elements of v (v's own table when it is a set).
const HashTable& as_table(Interp& in, const Value& v, HashTable& scratch) {
    if (is_kind(v, OK::Set)) return v.as<SetObj>()->table;
    for (const Value& x : elements(in, v)) scratch.set(in, x, Value::none());
    return scratch;
}

Value new_set(SetObj*& s) {
    s = new SetObj();
    return Value::object(s);
}

Value set_add(Interp& in, CallArgs& a) {
    onearg(a, types::set, "add");
    set_table(a).set(in, a.pos[1], Value::none());
    return Value::none();
}

Value set_remove(Interp& in, CallArgs& a) {
    onearg(a, types::set, "remove");
    if (!set_table(a).erase(in, a.pos[1])) key_error(a.pos[1]);
    return Value::none();
}

Value set_discard(Interp& in, CallArgs& a) {
    onearg(a, types::set, "discard");
    set_table(a).erase(in, a.pos[1]);
    return Value::none();
}

// set.pop() takes the oldest element. So that emptying a set with pop() stays
// linear, a dead entries[0] carries the index of the first possibly-live entry
// in its otherwise unused hash field, flagged by a value that is not Undef
// (erase() leaves dead entries' values Undef, and a rebuild drops dead
// entries, so the flag cannot be mistaken or go stale).
Value set_pop(Interp& in, CallArgs& a) {
    noargs(a, types::set, "pop");
    auto& t = set_table(a);
    if (t.live == 0) raise(types::KeyError, "pop from an empty set");
    size_t k = 0;
    const auto& head = t.entries[0];
    if (head.key.is_undef() && !head.value.is_undef() && head.hash < t.entries.size()) k = size_t(head.hash);
    while (t.entries[k].key.is_undef()) ++k;
    Value key = t.entries[k].key;
    t.erase(in, key);
    t.entries[0].value = Value::boolean(true);
    t.entries[0].hash = k + 1;
    return key;
}

Value set_clear(Interp&, CallArgs& a) {
    noargs(a, types::set, "clear");
    HashTable old = std::move(set_table(a));
    set_table(a).clear();
    return Value::none();
}

Value copy_set(Interp& in, const HashTable& t) {
    SetObj* s;
    Value out = new_set(s);
    for (auto& e : t.entries)
        if (!e.key.is_undef()) s->table.set(in, e.key, Value::none());
    return out;
}

Value set_copy(Interp& in, CallArgs& a) {
    noargs(a, types::set, "copy");
    return copy_set(in, set_table(a));
}

Value set_union(Interp& in, CallArgs& a) {
    varargs(a, types::set, "union");
    Value out = copy_set(in, set_table(a));
    auto& t = out.as<SetObj>()->table;
    for (size_t k = 1; k < a.npos; ++k)
        for (const Value& x : elements(in, a.pos[k])) t.set(in, x, Value::none());
    return out;
}

Value set_update(Interp& in, CallArgs& a) {
    varargs(a, types::set, "update");
    auto& t = set_table(a);
    for (size_t k = 1; k < a.npos; ++k)
        for (const Value& x : elements(in, a.pos[k])) t.set(in, x, Value::none());
    return Value::none();
}

// Elements of t that are (keep=true) or are not (keep=false) in every/any other.
Value filtered(Interp& in, const HashTable& t, CallArgs& a, bool keep) {
    std::vector<Value> cur;
    for (auto& e : t.entries)
        if (!e.key.is_undef()) cur.push_back(e.key);
    for (size_t k = 1; k < a.npos; ++k) {
        HashTable scratch;
        const HashTable& other = as_table(in, a.pos[k], scratch);
        std::vector<Value> next;
        for (const Value& x : cur)
            if ((other.find(in, x) >= 0) == keep) next.push_back(x);
        cur = std::move(next);
    }
    SetObj* s;
    Value out = new_set(s);
    for (const Value& x : cur) s->table.set(in, x, Value::none());
    return out;
}

Value set_intersection(Interp& in, CallArgs& a) {
    varargs(a, types::set, "intersection");
    return filtered(in, set_table(a), a, true);
}

Value set_difference(Interp& in, CallArgs& a) {
    varargs(a, types::set, "difference");
    return filtered(in, set_table(a), a, false);
}

Value set_intersection_update(Interp& in, CallArgs& a) {
    varargs(a, types::set, "intersection_update");
    Value r = filtered(in, set_table(a), a, true);
    set_table(a) = std::move(r.as<SetObj>()->table);
    return Value::none();
}

Value set_difference_update(Interp& in, CallArgs& a) {
    varargs(a, types::set, "difference_update");
    Value r = filtered(in, set_table(a), a, false);
    set_table(a) = std::move(r.as<SetObj>()->table);
    return Value::none();
}

Value sym_diff(Interp& in, const HashTable& t, const Value& other_v) {
    std::vector<Value> others = elements(in, other_v);
    HashTable other;
    for (const Value& x : others) other.set(in, x, Value::none());
    SetObj* s;
    Value out = new_set(s);
    for (auto& e : t.entries)
        if (!e.key.is_undef() && other.find(in, e.key) < 0) s->table.set(in, e.key, Value::none());
    for (auto& e : other.entries)
        if (!e.key.is_undef() && t.find(in, e.key) < 0) s->table.set(in, e.key, Value::none());
    return out;
}

Value set_symmetric_difference(Interp& in, CallArgs& a) {
    onearg(a, types::set, "symmetric_difference");
    return sym_diff(in, set_table(a), a.pos[1]);
}

Value set_symmetric_difference_update(Interp& in, CallArgs& a) {
    onearg(a, types::set, "symmetric_difference_update");
    Value r = sym_diff(in, set_table(a), a.pos[1]);
    set_table(a) = std::move(r.as<SetObj>()->table);
    return Value::none();
}

bool subset(Interp& in, const HashTable& small, const HashTable& big) {
    if (small.live > big.live) return false;
    for (auto& e : small.entries)
        if (!e.key.is_undef() && big.find(in, e.key) < 0) return false;
    return true;
}

Value set_issubset(Interp& in, CallArgs& a) {
    onearg(a, types::set, "issubset");
    HashTable scratch;
    return Value::boolean(subset(in, set_table(a), as_table(in, a.pos[1], scratch)));
}

Value set_issuperset(Interp& in, CallArgs& a) {
    onearg(a, types::set, "issuperset");
    auto& t = set_table(a);
    for (const Value& x : elements(in, a.pos[1]))
        if (t.find(in, x) < 0) return Value::boolean(false);
    return Value::boolean(true);
}

Value set_isdisjoint(Interp& in, CallArgs& a) {
    onearg(a, types::set, "isdisjoint");
    auto& t = set_table(a);
    for (const Value& x : elements(in, a.pos[1]))
        if (t.find(in, x) >= 0) return Value::boolean(false);
    return Value::boolean(true);
}

}  // namespace

// ---- named tuples ----

namespace {
const std::vector<Value>& named_fields(const TypeObject* t) { return t->lookup("_fields")->as<TupleObj>()->items; }

Value named_tuple_getattr(Interp&, const Value& v, const std::string& attr) {
    const auto& fields = named_fields(v.o->type);
    for (size_t k = 0; k < fields.size(); ++k)
        if (fields[k].as<StrObj>()->s == attr) return v.as<TupleObj>()->items[k];
    return Value();
}

std::string named_tuple_repr(Interp& in, const Value& v) {
    const auto& fields = named_fields(v.o->type);
    const auto& items = v.as<TupleObj>()->items;
    std::string out = v.o->type->name + "(";
    for (size_t k = 0; k < items.size(); ++k) {
        if (k) out += ", ";
        out += (k < fields.size() ? fields[k].as<StrObj>()->s : std::string("?")) + "=" + repr(in, items[k]);
    }
    return out + ")";
}
}  // namespace

TypeObject* make_named_tuple_type(const std::string& name, const std::vector<std::string>& fields) {
    auto* t = new TypeObject(name, types::tuple, OK::Tuple);
    std::vector<Value> names;
    for (const std::string& f : fields) names.push_back(make_str(f));
    t->dict["_fields"] = make_tuple(std::move(names));
    t->getattr = named_tuple_getattr;
    t->repr = named_tuple_repr;
    return t;
}

Value make_named_tuple(TypeObject* type, std::vector<Value> items) {
    auto* t = new TupleObj(std::move(items));
    t->type = type;
    return Value::object(t);
}

void install_container_methods() {
    TypeObject* l = types::list;
    def_method(l, "append", list_append, "list.append(object, /)", "Append object to the end of the list.");
    def_method(l, "extend", list_extend, "list.extend(iterable, /)", "Extend list by appending elements from the iterable.");
    def_method(l, "pop", list_pop, "list.pop(index=-1, /)", "Remove and return item at index (default last).");
    def_method(l, "insert", list_insert, "list.insert(index, object, /)", "Insert object before index.");
    def_method(l, "index", list_index, "list.index(value, start=0, stop=sys.maxsize, /)", "Return first index of value.");
    def_method(l, "remove", list_remove, "list.remove(value, /)", "Remove first occurrence of value.");
    def_method(l, "count", list_count, "list.count(value, /)", "Return number of occurrences of value.");
    def_method(l, "clear", list_clear, "list.clear()", "Remove all items from list.");
    def_method(l, "copy", list_copy, "list.copy()", "Return a shallow copy of the list.");
    def_method(l, "reverse", list_reverse, "list.reverse()", "Reverse *IN PLACE*.");
    def_method(l, "sort", list_sort, "list.sort(*, key=None, reverse=False)",
               "Sort the list in ascending order and return None.");

    TypeObject* t = types::tuple;
    def_method(t, "index", tuple_index, "tuple.index(value, start=0, stop=sys.maxsize, /)", "Return first index of value.");
    def_method(t, "count", tuple_count, "tuple.count(value, /)", "Return number of occurrences of value.");

    TypeObject* d = types::dict;
    def_method(d, "keys", dict_keys, "dict.keys()", "Return a set-like object providing a view on the dict's keys.");
    def_method(d, "values", dict_values, "dict.values()", "Return an object providing a view on the dict's values.");
    def_method(d, "items", dict_items, "dict.items()", "Return a set-like object providing a view on the dict's items.");
    def_method(d, "get", dict_get, "dict.get(key, default=None, /)",
               "Return the value for key if key is in the dictionary, else default.");
    def_method(d, "pop", dict_pop, "dict.pop(key[, default])",
               "Remove specified key and return the corresponding value, or default if the key is missing.");
    def_method(d, "popitem", dict_popitem, "dict.popitem()", "Remove and return a (key, value) pair as a 2-tuple.");
    def_method(d, "setdefault", dict_setdefault, "dict.setdefault(key, default=None, /)",
               "Insert key with a value of default if key is not in the dictionary.");
    def_method(d, "update", dict_update, "dict.update([other, ]**kwargs)",
               "Update the dict from a dict or iterable of pairs, and from keyword arguments.");
    def_method(d, "clear", dict_clear, "dict.clear()", "Remove all items from the dict.");
    def_method(d, "copy", dict_copy, "dict.copy()", "Return a shallow copy of the dict.");
    def_method(d, "fromkeys", dict_fromkeys, "dict.fromkeys(iterable, value=None, /)",
               "Create a new dictionary with keys from iterable and values set to value.");

    TypeObject* s = types::set;
    def_method(s, "add", set_add, "set.add(element, /)", "Add an element to a set.");
    def_method(s, "remove", set_remove, "set.remove(element, /)", "Remove an element from a set; it must be a member.");
    def_method(s, "discard", set_discard, "set.discard(element, /)", "Remove an element from a set if it is a member.");
    def_method(s, "pop", set_pop, "set.pop()", "Remove and return an arbitrary set element.");
    def_method(s, "clear", set_clear, "set.clear()", "Remove all elements from this set.");
    def_method(s, "copy", set_copy, "set.copy()", "Return a shallow copy of a set.");
    def_method(s, "union", set_union, "set.union(*others)", "Return the union of sets as a new set.");
    def_method(s, "intersection", set_intersection, "set.intersection(*others)",
               "Return the intersection of two sets as a new set.");
    def_method(s, "difference", set_difference, "set.difference(*others)",
               "Return the difference of two or more sets as a new set.");
    def_method(s, "symmetric_difference", set_symmetric_difference, "set.symmetric_difference(other, /)",
               "Return the symmetric difference of two sets as a new set.");
    def_method(s, "update", set_update, "set.update(*others)", "Update a set with the union of itself and others.");
    def_method(s, "intersection_update", set_intersection_update, "set.intersection_update(*others)",
               "Update a set with the intersection of itself and another.");
    def_method(s, "difference_update", set_difference_update, "set.difference_update(*others)",
               "Remove all elements of another set from this set.");
    def_method(s, "symmetric_difference_update", set_symmetric_difference_update,
               "set.symmetric_difference_update(other, /)",
               "Update a set with the symmetric difference of itself and another.");
    def_method(s, "issubset", set_issubset, "set.issubset(other, /)", "Report whether another set contains this set.");
    def_method(s, "issuperset", set_issuperset, "set.issuperset(other, /)", "Report whether this set contains another set.");
    def_method(s, "isdisjoint", set_isdisjoint, "set.isdisjoint(other, /)",
               "Return True if two sets have a null intersection.");
}

}  // namespace gpy
