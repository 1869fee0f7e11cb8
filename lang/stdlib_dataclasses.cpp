// Python's dataclasses (dataclass, field, fields, asdict, astuple, replace,
// is_dataclass, MISSING, FrozenInstanceError) and typing / __future__ as far
// as annotations need them. @dataclass reads the class's __annotations__
// (recorded by annotated assignments in its body) and adds __init__,
// __repr__, __eq__ (and the ordering methods, a frozen __setattr__, a
// __hash__) as builtins bound to the class, with CPython's texts.
#include <algorithm>

#include "lang/stdlib_modules.h"

namespace gpy {

namespace {

struct FieldObj : Object {
    std::string name;
    Value type, default_value, default_factory;  // Undef: MISSING
    bool init = true, repr = true, compare = true, kw_only = false;
    Value hash = Value::none(), metadata = Value::none();
    explicit FieldObj(TypeObject* t) : Object(t) {}
};

struct Types {
    TypeObject* field;
    TypeObject* missing_type;
    Object* missing;
    TypeObject* frozen_error;
    TypeObject* special_form;  // typing's names: subscriptable, callable, otherwise inert
};

const Types& dc_types();

Value missing_value() { return Value::object(dc_types().missing); }
Value or_missing(const Value& v) { return v.is_undef() ? missing_value() : v; }

const Types& dc_types() {
    static Types t = [] {
        types::init();
        Types x{};
        x.field = new TypeObject("dataclasses.Field", nullptr, OK::Other);
        x.field->getattr = [](Interp&, const Value& v, const std::string& n) -> Value {
            auto* f = static_cast<FieldObj*>(v.o);
            if (n == "name") return make_str(f->name);
            if (n == "type") return f->type;
            if (n == "default") return or_missing(f->default_value);
            if (n == "default_factory") return or_missing(f->default_factory);
            if (n == "init") return Value::boolean(f->init);
            if (n == "repr") return Value::boolean(f->repr);
            if (n == "compare") return Value::boolean(f->compare);
            if (n == "kw_only") return Value::boolean(f->kw_only);
            if (n == "hash") return f->hash;
            if (n == "metadata") return f->metadata;
            return Value();
        };
        x.field->repr = [](Interp& in, const Value& v) {
            auto* f = static_cast<FieldObj*>(v.o);
            return "Field(name=" + (f->name.empty() ? std::string("None") : "'" + f->name + "'") + ",type=" + repr(in, f->type) +
                   ",default=" + repr(in, or_missing(f->default_value)) + ",default_factory=" + repr(in, or_missing(f->default_factory)) +
                   ",init=" + (f->init ? "True" : "False") + ",repr=" + (f->repr ? "True" : "False") + ")";
        };
        x.missing_type = new TypeObject("dataclasses._MISSING_TYPE", nullptr, OK::Other);
        x.missing_type->repr = [](Interp&, const Value&) { return std::string("<dataclasses._MISSING_TYPE object>"); };
        x.missing = new Object(x.missing_type);
        x.missing->make_immortal();
        x.frozen_error = new TypeObject("dataclasses.FrozenInstanceError", types::AttributeError, OK::Exception);
        x.special_form = new TypeObject("typing._SpecialForm", nullptr, OK::Other);
        x.special_form->getitem = [](Interp&, const Value& v, const Value&) { return v; };  // List[int] is List
        x.special_form->repr = [](Interp&, const Value& v) { return "typing." + static_cast<const FieldObj*>(v.o)->name; };
        return x;
    }();
    return t;
}

bool is_field(const Value& v) { return v.is_obj() && v.o->type == dc_types().field; }

// field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True, metadata=None, kw_only=False)
Value dc_field(Interp&, CallArgs& a) {
    if (a.npos) raise(types::TypeError, "field() takes 0 positional arguments but " + std::to_string(a.npos) + " were given");
    auto* f = new FieldObj(dc_types().field);
    Value out = Value::object(f);
    f->type = Value::none();
    for (auto& [k, v] : a.kw ? *a.kw : std::vector<std::pair<std::string, Value>>{}) {
        const bool missing = v.is_obj() && v.o == dc_types().missing;
        if (k == "default") f->default_value = missing ? Value() : v;
        else if (k == "default_factory") f->default_factory = missing ? Value() : v;
        else if (k == "init") f->init = truthy(v);
        else if (k == "repr") f->repr = truthy(v);
        else if (k == "compare") f->compare = truthy(v);
        else if (k == "kw_only") f->kw_only = truthy(v);
        else if (k == "hash") f->hash = v;
        else if (k == "metadata") f->metadata = v;
        else raise(types::TypeError, "field() got an unexpected keyword argument '" + k + "'");
    }
    if (!f->default_value.is_undef() && !f->default_factory.is_undef()) raise(types::ValueError, "cannot specify both default and default_factory");
    return out;
}

// The dataclass's fields, in definition order (base classes' first).
std::vector<FieldObj*> fields_of(const TypeObject* t) {
    const Value* d = t->lookup("__dataclass_fields__");
    std::vector<FieldObj*> out;
    if (!d || !is_kind(*d, OK::Dict)) return out;
    for (const auto& e : d->as<DictObj>()->table.entries)
        if (!e.key.is_undef() && is_field(e.value)) out.push_back(static_cast<FieldObj*>(e.value.o));
    return out;
}

struct Options {
    bool init = true, repr = true, eq = true, order = false, frozen = false, unsafe_hash = false;
};

// Set without the frozen class's __setattr__.
void raw_set(Interp& in, const Value& obj, const std::string& name, Value v) {
    Value args[3] = {obj, make_str(name), std::move(v)};
    CallArgs a{args, 3, nullptr};
    in.call(*types::object->lookup("__setattr__"), a);
}

// __init__(self, *fields): bound to the class (pos[0]).
Value dc_init(Interp& in, CallArgs& a) {
    const TypeObject* cls = a[0].as<TypeObject>();
    const Value self = a[1];
    std::vector<FieldObj*> fs;
    for (FieldObj* f : fields_of(cls))
        if (f->init) fs.push_back(f);
    const std::string qual = cls->qualname.empty() ? cls->name : cls->qualname;
    std::vector<FieldObj*> positional;
    for (FieldObj* f : fs)
        if (!f->kw_only) positional.push_back(f);
    const size_t given = a.npos - 2;
    if (given > positional.size())
        raise(types::TypeError, qual + ".__init__() takes " + std::to_string(positional.size() + 1) + " positional argument" +
                                    (positional.size() ? "s" : "") + " but " + std::to_string(given + 1) + " were given");
    std::vector<Value> values(fs.size());
    for (size_t k = 0; k < given; ++k) values[size_t(std::find(fs.begin(), fs.end(), positional[k]) - fs.begin())] = a.pos[2 + k];
    for (auto& [key, v] : a.kw ? *a.kw : std::vector<std::pair<std::string, Value>>{}) {
        auto it = std::find_if(fs.begin(), fs.end(), [&](FieldObj* f) { return f->name == key; });
        if (it == fs.end()) raise(types::TypeError, qual + ".__init__() got an unexpected keyword argument '" + key + "'");
        Value& slot = values[size_t(it - fs.begin())];
        if (!slot.is_undef()) raise(types::TypeError, qual + ".__init__() got multiple values for argument '" + key + "'");
        slot = v;
    }
    std::vector<std::string> missing;
    for (size_t k = 0; k < fs.size(); ++k) {
        if (!values[k].is_undef()) continue;
        if (!fs[k]->default_value.is_undef()) values[k] = fs[k]->default_value;
        else if (!fs[k]->default_factory.is_undef()) values[k] = in.call0(fs[k]->default_factory);
        else missing.push_back(fs[k]->name);
    }
    if (!missing.empty()) {
        std::string names;
        for (size_t k = 0; k < missing.size(); ++k) {
            if (k) names += missing.size() == 2 ? " and " : (k + 1 == missing.size() ? ", and " : ", ");
            names += "'" + missing[k] + "'";
        }
        raise(types::TypeError, qual + ".__init__() missing " + std::to_string(missing.size()) + " required positional argument" +
                                    (missing.size() == 1 ? "" : "s") + ": " + names);
    }
    for (size_t k = 0; k < fs.size(); ++k) raw_set(in, self, fs[k]->name, values[k]);
    // Fields with init=False and a default still get it.
    for (FieldObj* f : fields_of(cls))
        if (!f->init) {
            if (!f->default_value.is_undef()) raw_set(in, self, f->name, f->default_value);
            else if (!f->default_factory.is_undef()) raw_set(in, self, f->name, in.call0(f->default_factory));
        }
    if (cls->lookup("__post_init__")) in.call0(get_attr(in, self, "__post_init__"));
    return Value::none();
}

Value dc_repr(Interp& in, CallArgs& a) {
    const TypeObject* cls = type_of(a[1]);
    std::string out = (cls->qualname.empty() ? cls->name : cls->qualname) + "(";
    bool first = true;
    for (FieldObj* f : fields_of(cls)) {
        if (!f->repr) continue;
        out += (first ? "" : ", ") + f->name + "=" + repr(in, get_attr(in, a[1], f->name));
        first = false;
    }
    return make_str(out + ")");
}

Value compare_tuple(Interp& in, const Value& obj) {
    std::vector<Value> items;
    for (FieldObj* f : fields_of(type_of(obj)))
        if (f->compare) items.push_back(get_attr(in, obj, f->name));
    return make_tuple(std::move(items));
}

template <CmpOp Op>
Value dc_compare(Interp& in, CallArgs& a) {
    if (a.npos != 3) raise(types::TypeError, "comparison takes one argument");
    if (type_of(a[2]) != type_of(a[1])) return in.builtins["NotImplemented"];
    return Value::boolean(compare_op(in, Op, compare_tuple(in, a[1]), compare_tuple(in, a[2])));
}

Value dc_hash(Interp& in, CallArgs& a) { return Value::integer(int64_t(hash_value(in, compare_tuple(in, a[1])))); }

Value dc_frozen_setattr(Interp&, CallArgs& a) {
    const std::string name = a.npos > 2 && is_kind(a[2], OK::Str) ? a[2].as<StrObj>()->s : "?";
    raise(dc_types().frozen_error, "cannot assign to field '" + name + "'");
}
Value dc_frozen_delattr(Interp&, CallArgs& a) {
    const std::string name = a.npos > 2 && is_kind(a[2], OK::Str) ? a[2].as<StrObj>()->s : "?";
    raise(dc_types().frozen_error, "cannot delete field '" + name + "'");
}

void add_method(TypeObject* cls, const char* name, NativeFn fn) {
    auto* b = new BuiltinObj(name, fn, std::string(name) + "(...)", "");
    b->bound = Value::object(cls);
    cls->dict[name] = Value::object(b);
}

Value process(Interp& in, const Value& cls_value, const Options& o) {
    if (!is_kind(cls_value, OK::Type) || !cls_value.as<TypeObject>()->heap) raise(types::TypeError, "dataclass() should be called on a class");
    auto* cls = cls_value.as<TypeObject>();
    auto* fields = new DictObj();
    Value fields_value = Value::object(fields);
    // Inherited fields first, then this class's annotations in order.
    for (FieldObj* f : fields_of(cls)) fields->table.set(in, make_str(f->name), Value::object(f));
    auto ann = cls->dict.find("__annotations__");
    if (ann != cls->dict.end() && is_kind(ann->second, OK::Dict)) {
        for (const auto& e : ann->second.as<DictObj>()->table.entries) {
            if (e.key.is_undef() || !is_kind(e.key, OK::Str)) continue;
            const std::string name = e.key.as<StrObj>()->s;
            // ClassVar annotations are not fields.
            if (e.value.is_obj() && e.value.o->type == dc_types().special_form &&
                static_cast<FieldObj*>(e.value.o)->name == "ClassVar")
                continue;
            FieldObj* f;
            Value keep;
            auto attr = cls->dict.find(name);
            if (attr != cls->dict.end() && is_field(attr->second)) {
                f = static_cast<FieldObj*>(attr->second.o);
                keep = attr->second;
                if (!f->default_value.is_undef()) attr->second = f->default_value;  // the class attribute is the default
                else cls->dict.erase(attr);
            } else {
                f = new FieldObj(dc_types().field);
                keep = Value::object(f);
                if (attr != cls->dict.end()) {
                    const Value& d = attr->second;
                    if (is_kind(d, OK::List) || is_kind(d, OK::Dict) || is_kind(d, OK::Set))
                        raise(types::ValueError, std::string("mutable default <class '") + type_name(d) + "'> for field " + name +
                                                     " is not allowed: use default_factory");
                    f->default_value = d;
                }
            }
            f->name = name;
            f->type = e.value;
            fields->table.set(in, make_str(name), keep);
        }
    }
    // Fields without defaults may not follow ones with them (among init fields).
    bool seen_default = false;
    for (const auto& e : fields->table.entries) {
        if (e.key.is_undef()) continue;
        auto* f = static_cast<FieldObj*>(e.value.o);
        if (!f->init || f->kw_only) continue;
        const bool has = !f->default_value.is_undef() || !f->default_factory.is_undef();
        if (seen_default && !has) raise(types::TypeError, "non-default argument '" + f->name + "' follows default argument");
        seen_default |= has;
    }
    cls->dict["__dataclass_fields__"] = fields_value;
    if (o.init && !cls->dict.count("__init__")) add_method(cls, "__init__", dc_init);
    if (o.repr && !cls->dict.count("__repr__")) add_method(cls, "__repr__", dc_repr);
    if (o.eq && !cls->dict.count("__eq__")) add_method(cls, "__eq__", dc_compare<CmpOp::Eq>);
    if (o.order) {
        for (const char* n : {"__lt__", "__le__", "__gt__", "__ge__"})
            if (cls->dict.count(n)) raise(types::TypeError, std::string("Cannot overwrite attribute ") + n + " in class " + cls->name + ". Consider using functools.total_ordering");
        add_method(cls, "__lt__", dc_compare<CmpOp::Lt>);
        add_method(cls, "__le__", dc_compare<CmpOp::Le>);
        add_method(cls, "__gt__", dc_compare<CmpOp::Gt>);
        add_method(cls, "__ge__", dc_compare<CmpOp::Ge>);
    }
    if (o.frozen) {
        add_method(cls, "__setattr__", dc_frozen_setattr);
        add_method(cls, "__delattr__", dc_frozen_delattr);
    }
    // Python's hashing rule: eq and frozen (or unsafe_hash): hash of the
    // fields; eq alone: unhashable.
    const bool own_hash = cls->dict.count("__hash__") && !cls->dict["__hash__"].is_none();
    if (!own_hash || o.unsafe_hash) {
        if (o.unsafe_hash || (o.eq && o.frozen)) add_method(cls, "__hash__", dc_hash);
        else if (o.eq) cls->dict["__hash__"] = Value::none();
    }
    std::vector<Value> match;
    for (FieldObj* f : fields_of(cls))
        if (f->init && !f->kw_only) match.push_back(make_str(f->name));
    cls->dict["__match_args__"] = make_tuple(std::move(match));
    return cls_value;
}

Options options_from(CallArgs& a) {
    Options o;
    for (auto& [k, v] : a.kw ? *a.kw : std::vector<std::pair<std::string, Value>>{}) {
        const bool b = truthy(v);
        if (k == "init") o.init = b;
        else if (k == "repr") o.repr = b;
        else if (k == "eq") o.eq = b;
        else if (k == "order") o.order = b;
        else if (k == "frozen") o.frozen = b;
        else if (k == "unsafe_hash") o.unsafe_hash = b;
        else if (k == "slots" || k == "kw_only" || k == "match_args" || k == "weakref_slot") continue;  // accepted
        else raise(types::TypeError, "dataclass() got an unexpected keyword argument '" + k + "'");
    }
    if (o.order && !o.eq) raise(types::ValueError, "eq must be true if order is true");
    return o;
}

// @dataclass, @dataclass(), @dataclass(frozen=True, ...)
Value dc_dataclass(Interp& in, CallArgs& a) {
    Options o = options_from(a);
    if (a.npos == 1) return process(in, a[0], o);
    if (a.npos > 1) raise(types::TypeError, "dataclass() takes at most 1 positional argument");
    // With options: a decorator holding them.
    auto* b = new BuiltinObj("wrap", [](Interp& in, CallArgs& c) {
        // c.pos[0]: the options as a tuple of booleans; c.pos[1]: the class.
        const auto& f = c.pos[0].as<TupleObj>()->items;
        Options o;
        o.init = f[0].b, o.repr = f[1].b, o.eq = f[2].b, o.order = f[3].b, o.frozen = f[4].b, o.unsafe_hash = f[5].b;
        if (c.npos != 2) raise(types::TypeError, "dataclass() decorator takes one class");
        return process(in, c.pos[1], o);
    }, "wrap(cls)", "");
    b->bound = make_tuple({Value::boolean(o.init), Value::boolean(o.repr), Value::boolean(o.eq), Value::boolean(o.order),
                           Value::boolean(o.frozen), Value::boolean(o.unsafe_hash)});
    return Value::object(b);
}

bool is_dataclass_instance(const Value& v) { return v.is_obj() && !is_kind(v, OK::Type) && type_of(v)->lookup("__dataclass_fields__"); }

Value dc_fields(Interp&, CallArgs& a) {
    expect_args(a, "fields", 1, 1);
    const TypeObject* t = is_kind(a[0], OK::Type) ? a[0].as<TypeObject>() : type_of(a[0]);
    if (!t->lookup("__dataclass_fields__")) raise(types::TypeError, "must be called with a dataclass type or instance");
    std::vector<Value> out;
    for (FieldObj* f : fields_of(t)) out.push_back(Value::object(f));
    return make_tuple(std::move(out));
}

Value to_plain(Interp& in, const Value& v, bool dict) {
    if (is_dataclass_instance(v)) {
        if (dict) {
            auto* d = new DictObj();
            Value out = Value::object(d);
            for (FieldObj* f : fields_of(type_of(v))) d->table.set(in, make_str(f->name), to_plain(in, get_attr(in, v, f->name), dict));
            return out;
        }
        std::vector<Value> items;
        for (FieldObj* f : fields_of(type_of(v))) items.push_back(to_plain(in, get_attr(in, v, f->name), dict));
        return make_tuple(std::move(items));
    }
    if (is_kind(v, OK::List) || is_kind(v, OK::Tuple)) {
        std::vector<Value> items;
        for (const Value& x : is_kind(v, OK::List) ? v.as<ListObj>()->items : v.as<TupleObj>()->items) items.push_back(to_plain(in, x, dict));
        return is_kind(v, OK::List) ? make_list(std::move(items)) : make_tuple(std::move(items));
    }
    if (is_kind(v, OK::Dict)) {
        auto* d = new DictObj();
        Value out = Value::object(d);
        for (const auto& e : v.as<DictObj>()->table.entries)
            if (!e.key.is_undef()) d->table.set(in, to_plain(in, e.key, dict), to_plain(in, e.value, dict));
        return out;
    }
    return v;
}

Value dc_asdict(Interp& in, CallArgs& a) {
    expect_args(a, "asdict", 1, 1);
    if (!is_dataclass_instance(a[0])) raise(types::TypeError, "asdict() should be called on dataclass instances");
    return to_plain(in, a[0], true);
}

Value dc_astuple(Interp& in, CallArgs& a) {
    expect_args(a, "astuple", 1, 1);
    if (!is_dataclass_instance(a[0])) raise(types::TypeError, "astuple() should be called on dataclass instances");
    return to_plain(in, a[0], false);
}

Value dc_replace(Interp& in, CallArgs& a) {
    if (a.npos != 1 || !is_dataclass_instance(a[0])) raise(types::TypeError, "replace() should be called on dataclass instances");
    std::vector<std::pair<std::string, Value>> kw;
    for (FieldObj* f : fields_of(type_of(a[0])))
        if (f->init) kw.emplace_back(f->name, get_attr(in, a[0], f->name));
    for (auto& [k, v] : a.kw ? *a.kw : std::vector<std::pair<std::string, Value>>{}) {
        auto it = std::find_if(kw.begin(), kw.end(), [&](const auto& p) { return p.first == k; });
        if (it == kw.end()) raise(types::TypeError, type_of(a[0])->name + ".__init__() got an unexpected keyword argument '" + k + "'");
        it->second = v;
    }
    CallArgs c{nullptr, 0, &kw};
    return in.call(Value::object(type_of(a[0])), c);
}

Value dc_is_dataclass(Interp&, CallArgs& a) {
    expect_args(a, "is_dataclass", 1, 1);
    const TypeObject* t = is_kind(a[0], OK::Type) ? a[0].as<TypeObject>() : type_of(a[0]);
    return Value::boolean(t->lookup("__dataclass_fields__") != nullptr);
}

// typing: each name an inert special form (List[int] is List), TypeVar a
// function returning one, cast/overload/final the identity.
Value special_form(const std::string& name) {
    auto* f = new FieldObj(dc_types().special_form);
    f->name = name;
    return Value::object(f);
}

}  // namespace

ModuleObj* make_dataclasses(Interp&) {
    auto* m = new ModuleObj("dataclasses");
    m->doc = "Data classes: classes whose fields generate __init__, __repr__ and comparisons.";
    stdlib_def(m, "dataclass", dc_dataclass, "dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False)", "Add dunder methods based on the fields defined in the class.");
    stdlib_def(m, "field", dc_field, "field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True, metadata=None, kw_only=False)", "Return an object to identify dataclass fields.");
    stdlib_def(m, "fields", dc_fields, "fields(class_or_instance)", "Return a tuple describing the fields of this dataclass.");
    stdlib_def(m, "asdict", dc_asdict, "asdict(obj)", "Return the fields of a dataclass instance as a new dictionary.");
    stdlib_def(m, "astuple", dc_astuple, "astuple(obj)", "Return the fields of a dataclass instance as a new tuple.");
    stdlib_def(m, "replace", dc_replace, "replace(obj, /, **changes)", "Return a new object replacing specified fields with new values.");
    stdlib_def(m, "is_dataclass", dc_is_dataclass, "is_dataclass(obj)", "Returns True if obj is a dataclass or an instance of a dataclass.");
    m->set("MISSING", missing_value());
    m->set("FrozenInstanceError", Value::object(dc_types().frozen_error));
    return m;
}

ModuleObj* make_typing(Interp&) {
    auto* m = new ModuleObj("typing");
    m->doc = "Type hints: accepted and inert (gpy does not check them).";
    for (const char* n : {"Any", "List", "Dict", "Tuple", "Set", "FrozenSet", "Optional", "Union", "Callable", "Iterable", "Iterator",
                          "Sequence", "Mapping", "MutableMapping", "MutableSequence", "Type", "Generic", "Protocol", "ClassVar", "Final",
                          "Literal", "Annotated", "Generator", "NoReturn", "Deque", "DefaultDict", "OrderedDict", "Counter", "Hashable",
                          "Sized", "Collection", "Container", "AbstractSet", "SupportsFloat", "SupportsInt", "Self", "TypeAlias"})
        m->set(n, special_form(n));
    m->set("TYPE_CHECKING", Value::boolean(false));
    auto identity = [](Interp&, CallArgs& a) -> Value {
        if (a.npos < 1) raise(types::TypeError, "expected an argument");
        return a[a.npos - 1];  // cast(typ, val) gives val; overload(f)/final(f) give f
    };
    stdlib_def(m, "cast", identity, "cast(typ, val)", "Cast a value to a type (returns the value unchanged).");
    stdlib_def(m, "overload", identity, "overload(func)", "Decorator for overloaded functions.");
    stdlib_def(m, "final", identity, "final(f)", "Decorator marking a final method or class.");
    stdlib_def(m, "no_type_check", identity, "no_type_check(arg)", "Decorator to indicate that annotations are not type hints.");
    stdlib_def(m, "runtime_checkable", identity, "runtime_checkable(cls)", "Mark a protocol class as a runtime protocol.");
    stdlib_def(m, "TypeVar", [](Interp&, CallArgs& a) -> Value {
        if (a.npos < 1 || !is_kind(a[0], OK::Str)) raise(types::TypeError, "TypeVar() argument 'name' must be str");
        return special_form(a[0].as<StrObj>()->s);
    }, "TypeVar(name, *constraints, bound=None, covariant=False, contravariant=False)", "Type variable.");
    stdlib_def(m, "NewType", [](Interp&, CallArgs& a) -> Value {
        if (a.npos != 2) raise(types::TypeError, "NewType() takes a name and a type");
        return make_builtin("NewType", [](Interp&, CallArgs& b) -> Value {
            if (b.npos != 1) raise(types::TypeError, "NewType takes one argument");
            return b[0];
        }, "", "");
    }, "NewType(name, tp)", "Create a distinct type for the type checker (the identity at run time).");
    stdlib_def(m, "get_type_hints", [](Interp& in, CallArgs& a) -> Value {
        if (a.npos < 1) raise(types::TypeError, "get_type_hints() missing an object");
        try {
            return get_attr(in, a[0], "__annotations__");
        } catch (GpyError&) {
            return Value::object(new DictObj());
        }
    }, "get_type_hints(obj)", "Return type hints for an object.");
    return m;
}

ModuleObj* make_future(Interp&) {
    auto* m = new ModuleObj("__future__");
    for (const char* n : {"annotations", "division", "print_function", "absolute_import", "generators", "with_statement"})
        m->set(n, Value::boolean(true));
    return m;
}

}  // namespace gpy
