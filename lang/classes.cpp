// Classes a `class` statement makes: TypeObjects built at run time ("heap
// types"), their C3 method resolution order, instances with an attribute
// dictionary (ExceptionObj for a class deriving from an exception), the
// descriptors property/staticmethod/classmethod, super(), and the protocol
// slots that route operators, comparison, hashing, repr/str, len, items,
// iteration and truth through the class's dunder methods.
#include <algorithm>
#include <cstdio>
#include <functional>

#include "lang/ast.h"
#include "lang/interp.h"

namespace gpy {

namespace {

struct PropertyObj : Object {
    Value fget, fset, fdel, doc;
    explicit PropertyObj(TypeObject* t) : Object(t) {}
};
struct WrapperObj : Object {  // staticmethod, classmethod
    Value func;
    WrapperObj(TypeObject* t, Value f) : Object(t), func(std::move(f)) {}
};
struct SuperObj : Object {
    TypeObject* start;  // lookups begin after it in type(self)'s MRO
    Value self;
    SuperObj(TypeObject* t, TypeObject* s, Value v) : Object(t), start(s), self(std::move(v)) {}
};

struct ClassTypes {
    TypeObject *property, *staticmethod, *classmethod, *super, *not_implemented_type;
    Object* not_implemented;
};

Value builtin_value(const char* name, NativeFn fn, const char* sig, const char* doc) {
    auto* b = new BuiltinObj(name, fn, sig, doc);
    b->make_immortal();
    return Value::object(b);
}

const ClassTypes& class_types();

bool is_not_implemented(const Value& v) { return v.is_obj() && v.o == class_types().not_implemented; }

// The class attribute `attr` as seen through an instance `self` of `cls`:
// functions bind, staticmethods unwrap, classmethods bind to the class.
Value bind(const Value& attr, const Value& self, TypeObject* cls) {
    if (is_kind(attr, OK::Function) || is_kind(attr, OK::Builtin)) return Value::object(new BoundMethodObj(self, attr));
    if (attr.is_obj() && attr.o->type == class_types().staticmethod) return static_cast<WrapperObj*>(attr.o)->func;
    if (attr.is_obj() && attr.o->type == class_types().classmethod)
        return Value::object(new BoundMethodObj(Value::object(cls), static_cast<WrapperObj*>(attr.o)->func));
    return attr;
}

AttrDict* attrs_of(const Value& v) {
    if (!v.is_obj()) return nullptr;
    if (v.o->type->kind == OK::Exception) return &v.as<ExceptionObj>()->attrs;
    if (v.o->type->heap) return &v.as<InstanceObj>()->attrs;
    return nullptr;
}

// An instance whose __dict__ the program took: its attributes live there.
DictObj* dict_of(const Value& v) {
    if (!v.is_obj() || !v.o->type->heap || v.o->type->kind == OK::Exception) return nullptr;
    const Value& d = v.as<InstanceObj>()->dict;
    return d.is_undef() ? nullptr : d.as<DictObj>();
}

bool attr_get(Interp& in, const Value& obj, const std::string& name, Value& out) {
    if (DictObj* d = dict_of(obj)) {
        long k = d->table.find(in, make_str(name));
        if (k < 0) return false;
        out = d->table.entries[size_t(k)].value;
        return true;
    }
    AttrDict* a = attrs_of(obj);
    Value* v = a ? a->find(name) : nullptr;
    if (!v) return false;
    out = *v;
    return true;
}

bool attr_set(Interp& in, const Value& obj, const std::string& name, Value v) {
    if (DictObj* d = dict_of(obj)) {
        d->table.set(in, make_str(name), std::move(v));
        return true;
    }
    AttrDict* a = attrs_of(obj);
    if (!a) return false;
    a->set(name, std::move(v));
    return true;
}

bool attr_erase(Interp& in, const Value& obj, const std::string& name) {
    if (DictObj* d = dict_of(obj)) return d->table.erase(in, make_str(name));
    AttrDict* a = attrs_of(obj);
    return a && a->erase(name);
}

// A class attribute that is an instance of a class defining __get__ (and
// __set__: a data descriptor, which wins over the instance's own attribute).
bool is_descriptor(const Value& v, bool data) {
    if (!v.is_obj() || !v.o->type->heap) return false;
    if (!class_defines(v.o->type, "__get__") && !(data && class_defines(v.o->type, "__set__"))) return false;
    return !data || class_defines(v.o->type, "__set__") || class_defines(v.o->type, "__delete__");
}

// A dunder method the class defines (not `object`'s defaults), or null.
const Value* dunder(const TypeObject* t, const std::string& name) {
    if (!t->heap) return nullptr;
    for (const TypeObject* c : t->mro) {
        if (c == types::object) break;
        auto it = c->dict.find(name);
        if (it != c->dict.end()) return it->second.is_none() ? nullptr : &it->second;
    }
    return nullptr;
}

Value call_dunder(Interp& in, const Value& self, const Value& method, const Value* args, size_t n) {
    Value fn = bind(method, self, self.o->type);
    CallArgs a{const_cast<Value*>(args), n, nullptr};
    return in.call(fn, a);
}

std::string default_repr(const Value& v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(v.o));
    const TypeObject* t = v.o->type;
    return "<" + t->module_name + "." + t->qualname + " object at " + buf + ">";
}

// Whether every class of t's MRO declares __slots__ (its instances then have
// no __dict__ and only the listed attributes).
bool all_slotted(const TypeObject* t) {
    for (const TypeObject* c : t->mro)
        if (c != types::object && !c->dict.count("__slots__")) return false;
    return true;
}

// ---- the protocol slots of a class ----

struct OpNames {
    const char *name, *rname, *iname;
};
OpNames op_names(BinOp op) {
    switch (op) {
        case BinOp::Add: return {"__add__", "__radd__", "__iadd__"};
        case BinOp::Sub: return {"__sub__", "__rsub__", "__isub__"};
        case BinOp::Mul: return {"__mul__", "__rmul__", "__imul__"};
        case BinOp::Div: return {"__truediv__", "__rtruediv__", "__itruediv__"};
        case BinOp::FloorDiv: return {"__floordiv__", "__rfloordiv__", "__ifloordiv__"};
        case BinOp::Mod: return {"__mod__", "__rmod__", "__imod__"};
        case BinOp::Pow: return {"__pow__", "__rpow__", "__ipow__"};
        case BinOp::MatMul: return {"__matmul__", "__rmatmul__", "__imatmul__"};
        case BinOp::BitAnd: return {"__and__", "__rand__", "__iand__"};
        case BinOp::BitOr: return {"__or__", "__ror__", "__ior__"};
        case BinOp::BitXor: return {"__xor__", "__rxor__", "__ixor__"};
        case BinOp::LShift: return {"__lshift__", "__rlshift__", "__ilshift__"};
        case BinOp::RShift: return {"__rshift__", "__rrshift__", "__irshift__"};
    }
    return {"", "", ""};
}

Value slot_binary(Interp& in, BinOp op, const Value& a, const Value& b) {
    const OpNames n = op_names(op);
    const bool a_heap = a.is_obj() && a.o->type->heap, b_heap = b.is_obj() && b.o->type->heap;
    // A subclass's reflected method goes first (Python's rule).
    const bool b_first = b_heap && a.is_obj() && b.o->type != a.o->type && b.o->type->is_subtype_of(a.o->type) && dunder(b.o->type, n.rname);
    if (b_first) {
        Value r = call_dunder(in, b, *dunder(b.o->type, n.rname), &a, 1);
        if (!is_not_implemented(r)) return r;
    }
    if (a_heap)
        if (const Value* m = dunder(a.o->type, n.name)) {
            Value r = call_dunder(in, a, *m, &b, 1);
            if (!is_not_implemented(r)) return r;
        }
    if (b_heap && !b_first && !(a_heap && a.o->type == b.o->type))
        if (const Value* m = dunder(b.o->type, n.rname)) {
            Value r = call_dunder(in, b, *m, &a, 1);
            if (!is_not_implemented(r)) return r;
        }
    return Value();
}

Value slot_inplace(Interp& in, BinOp op, const Value& a, const Value& b) {
    if (const Value* m = dunder(a.o->type, op_names(op).iname)) {
        Value r = call_dunder(in, a, *m, &b, 1);
        if (!is_not_implemented(r)) return r;
    }
    return Value();
}

Value slot_unary(Interp& in, UnOp op, const Value& v) {
    const char* name = op == UnOp::Neg ? "__neg__" : op == UnOp::Pos ? "__pos__" : op == UnOp::Invert ? "__invert__" : nullptr;
    if (name)
        if (const Value* m = dunder(v.o->type, name)) return call_dunder(in, v, *m, nullptr, 0);
    return Value();
}

Value slot_compare(Interp& in, CmpOp op, const Value& a, const Value& b) {
    const char* name = nullptr;
    const char* reflected = nullptr;
    switch (op) {
        case CmpOp::Lt: name = "__lt__", reflected = "__gt__"; break;
        case CmpOp::Gt: name = "__gt__", reflected = "__lt__"; break;
        case CmpOp::Le: name = "__le__", reflected = "__ge__"; break;
        case CmpOp::Ge: name = "__ge__", reflected = "__le__"; break;
        case CmpOp::Eq: name = reflected = "__eq__"; break;
        case CmpOp::Ne: name = reflected = "__ne__"; break;
        default: return Value();
    }
    // A subclass's reflected method goes first (Python's rule).
    if (b.is_obj() && a.is_obj() && b.o->type->heap && b.o->type != a.o->type && b.o->type->is_subtype_of(a.o->type))
        if (const Value* m = dunder(b.o->type, reflected)) {
            Value r = call_dunder(in, b, *m, &a, 1);
            if (!is_not_implemented(r)) return r;
        }
    if (a.is_obj() && a.o->type->heap)
        if (const Value* m = dunder(a.o->type, name)) {
            Value r = call_dunder(in, a, *m, &b, 1);
            if (!is_not_implemented(r)) return r;
        }
    if (b.is_obj() && b.o->type->heap)
        if (const Value* m = dunder(b.o->type, reflected)) {
            Value r = call_dunder(in, b, *m, &a, 1);
            if (!is_not_implemented(r)) return r;
        }
    // != is the negation of a defined ==; == and != default to identity.
    if (op == CmpOp::Ne) {
        const bool heap_eq = (a.is_obj() && dunder(a.o->type, "__eq__")) || (b.is_obj() && dunder(b.o->type, "__eq__"));
        if (heap_eq) return Value::boolean(!truthy(slot_compare(in, CmpOp::Eq, a, b)));
    }
    if (op == CmpOp::Eq || op == CmpOp::Ne) {
        const bool same = a.is_obj() && b.is_obj() && a.o == b.o;
        return Value::boolean(op == CmpOp::Eq ? same : !same);
    }
    return Value();
}

bool slot_equal(Interp& in, const Value& a, const Value& b) { return truthy(slot_compare(in, CmpOp::Eq, a, b)); }

uint64_t slot_hash(Interp& in, const Value& v) {
    const TypeObject* t = v.o->type;
    // A class that defines __eq__ without __hash__ is unhashable (Python sets __hash__ = None).
    for (const TypeObject* c : t->mro) {
        if (c == types::object) break;
        auto h = c->dict.find("__hash__");
        if (h != c->dict.end()) {
            if (h->second.is_none()) raise(types::TypeError, "unhashable type: '" + t->name + "'");
            Value r = call_dunder(in, v, h->second, nullptr, 0);
            if (!r.is_intlike()) raise(types::TypeError, "__hash__ method should return an integer");
            return uint64_t(r.as_int());
        }
        if (c->dict.count("__eq__")) raise(types::TypeError, "unhashable type: '" + t->name + "'");
    }
    return uint64_t(reinterpret_cast<uintptr_t>(v.o) >> 4);
}

std::string exception_repr(Interp& in, const Value& v) {
    const auto* e = v.as<ExceptionObj>();
    std::string args = is_kind(e->args, OK::Tuple) ? repr(in, e->args) : "()";
    if (is_kind(e->args, OK::Tuple) && e->args.as<TupleObj>()->items.size() == 1) args = args.substr(0, args.size() - 2) + ")";
    return v.o->type->name + args;
}

std::string slot_repr(Interp& in, const Value& v) {
    if (const Value* m = dunder(v.o->type, "__repr__")) {
        Value r = call_dunder(in, v, *m, nullptr, 0);
        if (!is_kind(r, OK::Str)) raise(types::TypeError, std::string("__repr__ returned non-string (type ") + type_name(r) + ")");
        return r.as<StrObj>()->s;
    }
    if (v.o->type->kind == OK::Exception) return exception_repr(in, v);
    return default_repr(v);
}

std::string slot_str(Interp& in, const Value& v) {
    if (const Value* m = dunder(v.o->type, "__str__")) {
        Value r = call_dunder(in, v, *m, nullptr, 0);
        if (!is_kind(r, OK::Str)) raise(types::TypeError, std::string("__str__ returned non-string (type ") + type_name(r) + ")");
        return r.as<StrObj>()->s;
    }
    if (v.o->type->kind == OK::Exception && !dunder(v.o->type, "__repr__")) {
        const Value& args = v.as<ExceptionObj>()->args;
        const auto& items = args.as<TupleObj>()->items;
        if (items.empty()) return "";
        if (items.size() > 1) return repr(in, args);
        return is_kind(items[0], OK::Str) && !v.o->type->is_subtype_of(types::KeyError) ? items[0].as<StrObj>()->s : repr(in, items[0]);
    }
    return slot_repr(in, v);
}

std::string slot_format(Interp& in, const Value& v, std::string_view spec) {
    if (const Value* m = dunder(v.o->type, "__format__")) {
        Value s = make_str(std::string(spec));
        Value r = call_dunder(in, v, *m, &s, 1);
        if (!is_kind(r, OK::Str)) raise(types::TypeError, std::string("__format__ must return a str, not ") + type_name(r));
        return r.as<StrObj>()->s;
    }
    if (!spec.empty()) raise(types::TypeError, "unsupported format string passed to " + v.o->type->name + ".__format__");
    return slot_str(in, v);
}

int64_t slot_len(Interp& in, const Value& v) {
    const Value* m = dunder(v.o->type, "__len__");
    if (!m) raise(types::TypeError, "object of type '" + v.o->type->name + "' has no len()");
    Value r = call_dunder(in, v, *m, nullptr, 0);
    if (!r.is_int() && !r.is_bool()) raise(types::TypeError, std::string("'") + type_name(r) + "' object cannot be interpreted as an integer");
    if (r.as_int() < 0) raise(types::ValueError, "__len__() should return >= 0");
    return r.as_int();
}

bool slot_truth(const Value& v) {
    Interp* in = v.o->type->interp;  // (the truth slot has no Interp argument)
    if (!in) return true;
    if (const Value* m = dunder(v.o->type, "__bool__")) {
        Value r = call_dunder(*in, v, *m, nullptr, 0);
        if (!r.is_bool()) raise(types::TypeError, std::string("__bool__ should return bool, returned ") + type_name(r));
        return r.b;
    }
    if (dunder(v.o->type, "__len__")) return slot_len(*in, v) != 0;
    return true;
}

bool slot_index(const Value& v, int64_t& out) {
    Interp* in = v.o->type->interp;
    const Value* m = in ? dunder(v.o->type, "__index__") : nullptr;
    if (!m) return false;
    Value r = call_dunder(*in, v, *m, nullptr, 0);
    if (!r.is_int()) raise(types::TypeError, std::string("__index__ returned non-int (type ") + type_name(r) + ")");
    out = r.i;
    return true;
}

Value slot_getitem(Interp& in, const Value& v, const Value& key) {
    const Value* m = dunder(v.o->type, "__getitem__");
    if (!m) raise(types::TypeError, "'" + v.o->type->name + "' object is not subscriptable");
    return call_dunder(in, v, *m, &key, 1);
}

void slot_setitem(Interp& in, const Value& v, const Value& key, Value value) {
    const Value* m = dunder(v.o->type, "__setitem__");
    if (!m) raise(types::TypeError, "'" + v.o->type->name + "' object does not support item assignment");
    Value args[2] = {key, std::move(value)};
    call_dunder(in, v, *m, args, 2);
}

// An iterator object of a class (its __next__), or a sequence read by
// __getitem__ from 0 until IndexError.
struct UserIter : IterObj {
    Value obj, next_fn;
    int64_t index = -1;  // >= 0: the __getitem__ protocol
    UserIter(Value o, Value n, int64_t i) : obj(std::move(o)), next_fn(std::move(n)), index(i) {}
    bool next(Interp& in, Value& out) override {
        try {
            if (index >= 0) {
                Value k = Value::integer(index++);
                out = call_dunder(in, obj, next_fn, &k, 1);
            } else {
                out = call_dunder(in, obj, next_fn, nullptr, 0);
            }
            return true;
        } catch (GpyError& e) {
            if (e.obj()->type->is_subtype_of(index >= 0 ? types::IndexError : types::StopIteration)) return false;
            throw;
        }
    }
    const char* type_name() const override { return obj.o->type->name.c_str(); }
};

Value slot_iter(Interp& in, const Value& v) {
    if (const Value* m = dunder(v.o->type, "__iter__")) {
        Value it = call_dunder(in, v, *m, nullptr, 0);
        if (is_kind(it, OK::Iter)) return it;
        if (it.is_obj() && it.o->type->heap)
            if (const Value* n = dunder(it.o->type, "__next__")) return Value::object(new UserIter(it, *n, -1));
        raise(types::TypeError, std::string("iter() returned non-iterator of type '") + type_name(it) + "'");
    }
    if (const Value* g = dunder(v.o->type, "__getitem__")) return Value::object(new UserIter(v, *g, 0));
    raise(types::TypeError, "'" + v.o->type->name + "' object is not iterable");
}

Value slot_getattr(Interp& in, const Value& obj, const std::string& name) {
    TypeObject* t = obj.o->type;
    if (const Value* ga = dunder(t, "__getattribute__")) {
        // The class's own lookup; AttributeError falls back to __getattr__.
        Value n = make_str(name);
        try {
            return call_dunder(in, obj, *ga, &n, 1);
        } catch (GpyError& e) {
            const Value* fallback = dunder(t, "__getattr__");
            if (!fallback || !e.obj()->type->is_subtype_of(types::AttributeError)) throw;
            return call_dunder(in, obj, *fallback, &n, 1);
        }
    }
    const Value* cls_attr = t->lookup(name);
    if (cls_attr && cls_attr->is_obj() && cls_attr->o->type == class_types().property) {
        auto* p = static_cast<PropertyObj*>(cls_attr->o);
        if (p->fget.is_none()) raise(types::AttributeError, "property '" + name + "' of '" + t->name + "' object has no getter");
            const Value fget = p->fget;  // (the class dict may drop the property while it runs)
        return in.call1(fget, obj);
    }
    if (cls_attr && is_descriptor(*cls_attr, true) && class_defines(cls_attr->o->type, "__get__")) {
        Value args[2] = {obj, Value::object(t)};
        return call_dunder(in, *cls_attr, *dunder(cls_attr->o->type, "__get__"), args, 2);
    }
    if (Value v; attr_get(in, obj, name, v)) return v;
    if (cls_attr && is_descriptor(*cls_attr, false)) {
        Value args[2] = {obj, Value::object(t)};
        return call_dunder(in, *cls_attr, *dunder(cls_attr->o->type, "__get__"), args, 2);
    }
    if (cls_attr) return bind(*cls_attr, obj, t);
    if (name == "__class__") return Value::object(t);
    if (name == "__dict__" && t->kind != OK::Exception && !all_slotted(t)) return instance_dict(in, obj);
    if (const Value* ga = dunder(t, "__getattr__")) {
        Value n = make_str(name);
        return call_dunder(in, obj, *ga, &n, 1);
    }
    return Value();
}

void slot_setattr(Interp& in, const Value& obj, const std::string& name, Value v) {
    TypeObject* t = obj.o->type;
    const Value* cls_attr = t->lookup(name);
    if (cls_attr && cls_attr->is_obj() && cls_attr->o->type == class_types().property) {
        auto* p = static_cast<PropertyObj*>(cls_attr->o);
        if (p->fset.is_none()) raise(types::AttributeError, "property '" + name + "' of '" + t->name + "' object has no setter");
            Value args[2] = {obj, std::move(v)};
        CallArgs a{args, 2, nullptr};
        const Value fset = p->fset;
        in.call(fset, a);
        return;
    }
    if (const Value* sa = dunder(t, "__setattr__")) {
        Value args[2] = {make_str(name), std::move(v)};
        call_dunder(in, obj, *sa, args, 2);
        return;
    }
    if (cls_attr && is_descriptor(*cls_attr, true) && class_defines(cls_attr->o->type, "__set__")) {
        Value args[2] = {obj, std::move(v)};
        call_dunder(in, *cls_attr, *dunder(cls_attr->o->type, "__set__"), args, 2);
        return;
    }
    if (name == "__class__") {  // obj.__class__ = Other: a class with the same layout
        if (!is_kind(v, OK::Type) || !v.as<TypeObject>()->heap || (v.as<TypeObject>()->kind == OK::Exception) != (t->kind == OK::Exception))
            raise(types::TypeError, "__class__ assignment only supported for mutable types or ModuleType subclasses");
        obj.o->type = v.as<TypeObject>();
        return;
    }
    if (auto slots = t->lookup("__slots__"); slots && !class_defines(t, "__dict__")) {
        // __slots__: only the names it lists (in some class of the MRO that declares slots).
        bool listed = false;
        for (const TypeObject* c : t->mro) {
            auto it = c->dict.find("__slots__");
            if (it == c->dict.end()) continue;
            const Value& sv = it->second;
            if (is_kind(sv, OK::Str)) listed |= sv.as<StrObj>()->s == name;
            else if (is_kind(sv, OK::Tuple) || is_kind(sv, OK::List))
                for (const Value& x : is_kind(sv, OK::Tuple) ? sv.as<TupleObj>()->items : sv.as<ListObj>()->items)
                    listed |= is_kind(x, OK::Str) && x.as<StrObj>()->s == name;
        }
        // (a class without __slots__ in the MRO gives instances a dict)
        if (!listed && all_slotted(t)) raise(types::AttributeError, "'" + t->name + "' object has no attribute '" + name + "'");
    }
    if (!attr_set(in, obj, name, std::move(v))) raise(types::AttributeError, "'" + t->name + "' object has no attribute '" + name + "'");
}

// ---- C3 ----

std::vector<TypeObject*> linearization(TypeObject* t) {
    if (!t->mro.empty()) return t->mro;
    std::vector<TypeObject*> out;
    for (TypeObject* b = t; b; b = b->base) out.push_back(b);
    if (t != types::object) out.push_back(types::object);
    return out;
}

std::vector<TypeObject*> c3(TypeObject* cls, const std::vector<TypeObject*>& bases) {
    std::vector<std::vector<TypeObject*>> seqs;
    for (TypeObject* b : bases) seqs.push_back(linearization(b));
    seqs.push_back(bases);
    std::vector<TypeObject*> out{cls};
    for (;;) {
        std::erase_if(seqs, [](const std::vector<TypeObject*>& s) { return s.empty(); });
        if (seqs.empty()) return out;
        TypeObject* pick = nullptr;
        for (const auto& s : seqs) {
            TypeObject* head = s[0];
            bool in_tail = false;
            for (const auto& o : seqs) in_tail |= std::find(o.begin() + 1, o.end(), head) != o.end();
            if (!in_tail) {
                pick = head;
                break;
            }
        }
        if (!pick) {
            std::string names;
            for (TypeObject* b : bases) names += (names.empty() ? "" : ", ") + b->name;
            raise(types::TypeError, "Cannot create a consistent method resolution\norder (MRO) for bases " + names);
        }
        out.push_back(pick);
        for (auto& s : seqs)
            if (!s.empty() && s[0] == pick) s.erase(s.begin());
    }
}

// ---- descriptors, super ----

Value property_new(Interp&, CallArgs& a) {
    if (a.npos > 4) raise(types::TypeError, "property() takes at most 4 arguments (" + std::to_string(a.npos) + " given)");
    auto* p = new PropertyObj(class_types().property);
    Value out = Value::object(p);
    Value* slots[4] = {&p->fget, &p->fset, &p->fdel, &p->doc};
    for (auto* s : slots) *s = Value::none();
    for (size_t k = 0; k < a.npos; ++k) *slots[k] = a[k];
    static const char* names[] = {"fget", "fset", "fdel", "doc"};
    for (auto& [k, v] : a.kw ? *a.kw : std::vector<std::pair<std::string, Value>>{}) {
        size_t i = 0;
        while (i < 4 && k != names[i]) ++i;
        if (i == 4) raise(types::TypeError, "property() got an unexpected keyword argument '" + k + "'");
        *slots[i] = v;
    }
    return out;
}

// prop.setter(f) / .getter(f) / .deleter(f): a copy with that function.
Value property_with(const Value& self, int which, const Value& f) {
    auto* old = static_cast<PropertyObj*>(self.o);
    auto* p = new PropertyObj(class_types().property);
    Value out = Value::object(p);
    p->fget = which == 0 ? f : old->fget;
    p->fset = which == 1 ? f : old->fset;
    p->fdel = which == 2 ? f : old->fdel;
    p->doc = old->doc;
    return out;
}

Value wrapper_new(TypeObject* t, CallArgs& a) {
    if (a.npos != 1 || a.nkw()) raise(types::TypeError, t->name + " expected 1 argument, got " + std::to_string(a.npos));
    return Value::object(new WrapperObj(t, a[0]));
}

// super(type, obj): attribute lookups on obj's MRO after `type`.
Value super_new(Interp&, CallArgs& a) {
    if (a.npos != 2) raise(types::RuntimeError, "super(): no arguments");
    if (!is_kind(a[0], OK::Type)) raise(types::TypeError, std::string("super() argument 1 must be a type, not ") + type_name(a[0]));
    auto* start = a[0].as<TypeObject>();
    const TypeObject* of = is_kind(a[1], OK::Type) ? a[1].as<TypeObject>() : type_of(a[1]);
    if (!of->is_subtype_of(start)) raise(types::TypeError, "super(type, obj): obj must be an instance or subtype of type");
    return Value::object(new SuperObj(class_types().super, start, a[1]));
}

Value super_getattr(Interp& in, const Value& v, const std::string& name) {
    auto* s = static_cast<SuperObj*>(v.o);
    const bool of_class = is_kind(s->self, OK::Type);
    TypeObject* t = of_class ? s->self.as<TypeObject>() : type_of(s->self);
    const std::vector<TypeObject*> mro = linearization(t);
    auto it = std::find(mro.begin(), mro.end(), s->start);
    if (it != mro.end()) ++it;
    for (; it != mro.end(); ++it) {
        auto f = (*it)->dict.find(name);
        if (f == (*it)->dict.end()) continue;
        const Value& attr = f->second;
        if (attr.is_obj() && attr.o->type == class_types().property) {
                    const Value fget = static_cast<PropertyObj*>(attr.o)->fget;
            return in.call1(fget, s->self);
        }
        if (of_class) {
            if (attr.is_obj() && attr.o->type == class_types().classmethod)
                return Value::object(new BoundMethodObj(s->self, static_cast<WrapperObj*>(attr.o)->func));
            if (attr.is_obj() && attr.o->type == class_types().staticmethod) return static_cast<WrapperObj*>(attr.o)->func;
            return attr;
        }
        return bind(attr, s->self, t);
    }
    raise(types::AttributeError, "'super' object has no attribute '" + name + "'");
}

// object's own methods, for super().__init__() and the like.
Value object_init(Interp&, CallArgs& a) {
    if (a.npos > 1 || a.nkw()) {
        const TypeObject* t = type_of(a[0]);
        // (A class whose own __init__ is object's takes no arguments.)
        raise(types::TypeError, a.npos > 1 && !dunder(t, "__init__") ? t->name + "() takes no arguments"
                                                                     : "object.__init__() takes exactly one argument (the instance to initialize)");
    }
    return Value::none();
}

Value object_new(Interp& in, CallArgs& a) {
    if (a.npos < 1 || !is_kind(a[0], OK::Type)) raise(types::TypeError, "object.__new__(X): X is not a type object");
    auto* t = a[0].as<TypeObject>();
    if (!t->heap) raise(types::TypeError, "object.__new__(" + t->name + ") is not safe, use " + t->name + ".__new__()");
    (void)in;
    if (t->kind == OK::Exception) {
        auto* e = new ExceptionObj(t);
        Value v = Value::object(e);
        e->args = make_tuple(std::vector<Value>(a.pos + 1, a.pos + a.npos));
        return v;
    }
    return Value::object(new InstanceObj(t));
}

Value object_setattr(Interp& in, CallArgs& a) {
    expect_args(a, "__setattr__", 3, 3);
    if (!is_kind(a[1], OK::Str)) raise(types::TypeError, "attribute name must be string");
    if (!attrs_of(a[0])) {
        set_attr(in, a[0], a[1].as<StrObj>()->s, a[2]);
        return Value::none();
    }
    const Value* cls_attr = type_of(a[0])->lookup(a[1].as<StrObj>()->s);
    if (cls_attr && cls_attr->is_obj() && cls_attr->o->type == class_types().property) {
        slot_setattr(in, a[0], a[1].as<StrObj>()->s, a[2]);
        return Value::none();
    }
    attr_set(in, a[0], a[1].as<StrObj>()->s, a[2]);
    return Value::none();
}

Value object_hash(Interp&, CallArgs& a) {
    expect_args(a, "__hash__", 1, 1);
    return Value::integer(int64_t(reinterpret_cast<uintptr_t>(a[0].o) >> 4));
}

Value object_eq(Interp&, CallArgs& a) {
    expect_args(a, "__eq__", 2, 2);
    if (a[0].is_obj() && a[1].is_obj() && a[0].o == a[1].o) return Value::boolean(true);
    return Value::object(class_types().not_implemented);
}

Value object_ne(Interp& in, CallArgs& a) {
    expect_args(a, "__ne__", 2, 2);
    Value r = rich_compare(in, CmpOp::Eq, a[0], a[1]);
    if (is_not_implemented(r)) return r;
    return Value::boolean(!truthy(r));
}

Value object_str(Interp& in, CallArgs& a) {
    expect_args(a, "__str__", 1, 1);
    return make_str(repr(in, a[0]));
}

Value object_getattribute(Interp& in, CallArgs& a) {
    expect_args(a, "__getattribute__", 2, 2);
    if (!is_kind(a[1], OK::Str)) raise(types::TypeError, "attribute name must be string");
    const std::string& name = a[1].as<StrObj>()->s;
    if (Value v; attr_get(in, a[0], name, v)) return v;
    if (const Value* c = type_of(a[0])->lookup(name)) return bind(*c, a[0], type_of(a[0]));
    raise(types::AttributeError, "'" + type_of(a[0])->name + "' object has no attribute '" + name + "'");
}

Value object_delattr(Interp& in, CallArgs& a) {
    expect_args(a, "__delattr__", 2, 2);
    if (!is_kind(a[1], OK::Str)) raise(types::TypeError, "attribute name must be string");
    if (!attr_erase(in, a[0], a[1].as<StrObj>()->s))
        raise(types::AttributeError, "'" + type_of(a[0])->name + "' object has no attribute '" + a[1].as<StrObj>()->s + "'");
    return Value::none();
}

Value object_init_subclass(Interp&, CallArgs& a) {
    if (a.nkw()) raise(types::TypeError, a.npos ? type_name(a[0]) + std::string(".__init_subclass__() takes no keyword arguments") : "__init_subclass__() takes no keyword arguments");
    return Value::none();
}

Value object_repr(Interp&, CallArgs& a) {
    expect_args(a, "__repr__", 1, 1);
    return make_str(a[0].is_obj() && a[0].o->type->heap ? default_repr(a[0]) : std::string("<object>"));
}

// BaseException.__init__(self, *args): the args a user exception's __init__ passes up.
Value exception_init(Interp&, CallArgs& a) {
    if (a.npos < 1 || !is_kind(a[0], OK::Exception)) raise(types::TypeError, "descriptor '__init__' requires a 'BaseException' object");
    a[0].as<ExceptionObj>()->args = make_tuple(std::vector<Value>(a.pos + 1, a.pos + a.npos));
    return Value::none();
}

const ClassTypes& class_types() {
    static ClassTypes ct = [] {
        types::init();
        ClassTypes c{};
        auto type = [](const char* name) { return new TypeObject(name, nullptr, OK::Other); };
        c.property = type("property");
        c.property->construct = property_new;
        c.property->getattr = [](Interp& in, const Value& v, const std::string& name) -> Value {
            auto* p = static_cast<PropertyObj*>(v.o);
            if (name == "fget") return p->fget;
            if (name == "fset") return p->fset;
            if (name == "fdel") return p->fdel;
            if (name == "__doc__") return p->doc.is_none() && is_kind(p->fget, OK::Function) ? get_attr(in, p->fget, "__doc__") : p->doc;
            static const char* names[] = {"getter", "setter", "deleter"};
            for (int k = 0; k < 3; ++k)
                if (name == names[k]) {
                    auto* b = new BuiltinObj(names[k], nullptr, "", "");
                    b->bound = v;
                    b->fn = k == 0 ? NativeFn([](Interp&, CallArgs& a) { expect_args(a, "getter", 2, 2); return property_with(a[0], 0, a[1]); })
                            : k == 1 ? NativeFn([](Interp&, CallArgs& a) { expect_args(a, "setter", 2, 2); return property_with(a[0], 1, a[1]); })
                                     : NativeFn([](Interp&, CallArgs& a) { expect_args(a, "deleter", 2, 2); return property_with(a[0], 2, a[1]); });
                    return Value::object(b);
                }
            return Value();
        };
        c.staticmethod = type("staticmethod");
        c.staticmethod->construct = [](Interp&, CallArgs& a) { return wrapper_new(class_types().staticmethod, a); };
        c.classmethod = type("classmethod");
        c.classmethod->construct = [](Interp&, CallArgs& a) { return wrapper_new(class_types().classmethod, a); };
        for (TypeObject* w : {c.staticmethod, c.classmethod}) {
            w->getattr = [](Interp&, const Value& v, const std::string& name) -> Value {
                if (name == "__func__" || name == "__wrapped__") return static_cast<WrapperObj*>(v.o)->func;
                return Value();
            };
            // staticmethod objects are callable themselves (Python 3.10+).
            w->dict["__call__"] = builtin_value("__call__", [](Interp& in, CallArgs& a) {
                CallArgs rest{a.pos + 1, a.npos - 1, a.kw};
                return in.call(static_cast<WrapperObj*>(a[0].o)->func, rest);
            }, "", "");
        }
        c.super = type("super");
        c.super->construct = super_new;
        c.super->getattr = super_getattr;
        c.not_implemented_type = type("NotImplementedType");
        c.not_implemented = new Object(c.not_implemented_type);
        c.not_implemented->make_immortal();
        c.not_implemented_type->repr = [](Interp&, const Value&) { return std::string("NotImplemented"); };
        types::object->dict["__init__"] = builtin_value("__init__", object_init, "", "Initialize self.");
        types::object->dict["__new__"] = builtin_value("__new__", object_new, "", "Create and return a new object.");
        types::object->dict["__setattr__"] = builtin_value("__setattr__", object_setattr, "", "Implement setattr(self, name, value).");
        types::object->dict["__repr__"] = builtin_value("__repr__", object_repr, "", "Return repr(self).");
        types::object->dict["__str__"] = builtin_value("__str__", object_str, "", "Return str(self).");
        types::object->dict["__hash__"] = builtin_value("__hash__", object_hash, "", "Return hash(self).");
        types::object->dict["__eq__"] = builtin_value("__eq__", object_eq, "", "Return self==value.");
        types::object->dict["__ne__"] = builtin_value("__ne__", object_ne, "", "Return self!=value.");
        types::object->dict["__getattribute__"] = builtin_value("__getattribute__", object_getattribute, "", "Return getattr(self, name).");
        types::object->dict["__delattr__"] = builtin_value("__delattr__", object_delattr, "", "Implement delattr(self, name).");
        types::object->dict["__init_subclass__"] =
            builtin_value("__init_subclass__", object_init_subclass, "", "Called when a class is subclassed.");
        types::object->construct = [](Interp&, CallArgs& a) {
            if (a.npos || a.nkw()) raise(types::TypeError, "object() takes no arguments");
            auto* o = new Object(types::object);
            return Value::object(o);
        };
        types::BaseException->dict["__init__"] = builtin_value("__init__", exception_init, "", "Initialize self.");
        return c;
    }();
    return ct;
}

}  // namespace

Value make_class(Interp& in, const std::string& name, const std::string& qualname, const std::vector<Value>& base_values,
                 ClassNamespace& ns, ModuleObj* module, std::vector<std::pair<std::string, Value>>* keywords) {
    const ClassTypes& ct = class_types();
    (void)ct;
    std::vector<TypeObject*> bases;
    for (const Value& b : base_values) {
        if (!is_kind(b, OK::Type)) raise(types::TypeError, std::string("bases must be types, not ") + type_name(b));
        auto* t = b.as<TypeObject>();
        if (!t->heap && t != types::object && t->kind != OK::Exception)
            raise(types::NotImplementedError, "subclassing the built-in type '" + t->name + "' is not supported yet");
        if (std::find(bases.begin(), bases.end(), t) != bases.end()) raise(types::TypeError, "duplicate base class " + t->name);
        bases.push_back(t);
    }
    if (bases.empty()) bases.push_back(types::object);
    bool exception = false;
    for (TypeObject* b : bases) exception |= b->kind == OK::Exception;
    // (the first base that is not `object` gives the type its chain for built-in code)
    TypeObject* first = bases[0] == types::object && bases.size() > 1 ? bases[1] : bases[0];
    auto* t = new TypeObject(name, first, exception ? OK::Exception : OK::Other);
    t->heap = true;
    t->interp = &in;
    t->bases = bases;
    t->mro = c3(t, bases);
    t->qualname = qualname;
    t->module_name = module ? module->name : "__main__";
    for (const std::string& key : ns.order) {
        Value v = ns.values[key];
        // The functions the body defined know their class (zero-argument super()).
        Value f = v;
        if (v.is_obj() && (v.o->type == ct.staticmethod || v.o->type == ct.classmethod)) f = static_cast<WrapperObj*>(v.o)->func;
        if (is_kind(f, OK::Function) && !f.as<FunctionObj>()->owner) f.as<FunctionObj>()->owner = t;
        if (v.is_obj() && v.o->type == ct.property)
            for (const Value* g : {&static_cast<PropertyObj*>(v.o)->fget, &static_cast<PropertyObj*>(v.o)->fset})
                if (is_kind(*g, OK::Function) && !g->as<FunctionObj>()->owner) g->as<FunctionObj>()->owner = t;
        // __eq__ without __hash__: unhashable, as Python sets __hash__ = None.
        t->dict[key] = std::move(v);
    }
    if (t->dict.count("__eq__") && !t->dict.count("__hash__")) t->dict["__hash__"] = Value::none();
    if (auto d = t->dict.find("__doc__"); d != t->dict.end() && is_kind(d->second, OK::Str)) t->doc = d->second.as<StrObj>()->s;
    t->binary = slot_binary;
    t->inplace = slot_inplace;
    t->unary = slot_unary;
    t->compare = slot_compare;
    t->equal = slot_equal;
    t->hash = slot_hash;
    t->repr = slot_repr;
    t->str = slot_str;
    t->format = slot_format;
    t->getattr = slot_getattr;
    t->setattr = slot_setattr;
    t->getitem = slot_getitem;
    t->setitem = slot_setitem;
    t->len = slot_len;
    t->iter = slot_iter;
    t->truth = slot_truth;
    t->index = slot_index;
    Value cls = Value::object(t);
    // (only classes' subclasses: built-in types are shared by every interpreter)
    for (TypeObject* b : bases)
        if (b->heap) b->subclasses.push_back(t);
    // Descriptors learn their names; the nearest base's __init_subclass__
    // sees the new class and the class statement's keywords.
    for (const std::string& key : ns.order) {
        auto found = t->dict.find(key);
        if (found == t->dict.end()) continue;  // (an earlier __set_name__ deleted it)
        const Value v = found->second;
        if (v.is_obj() && v.o->type->heap)
            if (const Value* sn = dunder(v.o->type, "__set_name__")) {
                Value args[2] = {cls, make_str(key)};
                call_dunder(in, v, *sn, args, 2);
            }
    }
    for (size_t k = 1; k < t->mro.size(); ++k) {
        auto it = t->mro[k]->dict.find("__init_subclass__");
        if (it == t->mro[k]->dict.end()) continue;
        Value fn = it->second;
        if (fn.is_obj() && (fn.o->type == ct.classmethod || fn.o->type == ct.staticmethod)) fn = static_cast<WrapperObj*>(fn.o)->func;
        CallArgs a{&cls, 1, keywords && !keywords->empty() ? keywords : nullptr};
        in.call(fn, a);
        break;
    }
    return cls;
}

bool class_defines(const TypeObject* t, const char* name) { return dunder(t, name) != nullptr; }

bool call_user_dunder(Interp& in, const Value& obj, const char* name, Value& out, const Value* args, size_t n) {
    if (!obj.is_obj() || !obj.o->type->heap) return false;
    const Value* m = dunder(obj.o->type, name);
    if (!m) return false;
    out = call_dunder(in, obj, *m, args, n);
    return true;
}

void del_attr(Interp& in, const Value& obj, const std::string& name) {
    if (is_kind(obj, OK::Type) && obj.as<TypeObject>()->heap) {
        auto* t = obj.as<TypeObject>();
        if (!t->dict.erase(name)) raise(types::AttributeError, "type object '" + t->name + "' has no attribute '" + name + "'");
        return;
    }
    if (is_kind(obj, OK::Module)) {
        auto* m = obj.as<ModuleObj>();
        const Value* v = m->get(name);
        if (!v) raise(types::AttributeError, "module '" + m->name + "' has no attribute '" + name + "'");
        m->set(name, Value());
        return;
    }
    if (!obj.is_obj() || !(obj.o->type->heap || obj.o->type->kind == OK::Exception))
        raise(types::AttributeError, std::string("'") + type_name(obj) + "' object has no attribute '" + name + "'");
    TypeObject* t = obj.o->type;
    if (const Value* da = dunder(t, "__delattr__")) {
        Value n = make_str(name);
        call_dunder(in, obj, *da, &n, 1);
        return;
    }
    const Value* cls_attr = t->lookup(name);
    if (cls_attr && cls_attr->is_obj() && cls_attr->o->type == class_types().property) {
        auto* p = static_cast<PropertyObj*>(cls_attr->o);
        if (p->fdel.is_none()) raise(types::AttributeError, "property '" + name + "' of '" + t->name + "' object has no deleter");
        const Value fdel = p->fdel;
        in.call1(fdel, obj);
        return;
    }
    if (cls_attr && cls_attr->is_obj() && cls_attr->o->type->heap && class_defines(cls_attr->o->type, "__delete__")) {
        call_dunder(in, *cls_attr, *dunder(cls_attr->o->type, "__delete__"), &obj, 1);
        return;
    }
    if (!attr_erase(in, obj, name)) raise(types::AttributeError, "'" + t->name + "' object has no attribute '" + name + "'");
}

Value instance_dict(Interp& in, const Value& obj) {
    if (!obj.is_obj() || !obj.o->type->heap || obj.o->type->kind == OK::Exception)
        raise(types::TypeError, "vars() argument must have __dict__ attribute");
    auto* inst = obj.as<InstanceObj>();
    if (inst->dict.is_undef()) {
        auto* d = new DictObj();
        inst->dict = Value::object(d);
        for (auto& [k, v] : inst->attrs.items) d->table.set(in, make_str(k), v);
        inst->attrs.items.clear();
    }
    return inst->dict;
}

Value copy_instance(Interp& in, const Value& v, const std::function<Value(const Value&)>& each,
                    const std::function<void(const Value&)>& created) {
    TypeObject* t = v.o->type;
    Value out;
    if (t->kind == OK::Exception) {
        auto* e = new ExceptionObj(t);
        out = Value::object(e);
        if (created) created(out);
        e->args = v.as<ExceptionObj>()->args;
        const auto items = v.as<ExceptionObj>()->attrs.items;  // (a copy: `each` may run user code that changes them)
        for (auto& [k, x] : items) e->attrs.set(k, each ? each(x) : x);
        return out;
    }
    auto* inst = new InstanceObj(t);
    out = Value::object(inst);
    if (created) created(out);
    std::vector<std::pair<std::string, Value>> items;
    if (DictObj* d = dict_of(v)) {
        for (const auto& e : d->table.entries)
            if (!e.key.is_undef() && is_kind(e.key, OK::Str)) items.emplace_back(e.key.as<StrObj>()->s, e.value);
    } else {
        items = v.as<InstanceObj>()->attrs.items;
    }
    for (auto& [k, x] : items) inst->attrs.set(k, each ? each(x) : x);
    return out;
}

Value make_instance(Interp& in, TypeObject* cls, CallArgs& args) {
    Value self;
    const Value* user_new = dunder(cls, "__new__");
    if (user_new) {
        Value fn = *user_new;
        if (fn.is_obj() && fn.o->type == class_types().staticmethod) fn = static_cast<WrapperObj*>(fn.o)->func;
        std::vector<Value> pos{Value::object(cls)};
        pos.insert(pos.end(), args.pos, args.pos + args.npos);
        CallArgs a{pos.data(), pos.size(), args.kw};
        self = in.call(fn, a);
        if (!isinstance(self, cls)) return self;
    } else if (cls->kind == OK::Exception) {
        auto* e = new ExceptionObj(cls);
        self = Value::object(e);
        e->args = make_tuple(std::vector<Value>(args.pos, args.pos + args.npos));
    } else {
        self = Value::object(new InstanceObj(cls));
    }
    if (const Value* init = cls->lookup("__init__")) {
        const bool objects = is_kind(*init, OK::Builtin) && init->as<BuiltinObj>()->fn == object_init;
        if (objects && user_new) return self;  // object.__init__ after a __new__ of the class: the arguments were its
        Value fn = bind(*init, self, cls);
        Value r = in.call(fn, args);
        if (!r.is_none()) raise(types::TypeError, std::string("__init__() should return None, not '") + type_name(r) + "'");
    }
    return self;
}

Value type_attribute(Interp& in, TypeObject* t, const std::string& name) {
    if (name == "mro") {
        auto* b = new BuiltinObj("mro", [](Interp&, CallArgs& a) {
            std::vector<Value> items;
            for (TypeObject* c : linearization(a[0].as<TypeObject>())) items.push_back(Value::object(c));
            return make_list(std::move(items));
        }, "mro()", "Return a type's method resolution order.");
        b->bound = Value::object(t);
        return Value::object(b);
    }
    if (const Value* v = t->lookup(name)) {
        if (v->is_obj() && v->o->type->heap && class_defines(v->o->type, "__get__")) {  // a descriptor: __get__(None, cls)
            Value args[2] = {Value::none(), Value::object(t)};
            return call_dunder(in, *v, *dunder(v->o->type, "__get__"), args, 2);
        }
        if (v->is_obj() && v->o->type == class_types().staticmethod) return static_cast<WrapperObj*>(v->o)->func;
        if (v->is_obj() && v->o->type == class_types().classmethod)
            return Value::object(new BoundMethodObj(Value::object(t), static_cast<WrapperObj*>(v->o)->func));
        return *v;
    }
    if (name == "__qualname__") return make_str(t->heap ? t->qualname : t->name);
    if (name == "__module__") return make_str(t->heap ? t->module_name : std::string("builtins"));
    if (name == "__doc__") return t->doc.empty() ? Value::none() : make_str(t->doc);
    if (name == "__class__") return Value::object(types::type);
    if (name == "__base__") return t == types::object ? Value::none() : Value::object(t->heap ? t->bases[0] : t->base ? t->base : types::object);
    if (name == "__subclasses__") {
        auto* b = new BuiltinObj("__subclasses__", [](Interp&, CallArgs& a) {
            std::vector<Value> items;
            for (TypeObject* c : a[0].as<TypeObject>()->subclasses) items.push_back(Value::object(c));
            return make_list(std::move(items));
        }, "__subclasses__()", "");
        b->bound = Value::object(t);
        return Value::object(b);
    }
    if (name == "__dict__") {
        auto* d = new DictObj();
        Value out = Value::object(d);
        for (const auto& [k, v] : t->dict) d->table.set(in, make_str(k), v);
        return out;
    }
    if (name == "__mro__" || name == "__bases__") {
        std::vector<Value> items;
        const std::vector<TypeObject*> list = name == "__mro__" ? linearization(t) : t->heap ? t->bases : std::vector<TypeObject*>{};
        for (TypeObject* c : list) items.push_back(Value::object(c));
        if (name == "__bases__" && !t->heap) items.push_back(Value::object(t->base ? t->base : types::object));
        return make_tuple(std::move(items));
    }
    return Value();
}

Value bare_super(Interp& in, const FunctionObj* fn, const Value* first) {
    (void)in;
    if (!fn || !fn->owner) raise(types::RuntimeError, "super(): __class__ cell not found");
    if (!first || first->is_undef()) raise(types::RuntimeError, "super(): no arguments");
    Value self = *first;
    if (is_kind(self, OK::Cell)) self = self.as<CellObj>()->value;
    return Value::object(new SuperObj(class_types().super, fn->owner, self));
}

Value bi_vars(Interp& in, CallArgs& a) {
    if (a.npos != 1) raise(types::TypeError, a.npos ? "vars expected at most 1 argument, got " + std::to_string(a.npos)
                                                   : "vars() without an argument is not supported yet");
    if (is_kind(a[0], OK::Module) || is_kind(a[0], OK::Type)) return get_attr(in, a[0], "__dict__");
    return instance_dict(in, a[0]);
}

Value bi_delattr(Interp& in, CallArgs& a) {
    expect_args(a, "delattr", 2, 2);
    if (!is_kind(a[1], OK::Str)) raise(types::TypeError, std::string("attribute name must be string, not '") + type_name(a[1]) + "'");
    del_attr(in, a[0], a[1].as<StrObj>()->s);
    return Value::none();
}

void add_class_builtins(Interp& in) {
    in.builtins["vars"] = builtin_value("vars", bi_vars, "vars([object], /)", "Show vars.");
    in.builtins["delattr"] = builtin_value("delattr", bi_delattr, "delattr(obj, name, /)", "Deletes the named attribute from the given object.");
    const ClassTypes& ct = class_types();
    in.builtins["object"] = Value::object(types::object);
    in.builtins["property"] = Value::object(ct.property);
    in.builtins["staticmethod"] = Value::object(ct.staticmethod);
    in.builtins["classmethod"] = Value::object(ct.classmethod);
    in.builtins["super"] = Value::object(ct.super);
    in.builtins["NotImplemented"] = Value::object(ct.not_implemented);
}

bool is_super_type(const Value& v) { return v.is_obj() && v.o == class_types().super; }

}  // namespace gpy
