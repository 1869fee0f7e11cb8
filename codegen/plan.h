// The planner: decides which kernels compute a pending node, runs them on the
// backend, and leaves the node holding its result.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "codegen/kernel.h"

namespace gpy {

// Runs one kernel (set by the active backend; the CPU backend by default).
using KernelRunner = std::function<void(KernelPlan&)>;
void set_kernel_runner(KernelRunner runner);

// Whether `plan`'s kernel can launch compiled now, without waiting for a
// compile (set by the active backend; none: always). A backend that runs
// stand-ins (codegen/stand_in.h) answers false for a kernel it has not
// compiled, after starting its compile in the background (`ahead`: a kernel
// compiled ahead of need, queued behind every other compile).
using KernelReadiness = std::function<bool(const KernelPlan&, bool ahead)>;
KernelReadiness set_kernel_readiness(KernelReadiness readiness);  // returns the one it replaces

// Observes every kernel the planner runs (GPY_DEBUG, --dump-kernels, %kernels).
using KernelObserver = std::function<void(const KernelPlan&)>;
void set_kernel_observer(KernelObserver observer);

// Computes `n` (and whatever it depends on) unless already computed. After
// this, n->result is an Input node over a C-contiguous buffer.
void materialize(const dag::NodeP& n);

// Computes several pending nodes, those of one shape in one multi-output
// kernel (up to kMaxOutputs per kernel; reductions inside them first), so
// their shared subexpressions are computed once (synchronize()).
constexpr size_t kMaxOutputs = 8;
void materialize_together(const std::vector<dag::NodeP>& nodes);

// Computes `n` into an existing strided view (assignment, out=, in-place
// operators). The caller guarantees no input overlaps the target differently.
void materialize_into(const dag::NodeP& n, const Target& target);

// Pending trees larger than this are computed when they grow (bounds loops
// like `x = x * 1.0001 + 0.5`).
constexpr size_t kMaxPendingNodes = 64;

// Number of kernels run since start-up (tests assert fusion through it).
uint64_t kernels_launched();

// The most recent kernels run (up to 256), for the REPL's %kernels: those
// whose launch number (kernels_launched() before it ran) is >= `first`.
// Why pending work is being computed, for GPY_DEBUG's plan report: the code
// that forces a materialisation names it for the scope's duration; the
// innermost reason is reported ("" when none was given). `only_if_unset`
// keeps an outer, more specific reason (the end of an input calls
// synchronize's path).
class MaterializeReason {
public:
    explicit MaterializeReason(const char* why, bool only_if_unset = false);
    ~MaterializeReason();
    MaterializeReason(const MaterializeReason&) = delete;
    MaterializeReason& operator=(const MaterializeReason&) = delete;

private:
    const char* saved_;
};
const char* materialize_reason();

struct KernelRecord {
    uint64_t number;
    std::string name, summary;
};
std::vector<KernelRecord> kernels_since(uint64_t first);

}  // namespace gpy
