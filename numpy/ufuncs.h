// Elementwise operations and the array operator slots.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "codegen/dag.h"
#include "numpy/promote.h"
#include "lang/interp.h"

namespace gpy {

struct UfuncOptions {
    const Value* out = nullptr;
    std::optional<DType> dtype;
    // where=: a boolean mask; where False, out keeps its value (0 without out=).
    const Value* where = nullptr;
    // The `**` of NumPy scalars: NumPy's scalar math calls pow, without the
    // power loop's sqrt fast path.
    bool scalar_power = false;
    // Called by an operator (x * y): NumPy scalars' errors then name "scalar
    // multiply", as NumPy's scalar math does.
    bool operator_call = false;
};

// np.<f>(*values): builds the lazy node (or writes into out=).
Value apply_ufunc(Interp& in, Ufunc f, std::span<const Value> values, const UfuncOptions& opts = {});
inline Value apply_ufunc(Interp& in, Ufunc f, std::initializer_list<Value> values, const UfuncOptions& opts = {}) {
    return apply_ufunc(in, f, std::span<const Value>(values.begin(), values.size()), opts);
}
// target[...] = value, broadcasting and casting to target's dtype, in place.
// `value_is_temporary`: nothing else sees the value (out=, `a += b`), so
// where it reads the target only at the positions it writes it is computed
// straight into them instead of into a buffer first.
void assign_array(Interp& in, const Value& target, const Value& value, bool value_is_temporary = false);
dag::Shape broadcast_shapes(std::span<const dag::Shape* const> shapes);
inline dag::Shape broadcast_shapes(std::initializer_list<const dag::Shape*> shapes) {
    return broadcast_shapes(std::span<const dag::Shape* const>(shapes.begin(), shapes.size()));
}
dag::ScalarValue convert_scalar(const Value& v, DType t);
// The promotion operand of an array (strong) or a Python scalar (weak, NEP 50).
Operand operand_of(const Value& v);
// np.clip / ndarray.clip: maximum then minimum; None bounds are skipped.
Value clip(Interp& in, const Value& x, const Value* lo, const Value* hi, const UfuncOptions& opts = {});
Value matmul(Interp& in, const Value& a, const Value& b);

// Slots installed on the ndarray type.
Value slot_binary(Interp& in, BinOp op, const Value& a, const Value& b);
Value slot_inplace(Interp& in, BinOp op, const Value& a, const Value& b);
Value slot_unary(Interp& in, UnOp op, const Value& v);
Value slot_compare(Interp& in, CmpOp op, const Value& a, const Value& b);

}  // namespace gpy
