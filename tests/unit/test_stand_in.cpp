// Stand-ins (codegen/stand_in.h): a fused reduction or row kernel that the
// backend has not compiled runs unfused, its elementwise parts on the tier-0
// interpreter and its reductions as generic kernels over rows, and computes
// what the fused kernel does.
#include <utility>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "codegen/dag.h"
#include "codegen/kernel.h"
#include "codegen/plan.h"
#include "codegen/tier0.h"
#include "gpy/gpy.h"
#include "tests/unit/backend_setup.h"

using namespace gpy;
using namespace gpy::dag;
using gpy::test::ensure_backend;
using gpy::test::input_f32;
using gpy::test::scalar_f32;

namespace {

// While it lives, the backend answers "not compiled" for every kernel it is
// asked about (counting the questions) and elementwise kernels with a
// program run on the interpreter.
struct NothingCompiled {
    int asked = 0;
    KernelReadiness saved;
    Tier0Mode mode = plan_context().tier0;
    NothingCompiled() {
        saved = std::exchange(plan_context().readiness, [this](const KernelPlan&, bool) {
            ++asked;
            return false;
        });
        plan_context().tier0 = Tier0Mode::Always;
    }
    ~NothingCompiled() {
        plan_context().readiness = saved;
        plan_context().tier0 = mode;
    }
};

template <class T>
std::vector<T> values_of(const NodeP& n) {
    REQUIRE(n->result);
    std::vector<T> out(size_t(n->size()));
    std::memcpy(out.data(), n->result->buffer.bytes() + n->result->offset, out.size() * sizeof(T));
    return out;
}

std::vector<float> data(int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = float(int(i * 7919 % 113) - 56) / 16.0f;
    return v;
}

struct Run {
    uint64_t kernels;
    std::vector<std::string> names;
};

// Materialises build()'s node, fused (the kernel counts as compiled) or as
// a stand-in, and returns what ran.
template <class T>
std::vector<T> run(const std::function<NodeP()>& build, bool stand_in, Run* ran = nullptr, int* asked = nullptr) {
    std::unique_ptr<NothingCompiled> nothing;
    if (stand_in) nothing = std::make_unique<NothingCompiled>();
    NodeP n = build();
    uint64_t before = plan_context().kernels_launched();
    gpy::materialize(n);
    if (ran) {
        ran->kernels = plan_context().kernels_launched() - before;
        for (const KernelRecord& r : plan_context().kernels_since(before)) ran->names.push_back(r.name);
    }
    if (asked && nothing) *asked = nothing->asked;
    return values_of<T>(n);
}

void check_close(const std::vector<float>& got, const std::vector<float>& want) {
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));
}

}  // namespace

TEST_CASE("stand-in: a reduction with a prologue and an epilogue runs as three kernels", "[stand_in]") {
    ensure_backend();
    const std::vector<float> v = data(37 * 53);
    auto build = [&] {  // sqrt(sum(x*x + 1, axis=1))
        NodeP x = input_f32(v, {37, 53});
        NodeP p = make_binary(BinaryOp::Add, make_binary(BinaryOp::Mul, x, x, DType::Float32, {37, 53}), scalar_f32(1),
                              DType::Float32, {37, 53});
        return make_unary(UnaryOp::Sqrt, make_reduce(ReduceOp::Sum, p, {1}, DType::Float32), DType::Float32);
    };
    Run fused, unfused;
    int asked = 0;
    std::vector<float> want = run<float>(build, false, &fused);
    std::vector<float> got = run<float>(build, true, &unfused, &asked);
    CHECK(fused.kernels == 1);
    CHECK(unfused.kernels == 3);  // x*x + 1 interpreted, the generic row sum, sqrt interpreted
    CHECK(asked >= 1);
    check_close(got, want);
}

TEST_CASE("stand-in: different prologues share one generic reduction kernel", "[stand_in]") {
    ensure_backend();
    const std::vector<float> v = data(4096);
    auto sum_of = [&](UnaryOp op) {
        return [&v, op] { return make_reduce(ReduceOp::Sum, make_unary(op, input_f32(v, {4096}), DType::Float32), {0}, DType::Float32); };
    };
    Run a, b;
    std::vector<float> exp_sum = run<float>(sum_of(UnaryOp::Exp), true, &a);
    std::vector<float> sin_sum = run<float>(sum_of(UnaryOp::Sin), true, &b);
    REQUIRE(a.names.size() == 2);
    REQUIRE(b.names.size() == 2);
    CHECK(a.names[0] != b.names[0]);  // exp and sin
    CHECK(a.names[1] == b.names[1]);  // one float32 sum kernel
    check_close(exp_sum, run<float>(sum_of(UnaryOp::Exp), false));
    check_close(sin_sum, run<float>(sum_of(UnaryOp::Sin), false));
}

TEST_CASE("stand-in: reductions over leading and middle axes reduce the right elements", "[stand_in]") {
    ensure_backend();
    const Shape S = {5, 6, 7};
    const std::vector<float> v = data(5 * 6 * 7);
    auto argmax_mid = [&] {  // argmax(sin(x), axis=1): indices count along axis 1
        NodeP s = make_unary(UnaryOp::Sin, input_f32(v, S), DType::Float32);
        return make_reduce(ReduceOp::ArgMax, s, {1}, DType::Int64);
    };
    CHECK(run<int64_t>(argmax_mid, true) == run<int64_t>(argmax_mid, false));
    auto argmin_outer = [&] {  // argmin(x*2, axis=(0, 2)): C-order flat index over dims 0 and 2
        NodeP x = input_f32(v, S);
        return make_reduce(ReduceOp::ArgMin, make_binary(BinaryOp::Mul, x, scalar_f32(2), DType::Float32, S), {0, 2},
                           DType::Int64);
    };
    CHECK(run<int64_t>(argmin_outer, true) == run<int64_t>(argmin_outer, false));
    auto column_sums = [&] {  // sum(x - 1, axis=0)
        NodeP x = input_f32(v, S);
        return make_reduce(ReduceOp::Sum, make_binary(BinaryOp::Sub, x, scalar_f32(1), DType::Float32, S), {0}, DType::Float32);
    };
    check_close(run<float>(column_sums, true), run<float>(column_sums, false));
}

TEST_CASE("stand-in: softmax's row kernel runs unfused and gives its values", "[stand_in]") {
    ensure_backend();
    const int64_t R = 9, C = 300;
    const std::vector<float> v = data(R * C);
    auto softmax = [&] {
        NodeP x = input_f32(v, {R, C});
        NodeP mx = make_expand(make_reduce(ReduceOp::Max, x, {1}, DType::Float32), {1});
        NodeP e = make_unary(UnaryOp::Exp, make_binary(BinaryOp::Sub, x, mx, DType::Float32, {R, C}), DType::Float32);
        NodeP s = make_expand(make_reduce(ReduceOp::Sum, e, {1}, DType::Float32), {1});
        return make_binary(BinaryOp::TrueDiv, e, s, DType::Float32, {R, C});
    };
    Run fused, unfused;
    std::vector<float> want = run<float>(softmax, false, &fused);
    std::vector<float> got = run<float>(softmax, true, &unfused);
    CHECK(fused.kernels == 1);
    CHECK(unfused.kernels == 4);  // the max, exp(x - max) with the generic sum, the division
    check_close(got, want);
}

TEST_CASE("stand-in: a reduction of an array, with nothing to interpret, compiles as it is", "[stand_in]") {
    ensure_backend();
    const std::vector<float> v = data(1000);
    auto plain = [&] { return make_reduce(ReduceOp::Max, input_f32(v, {1000}), {0}, DType::Float32); };
    Run ran;
    int asked = 0;
    std::vector<float> got = run<float>(plain, true, &ran, &asked);
    CHECK(asked == 1);      // the backend was asked...
    CHECK(ran.kernels == 1);  // ...but with nothing to interpret the kernel runs as it is
    CHECK(got == run<float>(plain, false));
}
