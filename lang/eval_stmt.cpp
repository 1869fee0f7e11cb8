// Statement execution and assignment targets.
#include "lang/interp.h"

namespace gpy {

Value make_function(Frame& f, const FuncInfo& info);
void assign_target(Frame& f, const Expr& target, Value v);

thread_local const Stmt* t_current_statement = nullptr;

namespace {
// Puts back the caller's statement when a call's body is done.
struct StatementRestore {
    const Stmt* saved = t_current_statement;
    ~StatementRestore() { t_current_statement = saved; }
};
}  // namespace

static inline Flow exec_block(const Block& b, Frame& f) {
    for (const auto& s : b) {
        t_current_statement = s.get();
        Flow fl = s->exec(f);
        if (fl != Flow::Normal) return fl;
    }
    return Flow::Normal;
}

// Unpacks `v` into a tuple/list target (with at most one *starred element).
static void unpack(Frame& f, const SeqExpr& target, const Value& v) {
    const auto& elts = target.elts;
    std::vector<Value> items;
    if (is_kind(v, OK::Tuple)) items = v.as<TupleObj>()->items;
    else if (is_kind(v, OK::List)) items = v.as<ListObj>()->items;
    else {
        f.cur = &target;
        TypeObject* t = type_of(v);
        if (!v.is_obj() || (t->kind != OK::Str && t->kind != OK::Range && t->kind != OK::Dict && t->kind != OK::Set &&
                            t->kind != OK::Iter && t->kind != OK::DictView && !t->iter))
            raise(types::TypeError, std::string("cannot unpack non-iterable ") + type_name(v) + " object");
        items = to_vector(f.in, v);
    }
    size_t star = elts.size();
    for (size_t k = 0; k < elts.size(); ++k)
        if (elts[k]->kind == EK::Starred) star = k;
    if (star == elts.size()) {
        if (items.size() != elts.size()) {
            f.cur = &target;
            if (items.size() > elts.size())
                raise(types::ValueError, "too many values to unpack (expected " + std::to_string(elts.size()) + ")");
            raise(types::ValueError, "not enough values to unpack (expected " + std::to_string(elts.size()) + ", got " +
                                         std::to_string(items.size()) + ")");
        }
        for (size_t k = 0; k < elts.size(); ++k) assign_target(f, *elts[k], std::move(items[k]));
        return;
    }
    size_t after = elts.size() - star - 1;
    if (items.size() < star + after) {
        f.cur = &target;
        raise(types::ValueError, "not enough values to unpack (expected at least " + std::to_string(star + after) +
                                     ", got " + std::to_string(items.size()) + ")");
    }
    for (size_t k = 0; k < star; ++k) assign_target(f, *elts[k], items[k]);
    std::vector<Value> middle(items.begin() + long(star), items.end() - long(after));
    assign_target(f, *static_cast<const StarredExpr&>(*elts[star]).value, make_list(std::move(middle)));
    for (size_t k = 0; k < after; ++k) assign_target(f, *elts[star + 1 + k], items[items.size() - after + k]);
}

void assign_target(Frame& f, const Expr& target, Value v) {
    switch (target.kind) {
        case EK::Name: static_cast<const NameExpr&>(target).store(f, std::move(v)); return;
        case EK::Attribute: static_cast<const AttributeExpr&>(target).store(f, std::move(v)); return;
        case EK::Subscript: static_cast<const SubscriptExpr&>(target).store(f, std::move(v)); return;
        case EK::Tuple: case EK::List: unpack(f, static_cast<const SeqExpr&>(target), v); return;
        default: f.cur = &target; raise(types::RuntimeError, "internal error: invalid assignment target");
    }
}

Flow ExprStmt::exec(Frame& f) const {
    f.cur = this;
    Value v = value->eval(f);
    if (echo && !v.is_none()) {
        f.in.main->set("_", v);
        f.in.write_out(repr(f.in, v));
        f.in.write_out("\n");
    }
    return Flow::Normal;
}

Flow AssignStmt::exec(Frame& f) const {
    f.cur = this;
    Value v = value->eval(f);
    if (targets.size() == 1) {
        const Expr& t = *targets[0];
        if (t.kind == EK::Name) {
            static_cast<const NameExpr&>(t).store(f, std::move(v));
            return Flow::Normal;
        }
        assign_target(f, t, std::move(v));
        return Flow::Normal;
    }
    for (const auto& t : targets) assign_target(f, *t, v);
    return Flow::Normal;
}

Flow AugAssignStmt::exec(Frame& f) const {
    f.cur = this;
    if (target->kind == EK::Name) {
        auto& name = static_cast<const NameExpr&>(*target);
        Value rhs = value->eval(f);
        // Locals are updated in place: moving the value out of its slot leaves
        // a string or list with refcount 1, so `s += x` can append instead of copy.
        if (name.scope == NameScope::Local) {
            Value& slot = f.slots[name.index];
            if (slot.kind == VK::Int && rhs.kind == VK::Int) {
                int64_t out;
                if (op == BinOp::Add && !__builtin_add_overflow(slot.i, rhs.i, &out)) { slot.i = out; return Flow::Normal; }
                if (op == BinOp::Sub && !__builtin_sub_overflow(slot.i, rhs.i, &out)) { slot.i = out; return Flow::Normal; }
            }
            if (slot.kind == VK::Float && rhs.kind == VK::Float && op == BinOp::Add) { slot.f += rhs.f; return Flow::Normal; }
            if (slot.is_undef()) name.eval(f);  // raises UnboundLocalError
            Value cur = std::move(slot);
            try {
                slot = inplace_op(f.in, op, cur, rhs);
            } catch (...) {
                slot = std::move(cur);
                throw;
            }
            return Flow::Normal;
        }
        Value cur = name.eval(f);
        if (name.scope == NameScope::Global) f.module->values[size_t(name.index)] = Value();  // drop the extra reference
        Value result;
        try {
            result = inplace_op(f.in, op, cur, rhs);
        } catch (...) {
            name.store(f, std::move(cur));
            throw;
        }
        cur = Value();
        name.store(f, std::move(result));
        return Flow::Normal;
    }
    if (target->kind == EK::Subscript) {
        auto& sub = static_cast<const SubscriptExpr&>(*target);
        Value obj = sub.value->eval(f);
        Value idx = sub.index->eval(f);
        f.cur = &sub;
        Value cur = get_item(f.in, obj, idx);
        Value rhs = value->eval(f);
        f.cur = this;
        Value result = inplace_op(f.in, op, cur, rhs);
        f.cur = &sub;
        set_item(f.in, obj, idx, std::move(result));
        return Flow::Normal;
    }
    auto& attr = static_cast<const AttributeExpr&>(*target);
    Value obj = attr.value->eval(f);
    f.cur = &attr;
    Value cur = get_attr(f.in, obj, attr.attr);
    Value rhs = value->eval(f);
    f.cur = this;
    Value result = inplace_op(f.in, op, cur, rhs);
    f.cur = &attr;
    set_attr(f.in, obj, attr.attr, std::move(result));
    return Flow::Normal;
}

static void delete_target(Frame& f, const Expr& t) {
    switch (t.kind) {
        case EK::Name: static_cast<const NameExpr&>(t).erase(f); return;
        case EK::Subscript: static_cast<const SubscriptExpr&>(t).erase(f); return;
        case EK::Attribute: {
            auto& a = static_cast<const AttributeExpr&>(t);
            Value obj = a.value->eval(f);
            f.cur = &t;
            del_attr(f.in, obj, a.attr);
            return;
        }
        case EK::Tuple: case EK::List:
            for (auto& e : static_cast<const SeqExpr&>(t).elts) delete_target(f, *e);
            return;
        default: return;
    }
}

Flow DelStmt::exec(Frame& f) const {
    f.cur = this;
    for (auto& t : targets) delete_target(f, *t);
    return Flow::Normal;
}

Flow ReturnStmt::exec(Frame& f) const {
    f.cur = this;
    f.retval = value ? value->eval(f) : Value::none();
    return Flow::Return;
}

Flow IfStmt::exec(Frame& f) const {
    f.cur = this;
    if (truthy(test->eval(f))) return exec_block(body, f);
    return exec_block(orelse, f);
}

Flow WhileStmt::exec(Frame& f) const {
    while (true) {
        f.cur = this;
        f.in.tick();
        if (!truthy(test->eval(f))) break;
        Flow fl = exec_block(body, f);
        if (fl == Flow::Break) return Flow::Normal;
        if (fl == Flow::Return) return fl;
    }
    return exec_block(orelse, f);
}

Flow ForStmt::exec(Frame& f) const {
    f.cur = this;
    Value seq = iter->eval(f);
    // Fast path: `for i in range(...)` with a plain local/global target counts natively.
    if (is_kind(seq, OK::Range)) {
        auto* r = seq.as<RangeObj>();
        uint64_t n = r->count();
        int64_t v = r->start, step = r->step;
        // v wraps (unsigned) after the last element instead of overflowing.
        for (uint64_t k = 0; k < n; ++k, v = int64_t(uint64_t(v) + uint64_t(step))) {
            f.in.tick();
            if (target->kind == EK::Name && static_cast<const NameExpr&>(*target).scope == NameScope::Local) {
                f.slots[static_cast<const NameExpr&>(*target).index] = Value::integer(v);
            } else {
                assign_target(f, *target, Value::integer(v));
            }
            Flow fl = exec_block(body, f);
            if (fl == Flow::Break) return Flow::Normal;
            if (fl == Flow::Return) return fl;
        }
        return exec_block(orelse, f);
    }
    if (is_kind(seq, OK::List)) {
        auto* l = seq.as<ListObj>();
        for (size_t k = 0; k < l->items.size(); ++k) {  // re-reads size: the body may append
            f.in.tick();
            assign_target(f, *target, l->items[k]);
            Flow fl = exec_block(body, f);
            if (fl == Flow::Break) return Flow::Normal;
            if (fl == Flow::Return) return fl;
        }
        return exec_block(orelse, f);
    }
    Value it = get_iter(f.in, seq);
    Value item;
    while (true) {
        f.in.tick();
        f.cur = this;
        if (!iter_next(f.in, it, item)) break;
        assign_target(f, *target, std::move(item));
        Flow fl = exec_block(body, f);
        if (fl == Flow::Break) return Flow::Normal;
        if (fl == Flow::Return) return fl;
    }
    return exec_block(orelse, f);
}

Flow FunctionDefStmt::exec(Frame& f) const {
    f.cur = this;
    std::vector<Value> decos;
    for (auto& d : decorators) decos.push_back(d->eval(f));
    Value fn = make_function(f, *info);
    for (auto it = decos.rbegin(); it != decos.rend(); ++it) {
        f.cur = this;
        fn = f.in.call1(*it, fn);
    }
    target->store(f, std::move(fn));
    return Flow::Normal;
}

Flow ClassDefStmt::exec(Frame& f) const {
    f.cur = this;
    std::vector<Value> decos;
    for (auto& d : decorators) decos.push_back(d->eval(f));
    std::vector<Value> base_values;
    for (auto& b : bases) {
        f.cur = b.get();
        if (b->kind == EK::Starred) {
            for (Value& v : to_vector(f.in, static_cast<const StarredExpr&>(*b).value->eval(f))) base_values.push_back(std::move(v));
        } else {
            base_values.push_back(b->eval(f));
        }
    }
    // metaclass=ABCMeta and the like: accepted, the class is a plain class;
    // other keywords go to the bases' __init_subclass__.
    std::vector<std::pair<std::string, Value>> class_kw;
    for (auto& k : keywords) {
        f.cur = k.value.get();
        Value v = k.value->eval(f);
        if (k.name.empty()) raise(types::TypeError, "**mapping in a class statement is not supported yet");
        if (k.name != "metaclass") class_kw.emplace_back(k.name, std::move(v));
    }
    ClassNamespace ns;
    ns.set("__module__", make_str(f.module->name));
    ns.set("__qualname__", make_str(qualname));
    if (!body.empty() && body[0]->kind == SK::Expr) {
        const Expr& e = *static_cast<const ExprStmt&>(*body[0]).value;
        if (e.kind == EK::Const && is_kind(static_cast<const ConstExpr&>(e).value, OK::Str)) ns.set("__doc__", static_cast<const ConstExpr&>(e).value);
    }
    // The body runs in this frame, binding its names in `ns`.
    ClassNamespace* saved = f.class_ns;
    f.class_ns = &ns;
    try {
        exec_block(body, f);
    } catch (...) {
        f.class_ns = saved;
        throw;
    }
    f.class_ns = saved;
    f.cur = this;
    Value cls = make_class(f.in, name, qualname, base_values, ns, f.module, &class_kw);
    for (auto it = decos.rbegin(); it != decos.rend(); ++it) {
        f.cur = this;
        cls = f.in.call1(*it, cls);
    }
    target->store(f, std::move(cls));
    return Flow::Normal;
}

Flow AnnAssignStmt::exec(Frame& f) const {
    f.cur = this;
    if (f.class_ns) {
        // The class's __annotations__, in order (dataclasses' fields).
        Value ann = annotation->eval(f);
        f.cur = this;
        auto it = f.class_ns->values.find("__annotations__");
        if (it == f.class_ns->values.end() || !is_kind(it->second, OK::Dict)) {
            f.class_ns->set("__annotations__", Value::object(new DictObj()));
            it = f.class_ns->values.find("__annotations__");
        }
        it->second.as<DictObj>()->table.set(f.in, make_str(target->id), std::move(ann));
    }
    if (value) {
        Value v = value->eval(f);
        f.cur = this;
        target->store(f, std::move(v));
    }
    return Flow::Normal;
}

Flow WithStmt::exec(Frame& f) const { return exec_from(f, 0); }

Flow WithStmt::exec_from(Frame& f, size_t k) const {
    if (k == items.size()) return exec_block(body, f);
    const Item& item = items[k];
    f.cur = this;
    Value ctx = item.context->eval(f);
    f.cur = item.context.get();
    if (!has_attr(f.in, ctx, "__enter__") || !has_attr(f.in, ctx, "__exit__"))
        raise(types::TypeError, std::string("'") + type_name(ctx) + "' object does not support the context manager protocol");
    Value exit_fn = get_attr(f.in, ctx, "__exit__");
    Value entered = f.in.call0(get_attr(f.in, ctx, "__enter__"));
    Flow fl;
    try {
        if (item.target) assign_target(f, *item.target, entered);
        fl = exec_from(f, k + 1);
    } catch (GpyError& e) {
        Value args[3] = {Value::object(e.exc.o->type), e.exc, Value::none()};
        CallArgs ca{args, 3, nullptr};
        if (truthy(f.in.call(exit_fn, ca))) return Flow::Normal;  // __exit__ suppressed it
        throw;
    } catch (const std::exception& e) {
        // A C++ exception (Ctrl-C in a kernel, memory): __exit__ sees it as the Python exception.
        GpyError g = python_error_from(e);
        Value args[3] = {Value::object(g.exc.o->type), g.exc, Value::none()};
        CallArgs ca{args, 3, nullptr};
        if (truthy(f.in.call(exit_fn, ca))) return Flow::Normal;
        throw g;
    }
    Value args[3] = {Value::none(), Value::none(), Value::none()};
    CallArgs ca{args, 3, nullptr};
    f.in.call(exit_fn, ca);
    return fl;
}

// Records this frame's current line in the traceback, once per frame.
void note_frame(Frame& f, GpyError& e) {
    auto* ex = e.obj();
    if (ex->noted_frame == &f || !f.cur) return;
    ex->traceback.push_back({f.cur->span, f.func ? f.func->info->qualname : "<module>"});
    ex->noted_frame = &f;
}

// Does exception `exc` match the `except` clause's class (or tuple of classes)?
static bool handler_matches(Frame& f, const Value& cls, const Value& exc) {
    if (is_kind(cls, OK::Tuple)) {
        for (auto& c : cls.as<TupleObj>()->items)
            if (handler_matches(f, c, exc)) return true;
        return false;
    }
    if (!is_kind(cls, OK::Type) || !cls.as<TypeObject>()->is_subtype_of(types::BaseException))
        raise(types::TypeError, "catching classes that do not inherit from BaseException is not allowed");
    return exc.o->type->is_subtype_of(cls.as<TypeObject>());
}

Flow TryStmt::exec(Frame& f) const {
    Flow result = Flow::Normal;
    std::exception_ptr pending;
    try {
        bool raised = false;
        auto handle = [&](GpyError& e) {
            raised = true;
            note_frame(f, e);
            Value exc = e.exc;
            const Handler* chosen = nullptr;
            for (const Handler& h : handlers) {
                if (!h.type) { chosen = &h; break; }
                f.cur = h.type.get();
                Value cls = h.type->eval(f);
                if (handler_matches(f, cls, exc)) { chosen = &h; break; }
            }
            if (!chosen) throw;
            f.in.handling.push_back(exc);
            struct Pop { Interp& in; ~Pop() { in.handling.pop_back(); } } pop{f.in};
            if (chosen->name) chosen->name->store(f, exc);
            try {
                result = exec_block(chosen->body, f);
            } catch (GpyError& during) {
                // An exception raised while this one is handled: its __context__.
                auto* d = during.obj();
                if (d != exc.o && !d->attrs.find("__context__")) d->attrs.set("__context__", exc);
                throw;
            }
            // Python unbinds the `as` name when the handler ends.
            if (chosen->name) chosen->name->store(f, Value());
        };
        try {
            f.cur = this;
            result = exec_block(body, f);
        } catch (GpyError& e) {
            handle(e);
        } catch (const std::exception& e) {
            // A C++ exception from inside the library (memory ran out, an
            // internal error): a Python exception the program can catch.
            // Thrown and caught so that handle()'s bare `throw;` (no except
            // clause matched) rethrows the Python exception, not the C++ one.
            try {
                throw python_error_from(e);
            } catch (GpyError& m) {
                handle(m);
            }
        }
        if (!raised && result == Flow::Normal) result = exec_block(orelse, f);
    } catch (...) {
        if (finalbody.empty()) throw;
        pending = std::current_exception();
    }
    if (!finalbody.empty()) {
        Value saved_ret = f.retval;
        Flow ff = exec_block(finalbody, f);
        if (ff != Flow::Normal) return ff;  // return/break in finally discards the pending exception
        f.retval = std::move(saved_ret);
    }
    if (pending) std::rethrow_exception(pending);
    return result;
}

Flow RaiseStmt::exec(Frame& f) const {
    f.cur = this;
    if (!exc) {
        if (f.in.handling.empty()) raise(types::RuntimeError, "No active exception to reraise");
        throw GpyError{f.in.handling.back()};
    }
    Value v = exc->eval(f);
    Value c = cause ? cause->eval(f) : Value();
    f.cur = this;
    if (is_kind(v, OK::Type) && v.as<TypeObject>()->is_subtype_of(types::BaseException)) v = f.in.call0(v);
    if (!is_kind(v, OK::Exception)) raise(types::TypeError, "exceptions must derive from BaseException");
    if (cause) {  // raise X from Y: Y is X's __cause__ (None: no context shown)
        if (is_kind(c, OK::Type) && c.as<TypeObject>()->is_subtype_of(types::BaseException)) c = f.in.call0(c);
        if (!c.is_none() && !is_kind(c, OK::Exception)) raise(types::TypeError, "exception causes must derive from BaseException");
        v.as<ExceptionObj>()->attrs.set("__cause__", c);
        v.as<ExceptionObj>()->attrs.set("__suppress_context__", Value::boolean(true));
    }
    v.as<ExceptionObj>()->traceback.clear();
    v.as<ExceptionObj>()->noted_frame = nullptr;
    throw GpyError{v};
}

Flow AssertStmt::exec(Frame& f) const {
    f.cur = this;
    if (truthy(test->eval(f))) return Flow::Normal;
    std::string msg = this->msg ? to_str(f.in, this->msg->eval(f)) : "";
    f.cur = this;
    Value e = make_exception(types::AssertionError, msg);
    if (!this->msg) e.as<ExceptionObj>()->args = make_tuple();
    throw GpyError{e};
}

Flow ImportStmt::exec(Frame& f) const {
    for (const Alias& a : names) {
        f.cur = a.target.get();
        ModuleObj* m = f.in.import_module(a.module);
        if (!a.asname.empty()) a.target->store(f, Value::object(m));
        else a.target->store(f, Value::object(f.in.import_module(a.module.substr(0, a.module.find('.')))));
    }
    return Flow::Normal;
}

Flow ImportFromStmt::exec(Frame& f) const {
    f.cur = this;
    ModuleObj* m = f.in.import_module(module);
    if (star) {
        for (size_t k = 0; k < m->names.size(); ++k)
            if (!m->values[k].is_undef() && m->names[k][0] != '_') f.module->set(m->names[k], m->values[k]);
        return Flow::Normal;
    }
    for (const Alias& a : names) {
        f.cur = a.target.get();
        const Value* v = m->get(a.name);
        if (!v) raise(types::ImportError, "cannot import name '" + a.name + "' from '" + module + "'");
        a.target->store(f, *v);
    }
    return Flow::Normal;
}

// ---- calls ----

namespace {

// Releases a call's frame slots on every exit path.
struct SlotGuard {
    Interp& in;
    size_t base, n;
    ~SlotGuard() {
        for (size_t k = 0; k < n; ++k) in.stack[base + k] = Value();
        in.sp = base;
        --in.depth;
    }
};

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::string name_list(const std::vector<std::string>& names) {
    std::string out;
    for (size_t k = 0; k < names.size(); ++k) {
        if (k) out += names.size() == 2 ? " and " : (k + 1 == names.size() ? ", and " : ", ");
        out += "'" + names[k] + "'";
    }
    return out;
}

// Python's argument binding: positionals, keywords, defaults, *args, **kwargs.
void bind_arguments(Interp& in, FunctionObj* fn, CallArgs& args, Value* slots) {
    const FuncInfo& info = *fn->info;
    const std::string& fname = info.qualname;  // (CPython 3.10+ names the qualified name: Account.__init__())
    size_t npos = size_t(info.n_positional);
    if (args.npos > npos && info.varargs < 0) {
        size_t with_default = 0;
        for (size_t k = 0; k < npos; ++k) with_default += info.params[k].default_value != nullptr;
        std::string takes = with_default ? "from " + std::to_string(npos - with_default) + " to " + std::to_string(npos)
                                         : std::to_string(npos);
        raise(types::TypeError, fname + "() takes " + takes + " positional argument" + (npos == 1 && !with_default ? "" : "s") +
                                    " but " + std::to_string(args.npos) + (args.npos == 1 ? " was" : " were") + " given");
    }
    for (size_t k = 0; k < std::min(args.npos, npos); ++k) slots[info.params[k].slot] = args.pos[k];
    if (info.varargs >= 0) {
        std::vector<Value> extra;
        for (size_t k = npos; k < args.npos; ++k) extra.push_back(args.pos[k]);
        slots[info.params[size_t(info.varargs)].slot] = make_tuple(std::move(extra));
    }
    DictObj* kwdict = nullptr;
    if (info.varkw >= 0) {
        kwdict = new DictObj();
        slots[info.params[size_t(info.varkw)].slot] = Value::object(kwdict);
    }
    if (args.kw) {
        for (auto& [name, value] : *args.kw) {
            const Param* target = nullptr;
            for (size_t k = 0; k < info.params.size(); ++k) {
                const Param& p = info.params[k];
                if (p.name == name && (p.kind == Param::Positional || p.kind == Param::KwOnly)) {
                    if (int(k) < info.n_posonly) {
                        if (kwdict) break;
                        raise(types::TypeError, fname + "() got some positional-only arguments passed as keyword arguments: '" + name + "'");
                    }
                    target = &p;
                    break;
                }
            }
            if (!target) {
                if (!kwdict) raise(types::TypeError, fname + "() got an unexpected keyword argument '" + name + "'");
                kwdict->table.set(in, make_str(name), value);
                continue;
            }
            if (!slots[target->slot].is_undef())
                raise(types::TypeError, fname + "() got multiple values for argument '" + name + "'");
            slots[target->slot] = value;
        }
    }
    // Defaults and missing-argument errors.
    size_t d = 0;
    std::vector<std::string> missing_pos, missing_kw;
    for (const Param& p : info.params) {
        if (p.kind == Param::VarArgs || p.kind == Param::VarKw) continue;
        bool has_default = p.default_value != nullptr;
        if (slots[p.slot].is_undef()) {
            if (has_default) slots[p.slot] = fn->defaults[d];
            else (p.kind == Param::KwOnly ? missing_kw : missing_pos).push_back(p.name);
        }
        if (has_default) ++d;
    }
    if (!missing_pos.empty())
        raise(types::TypeError, fname + "() missing " + std::to_string(missing_pos.size()) + " required positional argument" +
                                    (missing_pos.size() == 1 ? "" : "s") + ": " + name_list(missing_pos));
    if (!missing_kw.empty())
        raise(types::TypeError, fname + "() missing " + std::to_string(missing_kw.size()) + " required keyword-only argument" +
                                    (missing_kw.size() == 1 ? "" : "s") + ": " + name_list(missing_kw));
    (void)plural;
}

}  // namespace

std::vector<Value> bind_generator_slots(Interp& in, FunctionObj* fn, CallArgs& args) {
    const FuncInfo& info = *fn->info;
    std::vector<Value> slots(size_t(info.nslots));
    bind_arguments(in, fn, args, slots.data());
    for (int k : info.cell_slots) {
        auto* c = new CellObj();
        c->value = std::move(slots[size_t(k)]);
        slots[size_t(k)] = Value::object(c);
    }
    return slots;
}

Value run_generator_body(Interp& in, FunctionObj* fn, Value* slots) {
    Frame frame(in, slots, fn->module, fn);
    try {
        StatementRestore restore;
        for (const auto& s : fn->info->body) {
            t_current_statement = s.get();
            Flow fl = s->exec(frame);
            if (fl == Flow::Return) return std::move(frame.retval);
        }
        return Value::none();
    } catch (GpyError& e) {
        note_frame(frame, e);
        e.obj()->noted_frame = nullptr;
        throw;
    } catch (const std::exception& e) {
        GpyError g = python_error_from(e);
        note_frame(frame, g);
        g.obj()->noted_frame = nullptr;
        throw g;
    }
}

Value Interp::call_function(FunctionObj* fn, CallArgs& args) {
    const FuncInfo& info = *fn->info;
    // Alive for the call: its only owner may be a class dict the body changes.
    Ref<FunctionObj> keep(fn);
    if (info.is_generator) {
        tick();
        return make_generator(*this, fn, args);
    }
    tick();
    if (depth >= recursion_limit) raise(types::RecursionError, "maximum recursion depth exceeded");
    check_native_stack();
    size_t n = size_t(info.nslots);
    if (sp + n > stack.size()) raise(types::RecursionError, "maximum recursion depth exceeded (frame stack exhausted)");
    size_t base = sp;
    Value* slots = &stack[base];
    sp += n;
    ++depth;
    SlotGuard guard{*this, base, n};
    if (info.simple_args && !args.kw && args.npos == size_t(info.n_positional)) {
        for (size_t k = 0; k < args.npos; ++k) slots[k] = args.pos[k];
    } else {
        bind_arguments(*this, fn, args, slots);
    }
    for (int k : info.cell_slots) {
        auto* c = new CellObj();
        c->value = std::move(slots[k]);
        slots[k] = Value::object(c);
    }
    Frame frame(*this, slots, fn->module, fn);
    try {
        if (info.lambda_body) return info.lambda_body->eval(frame);
        StatementRestore restore;
        for (const auto& s : info.body) {
            t_current_statement = s.get();
            Flow fl = s->exec(frame);
            if (fl == Flow::Return) return std::move(frame.retval);
        }
        return Value::none();
    } catch (GpyError& e) {
        note_frame(frame, e);
        e.obj()->noted_frame = nullptr;  // the next frame up records its own line
        throw;
    } catch (const std::exception& e) {
        GpyError g = python_error_from(e);  // with this frame's line in its traceback
        note_frame(frame, g);
        g.obj()->noted_frame = nullptr;
        throw g;
    }
}

Value Interp::call(const Value& callee, CallArgs& args) {
    if (callee.is_obj()) {
        switch (callee.o->type->kind) {
            case OK::Function: return call_function(callee.as<FunctionObj>(), args);
            case OK::Builtin: {
                auto* b = callee.as<BuiltinObj>();
                tick();
                if (b->checks_keywords && args.kw) reject_unknown_keywords(b, args);
                if (b->bound.is_undef()) return b->fn(*this, args);
                std::vector<Value> pos;
                pos.reserve(args.npos + 1);
                pos.push_back(b->bound);
                for (size_t k = 0; k < args.npos; ++k) pos.push_back(args.pos[k]);
                CallArgs a2{pos.data(), pos.size(), args.kw};
                return b->fn(*this, a2);
            }
            case OK::BoundMethod: {
                auto* m = callee.as<BoundMethodObj>();
                std::vector<Value> pos;
                pos.reserve(args.npos + 1);
                pos.push_back(m->self);
                for (size_t k = 0; k < args.npos; ++k) pos.push_back(args.pos[k]);
                CallArgs a2{pos.data(), pos.size(), args.kw};
                return call(m->func, a2);
            }
            case OK::Type: {
                auto* t = callee.as<TypeObject>();
                if (t->heap) return make_instance(*this, t, args);
                if (t->construct) return t->construct(*this, args);
                if (t->kind == OK::Exception) {
                    if (args.nkw()) raise(types::TypeError, t->name + "() takes no keyword arguments");
                    auto* e = new ExceptionObj(t);
                    Value v = Value::object(e);
                    e->args = make_tuple(std::vector<Value>(args.pos, args.pos + args.npos));
                    return v;
                }
                raise(types::TypeError, "cannot create '" + t->name + "' instances");
            }
            default: break;
        }
        // An instance of a type with a __call__ method (numpy.poly1d).
        if (const Value* m = callee.o->type->lookup("__call__")) {
            std::vector<Value> pos;
            pos.reserve(args.npos + 1);
            pos.push_back(callee);
            for (size_t k = 0; k < args.npos; ++k) pos.push_back(args.pos[k]);
            CallArgs a2{pos.data(), pos.size(), args.kw};
            return call(*m, a2);
        }
    }
    raise(types::TypeError, std::string("'") + type_name(callee) + "' object is not callable");
}

Value Interp::call0(const Value& callee) {
    CallArgs a;
    return call(callee, a);
}

Value Interp::call1(const Value& callee, Value arg) {
    CallArgs a{&arg, 1, nullptr};
    return call(callee, a);
}

void Interp::exec_program(const std::shared_ptr<Program>& prog, ModuleObj* module) {
    size_t n = size_t(prog->nslots);
    if (sp + n > stack.size()) raise(types::MemoryError, "frame stack exhausted");
    size_t base = sp;
    sp += n;
    ++depth;
    SlotGuard guard{*this, base, n};
    Value* slots = &stack[base];
    for (size_t k = 0; k < n; ++k)
        if (prog->slot_is_cell[k]) slots[k] = Value::object(new CellObj());
    Frame frame(*this, slots, module ? module : main.get(), nullptr);
    try {
        StatementRestore restore;
        for (const auto& s : prog->body) {
            t_current_statement = s.get();
            s->exec(frame);
        }
    } catch (GpyError& e) {
        note_frame(frame, e);
        throw;
    } catch (const std::exception& e) {
        GpyError g = python_error_from(e);
        note_frame(frame, g);
        throw g;
    }
}

}  // namespace gpy
