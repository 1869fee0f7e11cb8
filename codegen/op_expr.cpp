// The C++ expression of one operation on values of given dtypes: what the
// emitter writes for a node (codegen/emit.cpp), and what the tier-0
// interpreter runs for an opcode (codegen/tier0.cpp), so the two compute
// the same bits.
#include "codegen/op_expr.h"

#include <stdexcept>

namespace gpy {

using namespace dag;

std::string compute_type(DType t) {
    if (t == DType::Float16) return "float";
    if (t == DType::Bool) return "bool";
    return info(t).ctype;
}

std::string storage_type(DType t) { return t == DType::Bool ? "bool" : info(t).ctype; }

std::string cast_expr(const std::string& x, DType from, DType to) {
    if (is_complex(to)) return std::string("gpy_to_complex<") + (to == DType::Complex64 ? "float" : "double") + ">(" + x + ")";
    if (is_complex(from)) {
        // NumPy's complex -> real cast keeps the real part (ComplexWarning).
        if (to == DType::Bool) return "gpy_truth(" + x + ")";
        return cast_expr("(" + x + ").re", from == DType::Complex64 ? DType::Float32 : DType::Float64, to);
    }
    if (to == DType::Bool) return "(" + x + " != 0)";
    if (to == DType::Float16) return "gpy_round_half((float)" + x + ")";
    if (is_float(from) && to != DType::Bool && !is_float(to)) return "gpy_ftoi<" + compute_type(to) + ">((double)" + x + ")";
    return "(" + compute_type(to) + ")" + x;
}

std::string unary_expr(UnaryOp op, DType in, DType t, const std::string& x) {
    bool flt = is_float(in);
    if (is_complex(in)) return complex_unary_expr(op, x);
    switch (op) {
        case UnaryOp::Conj: return x;
        case UnaryOp::Neg: return flt ? "-" + x : "gpy_wrap_neg(" + x + ")";
        case UnaryOp::Pos: return x;
        case UnaryOp::Abs: return flt ? "gpy_fabs(" + x + ")" : in == DType::Bool ? x : "gpy_int_abs(" + x + ")";
        case UnaryOp::Sign: return "gpy_sign(" + x + ")";
        case UnaryOp::Reciprocal: return flt ? "(" + compute_type(t) + ")1 / " + x : "(" + x + " == 0 ? (" + compute_type(t) + ")0 : (" + compute_type(t) + ")(1 / " + x + "))";
        case UnaryOp::Square: return flt ? x + " * " + x : "gpy_wrap_mul(" + x + ", " + x + ")";
        case UnaryOp::IsNan: return flt ? "gpy_isnan(" + x + ")" : "false";
        case UnaryOp::IsInf: return flt ? "gpy_isinf(" + x + ")" : "false";
        case UnaryOp::IsFinite: return flt ? "gpy_isfinite(" + x + ")" : "true";
        case UnaryOp::SignBit: return flt ? "gpy_signbit(" + x + ")" : "(" + x + " < 0)";
        case UnaryOp::LogicalNot: return "!(" + x + ")";
        case UnaryOp::Invert: return in == DType::Bool ? "!(" + x + ")" : "(" + compute_type(t) + ")~" + x;
        case UnaryOp::Deg2Rad: return x + " * (" + compute_type(t) + ")(3.14159265358979323846 / 180.0)";
        case UnaryOp::Rad2Deg: return x + " * (" + compute_type(t) + ")(180.0 / 3.14159265358979323846)";
        case UnaryOp::Floor: case UnaryOp::Ceil: case UnaryOp::Trunc: case UnaryOp::Rint:
            if (!flt) return x;
            break;
        // float16 steps through binary16's own bit patterns (computed in float).
        case UnaryOp::Spacing: return (in == DType::Float16 ? "gpy_spacing_half(" : "gpy_spacing(") + x + ")";
        case UnaryOp::FrexpExp: return "(" + compute_type(t) + ")gpy_frexp_exp(" + x + ")";
        default: break;
    }
    return std::string("gpy_") + unary_name(op) + "(" + x + ")";
}

// Complex operands (prelude: gpy_cplx operators and overloads).
std::string complex_unary_expr(UnaryOp op, const std::string& x) {
    switch (op) {
        case UnaryOp::Neg: return "-" + x;
        case UnaryOp::Pos: return x;
        case UnaryOp::Abs: return "gpy_cabs(" + x + ")";
        case UnaryOp::LogicalNot: return "!gpy_truth(" + x + ")";
        default: return std::string("gpy_") + unary_name(op) + "(" + x + ")";
    }
}

std::string complex_binary_expr(BinaryOp op, const std::string& a, const std::string& b) {
    switch (op) {
        case BinaryOp::Add: return a + " + " + b;
        case BinaryOp::Sub: return a + " - " + b;
        case BinaryOp::Mul: return a + " * " + b;
        case BinaryOp::TrueDiv: return a + " / " + b;
        case BinaryOp::Pow: return "gpy_pow(" + a + ", " + b + ")";
        case BinaryOp::Max: return "gpy_maximum(" + a + ", " + b + ")";
        case BinaryOp::Min: return "gpy_minimum(" + a + ", " + b + ")";
        case BinaryOp::Eq: return "(" + a + " == " + b + ")";
        case BinaryOp::Ne: return "(" + a + " != " + b + ")";
        case BinaryOp::Lt: return "gpy_clt(" + a + ", " + b + ")";
        case BinaryOp::Le: return "gpy_cle(" + a + ", " + b + ")";
        case BinaryOp::Gt: return "gpy_clt(" + b + ", " + a + ")";
        case BinaryOp::Ge: return "gpy_cle(" + b + ", " + a + ")";
        case BinaryOp::LogicalAnd: return "(gpy_truth(" + a + ") && gpy_truth(" + b + "))";
        case BinaryOp::LogicalOr: return "(gpy_truth(" + a + ") || gpy_truth(" + b + "))";
        case BinaryOp::LogicalXor: return "(gpy_truth(" + a + ") != gpy_truth(" + b + "))";
        default: throw std::logic_error(std::string("emit: no complex ") + binary_name(op));
    }
}

std::string binary_expr(BinaryOp op, DType in, DType in1, DType out, const std::string& a, const std::string& b) {
    if (is_complex(in)) return complex_binary_expr(op, a, b);
    bool flt = is_float(in);
    bool boolean = in == DType::Bool;
    std::string T = compute_type(out);
    if (in != in1 && is_integer(in) && is_integer(in1)) {  // int64 vs uint64 loop
        switch (op) {
            case BinaryOp::Lt: return "gpy_lt(" + a + ", " + b + ")";
            case BinaryOp::Gt: return "gpy_lt(" + b + ", " + a + ")";
            case BinaryOp::Le: return "!gpy_lt(" + b + ", " + a + ")";
            case BinaryOp::Ge: return "!gpy_lt(" + a + ", " + b + ")";
            case BinaryOp::Eq: return "gpy_eq(" + a + ", " + b + ")";
            case BinaryOp::Ne: return "!gpy_eq(" + a + ", " + b + ")";
            default: break;
        }
    }
    switch (op) {
        case BinaryOp::Add: return flt ? a + " + " + b : boolean ? "(" + a + " || " + b + ")" : "gpy_wrap_add(" + a + ", " + b + ")";
        case BinaryOp::Sub: return flt ? a + " - " + b : "gpy_wrap_sub(" + a + ", " + b + ")";
        case BinaryOp::Mul: return flt ? a + " * " + b : boolean ? "(" + a + " && " + b + ")" : "gpy_wrap_mul(" + a + ", " + b + ")";
        case BinaryOp::TrueDiv: return a + " / " + b;
        case BinaryOp::FloorDiv: return flt ? "gpy_float_floordiv(" + a + ", " + b + ")" : "gpy_int_floordiv(" + a + ", " + b + ")";
        case BinaryOp::Mod: return flt ? "gpy_float_mod(" + a + ", " + b + ")" : "gpy_int_mod(" + a + ", " + b + ")";
        // x % -1 is 0, computed without the division: INT_MIN % -1 traps on x86.
        case BinaryOp::Fmod:
            return flt ? "gpy_fmod(" + a + ", " + b + ")"
                       : "((" + b + " == 0 || ((" + T + ")-1 < 0 && " + b + " == (" + T + ")-1)) ? (" + T + ")0 : (" + T + ")(" + a + " % " + b + "))";
        case BinaryOp::Pow:
            if (flt) return "gpy_pow(" + a + ", " + b + ")";
            return "gpy_int_pow(" + a + ", " + b + ", &err)";
        case BinaryOp::Max: return boolean ? "(" + a + " || " + b + ")" : "gpy_maximum(" + a + ", " + b + ")";
        case BinaryOp::Min: return boolean ? "(" + a + " && " + b + ")" : "gpy_minimum(" + a + ", " + b + ")";
        case BinaryOp::Fmax: return flt ? "gpy_fmax(" + a + ", " + b + ")" : "(" + a + " >= " + b + " ? " + a + " : " + b + ")";
        case BinaryOp::Fmin: return flt ? "gpy_fmin(" + a + ", " + b + ")" : "(" + a + " <= " + b + " ? " + a + " : " + b + ")";
        case BinaryOp::Arctan2: return "gpy_atan2(" + a + ", " + b + ")";
        case BinaryOp::Hypot: return "gpy_hypot(" + a + ", " + b + ")";
        case BinaryOp::Copysign: return "gpy_copysign(" + a + ", " + b + ")";
        case BinaryOp::Heaviside: return "gpy_heaviside(" + a + ", " + b + ")";
        case BinaryOp::Gcd: return "gpy_gcd(" + a + ", " + b + ")";
        case BinaryOp::Lcm: return "gpy_lcm(" + a + ", " + b + ")";
        case BinaryOp::LogAddExp: return "gpy_logaddexp(" + a + ", " + b + ")";
        case BinaryOp::LogAddExp2: return "gpy_logaddexp2(" + a + ", " + b + ")";
        case BinaryOp::Nextafter: return (in == DType::Float16 ? "gpy_nextafter_half(" : "gpy_nextafter(") + a + ", " + b + ")";
        // The exponent operand is an int32 or int64 (NumPy's 'fi->f' and 'fl->f' loops).
        case BinaryOp::Ldexp: return "gpy_ldexp(" + a + ", (int64_t)" + b + ")";
        case BinaryOp::LogicalAnd: return "((" + a + " != 0) && (" + b + " != 0))";
        case BinaryOp::LogicalOr: return "((" + a + " != 0) || (" + b + " != 0))";
        case BinaryOp::LogicalXor: return "((" + a + " != 0) != (" + b + " != 0))";
        case BinaryOp::BitAnd: return boolean ? "(" + a + " && " + b + ")" : "(" + T + ")(" + a + " & " + b + ")";
        case BinaryOp::BitOr: return boolean ? "(" + a + " || " + b + ")" : "(" + T + ")(" + a + " | " + b + ")";
        case BinaryOp::BitXor: return boolean ? "(" + a + " != " + b + ")" : "(" + T + ")(" + a + " ^ " + b + ")";
        case BinaryOp::LShift: return "gpy_lshift(" + a + ", " + b + ")";
        case BinaryOp::RShift: return "gpy_rshift(" + a + ", " + b + ")";
        case BinaryOp::Eq: return "(" + a + " == " + b + ")";
        case BinaryOp::Ne: return "(" + a + " != " + b + ")";
        case BinaryOp::Lt: return "(" + a + " < " + b + ")";
        case BinaryOp::Le: return "(" + a + " <= " + b + ")";
        case BinaryOp::Gt: return "(" + a + " > " + b + ")";
        case BinaryOp::Ge: return "(" + a + " >= " + b + ")";
    }
    return "0";
}

}  // namespace gpy
