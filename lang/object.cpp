// Object helpers: constructors, the dict/set hash table, exceptions, slices.
#include "lang/interp.h"

namespace gpy {

void destroy(Object* o) {
    constexpr int kMaxNesting = 64;
    static thread_local int depth = 0;
    static thread_local std::vector<Object*> pending;
    if (depth >= kMaxNesting) {  // too deep: let the outermost destroy() finish it
        pending.push_back(o);
        return;
    }
    ++depth;
    delete o;
    --depth;
    if (depth == 0) {
        while (!pending.empty()) {
            Object* p = pending.back();
            pending.pop_back();
            ++depth;
            delete p;
            --depth;
        }
    }
}

Value make_str(std::string s) { return Value::object(new StrObj(std::move(s))); }
Value make_list(std::vector<Value> items) { return Value::object(new ListObj(std::move(items))); }
Value make_tuple(std::vector<Value> items) { return Value::object(new TupleObj(std::move(items))); }
Value make_builtin(std::string name, NativeFn fn, std::string sig, std::string doc) {
    return Value::object(new BuiltinObj(std::move(name), fn, std::move(sig), std::move(doc)));
}

void check_keywords_from_signature(BuiltinObj* b) {
    // Once per object: methods of shared types are set by the first import
    // (before any array exists); later imports must not rewrite what other
    // threads may be reading.
    if (b->checks_keywords) return;
    const std::string& sig = b->signature;
    size_t open = sig.find('('), close = sig.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return;
    if (sig.find("**") != std::string::npos || sig.find("...") != std::string::npos) return;
    std::vector<std::string> names;
    int depth = 0;
    char quote = 0;
    std::string param;
    auto finish = [&] {
        size_t a = param.find_first_not_of(' ');
        std::string p = a == std::string::npos ? "" : param.substr(a);
        param.clear();
        if (p.empty() || p[0] == '/' || p[0] == '*') return;  // markers and *args
        size_t e = p.find_first_of("=: ");
        names.push_back(p.substr(0, e));
    };
    for (size_t k = open + 1; k < close; ++k) {
        char c = sig[k];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '[' || c == ']') {
            continue;  // optional parts: arange([start,] stop[, step]) names start, stop and step
        } else if (c == '(' || c == '{') {
            ++depth;
        } else if (c == ')' || c == '}') {
            --depth;
        } else if (c == ',' && depth == 0) {
            finish();
            continue;
        }
        param += c;
    }
    finish();
    b->keywords = std::move(names);
    b->checks_keywords = true;
}

void reject_unknown_keywords(const BuiltinObj* b, const CallArgs& a) {
    for (auto& [k, v] : *a.kw) {
        bool known = false;
        for (const std::string& n : b->keywords) known |= n == k;
        if (!known) raise(types::TypeError, b->name + "() got an unexpected keyword argument '" + k + "'");
    }
}

Value make_exception(TypeObject* type, std::string message) {
    auto* e = new ExceptionObj(type);
    Value v = Value::object(e);
    e->args = make_tuple({make_str(std::move(message))});
    return v;
}

void raise(TypeObject* type, std::string message) { throw GpyError{make_exception(type, std::move(message))}; }

std::string ExceptionObj::message() const {
    auto* t = args.as<TupleObj>();
    if (t->items.empty()) return "";
    // KeyError's str() is the repr of the key, as in Python.
    if (t->items.size() == 1) {
        const Value& a = t->items[0];
        if (is_kind(a, OK::Str) && !type->is_subtype_of(types::KeyError)) return a.as<StrObj>()->s;
    }
    return "";  // the caller renders non-string args with repr (needs an Interp)
}

uint64_t RangeObj::count() const {
    if (step > 0 && start < stop) return (uint64_t(stop) - uint64_t(start) - 1) / uint64_t(step) + 1;
    if (step < 0 && start > stop) return (uint64_t(start) - uint64_t(stop) - 1) / (uint64_t(-(step + 1)) + 1) + 1;
    return 0;
}

int64_t RangeObj::length() const {
    uint64_t n = count();
    if (n > uint64_t(INT64_MAX)) raise(types::OverflowError, "Python int too large to convert to C ssize_t");
    return int64_t(n);
}

void SliceObj::indices(int64_t n, int64_t& begin, int64_t& end, int64_t& stride, int64_t& count) const {
    stride = step.is_none() ? 1 : to_index(step, "slice indices");
    if (stride == 0) raise(types::ValueError, "slice step cannot be zero");
    auto clamp = [&](const Value& v, int64_t dflt, bool is_start) -> int64_t {
        if (v.is_none()) return dflt;
        int64_t x = to_index(v, "slice indices");
        if (x < 0) {
            x += n;
            if (x < 0) x = stride < 0 ? -1 : 0;
        } else if (x >= n) {
            x = stride < 0 ? n - 1 : n;
        }
        (void)is_start;
        return x;
    };
    begin = clamp(start, stride < 0 ? n - 1 : 0, true);
    end = clamp(stop, stride < 0 ? -1 : n, false);
    if (stride > 0) count = begin < end ? (end - begin - 1) / stride + 1 : 0;
    else count = begin > end ? (begin - end - 1) / (-stride) + 1 : 0;
}

Value make_slice(Value lo, Value hi, Value step) {
    return Value::object(new SliceObj(std::move(lo), std::move(hi), std::move(step)));
}

// ---- HashTable: open addressing over an insertion-ordered entry array ----

long HashTable::probe(Interp& in, const Value& key, uint64_t h, bool for_insert, long* insert_slot) const {
    if (slots.empty()) { if (insert_slot) *insert_slot = -1; return -1; }
    size_t mask = slots.size() - 1;
    size_t k = size_t(h) & mask;
    long first_tomb = -1;
    for (size_t n = 0; n <= mask; ++n, k = (k + 1) & mask) {
        int32_t s = slots[k];
        if (s == -1) {
            if (insert_slot) *insert_slot = first_tomb >= 0 ? first_tomb : long(k);
            return -1;
        }
        if (s == -2) { if (first_tomb < 0) first_tomb = long(k); continue; }
        const Entry& e = entries[size_t(s)];
        if (e.hash == h) {
            // Identity first (cheap, and what Python does), then equality.
            if (e.key.kind == key.kind && e.key.i == key.i) { if (insert_slot) *insert_slot = long(k); return s; }
            // A class's __eq__ may change this very table: compare a copy of
            // the key, and look again from the start if the table changed.
            const Value stored = e.key;
            const size_t n_entries = entries.size(), n_slots = slots.size(), n_live = live;
            bool same = values_equal(in, stored, key);
            if (entries.size() != n_entries || slots.size() != n_slots || live != n_live || slots[k] != s) {
                thread_local int restarts = 0;
                if (++restarts > 100) {
                    restarts = 0;
                    raise(types::RuntimeError, "dictionary changed size during lookup");
                }
                long r = probe(in, key, h, for_insert, insert_slot);
                restarts = 0;
                return r;
            }
            if (same) { if (insert_slot) *insert_slot = long(k); return s; }
        }
    }
    (void)for_insert;
    if (insert_slot) *insert_slot = first_tomb;
    return -1;
}

long HashTable::find(Interp& in, const Value& key) const {
    uint64_t h = hash_value(in, key);
    return probe(in, key, h, false, nullptr);
}

void HashTable::rebuild(size_t capacity) {
    // Compact dead entries, then re-insert indices.
    std::vector<Entry> live_entries;
    live_entries.reserve(live);
    for (auto& e : entries)
        if (!e.key.is_undef()) live_entries.push_back(std::move(e));
    entries = std::move(live_entries);
    slots.assign(capacity, -1);
    size_t mask = capacity - 1;
    for (size_t i = 0; i < entries.size(); ++i) {
        size_t k = size_t(entries[i].hash) & mask;
        while (slots[k] != -1) k = (k + 1) & mask;
        slots[k] = int32_t(i);
    }
}

size_t HashTable::set(Interp& in, const Value& key, Value value) {
    uint64_t h = hash_value(in, key);
    long slot = -1;
    long idx = probe(in, key, h, true, &slot);
    if (idx >= 0) { entries[size_t(idx)].value = std::move(value); return size_t(idx); }
    if ((entries.size() + 1) * 3 > slots.size() * 2) {
        // Grow (or just compact away deleted entries) to keep the load under 2/3.
        size_t cap = 8;
        while (cap < (live + 1) * 3) cap *= 2;  // load <= 1/3 right after a rebuild
        rebuild(cap);
        probe(in, key, h, true, &slot);
    }
    entries.push_back(Entry{key, std::move(value), h});
    slots[size_t(slot)] = int32_t(entries.size() - 1);
    ++live;
    return entries.size() - 1;
}

bool HashTable::erase(Interp& in, const Value& key) {
    uint64_t h = hash_value(in, key);
    long slot = -1;
    long idx = probe(in, key, h, false, &slot);
    if (idx < 0) return false;
    slots[size_t(slot)] = -2;
    entries[size_t(idx)].key = Value();
    entries[size_t(idx)].value = Value();
    --live;
    return true;
}

}  // namespace gpy
