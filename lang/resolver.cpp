#include "lang/resolver.h"

#include <unordered_map>
#include <unordered_set>

#include "lang/object.h"

namespace gpy {

namespace {

struct Scope {
    Scope* parent = nullptr;
    FuncInfo* info = nullptr;  // null: the module scope
    Program* program = nullptr;
    std::unordered_map<std::string, int> locals;
    std::unordered_set<std::string> globals, nonlocals;
    std::unordered_map<std::string, int> free;
    // Comprehension variables in scope, innermost last (they shadow locals).
    std::vector<std::unordered_map<std::string, int>> comps;
    std::vector<std::pair<NameExpr*, int>> slot_refs;  // to turn Local into Cell afterwards
    // A class body: it runs in the enclosing frame (`info` and `program` are
    // the enclosing scope's), the names it binds live in the class's
    // namespace, and the functions it defines do not see them.
    bool klass = false;
    std::unordered_set<std::string> class_names;
    std::string qualname;  // a class body's: what its methods' qualnames start with

    bool is_function() const { return info != nullptr; }
    int new_slot(const std::string& name) {
        if (info) {
            info->slot_names.push_back(name);
            info->slot_is_cell.push_back(false);
            return info->nslots++;
        }
        program->slot_is_cell.push_back(false);
        return program->nslots++;
    }
    void mark_cell(int slot) {
        if (info) info->slot_is_cell[slot] = true;
        else program->slot_is_cell[slot] = true;
    }
    const int* comp_lookup(const std::string& name) const {
        for (auto it = comps.rbegin(); it != comps.rend(); ++it) {
            auto f = it->find(name);
            if (f != it->end()) return &f->second;
        }
        return nullptr;
    }
};

// Names a block binds, not descending into nested functions.
void collect_target_names(const Expr& e, std::vector<std::pair<std::string, Span>>& out) {
    switch (e.kind) {
        case EK::Name: out.push_back({static_cast<const NameExpr&>(e).id, e.span}); break;
        case EK::Tuple: case EK::List:
            for (auto& el : static_cast<const SeqExpr&>(e).elts) collect_target_names(*el, out);
            break;
        case EK::Starred: collect_target_names(*static_cast<const StarredExpr&>(e).value, out); break;
        default: break;
    }
}

struct Decls {
    std::vector<std::pair<std::string, Span>> assigned;
    std::vector<std::pair<std::string, Span>> globals, nonlocals;
};

void collect_block(const Block& b, Decls& d);

void collect_stmt(const Stmt& s, Decls& d) {
    switch (s.kind) {
        case SK::Assign: for (auto& t : static_cast<const AssignStmt&>(s).targets) collect_target_names(*t, d.assigned); break;
        case SK::AugAssign: collect_target_names(*static_cast<const AugAssignStmt&>(s).target, d.assigned); break;
        case SK::Del: for (auto& t : static_cast<const DelStmt&>(s).targets) collect_target_names(*t, d.assigned); break;
        case SK::For: {
            auto& f = static_cast<const ForStmt&>(s);
            collect_target_names(*f.target, d.assigned);
            collect_block(f.body, d);
            collect_block(f.orelse, d);
            break;
        }
        case SK::If: collect_block(static_cast<const IfStmt&>(s).body, d); collect_block(static_cast<const IfStmt&>(s).orelse, d); break;
        case SK::While: collect_block(static_cast<const WhileStmt&>(s).body, d); collect_block(static_cast<const WhileStmt&>(s).orelse, d); break;
        case SK::With: {
            auto& w = static_cast<const WithStmt&>(s);
            for (auto& it : w.items) if (it.target) collect_target_names(*it.target, d.assigned);
            collect_block(w.body, d);
            break;
        }
        case SK::Try: {
            auto& t = static_cast<const TryStmt&>(s);
            collect_block(t.body, d);
            for (auto& h : t.handlers) {
                if (h.name) d.assigned.push_back({h.name->id, h.name->span});
                collect_block(h.body, d);
            }
            collect_block(t.orelse, d);
            collect_block(t.finalbody, d);
            break;
        }
        case SK::FunctionDef: d.assigned.push_back({static_cast<const FunctionDefStmt&>(s).target->id, s.span}); break;
        case SK::ClassDef: d.assigned.push_back({static_cast<const ClassDefStmt&>(s).target->id, s.span}); break;
        case SK::AnnAssign: d.assigned.push_back({static_cast<const AnnAssignStmt&>(s).target->id, s.span}); break;
        case SK::Import: for (auto& a : static_cast<const ImportStmt&>(s).names) d.assigned.push_back({a.target->id, a.span}); break;
        case SK::ImportFrom: for (auto& a : static_cast<const ImportFromStmt&>(s).names) d.assigned.push_back({a.target->id, a.span}); break;
        case SK::Global: for (auto& n : static_cast<const ScopeDeclStmt&>(s).names) d.globals.push_back({n, s.span}); break;
        case SK::Nonlocal: for (auto& n : static_cast<const ScopeDeclStmt&>(s).names) d.nonlocals.push_back({n, s.span}); break;
        default: break;
    }
}

void collect_block(const Block& b, Decls& d) { for (auto& s : b) collect_stmt(*s, d); }

class Resolver {
public:
    Resolver(Program& p, ModuleObj& m, const std::function<const Value*(const std::string&)>& b)
        : prog_(p), module_(m), builtin_(b) {}

    void run() {
        Scope top;
        top.program = &prog_;
        Decls d;
        collect_block(prog_.body, d);
        if (!d.nonlocals.empty())
            throw SyntaxError(d.nonlocals[0].second, "nonlocal declaration not allowed at module level");
        scope_ = &top;
        block(prog_.body);
        finish_cells(top);
    }

private:
    Program& prog_;
    ModuleObj& module_;
    const std::function<const Value*(const std::string&)>& builtin_;
    Scope* scope_ = nullptr;

    // Finds `name` in the scopes enclosing `s`, marking it a cell where it
    // lives and threading it through intermediate functions as a free var.
    bool find_enclosing(Scope* s, const std::string& name, ClosureSource& src) {
        if (!s) return false;
        if (s->klass) return find_enclosing(s->parent, name, src);  // functions do not see a class's names
        if (const int* slot = s->comp_lookup(name)) {
            s->mark_cell(*slot);
            src = {false, *slot};
            return true;
        }
        if (!s->is_function()) return false;
        if (s->globals.count(name)) return false;
        auto l = s->locals.find(name);
        if (l != s->locals.end()) {
            s->mark_cell(l->second);
            src = {false, l->second};
            return true;
        }
        auto f = s->free.find(name);
        if (f != s->free.end()) { src = {true, f->second}; return true; }
        ClosureSource up;
        if (!find_enclosing(s->parent, name, up)) return false;
        int idx = add_free(*s, name, up);
        src = {true, idx};
        return true;
    }

    int add_free(Scope& s, const std::string& name, ClosureSource from) {
        int idx = int(s.info->free_sources.size());
        s.info->free_sources.push_back(from);
        s.info->free_names.push_back(name);
        s.free.emplace(name, idx);
        return idx;
    }

    void name(NameExpr& n) {
        Scope& s = *scope_;
        if (const int* slot = s.comp_lookup(n.id)) {
            n.scope = NameScope::Local;
            n.index = *slot;
            s.slot_refs.push_back({&n, *slot});
            return;
        }
        if (s.klass) {
            if (s.class_names.count(n.id) && !s.globals.count(n.id)) {
                n.scope = NameScope::Class;
                n.index = module_.slot(n.id);
                n.builtin = builtin_(n.id);
                return;
            }
            // Any other name: as the enclosing scope sees it.
            scope_ = s.parent;
            name(n);
            scope_ = &s;
            return;
        }
        if (s.is_function() && !s.globals.count(n.id)) {
            auto l = s.locals.find(n.id);
            if (l != s.locals.end()) {
                n.scope = NameScope::Local;
                n.index = l->second;
                s.slot_refs.push_back({&n, l->second});
                return;
            }
            auto f = s.free.find(n.id);
            if (f != s.free.end()) { n.scope = NameScope::Free; n.index = f->second; return; }
            ClosureSource src;
            if (find_enclosing(s.parent, n.id, src)) {
                n.scope = NameScope::Free;
                n.index = add_free(s, n.id, src);
                return;
            }
        }
        n.scope = NameScope::Global;
        n.index = module_.slot(n.id);
        n.builtin = builtin_(n.id);
    }

    void finish_cells(Scope& s) {
        for (auto& [n, slot] : s.slot_refs) {
            bool cell = s.info ? s.info->slot_is_cell[slot] : s.program->slot_is_cell[slot];
            if (cell) n->scope = NameScope::Cell;
        }
        if (s.info)
            for (int k = 0; k < s.info->nslots; ++k)
                if (s.info->slot_is_cell[k]) s.info->cell_slots.push_back(k);
    }

    void function(FuncInfo& info) {
        // Defaults are evaluated where the def is, so they resolve in the outer scope.
        for (auto& p : info.params)
            if (p.default_value) expr(*p.default_value);
        Scope fs;
        fs.parent = scope_;
        fs.info = &info;
        fs.program = &prog_;
        info.qualname = scope_->klass ? scope_->qualname + "." + info.name
                        : scope_->info ? scope_->info->qualname + ".<locals>." + info.name : info.name;
        Decls d;
        collect_block(info.body, d);
        for (auto& [g, sp] : d.globals) fs.globals.insert(g);
        for (auto& p : info.params) {
            if (fs.globals.count(p.name)) throw SyntaxError(p.span, "name `" + p.name + "` is parameter and global");
            p.slot = fs.new_slot(p.name);
            fs.locals.emplace(p.name, p.slot);
        }
        for (auto& [nl, sp] : d.nonlocals) {
            if (fs.locals.count(nl)) throw SyntaxError(sp, "name `" + nl + "` is parameter and nonlocal");
            if (fs.globals.count(nl)) throw SyntaxError(sp, "name `" + nl + "` is nonlocal and global");
            ClosureSource src;
            if (!find_enclosing(fs.parent, nl, src)) throw SyntaxError(sp, "no binding for nonlocal `" + nl + "` found");
            add_free(fs, nl, src);
            fs.nonlocals.insert(nl);
        }
        for (auto& [a, sp] : d.assigned)
            if (!fs.globals.count(a) && !fs.nonlocals.count(a) && !fs.locals.count(a))
                fs.locals.emplace(a, fs.new_slot(a));
        bool simple = info.varargs < 0 && info.varkw < 0 && info.n_defaults == 0;
        for (auto& p : info.params) simple &= p.kind == Param::Positional;
        info.simple_args = simple;
        Scope* saved = scope_;
        scope_ = &fs;
        if (info.lambda_body) expr(*info.lambda_body);
        else block(info.body);
        scope_ = saved;
        finish_cells(fs);
    }

    void class_body(ClassDefStmt& c) {
        Scope cs;
        cs.parent = scope_;
        cs.info = scope_->info;
        cs.program = &prog_;
        cs.klass = true;
        c.qualname = scope_->klass ? scope_->qualname + "." + c.name
                     : scope_->info ? scope_->info->qualname + ".<locals>." + c.name : c.name;
        cs.qualname = c.qualname;
        Decls d;
        collect_block(c.body, d);
        if (!d.nonlocals.empty()) throw SyntaxError(d.nonlocals[0].second, "nonlocal declarations in a class body are not supported yet");
        for (auto& [g, sp] : d.globals) cs.globals.insert(g);
        for (auto& [a, sp] : d.assigned) cs.class_names.insert(a);
        Scope* saved = scope_;
        scope_ = &cs;
        block(c.body);
        scope_ = saved;
        // (Comprehension variables of the body are the enclosing frame's slots.)
        for (auto& ref : cs.slot_refs) scope_->slot_refs.push_back(ref);
    }

    void block(Block& b) { for (auto& s : b) stmt(*s); }

    void stmt(Stmt& s) {
        switch (s.kind) {
            case SK::Expr: expr(*static_cast<ExprStmt&>(s).value); break;
            case SK::Assign: {
                auto& a = static_cast<AssignStmt&>(s);
                expr(*a.value);
                for (auto& t : a.targets) expr(*t);
                break;
            }
            case SK::AugAssign: { auto& a = static_cast<AugAssignStmt&>(s); expr(*a.value); expr(*a.target); break; }
            case SK::Del: for (auto& t : static_cast<DelStmt&>(s).targets) expr(*t); break;
            case SK::Return: if (auto& v = static_cast<ReturnStmt&>(s).value) expr(*v); break;
            case SK::If: { auto& i = static_cast<IfStmt&>(s); expr(*i.test); block(i.body); block(i.orelse); break; }
            case SK::While: { auto& w = static_cast<WhileStmt&>(s); expr(*w.test); block(w.body); block(w.orelse); break; }
            case SK::For: {
                auto& f = static_cast<ForStmt&>(s);
                expr(*f.iter);
                expr(*f.target);
                block(f.body);
                block(f.orelse);
                break;
            }
            case SK::FunctionDef: {
                auto& d = static_cast<FunctionDefStmt&>(s);
                for (auto& dec : d.decorators) expr(*dec);
                function(*d.info);
                name(*d.target);
                break;
            }
            case SK::AnnAssign: {
                auto& a = static_cast<AnnAssignStmt&>(s);
                expr(*a.annotation);
                if (a.value) expr(*a.value);
                name(*a.target);
                break;
            }
            case SK::ClassDef: {
                auto& c = static_cast<ClassDefStmt&>(s);
                for (auto& dec : c.decorators) expr(*dec);
                for (auto& b : c.bases) expr(*b);
                for (auto& k : c.keywords) expr(*k.value);
                class_body(c);
                name(*c.target);
                break;
            }
            case SK::With: {
                auto& w = static_cast<WithStmt&>(s);
                for (auto& it : w.items) { expr(*it.context); if (it.target) expr(*it.target); }
                block(w.body);
                break;
            }
            case SK::Try: {
                auto& t = static_cast<TryStmt&>(s);
                block(t.body);
                for (auto& h : t.handlers) {
                    if (h.type) expr(*h.type);
                    if (h.name) name(*h.name);
                    block(h.body);
                }
                block(t.orelse);
                block(t.finalbody);
                break;
            }
            case SK::Raise: { auto& r = static_cast<RaiseStmt&>(s); if (r.exc) expr(*r.exc); if (r.cause) expr(*r.cause); break; }
            case SK::Assert: { auto& a = static_cast<AssertStmt&>(s); expr(*a.test); if (a.msg) expr(*a.msg); break; }
            case SK::Import: for (auto& a : static_cast<ImportStmt&>(s).names) name(*a.target); break;
            case SK::ImportFrom: for (auto& a : static_cast<ImportFromStmt&>(s).names) name(*a.target); break;
            default: break;
        }
    }

    void expr(Expr& e) {
        switch (e.kind) {
            case EK::Const: case EK::Ellipsis: case EK::Kernel: break;
            case EK::Name: name(static_cast<NameExpr&>(e)); break;
            case EK::FString:
                for (auto& p : static_cast<FStringExpr&>(e).parts) {
                    if (p.expr) expr(*p.expr);
                    if (p.spec) expr(*p.spec);
                }
                break;
            case EK::Tuple: case EK::List: case EK::Set:
                for (auto& x : static_cast<SeqExpr&>(e).elts) expr(*x);
                break;
            case EK::Dict: {
                auto& d = static_cast<DictExpr&>(e);
                for (size_t k = 0; k < d.keys.size(); ++k) { if (d.keys[k]) expr(*d.keys[k]); expr(*d.values[k]); }
                break;
            }
            case EK::BinOp: { auto& b = static_cast<BinOpExpr&>(e); expr(*b.left); expr(*b.right); break; }
            case EK::UnaryOp: expr(*static_cast<UnaryExpr&>(e).operand); break;
            case EK::BoolOp: for (auto& x : static_cast<BoolOpExpr&>(e).values) expr(*x); break;
            case EK::Compare: {
                auto& c = static_cast<CompareExpr&>(e);
                expr(*c.first);
                for (auto& x : c.rest) expr(*x);
                break;
            }
            case EK::IfExp: { auto& i = static_cast<IfExpr&>(e); expr(*i.test); expr(*i.body); expr(*i.orelse); break; }
            case EK::Call: {
                auto& c = static_cast<CallExpr&>(e);
                expr(*c.func);
                for (auto& a : c.args) expr(*a);
                for (auto& k : c.keywords) expr(*k.value);
                break;
            }
            case EK::Attribute: expr(*static_cast<AttributeExpr&>(e).value); break;
            case EK::Subscript: { auto& s = static_cast<SubscriptExpr&>(e); expr(*s.value); expr(*s.index); break; }
            case EK::Slice: {
                auto& s = static_cast<SliceExpr&>(e);
                if (s.lower) expr(*s.lower);
                if (s.upper) expr(*s.upper);
                if (s.step) expr(*s.step);
                break;
            }
            case EK::Starred: expr(*static_cast<StarredExpr&>(e).value); break;
            case EK::Yield:
                if (auto& v = static_cast<YieldExpr&>(e).value) expr(*v);
                break;
            case EK::Lambda: function(*static_cast<LambdaExpr&>(e).info); break;
            case EK::GenExpr: {
                // The first iterable where the expression is; the rest in its own function.
                auto& g = static_cast<GenExpr&>(e);
                expr(*g.first_iter);
                function(*g.info);
                break;
            }
            case EK::Comprehension: comprehension(static_cast<ComprehensionExpr&>(e)); break;
        }
    }

    void comprehension(ComprehensionExpr& c) {
        // The first iterable is evaluated in the enclosing scope, before any
        // comprehension variable exists (Python's rule).
        expr(*c.generators[0].iter);
        scope_->comps.emplace_back();
        for (size_t g = 0; g < c.generators.size(); ++g) {
            auto& gen = c.generators[g];
            if (g > 0) expr(*gen.iter);
            std::vector<std::pair<std::string, Span>> names;
            collect_target_names(*gen.target, names);
            for (auto& [n, sp] : names)
                if (!scope_->comps.back().count(n)) scope_->comps.back().emplace(n, scope_->new_slot(n));
            expr(*gen.target);
            for (auto& cond : gen.ifs) expr(*cond);
        }
        expr(*c.elt);
        if (c.value) expr(*c.value);
        scope_->comps.pop_back();
    }
};

}  // namespace

void resolve_program(Program& prog, ModuleObj& module, const std::function<const Value*(const std::string&)>& builtin) {
    Resolver(prog, module, builtin).run();
}

}  // namespace gpy
