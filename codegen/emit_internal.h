// Between the emitter (emit.cpp) and its memo (kernel_memo.cpp): emitting a
// kernel afresh, and where its launch arguments came from, so a later tree
// of the same shape can reuse the source and take only new pointers/values.
#pragma once

#include <cstdint>
#include <string>
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

// FNV-1a over a vector of int64s: the structural keys of the kernel memo and
// of codegen/cse.
struct Int64VectorHash {
    size_t operator()(const std::vector<int64_t>& k) const {
        uint64_t h = 1469598103934665603ull;
        for (int64_t v : k) h = (h ^ uint64_t(v)) * 1099511628211ull;
        return size_t(h);
    }
};

// FNV-1a of a string: kernel names (gpy_k_<hash of body>, gpy_t0_<hash>).
inline uint64_t fnv1a(const std::string& s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

KernelPlan emit_kernel_fresh(const std::vector<dag::NodeP>& roots, const Target* target, EmittedOperands* operands);

}  // namespace gpy
