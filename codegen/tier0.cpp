// The tier-0 interpreter (codegen/tier0.h): its opcode table, the kernel
// source generated from it, and the translation of an elementwise tree into
// a program.
#include "codegen/tier0.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "codegen/emit_internal.h"
#include "codegen/op_expr.h"

namespace gpy {

using namespace dag;

namespace {

// The dtypes the interpreter computes in. float16 (rounded after every
// operation) and complex (two-slot values) are left to compiled kernels.
constexpr DType kDtypes[] = {DType::Bool,   DType::Int8,  DType::UInt8,  DType::Int16,   DType::UInt16, DType::Int32,
                             DType::UInt32, DType::Int64, DType::UInt64, DType::Float32, DType::Float64};

bool interpreted(DType t) {
    for (DType d : kDtypes)
        if (d == t) return true;
    return false;
}

// The register field holding a value of dtype t (its compute type).
const char* field(DType t) {
    switch (t) {
        case DType::Bool: return "b";
        case DType::Int8: return "i8";
        case DType::UInt8: return "u8";
        case DType::Int16: return "i16";
        case DType::UInt16: return "u16";
        case DType::Int32: return "i32";
        case DType::UInt32: return "u32";
        case DType::Int64: return "i64";
        case DType::UInt64: return "u64";
        case DType::Float32: return "f32";
        case DType::Float64: return "f64";
        default: return nullptr;
    }
}

// Loads, scalars, stores and selects take no operation: these "ops" name them in the table.
enum Special : uint8_t { kLoad, kScalar, kStore, kSelect };

struct Entry {
    Tier0Opcode what;
    Special special{};  // when what.op is Input (load/store/scalar/select)
    std::string code;   // the case's statement
};

bool is_int(DType t) { return is_integer(t); }
bool is_flt(DType t) { return t == DType::Float32 || t == DType::Float64; }
bool is_num(DType t) { return is_int(t) || is_flt(t); }

// Unary operations by the input dtypes NumPy gives them loops for (others
// are cast first, so never reach a node); the output dtype follows.
bool unary_has(UnaryOp op, DType in, DType* out) {
    *out = in;
    switch (op) {
        case UnaryOp::Pos: case UnaryOp::Abs: case UnaryOp::Conj: return true;
        case UnaryOp::Neg: case UnaryOp::Sign: case UnaryOp::Reciprocal: case UnaryOp::Square:
        case UnaryOp::Floor: case UnaryOp::Ceil: case UnaryOp::Trunc: case UnaryOp::Rint: return is_num(in);
        case UnaryOp::IsNan: case UnaryOp::IsInf: case UnaryOp::IsFinite: case UnaryOp::SignBit: case UnaryOp::LogicalNot:
            *out = DType::Bool;
            return true;
        case UnaryOp::Invert: return is_int(in) || in == DType::Bool;
        case UnaryOp::FrexpExp: return false;  // an int32 out of a float: compiled only
        default: return is_flt(in);  // the transcendental functions, deg2rad, rad2deg
    }
}

bool binary_has(BinaryOp op, DType in, DType* out) {
    *out = in;
    switch (op) {
        case BinaryOp::Add: case BinaryOp::Mul: case BinaryOp::Max: case BinaryOp::Min: case BinaryOp::Fmax: case BinaryOp::Fmin:
            return true;
        case BinaryOp::Sub: case BinaryOp::FloorDiv: case BinaryOp::Mod: case BinaryOp::Fmod: return is_num(in);
        // Signed integer powers can fail (a negative exponent): compiled only.
        case BinaryOp::Pow: return is_flt(in) || (is_int(in) && kind(in) == DKind::UInt);
        case BinaryOp::BitAnd: case BinaryOp::BitOr: case BinaryOp::BitXor: return is_int(in) || in == DType::Bool;
        case BinaryOp::LShift: case BinaryOp::RShift: case BinaryOp::Gcd: case BinaryOp::Lcm: return is_int(in);
        case BinaryOp::Ldexp: return false;  // an integer exponent operand: compiled only
        case BinaryOp::LogicalAnd: case BinaryOp::LogicalOr: case BinaryOp::LogicalXor:
        case BinaryOp::Eq: case BinaryOp::Ne: case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge:
            *out = DType::Bool;
            return true;
        default: return is_flt(in);  // true_divide, arctan2, hypot, copysign, heaviside
    }
}

bool comparison(BinaryOp op) {
    return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt ||
           op == BinaryOp::Ge;
}

// "R[d].f32 = EXPR;" with the operands bound to x0, x1, x2 first (an
// expression may name an operand twice).
std::string assign(DType out, const std::string& expr, std::initializer_list<DType> ins) {
    std::string s = "{ ";
    const char* reg[] = {"ra", "rb", "rc"};
    int i = 0;
    for (DType t : ins) {
        const std::string x = "x" + std::to_string(i);
        s += "const " + compute_type(t) + " " + x + " = R[" + reg[i] + "]." + field(t) + "; (void)" + x + "; ";
        ++i;
    }
    return s + "R[rd]." + field(out) + " = " + expr + "; }";
}

std::vector<Entry> build_table() {
    std::vector<Entry> t;
    auto add = [&](Tier0Opcode w, Special sp, std::string code) { t.push_back({w, sp, std::move(code)}); };
    for (DType d : kDtypes) {
        const std::string ST = storage_type(d), CT = compute_type(d), F = field(d);
        Tier0Opcode w{Op::Input};
        w.out = d;
        add(w, kLoad, "R[rd]." + F + " = *(const " + ST + "*)(P[ra] + gpy_t0_offset(idx, st, rank, ra));");
        add(w, kScalar, "R[rd]." + F + " = (" + CT + ")*(const " + ST + "*)(S + ra);");
        add(w, kStore, "*(" + ST + "*)(P[rb] + gpy_t0_offset(idx, st, rank, rb)) = (" + ST + ")R[ra]." + F + ";");
        add(w, kSelect, "R[rd]." + F + " = R[ra].b ? R[rb]." + F + " : R[rc]." + F + ";");
    }
    for (DType from : kDtypes)
        for (DType to : kDtypes) {
            if (from == to) continue;
            Tier0Opcode w{Op::Cast};
            w.in0 = from;
            w.out = to;
            add(w, kLoad, assign(to, cast_expr("x0", from, to), {from}));
        }
#define X(n, s) UnaryOp::n,
    const UnaryOp unary_ops[] = {GPY_UNARY_OPS(X)};
#undef X
#define X(n, s) BinaryOp::n,
    const BinaryOp binary_ops[] = {GPY_BINARY_OPS(X)};
#undef X
    for (UnaryOp op : unary_ops)
        for (DType in : kDtypes) {
            DType out;
            if (!unary_has(op, in, &out)) continue;
            Tier0Opcode w{Op::Unary, op};
            w.in0 = in;
            w.out = out;
            add(w, kLoad, assign(out, unary_expr(op, in, out, "x0"), {in}));
        }
    for (BinaryOp op : binary_ops) {
        for (DType in : kDtypes) {
            DType out;
            if (!binary_has(op, in, &out)) continue;
            Tier0Opcode w{Op::Binary, {}, op};
            w.in0 = w.in1 = in;
            w.out = out;
            add(w, kLoad, assign(out, binary_expr(op, in, in, out, "x0", "x1"), {in, in}));
        }
        if (comparison(op))  // NumPy's mixed int64/uint64 comparison loops
            for (auto [a, b] : {std::pair{DType::Int64, DType::UInt64}, std::pair{DType::UInt64, DType::Int64}}) {
                Tier0Opcode w{Op::Binary, {}, op};
                w.in0 = a;
                w.in1 = b;
                w.out = DType::Bool;
                add(w, kLoad, assign(DType::Bool, binary_expr(op, a, b, DType::Bool, "x0", "x1"), {a, b}));
            }
    }
    return t;
}

const std::vector<Entry>& table() {
    static const std::vector<Entry> t = build_table();
    return t;
}

// Opcode by what it computes: (op, special, unary, binary, in0, in1, out) packed.
uint64_t key_of(Op op, Special sp, uint8_t sub, DType in0, DType in1, DType out) {
    return uint64_t(op) | uint64_t(sp) << 8 | uint64_t(sub) << 16 | uint64_t(in0) << 24 | uint64_t(in1) << 32 |
           uint64_t(out) << 40;
}
uint64_t key_of(const Entry& e) {
    uint8_t sub = e.what.op == Op::Unary ? uint8_t(e.what.unary) : e.what.op == Op::Binary ? uint8_t(e.what.binary) : 0;
    return key_of(e.what.op, e.special, sub, e.what.in0, e.what.in1, e.what.out);
}

const std::unordered_map<uint64_t, int>& opcodes() {
    static const std::unordered_map<uint64_t, int> m = [] {
        std::unordered_map<uint64_t, int> r;
        for (size_t i = 0; i < table().size(); ++i) r.emplace(key_of(table()[i]), int(i));
        return r;
    }();
    return m;
}

std::string interpreter_body() {
    std::ostringstream s;
    s << "union gpy_t0_reg { bool b; int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32; uint32_t u32;\n"
         "    int64_t i64; uint64_t u64; float f32; double f64; };\n"
         "GPY_INLINE int64_t gpy_t0_offset(const int64_t* idx, const int64_t* st, int rank, int k) {\n"
         "    int64_t o = 0;\n    for (int d = 0; d < rank; ++d) o += idx[d] * st[k * rank + d];\n    return o;\n}\n";
    s << "GPY_KERNEL void KNAME(char** P, const int64_t* M, const uint64_t* S, int64_t begin, int64_t end) {\n"
         "    int err = 0; (void)err;\n"
         "    const int rank = (int)M[0], nops = (int)M[1], ncode = (int)M[2];\n"
         "    const int64_t* shape = M + 3;\n    const int64_t* st = shape + rank;\n"
         "    const int64_t* code = st + (int64_t)nops * rank;\n"
         "    for (int64_t i = begin; i < end; ++i) {\n"
         "        int64_t idx[" << kTier0MaxRank << "];\n"
         "        if (rank == 1) idx[0] = i;\n"
         "        else { int64_t r = i; for (int d = rank - 1; d >= 0; --d) { idx[d] = r % shape[d]; r /= shape[d]; } }\n"
         "        gpy_t0_reg R[" << kTier0Registers << "];\n"
         "        for (int pc = 0; pc < ncode; ++pc) {\n"
         "            const int64_t w = code[pc];\n"
         "            const int rd = (int)((w >> 16) & 255), ra = (int)((w >> 24) & 255), rb = (int)((w >> 32) & 255), rc = (int)((w >> 40) & 255);\n"
         "            (void)rd; (void)ra; (void)rb; (void)rc;\n"
         "            switch ((int)(w & 65535)) {\n";
    for (size_t i = 0; i < table().size(); ++i) s << "            case " << i << ": " << table()[i].code << " break;\n";
    s << "            }\n        }\n    }\n}\n";
    return s.str();
}

// Builds a program: registers hold values until their last reader has run.
class Translator {
public:
    Translator(const std::map<const Node*, size_t>& operands, const std::map<const Node*, size_t>& scalars)
        : operands_(operands), scalars_(scalars) {}

    bool run(const std::vector<NodeP>& roots) {
        for (const NodeP& r : roots) count_uses(eff(r.get()));
        for (const NodeP& r : roots) ++uses_[eff(r.get())];  // its store
        for (size_t k = 0; k < roots.size(); ++k) {
            const Node* r = eff(roots[k].get());
            int v = value(r);
            if (v < 0 || !interpreted(r->dtype)) return false;
            if (!emit(key_of(Op::Input, kStore, 0, {}, {}, r->dtype), 0, v, int(k))) return false;
            release(r);
        }
        return true;
    }
    std::vector<int64_t> code;

private:
    const std::map<const Node*, size_t>& operands_;
    const std::map<const Node*, size_t>& scalars_;
    std::unordered_map<const Node*, int> uses_;  // readers not yet emitted (stores included)
    std::unordered_map<const Node*, int> reg_;
    std::vector<bool> busy_ = std::vector<bool>(kTier0Registers, false);

    static const Node* eff(const Node* n) { return n->result ? n->result.get() : n; }

    void count_uses(const Node* n) {
        if (uses_.count(n)) return;
        uses_[n] = 0;
        if (n->op == Op::Input || n->op == Op::Scalar) return;
        for (const NodeP& c : n->in) {
            const Node* e = eff(c.get());
            count_uses(e);
            ++uses_[e];
        }
    }

    bool emit(uint64_t key, int d, int a = 0, int b = 0, int c = 0) {
        auto it = opcodes().find(key);
        if (it == opcodes().end() || code.size() >= size_t(kTier0MaxCode)) return false;
        code.push_back(int64_t(it->second) | int64_t(d) << 16 | int64_t(a) << 24 | int64_t(b) << 32 | int64_t(c) << 40);
        return true;
    }

    void release(const Node* n) {
        if (--uses_[n] == 0) busy_[reg_.at(n)] = false;
    }

    int allocate() {
        for (int r = 0; r < kTier0Registers; ++r)
            if (!busy_[r]) {
                busy_[r] = true;
                return r;
            }
        return -1;
    }

    // The register holding n's value (emitting what computes it), or -1.
    int value(const Node* n) {
        if (auto it = reg_.find(n); it != reg_.end()) return it->second;
        if (!interpreted(n->dtype)) return -1;  // inputs too: value() of each checks it
        std::vector<int> in;
        if (n->op != Op::Input && n->op != Op::Scalar)
            for (const NodeP& c : n->in) {
                int r = value(eff(c.get()));
                if (r < 0) return -1;
                in.push_back(r);
            }
        // Operands are read before the result is written: the result may take a freed register.
        for (const NodeP& c : n->in)
            if (n->op != Op::Input && n->op != Op::Scalar) release(eff(c.get()));
        int d = allocate();
        if (d < 0) return -1;
        bool ok = false;
        switch (n->op) {
            case Op::Input: ok = emit(key_of(Op::Input, kLoad, 0, {}, {}, n->dtype), d, int(operands_.at(n))); break;
            case Op::Scalar: ok = emit(key_of(Op::Input, kScalar, 0, {}, {}, n->dtype), d, int(scalars_.at(n))); break;
            case Op::Cast: ok = emit(key_of(Op::Cast, kLoad, 0, eff(n->in[0].get())->dtype, {}, n->dtype), d, in[0]); break;
            case Op::Unary:
                ok = emit(key_of(Op::Unary, kLoad, uint8_t(n->unary), eff(n->in[0].get())->dtype, {}, n->dtype), d, in[0]);
                break;
            case Op::Binary:
                ok = emit(key_of(Op::Binary, kLoad, uint8_t(n->binary), eff(n->in[0].get())->dtype, eff(n->in[1].get())->dtype,
                                 n->dtype),
                          d, in[0], in[1]);
                break;
            case Op::Where:
                ok = eff(n->in[0].get())->dtype == DType::Bool && eff(n->in[1].get())->dtype == n->dtype &&
                     eff(n->in[2].get())->dtype == n->dtype &&
                     emit(key_of(Op::Input, kSelect, 0, {}, {}, n->dtype), d, in[0], in[1], in[2]);
                break;
            default: break;  // reductions, expands: not elementwise
        }
        if (!ok) return -1;
        reg_[n] = d;
        return d;
    }
};

}  // namespace

std::vector<Tier0Opcode> tier0_opcodes() {
    std::vector<Tier0Opcode> r;
    for (const Entry& e : table())
        if (e.what.op != Op::Input) r.push_back(e.what);
    return r;
}

const std::shared_ptr<const KernelSource>& tier0_interpreter() {
    static const std::shared_ptr<const KernelSource> k = [] {
        auto src = std::make_shared<KernelSource>();
        std::string body = interpreter_body();
        char name[32];
        std::snprintf(name, sizeof name, "gpy_t0_%016llx", (unsigned long long)fnv1a(body));
        for (size_t p = body.find("KNAME"); p != std::string::npos; p = body.find("KNAME", p)) body.replace(p, 5, name);
        src->name = name;
        src->body = std::move(body);
        src->kind = KernelSource::Elementwise;
        src->summary = "tier-0 interpreter";
        src->rank = 1;
        src->n_ptrs = kTier0MaxOperands;
        src->n_meta = kTier0MetaSlots;
        src->n_scalars = kTier0MaxScalars;
        return src;
    }();
    return k;
}

std::vector<int64_t> tier0_program(const std::vector<NodeP>& roots, const std::map<const Node*, size_t>& operands,
                                   const std::map<const Node*, size_t>& scalars, int rank, int n_operands, int n_scalars) {
    if (rank < 1 || rank > kTier0MaxRank || n_operands > kTier0MaxOperands || n_scalars > kTier0MaxScalars) return {};
    Translator t(operands, scalars);
    if (!t.run(roots)) return {};
    return std::move(t.code);
}

bool tier0_interprets(const NodeP& root) {
    std::unordered_set<const Node*> seen;
    std::vector<const Node*> todo{root.get()};
    while (!todo.empty()) {
        const Node* n = todo.back();
        todo.pop_back();
        if (n->result || !seen.insert(n).second) continue;
        if (!interpreted(n->dtype)) return false;
        if (n->op == Op::Input || n->op == Op::Scalar) continue;
        auto dtype_of = [](const NodeP& c) { return (c->result ? c->result : c)->dtype; };
        bool ok = true;
        switch (n->op) {
            case Op::User: return false;  // a user's C++: only a compiled kernel runs it
            case Op::Cast: ok = opcodes().count(key_of(Op::Cast, kLoad, 0, dtype_of(n->in[0]), {}, n->dtype)) > 0; break;
            case Op::Unary:
                ok = opcodes().count(key_of(Op::Unary, kLoad, uint8_t(n->unary), dtype_of(n->in[0]), {}, n->dtype)) > 0;
                break;
            case Op::Binary:
                ok = opcodes().count(key_of(Op::Binary, kLoad, uint8_t(n->binary), dtype_of(n->in[0]), dtype_of(n->in[1]),
                                            n->dtype)) > 0;
                break;
            default: break;  // where (any interpreted dtype); reductions and expands: compiled kernels
        }
        if (!ok) return false;
        for (const NodeP& c : n->in) todo.push_back(c.get());
    }
    return true;
}

KernelPlan tier0_plan(const KernelPlan& plan) {
    const KernelSource& k = *plan.source;
    KernelPlan t = plan;
    t.source = tier0_interpreter();
    const Launch& L = plan.launch;
    t.launch.meta.clear();
    t.launch.meta.reserve(3 + L.meta.size() + k.tier0.size());
    t.launch.meta.push_back(k.rank);
    t.launch.meta.push_back(int64_t(L.ptrs.size()));
    t.launch.meta.push_back(int64_t(k.tier0.size()));
    t.launch.meta.insert(t.launch.meta.end(), L.meta.begin(), L.meta.end());
    t.launch.meta.insert(t.launch.meta.end(), k.tier0.begin(), k.tier0.end());
    return t;
}

Tier0Mode tier0_mode_from_environment() {
    static const Tier0Mode mode = [] {
        const char* e = std::getenv("GPY_TIER0");
        if (!e || !*e || std::strcmp(e, "1") == 0) return Tier0Mode::Auto;
        if (std::strcmp(e, "always") == 0) return Tier0Mode::Always;
        return Tier0Mode::Off;
    }();
    return mode;
}

}  // namespace gpy
