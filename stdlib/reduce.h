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
};

Value reduce(Interp& in, dag::ReduceOp op, const Value& x, const ReduceOptions& o);
Value mean(Interp& in, const Value& x, const ReduceOptions& o);
Value variance(Interp& in, const Value& x, const ReduceOptions& o, int64_t ddof, bool take_sqrt);
std::vector<int> parse_axes(Interp& in, const Value* axis, int ndim);

}  // namespace gpy
