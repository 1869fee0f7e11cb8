// Python's operator (the operators as functions, itemgetter, attrgetter,
// methodcaller), copy (copy, deepcopy) and string (its constants, capwords),
// natively, as CPython 3.11.
#include <unordered_map>

#include "lang/stdlib_modules.h"

namespace gpy {

namespace {

// ---- operator ----

template <BinOp Op>
Value op_binary(Interp& in, CallArgs& a) {
    expect_args(a, binop_symbol(Op), 2, 2);
    return binary_op(in, Op, a[0], a[1]);
}

template <BinOp Op>
Value op_inplace(Interp& in, CallArgs& a) {
    expect_args(a, binop_symbol(Op), 2, 2);
    Value target = a[0];
    return inplace_op(in, Op, target, a[1]);
}

template <CmpOp Op>
Value op_compare(Interp& in, CallArgs& a) {
    expect_args(a, cmpop_symbol(Op), 2, 2);
    return rich_compare(in, Op, a[0], a[1]);
}

template <UnOp Op>
Value op_unary(Interp& in, CallArgs& a) {
    expect_args(a, "operator", 1, 1);
    return unary_op(in, Op, a[0]);
}

Value op_truth(Interp&, CallArgs& a) {
    expect_args(a, "truth", 1, 1);
    return Value::boolean(truthy(a[0]));
}
Value op_is(Interp& in, CallArgs& a) {
    expect_args(a, "is_", 2, 2);
    return Value::boolean(compare_op(in, CmpOp::Is, a[0], a[1]));
}
Value op_is_not(Interp& in, CallArgs& a) {
    expect_args(a, "is_not", 2, 2);
    return Value::boolean(compare_op(in, CmpOp::IsNot, a[0], a[1]));
}
Value op_abs(Interp& in, CallArgs& a) {
    expect_args(a, "abs", 1, 1);
    return in.call1(in.builtins.at("abs"), a[0]);
}
Value op_index(Interp&, CallArgs& a) {
    expect_args(a, "index", 1, 1);
    return Value::integer(index_arg(a[0]));
}
Value op_contains(Interp& in, CallArgs& a) {
    expect_args(a, "contains", 2, 2);
    return Value::boolean(contains(in, a[0], a[1]));
}
Value op_getitem(Interp& in, CallArgs& a) {
    expect_args(a, "getitem", 2, 2);
    return get_item(in, a[0], a[1]);
}
Value op_setitem(Interp& in, CallArgs& a) {
    expect_args(a, "setitem", 3, 3);
    set_item(in, a[0], a[1], a[2]);
    return Value::none();
}
Value op_delitem(Interp& in, CallArgs& a) {
    expect_args(a, "delitem", 2, 2);
    del_item(in, a[0], a[1]);
    return Value::none();
}
Value op_countof(Interp& in, CallArgs& a) {
    expect_args(a, "countOf", 2, 2);
    int64_t n = 0;
    for (const Value& v : to_vector(in, a[0]))
        if (values_equal(in, v, a[1])) ++n;
    return Value::integer(n);
}
Value op_indexof(Interp& in, CallArgs& a) {
    expect_args(a, "indexOf", 2, 2);
    int64_t k = 0;
    for (const Value& v : to_vector(in, a[0])) {
        if (values_equal(in, v, a[1])) return Value::integer(k);
        ++k;
    }
    raise(types::ValueError, "sequence.index(x): x not in sequence");
}

// itemgetter(*items): the item, or a tuple of the items.
Value itemgetter_call(Interp& in, CallArgs& a) {
    expect_args(a, "itemgetter", 2, 2);
    const auto& keys = a.pos[0].as<TupleObj>()->items;
    if (keys.size() == 1) return get_item(in, a.pos[1], keys[0]);
    std::vector<Value> out;
    for (const Value& k : keys) out.push_back(get_item(in, a.pos[1], k));
    return make_tuple(std::move(out));
}
Value itemgetter(Interp&, CallArgs& a) {
    no_kwargs(a, "itemgetter");
    if (a.npos == 0) raise(types::TypeError, "itemgetter expected 1 argument, got 0");
    auto* b = new BuiltinObj("itemgetter", itemgetter_call, "itemgetter(obj)", "The item(s) of obj.");
    b->bound = make_tuple(std::vector<Value>(a.pos, a.pos + a.npos));
    return Value::object(b);
}

// attrgetter(*names): dotted names follow attributes.
Value attrgetter_call(Interp& in, CallArgs& a) {
    expect_args(a, "attrgetter", 2, 2);
    const auto& names = a.pos[0].as<TupleObj>()->items;
    auto one = [&](const Value& name) {
        Value v = a.pos[1];
        const std::string& path = name.as<StrObj>()->s;
        size_t at = 0;
        for (;;) {
            const size_t dot = path.find('.', at);
            v = get_attr(in, v, path.substr(at, dot == std::string::npos ? std::string::npos : dot - at));
            if (dot == std::string::npos) return v;
            at = dot + 1;
        }
    };
    if (names.size() == 1) return one(names[0]);
    std::vector<Value> out;
    for (const Value& n : names) out.push_back(one(n));
    return make_tuple(std::move(out));
}
Value attrgetter(Interp&, CallArgs& a) {
    no_kwargs(a, "attrgetter");
    if (a.npos == 0) raise(types::TypeError, "attrgetter expected 1 argument, got 0");
    for (size_t k = 0; k < a.npos; ++k)
        if (!is_kind(a[k], OK::Str)) raise(types::TypeError, "attribute name must be a string");
    auto* b = new BuiltinObj("attrgetter", attrgetter_call, "attrgetter(obj)", "The attribute(s) of obj.");
    b->bound = make_tuple(std::vector<Value>(a.pos, a.pos + a.npos));
    return Value::object(b);
}

// methodcaller(name, /, *args, **kwargs)
struct MethodCall {
    std::string name;
    std::vector<Value> args;
    std::vector<std::pair<std::string, Value>> kw;
};
Value methodcaller_call(Interp& in, CallArgs& a) {
    expect_args(a, "methodcaller", 2, 2);
    const auto& parts = a.pos[0].as<TupleObj>()->items;  // (name, args tuple, kw names tuple, kw values tuple)
    Value m = get_attr(in, a.pos[1], parts[0].as<StrObj>()->s);
    std::vector<Value> args = parts[1].as<TupleObj>()->items;
    std::vector<std::pair<std::string, Value>> kw;
    const auto& names = parts[2].as<TupleObj>()->items;
    const auto& values = parts[3].as<TupleObj>()->items;
    for (size_t k = 0; k < names.size(); ++k) kw.emplace_back(names[k].as<StrObj>()->s, values[k]);
    CallArgs c{args.data(), args.size(), kw.empty() ? nullptr : &kw};
    return in.call(m, c);
}
Value methodcaller(Interp&, CallArgs& a) {
    if (a.npos == 0) raise(types::TypeError, "methodcaller needs at least one argument, the method name");
    if (!is_kind(a[0], OK::Str)) raise(types::TypeError, "method name must be a string");
    std::vector<Value> names, values;
    for (size_t k = 0; k < a.nkw(); ++k) {
        names.push_back(make_str((*a.kw)[k].first));
        values.push_back((*a.kw)[k].second);
    }
    auto* b = new BuiltinObj("methodcaller", methodcaller_call, "methodcaller(obj)", "Calls the method on obj.");
    b->bound = make_tuple({a[0], make_tuple(std::vector<Value>(a.pos + 1, a.pos + a.npos)), make_tuple(std::move(names)), make_tuple(std::move(values))});
    return Value::object(b);
}

// ---- copy ----

Value call_method0(Interp& in, const Value& v, const char* name) {
    CallArgs none{nullptr, 0, nullptr};
    return in.call(get_attr(in, v, name), none);
}

// copy.copy: a new list, dict or set (or the object's own copy(): ndarray);
// immutable values and other objects as they are.
Value copy_copy(Interp& in, CallArgs& a) {
    expect_args(a, "copy", 1, 1);
    const Value& v = a[0];
    if (is_kind(v, OK::List)) return make_list(v.as<ListObj>()->items);
    if (is_kind(v, OK::Dict) || is_kind(v, OK::Set) || is_kind(v, OK::Array)) return call_method0(in, v, "copy");
    // A native type's own __copy__ (deque, random.Random), a class's.
    if (v.is_obj() && v.o->type->lookup("__copy__")) return call_method0(in, v, "__copy__");
    if (v.is_obj() && (v.o->type->heap)) return copy_instance(in, v, nullptr, nullptr);
    return v;
}

struct DeepCopier {
    Interp& in;
    std::unordered_map<const Object*, Value> memo;  // by identity: shared parts stay shared, cycles end

    Value copy(const Value& v) {
        if (!v.is_obj()) return v;
        if (auto it = memo.find(v.o); it != memo.end()) return it->second;
        if (is_kind(v, OK::List)) {
            Value out = make_list({});
            memo[v.o] = out;
            for (const Value& x : v.as<ListObj>()->items) out.as<ListObj>()->items.push_back(copy(x));
            return out;
        }
        if (is_kind(v, OK::Dict)) {
            auto* d = new DictObj();
            Value out = Value::object(d);
            memo[v.o] = out;
            for (const auto& e : v.as<DictObj>()->table.entries)
                if (!e.key.is_undef()) d->table.set(in, copy(e.key), copy(e.value));
            return out;
        }
        if (is_kind(v, OK::Set)) {
            auto* s = new SetObj();
            Value out = Value::object(s);
            memo[v.o] = out;
            for (const auto& e : v.as<SetObj>()->table.entries)
                if (!e.key.is_undef()) s->table.set(in, copy(e.key), Value::none());
            return out;
        }
        if (is_kind(v, OK::Tuple)) {
            // A tuple of unchanged items is itself (CPython's).
            const auto& items = v.as<TupleObj>()->items;
            std::vector<Value> out;
            bool same = true;
            for (const Value& x : items) {
                out.push_back(copy(x));
                same = same && out.back().is_obj() == x.is_obj() && (!x.is_obj() || out.back().o == x.o);
            }
            if (auto it = memo.find(v.o); it != memo.end()) return it->second;  // a cycle through a list inside
            Value r = same ? v : make_tuple(std::move(out));
            memo[v.o] = r;
            return r;
        }
        if (is_kind(v, OK::Array)) {
            Value r = call_method0(in, v, "copy");
            memo[v.o] = r;
            return r;
        }
        if (v.o->type->heap) {
            // A class's instance: its __deepcopy__(memo), else a new instance
            // whose attributes are deep copies.
            if (const Value* m = v.o->type->lookup("__deepcopy__"); m && class_defines(v.o->type, "__deepcopy__")) {
                Value memo_dict = Value::object(new DictObj());
                Value r = in.call1(get_attr(in, v, "__deepcopy__"), memo_dict);
                memo[v.o] = r;
                return r;
            }
            // (registered before its attributes are copied: a cycle back to v finds it)
            return copy_instance(in, v, [&](const Value& x) { return copy(x); }, [&](const Value& r) { memo[v.o] = r; });
        }
        if (v.o->type->lookup("__copy__")) {
            // A native container (deque): its copy, then its items deep-copied in place.
            Value r = call_method0(in, v, "__copy__");
            memo[v.o] = r;
            if (v.o->type->len && v.o->type->getitem && v.o->type->setitem) {
                const int64_t n = length(in, r);
                for (int64_t k = 0; k < n; ++k) set_item(in, r, Value::integer(k), copy(get_item(in, r, Value::integer(k))));
            }
            return r;
        }
        return v;  // immutable values, functions, modules, types: as they are
    }
};

Value copy_deepcopy(Interp& in, CallArgs& a) {
    expect_args(a, "deepcopy", 1, 2);
    DeepCopier c{in, {}};
    return c.copy(a[0]);
}

}  // namespace

ModuleObj* make_operator(Interp&) {
    auto* m = new ModuleObj("operator");
    m->doc = "Operator interface: the intrinsic operators as functions (Python's operator).";
    struct Entry {
        const char* name;
        NativeFn fn;
    };
    const Entry entries[] = {
        {"add", op_binary<BinOp::Add>}, {"sub", op_binary<BinOp::Sub>}, {"mul", op_binary<BinOp::Mul>},
        {"truediv", op_binary<BinOp::Div>}, {"floordiv", op_binary<BinOp::FloorDiv>}, {"mod", op_binary<BinOp::Mod>},
        {"pow", op_binary<BinOp::Pow>}, {"matmul", op_binary<BinOp::MatMul>}, {"and_", op_binary<BinOp::BitAnd>},
        {"or_", op_binary<BinOp::BitOr>}, {"xor", op_binary<BinOp::BitXor>}, {"lshift", op_binary<BinOp::LShift>},
        {"rshift", op_binary<BinOp::RShift>}, {"concat", op_binary<BinOp::Add>},
        {"iadd", op_inplace<BinOp::Add>}, {"isub", op_inplace<BinOp::Sub>}, {"imul", op_inplace<BinOp::Mul>},
        {"itruediv", op_inplace<BinOp::Div>}, {"ifloordiv", op_inplace<BinOp::FloorDiv>}, {"imod", op_inplace<BinOp::Mod>},
        {"ipow", op_inplace<BinOp::Pow>}, {"iand", op_inplace<BinOp::BitAnd>}, {"ior", op_inplace<BinOp::BitOr>},
        {"ixor", op_inplace<BinOp::BitXor>}, {"iconcat", op_inplace<BinOp::Add>},
        {"lt", op_compare<CmpOp::Lt>}, {"le", op_compare<CmpOp::Le>}, {"eq", op_compare<CmpOp::Eq>},
        {"ne", op_compare<CmpOp::Ne>}, {"ge", op_compare<CmpOp::Ge>}, {"gt", op_compare<CmpOp::Gt>},
        {"neg", op_unary<UnOp::Neg>}, {"pos", op_unary<UnOp::Pos>}, {"invert", op_unary<UnOp::Invert>},
        {"inv", op_unary<UnOp::Invert>}, {"not_", op_unary<UnOp::Not>}, {"truth", op_truth}, {"is_", op_is},
        {"is_not", op_is_not}, {"abs", op_abs}, {"index", op_index}, {"contains", op_contains},
        {"getitem", op_getitem}, {"setitem", op_setitem}, {"delitem", op_delitem}, {"countOf", op_countof},
        {"indexOf", op_indexof},
    };
    for (const Entry& e : entries) stdlib_def(m, e.name, e.fn, (std::string(e.name) + "(...)").c_str(), "The operator as a function.");
    stdlib_def(m, "itemgetter", itemgetter, "itemgetter(item, /, *items)", "Return a callable object that fetches the given item(s) from its operand.");
    stdlib_def(m, "attrgetter", attrgetter, "attrgetter(attr, /, *attrs)", "Return a callable object that fetches the given attribute(s) from its operand.");
    stdlib_def(m, "methodcaller", methodcaller, "methodcaller(name, /, *args, **kwargs)", "Return a callable object that calls the given method on its operand.");
    return m;
}

ModuleObj* make_copy(Interp&) {
    auto* m = new ModuleObj("copy");
    m->doc = "Shallow and deep copy operations (Python's copy).";
    stdlib_def(m, "copy", copy_copy, "copy(x)", "Shallow copy operation on arbitrary Python objects.");
    stdlib_def(m, "deepcopy", copy_deepcopy, "deepcopy(x, memo=None)", "Deep copy operation on arbitrary Python objects.");
    return m;
}

namespace {

// string.capwords(s, sep=None): split, capitalize each word, join.
Value capwords(Interp& in, CallArgs& a) {
    expect_args(a, "capwords", 1, 2);
    const Value& s = a[0];
    const Value sep = a.npos > 1 ? a[1] : Value::none();
    CallArgs split_args{const_cast<Value*>(&sep), 1, nullptr};
    std::vector<Value> words = to_vector(in, in.call(get_attr(in, s, "split"), split_args));
    for (Value& w : words) w = call_method0(in, w, "capitalize");
    Value joiner = sep.is_none() ? make_str(" ") : sep;
    Value list = make_list(std::move(words));
    CallArgs join_args{&list, 1, nullptr};
    return in.call(get_attr(in, joiner, "join"), join_args);
}

}  // namespace

ModuleObj* make_string(Interp&) {
    auto* m = new ModuleObj("string");
    m->doc = "Common string constants and capwords (Python's string).";
    const std::string lower = "abcdefghijklmnopqrstuvwxyz", upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ", digits = "0123456789";
    const std::string punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", whitespace = " \t\n\r\x0b\x0c";
    m->set("ascii_lowercase", make_str(lower));
    m->set("ascii_uppercase", make_str(upper));
    m->set("ascii_letters", make_str(lower + upper));
    m->set("digits", make_str(digits));
    m->set("hexdigits", make_str(digits + "abcdefABCDEF"));
    m->set("octdigits", make_str("01234567"));
    m->set("punctuation", make_str(punctuation));
    m->set("whitespace", make_str(whitespace));
    m->set("printable", make_str(digits + lower + upper + punctuation + whitespace));
    stdlib_def(m, "capwords", capwords, "capwords(s, sep=None)", "Split the argument into words, capitalize each and join them.");
    return m;
}

}  // namespace gpy
