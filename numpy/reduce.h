// Reductions over axes, with NumPy's keyword arguments.
#pragma once

#include <optional>
#include <vector>

#include "codegen/dag.h"
#include "lang/interp.h"

namespace gpy {

struct ReduceOptions {
    const Value* axis = nullptr;  // None / int / tuple
    bool keepdims = false;
    std::optional<DType> dtype;
    const Value* out = nullptr;
    const Value* initial = nullptr;
    const Value* where = nullptr;  // a boolean mask broadcast to x: elements left out count as the identity
};

Value reduce(Interp& in, dag::ReduceOp op, const Value& x, const ReduceOptions& o);
Value mean(Interp& in, const Value& x, const ReduceOptions& o);
// x*x, or re^2 + im^2 for complex x (real): the squared deviations of NumPy's _var and _nanvar.
Value squared_magnitude(Interp& in, const Value& x);
Value variance(Interp& in, const Value& x, const ReduceOptions& o, const Value& ddof, bool take_sqrt);
// A where= mask as a bool node; it must broadcast to `shape` (NumPy's ValueError).
dag::NodeP where_mask(Interp& in, const Value& where, const dag::Shape& shape);
// initial= (or an identity) as a 0-d array of the reduction's dtype t: an
// initial Python int (or NumPy integer) out of t's range is NumPy's
// OverflowError, a float is cast; an identity is cast (bitwise_and's -1 is
// 255 in uint8).
Value initial_value(Interp& in, const Value& v, DType t, bool is_identity = false);
std::vector<int> parse_axes(Interp& in, const Value* axis, int ndim);
// The dtype NumPy's reduction produces (sum/prod widen bool and small ints).
DType reduce_dtype(dag::ReduceOp op, DType in, std::optional<DType> requested);
// Inserts size-1 dims at `axes` (keepdims) into a reduction's result.
Value keep_dims(const Value& r, const std::vector<int>& axes, int ndim);
// Stores a reduction's result r into out= and returns out: NumPy requires
// out to have r's shape exactly (no broadcasting), else its ValueErrors.
// `op` names the ufunc ("add"), `input` is the reduced operand's shape.
Value store_reduction_out(Interp& in, const Value& out, const Value& r, const char* op, const dag::Shape& input, bool keepdims);
// where(isnan(x), fill, x) for inexact x (one fused node); x itself otherwise.
Value replace_nan(Interp& in, const Value& x, const Value& fill);

}  // namespace gpy
