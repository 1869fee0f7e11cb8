// NumPy 2 dtype rules: casting, promotion, result_type with NEP 50 "weak"
// Python scalars, and ufunc loop (type) resolution. NumPy is the oracle:
// tests/unit/gen_promote_cases.py records its answers in promote_cases.inc.
#pragma once

#include "base/python_error.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <span>
#include <string_view>
#include <vector>

#include "base/dtype.h"
#include "numpy/ufunc_table.h"

namespace gpy {

// Python scalars are "weak" (NEP 50): their dtype gives way to the arrays'.
// A Python bool is not weak in NumPy (it is just a bool); WeakKind::Bool marks
// it as a scalar but it promotes exactly as a bool array.
enum class WeakKind : uint8_t { None, Bool, Int, Float, Complex };

struct Operand {
    DType dtype;                // for weak scalars: the default dtype (bool, int64, float64, complex128)
    WeakKind weak = WeakKind::None;
    int64_t int_value = 0;      // weak ints: the value (range checks)
    double float_value = 0;     // weak floats (informational: NumPy casts 1e300 into a
                                // float32 loop as inf with a RuntimeWarning, no error)

    static Operand array(DType t) { return Operand{t}; }
    static Operand py_bool(bool v) { return Operand{DType::Bool, WeakKind::Bool, v ? 1 : 0}; }
    static Operand py_int(int64_t v) { return Operand{DType::Int64, WeakKind::Int, v}; }
    static Operand py_float(double v) { return Operand{DType::Float64, WeakKind::Float, 0, v}; }
    static Operand py_complex() { return Operand{DType::Complex128, WeakKind::Complex}; }
};

enum class Casting { No, Equiv, Safe, SameKind, Unsafe };

// np.can_cast(from, to, casting)
bool can_cast(DType from, DType to, Casting casting = Casting::Safe);
// np.promote_types(a, b)
DType promote_types(DType a, DType b);
// np.result_type(*ops) with weak Python scalars (never raises: values are not checked).
// Precondition: ops is not empty.
DType result_type(std::span<const Operand> ops);
inline DType result_type(std::initializer_list<Operand> ops) { return result_type(std::span<const Operand>(ops.begin(), ops.size())); }

// A type-resolution failure, with NumPy's exception kind ("TypeError" or
// "OverflowError") and exact message.
struct PromotionError : PythonTypedError {
    using PythonTypedError::PythonTypedError;
};

// The loop a ufunc call runs: the dtypes the inputs are cast to and the
// dtypes it produces.
struct UfuncLoop {
    std::vector<DType> in, out;
    // Set only for a comparison (equal, less, ...) of an integer array with a
    // Python int outside that array's range: NumPy then returns this value for
    // every element (np.uint8 array < 300 -> all True) and never casts the
    // scalar. `in` is then {array dtype, array dtype}, but the scalar must not be
    // cast to it.
    std::optional<bool> constant_result;
};

// Resolves np.<ufunc>(*ops) the way NumPy 2 does (dispatch on exact loops,
// the logical/comparison special cases, then the ufunc's legacy resolver),
// then checks weak Python ints against the loop's integer input dtypes.
// Throws PromotionError (TypeError for no loop / wrong arity,
// OverflowError for "Python integer 300 out of bounds for int8").
UfuncLoop resolve_ufunc(Ufunc f, std::span<const Operand> ops);
inline UfuncLoop resolve_ufunc(Ufunc f, std::initializer_list<Operand> ops) {
    return resolve_ufunc(f, std::span<const Operand>(ops.begin(), ops.size()));
}
// By name (tests, generated cases): also "unknown ufunc 'x'".
UfuncLoop resolve_ufunc(std::string_view name, std::span<const Operand> ops);
inline UfuncLoop resolve_ufunc(std::string_view name, std::initializer_list<Operand> ops) {
    return resolve_ufunc(name, std::span<const Operand>(ops.begin(), ops.size()));
}
// np.<ufunc>(*ops, dtype=want): NumPy's type-tuple resolver with the output
// fixed. The first loop giving `want` whose inputs the operands cast to
// safely (weak Python scalars by kind), else the first loop giving `want` if
// every input casts same_kind ("Cannot cast ufunc 'add' input 0 from ...":
// UFuncTypeError), else "No loop matching the specified signature" (TypeError).
UfuncLoop resolve_ufunc_for_dtype(Ufunc f, std::span<const Operand> ops, DType want);

// resolve_ufunc through a per-thread memo keyed by the ufunc and the operands
// (dtype, weak kind, a weak int's value): an operation in a loop resolves
// once. The reference is valid until the thread's next call. Errors are not
// memoised (they throw again).
const UfuncLoop& resolve_ufunc_memo(Ufunc f, std::span<const Operand> ops);

bool is_known_ufunc(std::string_view name);
int ufunc_nin(std::string_view name);   // -1 for an unknown ufunc
int ufunc_nout(std::string_view name);  // -1 for an unknown ufunc

}  // namespace gpy
