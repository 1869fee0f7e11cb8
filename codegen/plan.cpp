#include "codegen/plan.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "codegen/profile.h"
#include "codegen/stand_in.h"
#include "base/phase_times.h"

namespace gpy {

using namespace dag;

PlanContext& plan_context() {
    Context* c = bound_context();
    if (!c) throw std::logic_error("no interpreter context is bound to this thread (array work outside an interpreter)");
    return static_cast<PlanContext&>(*c);
}

Tier0Mode tier0_mode() {
    const Context* c = bound_context();
    return c ? static_cast<const PlanContext*>(c)->tier0 : tier0_mode_from_environment();
}

std::vector<KernelRecord> PlanContext::kernels_since(uint64_t first) const {
    std::vector<KernelRecord> out;
    uint64_t end = kernels_launched();
    std::lock_guard<std::mutex> lock(recent_mu_);
    for (uint64_t n = std::max(first, end > kRecent ? end - kRecent : 0); n < end; ++n)
        if (recent_[n % kRecent].number == n) out.push_back(recent_[n % kRecent]);
    return out;
}

void PlanContext::record(const KernelPlan& plan) {
    std::lock_guard<std::mutex> lock(recent_mu_);
    uint64_t number = launched_.load(std::memory_order_relaxed);
    KernelRecord& r = recent_[number % kRecent];
    r.number = number;
    r.name = plan.source->name;
    r.summary = plan.source->summary;
    launched_.store(number + 1, std::memory_order_relaxed);
}

static thread_local const char* t_reason = nullptr;
MaterializeReason::MaterializeReason(const char* why, bool only_if_unset) : saved_(t_reason) {
    if (!only_if_unset || !t_reason) t_reason = why;
}
MaterializeReason::~MaterializeReason() { t_reason = saved_; }
const char* materialize_reason() { return t_reason ? t_reason : ""; }

namespace {

bool done(const Node* n) { return n->result || n->op == Op::Input || n->op == Op::Scalar; }

// Un-computed Reduce nodes reachable from n without passing through another
// Reduce (so nested reductions are found level by level), nor through a
// keepdims value unless `into_expands`.
void top_reduces(const NodeP& n, std::vector<NodeP>& out, std::unordered_set<const Node*>& seen, bool into_expands = true) {
    if (done(n.get()) || (!into_expands && n->op == Op::Expand) || !seen.insert(n.get()).second) return;
    if (n->op == Op::Reduce) {
        out.push_back(n);
        return;
    }
    for (auto& c : n->in) top_reduces(c, out, seen, into_expands);
}

void launch(KernelPlan& plan) {
    PlanContext& ctx = plan_context();
    if (!ctx.runner) throw std::logic_error("no kernel runner installed");
    plan.stand_in = standing_in();
    if (ctx.profile) ctx.profile->timed(plan, [&] { ctx.runner(plan); });
    else ctx.runner(plan);
    ctx.record(plan);
    if (ctx.observer) ctx.observer(plan);
}

// Leaves `n` computed, as a C-contiguous view of `computed`'s buffer: an
// Expand of its computed input, or the reverse (size-1 dims inserted into or
// dropped from a C-contiguous result keep it C-contiguous).
void hold_as_view(const NodeP& n, const NodeP& computed) {
    set_result(*n, make_input(computed->buffer, n->dtype, n->shape, contiguous_strides(n->shape, itemsize(n->dtype)), computed->offset));
}

// Leaves a pending Expand (keepdims) under `n` holding a view of its
// computed input, so the kernels below see an Input. Row kernels read them
// pending instead (row_kernel_fits).
void resolve_expands(const NodeP& n, std::unordered_set<const Node*>& seen) {
    if (done(n.get()) || !seen.insert(n.get()).second) return;
    for (auto& c : n->in) resolve_expands(c, seen);
    if (n->op != Op::Expand) return;
    materialize(n->in[0]);
    hold_as_view(n, n->in[0]->result ? n->in[0]->result : n->in[0]);
}

// A float sum/max/min over the last axis (and maybe others) of a row
// pattern, np.log(softmax(x)).sum(): one row kernel computes the per-row
// results (emit.cpp row_pattern_under), a small reduction the rest, so x is
// read once instead of once per keepdims value. Sums then add rows' float
// sums (each accumulated in float64): another order than NumPy's pairwise
// one, as every GPU sum (docs/differences.md). Returns false when `r` is
// not such a reduction.
bool reduce_through_rows(const NodeP& r) {
    if (r->op != Op::Reduce || done(r.get()) || standing_in()) return false;
    const NodeP& x = r->in[0];
    if (done(x.get()) || !x->has_expand || x->shape.empty()) return false;
    const int last = int(x->shape.size()) - 1;
    if (r->axes.empty() || r->axes.back() != last || r->dtype != x->dtype || !is_float(r->dtype)) return false;
    if (r->reduce != ReduceOp::Sum && r->reduce != ReduceOp::Max && r->reduce != ReduceOp::Min) return false;
    NodeP per_row = make_reduce(r->reduce, x, {last}, r->dtype);
    NodeP kept = make_expand(per_row, {last});
    if (!row_kernel_fits({kept})) return false;
    materialize(kept);
    hold_as_view(per_row, kept->result);
    std::vector<int> rest(r->axes.begin(), r->axes.end() - 1);
    NodeP whole = rest.empty() ? per_row : make_reduce(r->reduce, per_row, rest, r->dtype);
    materialize(whole);
    set_result(*r, whole->result);
    return true;
}

// Computes the reductions inside `n` that cannot share its kernel: nested
// ones always; of the rest, all but one whose shape is the result's (which
// fuses with the elementwise work around it) when `fuse_one`, else all.
void prepare(const NodeP& n, bool fuse_one) {
    if (n->has_expand) {
        std::vector<NodeP> outer;
        std::unordered_set<const Node*> seen_outer;
        top_reduces(n, outer, seen_outer, /*into_expands=*/false);
        for (const NodeP& r : outer) reduce_through_rows(r);
        std::unordered_set<const Node*> seen_expand;
        resolve_expands(n, seen_expand);
    }
    if (!n->has_reduce) return;  // nothing to compute first
    std::vector<NodeP> reduces;
    std::unordered_set<const Node*> seen;
    top_reduces(n, reduces, seen);
    for (auto& r : reduces) {
        std::vector<NodeP> inner;
        std::unordered_set<const Node*> seen_inner;
        for (auto& c : r->in) top_reduces(c, inner, seen_inner);
        for (auto& i : inner) materialize(i);
    }
    bool fuse_first = fuse_one && (n->op == Op::Reduce || (!reduces.empty() && reduces[0]->shape == n->shape));
    for (size_t k = fuse_first ? 1 : 0; k < reduces.size(); ++k) materialize(reduces[k]);
}

// Leaves `n` holding `output` as its value.
void adopt(const NodeP& n, const BufferRef& output) {
    set_result(*n, make_input(output, n->dtype, n->shape, contiguous_strides(n->shape, itemsize(n->dtype)), 0));
}

// A stand-in's reduction (codegen/stand_in.h): `r`'s input, unless an array
// already, is materialised with the reduced dims last and contiguous (on the
// interpreter), so the reduction is a generic kernel over rows.
void reduce_unfused(const NodeP& r) {
    const NodeP x = r->in[0];
    NodeP rows = x;
    if (!done(x.get()) && x->size() > 0) {
        // x's dims in T's order: kept ones, then reduced ones (argmax counts
        // the reduced elements in this C order, as over x).
        std::vector<int> order;
        for (int d = 0; d < int(x->shape.size()); ++d)
            if (!std::binary_search(r->axes.begin(), r->axes.end(), d)) order.push_back(d);
        order.insert(order.end(), r->axes.begin(), r->axes.end());
        Shape t_shape;
        for (int d : order) t_shape.push_back(x->shape[size_t(d)]);
        std::vector<int64_t> t_strides = contiguous_strides(t_shape, itemsize(x->dtype)), x_strides(order.size());
        for (size_t i = 0; i < order.size(); ++i) x_strides[size_t(order[i])] = t_strides[i];
        BufferRef t(Buffer::allocate(size_t(x->size()) * itemsize(x->dtype)));
        materialize_into(x, Target{t, 0, x->shape, x_strides});
        Shape row_shape = r->shape;
        row_shape.push_back(x->size() / std::max<int64_t>(1, r->size()));
        rows = make_input(t, x->dtype, row_shape, contiguous_strides(row_shape, itemsize(x->dtype)), 0);
    }
    NodeP plain = rows == x ? r : make_reduce(r->reduce, rows, {int(rows->shape.size()) - 1}, r->dtype);
    KernelPlan plan = emit_kernel(plain);
    launch(plan);
    adopt(r, plan.output);
}

}  // namespace

void materialize_into(const NodeP& n, const Target& target) {
    prepare(n, false);
    KernelPlan plan = emit_kernel(n->result ? n->result : n, &target);
    launch(plan);
}

void materialize(const NodeP& n) {
    if (done(n.get())) return;
    phase::Scope timed(phase::Materialize);
    // A row pattern reads its keepdims values pending; anything else has its
    // reductions and Expands computed first.
    if (!(n->has_expand && !standing_in() && row_kernel_fits({n}))) {
        prepare(n, true);
        if (done(n.get())) return;
        if (standing_in() && n->has_reduce) {
            // The one reduction left to fuse runs apart; n is then elementwise.
            std::vector<NodeP> reduces;
            std::unordered_set<const Node*> seen;
            top_reduces(n, reduces, seen);
            if (!reduces.empty()) reduce_unfused(reduces[0]);
            if (done(n.get())) return;
        }
    }
    KernelPlan plan = [&] {
        phase::Scope emit(phase::Emit);
        return emit_kernel(n);
    }();
    if (stand_in_first({&n, 1}, plan)) {
        StandInScope unfused;
        materialize(n);
        return;
    }
    launch(plan);
    adopt(n, plan.output);
}

namespace {
// One kernel computing every root (emit_kernel_multi), each left holding its output.
void launch_multi(const std::vector<NodeP>& roots) {
    KernelPlan plan = emit_kernel_multi(roots);
    if (stand_in_first(roots, plan)) {
        StandInScope unfused;
        for (const NodeP& n : roots) materialize(n);
        return;
    }
    launch(plan);
    adopt(roots[0], plan.output);
    for (size_t k = 1; k < roots.size(); ++k) adopt(roots[k], plan.extra_outputs[k - 1]);
}
}  // namespace

void materialize_together(const std::vector<NodeP>& nodes) {
    std::vector<NodeP> todo;
    std::unordered_set<const Node*> seen;
    for (const NodeP& n : nodes)
        if (!done(n.get()) && seen.insert(n.get()).second) todo.push_back(n);
    // A row pattern with its per-row values (layer norm's held mean and
    // variance): one row kernel, whatever the shapes. Its first output spans
    // the rows: per-row values go last.
    if (todo.size() > 1 && todo.size() <= kMaxOutputs && !standing_in()) {
        std::vector<NodeP> rows = todo;
        std::stable_partition(rows.begin(), rows.end(), [](const NodeP& n) { return n->op != Op::Expand; });
        if (row_kernel_fits(rows)) {
            launch_multi(rows);
            return;
        }
    }
    // Same shape, one kernel (up to kMaxOutputs outputs each).
    std::vector<bool> taken(todo.size(), false);
    for (size_t i = 0; i < todo.size(); ++i) {
        if (taken[i]) continue;
        std::vector<NodeP> group{todo[i]};
        for (size_t j = i + 1; j < todo.size() && group.size() < kMaxOutputs; ++j)
            if (!taken[j] && todo[j]->shape == todo[i]->shape) {
                group.push_back(todo[j]);
                taken[j] = true;
            }
        if (group.size() > 1 && (standing_in() || !row_kernel_fits(group))) {
            // A multi-output kernel is elementwise: reductions inside run first
            // (a lone node keeps materialize()'s fused reduction + epilogue).
            std::vector<NodeP> pending;
            for (const NodeP& n : group) {
                prepare(n, false);
                if (!done(n.get())) pending.push_back(n);
            }
            group.swap(pending);
        }
        if (group.size() == 1) materialize(group[0]);
        if (group.size() > 1) launch_multi(group);
    }
}

}  // namespace gpy
