// The planner: decides which kernels compute a pending node, runs them on the
// backend, and leaves the node holding its result.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "base/context.h"
#include "codegen/kernel.h"
#include "codegen/profile.h"
#include "codegen/tier0.h"

namespace gpy {

// Runs one kernel (the interpreter's backend).
using KernelRunner = std::function<void(KernelPlan&)>;

// Whether `plan`'s kernel can launch compiled now, without waiting for a
// compile (none: always). A backend that runs stand-ins (codegen/stand_in.h)
// answers false for a kernel it has not compiled, after starting its compile
// in the background (`ahead`: a kernel compiled ahead of need, queued behind
// every other compile).
using KernelReadiness = std::function<bool(const KernelPlan&, bool ahead)>;

// Observes every kernel the planner runs (GPY_DEBUG, --dump-kernels).
using KernelObserver = std::function<void(const KernelPlan&)>;

// The planner's part of an interpreter's context (base/context.h): how its
// kernels run, and the record of those that ran (%kernels, GPY_DEBUG).
class PlanContext : public Context {
public:
    KernelRunner runner;
    KernelReadiness readiness;
    KernelObserver observer;
    // When kernels run on the tier-0 interpreter (codegen/tier0.h).
    Tier0Mode tier0 = tier0_mode_from_environment();
    // --profile: this interpreter's per-kernel table (null when off).
    std::unique_ptr<profile::Table> profile;
    std::string profile_report() const override { return profile ? profile->report() : std::string(); }

    // Number of kernels run by this interpreter (tests assert fusion through it).
    uint64_t kernels_launched() const override { return launched_.load(std::memory_order_relaxed); }
    // The most recent kernels run (up to 256), for the REPL's %kernels: those
    // whose launch number (kernels_launched() before it ran) is >= `first`.
    std::vector<KernelRecord> kernels_since(uint64_t first) const override;
    // Counts and records a launch.
    void record(const KernelPlan& plan);

private:
    // The last kRecent launches, a ring indexed by launch number (strings are
    // assigned in place, so a warm ring allocates nothing).
    static constexpr size_t kRecent = 256;
    std::atomic<uint64_t> launched_{0};
    mutable std::mutex recent_mu_;
    std::vector<KernelRecord> recent_ = std::vector<KernelRecord>(kRecent);
};

// The bound interpreter's planner context; throws std::logic_error (an
// internal error) when no interpreter with the array module runs on this thread.
PlanContext& plan_context();
// The bound interpreter's tier-0 mode (the process default, $GPY_TIER0, when
// none is bound).
Tier0Mode tier0_mode();

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

}  // namespace gpy
