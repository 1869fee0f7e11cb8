// The syntax tree. Nodes evaluate themselves (a tree-walking interpreter):
// Expr::eval returns a Value, Stmt::exec returns how control leaves it. The
// resolver (resolver.cpp) annotates names with their storage slot before the
// first run, so no variable access looks a string up.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/source_position.h"
#include "lang/source.h"
#include "lang/value.h"

namespace gpy {

class Interp;
struct Frame;
struct FunctionObj;

enum class BinOp : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, BitAnd, BitOr, BitXor, LShift, RShift };
enum class UnOp : uint8_t { Neg, Pos, Invert, Not };
enum class CmpOp : uint8_t { Lt, Gt, Le, Ge, Eq, Ne, In, NotIn, Is, IsNot };
const char* binop_symbol(BinOp op);
const char* cmpop_symbol(CmpOp op);

enum class EK : uint8_t {
    Const, FString, Name, Tuple, List, Set, Dict, BinOp, UnaryOp, BoolOp, Compare, IfExp, Call, Attribute,
    Subscript, Slice, Lambda, Comprehension, Starred, Ellipsis, Kernel, Yield, GenExpr
};

struct Node {
    Span span;
    virtual ~Node() = default;
};

struct Expr : Node {
    EK kind;
    explicit Expr(EK k) : kind(k) {}
    virtual Value eval(Frame& f) const = 0;
};
using ExprP = std::unique_ptr<Expr>;

struct ConstExpr : Expr {
    Value value;
    ConstExpr() : Expr(EK::Const) {}
    Value eval(Frame&) const override { return value; }
};

// The value of a `kernel NAME(params):` block (docs/kernels.md): the array
// module's RawKernel for the CUDA C++ it spells, compiled when the block
// runs; `kernel NAME` parses as `NAME = <this>`. A compile error points at
// its line and column inside the block.
struct KernelExpr : Expr {
    std::string name, params, body;
    uint32_t params_offset = 0, body_offset = 0;
    KernelExpr() : Expr(EK::Kernel) {}
    Value eval(Frame& f) const override;
};

struct EllipsisExpr : Expr {
    EllipsisExpr() : Expr(EK::Ellipsis) {}
    Value eval(Frame& f) const override;
};

// f"text {expr!r:spec} more"
struct FStringExpr : Expr {
    struct Part {
        std::string literal;          // used when expr is null
        ExprP expr;
        char conversion = 0;          // 0, 'r', 's', 'a'
        std::unique_ptr<FStringExpr> spec;  // format spec (itself may hold {fields})
        std::string self_doc;         // f"{x=}" prefix text
    };
    std::vector<Part> parts;
    FStringExpr() : Expr(EK::FString) {}
    Value eval(Frame& f) const override;
};

// Where a name lives, decided by the resolver.
// Class: a name a class body binds, in the class's namespace (Frame::class_ns);
// a load that misses it reads the global `index`, then the builtin.
enum class NameScope : uint8_t { Unresolved, Local, Cell, Free, Global, Class };

struct NameExpr : Expr {
    std::string id;
    NameScope scope = NameScope::Unresolved;
    int index = -1;
    const Value* builtin = nullptr;  // fallback when a global slot is unbound
    NameExpr() : Expr(EK::Name) {}
    Value eval(Frame& f) const override;
    void store(Frame& f, Value v) const;
    void erase(Frame& f) const;
};

// `yield value` / `yield from iterable` in a generator function's body
// (lang/generators.cpp).
struct YieldExpr : Expr {
    ExprP value;  // null: yield None
    bool from = false;
    YieldExpr() : Expr(EK::Yield) {}
    Value eval(Frame& f) const override;
};

struct StarredExpr : Expr {
    ExprP value;
    StarredExpr() : Expr(EK::Starred) {}
    Value eval(Frame& f) const override;
};

// Tuple, list and set displays (elements may be Starred).
struct SeqExpr : Expr {
    std::vector<ExprP> elts;
    bool has_star = false;
    // A tuple of constants is made once and shared, as CPython's are
    // (immutable: no one can tell). Set by the first eval.
    mutable Value constant;
    mutable bool constant_checked = false;
    explicit SeqExpr(EK k) : Expr(k) {}
    Value eval(Frame& f) const override;
};

struct DictExpr : Expr {
    std::vector<ExprP> keys;  // null key = `**mapping` in values
    std::vector<ExprP> values;
    DictExpr() : Expr(EK::Dict) {}
    Value eval(Frame& f) const override;
};

struct BinOpExpr : Expr {
    BinOp op;
    ExprP left, right;
    BinOpExpr() : Expr(EK::BinOp) {}
    Value eval(Frame& f) const override;
};

struct UnaryExpr : Expr {
    UnOp op;
    ExprP operand;
    UnaryExpr() : Expr(EK::UnaryOp) {}
    Value eval(Frame& f) const override;
};

struct BoolOpExpr : Expr {
    bool is_and;
    std::vector<ExprP> values;
    BoolOpExpr() : Expr(EK::BoolOp) {}
    Value eval(Frame& f) const override;
};

struct CompareExpr : Expr {
    ExprP first;
    std::vector<CmpOp> ops;
    std::vector<ExprP> rest;
    CompareExpr() : Expr(EK::Compare) {}
    Value eval(Frame& f) const override;
};

struct IfExpr : Expr {
    ExprP test, body, orelse;
    IfExpr() : Expr(EK::IfExp) {}
    Value eval(Frame& f) const override;
};

struct Keyword {
    std::string name;  // empty for `**mapping`
    ExprP value;
    Span span;
};

struct ComprehensionExpr;

struct CallExpr : Expr {
    ExprP func;
    std::vector<ExprP> args;  // may contain Starred
    std::vector<Keyword> keywords;
    bool simple = true;       // no *args / **kwargs / keywords: the fast path
    bool bare_super = false;  // `super()`: the builtin gets the method's class and first argument
    CallExpr() : Expr(EK::Call) {}
    Value eval(Frame& f) const override;
};

struct TypeObject;

struct AttributeExpr : Expr {
    ExprP value;
    std::string attr;
    Span attr_span;
    // Inline cache for method calls on built-in types (whose method tables
    // never change after start-up): the last receiver type and its method.
    mutable const TypeObject* cached_type = nullptr;
    mutable const Value* cached_method = nullptr;
    AttributeExpr() : Expr(EK::Attribute) {}
    Value eval(Frame& f) const override;
    void store(Frame& f, Value v) const;
};

struct SliceExpr : Expr {
    ExprP lower, upper, step;
    SliceExpr() : Expr(EK::Slice) {}
    Value eval(Frame& f) const override;
};

struct SubscriptExpr : Expr {
    ExprP value, index;
    SubscriptExpr() : Expr(EK::Subscript) {}
    Value eval(Frame& f) const override;
    void store(Frame& f, Value v) const;
    void erase(Frame& f) const;
};

struct Stmt;
using StmtP = std::unique_ptr<Stmt>;
using Block = std::vector<StmtP>;

// How a closure variable of an inner function is found in the defining frame.
struct ClosureSource {
    bool from_free;  // true: the definer's own free variable; false: its cell slot
    int index;
};

struct Param {
    std::string name;
    ExprP default_value;  // may be null
    enum Kind : uint8_t { Positional, VarArgs, KwOnly, VarKw } kind = Positional;
    Span span;
    int slot = -1;
};

// Everything a def or lambda needs at run time (shared by all its closures).
struct FuncInfo {
    std::string name;
    std::string qualname;
    Span span;
    std::vector<Param> params;
    int n_positional = 0;      // params before *args / bare *
    int n_posonly = 0;         // params before `/`
    int varargs = -1, varkw = -1;  // param index of *args / **kwargs
    int n_defaults = 0;
    Block body;
    ExprP lambda_body;         // set for lambdas
    int nslots = 0;            // locals + hidden temporaries
    std::vector<int> cell_slots;      // local slots that hold a CellObj
    std::vector<bool> slot_is_cell;
    std::vector<ClosureSource> free_sources;  // one per free variable
    std::vector<std::string> free_names;
    std::vector<std::string> slot_names;
    bool simple_args = false;  // only positional params, no defaults: fast call
    bool is_generator = false; // its body yields: a call makes a generator
};

struct LambdaExpr : Expr {
    std::unique_ptr<FuncInfo> info;
    LambdaExpr() : Expr(EK::Lambda) {}
    Value eval(Frame& f) const override;
};

// (elt for target in iter if cond ...): lazy, as Python's. The parser makes
// it a generator function of one parameter (the first iterable's iterator,
// evaluated where the expression is) whose body is the loops around
// `yield elt`.
struct GenExpr : Expr {
    ExprP first_iter;
    std::unique_ptr<FuncInfo> info;
    GenExpr() : Expr(EK::GenExpr) {}
    Value eval(Frame& f) const override;
};

// [elt for ...], {elt for ...}, {k: v for ...}, (elt for ...) as an argument.
// Comprehension variables live in hidden slots of the enclosing frame
// (PEP 709 inlining), so no function call happens per comprehension.
struct ComprehensionExpr : Expr {
    enum Kind : uint8_t { List, Set, Dict, Generator } comp_kind;
    ExprP elt, value;  // value only for dict comprehensions
    struct Clause {
        ExprP target, iter;
        std::vector<ExprP> ifs;
    };
    std::vector<Clause> generators;
    ComprehensionExpr() : Expr(EK::Comprehension) {}
    Value eval(Frame& f) const override;
};

// ---- statements ----

enum class Flow : uint8_t { Normal, Break, Continue, Return };

enum class SK : uint8_t {
    Expr, Assign, AugAssign, Del, Pass, Break, Continue, Return, If, While, For, FunctionDef, Global, Nonlocal,
    With, Try, Raise, Assert, Import, ImportFrom, ClassDef, AnnAssign
};

struct Stmt : Node, SourcePosition {
    SK kind;
    explicit Stmt(SK k) : kind(k) {}
    virtual Flow exec(Frame& f) const = 0;
    int source_line() const override { return span.line(); }
};

struct ExprStmt : Stmt {
    ExprP value;
    bool echo = false;  // REPL: print repr of the value and bind `_`
    ExprStmt() : Stmt(SK::Expr) {}
    Flow exec(Frame& f) const override;
};

struct AssignStmt : Stmt {
    std::vector<ExprP> targets;  // a = b = value
    ExprP value;
    AssignStmt() : Stmt(SK::Assign) {}
    Flow exec(Frame& f) const override;
};

struct AugAssignStmt : Stmt {
    ExprP target;
    BinOp op;
    ExprP value;
    AugAssignStmt() : Stmt(SK::AugAssign) {}
    Flow exec(Frame& f) const override;
};

struct DelStmt : Stmt {
    std::vector<ExprP> targets;
    DelStmt() : Stmt(SK::Del) {}
    Flow exec(Frame& f) const override;
};

struct SimpleStmt : Stmt {  // pass, break, continue
    explicit SimpleStmt(SK k) : Stmt(k) {}
    Flow exec(Frame&) const override {
        return kind == SK::Break ? Flow::Break : kind == SK::Continue ? Flow::Continue : Flow::Normal;
    }
};

struct ReturnStmt : Stmt {
    ExprP value;
    ReturnStmt() : Stmt(SK::Return) {}
    Flow exec(Frame& f) const override;
};

struct IfStmt : Stmt {
    ExprP test;
    Block body, orelse;
    IfStmt() : Stmt(SK::If) {}
    Flow exec(Frame& f) const override;
};

struct WhileStmt : Stmt {
    ExprP test;
    Block body, orelse;
    WhileStmt() : Stmt(SK::While) {}
    Flow exec(Frame& f) const override;
};

struct ForStmt : Stmt {
    ExprP target, iter;
    Block body, orelse;
    ForStmt() : Stmt(SK::For) {}
    Flow exec(Frame& f) const override;
};

struct FunctionDefStmt : Stmt {
    std::unique_ptr<FuncInfo> info;
    std::unique_ptr<NameExpr> target;  // the name the function is bound to
    std::vector<ExprP> decorators;     // applied bottom-up: f = d1(d2(f))
    FunctionDefStmt() : Stmt(SK::FunctionDef) {}
    Flow exec(Frame& f) const override;
};

// NAME: annotation [= value]. In a class body the annotation is evaluated
// and recorded in the class's __annotations__ (dataclasses read it); else
// it is not evaluated.
struct AnnAssignStmt : Stmt {
    std::unique_ptr<NameExpr> target;
    ExprP annotation, value;  // value may be null
    AnnAssignStmt() : Stmt(SK::AnnAssign) {}
    Flow exec(Frame& f) const override;
};

// class NAME(bases, keywords): body (lang/classes.cpp)
struct ClassDefStmt : Stmt {
    std::string name, qualname;
    std::unique_ptr<NameExpr> target;  // the name the class is bound to
    std::vector<ExprP> bases;
    std::vector<Keyword> keywords;     // metaclass=... and the like
    Block body;
    std::vector<ExprP> decorators;
    ClassDefStmt() : Stmt(SK::ClassDef) {}
    Flow exec(Frame& f) const override;
};

struct ScopeDeclStmt : Stmt {  // global / nonlocal
    std::vector<std::string> names;
    explicit ScopeDeclStmt(SK k) : Stmt(k) {}
    Flow exec(Frame&) const override { return Flow::Normal; }
};

struct WithStmt : Stmt {
    struct Item {
        ExprP context;
        ExprP target;  // may be null
    };
    std::vector<Item> items;
    Block body;
    WithStmt() : Stmt(SK::With) {}
    Flow exec(Frame& f) const override;
    Flow exec_from(Frame& f, size_t item) const;
};

struct TryStmt : Stmt {
    struct Handler {
        ExprP type;  // null: bare except
        std::unique_ptr<NameExpr> name;
        Block body;
        Span span;
    };
    Block body;
    std::vector<Handler> handlers;
    Block orelse, finalbody;
    TryStmt() : Stmt(SK::Try) {}
    Flow exec(Frame& f) const override;
};

struct RaiseStmt : Stmt {
    ExprP exc, cause;
    RaiseStmt() : Stmt(SK::Raise) {}
    Flow exec(Frame& f) const override;
};

struct AssertStmt : Stmt {
    ExprP test, msg;
    AssertStmt() : Stmt(SK::Assert) {}
    Flow exec(Frame& f) const override;
};

struct ImportStmt : Stmt {
    struct Alias {
        std::string module;  // dotted name
        std::string asname;  // empty = bind first component
        std::unique_ptr<NameExpr> target;
        Span span;
    };
    std::vector<Alias> names;
    ImportStmt() : Stmt(SK::Import) {}
    Flow exec(Frame& f) const override;
};

struct ImportFromStmt : Stmt {
    std::string module;
    struct Alias {
        std::string name, asname;
        std::unique_ptr<NameExpr> target;
        Span span;
    };
    std::vector<Alias> names;
    bool star = false;
    ImportFromStmt() : Stmt(SK::ImportFrom) {}
    Flow exec(Frame& f) const override;
};

// One parsed input (a file, a -c string, or one REPL entry).
struct Program {
    std::shared_ptr<SourceFile> file;
    Block body;
    int nslots = 0;  // module-frame hidden slots (comprehension variables)
    std::vector<bool> slot_is_cell;
};

}  // namespace gpy
