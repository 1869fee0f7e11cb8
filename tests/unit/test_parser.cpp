// Tests for lang/parser.{h,cpp}: the AST shape of small programs (printed as
// compact s-expressions so each CHECK states the whole tree) and the parser's
// syntax errors with their positions and `incomplete` flag.
#include <catch2/catch.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "lang/ast.h"
#include "lang/object.h"
#include "lang/parser.h"

using namespace gpy;

namespace {

// Operator text for the s-expressions: the evaluator's own symbols, with the
// error-message forms (`** or pow()`, `not in`) shortened to single tokens.
const char* binop(BinOp op) { return op == BinOp::Pow ? "**" : binop_symbol(op); }

const char* cmpop(CmpOp op) {
    if (op == CmpOp::NotIn) return "not-in";
    if (op == CmpOp::IsNot) return "is-not";
    return cmpop_symbol(op);
}

std::string dump(const Expr* e);
std::string dump(const Block& b);

std::string opt(const ExprP& e) { return e ? dump(e.get()) : "_"; }

std::string dump_value(const Value& v) {
    switch (v.kind) {
        case VK::None: return "None";
        case VK::Bool: return v.b ? "True" : "False";
        case VK::Int: return std::to_string(v.i);
        case VK::Float: {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%g", v.f);
            std::string s = buf;
            if (s.find_first_of(".eni") == std::string::npos) s += ".0";
            return s;
        }
        case VK::Obj:
            if (is_kind(v, OK::Str)) return "'" + v.as<StrObj>()->s + "'";
            return "<obj>";
        default: return "<undef>";
    }
}

std::string dump_params(const FuncInfo& info) {
    std::string s = "(";
    bool star_done = false;
    for (size_t k = 0; k < info.params.size(); ++k) {
        const Param& p = info.params[k];
        if (k) s += ' ';
        if (p.kind == Param::KwOnly && !star_done && info.varargs < 0) { s += "* "; star_done = true; }
        if (p.kind == Param::VarArgs) { s += "*"; star_done = true; }
        if (p.kind == Param::VarKw) s += "**";
        s += p.name;
        if (p.default_value) s += "=" + dump(p.default_value.get());
    }
    return s + ")";
}

std::string dump_fstring(const FStringExpr& fs) {
    std::string s = "(f";
    for (auto& p : fs.parts) {
        s += ' ';
        if (!p.expr) { s += "'" + p.literal + "'"; continue; }
        s += "{" + dump(p.expr.get());
        if (p.conversion) s += std::string("!") + p.conversion;
        if (p.spec) s += ":" + dump_fstring(*p.spec);
        s += "}";
    }
    return s + ")";
}

std::string dump(const Expr* e) {
    switch (e->kind) {
        case EK::Const: return dump_value(static_cast<const ConstExpr*>(e)->value);
        case EK::Ellipsis: return "...";
        case EK::Kernel: return "(kernel " + static_cast<const KernelExpr*>(e)->name + ")";
        case EK::Name: return static_cast<const NameExpr*>(e)->id;
        case EK::FString: return dump_fstring(*static_cast<const FStringExpr*>(e));
        case EK::Starred: return "*" + dump(static_cast<const StarredExpr*>(e)->value.get());
        case EK::Tuple: case EK::List: case EK::Set: {
            auto* s = static_cast<const SeqExpr*>(e);
            std::string out = e->kind == EK::Tuple ? "(tuple" : e->kind == EK::List ? "(list" : "(set";
            for (auto& x : s->elts) out += " " + dump(x.get());
            return out + ")";
        }
        case EK::Dict: {
            auto* d = static_cast<const DictExpr*>(e);
            std::string out = "(dict";
            for (size_t k = 0; k < d->keys.size(); ++k)
                out += d->keys[k] ? " " + dump(d->keys[k].get()) + ":" + dump(d->values[k].get())
                                  : " **" + dump(d->values[k].get());
            return out + ")";
        }
        case EK::BinOp: {
            auto* b = static_cast<const BinOpExpr*>(e);
            return std::string("(") + binop(b->op) + " " + dump(b->left.get()) + " " + dump(b->right.get()) + ")";
        }
        case EK::UnaryOp: {
            auto* u = static_cast<const UnaryExpr*>(e);
            const char* name = u->op == UnOp::Neg ? "neg" : u->op == UnOp::Pos ? "pos" : u->op == UnOp::Invert ? "~" : "not";
            return std::string("(") + name + " " + dump(u->operand.get()) + ")";
        }
        case EK::BoolOp: {
            auto* b = static_cast<const BoolOpExpr*>(e);
            std::string out = b->is_and ? "(and" : "(or";
            for (auto& x : b->values) out += " " + dump(x.get());
            return out + ")";
        }
        case EK::Compare: {
            auto* c = static_cast<const CompareExpr*>(e);
            std::string out = "(cmp " + dump(c->first.get());
            for (size_t k = 0; k < c->ops.size(); ++k) out += std::string(" ") + cmpop(c->ops[k]) + " " + dump(c->rest[k].get());
            return out + ")";
        }
        case EK::IfExp: {
            auto* c = static_cast<const IfExpr*>(e);
            return "(ifexp " + dump(c->test.get()) + " " + dump(c->body.get()) + " " + dump(c->orelse.get()) + ")";
        }
        case EK::Call: {
            auto* c = static_cast<const CallExpr*>(e);
            std::string out = "(call " + dump(c->func.get());
            for (auto& a : c->args) out += " " + dump(a.get());
            for (auto& k : c->keywords) out += " " + (k.name.empty() ? "**" : k.name + "=") + dump(k.value.get());
            return out + ")";
        }
        case EK::Attribute: {
            auto* a = static_cast<const AttributeExpr*>(e);
            return "(. " + dump(a->value.get()) + " " + a->attr + ")";
        }
        case EK::Subscript: {
            auto* s = static_cast<const SubscriptExpr*>(e);
            return "([] " + dump(s->value.get()) + " " + dump(s->index.get()) + ")";
        }
        case EK::Slice: {
            auto* s = static_cast<const SliceExpr*>(e);
            return "(slice " + opt(s->lower) + " " + opt(s->upper) + " " + opt(s->step) + ")";
        }
        case EK::Lambda: {
            auto* l = static_cast<const LambdaExpr*>(e);
            return "(lambda " + dump_params(*l->info) + " " + dump(l->info->lambda_body.get()) + ")";
        }
        case EK::Yield: {
            auto* y = static_cast<const YieldExpr*>(e);
            return std::string(y->from ? "(yield-from " : "(yield ") + opt(y->value) + ")";
        }
        case EK::GenExpr: {
            // The generator function the parser made, read back as its clauses.
            auto* g = static_cast<const GenExpr*>(e);
            std::string clauses, elt;
            bool first = true;
            for (const Stmt* st = g->info->body[0].get(); st;) {
                if (st->kind == SK::For) {
                    auto* f = static_cast<const ForStmt*>(st);
                    if (!first) clauses += ")";
                    clauses += " (for " + dump(f->target.get()) + " in " + dump(first ? g->first_iter.get() : f->iter.get());
                    first = false;
                    st = f->body[0].get();
                } else if (st->kind == SK::If) {
                    auto* i = static_cast<const IfStmt*>(st);
                    clauses += " (if " + dump(i->test.get()) + ")";
                    st = i->body[0].get();
                } else {
                    elt = dump(static_cast<const YieldExpr*>(static_cast<const ExprStmt*>(st)->value.get())->value.get());
                    st = nullptr;
                }
            }
            return "(genexp " + elt + clauses + "))";
        }
        case EK::Comprehension: {
            auto* c = static_cast<const ComprehensionExpr*>(e);
            const char* kinds[] = {"listcomp", "setcomp", "dictcomp", "genexp"};
            std::string out = std::string("(") + kinds[c->comp_kind] + " " + dump(c->elt.get());
            if (c->value) out += ":" + dump(c->value.get());
            for (auto& g : c->generators) {
                out += " (for " + dump(g.target.get()) + " in " + dump(g.iter.get());
                for (auto& i : g.ifs) out += " (if " + dump(i.get()) + ")";
                out += ")";
            }
            return out + ")";
        }
    }
    return "<?>";
}

std::string dump_stmt(const Stmt* s) {
    switch (s->kind) {
        case SK::Expr: return dump(static_cast<const ExprStmt*>(s)->value.get());
        case SK::Pass: return "pass";
        case SK::Break: return "break";
        case SK::Continue: return "continue";
        case SK::AnnAssign: {
            auto* a = static_cast<const AnnAssignStmt*>(s);
            return a->value ? "(= " + a->target->id + " " + dump(a->value.get()) + ")" : "(: " + a->target->id + ")";
        }
        case SK::Assign: {
            auto* a = static_cast<const AssignStmt*>(s);
            std::string out = "(=";
            for (auto& t : a->targets) out += " " + dump(t.get());
            return out + " " + dump(a->value.get()) + ")";
        }
        case SK::AugAssign: {
            auto* a = static_cast<const AugAssignStmt*>(s);
            return std::string("(") + binop(a->op) + "= " + dump(a->target.get()) + " " + dump(a->value.get()) + ")";
        }
        case SK::Del: {
            auto* d = static_cast<const DelStmt*>(s);
            std::string out = "(del";
            for (auto& t : d->targets) out += " " + dump(t.get());
            return out + ")";
        }
        case SK::Return: {
            auto* r = static_cast<const ReturnStmt*>(s);
            return r->value ? "(return " + dump(r->value.get()) + ")" : "(return)";
        }
        case SK::If: {
            auto* i = static_cast<const IfStmt*>(s);
            std::string out = "(if " + dump(i->test.get()) + " " + dump(i->body);
            if (!i->orelse.empty()) out += " else " + dump(i->orelse);
            return out + ")";
        }
        case SK::While: {
            auto* w = static_cast<const WhileStmt*>(s);
            std::string out = "(while " + dump(w->test.get()) + " " + dump(w->body);
            if (!w->orelse.empty()) out += " else " + dump(w->orelse);
            return out + ")";
        }
        case SK::For: {
            auto* f = static_cast<const ForStmt*>(s);
            std::string out = "(for " + dump(f->target.get()) + " in " + dump(f->iter.get()) + " " + dump(f->body);
            if (!f->orelse.empty()) out += " else " + dump(f->orelse);
            return out + ")";
        }
        case SK::FunctionDef: {
            auto* d = static_cast<const FunctionDefStmt*>(s);
            std::string out = "(def";
            for (auto& dec : d->decorators) out += " @" + dump(dec.get());
            return out + " " + d->info->name + " " + dump_params(*d->info) + " " + dump(d->info->body) + ")";
        }
        case SK::Global: case SK::Nonlocal: {
            auto* g = static_cast<const ScopeDeclStmt*>(s);
            std::string out = s->kind == SK::Global ? "(global" : "(nonlocal";
            for (auto& n : g->names) out += " " + n;
            return out + ")";
        }
        case SK::With: {
            auto* w = static_cast<const WithStmt*>(s);
            std::string out = "(with";
            for (auto& it : w->items) out += " (" + dump(it.context.get()) + (it.target ? " as " + dump(it.target.get()) : "") + ")";
            return out + " " + dump(w->body) + ")";
        }
        case SK::Try: {
            auto* t = static_cast<const TryStmt*>(s);
            std::string out = "(try " + dump(t->body);
            for (auto& h : t->handlers) {
                out += " (except";
                if (h.type) out += " " + dump(h.type.get());
                if (h.name) out += " as " + h.name->id;
                out += " " + dump(h.body) + ")";
            }
            if (!t->orelse.empty()) out += " (else " + dump(t->orelse) + ")";
            if (!t->finalbody.empty()) out += " (finally " + dump(t->finalbody) + ")";
            return out + ")";
        }
        case SK::Raise: {
            auto* r = static_cast<const RaiseStmt*>(s);
            std::string out = "(raise";
            if (r->exc) out += " " + dump(r->exc.get());
            if (r->cause) out += " from " + dump(r->cause.get());
            return out + ")";
        }
        case SK::Assert: {
            auto* a = static_cast<const AssertStmt*>(s);
            return "(assert " + dump(a->test.get()) + (a->msg ? " " + dump(a->msg.get()) : "") + ")";
        }
        case SK::Import: {
            auto* i = static_cast<const ImportStmt*>(s);
            std::string out = "(import";
            for (auto& a : i->names) out += " " + a.module + (a.asname.empty() ? "" : " as " + a.asname) + "->" + a.target->id;
            return out + ")";
        }
        case SK::ImportFrom: {
            auto* i = static_cast<const ImportFromStmt*>(s);
            std::string out = "(from " + i->module + " import";
            if (i->star) out += " *";
            for (auto& a : i->names) out += " " + a.name + (a.asname.empty() ? "" : " as " + a.asname) + "->" + a.target->id;
            return out + ")";
        }
    }
    return "<?>";
}

std::string dump(const Block& b) {
    std::string out = "{";
    for (size_t k = 0; k < b.size(); ++k) out += (k ? "; " : "") + dump_stmt(b[k].get());
    return out + "}";
}

std::shared_ptr<Program> parse(std::string src, bool interactive = false) {
    types::init();  // string constants are StrObj values
    ParseOptions o;
    o.interactive = interactive;
    return parse_program(std::make_shared<SourceFile>("<test>", std::move(src)), o);
}

// The whole program as s-expressions, statements separated by "; ".
std::string P(std::string src) {
    auto prog = parse(std::move(src));
    std::string out;
    for (size_t k = 0; k < prog->body.size(); ++k) out += (k ? "; " : "") + dump_stmt(prog->body[k].get());
    return out;
}

// One expression statement's tree.
std::string E(std::string src) { return P(std::move(src) + "\n"); }

struct ParseError {
    std::shared_ptr<SourceFile> file;
    SyntaxError err;
    int line() const { return err.span.line(); }
    int col() const { return err.span.col(); }
    bool has(const std::string& s) const { return err.message.find(s) != std::string::npos; }
};

std::optional<ParseError> parse_error(std::string src) {
    types::init();
    auto file = std::make_shared<SourceFile>("<test>", std::move(src));
    try {
        parse_program(file, {});
    } catch (const SyntaxError& e) {
        return ParseError{file, e};
    }
    return std::nullopt;
}

}  // namespace

TEST_CASE("parser: arithmetic precedence and associativity") {
    CHECK(E("1 + 2 * 3") == "(+ 1 (* 2 3))");
    CHECK(E("(1 + 2) * 3") == "(* (+ 1 2) 3)");
    CHECK(E("1 - 2 - 3") == "(- (- 1 2) 3)");
    CHECK(E("a / b // c % d @ e") == "(@ (% (// (/ a b) c) d) e)");
    CHECK(E("2 ** 3 ** 2") == "(** 2 (** 3 2))");  // right-associative
    CHECK(E("a | b ^ c & d << 1 + 2") == "(| a (^ b (& c (<< d (+ 1 2)))))");
    CHECK(E("a >> 1 << 2") == "(<< (>> a 1) 2)");
}

TEST_CASE("parser: unary minus and power") {
    CHECK(E("-2 ** 2") == "(neg (** 2 2))");  // -(2**2), not (-2)**2
    CHECK(E("2 ** -1") == "(** 2 -1)");       // the literal -1 is folded
    CHECK(E("2 ** -x") == "(** 2 (neg x))");
    CHECK(E("-x ** -y") == "(neg (** x (neg y)))");
    CHECK(E("~a + +b") == "(+ (~ a) (pos b))");
    CHECK(E("- -1") == "1");
    CHECK(E("-1.5") == "-1.5");
    CHECK(E("-9223372036854775807 - 1") == "(- -9223372036854775807 1)");
}

TEST_CASE("parser: boolean operators, not and comparisons") {
    CHECK(E("not a == b") == "(not (cmp a == b))");
    CHECK(E("not not a") == "(not (not a))");
    CHECK(E("a or b and not c") == "(or a (and b (not c)))");
    CHECK(E("a and b and c") == "(and a b c)");
    CHECK(E("a or b or c") == "(or a b c)");
    CHECK(E("a < b <= c == d") == "(cmp a < b <= c == d)");
    CHECK(E("x not in y") == "(cmp x not-in y)");
    CHECK(E("x is not None") == "(cmp x is-not None)");
    CHECK(E("a < b + 1 in c") == "(cmp a < (+ b 1) in c)");
    CHECK(E("a | b < c") == "(cmp (| a b) < c)");
}

TEST_CASE("parser: conditional expressions") {
    CHECK(E("a if c else b") == "(ifexp c a b)");
    CHECK(E("a if c else b if d else e") == "(ifexp c a (ifexp d b e))");
    CHECK(E("x or y if c else z") == "(ifexp c (or x y) z)");
    CHECK(E("lambda: a if c else b") == "(lambda () (ifexp c a b))");
}

TEST_CASE("parser: lambda") {
    CHECK(E("lambda: 0") == "(lambda () 0)");
    CHECK(E("lambda x, y=2: x + y") == "(lambda (x y=2) (+ x y))");
    CHECK(E("lambda *a, k=1, **kw: k") == "(lambda (*a k=1 **kw) k)");
    CHECK(E("lambda x: lambda y: x * y") == "(lambda (x) (lambda (y) (* x y)))");
    auto prog = parse("f = lambda a, *, b: a\n");
    auto* a = static_cast<AssignStmt*>(prog->body[0].get());
    auto* l = static_cast<LambdaExpr*>(a->value.get());
    REQUIRE(l->info->params.size() == 2);
    CHECK(l->info->params[1].kind == Param::KwOnly);
    CHECK(l->info->n_positional == 1);
    CHECK(l->info->name == "<lambda>");
}

TEST_CASE("parser: displays") {
    CHECK(E("()") == "(tuple)");
    CHECK(E("(1,)") == "(tuple 1)");
    CHECK(E("1, 2") == "(tuple 1 2)");
    CHECK(E("[1, *a, 2,]") == "(list 1 *a 2)");
    CHECK(E("{}") == "(dict)");
    CHECK(E("{1: 'a', **m, 2: b}") == "(dict 1:'a' **m 2:b)");
    CHECK(E("{1, 2}") == "(set 1 2)");
    CHECK(E("...") == "...");
    CHECK(E("'a' 'b' \"c\"") == "'abc'");  // adjacent literals concatenate
    CHECK(E("(x)") == "x");
}

TEST_CASE("parser: comprehensions with nested for and if") {
    CHECK(E("[x * y for x in a if x for y in b if y > x if y]") ==
          "(listcomp (* x y) (for x in a (if x)) (for y in b (if (cmp y > x)) (if y)))");
    CHECK(E("{k: v for k, v in items}") == "(dictcomp k:v (for (tuple k v) in items))");
    CHECK(E("{x for x in s}") == "(setcomp x (for x in s))");
    CHECK(E("sum(x for x in r)") == "(call sum (genexp x (for x in r)))");
    CHECK(E("(x for x in r)") == "(genexp x (for x in r))");
    CHECK(E("[a if a else b for a in c]") == "(listcomp (ifexp a a b) (for a in c))");
    CHECK(E("[[y for y in x] for x in m]") == "(listcomp (listcomp y (for y in x)) (for x in m))");
}

TEST_CASE("parser: calls with *args, **kwargs and keywords") {
    CHECK(E("f()") == "(call f)");
    CHECK(E("f(1, *a, k=2, **kw)") == "(call f 1 *a k=2 **kw)");
    CHECK(E("f(a)(b)") == "(call (call f a) b)");
    CHECK(E("obj.method(x, y=1).attr") == "(. (call (. obj method) x y=1) attr)");
    CHECK(E("f(*a, *b, **c, **d)") == "(call f *a *b **c **d)");
    auto prog = parse("f(1, 2)\ng(k=1)\n");
    CHECK(static_cast<CallExpr*>(static_cast<ExprStmt*>(prog->body[0].get())->value.get())->simple);
    CHECK_FALSE(static_cast<CallExpr*>(static_cast<ExprStmt*>(prog->body[1].get())->value.get())->simple);
}

TEST_CASE("parser: subscripts and slices") {
    CHECK(E("a[1]") == "([] a 1)");
    CHECK(E("a[1:2]") == "([] a (slice 1 2 _))");
    CHECK(E("a[::2]") == "([] a (slice _ _ 2))");
    CHECK(E("a[::-1]") == "([] a (slice _ _ -1))");
    CHECK(E("a[1:]") == "([] a (slice 1 _ _))");
    CHECK(E("a[:n:]") == "([] a (slice _ n _))");
    CHECK(E("a[:]") == "([] a (slice _ _ _))");
    CHECK(E("a[1:2, ::3]") == "([] a (tuple (slice 1 2 _) (slice _ _ 3)))");
    CHECK(E("a[i, j]") == "([] a (tuple i j))");
    CHECK(E("a[..., 0]") == "([] a (tuple ... 0))");
    CHECK(E("a[b][c]") == "([] ([] a b) c)");
}

TEST_CASE("parser: f-strings") {
    CHECK(E("f'x={x} y'") == "(f 'x=' {x} ' y')");
    CHECK(E("f'{a + 1!r}'") == "(f {(+ a 1)!r})");
    CHECK(E("f'{v:>10}'") == "(f {v:(f '>10')})");
    CHECK(E("f'{v:{w}.{p}f}'") == "(f {v:(f {w} '.' {p} 'f')})");
    CHECK(E("f'{x!s:^5}'") == "(f {x!s:(f '^5')})");
    CHECK(E("f'{{literal}} {d[\"k\"]}'") == "(f '{literal} ' {([] d 'k')})");
    CHECK(E("f'a\\tb'") == "(f 'a\tb')");  // escapes decoded in literal parts
    CHECK(E("'pre' f'{x}' 'post'") == "(f 'pre' {x} 'post')");
    CHECK(E("f'{x=}'") == "(f 'x=' {x!r})");  // self-documenting field
    CHECK(E("f'{f(a, b)}'") == "(f {(call f a b)})");
}

TEST_CASE("parser: assignment forms") {
    CHECK(P("a = b = 1\n") == "(= a b 1)");
    CHECK(P("a, b = b, a\n") == "(= (tuple a b) (tuple b a))");
    CHECK(P("a, *b = c\n") == "(= (tuple a *b) c)");
    CHECK(P("x[i].y = 2\n") == "(= (. ([] x i) y) 2)");
    CHECK(P("x **= 2\n") == "(**= x 2)");
    CHECK(P("x //= y\n") == "(//= x y)");
    CHECK(P("x: int = 5\n") == "(= x 5)");
    CHECK(P("del a, b[0]\n") == "(del a ([] b 0))");
    CHECK(P("a = 1; b = 2\n") == "(= a 1); (= b 2)");
}

TEST_CASE("parser: control flow statements") {
    CHECK(P("if a:\n    b\nelif c:\n    d\nelse:\n    e\n") == "(if a {b} else {(if c {d} else {e})})");
    CHECK(P("while x: x -= 1\n") == "(while x {(-= x 1)})");
    CHECK(P("while a:\n    break\nelse:\n    pass\n") == "(while a {break} else {pass})");
    CHECK(P("for i, j in pairs:\n    continue\n") == "(for (tuple i j) in pairs {continue})");
    CHECK(P("for x in 1, 2:\n    pass\n") == "(for x in (tuple 1 2) {pass})");
    CHECK(P("assert x > 0, 'msg'\n") == "(assert (cmp x > 0) 'msg')");
    CHECK(P("raise ValueError('x') from e\n") == "(raise (call ValueError 'x') from e)");
    CHECK(P("raise\n") == "(raise)");
}

TEST_CASE("parser: function definitions and decorators") {
    CHECK(P("def f(a, b=1, *args, c, d=2, **kw):\n    return a\n") ==
          "(def f (a b=1 *args c d=2 **kw) {(return a)})");
    CHECK(P("def g(a, *, b):\n    pass\n") == "(def g (a * b) {pass})");
    CHECK(P("def h() -> int: return\n") == "(def h () {(return)})");
    CHECK(P("@dec\n@mod.deco(1)\ndef f():\n    pass\n") == "(def @dec @(call (. mod deco) 1) f () {pass})");
    auto prog = parse("def f(a, b=1, *args, c, **kw):\n    pass\n");
    auto* d = static_cast<FunctionDefStmt*>(prog->body[0].get());
    CHECK(d->info->n_positional == 2);
    CHECK(d->info->n_defaults == 1);
    CHECK(d->info->varargs == 2);
    CHECK(d->info->varkw == 4);
    CHECK(d->info->params[3].kind == Param::KwOnly);
    CHECK(d->target->id == "f");
    CHECK(d->span.line() == 1);
}

TEST_CASE("parser: try/except/else/finally") {
    CHECK(P("try:\n    a\nexcept ValueError as e:\n    b\nexcept (KeyError, IndexError):\n    c\n"
            "except:\n    d\nelse:\n    e\nfinally:\n    f\n") ==
          "(try {a} (except ValueError as e {b}) (except (tuple KeyError IndexError) {c}) (except {d}) "
          "(else {e}) (finally {f}))");
    CHECK(P("try:\n    a\nfinally:\n    b\n") == "(try {a} (finally {b}))");
}

TEST_CASE("parser: with statements") {
    CHECK(P("with open(p) as f, lock:\n    pass\n") == "(with ((call open p) as f) (lock) {pass})");
    CHECK(P("with a as (x, y): pass\n") == "(with (a as (tuple x y)) {pass})");
}

TEST_CASE("parser: import forms") {
    CHECK(P("import math\n") == "(import math->math)");
    CHECK(P("import numpy as np, os.path\n") == "(import numpy as np->np os.path->os)");
    CHECK(P("from math import sqrt, pi as PI\n") == "(from math import sqrt->sqrt pi as PI->PI)");
    CHECK(P("from math import (\n    sin,\n    cos,\n)\n") == "(from math import sin->sin cos->cos)");
    CHECK(P("from math import *\n") == "(from math import *)");
}

TEST_CASE("parser: global and nonlocal") {
    CHECK(P("def f():\n    global a, b\n    a = 1\n") == "(def f () {(global a b); (= a 1)})");
    CHECK(P("def f():\n    x = 1\n    def g():\n        nonlocal x\n        x = 2\n") ==
          "(def f () {(= x 1); (def g () {(nonlocal x); (= x 2)})})");
}

TEST_CASE("parser: interactive mode marks expression statements for echo") {
    auto prog = parse("1 + 1\nx = 2\nx\n", true);
    REQUIRE(prog->body.size() == 3);
    CHECK(static_cast<ExprStmt*>(prog->body[0].get())->echo);
    CHECK(static_cast<ExprStmt*>(prog->body[2].get())->echo);
    prog = parse("1 + 1\n", false);
    CHECK_FALSE(static_cast<ExprStmt*>(prog->body[0].get())->echo);
}

TEST_CASE("parser: node spans") {
    auto prog = parse("x = 1\nresult = foo(a,\n             b) + 2\n");
    auto* a = static_cast<AssignStmt*>(prog->body[1].get());
    CHECK(a->span.line() == 2);
    auto* add = static_cast<BinOpExpr*>(a->value.get());
    CHECK(add->span.line() == 2);
    CHECK(add->span.col() == 10);
    auto [end_line, end_col] = prog->file->line_col(add->span.end);
    CHECK(end_line == 3);
    CHECK(end_col == 20);  // just past the `2`
    CHECK(add->left->span.col() == 10);
}

TEST_CASE("parser error: incomplete input") {
    auto e = parse_error("def f():\n");
    REQUIRE(e);
    CHECK(e->err.incomplete);
    CHECK(e->has("expected an indented block"));

    e = parse_error("def f():");
    REQUIRE(e);
    CHECK(e->err.incomplete);

    e = parse_error("x = (1,");
    REQUIRE(e);
    CHECK(e->err.incomplete);
    CHECK(e->has("`(` was never closed"));
    CHECK(e->line() == 1);
    CHECK(e->col() == 5);

    e = parse_error("if x:\n    y = 1\nelse:\n");
    REQUIRE(e);
    CHECK(e->err.incomplete);

    // As in Python's codeop: a dangling operator at the end of a line is an
    // error, not a request for more input.
    e = parse_error("x = 1 +");
    REQUIRE(e);
    CHECK_FALSE(e->err.incomplete);
    CHECK(e->has("expected an expression"));

    e = parse_error("try:\n    pass\n");
    REQUIRE(e);
    CHECK(e->err.incomplete);
    CHECK(e->has("expected `except` or `finally` block"));
}

TEST_CASE("parser error: statements in the wrong place") {
    auto e = parse_error("x = 1\nreturn x\n");
    REQUIRE(e);
    CHECK(e->has("`return` outside function"));
    CHECK(e->line() == 2);
    CHECK(e->col() == 1);
    CHECK_FALSE(e->err.incomplete);

    e = parse_error("if x:\n    break\n");
    REQUIRE(e);
    CHECK(e->has("`break` outside loop"));
    CHECK(e->line() == 2);
    CHECK(e->col() == 5);

    e = parse_error("continue\n");
    REQUIRE(e);
    CHECK(e->has("`continue` not properly in loop"));

    // A loop outside a def does not license `break` inside it.
    e = parse_error("for i in r:\n    def f():\n        break\n");
    REQUIRE(e);
    CHECK(e->has("`break` outside loop"));
    CHECK(e->line() == 3);

    e = parse_error("nonlocal x\n");
    REQUIRE(e);
    CHECK(e->has("nonlocal declaration not allowed at module level"));

    // But these are fine.
    CHECK_FALSE(parse_error("def f():\n    for i in r:\n        if i:\n            break\n    return 1\n"));
}

TEST_CASE("parser error: invalid assignment targets") {
    auto e = parse_error("1 = x\n");
    REQUIRE(e);
    CHECK(e->has("cannot assign to literal"));
    CHECK(e->line() == 1);
    CHECK(e->col() == 1);

    e = parse_error("x = 'a' = y\n");
    REQUIRE(e);
    CHECK(e->has("cannot assign to literal"));
    CHECK(e->col() == 5);

    e = parse_error("f() = 1\n");
    REQUIRE(e);
    CHECK(e->has("cannot assign to function call"));

    e = parse_error("a + b = 1\n");
    REQUIRE(e);
    CHECK(e->has("cannot assign to expression"));

    e = parse_error("for 1 in x:\n    pass\n");
    REQUIRE(e);
    CHECK(e->has("cannot assign to literal"));
    CHECK(e->col() == 5);

    e = parse_error("a, *b, *c = d\n");
    REQUIRE(e);
    CHECK(e->has("multiple starred expressions in assignment"));

    e = parse_error("f() += 1\n");
    REQUIRE(e);
    CHECK(e->has("cannot assign to function call"));

    e = parse_error("del 1\n");
    REQUIRE(e);
    CHECK(e->has("cannot delete literal"));
}

TEST_CASE("parser error: blocks and indentation") {
    auto e = parse_error("if x:\npass\n");
    REQUIRE(e);
    CHECK(e->has("expected an indented block after `if` statement on line 1"));
    CHECK(e->line() == 2);
    CHECK(e->col() == 1);
    CHECK_FALSE(e->err.incomplete);

    e = parse_error("def f():\n    pass\n  x = 1\n");
    REQUIRE(e);
    CHECK(e->has("unindent does not match any outer indentation level"));

    e = parse_error("x = 1\n    y = 2\n");
    REQUIRE(e);
    CHECK(e->has("unexpected indent"));
    CHECK(e->line() == 2);
}

TEST_CASE("parser error: invalid syntax with positions") {
    auto e = parse_error("x = )\n");
    REQUIRE(e);
    CHECK_FALSE(e->err.incomplete);

    e = parse_error("print(a b)\n");
    REQUIRE(e);
    CHECK(e->has("missing comma"));
    CHECK(e->line() == 1);
    CHECK(e->col() == 9);
    REQUIRE_FALSE(e->err.notes.empty());
    CHECK(e->err.notes[0].span.col() == 6);

    e = parse_error("x = 1 2\n");
    REQUIRE(e);
    CHECK(e->has("invalid syntax"));
    CHECK(e->col() == 7);

    e = parse_error("f(x for x in y, 1)\n");
    REQUIRE(e);
    CHECK(e->has("generator expression must be parenthesized"));

    e = parse_error("f(a=1, b)\n");
    REQUIRE(e);
    CHECK(e->has("positional argument follows keyword argument"));

    e = parse_error("f(a=1, a=2)\n");
    REQUIRE(e);
    CHECK(e->has("keyword argument repeated"));

    e = parse_error("def f(a=1, b):\n    pass\n");
    REQUIRE(e);
    CHECK(e->has("parameter without a default follows parameter with a default"));

    e = parse_error("def f(a, a):\n    pass\n");
    REQUIRE(e);
    CHECK(e->has("duplicate argument `a`"));

    e = parse_error("f'{}'\n");
    REQUIRE(e);
    CHECK(e->has("f-string: empty expression not allowed"));

    e = parse_error("f'{x!z}'\n");
    REQUIRE(e);
    CHECK(e->has("invalid conversion character"));

    e = parse_error("f'}'\n");
    REQUIRE(e);
    CHECK(e->has("single `}` is not allowed"));

    e = parse_error("if (n := 10) > 5:\n    pass\n");
    REQUIRE(e);
    CHECK(e->has("`:=`"));

    e = parse_error("try:\n    a\nexcept:\n    b\nexcept ValueError:\n    c\n");
    REQUIRE(e);
    CHECK(e->has("default `except:` must be last"));
}

TEST_CASE("parser error: deep nesting is a SyntaxError, not a crash") {
    auto e = parse_error("x = " + std::string(1000, '-') + "1\n");
    REQUIRE(e);
    CHECK(e->has("too deeply nested"));
    CHECK_FALSE(e->err.incomplete);

    e = parse_error("x = " + std::string(5000, '~') + "1\n");
    REQUIRE(e);
    CHECK(e->has("too deeply nested"));

    std::string nots;
    for (int k = 0; k < 2000; ++k) nots += "not ";
    e = parse_error(nots + "x\n");
    REQUIRE(e);
    CHECK(e->has("too deeply nested"));

    std::string pows = "x = 2";
    for (int k = 0; k < 2000; ++k) pows += " ** 2";
    e = parse_error(pows + "\n");
    REQUIRE(e);
    CHECK(e->has("too deeply nested"));

    std::string ifs;
    for (int k = 0; k < 500; ++k) ifs += std::string(size_t(k), ' ') + "if x:\n";
    ifs += std::string(500, ' ') + "pass\n";
    e = parse_error(ifs);
    REQUIRE(e);
    CHECK(e->has("too deeply nested"));

    // Brackets past the lexer's limit of 200.
    e = parse_error("x = " + std::string(1000, '[') + std::string(1000, ']') + "\n");
    REQUIRE(e);
    CHECK(e->has("too many nested parentheses"));

    // Long flat chains parse up to 10000 operators; past that they are an
    // error, because evaluation walks the left-deep tree recursively.
    std::string sum = "x = 1";
    for (int k = 0; k < 5000; ++k) sum += " + 1";
    CHECK_FALSE(parse_error(sum + "\n"));
    for (int k = 0; k < 15000; ++k) sum += " + 1";
    e = parse_error(sum + "\n");
    REQUIRE(e);
    CHECK(e->has("statement is too complex"));
}

TEST_CASE("parser: nesting up to the lexer's bracket limit parses, as in Python") {
    // Python 3.11 accepts 200 nested brackets (its tokenizer's MAXLEVEL);
    // gpy's lexer has the same limit, so the parser must not reject less.
    std::string lists = "x = " + std::string(199, '[') + std::string(199, ']') + "\n";
    auto e = parse_error(lists);
    if (e) FAIL_CHECK("199 nested lists: " << e->err.message);
    std::string parens = "x = " + std::string(199, '(') + "1" + std::string(199, ')') + "\n";
    e = parse_error(parens);
    if (e) FAIL_CHECK("199 nested parentheses: " << e->err.message);
    std::string calls = "x = " + std::string(150, '(') + "f(" + std::string(48, '[') + std::string(48, ']') + ")" +
                        std::string(150, ')') + "\n";
    e = parse_error(calls);
    if (e) FAIL_CHECK("199 mixed brackets: " << e->err.message);
}
