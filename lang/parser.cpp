#include "lang/parser.h"

#include <cstring>
#include <optional>

#include "lang/lexer.h"
#include "lang/object.h"

namespace gpy {

namespace {

// Nesting limit: a SyntaxError, never a C++ stack overflow. Each bracket costs
// two levels (the bracket and the expression inside), so 200 brackets fit.
constexpr int kMaxDepth = 450;
// Operators in one statement: bounds the depth of left-deep chains such as
// 1+1+...+1, which the resolver and evaluator walk recursively.
constexpr int kMaxOperators = 10000;

class Parser {
public:
    Parser(const SourceFile& file, std::vector<Token> toks, const ParseOptions& opts)
        : file_(file), toks_(std::move(toks)), opts_(opts) {}

    // file: statement* END
    Block parse_file() {
        Block body;
        while (!at(T::End)) {
            if (at(T::Indent)) error_here("unexpected indent");
            if (at(T::Newline)) { advance(); continue; }
            parse_statement(body);
        }
        if (opts_.interactive)
            for (auto& s : body)
                if (s->kind == SK::Expr) static_cast<ExprStmt*>(s.get())->echo = true;
        return body;
    }

    // An f-string field's expression: star_expressions END
    ExprP parse_lone_expression() {
        ExprP e = parse_star_expressions();
        if (!at(T::End)) error_here("f-string: expecting `}`");
        return e;
    }

private:
    const SourceFile& file_;
    std::vector<Token> toks_;
    ParseOptions opts_;
    size_t pos_ = 0;
    int depth_ = 0;
    int loop_depth_ = 0;
    int func_depth_ = 0;
    // The functions being parsed, innermost last (null: a lambda or a class
    // body, where `yield` is an error): `yield` makes the innermost a generator.
    std::vector<FuncInfo*> funcs_;
    int operators_ = 0;  // binary operators in the current statement

    // ---- token helpers ----
    const Token& cur() const { return toks_[pos_]; }
    const Token& peek(size_t k = 1) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
    bool at(T k) const { return cur().kind == k; }
    const Token& advance() { const Token& t = toks_[pos_]; if (pos_ + 1 < toks_.size()) ++pos_; return t; }
    bool accept(T k) { if (at(k)) { advance(); return true; } return false; }
    Span prev_span() const { return pos_ > 0 ? toks_[pos_ - 1].span : cur().span; }

    [[noreturn]] void error_at(Span s, std::string msg) {
        bool incomplete = cur().kind == T::End;
        throw SyntaxError(s, std::move(msg), incomplete);
    }
    [[noreturn]] void error_here(std::string msg) { error_at(cur().span, std::move(msg)); }
    [[noreturn]] void unexpected(const std::string& expected) {
        const Token& t = cur();
        if (t.kind == T::End) throw SyntaxError(t.span, "unexpected end of input; expected " + expected, true);
        if (t.kind == T::Indent) error_here("unexpected indent");
        if (t.kind == T::Newline) error_here("expected " + expected + " before end of line");
        error_here("invalid syntax: expected " + expected + ", found " + describe(t));
    }
    static std::string describe(const Token& t) {
        switch (t.kind) {
            case T::Name: return "`" + t.text + "`";
            case T::Int: case T::Float: case T::Imag: return "a number";
            case T::String: return "a string";
            case T::Dedent: return "end of block";
            default: return std::string("`") + token_text(t.kind) + "`";
        }
    }
    const Token& expect(T k, const char* what = nullptr) {
        if (!at(k)) unexpected(what ? what : std::string("`") + token_text(k) + "`");
        return advance();
    }

    struct DepthGuard {
        Parser& p;
        explicit DepthGuard(Parser& pp) : p(pp) {
            if (++p.depth_ > kMaxDepth) p.error_here("expression is too deeply nested");
        }
        ~DepthGuard() { --p.depth_; }
    };

    template <class N>
    std::unique_ptr<N> node(Span s) { auto n = std::make_unique<N>(); n->span = s; return n; }

    // ---- statements ----

    // statement: compound_stmt | simple_stmts
    void parse_statement(Block& out) {
        DepthGuard g(*this);
        operators_ = 0;
        switch (cur().kind) {
            case T::If: out.push_back(parse_if()); return;
            case T::While: out.push_back(parse_while()); return;
            case T::For: out.push_back(parse_for()); return;
            case T::Def: out.push_back(parse_def({})); return;
            case T::At: out.push_back(parse_decorated()); return;
            case T::Try: out.push_back(parse_try()); return;
            case T::With: out.push_back(parse_with()); return;
            case T::KernelBlock: out.push_back(parse_kernel_block()); return;
            case T::Class: out.push_back(parse_class({})); return;
            case T::Async: error_here("`async` is not supported");
            default: parse_simple_statements(out);
        }
    }

    // kernel_block: KERNELBLOCK NEWLINE, bound like `NAME = <the kernel>`.
    StmtP parse_kernel_block() {
        const Token& t = advance();
        auto k = std::make_unique<KernelExpr>();
        k->span = t.span;
        k->name = t.text;
        k->params = t.kernel_params;
        k->params_offset = t.kernel_params_offset;
        k->body = t.kernel_body;
        k->body_offset = t.kernel_body_offset;
        auto st = node<AssignStmt>(t.span);
        auto target = std::make_unique<NameExpr>();
        target->id = t.text;
        target->span = t.span;
        st->targets.push_back(std::move(target));
        st->value = std::move(k);
        expect(T::Newline, "a newline");
        return st;
    }

    // simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE
    void parse_simple_statements(Block& out) {
        while (true) {
            out.push_back(parse_simple_statement());
            if (accept(T::Semi)) {
                if (at(T::Newline) || at(T::End)) break;
                continue;
            }
            break;
        }
        if (at(T::End)) return;
        if (!at(T::Newline)) {
            if (at(T::Indent)) error_here("unexpected indent");
            error_here("invalid syntax: expected end of line, found " + describe(cur()) +
                       (cur().kind == T::Name || cur().kind == T::Int || cur().kind == T::String
                            ? " (missing operator or comma?)" : ""));
        }
        advance();
    }

    // simple_stmt: pass | break | continue | return [star_expressions] | raise [expr ['from' expr]]
    //            | global NAME (',' NAME)* | nonlocal NAME (',' NAME)* | del targets | assert expr [',' expr]
    //            | import_stmt | assignment | star_expressions
    StmtP parse_simple_statement() {
        Span s = cur().span;
        switch (cur().kind) {
            case T::Pass: advance(); return node<SimpleStmt>(s, SK::Pass);
            case T::Break:
                if (!loop_depth_) error_here("`break` outside loop");
                advance();
                return node<SimpleStmt>(s, SK::Break);
            case T::Continue:
                if (!loop_depth_) error_here("`continue` not properly in loop");
                advance();
                return node<SimpleStmt>(s, SK::Continue);
            case T::Return: {
                if (!func_depth_) error_here("`return` outside function");
                advance();
                auto r = node<ReturnStmt>(s);
                if (!at_stmt_end()) r->value = parse_star_expressions();
                r->span = Span::join(s, prev_span());
                return r;
            }
            case T::Raise: {
                advance();
                auto r = node<RaiseStmt>(s);
                if (!at_stmt_end()) {
                    r->exc = parse_expression();
                    if (accept(T::From)) r->cause = parse_expression();
                }
                r->span = Span::join(s, prev_span());
                return r;
            }
            case T::Global: case T::Nonlocal: {
                auto d = std::make_unique<ScopeDeclStmt>(at(T::Global) ? SK::Global : SK::Nonlocal);
                d->span = s;
                if (at(T::Nonlocal) && !func_depth_) error_here("nonlocal declaration not allowed at module level");
                advance();
                do d->names.push_back(expect(T::Name, "a name").text); while (accept(T::Comma));
                return d;
            }
            case T::Del: {
                advance();
                auto d = node<DelStmt>(s);
                do {
                    ExprP t = parse_bitor();
                    check_target(*t, "delete");
                    d->targets.push_back(std::move(t));
                } while (accept(T::Comma) && !at_stmt_end());
                return d;
            }
            case T::Assert: {
                advance();
                auto a = node<AssertStmt>(s);
                a->test = parse_expression();
                if (accept(T::Comma)) a->msg = parse_expression();
                a->span = Span::join(s, prev_span());
                return a;
            }
            case T::Import: return parse_import();
            case T::From: return parse_from_import();
            default: return parse_expression_statement();
        }
    }

    template <class N, class... A>
    std::unique_ptr<N> node(Span s, A&&... a) { auto n = std::make_unique<N>(std::forward<A>(a)...); n->span = s; return n; }

    bool at_stmt_end() const { return at(T::Newline) || at(T::Semi) || at(T::End); }

    // assignment: (star_targets '=')+ star_expressions | target augassign star_expressions
    //           | NAME ':' expression ['=' star_expressions]
    StmtP parse_expression_statement() {
        Span s = cur().span;
        ExprP first = parse_star_expressions();
        if (at(T::Colon) && first->kind == EK::Name) {  // annotated assignment
            advance();
            auto a = node<AnnAssignStmt>(s);
            a->annotation = parse_expression();
            a->target.reset(static_cast<NameExpr*>(first.release()));
            if (accept(T::Assign)) a->value = parse_star_expressions();
            return a;
        }
        if (at(T::Assign)) {
            auto a = node<AssignStmt>(s);
            a->targets.push_back(std::move(first));
            while (accept(T::Assign)) {
                ExprP rhs = parse_star_expressions();
                a->targets.push_back(std::move(rhs));
            }
            a->value = std::move(a->targets.back());
            a->targets.pop_back();
            for (auto& t : a->targets) check_target(*t, "assign to");
            a->span = Span::join(s, prev_span());
            return a;
        }
        if (auto op = aug_op(cur().kind)) {
            Span op_span = cur().span;
            advance();
            if (first->kind != EK::Name && first->kind != EK::Attribute && first->kind != EK::Subscript)
                error_at(first->span, std::string("`") + token_text(toks_[pos_ - 1].kind) +
                                          "` cannot assign to " + target_description(*first));
            (void)op_span;
            auto a = node<AugAssignStmt>(s);
            a->target = std::move(first);
            a->op = *op;
            a->value = parse_star_expressions();
            a->span = Span::join(s, prev_span());
            return a;
        }
        auto e = node<ExprStmt>(s);
        e->value = std::move(first);
        return e;
    }

    static std::optional<BinOp> aug_op(T k) {
        switch (k) {
            case T::PlusEq: return BinOp::Add;
            case T::MinusEq: return BinOp::Sub;
            case T::StarEq: return BinOp::Mul;
            case T::SlashEq: return BinOp::Div;
            case T::DSlashEq: return BinOp::FloorDiv;
            case T::PercentEq: return BinOp::Mod;
            case T::DStarEq: return BinOp::Pow;
            case T::AtEq: return BinOp::MatMul;
            case T::AmpEq: return BinOp::BitAnd;
            case T::PipeEq: return BinOp::BitOr;
            case T::CaretEq: return BinOp::BitXor;
            case T::LShiftEq: return BinOp::LShift;
            case T::RShiftEq: return BinOp::RShift;
            default: return std::nullopt;
        }
    }

    static std::string target_description(const Expr& e) {
        switch (e.kind) {
            case EK::Const: case EK::FString: return "literal";
            case EK::Call: return "function call";
            case EK::BinOp: case EK::UnaryOp: return "expression";
            case EK::Compare: return "comparison";
            case EK::BoolOp: return "expression";
            case EK::Lambda: return "lambda";
            case EK::IfExp: return "conditional expression";
            case EK::Comprehension: return "comprehension";
            case EK::Dict: return "dict literal";
            case EK::Set: return "set display";
            case EK::Ellipsis: return "ellipsis";
            case EK::Kernel: return "kernel";
            default: return "expression";
        }
    }

    // Checks that `e` may be assigned to (or deleted).
    void check_target(const Expr& e, const char* verb) {
        switch (e.kind) {
            case EK::Name: case EK::Attribute: case EK::Subscript: return;
            case EK::Tuple: case EK::List: {
                int stars = 0;
                for (auto& el : static_cast<const SeqExpr&>(e).elts) {
                    if (el->kind == EK::Starred) {
                        if (++stars > 1) error_at(el->span, "multiple starred expressions in assignment");
                        check_target(*static_cast<const StarredExpr&>(*el).value, verb);
                    } else {
                        check_target(*el, verb);
                    }
                }
                return;
            }
            case EK::Starred: error_at(e.span, "starred assignment target must be in a list or tuple");
            default: {
                std::string msg = std::string("cannot ") + verb + " " + target_description(e);
                if (e.kind == EK::Compare || e.kind == EK::Call) msg += " here. Maybe you meant `==` instead of `=`?";
                error_at(e.span, msg);
            }
        }
    }

    // import_stmt: 'import' dotted_name ['as' NAME] (',' dotted_name ['as' NAME])*
    StmtP parse_import() {
        Span s = advance().span;
        auto st = node<ImportStmt>(s);
        do {
            ImportStmt::Alias a;
            a.span = cur().span;
            a.module = parse_dotted_name();
            if (accept(T::As)) a.asname = expect(T::Name, "a name after `as`").text;
            a.span = Span::join(a.span, prev_span());
            a.target = std::make_unique<NameExpr>();
            a.target->id = a.asname.empty() ? a.module.substr(0, a.module.find('.')) : a.asname;
            a.target->span = a.span;
            st->names.push_back(std::move(a));
        } while (accept(T::Comma));
        return st;
    }

    std::string parse_dotted_name() {
        std::string name = expect(T::Name, "a module name").text;
        while (accept(T::Dot)) name += "." + expect(T::Name, "a name after `.`").text;
        return name;
    }

    // from_import: 'from' dotted_name 'import' ('*' | NAME ['as' NAME] (',' ...)* | '(' ... ')')
    StmtP parse_from_import() {
        Span s = advance().span;
        auto st = node<ImportFromStmt>(s);
        if (at(T::Dot)) error_here("relative imports are not supported");
        st->module = parse_dotted_name();
        expect(T::Import);
        if (accept(T::Star)) { st->star = true; return st; }
        bool paren = accept(T::LParen);
        do {
            if (paren && at(T::RParen)) break;
            ImportFromStmt::Alias a;
            a.span = cur().span;
            a.name = expect(T::Name, "a name to import").text;
            if (accept(T::As)) a.asname = expect(T::Name, "a name after `as`").text;
            a.target = std::make_unique<NameExpr>();
            a.target->id = a.asname.empty() ? a.name : a.asname;
            a.target->span = a.span;
            st->names.push_back(std::move(a));
        } while (accept(T::Comma));
        if (paren) expect(T::RParen);
        return st;
    }

    // block: NEWLINE INDENT statement+ DEDENT | simple_stmts
    Block parse_block(const char* what, Span header) {
        expect(T::Colon, "`:`");
        Block body;
        if (!at(T::Newline)) {
            if (at(T::End)) throw SyntaxError(cur().span, std::string("expected an indented block after ") + what, true);
            parse_simple_statements(body);
            return body;
        }
        advance();
        if (!at(T::Indent)) {
            // At the end of the input (past the DEDENTs that close outer
            // blocks: `def f():` then `    for ...:` in the REPL), the block
            // may still come: incomplete, not an error.
            size_t k = pos_;
            while (toks_[k].kind == T::Dedent && k + 1 < toks_.size()) ++k;
            bool inc = toks_[k].kind == T::End;
            throw SyntaxError(inc ? header : cur().span,
                              std::string("expected an indented block after ") + what + " on line " +
                                  std::to_string(header.line()), inc);
        }
        advance();
        while (!at(T::Dedent) && !at(T::End)) {
            if (at(T::Indent)) error_here("unexpected indent");
            parse_statement(body);
        }
        accept(T::Dedent);
        return body;
    }

    // if_stmt: 'if' named_expression block ('elif' named_expression block)* ['else' block]
    StmtP parse_if() {
        Span s = advance().span;
        auto st = node<IfStmt>(s);
        st->test = parse_named_expression();
        st->body = parse_block("`if` statement", s);
        if (at(T::Elif)) {
            st->orelse.push_back(parse_if());
        } else if (at(T::Else)) {
            Span es = advance().span;
            st->orelse = parse_block("`else` clause", es);
        }
        return st;
    }

    // while_stmt: 'while' named_expression block ['else' block]
    StmtP parse_while() {
        Span s = advance().span;
        auto st = node<WhileStmt>(s);
        st->test = parse_named_expression();
        ++loop_depth_;
        st->body = parse_block("`while` statement", s);
        --loop_depth_;
        if (at(T::Else)) { Span es = advance().span; st->orelse = parse_block("`else` clause", es); }
        return st;
    }

    // for_stmt: 'for' star_targets 'in' star_expressions block ['else' block]
    StmtP parse_for() {
        Span s = advance().span;
        auto st = node<ForStmt>(s);
        st->target = parse_target_list();
        expect(T::In, "`in`");
        st->iter = parse_star_expressions();
        ++loop_depth_;
        st->body = parse_block("`for` statement", s);
        --loop_depth_;
        if (at(T::Else)) { Span es = advance().span; st->orelse = parse_block("`else` clause", es); }
        return st;
    }

    // star_targets: star_target (',' star_target)* [',']   (stops before `in` / `=`)
    ExprP parse_target_list() {
        Span s = cur().span;
        std::vector<ExprP> elts;
        bool trailing = false;
        while (true) {
            ExprP t;
            if (at(T::Star)) {
                Span ss = advance().span;
                auto st = node<StarredExpr>(ss);
                st->value = parse_bitor();
                st->span = Span::join(ss, st->value->span);
                t = std::move(st);
            } else {
                t = parse_bitor();
            }
            elts.push_back(std::move(t));
            if (!accept(T::Comma)) { trailing = false; break; }
            trailing = true;
            if (at(T::In) || at(T::Assign)) break;
        }
        ExprP result;
        if (elts.size() == 1 && !trailing) result = std::move(elts[0]);
        else {
            auto tup = node<SeqExpr>(Span::join(s, prev_span()), EK::Tuple);
            tup->elts = std::move(elts);
            result = std::move(tup);
        }
        check_target(*result, "assign to");
        return result;
    }

    // decorated: ('@' named_expression NEWLINE)+ function_def
    StmtP parse_decorated() {
        std::vector<ExprP> decorators;
        while (accept(T::At)) {
            decorators.push_back(parse_named_expression());
            expect(T::Newline, "end of line after decorator");
        }
        if (at(T::Class)) return parse_class(std::move(decorators));
        if (!at(T::Def)) unexpected("`def` or `class` after decorator");
        return parse_def(std::move(decorators));
    }

    // function_def: 'def' NAME '(' [params] ')' ['->' expression] block
    StmtP parse_def(std::vector<ExprP> decorators) {
        Span s = advance().span;
        auto st = node<FunctionDefStmt>(s);
        const Token& name = expect(T::Name, "a function name");
        st->info = std::make_unique<FuncInfo>();
        FuncInfo& info = *st->info;
        info.name = name.text;
        info.span = Span::join(s, name.span);
        st->target = std::make_unique<NameExpr>();
        st->target->id = name.text;
        st->target->span = name.span;
        expect(T::LParen, "`(`");
        parse_params(info, T::RParen);
        expect(T::RParen, "`)`");
        if (accept(T::Arrow)) parse_expression();
        int saved_loops = loop_depth_;
        loop_depth_ = 0;
        ++func_depth_;
        funcs_.push_back(&info);
        info.body = parse_block("function definition", s);
        funcs_.pop_back();
        --func_depth_;
        loop_depth_ = saved_loops;
        st->decorators = std::move(decorators);
        return st;
    }

    // class_def: 'class' NAME ['(' [arguments] ')'] ':' block
    StmtP parse_class(std::vector<ExprP> decorators) {
        Span s = advance().span;
        auto st = node<ClassDefStmt>(s);
        const Token& name = expect(T::Name, "a class name");
        st->name = name.text;
        st->target = std::make_unique<NameExpr>();
        st->target->id = name.text;
        st->target->span = name.span;
        if (at(T::LParen)) {
            // The bases and keywords parse as a call's arguments.
            auto placeholder = std::make_unique<NameExpr>();
            placeholder->span = name.span;
            ExprP call = parse_call(std::move(placeholder));
            auto& c = static_cast<CallExpr&>(*call);
            st->bases = std::move(c.args);
            st->keywords = std::move(c.keywords);
        }
        // A class body is not a function: `return` and `yield` are errors
        // there, and loops outside do not reach in.
        int saved_loops = loop_depth_, saved_funcs = func_depth_;
        loop_depth_ = 0;
        func_depth_ = 0;
        funcs_.push_back(nullptr);
        st->body = parse_block("class definition", s);
        funcs_.pop_back();
        loop_depth_ = saved_loops;
        func_depth_ = saved_funcs;
        st->decorators = std::move(decorators);
        return st;
    }

    // params: param (',' param)* [',']  where param: NAME [':' expr] ['=' expr] | '*' [NAME] | '**' NAME | '/'
    void parse_params(FuncInfo& info, T closer) {
        bool seen_star = false, seen_default = false;
        while (!at(closer)) {
            Param p;
            p.span = cur().span;
            if (accept(T::Slash)) {
                if (seen_star || info.n_posonly) error_at(p.span, "`/` must come before `*` and only once");
                info.n_posonly = int(info.params.size());
            } else if (accept(T::DStar)) {
                p.kind = Param::VarKw;
                p.name = expect(T::Name, "a parameter name").text;
                if (closer == T::RParen && accept(T::Colon)) parse_expression();
                info.varkw = int(info.params.size());
                info.params.push_back(std::move(p));
                accept(T::Comma);
                if (!at(closer)) error_here("parameter after `**" + info.params.back().name + "`");
                break;
            } else if (accept(T::Star)) {
                if (seen_star) error_at(p.span, "`*` argument may appear only once");
                seen_star = true;
                if (at(T::Name)) {
                    p.kind = Param::VarArgs;
                    p.name = advance().text;
                    if (closer == T::RParen && accept(T::Colon)) parse_expression();
                    info.varargs = int(info.params.size());
                    info.params.push_back(std::move(p));
                } else if (at(T::Comma) && (peek().kind == closer)) {
                    error_at(p.span, "named arguments must follow bare `*`");
                }
            } else {
                p.name = expect(T::Name, "a parameter name").text;
                p.span = prev_span();
                if (closer == T::RParen && accept(T::Colon)) parse_expression();
                if (accept(T::Assign)) {
                    p.default_value = parse_expression();
                    if (!seen_star) seen_default = true;
                } else if (seen_default && !seen_star) {
                    error_at(p.span, "parameter without a default follows parameter with a default");
                }
                p.kind = seen_star ? Param::KwOnly : Param::Positional;
                for (auto& q : info.params)
                    if (q.name == p.name) error_at(p.span, "duplicate argument `" + p.name + "` in function definition");
                info.params.push_back(std::move(p));
            }
            if (!accept(T::Comma)) break;
        }
        info.n_positional = 0;
        for (auto& p : info.params) {
            if (p.kind == Param::Positional) ++info.n_positional;
            if (p.default_value) ++info.n_defaults;
        }
    }

    // try_stmt: 'try' block (except_block+ ['else' block] ['finally' block] | 'finally' block)
    StmtP parse_try() {
        Span s = advance().span;
        auto st = node<TryStmt>(s);
        st->body = parse_block("`try` statement", s);
        while (at(T::Except)) {
            TryStmt::Handler h;
            h.span = advance().span;
            if (!at(T::Colon)) {
                h.type = parse_expression();
                if (accept(T::Comma)) error_at(h.type->span, "multiple exception types must be parenthesized");
                if (accept(T::As)) {
                    h.name = std::make_unique<NameExpr>();
                    h.name->span = cur().span;
                    h.name->id = expect(T::Name, "a name after `as`").text;
                }
            }
            h.body = parse_block("`except` clause", h.span);
            bool bare = !h.type;
            st->handlers.push_back(std::move(h));
            if (bare && at(T::Except)) error_at(st->handlers.back().span, "default `except:` must be last");
        }
        if (at(T::Else)) {
            if (st->handlers.empty()) error_here("`else` without `except` in `try` statement");
            Span es = advance().span;
            st->orelse = parse_block("`else` clause", es);
        }
        if (at(T::Finally)) { Span fs = advance().span; st->finalbody = parse_block("`finally` clause", fs); }
        if (st->handlers.empty() && st->finalbody.empty()) {
            if (at(T::End)) throw SyntaxError(cur().span, "expected `except` or `finally` block", true);
            error_here("expected `except` or `finally` block");
        }
        return st;
    }

    // with_stmt: 'with' expression ['as' star_target] (',' ...)* block
    StmtP parse_with() {
        Span s = advance().span;
        auto st = node<WithStmt>(s);
        do {
            WithStmt::Item item;
            item.context = parse_expression();
            if (accept(T::As)) {
                item.target = parse_bitor();
                check_target(*item.target, "assign to");
            }
            st->items.push_back(std::move(item));
        } while (accept(T::Comma));
        st->body = parse_block("`with` statement", s);
        return st;
    }

    // ---- expressions ----

    // star_expressions: star_expression (',' star_expression)* [',']
    ExprP parse_star_expressions() {
        Span s = cur().span;
        ExprP first = parse_star_expression();
        if (!at(T::Comma)) return first;
        auto tup = node<SeqExpr>(s, EK::Tuple);
        tup->has_star = first->kind == EK::Starred;
        tup->elts.push_back(std::move(first));
        while (accept(T::Comma)) {
            if (!starts_expression()) break;
            ExprP e = parse_star_expression();
            tup->has_star |= e->kind == EK::Starred;
            tup->elts.push_back(std::move(e));
        }
        tup->span = Span::join(s, prev_span());
        return tup;
    }

    bool starts_expression() const {
        switch (cur().kind) {
            case T::Name: case T::Int: case T::Float: case T::Imag: case T::String: case T::LParen: case T::LBracket:
            case T::LBrace: case T::Minus: case T::Plus: case T::Tilde: case T::Not: case T::Lambda: case T::None:
            case T::True: case T::False: case T::Star: case T::Ellipsis: case T::Await:
                return true;
            default: return false;
        }
    }

    // star_expression: '*' bitor | expression
    ExprP parse_star_expression() {
        if (at(T::Star)) {
            Span s = advance().span;
            auto st = node<StarredExpr>(s);
            st->value = parse_bitor();
            st->span = Span::join(s, st->value->span);
            return st;
        }
        return parse_expression();
    }

    // named_expression: expression   (`:=` is not supported)
    ExprP parse_named_expression() {
        ExprP e = parse_expression();
        if (at(T::Walrus)) error_here("assignment expressions (`:=`) are not supported");
        return e;
    }

    // expression: disjunction ['if' disjunction 'else' expression] | lambdef
    ExprP parse_expression() {
        DepthGuard g(*this);
        if (at(T::Lambda)) return parse_lambda();
        ExprP e = parse_or();
        if (at(T::If)) {
            advance();
            auto c = node<IfExpr>(e->span);
            c->body = std::move(e);
            c->test = parse_or();
            expect(T::Else, "`else` in conditional expression");
            c->orelse = parse_expression();
            c->span = Span::join(c->body->span, c->orelse->span);
            return c;
        }
        return e;
    }

    // lambdef: 'lambda' [params] ':' expression
    ExprP parse_lambda() {
        Span s = advance().span;
        auto l = node<LambdaExpr>(s);
        l->info = std::make_unique<FuncInfo>();
        l->info->name = "<lambda>";
        l->info->span = s;
        parse_params(*l->info, T::Colon);
        expect(T::Colon, "`:`");
        ++func_depth_;
        funcs_.push_back(nullptr);
        l->info->lambda_body = parse_expression();
        funcs_.pop_back();
        --func_depth_;
        l->span = Span::join(s, l->info->lambda_body->span);
        return l;
    }

    // disjunction: conjunction ('or' conjunction)*
    ExprP parse_or() {
        ExprP e = parse_and();
        if (!at(T::Or)) return e;
        auto b = node<BoolOpExpr>(e->span);
        b->is_and = false;
        b->values.push_back(std::move(e));
        while (accept(T::Or)) { b->values.push_back(parse_and()); count_operator(b->values.back()->span); }
        b->span = Span::join(b->span, b->values.back()->span);
        return b;
    }

    // conjunction: inversion ('and' inversion)*
    ExprP parse_and() {
        ExprP e = parse_not();
        if (!at(T::And)) return e;
        auto b = node<BoolOpExpr>(e->span);
        b->is_and = true;
        b->values.push_back(std::move(e));
        while (accept(T::And)) { b->values.push_back(parse_not()); count_operator(b->values.back()->span); }
        b->span = Span::join(b->span, b->values.back()->span);
        return b;
    }

    // inversion: 'not' inversion | comparison
    ExprP parse_not() {
        if (at(T::Not)) {
            DepthGuard g(*this);
            Span s = advance().span;
            auto u = node<UnaryExpr>(s);
            u->op = UnOp::Not;
            u->operand = parse_not();
            u->span = Span::join(s, u->operand->span);
            return u;
        }
        return parse_comparison();
    }

    // comparison: bitor (compare_op bitor)*
    ExprP parse_comparison() {
        ExprP e = parse_bitor();
        std::unique_ptr<CompareExpr> c;
        while (true) {
            CmpOp op;
            switch (cur().kind) {
                case T::Lt: op = CmpOp::Lt; break;
                case T::Gt: op = CmpOp::Gt; break;
                case T::Le: op = CmpOp::Le; break;
                case T::Ge: op = CmpOp::Ge; break;
                case T::EqEq: op = CmpOp::Eq; break;
                case T::NotEq: op = CmpOp::Ne; break;
                case T::In: op = CmpOp::In; break;
                case T::Is: op = peek().kind == T::Not ? (advance(), CmpOp::IsNot) : CmpOp::Is; break;
                case T::Not:
                    if (peek().kind != T::In) return c ? std::move(c) : std::move(e);
                    advance();
                    op = CmpOp::NotIn;
                    break;
                default: if (c) return c; return e;
            }
            advance();
            if (!c) { c = node<CompareExpr>(e->span); c->first = std::move(e); }
            c->ops.push_back(op);
            c->rest.push_back(parse_bitor());
            count_operator(c->rest.back()->span);
            c->span = Span::join(c->span, c->rest.back()->span);
        }
    }

    void count_operator(const Span& at) {
        if (++operators_ > kMaxOperators)
            throw SyntaxError(at, "statement is too complex: more than " + std::to_string(kMaxOperators) + " operators");
    }

    ExprP make_binop(BinOp op, ExprP l, ExprP r) {
        count_operator(r->span);
        auto b = node<BinOpExpr>(Span::join(l->span, r->span));
        b->op = op;
        b->left = std::move(l);
        b->right = std::move(r);
        return b;
    }

    // bitor: bitxor ('|' bitxor)*
    ExprP parse_bitor() {
        ExprP e = parse_bitxor();
        while (accept(T::Pipe)) e = make_binop(BinOp::BitOr, std::move(e), parse_bitxor());
        return e;
    }
    // bitxor: bitand ('^' bitand)*
    ExprP parse_bitxor() {
        ExprP e = parse_bitand();
        while (accept(T::Caret)) e = make_binop(BinOp::BitXor, std::move(e), parse_bitand());
        return e;
    }
    // bitand: shift ('&' shift)*
    ExprP parse_bitand() {
        ExprP e = parse_shift();
        while (accept(T::Amp)) e = make_binop(BinOp::BitAnd, std::move(e), parse_shift());
        return e;
    }
    // shift: sum (('<<' | '>>') sum)*
    ExprP parse_shift() {
        ExprP e = parse_sum();
        while (at(T::LShift) || at(T::RShift)) {
            BinOp op = advance().kind == T::LShift ? BinOp::LShift : BinOp::RShift;
            e = make_binop(op, std::move(e), parse_sum());
        }
        return e;
    }
    // sum: term (('+' | '-') term)*
    ExprP parse_sum() {
        ExprP e = parse_term();
        while (at(T::Plus) || at(T::Minus)) {
            BinOp op = advance().kind == T::Plus ? BinOp::Add : BinOp::Sub;
            e = make_binop(op, std::move(e), parse_term());
        }
        return e;
    }
    // term: factor (('*' | '/' | '//' | '%' | '@') factor)*
    ExprP parse_term() {
        ExprP e = parse_factor();
        while (true) {
            BinOp op;
            switch (cur().kind) {
                case T::Star: op = BinOp::Mul; break;
                case T::Slash: op = BinOp::Div; break;
                case T::DSlash: op = BinOp::FloorDiv; break;
                case T::Percent: op = BinOp::Mod; break;
                case T::At: op = BinOp::MatMul; break;
                default: return e;
            }
            advance();
            e = make_binop(op, std::move(e), parse_factor());
        }
    }
    // factor: ('+' | '-' | '~') factor | power
    ExprP parse_factor() {
        if (at(T::Plus) || at(T::Minus) || at(T::Tilde)) {
            DepthGuard g(*this);
            const Token& t = advance();
            Span s = t.span;
            UnOp op = t.kind == T::Plus ? UnOp::Pos : t.kind == T::Minus ? UnOp::Neg : UnOp::Invert;
            ExprP operand = parse_factor();
            // Fold `-<number literal>` so that -9223372036854775808 is representable.
            if (op == UnOp::Neg && operand->kind == EK::Const) {
                auto* c = static_cast<ConstExpr*>(operand.get());
                if (c->value.is_float()) { c->value = Value::real(-c->value.f); c->span = Span::join(s, c->span); return operand; }
                if (c->value.is_int() && c->value.i != INT64_MIN) {
                    c->value = Value::integer(-c->value.i);
                    c->span = Span::join(s, c->span);
                    return operand;
                }
            }
            auto u = node<UnaryExpr>(Span::join(s, operand->span));
            u->op = op;
            u->operand = std::move(operand);
            return u;
        }
        return parse_power();
    }
    // power: primary ['**' factor]
    ExprP parse_power() {
        ExprP e = parse_primary();
        if (accept(T::DStar)) {
            DepthGuard g(*this);
            e = make_binop(BinOp::Pow, std::move(e), parse_factor());
        }
        return e;
    }

    // primary: atom ('.' NAME | '(' arguments ')' | '[' slices ']')*
    ExprP parse_primary() {
        ExprP e = parse_atom();
        while (true) {
            if (at(T::Dot)) {
                advance();
                auto a = node<AttributeExpr>(e->span);
                a->attr_span = cur().span;
                a->attr = expect(T::Name, "an attribute name after `.`").text;
                a->value = std::move(e);
                a->span = Span::join(a->span, a->attr_span);
                e = std::move(a);
            } else if (at(T::LParen)) {
                e = parse_call(std::move(e));
            } else if (at(T::LBracket)) {
                DepthGuard g(*this);
                advance();
                auto sub = node<SubscriptExpr>(e->span);
                sub->value = std::move(e);
                sub->index = parse_slices();
                expect(T::RBracket, "`]`");
                sub->span = Span::join(sub->span, prev_span());
                e = std::move(sub);
            } else {
                return e;
            }
        }
    }

    // slices: slice (',' slice)* [',']   slice: [expr] ':' [expr] [':' [expr]] | star_expression
    ExprP parse_slices() {
        Span s = cur().span;
        ExprP first = parse_slice();
        if (!at(T::Comma)) return first;
        auto tup = node<SeqExpr>(s, EK::Tuple);
        tup->elts.push_back(std::move(first));
        while (accept(T::Comma)) {
            if (at(T::RBracket)) break;
            tup->elts.push_back(parse_slice());
        }
        tup->span = Span::join(s, prev_span());
        return tup;
    }

    ExprP parse_slice() {
        Span s = cur().span;
        ExprP lower;
        if (!at(T::Colon)) {
            lower = parse_star_expression();
            if (!at(T::Colon)) return lower;
        }
        auto sl = node<SliceExpr>(s);
        sl->lower = std::move(lower);
        expect(T::Colon);
        if (!at(T::Colon) && !at(T::Comma) && !at(T::RBracket)) sl->upper = parse_expression();
        if (accept(T::Colon))
            if (!at(T::Comma) && !at(T::RBracket)) sl->step = parse_expression();
        sl->span = Span::join(s, prev_span());
        return sl;
    }

    // call: primary '(' [arg (',' arg)* [',']] ')'
    // arg: expression ['for' ...] | '*' expression | NAME '=' expression | '**' expression
    ExprP parse_call(ExprP func) {
        DepthGuard g(*this);
        Span open = advance().span;
        auto c = node<CallExpr>(func->span);
        c->bare_super = func->kind == EK::Name && static_cast<const NameExpr&>(*func).id == "super" && at(T::RParen);
        c->func = std::move(func);
        bool seen_kw = false;
        while (!at(T::RParen)) {
            Span as = cur().span;
            if (accept(T::DStar)) {
                Keyword k;
                k.span = as;
                k.value = parse_expression();
                c->keywords.push_back(std::move(k));
                c->simple = false;
                seen_kw = true;
            } else if (at(T::Star)) {
                Span ss = advance().span;
                auto st = node<StarredExpr>(ss);
                st->value = parse_expression();
                st->span = Span::join(ss, st->value->span);
                c->args.push_back(std::move(st));
                c->simple = false;
            } else if (at(T::Name) && peek().kind == T::Assign) {
                Keyword k;
                k.span = as;
                k.name = advance().text;
                advance();
                k.value = parse_expression();
                for (auto& other : c->keywords)
                    if (other.name == k.name) error_at(as, "keyword argument repeated: `" + k.name + "`");
                c->keywords.push_back(std::move(k));
                c->simple = false;
                seen_kw = true;
            } else {
                ExprP e = parse_named_expression();
                if (at(T::For)) {
                    e = make_genexpr(parse_comprehension_tail(ComprehensionExpr::Generator, std::move(e), nullptr, as));
                    if (!c->args.empty() || at(T::Comma))
                        if (!(at(T::Comma) && peek().kind == T::RParen && c->args.empty()))
                            error_at(e->span, "generator expression must be parenthesized");
                }
                if (seen_kw) error_at(e->span, "positional argument follows keyword argument");
                c->args.push_back(std::move(e));
            }
            if (!accept(T::Comma)) break;
        }
        if (!at(T::RParen)) {
            if (at(T::End)) throw SyntaxError(open, "`(` was never closed; expected `)`", true);
            SyntaxError e(cur().span, "invalid syntax: expected `)` or `,` after argument, found " + describe(cur()) +
                                          (cur().kind == T::Name || cur().kind == T::Int || cur().kind == T::String
                                               ? " (missing comma?)" : ""));
            e.notes.push_back({open, "to match this `(`"});
            throw e;
        }
        advance();
        c->span = Span::join(c->span, prev_span());
        return c;
    }

    // comprehension tail: ('for' star_targets 'in' disjunction ('if' disjunction)*)+
    ExprP parse_comprehension_tail(ComprehensionExpr::Kind kind, ExprP elt, ExprP value, Span s) {
        auto comp = node<ComprehensionExpr>(s);
        comp->comp_kind = kind;
        comp->elt = std::move(elt);
        comp->value = std::move(value);
        while (accept(T::For)) {
            ComprehensionExpr::Clause g;
            g.target = parse_target_list();
            expect(T::In, "`in`");
            g.iter = parse_or();
            while (accept(T::If)) g.ifs.push_back(parse_or());
            comp->generators.push_back(std::move(g));
        }
        comp->span = Span::join(s, prev_span());
        return comp;
    }

    // atom: NAME | NUMBER | STRING+ | 'None' | 'True' | 'False' | '...' | tuple/group/genexp | list/listcomp
    //     | dict/set/comprehensions
    ExprP parse_atom() {
        const Token& t = cur();
        Span s = t.span;
        switch (t.kind) {
            case T::Name: {
                auto n = node<NameExpr>(s);
                n->id = t.text;
                advance();
                return n;
            }
            case T::Int: return constant(s, Value::integer(advance().ival));
            case T::Float: return constant(s, Value::real(advance().fval));
            case T::Imag: return constant(s, make_complex(0.0, advance().fval));
            case T::True: advance(); return constant(s, Value::boolean(true));
            case T::False: advance(); return constant(s, Value::boolean(false));
            case T::None: advance(); return constant(s, Value::none());
            case T::Ellipsis: advance(); return node<EllipsisExpr>(s);
            case T::String: return parse_strings();
            case T::LParen: return parse_paren();
            case T::LBracket: return parse_list();
            case T::LBrace: return parse_brace();
            case T::Yield: return parse_yield();
            case T::Await: error_here("`await` is not supported");
            default: unexpected("an expression");
        }
    }

    // A generator expression as a generator function (GenExpr): parameter
    // `.0` is the first iterable's iterator; the body is the loops and
    // conditions around `yield elt`.
    ExprP make_genexpr(ExprP comp_expr) {
        auto& c = static_cast<ComprehensionExpr&>(*comp_expr);
        auto g = node<GenExpr>(c.span);
        auto info = std::make_unique<FuncInfo>();
        info->name = "<genexpr>";
        info->span = c.span;
        info->is_generator = true;
        Param p;
        p.name = ".0";
        p.span = c.span;
        info->params.push_back(std::move(p));
        info->n_positional = 1;
        auto y = node<YieldExpr>(c.elt->span);
        y->value = std::move(c.elt);
        auto inner = node<ExprStmt>(y->span);
        inner->value = std::move(y);
        StmtP body = std::move(inner);
        for (size_t k = c.generators.size(); k-- > 0;) {
            auto& clause = c.generators[k];
            for (size_t i = clause.ifs.size(); i-- > 0;) {
                auto cond = node<IfStmt>(clause.ifs[i]->span);
                cond->test = std::move(clause.ifs[i]);
                cond->body.push_back(std::move(body));
                body = std::move(cond);
            }
            auto loop = node<ForStmt>(clause.target->span);
            loop->target = std::move(clause.target);
            if (k == 0) {
                g->first_iter = std::move(clause.iter);
                auto arg = node<NameExpr>(g->first_iter->span);
                arg->id = ".0";
                loop->iter = std::move(arg);
            } else {
                loop->iter = std::move(clause.iter);
            }
            loop->body.push_back(std::move(body));
            body = std::move(loop);
        }
        info->body.push_back(std::move(body));
        g->info = std::move(info);
        return g;
    }

    // yield_expr: 'yield' 'from' expression | 'yield' [star_expressions]
    ExprP parse_yield() {
        Span s = advance().span;
        if (funcs_.empty() || !funcs_.back()) error_at(s, funcs_.empty() ? "`yield` outside function" : "`yield` inside a lambda or class body");
        funcs_.back()->is_generator = true;
        auto y = node<YieldExpr>(s);
        if (accept(T::From)) {
            y->from = true;
            y->value = parse_expression();
        } else if (!at_stmt_end() && !at(T::RParen) && !at(T::RBracket) && !at(T::RBrace) && !at(T::Assign) && !at(T::Colon)) {
            y->value = parse_star_expressions();
        }
        y->span = Span::join(s, prev_span());
        return y;
    }

    ExprP constant(Span s, Value v) {
        auto c = node<ConstExpr>(s);
        c->value = std::move(v);
        return c;
    }

    // STRING+: adjacent literals concatenate; any f-string makes the whole an f-string.
    ExprP parse_strings() {
        Span s = cur().span;
        bool any_f = false;
        size_t k = pos_;
        while (toks_[k].kind == T::String) any_f |= toks_[k++].fstring;
        if (!any_f) {
            std::string text;
            while (at(T::String)) text += advance().text;
            return constant(Span::join(s, prev_span()), make_str(std::move(text)));
        }
        auto fs = node<FStringExpr>(s);
        while (at(T::String)) {
            const Token& tk = advance();
            if (!tk.fstring) add_literal(*fs, tk.text);
            else parse_fstring_body(*fs, tk.text, tk.body_offset, tk.raw, 0);
        }
        fs->span = Span::join(s, prev_span());
        return fs;
    }

    static void add_literal(FStringExpr& fs, std::string text) {
        if (text.empty()) return;
        if (!fs.parts.empty() && !fs.parts.back().expr) { fs.parts.back().literal += text; return; }
        FStringExpr::Part p;
        p.literal = std::move(text);
        fs.parts.push_back(std::move(p));
    }

    // Splits an f-string body into literal text and {expr[=][!conv][:spec]} fields.
    void parse_fstring_body(FStringExpr& fs, std::string_view body, uint32_t offset, bool raw, int nesting) {
        if (nesting > 2) throw SyntaxError(Span{&file_, offset, offset + 1}, "f-string: expressions nested too deeply");
        std::string lit;
        uint32_t lit_start = 0;
        auto flush = [&](uint32_t at) {
            if (lit.empty()) return;
            add_literal(fs, raw ? lit : decode_string_escapes(file_, lit, offset + lit_start));
            lit.clear();
            (void)at;
        };
        for (uint32_t i = 0; i < body.size(); ++i) {
            char c = body[i];
            if (c == '{' && i + 1 < body.size() && body[i + 1] == '{') { if (lit.empty()) lit_start = i; lit += '{'; ++i; continue; }
            if (c == '}' && i + 1 < body.size() && body[i + 1] == '}') { if (lit.empty()) lit_start = i; lit += '}'; ++i; continue; }
            if (c == '}') throw SyntaxError(Span{&file_, offset + i, offset + i + 1}, "f-string: single `}` is not allowed");
            if (c != '{') {
                if (lit.empty()) lit_start = i;
                lit += c;
                if (c == '\\' && !raw && i + 1 < body.size()) lit += body[++i];
                continue;
            }
            flush(i);
            // Find the end of the expression: `!`, `:`, `=` or `}` at bracket depth 0.
            uint32_t e_begin = i + 1, j = e_begin;
            int depth = 0;
            char quote = 0;
            for (; j < body.size(); ++j) {
                char d = body[j];
                if (quote) { if (d == quote) quote = 0; continue; }
                if (d == '\'' || d == '"') { quote = d; continue; }
                if (d == '(' || d == '[' || d == '{') ++depth;
                else if (d == ')' || d == ']' || (d == '}' && depth > 0)) --depth;
                else if (depth == 0 && (d == '}' || d == ':' || (d == '!' && j + 1 < body.size() && body[j + 1] != '=')))
                    break;
            }
            if (j >= body.size())
                throw SyntaxError(Span{&file_, offset + i, offset + i + 1}, "f-string: expecting `}`");
            uint32_t e_end = j;
            FStringExpr::Part part;
            // f"{x=}": self-documenting field
            {
                uint32_t k = e_end;
                while (k > e_begin && (body[k - 1] == ' ')) --k;
                if (k > e_begin && body[k - 1] == '=' && !(k >= e_begin + 2 && std::strchr("=!<>", body[k - 2]))) {
                    part.self_doc = std::string(body.substr(e_begin, e_end - e_begin));
                    e_end = k - 1;
                    part.conversion = 'r';
                }
            }
            std::string_view expr_text = body.substr(e_begin, e_end - e_begin);
            if (expr_text.find_first_not_of(" \t\n") == std::string_view::npos)
                throw SyntaxError(Span{&file_, offset + i, offset + j + 1}, "f-string: empty expression not allowed");
            std::vector<Token> toks = tokenize_range(file_, offset + e_begin, offset + e_end);
            Parser sub(file_, std::move(toks), opts_);
            sub.depth_ = depth_ + 1;
            sub.func_depth_ = func_depth_;
            sub.funcs_ = funcs_;
            part.expr = sub.parse_lone_expression();
            if (body[j] == '!') {
                if (j + 1 >= body.size() || !std::strchr("rsa", body[j + 1]))
                    throw SyntaxError(Span{&file_, offset + j, offset + j + 2}, "f-string: invalid conversion character: expected `s`, `r`, or `a`");
                part.conversion = body[j + 1];
                j += 2;
            }
            if (j < body.size() && body[j] == ':') {
                uint32_t s_begin = j + 1, k = s_begin;
                int d = 0;
                for (; k < body.size(); ++k) {
                    if (body[k] == '{') ++d;
                    else if (body[k] == '}') { if (d == 0) break; --d; }
                }
                if (k >= body.size()) throw SyntaxError(Span{&file_, offset + i, offset + i + 1}, "f-string: expecting `}`");
                part.spec = std::make_unique<FStringExpr>();
                part.spec->span = Span{&file_, offset + s_begin, offset + k};
                parse_fstring_body(*part.spec, body.substr(s_begin, k - s_begin), offset + s_begin, raw, nesting + 1);
                j = k;
            }
            if (j >= body.size() || body[j] != '}')
                throw SyntaxError(Span{&file_, offset + j, offset + j + 1}, "f-string: expecting `}`");
            if (!part.self_doc.empty()) add_literal(fs, part.self_doc), part.conversion = part.spec ? part.conversion : part.conversion;
            fs.parts.push_back(std::move(part));
            i = j;
        }
        flush(uint32_t(body.size()));
    }

    // '(' ')' | '(' star_expression ')' | '(' star_expression ',' ... ')' | '(' expression comprehension ')'
    ExprP parse_paren() {
        DepthGuard g(*this);
        Span open = advance().span;
        if (accept(T::RParen)) return node<SeqExpr>(Span::join(open, prev_span()), EK::Tuple);
        ExprP first = parse_star_expression();
        if (at(T::Walrus)) error_here("assignment expressions (`:=`) are not supported");
        if (at(T::For)) {
            ExprP comp = parse_comprehension_tail(ComprehensionExpr::Generator, std::move(first), nullptr, open);
            close(T::RParen, open);
            comp->span = Span::join(open, prev_span());
            return make_genexpr(std::move(comp));
        }
        if (at(T::RParen)) {
            advance();
            if (first->kind == EK::Starred) error_at(first->span, "cannot use starred expression here");
            return first;  // plain grouping keeps the inner span for carets
        }
        auto tup = node<SeqExpr>(open, EK::Tuple);
        tup->has_star = first->kind == EK::Starred;
        tup->elts.push_back(std::move(first));
        while (accept(T::Comma)) {
            if (at(T::RParen)) break;
            ExprP e = parse_star_expression();
            tup->has_star |= e->kind == EK::Starred;
            tup->elts.push_back(std::move(e));
        }
        close(T::RParen, open);
        tup->span = Span::join(open, prev_span());
        return tup;
    }

    void close(T closer, Span open) {
        if (at(closer)) { advance(); return; }
        if (at(T::End)) throw SyntaxError(open, std::string("`") + token_text(T(int(closer) - 1)) +
                                                    "` was never closed; expected `" + token_text(closer) + "`", true);
        SyntaxError e(cur().span, std::string("invalid syntax: expected `") + token_text(closer) + "` or `,`, found " +
                                      describe(cur()) +
                                      (cur().kind == T::Name || cur().kind == T::Int || cur().kind == T::String
                                           ? " (missing comma?)" : ""));
        e.notes.push_back({open, "to match this bracket"});
        throw e;
    }

    // '[' [star_expression (',' star_expression)* [',']] ']' | '[' expression comprehension ']'
    ExprP parse_list() {
        DepthGuard g(*this);
        Span open = advance().span;
        auto list = node<SeqExpr>(open, EK::List);
        if (!at(T::RBracket)) {
            ExprP first = parse_star_expression();
            if (at(T::For)) {
                ExprP comp = parse_comprehension_tail(ComprehensionExpr::List, std::move(first), nullptr, open);
                close(T::RBracket, open);
                comp->span = Span::join(open, prev_span());
                return comp;
            }
            list->has_star = first->kind == EK::Starred;
            list->elts.push_back(std::move(first));
            while (accept(T::Comma)) {
                if (at(T::RBracket)) break;
                ExprP e = parse_star_expression();
                list->has_star |= e->kind == EK::Starred;
                list->elts.push_back(std::move(e));
            }
        }
        close(T::RBracket, open);
        list->span = Span::join(open, prev_span());
        return list;
    }

    // '{' '}' | '{' kvpair (',' kvpair)* '}' | '{' star_expression (',' ...)* '}' | dict/set comprehension
    ExprP parse_brace() {
        DepthGuard g(*this);
        Span open = advance().span;
        if (accept(T::RBrace)) return node<DictExpr>(Span::join(open, prev_span()));
        if (at(T::DStar) || !at(T::Star)) {
            ExprP key;
            ExprP value;
            if (accept(T::DStar)) {
                value = parse_bitor();
            } else {
                key = parse_expression();
                if (!at(T::Colon)) return parse_set_rest(open, std::move(key));
                advance();
                value = parse_expression();
                if (at(T::For)) {
                    ExprP comp = parse_comprehension_tail(ComprehensionExpr::Dict, std::move(key), std::move(value), open);
                    close(T::RBrace, open);
                    comp->span = Span::join(open, prev_span());
                    return comp;
                }
            }
            auto d = node<DictExpr>(open);
            d->keys.push_back(std::move(key));
            d->values.push_back(std::move(value));
            while (accept(T::Comma)) {
                if (at(T::RBrace)) break;
                if (accept(T::DStar)) {
                    d->keys.push_back(nullptr);
                    d->values.push_back(parse_bitor());
                    continue;
                }
                d->keys.push_back(parse_expression());
                expect(T::Colon, "`:` in dict display");
                d->values.push_back(parse_expression());
            }
            close(T::RBrace, open);
            d->span = Span::join(open, prev_span());
            return d;
        }
        return parse_set_rest(open, parse_star_expression());
    }

    ExprP parse_set_rest(Span open, ExprP first) {
        if (at(T::For)) {
            ExprP comp = parse_comprehension_tail(ComprehensionExpr::Set, std::move(first), nullptr, open);
            close(T::RBrace, open);
            comp->span = Span::join(open, prev_span());
            return comp;
        }
        auto set = node<SeqExpr>(open, EK::Set);
        set->has_star = first->kind == EK::Starred;
        set->elts.push_back(std::move(first));
        while (accept(T::Comma)) {
            if (at(T::RBrace)) break;
            ExprP e = parse_star_expression();
            set->has_star |= e->kind == EK::Starred;
            set->elts.push_back(std::move(e));
        }
        close(T::RBrace, open);
        set->span = Span::join(open, prev_span());
        return set;
    }
};

}  // namespace

std::shared_ptr<Program> parse_program(std::shared_ptr<SourceFile> file, const ParseOptions& opts) {
    auto prog = std::make_shared<Program>();
    prog->file = std::move(file);
    std::vector<Token> toks = tokenize(*prog->file);
    Parser p(*prog->file, std::move(toks), opts);
    prog->body = p.parse_file();
    return prog;
}

}  // namespace gpy
