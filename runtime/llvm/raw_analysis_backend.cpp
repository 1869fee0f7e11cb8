// The analysis of a user's CUDA source (kernel blocks, np.RawKernel,
// np.RawModule) on Clang's AST, before anything is compiled for a device:
// which __global__ functions it defines, each one's parameters (C++'s types,
// reduced to what an argument is checked against), which pointer parameters
// the kernel may write through, whether it reaches a barrier or shared
// memory, and where its parameter list and body are in the text; and the
// module-scope __device__/__constant__ variables (RawModule.get_global).
//
// The source is the CPU emulation's text (runtime/raw_cpu.cpp composes it)
// with GPY_ANALYSIS defined, so CUDA's qualifiers become annotations
// (runtime/raw_cpu_prelude.h) the AST keeps. The result is a few lines of
// text (runtime/raw_analysis.h reads them): it crosses the dlopen boundary
// and goes into the disk cache as it is.
#include "runtime/llvm/cpu_jit_backend.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <llvm/Support/raw_ostream.h>

namespace gpy::cpujit_backend {
namespace {

using namespace clang;

bool annotated(const Decl* d, llvm::StringRef what) {
    for (const auto* a : d->specific_attrs<AnnotateAttr>())
        if (a->getAnnotation() == what) return true;
    return false;
}

// A pointer type whose pointee is const: what a kernel only reads.
bool const_pointee(QualType t) {
    t = t.getCanonicalType();
    return (t->isPointerType() || t->isReferenceType()) && t->getPointeeType().isConstQualified();
}

// The calls that make a kernel's threads wait for each other (the CPU runs
// such a kernel's threads as fibers).
bool barrier_call(llvm::StringRef n) {
    return n.startswith("__syncthreads") || n.startswith("__syncwarp") || n.startswith("__shfl") || n == "__ballot_sync" ||
           n == "__any_sync" || n == "__all_sync";
}

// What a function does, through the functions it calls.
struct Facts {
    bool barrier = false;       // waits for other threads
    bool shared = false;        // uses __shared__ or dynamic shared memory
    bool state = false;         // reads threadIdx/blockIdx/blockDim/gridDim itself
    bool callee_state = false;  // a function it calls does
    bool busy = false, done = false;
};

class Analysis {
public:
    Analysis(ASTContext& ctx, unsigned begin, unsigned end) : ctx_(ctx), sm_(ctx.getSourceManager()), begin_(begin), end_(end) {}

    // The user's text holds `loc` (after macro expansion).
    bool in_user(SourceLocation loc) const {
        if (loc.isInvalid()) return false;
        loc = sm_.getExpansionLoc(loc);
        if (!sm_.isInMainFile(loc)) return false;
        const unsigned off = sm_.getFileOffset(loc);
        return off >= begin_ && off < end_;
    }
    // The offset of `loc` in the user's text, or -1 (a macro's text, elsewhere).
    long offset(SourceLocation loc) const {
        if (loc.isInvalid() || !loc.isFileID() || !in_user(loc)) return -1;
        return long(sm_.getFileOffset(loc)) - long(begin_);
    }

    Facts& facts(const FunctionDecl* fd);
    bool var_writes(const ValueDecl* v, bool element);
    void add_use(const ValueDecl* v, const DeclRefExpr* e) { uses_[v].push_back(e); }
    void describe_kernel(const FunctionDecl* fd, const std::string& label, std::string& out);

private:
    bool writes(const Expr* e, bool element);
    void describe_param(const ParmVarDecl* p, std::string& out);

    ASTContext& ctx_;
    SourceManager& sm_;
    unsigned begin_, end_;
    std::map<const FunctionDecl*, Facts> facts_;
    std::map<const ValueDecl*, std::vector<const DeclRefExpr*>> uses_;
    std::set<std::pair<const ValueDecl*, bool>> following_;  // variables being followed (cycles: no write found)
};

// Walks one function body for its facts.
struct BodyScan : RecursiveASTVisitor<BodyScan> {
    Analysis& a;
    Facts& f;
    BodyScan(Analysis& an, Facts& fa) : a(an), f(fa) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitCallExpr(CallExpr* call) {
        const FunctionDecl* callee = call->getDirectCallee();
        if (!callee) return true;
        if (const IdentifierInfo* id = callee->getIdentifier()) {
            if (barrier_call(id->getName())) f.barrier = true;
            // threadIdx and its kin: the prelude's gpy_threadIdx() & co., which
            // read the thread's state (so do gpy_emu::self and lane).
            const llvm::StringRef n = id->getName();
            if (n == "gpy_threadIdx" || n == "gpy_blockIdx" || n == "gpy_blockDim" || n == "gpy_gridDim" ||
                ((n == "self" || n == "lane") && callee->getQualifiedNameAsString().rfind("gpy_emu::", 0) == 0))
                f.state = true;
        }
        const FunctionDecl* def = callee->getDefinition();
        if (def && def->hasBody() && a.in_user(def->getLocation())) {
            const Facts& c = a.facts(def);
            f.barrier |= c.barrier;
            f.shared |= c.shared;
            f.callee_state |= c.state || c.callee_state;
        }
        return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr* e) {
        if (const auto* v = dyn_cast<VarDecl>(e->getDecl()))
            if (annotated(v, "gpy_shared") || v->getName() == "gpy_dynamic_shared") f.shared = true;
        return true;
    }
};

Facts& Analysis::facts(const FunctionDecl* fd) {
    Facts& f = facts_[fd];
    if (f.done || f.busy) return f;  // (recursion: what is known so far)
    f.busy = true;
    if (fd->hasBody()) {
        Facts found;
        BodyScan scan(*this, found);
        scan.TraverseStmt(fd->getBody());
        Facts& g = facts_[fd];
        g.barrier = found.barrier;
        g.shared = found.shared;
        g.state = found.state;
        g.callee_state = found.callee_state;
    }
    Facts& g = facts_[fd];
    g.busy = false;
    g.done = true;
    return g;
}

// Whether the kernel may write the memory a use of a pointer reaches: `e` is
// the pointer (element == false) or an element it points to (an lvalue).
// Anything this does not understand counts as a write.
bool Analysis::writes(const Expr* e, bool element) {
    for (;;) {
        const auto parents = ctx_.getParents(*e);
        if (parents.size() != 1) return true;
        const DynTypedNode& p = parents[0];
        if (const auto* x = p.get<ParenExpr>()) {
            e = x;
            continue;
        }
        if (const auto* x = p.get<ImplicitCastExpr>()) {
            switch (x->getCastKind()) {
            case CK_LValueToRValue:
                if (element) return false;  // the element is read
                e = x;                      // the pointer's value
                continue;
            case CK_NoOp:
            case CK_BitCast:
            case CK_DerivedToBase:
            case CK_UncheckedDerivedToBase:
                if (!element && const_pointee(x->getType())) return false;
                e = x;
                continue;
            case CK_ArrayToPointerDecay:
                element = false;
                e = x;
                continue;
            case CK_PointerToBoolean: return element;
            default: return true;
            }
        }
        if (const auto* x = p.get<ExplicitCastExpr>()) {
            if (element) return true;
            const QualType t = x->getType();
            if (t->isBooleanType()) return false;
            if (!t->isPointerType()) return true;  // (an integer may become a pointer again)
            if (const_pointee(t)) return false;
            e = x;
            continue;
        }
        if (const auto* x = p.get<UnaryOperator>()) {
            switch (x->getOpcode()) {
            case UO_Deref:
                if (element) return true;
                element = true;
                e = x;
                continue;
            case UO_AddrOf:
                if (!element) return true;  // the pointer variable's own address
                element = false;
                e = x;
                continue;
            case UO_PreInc:
            case UO_PostInc:
            case UO_PreDec:
            case UO_PostDec:
                if (element) return true;
                e = x;  // p++ moves the pointer; its value goes on (*p++ = v)
                continue;
            case UO_LNot: return false;
            default: return true;
            }
        }
        if (const auto* x = p.get<ArraySubscriptExpr>()) {
            if (x->getBase() != e) return false;  // an index
            if (element) return true;
            element = true;
            e = x;
            continue;
        }
        if (const auto* x = p.get<MemberExpr>()) {
            if (x->isArrow() == element) return true;
            element = true;
            if (const auto* m = dyn_cast<CXXMethodDecl>(x->getMemberDecl())) return !m->isConst() && !m->isStatic();
            e = x;
            continue;
        }
        if (const auto* x = p.get<BinaryOperator>()) {
            const bool lhs = x->getLHS() == e;
            if (x->isAssignmentOp()) {
                if (lhs) return element;  // p = q, p += n: the variable changes, not the memory
                if (element) return true;
                // The pointer stored in a local pointer variable: that variable's uses.
                if (const auto* d = dyn_cast<DeclRefExpr>(x->getLHS()->IgnoreParenImpCasts()))
                    if (const auto* v = dyn_cast<VarDecl>(d->getDecl()); v && v->hasLocalStorage() && v->getType()->isPointerType())
                        return !const_pointee(v->getType()) && var_writes(v, false);
                return true;
            }
            if (x->isComparisonOp() || x->isLogicalOp()) return false;
            if (x->getOpcode() == BO_Comma) {
                if (lhs) return false;
                e = x;
                continue;
            }
            if (!element && (x->getOpcode() == BO_Add || x->getOpcode() == BO_Sub)) {
                if (!x->getType()->isPointerType()) return false;  // p - q
                e = x;
                continue;
            }
            return true;
        }
        if (const auto* x = p.get<ConditionalOperator>()) {
            if (x->getCond() == e) return false;
            e = x;
            continue;
        }
        if (const auto* x = p.get<CallExpr>()) {
            const FunctionDecl* fd = x->getDirectCallee();
            if (!fd || x->getCallee() == e) return true;
            unsigned i = 0;
            while (i < x->getNumArgs() && x->getArg(i) != e) ++i;
            if (i == x->getNumArgs()) return true;
            if (isa<CXXOperatorCallExpr>(x)) {
                if (const auto* m = dyn_cast<CXXMethodDecl>(fd); m && !m->isStatic()) {
                    if (i == 0) return !m->isConst();  // the object of a member operator
                    --i;
                }
            }
            if (i >= fd->getNumParams()) return !fd->isVariadic();  // printf's arguments are read
            const ParmVarDecl* param = fd->getParamDecl(i);
            const QualType t = param->getType().getCanonicalType();
            if (t->isReferenceType()) return !const_pointee(t);
            if (element) return true;  // (an element by value is read through LValueToRValue, not here)
            if (!t->isPointerType()) return !t->isBooleanType();
            if (const_pointee(t)) return false;
            // A pointer handed to a function of the source: its uses there.
            const FunctionDecl* def = fd->getDefinition();
            if (def && def->hasBody() && in_user(def->getLocation()) && i < def->getNumParams())
                return var_writes(def->getParamDecl(i), false);
            return true;  // atomicAdd(p, v), memcpy's destination, ...
        }
        if (const auto* x = p.get<CXXConstructExpr>()) {
            const CXXConstructorDecl* c = x->getConstructor();
            return !(element && c->isCopyConstructor());  // a copy of an element reads it
        }
        if (const auto* x = p.get<MaterializeTemporaryExpr>()) {
            e = x;
            continue;
        }
        if (const auto* x = p.get<VarDecl>()) {
            const QualType t = x->getType().getCanonicalType();
            if (t->isReferenceType()) return !const_pointee(t) && var_writes(x, true);  // float& acc = out[i]
            if (element) return false;                                                  // a copy
            if (t->isPointerType()) return !const_pointee(t) && var_writes(x, false);   // float* row = y + i * w
            return !t->isBooleanType();
        }
        return true;
    }
}

// Whether the kernel may write through variable `v` (a pointer, or a
// reference to an element when `element`).
bool Analysis::var_writes(const ValueDecl* v, bool element) {
    if (!following_.insert({v, element}).second) return false;
    bool any = false;
    if (auto it = uses_.find(v); it != uses_.end())
        for (const DeclRefExpr* use : it->second)
            if (writes(use, element)) {
                any = true;
                break;
            }
    following_.erase({v, element});
    return any;
}

// One parameter, as runtime/raw_analysis.h reads it:
// "param <pointer> <const> <kind> <size> <written> <name>".
void Analysis::describe_param(const ParmVarDecl* p, std::string& out) {
    QualType t = p->getType().getCanonicalType();
    const bool pointer = t->isPointerType();
    bool constant = false, written = false;
    if (pointer) {
        constant = t->getPointeeType().isConstQualified();
        written = !constant && var_writes(p, false);
        t = t->getPointeeType().getCanonicalType();
    }
    char kind = 'o';
    long size = t->isVoidType() || t->isIncompleteType() ? 0 : long(ctx_.getTypeSizeInChars(t).getQuantity());
    if (t->isBooleanType()) kind = 'b';
    else if (t->isRealFloatingType()) kind = 'f';
    else if (t->isEnumeralType()) kind = 'o';
    else if (t->isSignedIntegerType()) kind = 'i';
    else if (t->isUnsignedIntegerType()) kind = 'u';
    else if (const auto* r = t->getAsCXXRecordDecl()) {
        // complex<float>, complex<double> of <cupy/complex.cuh> (runtime/raw_headers.cpp)
        if (const auto* s = dyn_cast<ClassTemplateSpecializationDecl>(r); s && s->getName() == "complex" &&
                                                                         s->getTemplateArgs().size() == 1 &&
                                                                         s->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
                                                                         s->getTemplateArgs()[0].getAsType()->isRealFloatingType())
            kind = 'c';
    }
    out += "param\t" + std::to_string(int(pointer)) + "\t" + std::to_string(int(constant)) + "\t" + std::string(1, kind) + "\t" +
           std::to_string(size) + "\t" + std::to_string(int(written)) + "\t" + p->getNameAsString() + "\n";
}

// "kernel <label> <extern C> <barrier> <shared> <callee state> <( > <)> <{> <}>"
// and its parameters' lines.
void Analysis::describe_kernel(const FunctionDecl* fd, const std::string& label, std::string& out) {
    const Facts& f = facts(fd);
    long lp = -1, rp = -1, lb = -1, rb = -1;
    if (const FunctionTypeLoc tl = fd->getFunctionTypeLoc()) {
        lp = offset(tl.getLParenLoc());
        rp = offset(tl.getRParenLoc());
    }
    // (An instance of a template: the body of its pattern, which is the text.)
    const FunctionDecl* text = fd->getTemplateInstantiationPattern() ? fd->getTemplateInstantiationPattern() : fd;
    if (const auto* body = dyn_cast_or_null<CompoundStmt>(text->getBody())) {
        lb = offset(body->getLBracLoc());
        rb = offset(body->getRBracLoc());
    }
    if (text != fd) {
        if (const FunctionTypeLoc tl = text->getFunctionTypeLoc()) {
            lp = offset(tl.getLParenLoc());
            rp = offset(tl.getRParenLoc());
        }
    }
    out += "kernel\t" + label + "\t" + std::to_string(int(fd->isExternC())) + "\t" + std::to_string(int(f.barrier)) + "\t" +
           std::to_string(int(f.shared)) + "\t" + std::to_string(int(f.callee_state)) + "\t" + std::to_string(lp) + "\t" +
           std::to_string(rp) + "\t" + std::to_string(lb) + "\t" + std::to_string(rb) + "\n";
    for (const ParmVarDecl* p : fd->parameters()) describe_param(p, out);
}

// Collects the kernels, the module variables and every variable's uses.
struct Collect : RecursiveASTVisitor<Collect> {
    Analysis& a;
    std::vector<const FunctionDecl*> kernels;
    std::map<unsigned, const FunctionDecl*> named;  // name expression k: its kernel
    std::vector<std::string> globals;
    explicit Collect(Analysis& an) : a(an) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(FunctionDecl* fd) {
        if (fd->isThisDeclarationADefinition() && annotated(fd, "gpy_global") && a.in_user(fd->getLocation()) &&
            !fd->getDescribedFunctionTemplate() && !fd->isTemplateInstantiation() && !fd->isDependentContext())
            kernels.push_back(fd);
        return true;
    }
    bool VisitVarDecl(VarDecl* v) {
        const std::string name = v->getNameAsString();
        // The front's `static auto gpy_ne_K = &EXPR;` after the user's text.
        if (name.rfind("gpy_ne_", 0) == 0 && v->getInit() && !a.in_user(v->getLocation())) {
            if (const auto* d = dyn_cast<DeclRefExpr>(v->getInit()->IgnoreParenImpCasts()->IgnoreParens())) {
                if (const auto* fd = dyn_cast<FunctionDecl>(d->getDecl())) named[unsigned(std::stoul(name.substr(7)))] = fd;
            } else if (const auto* u = dyn_cast<UnaryOperator>(v->getInit()->IgnoreParenImpCasts())) {
                if (const auto* d2 = dyn_cast<DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts()))
                    if (const auto* fd = dyn_cast<FunctionDecl>(d2->getDecl())) named[unsigned(std::stoul(name.substr(7)))] = fd;
            }
        }
        // Module variables a GPU's module exposes by name: at file scope (or
        // in an extern "C" block), defined here.
        if ((annotated(v, "gpy_device") || annotated(v, "gpy_constant")) && a.in_user(v->getLocation()) &&
            v->getDeclContext()->getRedeclContext()->isTranslationUnit() && v->isThisDeclarationADefinition() != VarDecl::DeclarationOnly &&
            std::find(globals.begin(), globals.end(), name) == globals.end())
            globals.push_back(name);
        return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr* e) {
        if (const auto* v = dyn_cast<VarDecl>(e->getDecl()); v && v->hasLocalStorage()) a.add_use(v, e);
        return true;
    }
};

class Consumer : public ASTConsumer {
public:
    Consumer(unsigned begin, unsigned end, std::string& out) : begin_(begin), end_(end), out_(out) {}
    void HandleTranslationUnit(ASTContext& ctx) override {
        if (ctx.getDiagnostics().hasErrorOccurred()) return;
        Analysis a(ctx, begin_, end_);
        Collect c(a);
        c.TraverseDecl(ctx.getTranslationUnitDecl());
        for (const FunctionDecl* fd : c.kernels) a.describe_kernel(fd, fd->getNameAsString(), out_);
        for (const auto& [k, fd] : c.named) {
            std::string label = "#";  // (not "#" + ...: GCC 12's -Wrestrict misfires on it)
            label += std::to_string(k);
            a.describe_kernel(fd, label, out_);
        }
        for (const std::string& g : c.globals) out_ += "global\t" + g + "\n";
    }

private:
    unsigned begin_, end_;
    std::string& out_;
};

class Action : public ASTFrontendAction {
public:
    Action(unsigned begin, unsigned end, std::string& out) : begin_(begin), end_(end), out_(out) {}
    std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, llvm::StringRef) override {
        return std::make_unique<Consumer>(begin_, end_, out_);
    }

private:
    unsigned begin_, end_;
    std::string& out_;
};

}  // namespace

bool analyse(const std::string& source, size_t user_begin, size_t user_end, std::string& out, std::string& log) {
    std::lock_guard<std::mutex> serial(jit_mutex());
    llvm::raw_string_ostream log_os(log);
    CompilerInstance ci;
    set_up(ci, source, false, log_os);
    out.clear();
    Action action(unsigned(user_begin), unsigned(user_end), out);
    bool ok = ci.ExecuteAction(action);
    log_os.flush();
    return ok && !ci.getDiagnostics().hasErrorOccurred();
}

}  // namespace gpy::cpujit_backend
