// Expression evaluation. Hot paths (int/float arithmetic, local variables,
// calls of plain functions) are handled inline; everything else goes through
// the generic protocol helpers in ops.cpp.
#include <cmath>

#include "lang/format.h"
#include "lang/interp.h"

namespace gpy {

Value ellipsis_value() {
    static Object* ellipsis = [] { auto* o = new TupleObj(); o->type = types::ellipsis; o->make_immortal(); return o; }();
    return Value::object(ellipsis);
}

Value EllipsisExpr::eval(Frame&) const { return ellipsis_value(); }

// ---- names ----

[[noreturn]] static void name_error(const NameExpr& n) {
    raise(types::NameError, "name '" + n.id + "' is not defined");
}

Value NameExpr::eval(Frame& f) const {
    switch (scope) {
        case NameScope::Local: {
            const Value& v = f.slots[index];
            if (v.is_undef()) {
                f.cur = this;
                raise(types::UnboundLocalError, "cannot access local variable '" + id + "' where it is not associated with a value");
            }
            return v;
        }
        case NameScope::Cell: {
            const Value& v = f.slots[index].as<CellObj>()->value;
            if (v.is_undef()) {
                f.cur = this;
                raise(types::UnboundLocalError, "cannot access local variable '" + id + "' where it is not associated with a value");
            }
            return v;
        }
        case NameScope::Free: {
            const Value& v = f.func->closure[size_t(index)]->value;
            if (v.is_undef()) {
                f.cur = this;
                raise(types::NameError, "cannot access free variable '" + id + "' where it is not associated with a value in enclosing scope");
            }
            return v;
        }
        case NameScope::Class: {
            if (f.class_ns) {
                auto it = f.class_ns->values.find(id);
                if (it != f.class_ns->values.end()) return it->second;
            }
            const Value& v = f.module->values[size_t(index)];
            if (!v.is_undef()) return v;
            if (builtin) return *builtin;
            f.cur = this;
            name_error(*this);
        }
        case NameScope::Global: {
            const Value& v = f.module->values[size_t(index)];
            if (!v.is_undef()) return v;
            if (builtin) return *builtin;
            // A method's implicit __class__ (the class whose body defined it).
            if (f.func && f.func->owner && id == "__class__") return Value::object(f.func->owner);
            f.cur = this;
            name_error(*this);
        }
        case NameScope::Unresolved: break;
    }
    f.cur = this;
    name_error(*this);
}

void NameExpr::store(Frame& f, Value v) const {
    if (v.is_obj() && v.o->type->on_bind) {
        f.cur = this;
        v.o->type->on_bind(v);
    }
    switch (scope) {
        case NameScope::Local: f.slots[index] = std::move(v); return;
        case NameScope::Cell: f.slots[index].as<CellObj>()->value = std::move(v); return;
        case NameScope::Free: f.func->closure[size_t(index)]->value = std::move(v); return;
        case NameScope::Global: f.module->values[size_t(index)] = std::move(v); return;
        case NameScope::Class:
            if (f.class_ns) f.class_ns->set(id, std::move(v));
            else f.module->values[size_t(index)] = std::move(v);  // (not reached: class names resolve only in class bodies)
            return;
        case NameScope::Unresolved: break;
    }
}

void NameExpr::erase(Frame& f) const {
    Value* slot = nullptr;
    switch (scope) {
        case NameScope::Local: slot = &f.slots[index]; break;
        case NameScope::Cell: slot = &f.slots[index].as<CellObj>()->value; break;
        case NameScope::Free: slot = &f.func->closure[size_t(index)]->value; break;
        case NameScope::Global: slot = &f.module->values[size_t(index)]; break;
        case NameScope::Class:
            if (f.class_ns && f.class_ns->values.count(id)) {
                f.class_ns->values.erase(id);
                std::erase(f.class_ns->order, id);
                return;
            }
            f.cur = this;
            name_error(*this);
        case NameScope::Unresolved: break;
    }
    f.cur = this;
    if (!slot || slot->is_undef()) {
        if (scope == NameScope::Global) name_error(*this);
        raise(types::UnboundLocalError, "cannot access local variable '" + id + "' where it is not associated with a value");
    }
    *slot = Value();
}

// ---- displays ----

Value StarredExpr::eval(Frame& f) const {
    f.cur = this;
    raise(types::TypeError, "can't use starred expression here");
}

static void append_elements(Frame& f, const std::vector<ExprP>& elts, std::vector<Value>& out) {
    for (auto& e : elts) {
        if (e->kind == EK::Starred) {
            Value v = static_cast<const StarredExpr&>(*e).value->eval(f);
            f.cur = e.get();
            for_each(f.in, v, [&](const Value& item) { out.push_back(item); return true; });
        } else {
            out.push_back(e->eval(f));
        }
    }
}

Value SeqExpr::eval(Frame& f) const {
    if (kind == EK::Tuple && !constant_checked) {
        constant_checked = true;
        bool all = !has_star;
        for (const ExprP& e : elts) all = all && e->kind == EK::Const;
        if (all) {
            std::vector<Value> items;
            for (const ExprP& e : elts) items.push_back(static_cast<const ConstExpr&>(*e).value);
            constant = make_tuple(std::move(items));
        }
    }
    if (!constant.is_undef()) return constant;
    std::vector<Value> items;
    items.reserve(elts.size());
    append_elements(f, elts, items);
    if (kind == EK::List) return make_list(std::move(items));
    if (kind == EK::Tuple) return make_tuple(std::move(items));
    auto* s = new SetObj();
    Value v = Value::object(s);
    f.cur = this;
    for (auto& item : items) s->table.set(f.in, item, Value::none());
    return v;
}

Value DictExpr::eval(Frame& f) const {
    auto* d = new DictObj();
    Value result = Value::object(d);
    for (size_t k = 0; k < keys.size(); ++k) {
        if (!keys[k]) {
            Value m = values[k]->eval(f);
            f.cur = values[k].get();
            if (!is_kind(m, OK::Dict)) raise(types::TypeError, std::string("'") + type_name(m) + "' object is not a mapping");
            for (auto& e : m.as<DictObj>()->table.entries)
                if (!e.key.is_undef()) d->table.set(f.in, e.key, e.value);
            continue;
        }
        Value key = keys[k]->eval(f);
        Value val = values[k]->eval(f);
        f.cur = keys[k].get();
        d->table.set(f.in, key, std::move(val));
    }
    return result;
}

// ---- operators ----

Value BinOpExpr::eval(Frame& f) const {
    Value l = left->eval(f);
    Value r = right->eval(f);
    if (l.kind == VK::Int && r.kind == VK::Int) {
        int64_t out;
        switch (op) {
            case BinOp::Add: if (!__builtin_add_overflow(l.i, r.i, &out)) return Value::integer(out); break;
            case BinOp::Sub: if (!__builtin_sub_overflow(l.i, r.i, &out)) return Value::integer(out); break;
            case BinOp::Mul: if (!__builtin_mul_overflow(l.i, r.i, &out)) return Value::integer(out); break;
            case BinOp::Mod:
                if (r.i > 0 && l.i >= 0) return Value::integer(l.i % r.i);
                break;
            case BinOp::FloorDiv:
                if (r.i > 0 && l.i >= 0) return Value::integer(l.i / r.i);
                break;
            case BinOp::BitAnd: return Value::integer(l.i & r.i);
            case BinOp::BitOr: return Value::integer(l.i | r.i);
            case BinOp::BitXor: return Value::integer(l.i ^ r.i);
            case BinOp::Div:
                if (r.i != 0) return Value::real(double(l.i) / double(r.i));
                break;
            default: break;
        }
    } else if (l.kind == VK::Float && r.kind == VK::Float) {
        switch (op) {
            case BinOp::Add: return Value::real(l.f + r.f);
            case BinOp::Sub: return Value::real(l.f - r.f);
            case BinOp::Mul: return Value::real(l.f * r.f);
            case BinOp::Div: if (r.f != 0) return Value::real(l.f / r.f); break;
            default: break;
        }
    }
    f.cur = this;
    return binary_op(f.in, op, l, r);
}

Value UnaryExpr::eval(Frame& f) const {
    Value v = operand->eval(f);
    if (op == UnOp::Not) return Value::boolean(!truthy(v));
    if (op == UnOp::Neg) {
        if (v.kind == VK::Int && v.i != INT64_MIN) return Value::integer(-v.i);
        if (v.kind == VK::Float) return Value::real(-v.f);
    }
    f.cur = this;
    return unary_op(f.in, op, v);
}

Value BoolOpExpr::eval(Frame& f) const {
    Value v;
    for (size_t k = 0; k < values.size(); ++k) {
        v = values[k]->eval(f);
        if (k + 1 == values.size()) break;
        if (truthy(v) != is_and) break;  // `or` stops at the first truthy, `and` at the first falsy
    }
    return v;
}

static inline bool fast_compare(CmpOp op, const Value& a, const Value& b, bool& out) {
    if (a.kind == VK::Int && b.kind == VK::Int) {
        switch (op) {
            case CmpOp::Lt: out = a.i < b.i; return true;
            case CmpOp::Gt: out = a.i > b.i; return true;
            case CmpOp::Le: out = a.i <= b.i; return true;
            case CmpOp::Ge: out = a.i >= b.i; return true;
            case CmpOp::Eq: out = a.i == b.i; return true;
            case CmpOp::Ne: out = a.i != b.i; return true;
            default: return false;
        }
    }
    if (a.kind == VK::Float && b.kind == VK::Float) {
        switch (op) {
            case CmpOp::Lt: out = a.f < b.f; return true;
            case CmpOp::Gt: out = a.f > b.f; return true;
            case CmpOp::Le: out = a.f <= b.f; return true;
            case CmpOp::Ge: out = a.f >= b.f; return true;
            case CmpOp::Eq: out = a.f == b.f; return true;
            case CmpOp::Ne: out = a.f != b.f; return true;
            default: return false;
        }
    }
    return false;
}

Value CompareExpr::eval(Frame& f) const {
    Value l = first->eval(f);
    for (size_t k = 0; k < ops.size(); ++k) {
        Value r = rest[k]->eval(f);
        bool ok;
        if (!fast_compare(ops[k], l, r, ok)) {
            f.cur = this;
            if (ops.size() == 1 && ops[0] != CmpOp::In && ops[0] != CmpOp::NotIn && ops[0] != CmpOp::Is &&
                ops[0] != CmpOp::IsNot)
                return rich_compare(f.in, ops[0], l, r);  // may return a non-bool (arrays, later)
            ok = compare_op(f.in, ops[k], l, r);
        }
        if (!ok) return Value::boolean(false);
        l = std::move(r);
    }
    return Value::boolean(true);
}

Value IfExpr::eval(Frame& f) const { return truthy(test->eval(f)) ? body->eval(f) : orelse->eval(f); }

// ---- calls ----

namespace {

// Evaluates call arguments into a small inline buffer (the common case) or a
// vector, expanding *args and collecting keywords.
struct ArgBuffer {
    Value inline_buf[8];
    std::vector<Value> heap;
    Value* data = inline_buf;
    size_t n = 0;
    std::vector<std::pair<std::string, Value>> kw;

    void reserve(size_t count) {
        if (count > 8) { heap.resize(count); data = heap.data(); }
    }
    void push(Value v) {
        if (data == inline_buf && n == 8) {
            heap.reserve(16);
            for (size_t k = 0; k < 8; ++k) heap.push_back(std::move(inline_buf[k]));
            data = heap.data();
        }
        if (data != inline_buf) {
            if (n < heap.size()) heap[n] = std::move(v);
            else heap.push_back(std::move(v));
            data = heap.data();
        } else {
            inline_buf[n] = std::move(v);
        }
        ++n;
    }
};

void collect_args(Frame& f, const CallExpr& c, ArgBuffer& buf) {
    if (c.simple) {
        buf.reserve(c.args.size() + 1);
        for (auto& a : c.args) buf.push(a->eval(f));
        return;
    }
    for (auto& a : c.args) {
        if (a->kind == EK::Starred) {
            Value v = static_cast<const StarredExpr&>(*a).value->eval(f);
            f.cur = a.get();
            if (!is_kind(v, OK::List) && !is_kind(v, OK::Tuple) && !is_kind(v, OK::Str) && !is_kind(v, OK::Range) &&
                !is_kind(v, OK::Dict) && !is_kind(v, OK::Set) && !is_kind(v, OK::Iter) && !is_kind(v, OK::DictView) &&
                !(v.is_obj() && v.o->type->iter))  // a type that iterates (arrays)
                raise(types::TypeError, c.func->kind == EK::Name
                                            ? static_cast<const NameExpr&>(*c.func).id + "() argument after * must be an iterable, not " + type_name(v)
                                            : std::string("argument after * must be an iterable, not ") + type_name(v));
            for_each(f.in, v, [&](const Value& item) { buf.push(item); return true; });
        } else {
            buf.push(a->eval(f));
        }
    }
    for (auto& k : c.keywords) {
        Value v = k.value->eval(f);
        if (!k.name.empty()) { buf.kw.emplace_back(k.name, std::move(v)); continue; }
        f.cur = k.value.get();
        if (!is_kind(v, OK::Dict)) raise(types::TypeError, std::string("argument after ** must be a mapping, not ") + type_name(v));
        for (auto& e : v.as<DictObj>()->table.entries) {
            if (e.key.is_undef()) continue;
            if (!is_kind(e.key, OK::Str)) raise(types::TypeError, "keywords must be strings");
            const std::string& name = e.key.as<StrObj>()->s;
            for (auto& existing : buf.kw)
                if (existing.first == name) raise(types::TypeError, "got multiple values for keyword argument '" + name + "'");
            buf.kw.emplace_back(name, e.value);
        }
    }
}

}  // namespace

Value CallExpr::eval(Frame& f) const {
    ArgBuffer buf;
    if (bare_super) {
        // super() in a method: its class and its first argument.
        Value callee = func->eval(f);
        if (is_super_type(callee)) {
            f.cur = this;
            const FuncInfo* info = f.func ? f.func->info : nullptr;
            const Value* first = info && !info->params.empty() ? &f.slots[info->params[0].slot] : nullptr;
            return gpy::bare_super(f.in, f.func, first);
        }
    }
    // obj.method(...) on a built-in type: call the native method with self
    // first, without creating a bound-method object.
    if (func->kind == EK::Attribute) {
        auto& attr = static_cast<const AttributeExpr&>(*func);
        Value self = attr.value->eval(f);
        // (Classes' dicts change, so their methods take the general path.)
        if (self.is_obj() && self.o->type->kind != OK::Module && self.o->type->kind != OK::Type && !self.o->type->heap) {
            const Value* m;
            if (attr.cached_type == self.o->type) {
                m = attr.cached_method;
            } else {
                m = self.o->type->lookup(attr.attr);
                attr.cached_type = self.o->type;
                attr.cached_method = m;
            }
            // (a builtin with a bound first argument takes the general path)
            if (m && is_kind(*m, OK::Builtin) && m->as<BuiltinObj>()->bound.is_undef()) {
                buf.push(std::move(self));
                collect_args(f, *this, buf);
                CallArgs args{buf.data, buf.n, buf.kw.empty() ? nullptr : &buf.kw};
                f.cur = this;
                f.in.tick();
                auto* b = m->as<BuiltinObj>();
                if (b->checks_keywords && args.kw) reject_unknown_keywords(b, args);
                return b->fn(f.in, args);
            }
        }
        f.cur = &attr;
        Value callee = get_attr(f.in, self, attr.attr);
        collect_args(f, *this, buf);
        CallArgs args{buf.data, buf.n, buf.kw.empty() ? nullptr : &buf.kw};
        f.cur = this;
        return f.in.call(callee, args);
    }
    Value callee = func->eval(f);
    collect_args(f, *this, buf);
    CallArgs args{buf.data, buf.n, buf.kw.empty() ? nullptr : &buf.kw};
    f.cur = this;
    return f.in.call(callee, args);
}

// ---- attributes, subscripts, slices ----

Value AttributeExpr::eval(Frame& f) const {
    Value obj = value->eval(f);
    f.cur = this;
    return get_attr(f.in, obj, attr);
}

void AttributeExpr::store(Frame& f, Value v) const {
    Value obj = value->eval(f);
    f.cur = this;
    set_attr(f.in, obj, attr, std::move(v));
}

Value SliceExpr::eval(Frame& f) const {
    return make_slice(lower ? lower->eval(f) : Value::none(), upper ? upper->eval(f) : Value::none(),
                      step ? step->eval(f) : Value::none());
}

Value SubscriptExpr::eval(Frame& f) const {
    Value obj = value->eval(f);
    Value idx = index->eval(f);
    if (idx.kind == VK::Int && obj.is_obj() && obj.o->type->kind == OK::List) {
        auto& items = obj.as<ListObj>()->items;
        int64_t k = idx.i < 0 ? idx.i + int64_t(items.size()) : idx.i;
        if (k >= 0 && k < int64_t(items.size())) return items[size_t(k)];
    }
    f.cur = this;
    return get_item(f.in, obj, idx);
}

void SubscriptExpr::store(Frame& f, Value v) const {
    Value obj = value->eval(f);
    Value idx = index->eval(f);
    if (idx.kind == VK::Int && obj.is_obj() && obj.o->type->kind == OK::List) {
        auto& items = obj.as<ListObj>()->items;
        int64_t k = idx.i < 0 ? idx.i + int64_t(items.size()) : idx.i;
        if (k >= 0 && k < int64_t(items.size())) { items[size_t(k)] = std::move(v); return; }
    }
    f.cur = this;
    set_item(f.in, obj, idx, std::move(v));
}

void SubscriptExpr::erase(Frame& f) const {
    Value obj = value->eval(f);
    Value idx = index->eval(f);
    f.cur = this;
    del_item(f.in, obj, idx);
}

// ---- functions ----

Value make_function(Frame& f, const FuncInfo& info) {
    auto* fn = new FunctionObj(&info, f.module);
    Value v = Value::object(fn);
    for (auto& p : info.params)
        if (p.default_value) fn->defaults.push_back(p.default_value->eval(f));
    for (const ClosureSource& src : info.free_sources) {
        if (src.from_free) fn->closure.push_back(f.func->closure[size_t(src.index)]);
        else fn->closure.push_back(Ref<CellObj>(f.slots[src.index].as<CellObj>()));
    }
    return v;
}

Value LambdaExpr::eval(Frame& f) const { return make_function(f, *info); }

Value GenExpr::eval(Frame& f) const {
    Value it = get_iter(f.in, first_iter->eval(f));  // (Python takes iter() of the first iterable now)
    f.cur = this;
    Value fn = make_function(f, *info);
    CallArgs a{&it, 1, nullptr};
    return f.in.call(fn, a);
}

// ---- f-strings ----

Value FStringExpr::eval(Frame& f) const {
    std::string out;
    for (const Part& p : parts) {
        if (!p.expr) { out += p.literal; continue; }
        Value v = p.expr->eval(f);
        f.cur = p.expr.get();
        if (p.conversion == 'r' || p.conversion == 'a') v = make_str(repr(f.in, v));
        else if (p.conversion == 's') v = make_str(to_str(f.in, v));
        if (p.spec) {
            Value spec = p.spec->eval(f);
            f.cur = p.expr.get();
            out += format_value(f.in, v, spec.as<StrObj>()->s);
        } else if (is_kind(v, OK::Str)) {
            out += v.as<StrObj>()->s;
        } else if (v.is_obj() && v.o->type->format) {
            out += v.o->type->format(f.in, v, "");  // its own __format__ (NumPy scalars)
        } else {
            out += to_str(f.in, v);
        }
    }
    return make_str(std::move(out));
}

// ---- comprehensions ----

void assign_target(Frame& f, const Expr& target, Value v);

namespace {

struct CompRunner {
    Frame& f;
    const ComprehensionExpr& c;
    std::vector<Value>* list = nullptr;
    HashTable* table = nullptr;

    void run(size_t g, const Value& iterable) {
        const auto& gen = c.generators[g];
        for_each(f.in, iterable, [&](const Value& item) {
            f.in.tick();
            assign_target(f, *gen.target, item);
            for (auto& cond : gen.ifs)
                if (!truthy(cond->eval(f))) return true;
            if (g + 1 < c.generators.size()) {
                run(g + 1, c.generators[g + 1].iter->eval(f));
                return true;
            }
            if (c.comp_kind == ComprehensionExpr::Dict) {
                Value k = c.elt->eval(f);
                Value v = c.value->eval(f);
                f.cur = &c;
                table->set(f.in, k, std::move(v));
            } else if (c.comp_kind == ComprehensionExpr::Set) {
                Value k = c.elt->eval(f);
                f.cur = &c;
                table->set(f.in, k, Value::none());
            } else {
                list->push_back(c.elt->eval(f));
            }
            return true;
        });
    }
};

}  // namespace

Value make_list_iterator(Value list);

Value ComprehensionExpr::eval(Frame& f) const {
    Value first = generators[0].iter->eval(f);
    f.cur = generators[0].iter.get();
    CompRunner r{f, *this};
    if (comp_kind == Dict) {
        auto* d = new DictObj();
        Value out = Value::object(d);
        r.table = &d->table;
        r.run(0, first);
        return out;
    }
    if (comp_kind == Set) {
        auto* s = new SetObj();
        Value out = Value::object(s);
        r.table = &s->table;
        r.run(0, first);
        return out;
    }
    auto* l = new ListObj();
    Value out = Value::object(l);
    r.list = &l->items;
    r.run(0, first);
    if (comp_kind == Generator) return make_list_iterator(out);  // evaluated eagerly; see docs/differences.md
    return out;
}

}  // namespace gpy
