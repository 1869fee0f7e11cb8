// Common subexpressions by structure: the DAG shares a node only when the
// program reused the same array, so `cnd(d)` and `cnd(-d)` (Black-Scholes),
// or `np.mean(x)` written twice, build equal subtrees that a kernel would
// compute twice. Before a kernel is emitted its trees are rebuilt with each
// structurally equal subtree once.
#pragma once

#include <vector>

#include "codegen/dag.h"

namespace gpy {

// `roots` with equal subtrees merged: pending nodes equal in operation,
// dtype, shape, axes and (merged) inputs become one copy; Input nodes over
// the same view and Scalar nodes with the same dtype and bits become the
// first of them (an original node, so callers can still find it). Computed
// nodes are replaced by their results. Returns new roots in the same order.
std::vector<dag::NodeP> merge_equal_subtrees(const std::vector<dag::NodeP>& roots);

}  // namespace gpy
