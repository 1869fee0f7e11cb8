// The C++ expression of one operation (codegen/op_expr.cpp), shared by the
// kernel emitter and the tier-0 interpreter's generator.
#pragma once

#include <string>

#include "codegen/dag.h"

namespace gpy {

// The C++ type a value is computed in: float16 is computed in float and
// rounded back after each operation, as NumPy's float16 loops do.
std::string compute_type(DType t);
// The type it is stored in.
std::string storage_type(DType t);

// `x` (of compute type `from`) converted to `to`.
std::string cast_expr(const std::string& x, DType from, DType to);
// op(x): x of dtype `in`, result of dtype `out` (the node's).
std::string unary_expr(dag::UnaryOp op, DType in, DType out, const std::string& x);
// op(a, b): a of dtype `in`, b of `in1` (equal but for int64/uint64
// comparisons), result of dtype `out`. An integer power calls
// gpy_int_pow(a, b, &err): the caller declares `err`.
std::string binary_expr(dag::BinaryOp op, DType in, DType in1, DType out, const std::string& a, const std::string& b);
std::string complex_unary_expr(dag::UnaryOp op, const std::string& x);
std::string complex_binary_expr(dag::BinaryOp op, const std::string& a, const std::string& b);

}  // namespace gpy
