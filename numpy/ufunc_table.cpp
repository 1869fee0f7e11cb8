#include "numpy/ufunc_table.h"

namespace gpy {

using namespace std::literals;

namespace {
using T = DType;
#include "numpy/ufunc_table.inc"
}  // namespace

std::span<const LoopSig> UfuncDef::loops() const {
    return std::span<const LoopSig>(kLoops + first_loop, num_loops);
}

const UfuncDef* find_ufunc(std::string_view name) {
    for (const UfuncDef& u : kUfuncs)
        if (u.name == name) return &u;
    return nullptr;
}

std::span<const UfuncDef> all_ufuncs() { return std::span<const UfuncDef>(kUfuncs); }

}  // namespace gpy
