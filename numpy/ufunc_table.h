// The ufunc loop table: for each supported NumPy ufunc, its ordered list of
// loops (numpy.<ufunc>.types restricted to gpy's dtypes) and the legacy type
// resolver NumPy uses for it. The data is generated from NumPy
// (tests/unit/gen_promote_cases.py --table > numpy/ufunc_table.inc); the
// algorithm that picks a loop lives in numpy/promote.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "base/dtype.h"
#include "codegen/dag.h"

namespace gpy {

// Every ufunc gpy knows, in the loop table's order, with the DAG operation
// that computes it: B(name, dag::BinaryOp), U(name, dag::UnaryOp), or
// N(name) for one with loops but no operation yet. This is the one place
// a NumPy name meets an operation; the renderers (codegen/op_expr) know
// only the operations, and callers name a ufunc by its enum (Ufunc::exp).
#define GPY_UFUNCS(B, U, N) \
    B(add, Add) B(subtract, Sub) B(multiply, Mul) B(divide, TrueDiv) B(true_divide, TrueDiv) \
    B(floor_divide, FloorDiv) B(remainder, Mod) B(mod, Mod) B(fmod, Fmod) B(power, Pow) B(float_power, Pow) \
    U(negative, Neg) U(positive, Pos) U(absolute, Abs) U(fabs, Abs) U(sign, Sign) U(reciprocal, Reciprocal) \
    U(square, Square) U(sqrt, Sqrt) U(cbrt, Cbrt) U(exp, Exp) U(exp2, Exp2) U(expm1, Expm1) U(log, Log) \
    U(log2, Log2) U(log10, Log10) U(log1p, Log1p) U(sin, Sin) U(cos, Cos) U(tan, Tan) U(arcsin, Arcsin) \
    U(arccos, Arccos) U(arctan, Arctan) B(arctan2, Arctan2) U(sinh, Sinh) U(cosh, Cosh) U(tanh, Tanh) \
    U(arcsinh, Arcsinh) U(arccosh, Arccosh) U(arctanh, Arctanh) B(hypot, Hypot) U(floor, Floor) U(ceil, Ceil) \
    U(trunc, Trunc) U(rint, Rint) B(maximum, Max) B(minimum, Min) B(fmax, Fmax) B(fmin, Fmin) U(isnan, IsNan) \
    U(isinf, IsInf) U(isfinite, IsFinite) U(signbit, SignBit) B(copysign, Copysign) B(logical_and, LogicalAnd) \
    B(logical_or, LogicalOr) U(logical_not, LogicalNot) B(logical_xor, LogicalXor) B(bitwise_and, BitAnd) \
    B(bitwise_or, BitOr) B(bitwise_xor, BitXor) U(invert, Invert) B(left_shift, LShift) B(right_shift, RShift) \
    U(deg2rad, Deg2Rad) U(rad2deg, Rad2Deg) U(degrees, Rad2Deg) U(radians, Deg2Rad) B(heaviside, Heaviside) \
    B(greater, Gt) B(greater_equal, Ge) B(less, Lt) B(less_equal, Le) B(equal, Eq) B(not_equal, Ne) \
    N(divmod) N(modf) U(conjugate, Conj) B(ldexp, Ldexp) N(frexp) B(gcd, Gcd) B(lcm, Lcm) B(logaddexp, LogAddExp) B(logaddexp2, LogAddExp2) \
    B(nextafter, Nextafter) U(spacing, Spacing) N(bitwise_count)

enum class Ufunc : uint8_t {
#define GPY_UFUNC_ID(n, ...) n,
    GPY_UFUNCS(GPY_UFUNC_ID, GPY_UFUNC_ID, GPY_UFUNC_ID)
#undef GPY_UFUNC_ID
};

// NumPy's legacy type resolvers (numpy/_core/src/umath/ufunc_type_resolution.c),
// reduced to what matters without datetimes and objects.
enum class UfuncResolver : uint8_t {
    Default,        // PyUFunc_DefaultTypeResolver: first loop all inputs safely cast to
    SimpleUniform,  // every operand gets result_type(inputs) (add, multiply, maximum, ...)
    Subtraction,    // SimpleUniform, bool rejected
    Negative,       // SimpleUniform, bool rejected
    Absolute,       // complex -> Default (c -> f loops), else SimpleUniform
    TrueDivision,   // int/bool inputs -> the 'dd->d' loop, else Default
    Comparison,     // inputs get result_type(inputs), output bool (+ Python int special loops)
    Logical,        // Comparison resolver, but an inexact match promotes everything to bool
};

// One loop: nin + nout dtypes (at most 4 among the supported ufuncs).
struct LoopSig {
    DType t[4];
};

struct UfuncDef {
    std::string_view name;        // the name it is looked up by ("mod", "true_divide")
    std::string_view numpy_name;  // ufunc.__name__, used in messages ("remainder", "divide")
    uint8_t nin, nout;
    UfuncResolver resolver;
    uint16_t first_loop, num_loops;  // range in the loop table

    int nargs() const { return nin + nout; }
    std::span<const LoopSig> loops() const;
};

const UfuncDef& ufunc_def(Ufunc u);
// nullptr when name is not a supported ufunc.
const UfuncDef* find_ufunc(std::string_view name);
std::span<const UfuncDef> all_ufuncs();
inline Ufunc ufunc_id(const UfuncDef& u) { return Ufunc(&u - all_ufuncs().data()); }

// The DAG operation that computes a ufunc: unary, binary, or none (divmod, modf).
struct UfuncOp {
    enum Kind : uint8_t { None, Unary, Binary } kind;
    dag::UnaryOp unary;
    dag::BinaryOp binary;
};
UfuncOp ufunc_op(Ufunc u);

}  // namespace gpy
