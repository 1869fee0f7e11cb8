#include "numpy/ufunc_table.h"

#include <iterator>

namespace gpy {

using namespace std::literals;

namespace {
using T = DType;
#include "numpy/ufunc_table.inc"

// The generated table and GPY_UFUNCS list the same ufuncs in the same order,
// so Ufunc indexes kUfuncs.
constexpr bool table_in_enum_order() {
    constexpr std::string_view names[] = {
#define GPY_UFUNC_NAME(n, ...) #n,
        GPY_UFUNCS(GPY_UFUNC_NAME, GPY_UFUNC_NAME, GPY_UFUNC_NAME)
#undef GPY_UFUNC_NAME
    };
    if (std::size(names) != std::size(kUfuncs)) return false;
    for (size_t i = 0; i < std::size(names); ++i)
        if (names[i] != kUfuncs[i].name) return false;
    return true;
}
static_assert(table_in_enum_order(), "numpy/ufunc_table.inc and GPY_UFUNCS disagree: regenerate or reorder");

constexpr UfuncOp kOps[] = {
#define GPY_UFUNC_B(n, op) UfuncOp{UfuncOp::Binary, dag::UnaryOp::Neg, dag::BinaryOp::op},
#define GPY_UFUNC_U(n, op) UfuncOp{UfuncOp::Unary, dag::UnaryOp::op, dag::BinaryOp::Add},
#define GPY_UFUNC_N(n) UfuncOp{UfuncOp::None, dag::UnaryOp::Neg, dag::BinaryOp::Add},
    GPY_UFUNCS(GPY_UFUNC_B, GPY_UFUNC_U, GPY_UFUNC_N)
#undef GPY_UFUNC_B
#undef GPY_UFUNC_U
#undef GPY_UFUNC_N
};
}  // namespace

std::span<const LoopSig> UfuncDef::loops() const {
    return std::span<const LoopSig>(kLoops + first_loop, num_loops);
}

const UfuncDef& ufunc_def(Ufunc u) { return kUfuncs[size_t(u)]; }

UfuncOp ufunc_op(Ufunc u) { return kOps[size_t(u)]; }

const UfuncDef* find_ufunc(std::string_view name) {
    for (const UfuncDef& u : kUfuncs)
        if (u.name == name) return &u;
    return nullptr;
}

std::span<const UfuncDef> all_ufuncs() { return std::span<const UfuncDef>(kUfuncs); }

}  // namespace gpy
