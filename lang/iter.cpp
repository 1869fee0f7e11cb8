// Iterators: the lazy objects behind for-loops, enumerate, zip, map, filter.
#include "lang/interp.h"
#include "lang/utf8.h"

namespace gpy {

namespace {

struct SeqIter : IterObj {  // list, tuple (indexes live so appends are seen, like Python)
    Value seq;
    size_t pos = 0;
    const char* name;
    SeqIter(Value s, const char* n) : seq(std::move(s)), name(n) {}
    bool next(Interp&, Value& out) override {
        auto& items = is_kind(seq, OK::List) ? seq.as<ListObj>()->items : seq.as<TupleObj>()->items;
        if (pos >= items.size()) return false;
        out = items[pos++];
        return true;
    }
    const char* type_name() const override { return name; }
};

struct StrIter : IterObj {
    Value str;
    size_t pos = 0;
    explicit StrIter(Value s) : str(std::move(s)) {}
    bool next(Interp&, Value& out) override {
        const std::string& s = str.as<StrObj>()->s;
        if (pos >= s.size()) return false;
        size_t end = pos + 1;
        while (end < s.size() && is_continuation(uint8_t(s[end]))) ++end;
        out = make_str(s.substr(pos, end - pos));
        pos = end;
        return true;
    }
    const char* type_name() const override { return "str_ascii_iterator"; }
};

struct RangeIter : IterObj {
    int64_t cur, step;
    uint64_t left;
    RangeIter(int64_t a, int64_t s, uint64_t n) : cur(a), step(s), left(n) {}
    bool next(Interp&, Value& out) override {
        if (left == 0) return false;
        out = Value::integer(cur);
        cur = int64_t(uint64_t(cur) + uint64_t(step));  // wraps after the last element instead of overflowing
        --left;
        return true;
    }
    const char* type_name() const override { return "range_iterator"; }
};

// Dict/set iteration over the entry array; raises if the size changes.
struct TableIter : IterObj {
    Value owner;
    const HashTable* table;
    size_t pos = 0, expected;
    int which;  // 0 keys, 1 values, 2 items
    const char* name;
    TableIter(Value o, const HashTable* t, int w, const char* n)
        : owner(std::move(o)), table(t), expected(t->live), which(w), name(n) {}
    bool next(Interp&, Value& out) override {
        if (table->live != expected)
            raise(types::RuntimeError, std::string(is_kind(owner, OK::Set) ? "Set" : "dictionary") + " changed size during iteration");
        while (pos < table->entries.size() && table->entries[pos].key.is_undef()) ++pos;
        if (pos >= table->entries.size()) return false;
        const auto& e = table->entries[pos++];
        if (which == 0) out = e.key;
        else if (which == 1) out = e.value;
        else out = make_tuple({e.key, e.value});
        return true;
    }
    const char* type_name() const override { return name; }
};

}  // namespace

Value make_list_iterator(Value list) { return Value::object(new SeqIter(std::move(list), "list_iterator")); }

Value get_iter(Interp& in, const Value& v) {
    if (v.is_obj() && v.o->type->iter) return v.o->type->iter(in, v);
    if (v.is_obj()) {
        switch (v.o->type->kind) {
            case OK::List: return Value::object(new SeqIter(v, "list_iterator"));
            case OK::Tuple:
                if (v.o->type == types::ellipsis) break;
                return Value::object(new SeqIter(v, "tuple_iterator"));
            case OK::Str: return Value::object(new StrIter(v));
            case OK::Range: {
                auto* r = v.as<RangeObj>();
                return Value::object(new RangeIter(r->start, r->step, r->count()));
            }
            case OK::Dict: return Value::object(new TableIter(v, &v.as<DictObj>()->table, 0, "dict_keyiterator"));
            case OK::Set: return Value::object(new TableIter(v, &v.as<SetObj>()->table, 0, "set_iterator"));
            case OK::DictView: {
                auto* dv = v.as<DictViewObj>();
                static const char* names[] = {"dict_keyiterator", "dict_valueiterator", "dict_itemiterator"};
                return Value::object(new TableIter(dv->dict.value(), &dv->dict->table, dv->which, names[dv->which]));
            }
            case OK::Iter: return v;
            default: break;
        }
    }
    raise(types::TypeError, std::string("'") + type_name(v) + "' object is not iterable");
}

bool iter_next(Interp& in, const Value& it, Value& out) { return static_cast<IterObj*>(it.o)->next(in, out); }

std::vector<Value> to_vector(Interp& in, const Value& iterable) {
    std::vector<Value> out;
    if (is_kind(iterable, OK::List)) return iterable.as<ListObj>()->items;
    if (is_kind(iterable, OK::Tuple)) return iterable.as<TupleObj>()->items;
    if (is_kind(iterable, OK::Range)) {  // its length is known: refuse one that can never fit
        uint64_t n = iterable.as<RangeObj>()->count();
        if (n > UINT64_MAX / sizeof(Value)) raise(types::MemoryError, "");
        check_host_bytes(in, n * sizeof(Value));
        out.reserve(size_t(n));
    }
    Value it = get_iter(in, iterable);
    Value item;
    while (iter_next(in, it, item)) {
        in.tick();  // Ctrl-C and the step limit reach a long conversion too
        out.push_back(std::move(item));
    }
    return out;
}

}  // namespace gpy
