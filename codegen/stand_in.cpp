#include "codegen/stand_in.h"

#include <algorithm>
#include <mutex>
#include <unordered_set>

#include "codegen/tier0.h"

namespace gpy {

using namespace dag;

namespace {

thread_local bool t_standing_in = false;

// An unfused temporary (a reduction's input, materialised) larger than this
// is a memory cost the fused kernel never pays: compile first instead.
constexpr double kMostTemporaryBytes = 1024.0 * 1024 * 1024;

bool pending(const Node* n) { return !n->result && n->op != Op::Input && n->op != Op::Scalar; }

// The unfused plan's size: pending nodes of `roots`' trees (an instruction
// each, about), the elements of the largest, and whether any is elementwise
// (work for the interpreter).
struct Extent {
    size_t nodes = 0;
    double largest = 0, largest_bytes = 0;
    bool elementwise = false;
};

Extent extent_of(std::span<const NodeP> roots) {
    Extent e;
    std::unordered_set<const Node*> seen;
    std::vector<const Node*> todo;
    for (const NodeP& r : roots) todo.push_back(r.get());
    while (!todo.empty()) {
        const Node* n = todo.back();
        todo.pop_back();
        if (!pending(n) || !seen.insert(n).second) continue;
        ++e.nodes;
        e.largest = std::max(e.largest, double(n->size()));
        e.largest_bytes = std::max(e.largest_bytes, double(n->size()) * double(itemsize(n->dtype)));
        e.elementwise |= n->op != Op::Reduce && n->op != Op::Expand;
        for (const NodeP& c : n->in) todo.push_back(c.get());
    }
    return e;
}

}  // namespace

StandInScope::StandInScope() : saved_(t_standing_in), reason_("a stand-in while its fused kernel compiles") {
    t_standing_in = true;
}
StandInScope::~StandInScope() { t_standing_in = saved_; }

bool standing_in() { return t_standing_in; }

bool stand_in_first(std::span<const NodeP> roots, const KernelPlan& plan) {
    const KernelReadiness& ready = plan_context().readiness;
    if (t_standing_in || !ready || plan.source->kind == KernelSource::Elementwise) return false;
    if (tier0_mode() == Tier0Mode::Off) return false;
    // Compiled kernels (every repeat) first: the walks below cost more. A
    // kernel that then runs fused after all waits for the compile this
    // started, as it would have compiled before its launch.
    if (ready(plan, false)) return false;
    // A reduction of an array: nothing to interpret (its own kernel is the plain one).
    Extent e = extent_of(roots);
    if (!e.elementwise || e.largest * double(e.nodes) > kTier0MostWork || e.largest_bytes > kMostTemporaryBytes) return false;
    for (const NodeP& r : roots)
        if (!tier0_interprets(r)) return false;
    return true;
}

void compile_generic_reductions_ahead() {
    static std::once_flag once;
    std::call_once(once, [] {
        const KernelReadiness& ready = plan_context().readiness;
        if (!ready) return;
        struct Generic {
            ReduceOp op;
            DType in, out;
        };
        const DType f32 = DType::Float32, f64 = DType::Float64, i64 = DType::Int64, b = DType::Bool;
        const Generic common[] = {
            {ReduceOp::Sum, f32, f32},    {ReduceOp::Sum, f64, f64},    {ReduceOp::Sum, i64, i64},
            {ReduceOp::Max, f32, f32},    {ReduceOp::Max, f64, f64},    {ReduceOp::Max, i64, i64},
            {ReduceOp::Min, f32, f32},    {ReduceOp::Min, f64, f64},    {ReduceOp::Min, i64, i64},
            {ReduceOp::Prod, f32, f32},   {ReduceOp::Prod, f64, f64},   {ReduceOp::ArgMax, f32, i64},
            {ReduceOp::ArgMax, f64, i64}, {ReduceOp::ArgMin, f32, i64}, {ReduceOp::ArgMin, f64, i64},
            {ReduceOp::Any, b, b},        {ReduceOp::All, b, b},
        };
        // The shapes stand-ins reduce: one row (a full reduction) and rows.
        const Shape shapes[] = {{1024}, {4, 1024}};
        for (const Generic& g : common)
            for (const Shape& s : shapes) {
                NodeP x = make_input(BufferRef(Buffer::allocate(size_t(4096) * itemsize(g.in))), g.in, s,
                                     contiguous_strides(s, itemsize(g.in)), 0);
                KernelPlan plan = emit_kernel(make_reduce(g.op, x, {int(s.size()) - 1}, g.out));
                ready(plan, true);
            }
    });
}

}  // namespace gpy
