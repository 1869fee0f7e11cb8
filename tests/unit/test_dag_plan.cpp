// The expression DAG, the kernel emitter and the planner, driven directly
// (no interpreter values): what a tree compiles to, how many kernels run,
// what the launch arguments are, and that results are right.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "codegen/dag.h"
#include "codegen/kernel.h"
#include "codegen/plan.h"
#include "gpy/gpy.h"
#include "tests/unit/backend_setup.h"

using namespace gpy;
using namespace gpy::dag;
using gpy::test::ensure_backend;
using gpy::test::input_f32;
using gpy::test::scalar_f32;

namespace {

std::vector<float> result_f32(const NodeP& n) {
    REQUIRE(n->result);
    std::vector<float> out(size_t(n->size()));
    std::memcpy(out.data(), n->result->buffer.bytes() + n->result->offset, out.size() * sizeof(float));
    return out;
}

int count(const std::string& text, const std::string& what) {
    int k = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++k;
    return k;
}

}  // namespace

TEST_CASE("dag: nodes carry shapes, dtypes and a pending weight", "[dag]") {
    NodeP x = input_f32({1, 2, 3, 4}, {2, 2});
    NodeP y = make_binary(BinaryOp::Mul, x, x, DType::Float32, {2, 2});
    NodeP z = make_unary(UnaryOp::Exp, y, DType::Float32);
    CHECK(z->shape == Shape{2, 2});
    CHECK(z->dtype == DType::Float32);
    CHECK(x->pending_weight == 0);
    CHECK(y->pending_weight == 1);
    CHECK(z->pending_weight == 2);
    CHECK(make_cast(x, DType::Float32) == x);  // a cast to the same dtype is no node
    NodeP s = make_reduce(ReduceOp::Sum, z, {1}, DType::Float32);
    CHECK(s->shape == Shape{2});
}

TEST_CASE("dag: count_pending counts distinct un-computed nodes, up to a limit", "[dag]") {
    // y_{i+1} = y_i + y_i: the weight (shared nodes per use) doubles each
    // step while the graph gains one distinct node.
    NodeP x = input_f32({1, 2}, {2});
    NodeP y = make_binary(BinaryOp::Mul, x, x, DType::Float32, {2});
    for (int i = 0; i < 12; ++i) y = make_binary(BinaryOp::Add, y, y, DType::Float32, {2});
    CHECK(y->pending_weight == (1u << 13) - 1);
    CHECK(count_pending(y, 65) == 13);
    CHECK(count_pending(y, 5) == 5);  // stops at the limit
    CHECK(count_pending(x, 65) == 0);  // inputs are not pending
}

// count_pending marks the nodes it visits with its walk's stamp (WalkMark):
// the counts must equal a walk with a set of its own whatever happened
// between walks (growth, computation, freed nodes whose memory new ones
// take, a walk cut short, nodes copied with their marks).
TEST_CASE("dag: count_pending's marks never change a count", "[dag]") {
    auto fresh = [](const NodeP& root) {
        std::set<const Node*> seen;
        std::vector<const Node*> stack{root.get()};
        while (!stack.empty()) {
            const Node* n = stack.back();
            stack.pop_back();
            if (n->result || n->op == Op::Input || n->op == Op::Scalar || !seen.insert(n).second) continue;
            for (auto& c : n->in) stack.push_back(c.get());
        }
        return seen.size();
    };
    NodeP x = input_f32({1, 2}, {2});
    NodeP side = make_unary(UnaryOp::Exp, x, DType::Float32);
    NodeP y = make_binary(BinaryOp::Mul, x, x, DType::Float32, {2});
    std::vector<NodeP> chain;
    for (int i = 0; i < 20; ++i) {
        // Each step reuses an older node beside the previous root.
        NodeP other = i % 3 == 0 ? side : i % 3 == 1 && !chain.empty() ? chain[chain.size() / 2] : x;
        y = make_binary(BinaryOp::Add, y, other, DType::Float32, {2});
        chain.push_back(y);
        CHECK(count_pending(y, 65) == fresh(y));
    }
    // A computation in the middle of the chain: its subgraph stops counting.
    set_result(*chain[10], input_f32({0, 0}, {2}));
    NodeP z = make_unary(UnaryOp::Neg, y, DType::Float32);
    CHECK(count_pending(z, 65) == fresh(z));
    // The remembered root freed and new nodes built (possibly at its address).
    NodeP w = make_unary(UnaryOp::Neg, z, DType::Float32);
    CHECK(count_pending(w, 65) == fresh(w));
    w.reset();
    for (int i = 0; i < 4; ++i) {
        NodeP v = make_unary(UnaryOp::Exp, make_binary(BinaryOp::Mul, x, x, DType::Float32, {2}), DType::Float32);
        CHECK(count_pending(v, 65) == 2);
    }
    // The old root met deeper down (operations between that no walk saw),
    // and a walk of a graph without it.
    NodeP deep = make_unary(UnaryOp::Exp, make_unary(UnaryOp::Neg, make_binary(BinaryOp::Add, z, side, DType::Float32, {2}), DType::Float32),
                            DType::Float32);
    CHECK(count_pending(deep, 65) == fresh(deep));
    NodeP apart = make_binary(BinaryOp::Add, side, chain[3], DType::Float32, {2});
    CHECK(count_pending(apart, 65) == fresh(apart));
    CHECK(count_pending(deep, 4) == 4);
    // A copy of a marked node starts unmarked.
    NodeP copy = new_node(*z);
    CHECK(count_pending(copy, 65) == fresh(copy));
    // A walk cut short, then its root extended.
    CHECK(count_pending(z, 3) == 3);
    NodeP u = make_unary(UnaryOp::Neg, z, DType::Float32);
    CHECK(count_pending(u, 65) == fresh(u));
}

TEST_CASE("emit: scalars are kernel arguments, so other constants reuse the kernel", "[emit]") {
    NodeP x = input_f32({1, 2, 3});
    KernelPlan a = emit_kernel(make_binary(BinaryOp::Mul, x, scalar_f32(2.5f), DType::Float32, {3}));
    KernelPlan b = emit_kernel(make_binary(BinaryOp::Mul, x, scalar_f32(-7.0f), DType::Float32, {3}));
    CHECK(a.source->name == b.source->name);
    CHECK(a.source->body == b.source->body);
    CHECK(a.source->body.find("2.5") == std::string::npos);
    REQUIRE(a.launch.scalars.size() == 1);
    REQUIRE(b.launch.scalars.size() == 1);
    CHECK(a.launch.scalars[0] != b.launch.scalars[0]);
}

TEST_CASE("emit: contiguous operands collapse to one dimension", "[emit]") {
    NodeP x = input_f32(std::vector<float>(24, 1.0f), {2, 3, 4});
    KernelPlan k = emit_kernel(make_unary(UnaryOp::Sqrt, x, DType::Float32));
    // meta = iteration shape, then each operand's strides: one dim each.
    CHECK(k.launch.meta.size() == 1 + 2);
    CHECK(k.launch.meta[0] == 24);
    CHECK(k.source->kind == KernelSource::Elementwise);
}

TEST_CASE("emit: a transposed operand keeps its dimensions", "[emit]") {
    BufferRef b(Buffer::allocate(6 * sizeof(float)));
    // a (3, 2) view of a (2, 3) buffer: strides (4, 12)
    NodeP xt = make_input(b, DType::Float32, {3, 2}, {4, 12}, 0);
    KernelPlan k = emit_kernel(make_unary(UnaryOp::Neg, xt, DType::Float32));
    CHECK(k.launch.meta.size() == 2 + 2 * 2);
}

TEST_CASE("plan: an elementwise tree is one kernel and the node keeps its result", "[plan]") {
    ensure_backend();
    NodeP x = input_f32({1, 4, 9, 16});
    NodeP y = make_binary(BinaryOp::Add, make_unary(UnaryOp::Sqrt, x, DType::Float32), scalar_f32(1.0f), DType::Float32, {4});
    uint64_t before = plan_context().kernels_launched();
    gpy::materialize(y);
    CHECK(plan_context().kernels_launched() - before == 1);
    CHECK(result_f32(y) == std::vector<float>{2, 3, 4, 5});
    CHECK(y->in.empty());  // inputs released once computed
    gpy::materialize(y);   // computed nodes are not recomputed
    CHECK(plan_context().kernels_launched() - before == 1);
}

TEST_CASE("plan: sum(x*x) is one kernel that reads x once", "[plan]") {
    ensure_backend();
    std::vector<float> v(100000);
    for (size_t i = 0; i < v.size(); ++i) v[i] = float(i % 7) - 3.0f;
    NodeP x = input_f32(v);
    NodeP sq = make_binary(BinaryOp::Mul, x, x, DType::Float32, {int64_t(v.size())});
    NodeP s = make_reduce(ReduceOp::Sum, sq, {0}, DType::Float32);
    KernelPlan k = emit_kernel(s);
    CHECK(k.source->kind == KernelSource::ReduceFull);
    CHECK(k.launch.ptrs.size() == 2);  // the output and x: x*x allocates nothing
    uint64_t before = plan_context().kernels_launched();
    gpy::materialize(s);
    CHECK(plan_context().kernels_launched() - before == 1);
    double want = 0;
    for (float f : v) want += double(f) * f;
    CHECK(result_f32(s)[0] == Approx(want).epsilon(1e-6));
}

TEST_CASE("plan: a row reduction with an epilogue is one kernel", "[plan]") {
    ensure_backend();
    NodeP x = input_f32({1, 2, 3, 4, 5, 6}, {2, 3});
    NodeP m = make_reduce(ReduceOp::Max, x, {1}, DType::Float32);
    NodeP y = make_binary(BinaryOp::Mul, m, scalar_f32(10.0f), DType::Float32, {2});
    uint64_t before = plan_context().kernels_launched();
    gpy::materialize(y);
    CHECK(plan_context().kernels_launched() - before == 1);
    CHECK(result_f32(y) == std::vector<float>{30, 60});
}

TEST_CASE("plan: a reduction nested in another's input is its own kernel", "[plan]") {
    ensure_backend();
    // sum(x - max(x)) over a 1-D x: max first, then the fused subtract+sum.
    NodeP x = input_f32({1, 2, 3, 10});
    NodeP mx = make_reduce(ReduceOp::Max, x, {0}, DType::Float32);
    NodeP d = make_binary(BinaryOp::Sub, x, mx, DType::Float32, {4});
    NodeP s = make_reduce(ReduceOp::Sum, d, {0}, DType::Float32);
    uint64_t before = plan_context().kernels_launched();
    gpy::materialize(s);
    CHECK(plan_context().kernels_launched() - before == 2);
    CHECK(result_f32(s)[0] == -24.0f);
    CHECK(mx->result);
}

TEST_CASE("plan: materialize_into writes a strided view in place", "[plan]") {
    ensure_backend();
    NodeP x = input_f32({1, 2, 3});
    BufferRef out(Buffer::allocate(6 * sizeof(float), true));
    Target t{out, 0, {3}, {8}};  // every other float
    gpy::materialize_into(make_binary(BinaryOp::Mul, x, scalar_f32(2.0f), DType::Float32, {3}), t);
    const float* o = reinterpret_cast<const float*>(out.bytes());
    CHECK(std::vector<float>(o, o + 6) == std::vector<float>{2, 0, 4, 0, 6, 0});
}

TEST_CASE("emit: only kernels that can fail carry an error word", "[emit]") {
    BufferRef b(Buffer::allocate(2 * sizeof(int64_t)));
    NodeP i = make_input(b, DType::Int64, {2}, {8}, 0);
    NodeP f = input_f32({1, 2});
    KernelPlan ipow = emit_kernel(make_binary(BinaryOp::Pow, i, i, DType::Int64, {2}));
    KernelPlan fpow = emit_kernel(make_binary(BinaryOp::Pow, f, f, DType::Float32, {2}));
    CHECK(ipow.source->may_fail);
    CHECK(ipow.launch.ptrs.size() == 2 + 1);  // output, i (read once), the error word
    CHECK(count(ipow.source->body, "GPY_REPORT_ERROR") == 1);
    CHECK_FALSE(fpow.source->may_fail);
    CHECK(fpow.launch.ptrs.size() == 2);
    CHECK(count(fpow.source->body, "GPY_REPORT_ERROR") == 0);
}

TEST_CASE("planner: nodes of one shape computed together share one kernel", "[plan]") {
    ensure_backend();
    NodeP x = input_f32({1, 2, 3, 4});
    NodeP shared = make_binary(BinaryOp::Mul, x, scalar_f32(2), DType::Float32, {4});
    NodeP a = make_binary(BinaryOp::Add, shared, scalar_f32(1), DType::Float32, {4});
    NodeP b = make_binary(BinaryOp::Mul, shared, shared, DType::Float32, {4});
    NodeP c = make_unary(UnaryOp::Neg, x, DType::Float32);
    NodeP other = make_binary(BinaryOp::Add, input_f32({1, 2}), scalar_f32(1), DType::Float32, {2});
    uint64_t before = plan_context().kernels_launched();
    materialize_together({a, b, c, other, a});
    CHECK(plan_context().kernels_launched() - before == 2);  // {a, b, c} and {other}
    CHECK(result_f32(a) == std::vector<float>{3, 5, 7, 9});
    CHECK(result_f32(b) == std::vector<float>{4, 16, 36, 64});
    CHECK(result_f32(c) == std::vector<float>{-1, -2, -3, -4});
    CHECK(result_f32(other) == std::vector<float>{2, 3});
    // The multi-output kernel computes `shared` once per element.
    KernelPlan p = emit_kernel_multi({make_binary(BinaryOp::Add, shared, scalar_f32(1), DType::Float32, {4}),
                                      make_binary(BinaryOp::Mul, shared, shared, DType::Float32, {4})});
    // One load of x, x * 2 once, + 1, shared * shared: four values (six without sharing).
    CHECK(count(p.source->body, "const float v") == 4);
    CHECK(p.launch.ptrs.size() == 3);         // two outputs, one input
    CHECK(p.extra_outputs.size() == 1);
}

TEST_CASE("plan: softmax over rows is one row kernel that allocates only its output", "[plan]") {
    ensure_backend();
    const int64_t R = 3, C = 5;
    std::vector<float> v(size_t(R * C));
    for (size_t i = 0; i < v.size(); ++i) v[i] = float(i % 7) * 0.5f - 1.0f;
    NodeP x = input_f32(v, {R, C});
    NodeP mx = make_expand(make_reduce(ReduceOp::Max, x, {1}, DType::Float32), {1});
    NodeP e = make_unary(UnaryOp::Exp, make_binary(BinaryOp::Sub, x, mx, DType::Float32, {R, C}), DType::Float32);
    NodeP s = make_expand(make_reduce(ReduceOp::Sum, e, {1}, DType::Float32), {1});
    NodeP p = make_binary(BinaryOp::TrueDiv, e, s, DType::Float32, {R, C});
    REQUIRE(row_kernel_fits({p}));
    CHECK(emit_kernel(p).source->kind == KernelSource::RowFused);
    uint64_t before = plan_context().kernels_launched();
    size_t allocs = array_allocations();
    gpy::materialize(p);
    CHECK(plan_context().kernels_launched() - before == 1);
    CHECK(array_allocations() - allocs == 1);  // the output: no temporaries for the max, the sum or e
    std::vector<float> got = result_f32(p);
    for (int64_t r = 0; r < R; ++r) {
        float m = -1e30f;
        for (int64_t c = 0; c < C; ++c) m = std::max(m, v[size_t(r * C + c)]);
        double sum = 0;
        for (int64_t c = 0; c < C; ++c) sum += std::exp(double(v[size_t(r * C + c)] - m));
        for (int64_t c = 0; c < C; ++c)
            CHECK(got[size_t(r * C + c)] == Approx(std::exp(double(v[size_t(r * C + c)] - m)) / sum).epsilon(1e-6));
    }
}

TEST_CASE("plan: a reduction over another axis is not a row kernel", "[plan]") {
    NodeP x = input_f32(std::vector<float>(6, 1.0f), {2, 3});
    NodeP s0 = make_expand(make_reduce(ReduceOp::Sum, x, {0}, DType::Float32), {0});
    CHECK_FALSE(row_kernel_fits({make_binary(BinaryOp::TrueDiv, x, s0, DType::Float32, {2, 3})}));
    NodeP s1 = make_expand(make_reduce(ReduceOp::Sum, x, {1}, DType::Float32), {1});
    CHECK(row_kernel_fits({make_binary(BinaryOp::TrueDiv, x, s1, DType::Float32, {2, 3})}));
    NodeP xi = make_cast(x, DType::Int64);  // integer sums keep their own kernels
    NodeP si = make_expand(make_reduce(ReduceOp::Sum, xi, {1}, DType::Int64), {1});
    CHECK_FALSE(row_kernel_fits({make_binary(BinaryOp::Sub, xi, si, DType::Int64, {2, 3})}));
}
