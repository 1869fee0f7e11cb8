// cupyx.jit.rawkernel (CuPy's): a kernel written in the language's own
// syntax. The decorated function's syntax tree (lang/ast.h) is translated to
// CUDA C++ once per argument signature (arrays' dtypes and ranks, scalars'
// types) and runs as a raw kernel (numpy/raw_kernels.h) on either backend.
//
// The subset: parameters that are arrays (x[i], x[i, j], x.size, x.shape[k])
// or scalars; locals typed by their first assignment (NumPy's promotion,
// Python numbers weak as in NEP 50); + - * / // % ** & | ^ << >>, comparisons
// (chained), and/or/not, conditional expressions; if/elif/else, while, for
// over range(), break, continue, return; jit.threadIdx/blockIdx/blockDim/
// gridDim (.x .y .z), jit.grid(n), jit.gridsize(n), jit.warpsize,
// jit.syncthreads(), jit.syncwarp(), jit.shared_memory(dtype, n),
// jit.atomic_add/sub/max/min/exch(array, index, value), jit.shfl_sync /
// shfl_up_sync / shfl_down_sync / shfl_xor_sync; math.* functions, abs, min,
// max, len, int, float, bool and dtype casts (np.float32(x)); module-level
// numbers as constants; calls of device functions (@jit.rawkernel(device=True)),
// translated per argument signature into the same unit; jit.range(unroll=),
// jit.laneid(). Anything else is an error at its place in the function.
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "lang/ast.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/promote.h"
#include "numpy/raw_kernels.h"
#include "numpy/ufuncs.h"
#include "numpy/user_kernels.h"

namespace gpy {

namespace {

TypeObject* jit_kernel_type();

struct JitKernelObj : Object {
    Value func;                           // the decorated function
    std::map<std::string, Value> kernels;  // by argument signature
    bool device = false;                  // @jit.rawkernel(device=True): called from kernels only
    JitKernelObj() : Object(jit_kernel_type()) {}
};

// An error at `n`'s place in the kernel's source.
[[noreturn]] void fail(const Node& n, TypeObject* type, const std::string& name, std::string message) {
    Value e = make_exception(type, std::move(message));
    e.as<ExceptionObj>()->traceback.push_back(TraceEntry{n.span, "<jit kernel " + name + ">"});
    throw GpyError{e};
}

// A translated expression: its C++ text and type.
struct X {
    std::string code;
    DType type = DType::Int64;
    bool weak = false;   // a Python number literal (NEP 50: takes the other operand's type)
    int array = -1;      // a parameter array's index (code is its name), else -1
    int ndim = 0;
    std::vector<X> items;  // a tuple (jit.grid(2), x.shape)
    bool tuple = false;
    bool none = false;     // a call of a device function that returns nothing
};

struct ArrayParam {
    DType dtype;
    int ndim;
};

// What one kernel's translation shares with the device functions it calls:
// their definitions in dependency order (a callee before its callers), each
// translated once per argument signature.
struct Unit {
    std::vector<std::string> definitions;
    struct Function {
        std::string name;
        DType type;
        bool returns;  // a value (else void)
    };
    std::map<std::string, Function> done;  // by function and argument signature
    std::set<std::string> in_progress;                          // to refuse recursion
    int next_name = 0;                                          // device functions' C names: gpy_dev_NAME_k
};

class Translator {
public:
    Translator(const FunctionObj& f, const std::vector<std::optional<ArrayParam>>& arrays, const std::vector<DType>& scalars,
               Unit& unit, bool device = false)
        : fn_(*f.info), module_(f.module), name_(f.info->name), unit_(unit), device_(device) {
        for (size_t i = 0; i < fn_.params.size(); ++i) {
            const std::string& p = fn_.params[i].name;
            if (arrays[i]) {
                arrays_[p] = *arrays[i];
            } else {
                vars_[p] = scalars[i];
            }
            params_.push_back(p);
        }
    }

    std::string translate() {
        block(fn_.body, 1);
        std::ostringstream src;
        src << user_kernel_header({}, name_);
        // Python's and NumPy's // and % (NumPy's npy_divmod for floats; an
        // integer divided by 0 gives 0, as NumPy's, where C would trap).
        src << "template <class T> __device__ T gpy_jit_floordiv(T a, T b) { if (b == 0) return 0; T q = a / b; return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q; }\n"
               "template <class T> __device__ T gpy_jit_mod(T a, T b) { if (b == 0) return 0; T r = a % b; return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r; }\n"
               "template <class T> __device__ T gpy_jit_fmod(T a, T b) {\n"
               "    if (b == 0) return fmod(a, b);\n"
               "    T m = fmod(a, b);\n"
               "    if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else m = copysign((T)0, b);\n"
               "    return m;\n}\n"
               "template <class T> __device__ T gpy_jit_ffloordiv(T a, T b) {\n"
               "    if (b == 0) return a / b;\n"
               "    T m = fmod(a, b), d = (a - m) / b;\n"
               "    if (m != 0 && ((b < 0) != (m < 0))) d -= 1;\n"
               "    if (d == 0) return copysign((T)0, a / b);\n"
               "    T f = floor(d);\n"
               "    if (d - f > (T)0.5) f += 1;\n"
               "    return f;\n}\n"
               "template <class T> __device__ T gpy_jit_ipow(T a, T b) { if (b < 0) return a == 1 ? 1 : 0; T r = 1; for (; b > 0; --b) r *= a; return r; }\n";
        for (const std::string& d : unit_.definitions) src << d;
        src << "extern \"C\" __global__ void " << name_ << "(";
        parameters(src);
        src << ") {\n" << shared_;
        for (const std::string& l : locals_) src << "    " << kernel_ctype(vars_[l], name_) << " " << l << " = 0;\n";
        src << body_.str() << "}\n";
        return src.str();
    }

    // A device function (`@jit.rawkernel(device=True)`) as `__device__ R
    // c_name(params)`; R is the promotion of what its returns give (void
    // when they give nothing).
    DType translate_device(const std::string& c_name, bool& returns_value) {
        c_name_ = c_name;
        block(fn_.body, 1);
        returns_value = ret_.has_value();
        const std::string ret_type = returns_value ? ctype(*ret_) : "void";
        std::ostringstream src;
        src << "typedef " << ret_type << " gpy_ret_" << c_name << ";\n";
        src << "__device__ gpy_ret_" << c_name << " " << c_name << "(";
        parameters(src);
        src << ") {\n" << shared_;
        for (const std::string& l : locals_) src << "    " << kernel_ctype(vars_[l], name_) << " " << l << " = 0;\n";
        src << body_.str() << "}\n";
        unit_.definitions.push_back(src.str());
        return ret_.value_or(DType::Bool);
    }

private:
    void parameters(std::ostringstream& src) {
        for (size_t i = 0; i < params_.size(); ++i) {
            const std::string& p = params_[i];
            if (i) src << ", ";
            if (auto it = arrays_.find(p); it != arrays_.end())
                src << "gpy_raw<" << ctype(it->second.dtype) << ", " << std::max(1, it->second.ndim) << "> " << p;
            else
                src << ctype(vars_[p]) << " " << p;
        }
    }

    const FuncInfo& fn_;
    ModuleObj* module_;
    std::string name_;
    std::vector<std::string> params_, locals_;
    std::map<std::string, ArrayParam> arrays_;  // parameters and shared-memory arrays
    std::map<std::string, DType> vars_;         // scalar parameters and locals
    std::set<std::string> shared_names_;
    std::string shared_;
    std::ostringstream body_;
    int temps_ = 0;
    Unit& unit_;
    bool device_;                // translating a device function
    std::optional<DType> ret_;   // a device function's return type so far
    bool ret_weak_ = false;      // ... only Python numbers so far (NEP 50)
    bool bare_return_ = false;   // a device function's `return` without a value
    std::string c_name_;         // a device function's C name

    void line(int depth, const std::string& s) { body_ << std::string(size_t(depth) * 4, ' ') << s << "\n"; }

    // A module-level value the body names (jit, math, np, a constant).
    const Value* global(const std::string& id) const { return module_ ? module_->get(id) : nullptr; }

    bool is_module(const Expr& e, const char* name) const {
        if (e.kind != EK::Name) return false;
        const Value* v = global(static_cast<const NameExpr&>(e).id);
        return v && v->is_obj() && v->o->type->kind == OK::Module && static_cast<ModuleObj*>(v->o)->name == name;
    }
    // `jit.` (cupyx.jit), `math.`, `np.`/`numpy.`/`cupy.`
    bool is_jit(const Expr& e) const { return is_module(e, "cupyx.jit"); }
    bool is_np(const Expr& e) const { return is_module(e, "numpy") || is_module(e, "cupy"); }
    bool is_math(const Expr& e) const { return is_module(e, "math"); }

    static std::string cast(const X& x, DType t) { return x.type == t ? x.code : "((" + ctype(t) + ")(" + x.code + "))"; }
    // The C type of a dtype: the one raw and loop kernels use (float16 and complex: NotImplementedError).
    static std::string ctype(DType t) {
        if (is_complex(t)) raise(types::NotImplementedError, std::string("a jit kernel: ") + name(t) + " is not supported yet");
        return kernel_ctype(t, "a jit kernel");
    }

    // NumPy's promotion, a Python number weak against an array-typed value.
    static DType result_type(const X& a, const X& b) {
        if (a.weak && !b.weak) return weak_with(a, b.type);
        if (b.weak && !a.weak) return weak_with(b, a.type);
        return promote_types(a.type, b.type);
    }
    static DType weak_with(const X& w, DType t) {
        if (w.type == DType::Float64 && !is_float(t)) return DType::Float64;
        if (w.type == DType::Bool) return t;
        return t == DType::Bool ? w.type : t;
    }

    DType dtype_named(const Expr& e) {
        // np.float32, numpy.int32, ... as a type
        if (e.kind == EK::Attribute && is_np(*static_cast<const AttributeExpr&>(e).value))
            if (auto d = parse_dtype(static_cast<const AttributeExpr&>(e).attr)) return *d;
        if (e.kind == EK::Name) {
            const std::string& id = static_cast<const NameExpr&>(e).id;
            if (id == "int") return DType::Int64;
            if (id == "float") return DType::Float64;
            if (id == "bool") return DType::Bool;
        }
        fail(e, types::TypeError, name_, "expected a dtype such as np.float32");
    }

    // The byte offset of base[index]: one integer per dimension (a tuple, or
    // a tuple-valued expression such as jit.grid(2)).
    std::string element_offset(const X& base, const Expr& index) {
        std::vector<X> idx;
        if (index.kind == EK::Tuple) {
            for (auto& e : static_cast<const SeqExpr&>(index).elts) idx.push_back(expr(*e));
        } else {
            X i = expr(index);
            if (i.tuple) idx = i.items;
            else idx.push_back(std::move(i));
        }
        if (int(idx.size()) != std::max(1, base.ndim))
            fail(index, types::IndexError, name_, "a jit kernel indexes an array with one integer per dimension (" + std::to_string(base.ndim) + ")");
        std::string off;
        for (size_t d = 0; d < idx.size(); ++d) {
            if (!is_integer(idx[d].type) && idx[d].type != DType::Bool) fail(index, types::IndexError, name_, "array indices must be integers");
            off += (d ? " + " : "") + std::string("(long long)(") + idx[d].code + ") * " + base.code + ".strides_[" + std::to_string(d) + "]";
        }
        return off;
    }

    X array_element(const SubscriptExpr& s) {
        X base = expr(*s.value);
        if (base.array < 0) fail(s, types::TypeError, name_, "only arrays can be indexed in a jit kernel");
        const std::string off = element_offset(base, *s.index);
        const std::string ct = ctype(base.type);
        X r;
        r.code = "(*(" + ct + "*)((char*)" + base.code + ".data_ + " + off + "))";
        r.type = base.type;
        return r;
    }

    X number(const Value& v, const Node& at) {
        X r;
        r.weak = true;
        if (v.kind == VK::Bool) { r.code = v.b ? "true" : "false"; r.type = DType::Bool; }
        else if (v.kind == VK::Int) { r.code = std::to_string(v.i) + "LL"; r.type = DType::Int64; }
        else if (v.kind == VK::Float) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.17g", v.f);
            r.code = buf;
            if (r.code.find_first_of(".eni") == std::string::npos) r.code += ".0";
            if (r.code == "inf") r.code = "(1.0/0.0)";
            else if (r.code == "-inf") r.code = "(-1.0/0.0)";
            else if (r.code == "nan" || r.code == "-nan") r.code = "(0.0/0.0)";
            r.type = DType::Float64;
        } else fail(at, types::TypeError, name_, std::string("a jit kernel cannot use a ") + type_name(v));
        return r;
    }

    X dim3_member(const std::string& var, const std::string& field, const Node& at) {
        if (field != "x" && field != "y" && field != "z") fail(at, types::AttributeError, name_, var + " has x, y and z");
        X r;
        r.code = var + "." + field;
        r.type = DType::UInt32;
        return r;
    }

    // l op r with Python's meaning: / is true division, // and % floor
    // (the sign of the divisor), ** on integers by repeated products.
    X binary(BinOp op, const X& l, const X& r, const Node& e) {
        if (l.none || r.none) fail(e, types::TypeError, name_, "the device function returns nothing");
        if (l.array >= 0 || r.array >= 0 || l.tuple || r.tuple)
            fail(e, types::TypeError, name_, "a jit kernel computes on elements: index the array");
        DType t = result_type(l, r);
        X out;
        out.type = t;
        out.weak = l.weak && r.weak;
        const std::string a = cast(l, t), c = cast(r, t);
        switch (op) {
        case BinOp::Add: out.code = "(" + a + " + " + c + ")"; break;
        case BinOp::Sub: out.code = "(" + a + " - " + c + ")"; break;
        case BinOp::Mul: out.code = "(" + a + " * " + c + ")"; break;
        case BinOp::Div: {
            const DType f = is_float(t) ? t : DType::Float64;
            out.type = f;
            out.code = "(" + cast(l, f) + " / " + cast(r, f) + ")";
            break;
        }
        case BinOp::FloorDiv:
            out.code = is_float(t) ? "gpy_jit_ffloordiv<" + ctype(t) + ">(" + a + ", " + c + ")" : "gpy_jit_floordiv<" + ctype(t) + ">(" + a + ", " + c + ")";
            break;
        case BinOp::Mod:
            out.code = is_float(t) ? "gpy_jit_fmod<" + ctype(t) + ">(" + a + ", " + c + ")" : "gpy_jit_mod<" + ctype(t) + ">(" + a + ", " + c + ")";
            break;
        case BinOp::Pow:
            out.code = is_float(t) ? "pow(" + a + ", " + c + ")" : "gpy_jit_ipow<" + ctype(t) + ">(" + a + ", " + c + ")";
            break;
        case BinOp::BitAnd: case BinOp::BitOr: case BinOp::BitXor: case BinOp::LShift: case BinOp::RShift:
            if (is_float(t)) fail(e, types::TypeError, name_, std::string("unsupported operand types for ") + binop_symbol(op));
            out.code = "(" + a + " " + binop_symbol(op) + " " + c + ")";
            break;
        default: fail(e, types::TypeError, name_, std::string("a jit kernel has no ") + binop_symbol(op));
        }
        return out;
    }

    X expr(const Expr& e) {
        switch (e.kind) {
        case EK::Const: return number(static_cast<const ConstExpr&>(e).value, e);
        case EK::Name: {
            const std::string& id = static_cast<const NameExpr&>(e).id;
            if (auto a = arrays_.find(id); a != arrays_.end()) {
                X r;
                r.code = id;
                r.type = a->second.dtype;
                r.array = 1;
                r.ndim = a->second.ndim;
                return r;
            }
            if (auto v = vars_.find(id); v != vars_.end()) {
                X r;
                r.code = id;
                r.type = v->second;
                return r;
            }
            if (const Value* g = global(id); g && (g->kind == VK::Int || g->kind == VK::Float || g->kind == VK::Bool)) return number(*g, e);
            fail(e, types::NameError, name_, "name '" + id + "' is not defined in the jit kernel (locals are typed by their first assignment)");
        }
        case EK::Attribute: {
            auto& a = static_cast<const AttributeExpr&>(e);
            if (is_jit(*a.value)) {
                if (a.attr == "warpsize") return X{"32", DType::Int32};
                fail(e, types::AttributeError, name_, "jit." + a.attr + " is not a value a jit kernel can use");
            }
            if (a.value->kind == EK::Attribute) {
                auto& inner = static_cast<const AttributeExpr&>(*a.value);
                if (is_jit(*inner.value)) {
                    static const std::map<std::string, std::string> dims = {
                        {"threadIdx", "threadIdx"}, {"blockIdx", "blockIdx"}, {"blockDim", "blockDim"}, {"gridDim", "gridDim"}};
                    if (auto d = dims.find(inner.attr); d != dims.end()) return dim3_member(d->second, a.attr, e);
                }
            }
            if (is_math(*a.value)) {
                if (a.attr == "pi") return X{"3.141592653589793", DType::Float64, true};
                if (a.attr == "e") return X{"2.718281828459045", DType::Float64, true};
                if (a.attr == "inf") return X{"(1.0/0.0)", DType::Float64, true};
                if (a.attr == "nan") return X{"(0.0/0.0)", DType::Float64, true};
                if (a.attr == "tau") return X{"6.283185307179586", DType::Float64, true};
            }
            X base = expr(*a.value);
            if (base.array >= 0 && a.attr == "size") return X{base.code + ".size()", DType::Int64};
            if (base.array >= 0 && a.attr == "ndim") return X{std::to_string(base.ndim) + "LL", DType::Int64, true};
            if (base.array >= 0 && a.attr == "shape") {
                X t;
                t.tuple = true;
                for (int d = 0; d < base.ndim; ++d) t.items.push_back(X{base.code + ".shape_[" + std::to_string(d) + "]", DType::Int64});
                return t;
            }
            fail(e, types::AttributeError, name_, "a jit kernel cannot read ." + a.attr + " here");
        }
        case EK::Subscript: {
            auto& s = static_cast<const SubscriptExpr&>(e);
            if (s.value->kind == EK::Attribute && static_cast<const AttributeExpr&>(*s.value).attr == "shape") {
                X t = expr(*s.value);
                if (t.tuple && s.index->kind == EK::Const && static_cast<const ConstExpr&>(*s.index).value.kind == VK::Int) {
                    int64_t k = static_cast<const ConstExpr&>(*s.index).value.i;
                    if (k < 0) k += int64_t(t.items.size());
                    if (k >= 0 && k < int64_t(t.items.size())) return t.items[size_t(k)];
                }
                fail(e, types::IndexError, name_, "x.shape takes a constant index in range");
            }
            return array_element(s);
        }
        case EK::BinOp: {
            auto& b = static_cast<const BinOpExpr&>(e);
            return binary(b.op, expr(*b.left), expr(*b.right), e);
        }
        case EK::UnaryOp: {
            auto& u = static_cast<const UnaryExpr&>(e);
            X v = expr(*u.operand);
            X out = v;
            if (u.op == UnOp::Not) return X{"(!(" + v.code + "))", DType::Bool};
            if (u.op == UnOp::Neg) out.code = "(-" + v.code + ")";
            if (u.op == UnOp::Invert) {
                if (is_float(v.type)) fail(e, types::TypeError, name_, "bad operand type for unary ~: float");
                out.code = v.type == DType::Bool ? "(!" + v.code + ")" : "(~" + v.code + ")";  // NumPy's ~ of a bool is not
            }
            return out;
        }
        case EK::BoolOp: {
            auto& b = static_cast<const BoolOpExpr&>(e);
            std::string code;
            for (auto& v : b.values) code += (code.empty() ? "" : (b.is_and ? " && " : " || ")) + std::string("(") + expr(*v).code + ")";
            return X{"(" + code + ")", DType::Bool};
        }
        case EK::Compare: {
            auto& c = static_cast<const CompareExpr&>(e);
            X left = expr(*c.first);
            std::string code;
            for (size_t k = 0; k < c.ops.size(); ++k) {
                X right = expr(*c.rest[k]);
                if (c.ops[k] == CmpOp::In || c.ops[k] == CmpOp::NotIn || c.ops[k] == CmpOp::Is || c.ops[k] == CmpOp::IsNot)
                    fail(e, types::TypeError, name_, std::string("a jit kernel has no `") + cmpop_symbol(c.ops[k]) + "`");
                const DType t = result_type(left, right);
                code += (code.empty() ? "" : " && ") + std::string("(") + cast(left, t) + " " + cmpop_symbol(c.ops[k]) + " " + cast(right, t) + ")";
                left = right;
            }
            return X{"(" + code + ")", DType::Bool};
        }
        case EK::IfExp: {
            auto& i = static_cast<const IfExpr&>(e);
            X t = expr(*i.test), a = expr(*i.body), b = expr(*i.orelse);
            const DType r = result_type(a, b);
            return X{"((" + t.code + ") ? " + cast(a, r) + " : " + cast(b, r) + ")", r};
        }
        case EK::Call: return call(static_cast<const CallExpr&>(e));
        default: fail(e, types::TypeError, name_, "a jit kernel cannot use this expression");
        }
    }

    X call(const CallExpr& c) {
        std::vector<X> args;
        auto arg = [&](size_t k) -> X {
            if (k >= c.args.size()) fail(c, types::TypeError, name_, "missing argument");
            return expr(*c.args[k]);
        };
        if (c.func->kind == EK::Attribute) {
            auto& f = static_cast<const AttributeExpr&>(*c.func);
            if (is_jit(*f.value)) {
                const std::string& n = f.attr;
                if (n == "syncthreads") return X{"__syncthreads()", DType::Bool};
                if (n == "syncwarp") return X{"__syncwarp()", DType::Bool};
                if (n == "laneid")  // the thread's lane: its linear index in the block, modulo the warp
                    return X{"((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u)", DType::UInt32};
                if (n == "grid" || n == "gridsize") {
                    if (c.args.size() != 1 || c.args[0]->kind != EK::Const || static_cast<const ConstExpr&>(*c.args[0]).value.kind != VK::Int)
                        fail(c, types::TypeError, name_, "jit." + n + " takes a constant 1, 2 or 3");
                    const int64_t dims = static_cast<const ConstExpr&>(*c.args[0]).value.i;
                    if (dims < 1 || dims > 3) fail(c, types::ValueError, name_, "jit." + n + " takes 1, 2 or 3");
                    X t;
                    t.tuple = dims > 1;
                    const char* xyz[] = {"x", "y", "z"};
                    for (int d = 0; d < dims; ++d) {
                        std::string code = n == "grid"
                            ? "(blockIdx." + std::string(xyz[d]) + " * blockDim." + xyz[d] + " + threadIdx." + xyz[d] + ")"
                            : "(blockDim." + std::string(xyz[d]) + " * gridDim." + xyz[d] + ")";
                        t.items.push_back(X{code, DType::UInt32});
                    }
                    return dims == 1 ? t.items[0] : t;
                }
                static const std::map<std::string, std::string> atomics = {{"atomic_add", "atomicAdd"}, {"atomic_sub", "atomicSub"},
                    {"atomic_max", "atomicMax"}, {"atomic_min", "atomicMin"}, {"atomic_exch", "atomicExch"},
                    {"atomic_and", "atomicAnd"}, {"atomic_or", "atomicOr"}, {"atomic_xor", "atomicXor"}};
                if (auto a = atomics.find(n); a != atomics.end()) {
                    if (c.args.size() != 3) fail(c, types::TypeError, name_, "jit." + n + "(array, index, value)");
                    X arr = expr(*c.args[0]);
                    if (arr.array < 0) fail(*c.args[0], types::TypeError, name_, "jit." + n + " needs an array");
                    const std::string off = element_offset(arr, *c.args[1]);
                    X v = arg(2);
                    // CUDA's overloads: int64 adds, exchanges and bit operations through unsigned long long
                    // (two's complement), subtraction as the addition of the negation.
                    std::string fn = a->second;
                    DType as = arr.type;
                    std::string value = cast(v, arr.type);
                    if (fn == "atomicSub" && (arr.type == DType::Int64 || arr.type == DType::UInt64 || is_float(arr.type))) {
                        fn = "atomicAdd";
                        value = "(-" + value + ")";
                    }
                    if (arr.type == DType::Int64 && fn != "atomicMin" && fn != "atomicMax") as = DType::UInt64;
                    if (!is_float(arr.type) && itemsize(arr.type) < 4)
                        fail(c, types::TypeError, name_, "jit." + n + " needs 32- or 64-bit elements");
                    const std::string call = fn + "((" + ctype(as) + "*)((char*)" + arr.code + ".data_ + " + off + "), (" + ctype(as) + ")(" + value + "))";
                    return X{cast(X{call, as}, arr.type), arr.type};
                }
                static const std::map<std::string, std::string> shuffles = {{"shfl_sync", "__shfl_sync"}, {"shfl_up_sync", "__shfl_up_sync"},
                    {"shfl_down_sync", "__shfl_down_sync"}, {"shfl_xor_sync", "__shfl_xor_sync"}};
                if (auto s = shuffles.find(n); s != shuffles.end()) {
                    X mask = arg(0), v = arg(1), d = arg(2);
                    return X{s->second + "((unsigned)(" + mask.code + "), " + v.code + ", (int)(" + d.code + "))", v.type};
                }
                fail(c, types::AttributeError, name_, "jit." + n + " is not supported in a jit kernel yet");
            }
            if (is_math(*f.value)) {
                static const std::set<std::string> unary = {"sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
                    "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "floor", "ceil", "trunc", "fabs", "erf", "erfc",
                    "gamma", "lgamma"};
                if (unary.count(f.attr)) {
                    X v = arg(0);
                    const DType t = is_float(v.type) ? v.type : DType::Float64;
                    const std::string fn = f.attr == "gamma" ? "tgamma" : f.attr;
                    return X{fn + "(" + cast(v, t) + ")", t};
                }
                if (f.attr == "pow" || f.attr == "atan2" || f.attr == "hypot" || f.attr == "fmod" || f.attr == "copysign") {
                    X a = arg(0), b = arg(1);
                    DType t = result_type(a, b);
                    if (!is_float(t)) t = DType::Float64;
                    return X{f.attr + "(" + cast(a, t) + ", " + cast(b, t) + ")", t};
                }
                fail(c, types::AttributeError, name_, "math." + f.attr + " is not supported in a jit kernel");
            }
            if (is_np(*f.value)) {  // a dtype's cast: np.float32(x)
                DType t = dtype_named(*c.func);
                return X{cast(arg(0), t), t};
            }
        }
        if (c.func->kind == EK::Name) {
            const std::string& n = static_cast<const NameExpr&>(*c.func).id;
            if (const Value* g = global(n); g && g->is_obj() && g->o->type == jit_kernel_type()) {
                auto* k = static_cast<JitKernelObj*>(g->o);
                if (!k->device)
                    fail(c, types::TypeError, name_, "a jit kernel cannot call the kernel '" + n + "' (a function kernels call is declared @jit.rawkernel(device=True))");
                return device_call(c, *k);
            }
            if (n == "len") {
                X v = arg(0);
                if (v.array < 0) fail(c, types::TypeError, name_, "len() of a non-array in a jit kernel");
                return X{v.code + ".shape_[0]", DType::Int64};
            }
            if (n == "abs") {
                X v = arg(0);
                return X{(is_float(v.type) ? "fabs(" : "abs(") + v.code + ")", v.type};
            }
            if (n == "min" || n == "max") {
                X a = arg(0), b = arg(1);
                const DType t = result_type(a, b);
                return X{n + "(" + cast(a, t) + ", " + cast(b, t) + ")", t};
            }
            if (n == "int" || n == "float" || n == "bool") {
                DType t = dtype_named(*c.func);
                return X{cast(arg(0), t), t};
            }
        }
        fail(c, types::TypeError, name_, "a jit kernel cannot call this");
    }

    // f(args) of a device function: translated for these argument types
    // (once per kernel), then called by its C name.
    X device_call(const CallExpr& c, const JitKernelObj& k) {
        auto* f = static_cast<FunctionObj*>(k.func.o);
        const std::string& fname = f->info->name;
        if (!c.keywords.empty() || !c.simple) fail(c, types::TypeError, name_, "a device function takes positional arguments only");
        if (c.args.size() != f->info->params.size())
            fail(c, types::TypeError, name_, fname + "() takes " + std::to_string(f->info->params.size()) + " arguments (" + std::to_string(c.args.size()) + " given)");
        std::vector<std::optional<ArrayParam>> arrays;
        std::vector<DType> scalars;
        std::vector<X> xs;
        std::string key = fname + "(";
        for (const ExprP& a : c.args) {
            X x = expr(*a);
            if (x.tuple || x.none) fail(*a, types::TypeError, name_, "a device function takes arrays and numbers");
            if (x.array >= 0) {
                arrays.push_back(ArrayParam{x.type, x.ndim});
                key += std::string(name(x.type)) + "[" + std::to_string(x.ndim) + "],";
            } else {
                arrays.push_back(std::nullopt);
                key += std::string(name(x.type)) + ",";
            }
            scalars.push_back(x.type);
            xs.push_back(std::move(x));
        }
        key += ")@" + std::to_string(reinterpret_cast<uintptr_t>(f));
        auto it = unit_.done.find(key);
        if (it == unit_.done.end()) {
            if (unit_.in_progress.count(key)) fail(c, types::TypeError, name_, "a device function cannot call itself (" + fname + ")");
            unit_.in_progress.insert(key);
            const std::string c_name = "gpy_dev_" + fname + "_" + std::to_string(unit_.next_name++);  // unique even while nested ones translate
            Translator t(*f, arrays, scalars, unit_, true);
            bool returns = false;
            const DType r = t.translate_device(c_name, returns);
            unit_.in_progress.erase(key);
            it = unit_.done.emplace(key, Unit::Function{c_name, r, returns}).first;
        }
        std::string code = it->second.name + "(";
        for (size_t i = 0; i < xs.size(); ++i) code += (i ? ", " : "") + xs[i].code;
        X r{code + ")", it->second.type};
        r.none = !it->second.returns;
        return r;
    }

    void declare(const std::string& id, DType t, const Node& at) {
        if (arrays_.count(id)) fail(at, types::TypeError, name_, "cannot assign to the array '" + id + "'");
        if (vars_.count(id)) return;
        vars_[id] = t;
        locals_.push_back(id);
    }

    void assign(const Expr& target, const X& v, int depth, const Node& at) {
        if (v.none) fail(at, types::TypeError, name_, "the device function returns nothing");
        if (v.array >= 0) fail(at, types::TypeError, name_, "a jit kernel cannot bind an array to another name");
        if (target.kind == EK::Name) {
            const std::string& id = static_cast<const NameExpr&>(target).id;
            if (v.tuple) fail(at, types::TypeError, name_, "assign a tuple to as many names (i, j = jit.grid(2))");
            declare(id, v.type, at);
            line(depth, id + " = " + cast(v, vars_[id]) + ";");
            return;
        }
        if (target.kind == EK::Tuple) {
            auto& names = static_cast<const SeqExpr&>(target).elts;
            if (!v.tuple || v.items.size() != names.size()) fail(at, types::ValueError, name_, "cannot unpack into " + std::to_string(names.size()) + " names");
            for (size_t k = 0; k < names.size(); ++k) assign(*names[k], v.items[k], depth, at);
            return;
        }
        if (target.kind == EK::Subscript) {
            X el = array_element(static_cast<const SubscriptExpr&>(target));
            line(depth, el.code + " = " + cast(v, el.type) + ";");
            return;
        }
        fail(at, types::TypeError, name_, "a jit kernel assigns to names and array elements only");
    }

    void block(const Block& b, int depth) {
        for (const StmtP& s : b) stmt(*s, depth);
    }

    void stmt(const Stmt& s, int depth) {
        switch (s.kind) {
        case SK::Expr:
            // A docstring (or any constant) as a statement does nothing.
            if (static_cast<const ExprStmt&>(s).value->kind == EK::Const) return;
            line(depth, expr(*static_cast<const ExprStmt&>(s).value).code + ";");
            return;
        case SK::Pass: return;
        case SK::Break: line(depth, "break;"); return;
        case SK::Continue: line(depth, "continue;"); return;
        case SK::Return: {
            auto& r = static_cast<const ReturnStmt&>(s);
            if (!device_) {
                if (r.value) fail(s, types::TypeError, name_, "a jit kernel returns nothing (a device function, @jit.rawkernel(device=True), returns a value)");
                line(depth, "return;");
                return;
            }
            if (!r.value) {
                if (ret_) fail(s, types::TypeError, name_, "a device function returns a value on some paths and nothing on others");
                bare_return_ = true;
                line(depth, "return;");
                return;
            }
            X v = expr(*r.value);
            if (v.array >= 0 || v.tuple || v.none) fail(*r.value, types::TypeError, name_, "a device function returns one number");
            if (bare_return_) fail(s, types::TypeError, name_, "a device function returns a value on some paths and nothing on others");
            if (!ret_) {
                ret_ = v.type;
                ret_weak_ = v.weak;
            } else {
                ret_ = result_type(X{"", *ret_, ret_weak_}, v);
                ret_weak_ = ret_weak_ && v.weak;
            }
            line(depth, "return (gpy_ret_" + c_name_ + ")(" + v.code + ");");
            return;
        }
        case SK::Assign: {
            auto& a = static_cast<const AssignStmt&>(s);
            // x = jit.shared_memory(np.float32, 256): a __shared__ array
            if (a.value->kind == EK::Call && a.targets.size() == 1 && a.targets[0]->kind == EK::Name) {
                auto& c = static_cast<const CallExpr&>(*a.value);
                if (c.func->kind == EK::Attribute && is_jit(*static_cast<const AttributeExpr&>(*c.func).value) &&
                    static_cast<const AttributeExpr&>(*c.func).attr == "shared_memory") {
                    const std::string& id = static_cast<const NameExpr&>(*a.targets[0]).id;
                    if (c.args.size() != 2) fail(c, types::TypeError, name_, "jit.shared_memory(dtype, size) takes two arguments");
                    const Expr& size = *c.args[1];
                    // size None: the launch's dynamic shared memory (CuPy's), whose size the kernel does not know.
                    const bool dynamic = size.kind == EK::Const && static_cast<const ConstExpr&>(size).value.is_none();
                    if (!dynamic && (size.kind != EK::Const || static_cast<const ConstExpr&>(size).value.kind != VK::Int ||
                                     static_cast<const ConstExpr&>(size).value.i <= 0))
                        fail(size, types::TypeError, name_, "jit.shared_memory(dtype, size) takes a constant positive size (or None)");
                    const DType t = dtype_named(*c.args[0]);
                    const int64_t n = dynamic ? 0 : static_cast<const ConstExpr&>(size).value.i;
                    if (arrays_.count(id) || vars_.count(id)) fail(s, types::TypeError, name_, "'" + id + "' is already defined");
                    arrays_[id] = ArrayParam{t, 1};
                    const std::string ct = ctype(t), count = std::to_string(n);
                    shared_ += dynamic ? "    extern __shared__ " + ct + " gpy_sm_" + id + "[];\n"
                                       : "    __shared__ " + ct + " gpy_sm_" + id + "[" + count + "];\n";
                    // The same view as a parameter array: it can go to a device function.
                    shared_ += "    const gpy_raw<" + ct + ", 1> " + id + " = {gpy_sm_" + id + ", " + count + ", 1, {" + count + "}, {" +
                               std::to_string(itemsize(t)) + "}};\n";
                    return;
                }
            }
            X v = expr(*a.value);
            for (auto& t : a.targets) assign(*t, v, depth, s);
            return;
        }
        case SK::AugAssign: {
            auto& a = static_cast<const AugAssignStmt&>(s);
            // target op= value: target = target op value (targets are names or elements)
            X cur = expr(*a.target), v = expr(*a.value);
            if (cur.array >= 0 || cur.tuple) fail(s, types::TypeError, name_, "a jit kernel updates names and array elements only");
            X r = binary(a.op, cur, v, s);
            line(depth, cur.code + " = " + cast(r, cur.type) + ";");
            return;
        }
        case SK::If: {
            auto& i = static_cast<const IfStmt&>(s);
            line(depth, "if (" + expr(*i.test).code + ") {");
            block(i.body, depth + 1);
            if (!i.orelse.empty()) {
                line(depth, "} else {");
                block(i.orelse, depth + 1);
            }
            line(depth, "}");
            return;
        }
        case SK::While: {
            auto& w = static_cast<const WhileStmt&>(s);
            if (!w.orelse.empty()) fail(s, types::TypeError, name_, "a jit kernel has no while ... else");
            line(depth, "while (" + expr(*w.test).code + ") {");
            block(w.body, depth + 1);
            line(depth, "}");
            return;
        }
        case SK::For: {
            auto& f = static_cast<const ForStmt&>(s);
            if (!f.orelse.empty()) fail(s, types::TypeError, name_, "a jit kernel has no for ... else");
            const CallExpr* rc = f.iter->kind == EK::Call ? static_cast<const CallExpr*>(f.iter.get()) : nullptr;
            const bool py_range = rc && rc->func->kind == EK::Name && static_cast<const NameExpr&>(*rc->func).id == "range";
            const bool jit_range = rc && rc->func->kind == EK::Attribute && static_cast<const AttributeExpr&>(*rc->func).attr == "range" &&
                                   is_jit(*static_cast<const AttributeExpr&>(*rc->func).value);
            if (f.target->kind != EK::Name || !(py_range || jit_range))
                fail(s, types::TypeError, name_, "a jit kernel loops `for NAME in range(...)` (or jit.range) only");
            auto& r = *rc;
            // jit.range(..., unroll=None|True|False|n): CUDA's #pragma unroll.
            std::string pragma;
            for (const Keyword& kw : r.keywords) {
                if (!jit_range || kw.name != "unroll") fail(r, types::TypeError, name_, "range() got an unexpected keyword argument '" + kw.name + "'");
                if (kw.value->kind != EK::Const) fail(*kw.value, types::TypeError, name_, "unroll takes a constant (None, True, False or an int)");
                const Value& u = static_cast<const ConstExpr&>(*kw.value).value;
                if (u.kind == VK::Bool) pragma = u.b ? "#pragma unroll" : "#pragma unroll 1";
                else if (u.kind == VK::Int) {
                    if (u.i < 1 || u.i > (int64_t(1) << 31) - 1) fail(*kw.value, types::ValueError, name_, "unroll must be a positive 32-bit integer");
                    pragma = "#pragma unroll " + std::to_string(u.i);
                } else if (!u.is_none()) fail(*kw.value, types::TypeError, name_, "unroll takes None, True, False or an int");
            }
            if (r.args.empty() || r.args.size() > 3) fail(r, types::TypeError, name_, "range() takes 1 to 3 arguments");
            X start = r.args.size() > 1 ? expr(*r.args[0]) : X{"0LL", DType::Int64, true};
            X stop = expr(*r.args[r.args.size() > 1 ? 1 : 0]);
            X step = r.args.size() > 2 ? expr(*r.args[2]) : X{"1LL", DType::Int64, true};
            const DType t = result_type(X{"", result_type(start, stop), start.weak && stop.weak}, step);
            if (!is_integer(t)) fail(r, types::TypeError, name_, "range() takes integers");
            const std::string& id = static_cast<const NameExpr&>(*f.target).id;
            declare(id, t, s);
            const std::string k = std::to_string(temps_++);
            line(depth, "{");
            line(depth + 1, "const " + ctype(vars_[id]) + " gpy_stop" + k + " = " + cast(stop, vars_[id]) + ", gpy_step" + k + " = " +
                                cast(step, vars_[id]) + ";");
            // A counter of its own: after the loop the name holds the last value, as Python's.
            if (!pragma.empty()) body_ << pragma << "\n";
            line(depth + 1, "for (" + ctype(vars_[id]) + " gpy_i" + k + " = " + cast(start, vars_[id]) + "; gpy_step" + k + " > 0 ? gpy_i" + k +
                                " < gpy_stop" + k + " : gpy_i" + k + " > gpy_stop" + k + "; gpy_i" + k + " += gpy_step" + k + ") {");
            line(depth + 2, id + " = gpy_i" + k + ";");
            block(f.body, depth + 2);
            line(depth + 1, "}");
            line(depth, "}");
            return;
        }
        default: fail(s, types::TypeError, name_, "a jit kernel cannot use this statement");
        }
    }
};

// The signature of a call: each argument's dtype (and rank for arrays).
struct Signature {
    std::vector<std::optional<ArrayParam>> arrays;
    std::vector<DType> scalars;
    std::string key;
};

Signature signature_of(const JitKernelObj* k, const Value* args, size_t n) {
    auto* f = static_cast<FunctionObj*>(k->func.o);
    if (n != f->info->params.size())
        raise(types::TypeError, f->info->name + "() takes " + std::to_string(f->info->params.size()) + " arguments (" + std::to_string(n) + " given)");
    Signature s;
    for (size_t i = 0; i < n; ++i) {
        ArrayObj* a = as_array(args[i]);
        if (a && !a->numpy_scalar) {
            s.arrays.push_back(ArrayParam{a->dtype, a->ndim()});
            s.scalars.push_back(a->dtype);
            s.key += std::string(name(a->dtype)) + "[" + std::to_string(a->ndim()) + "],";
            continue;
        }
        DType t;
        if (a) t = a->dtype;
        else if (args[i].kind == VK::Bool) t = DType::Bool;
        else if (args[i].kind == VK::Int) t = DType::Int64;
        else if (args[i].kind == VK::Float) t = DType::Float64;
        else raise(types::TypeError, std::string("Unsupported type <class '") + type_name(args[i]) + "'>");
        s.arrays.push_back(std::nullopt);
        s.scalars.push_back(t);
        s.key += std::string(name(t)) + ",";
    }
    return s;
}

void put(std::vector<uint8_t>& b, const void* p, size_t n) {
    const size_t at = b.size();
    b.resize(at + n);
    std::memcpy(b.data() + at, p, n);
}

void launch_jit(Interp& in, JitKernelObj* k, RawDims grid, RawDims block, int64_t shared, const Value* args, size_t n) {
    if (k->device)
        raise(types::TypeError, "'" + static_cast<FunctionObj*>(k->func.o)->info->name +
                                    "' is a device function (device=True): call it from a jit kernel, not the host");
    Signature s = signature_of(k, args, n);
    auto* f = static_cast<FunctionObj*>(k->func.o);
    Value& kernel = k->kernels[s.key];
    if (kernel.is_undef()) {
        Unit unit;
        Translator t(*f, s.arrays, s.scalars, unit);
        auto source = std::make_shared<RawSource>();
        source->code = t.translate();
        source->file = f->info->name + ".cu";
        kernel = make_raw_kernel_object(source, f->info->name, "jit kernel");
    }
    std::vector<std::vector<uint8_t>> bytes(n);
    for (size_t i = 0; i < n; ++i) {
        if (s.arrays[i]) {
            ArrayObj* a = as_array(args[i]);
            void* p = kernel_pointer(a, true, [&] { return "argument " + f->info->params[i].name + " of jit kernel '" + f->info->name + "'"; });
            put(bytes[i], &p, sizeof p);
            const int64_t size = a->size(), contiguous = a->c_contiguous() ? 1 : 0;
            put(bytes[i], &size, 8);
            put(bytes[i], &contiguous, 8);
            const int nd = std::max(1, a->ndim());
            for (int d = 0; d < nd; ++d) {
                const int64_t v = a->ndim() ? a->shape[size_t(d)] : 1;
                put(bytes[i], &v, 8);
            }
            for (int d = 0; d < nd; ++d) {
                const int64_t v = a->ndim() ? a->strides[size_t(d)] : 0;
                put(bytes[i], &v, 8);
            }
        } else {
            UserOperand o{nullptr, false, Value(), args[i], s.scalars[i]};
            bytes[i] = scalar_operand_bytes(o);
        }
    }
    std::vector<void*> pointers;
    for (auto& b : bytes) pointers.push_back(b.data());
    if (shared < 0) raise(types::ValueError, "shared_mem must be non-negative");
    launch_packed(kernel, grid, block, size_t(shared), pointers);
}

// k(grid, block, args, shared_mem=0)
Value jit_call(Interp& in, CallArgs& a) {
    auto* k = static_cast<JitKernelObj*>(a.pos[0].o);
    if (a.npos != 4) raise(types::TypeError, "__call__() takes exactly 3 positional arguments (grid, block, args)");
    int64_t shared = 0;
    Value stream = Value::none();
    for (auto& [key, v] : keywords(a)) {
        if (key == "shared_mem") shared = index_arg(v);
        else if (key == "stream") stream = v;
        else raise(types::TypeError, "__call__() got an unexpected keyword argument '" + key + "'");
    }
    const Value& args = a.pos[3];
    if (!args.is_obj() || (args.o->type != types::tuple && args.o->type != types::list))
        raise(types::TypeError, "args must be a tuple, not " + std::string(type_name(args)));
    const auto& items = args.o->type == types::tuple ? static_cast<TupleObj*>(args.o)->items : static_cast<ListObj*>(args.o)->items;
    StreamScope on(stream);
    launch_jit(in, k, launch_dims(a.pos[1], "grid"), launch_dims(a.pos[2], "block"), shared, items.data(), items.size());
    return Value::none();
}

Value jit_launcher(Interp& in, CallArgs& a) {
    auto* cfg = static_cast<TupleObj*>(a.pos[0].o);
    const int64_t shared = cfg->items.size() > 4 ? index_arg(cfg->items[4]) : 0;
    StreamScope on(cfg->items.size() > 3 ? cfg->items[3] : Value::none());
    launch_jit(in, static_cast<JitKernelObj*>(cfg->items[0].o), launch_dims(cfg->items[1], "grid"), launch_dims(cfg->items[2], "block"), shared,
               a.pos + 1, a.npos - 1);
    return Value::none();
}

Value jit_getitem(Interp&, const Value& self, const Value& key) {
    if (!key.is_obj() || key.o->type != types::tuple) raise(types::TypeError, "a launch configuration is kernel[grid, block]");
    const auto& items = static_cast<TupleObj*>(key.o)->items;
    if (items.size() < 2 || items.size() > 4) raise(types::TypeError, "a launch configuration is kernel[grid, block, stream=None, shared_mem=0]");
    std::vector<Value> cfg = {self};
    cfg.insert(cfg.end(), items.begin(), items.end());
    auto* b = new BuiltinObj("jit kernel launch", jit_launcher, "kernel(*args)", "A configured jit kernel launch.");
    b->bound = make_tuple(std::move(cfg));
    return Value::object(b);
}

std::string jit_repr(Interp&, const Value& self) {
    return "<jit kernel '" + static_cast<FunctionObj*>(static_cast<JitKernelObj*>(self.o)->func.o)->info->name + "'>";
}

TypeObject* jit_kernel_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("cupyx.jit._interface._JitRawKernel", nullptr, OK::Other);
        t->getitem = jit_getitem;
        t->repr = jit_repr;
        def_method(t, "__call__", jit_call, "__call__(grid, block, args, *, shared_mem=0, stream=None)", "Launches the kernel.");
        return t;
    }();
    return t;
}

// The decorator's second step; `bound` is whether it makes a device function.
Value wrap_function(Interp&, CallArgs& a) {
    if (a.npos != 2 || !a.pos[1].is_obj() || a.pos[1].o->type->kind != OK::Function)
        raise(types::TypeError, "jit.rawkernel() decorates a function");
    auto* k = new JitKernelObj();
    Value keep = Value::object(k);
    k->func = a.pos[1];
    k->device = a.pos[0].kind == VK::Bool && a.pos[0].b;
    return keep;
}

// jit.rawkernel(*, mode='cuda', device=False): the decorator.
Value rawkernel(Interp&, CallArgs& a) {
    if (a.npos == 1 && a.pos[0].is_obj() && a.pos[0].o->type->kind == OK::Function)
        raise(types::TypeError, "use @jit.rawkernel() (with parentheses), as CuPy");
    if (a.npos) raise(types::TypeError, "rawkernel() takes keyword arguments only (mode=, device=)");
    if (const Value* m = kwarg(a, "mode"); m && str_of(*m, "mode") != "cuda")
        raise(types::ValueError, "jit.rawkernel supports mode='cuda' only");
    const Value* d = kwarg(a, "device");
    auto* b = new BuiltinObj("rawkernel", wrap_function, "rawkernel(func)", "Makes a jit kernel of func.");
    b->bound = Value::boolean(d && truthy(*d));
    return Value::object(b);
}

}  // namespace

ModuleObj* make_cupyx_jit_module(Interp&) {
    auto* jit = new ModuleObj("cupyx.jit");
    jit->doc = "Kernels written in the language's own syntax (CuPy's cupyx.jit).";
    jit->set("rawkernel", make_builtin("rawkernel", rawkernel, "rawkernel(*, mode='cuda', device=False)",
                                       "A decorator: the function becomes a CUDA kernel, launched kernel[grid, block](*args)."));
    for (const char* n : {"threadIdx", "blockIdx", "blockDim", "gridDim"}) jit->set(n, make_str(n));
    jit->set("warpsize", Value::integer(32));
    return jit;
}

}  // namespace gpy
