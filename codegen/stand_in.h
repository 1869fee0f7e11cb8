// Stand-ins: a fused reduction or row kernel that is not compiled yet (NVRTC
// takes 100-600 ms) runs unfused while it compiles in the background. Its
// elementwise parts run on the tier-0 interpreter (codegen/tier0.h); each
// reduction becomes a plain reduction of a materialised array with the
// reduced dims last, one of a few generic kernels per operation and dtype
// that the disk cache keeps. The planner (codegen/plan.cpp) calls these.
//
// Results: the same elementwise bits, but a float sum or product may round
// differently from the fused kernel's (another summation order), so a
// statement's first calls can differ from later ones in the last bits
// (docs/differences.md).
#pragma once

#include <span>

#include "codegen/kernel.h"
#include "codegen/plan.h"

namespace gpy {

// While one lives on a thread, the planner plans unfused and the kernels it
// launches are stand-ins (KernelPlan::stand_in).
class StandInScope {
public:
    StandInScope();
    ~StandInScope();
    StandInScope(const StandInScope&) = delete;
    StandInScope& operator=(const StandInScope&) = delete;

private:
    bool saved_;
    MaterializeReason reason_;
};
bool standing_in();

// Whether `roots`, whose fused kernel `plan` is a reduction or row kernel,
// run unfused now: the backend has not compiled the kernel (it then starts
// that compile in the background), the interpreter has their elementwise
// operations, and the unfused temporaries stay small.
bool stand_in_first(std::span<const dag::NodeP> roots, const KernelPlan& plan);

// Queues the compiles of the common generic reductions behind every other
// (once per process, through the bound interpreter's readiness check): the
// CUDA backend calls it when it compiles the interpreter, on a machine's
// first run, so stand-ins find them on disk.
void compile_generic_reductions_ahead();

}  // namespace gpy
