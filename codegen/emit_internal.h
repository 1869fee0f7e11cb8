// Between the emitter (emit.cpp) and its memo (kernel_memo.cpp): emitting a
// kernel afresh, and where its launch arguments came from, so a later tree
// of the same shape can reuse the source and take only new pointers/values.
#pragma once

#include <utility>
#include <vector>

#include "codegen/kernel.h"

namespace gpy {

struct EmittedOperands {
    // Launch::ptrs[outputs + k] is inputs[k]'s data (an Input node, or a computed
    // node's result).
    std::vector<const dag::Node*> inputs;
    // Launch::scalars[s] is scalars[s].first's value (its imaginary part
    // when .second: complex128 takes two slots).
    std::vector<std::pair<const dag::Node*, bool>> scalars;
};

KernelPlan emit_kernel_fresh(const std::vector<dag::NodeP>& roots, const Target* target, EmittedOperands* operands);

}  // namespace gpy
