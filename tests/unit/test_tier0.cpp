// The tier-0 interpreter (codegen/tier0.h) against the fused kernels: every
// opcode, run on both, gives the same bytes (CPU here; on a GPU too), and
// the interpreter compiles with NVRTC for every shadow architecture.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "codegen/cuda_source.h"
#include "codegen/dag.h"
#include "codegen/kernel.h"
#include "codegen/tier0.h"
#include "runtime/array_context.h"
#include "runtime/cpu_backend.h"
#include "runtime/cuda_backend.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/nvrtc.h"
#include "runtime/nvrtc_shadow.h"

using namespace gpy;
using namespace gpy::dag;

namespace {

constexpr int64_t kN = 261;  // not a multiple of anything a launch rounds to

using Allocate = std::function<Buffer*(size_t)>;
using Run = std::function<void(KernelPlan&)>;

// Values that exercise each dtype's edges: for floats zeros of both signs,
// infinities and NaN (unless `castable`: an out-of-range float to integer
// cast is undefined in C++), for integers the extremes, 0 and -1.
void fill(DType t, void* p, uint64_t seed, bool castable) {
    uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
    auto next = [&] { s = s * 6364136223846793005ull + 1442695040888963407ull; return s >> 11; };
    for (int64_t i = 0; i < kN; ++i) {
        uint64_t r = next();
        double v = double(int64_t(r % 4001) - 2000) / 64.0;  // [-31.25, 31.25] in steps of 1/64
        if (castable && (t == DType::Float32 || t == DType::Float64)) v = std::fabs(v);  // castable to every integer type
        switch (t) {
            case DType::Bool: static_cast<bool*>(p)[i] = r & 1; break;
            case DType::Float32: {
                static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e30f, -1e-30f, 0.5f};
                static_cast<float*>(p)[i] = (!castable && i % 7 == 0) ? special[(i / 7) % 8] : float(v);
                break;
            }
            case DType::Float64: {
                static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300, -1e-300, 0.5};
                static_cast<double*>(p)[i] = (!castable && i % 7 == 0) ? special[(i / 7) % 8] : v;
                break;
            }
            default: {
                // Small values mostly (shift counts, powers), extremes now and then.
                int64_t x = i % 5 == 0 ? int64_t(next()) : int64_t(r % 23) - 11;
                if (i % 11 == 0) x = -1;
                if (i % 13 == 0) x = 0;
                std::memcpy(static_cast<char*>(p) + i * itemsize(t), &x, itemsize(t));  // little-endian truncation
            }
        }
    }
}

NodeP input(const Allocate& alloc, DType t, uint64_t seed, bool castable, std::vector<BufferRef>& keep) {
    BufferRef b(alloc(size_t(kN) * itemsize(t)));
    fill(t, b.bytes(), seed, castable);
    keep.push_back(b);
    return make_input(b, t, {kN}, contiguous_strides({kN}, itemsize(t)), 0);
}

NodeP node_for(const Tier0Opcode& op, const Allocate& alloc, std::vector<BufferRef>& keep) {
    bool castable = op.op == Op::Cast;
    NodeP a = input(alloc, op.in0, 1, castable, keep);
    switch (op.op) {
        case Op::Cast: return make_cast(a, op.out);
        case Op::Unary: return make_unary(op.unary, a, op.out);
        default: return make_binary(op.binary, a, input(alloc, op.in1, 2, false, keep), op.out, {kN});
    }
}

std::string describe(const Tier0Opcode& op) {
    std::string s = op.op == Op::Cast ? "cast" : op.op == Op::Unary ? unary_name(op.unary) : binary_name(op.binary);
    return s + "(" + name(op.in0) + (op.op == Op::Binary ? std::string(", ") + name(op.in1) : "") + ") -> " + name(op.out);
}

// Same bytes, NaN in both (payloads may differ between instructions), or
// floats at most `ulps` apart.
template <class F, class I>
bool close_float(const char* a, const char* b, int ulps) {
    F x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, b, sizeof y);
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    if (std::isinf(x) || std::isinf(y) || std::signbit(x) != std::signbit(y)) return x == y;
    I i, j;
    std::memcpy(&i, a, sizeof i);
    std::memcpy(&j, b, sizeof j);
    return (i > j ? i - j : j - i) <= I(ulps);
}

bool same_element(DType t, const char* a, const char* b, int ulps) {
    if (std::memcmp(a, b, itemsize(t)) == 0) return true;
    if (t == DType::Float32) return close_float<float, int32_t>(a, b, ulps);
    if (t == DType::Float64) return close_float<double, int64_t>(a, b, ulps);
    return false;
}

// The CPU's fused loops call libmvec's vector exp/log/sin/cos/pow, which
// differ from glibc's scalar functions (the interpreter's) by up to 4 ulp;
// on a GPU both call the same device functions and must agree exactly.
struct Tolerance {
    int ulps;
};

// Runs `plan` compiled, then as a tier-0 program into the same output, and
// compares; returns the first differing element's index, or -1.
int64_t first_difference(KernelPlan& plan, const Run& run, const std::function<void()>& sync, Tolerance tol) {
    REQUIRE_FALSE(plan.source->tier0.empty());
    std::vector<std::vector<char>> fused;
    std::vector<BufferRef> outs = {plan.output};
    outs.insert(outs.end(), plan.extra_outputs.begin(), plan.extra_outputs.end());
    std::vector<NodeP> roots = {plan.root};
    roots.insert(roots.end(), plan.extra_roots.begin(), plan.extra_roots.end());
    run(plan);
    sync();
    for (size_t k = 0; k < outs.size(); ++k) {
        size_t bytes = size_t(roots[k]->size()) * itemsize(roots[k]->dtype);
        const char* p = reinterpret_cast<const char*>(outs[k].host_read_bytes());
        fused.emplace_back(p, p + bytes);
        std::memset(outs[k].bytes(), 0xA5, bytes);
        outs[k].device_bytes();  // the kernel below writes the device's copy: the fill goes there first
    }
    KernelPlan t = tier0_plan(plan);
    run(t);
    sync();
    for (size_t k = 0; k < outs.size(); ++k) {
        DType d = roots[k]->dtype;
        const char* p = reinterpret_cast<const char*>(outs[k].host_read_bytes());
        for (int64_t i = 0; i < roots[k]->size(); ++i)
            if (!same_element(d, p + i * itemsize(d), fused[k].data() + i * itemsize(d), tol.ulps)) {
                UNSCOPED_INFO("output " << k << " element " << i << " differs");
                return i;
            }
    }
    return -1;
}

void check_every_opcode(const Allocate& alloc, const Run& run, const std::function<void()>& sync, Tolerance tol) {
    std::vector<Tier0Opcode> ops = tier0_opcodes();
    CHECK(ops.size() > 500);  // casts, unary and binary loops of 11 dtypes
    for (const Tier0Opcode& op : ops) {
        INFO(describe(op));
        std::vector<BufferRef> keep;
        KernelPlan plan = emit_kernel(node_for(op, alloc, keep));
        CHECK(first_difference(plan, run, sync, tol) == -1);
    }
}

// Programs beyond one operation: shared values, several outputs, where,
// scalars, broadcasting over two dims, and enough values to reuse registers.
void check_programs(const Allocate& alloc, const Run& run, const std::function<void()>& sync, Tolerance tol) {
    std::vector<BufferRef> keep;
    NodeP x = input(alloc, DType::Float32, 3, false, keep);
    NodeP y = input(alloc, DType::Float64, 4, false, keep);
    ScalarValue half;
    half.f32 = 0.5f;
    NodeP c = make_scalar(DType::Float32, half);
    NodeP e = make_unary(UnaryOp::Exp, make_binary(BinaryOp::Mul, make_binary(BinaryOp::Mul, x, x, DType::Float32, {kN}), c,
                                                   DType::Float32, {kN}), DType::Float32);
    NodeP gauss = make_binary(BinaryOp::Add, make_binary(BinaryOp::Mul, e, make_unary(UnaryOp::Sin, x, DType::Float32), DType::Float32, {kN}),
                              make_unary(UnaryOp::Sqrt, make_unary(UnaryOp::Abs, x, DType::Float32), DType::Float32), DType::Float32, {kN});
    SECTION("gauss") {
        KernelPlan p = emit_kernel(gauss);
        CHECK(first_difference(p, run, sync, tol) == -1);
    }
    SECTION("two outputs sharing a value, one of them cast") {
        // Exact operations only under the cast (a float32 ulp is 2^29 float64 ones).
        NodeP xx = make_binary(BinaryOp::Mul, x, x, DType::Float32, {kN});
        NodeP gt = make_binary(BinaryOp::Gt, xx, c, DType::Bool, {kN});
        NodeP w = make_where(gt, make_cast(xx, DType::Float64), y, {kN});
        KernelPlan p = emit_kernel_multi({gauss, w, gt});
        REQUIRE(p.extra_roots.size() == 2);
        CHECK(first_difference(p, run, sync, tol) == -1);
    }
    SECTION("a long chain reuses registers") {
        NodeP acc = x;
        for (int i = 0; i < 60; ++i)
            acc = make_binary(i % 2 ? BinaryOp::Add : BinaryOp::Mul, acc, make_unary(UnaryOp::Cos, acc, DType::Float32), DType::Float32, {kN});
        KernelPlan p = emit_kernel(acc);
        CHECK(first_difference(p, run, sync, tol) == -1);
    }
    SECTION("broadcast over two dims, strided") {
        BufferRef b(alloc(size_t(kN) * 3 * 4));
        fill(DType::Float32, b.bytes(), 9, false);
        keep.push_back(b);
        NodeP m = make_input(b, DType::Float32, {3, 87}, {87 * 4 * 3 / 3, 4}, 0);     // 3 x 87
        NodeP row = make_input(b, DType::Float32, {87}, {12}, 8);                       // every third element
        NodeP s = make_binary(BinaryOp::Sub, m, row, DType::Float32, {3, 87});
        KernelPlan p = emit_kernel(make_unary(UnaryOp::Tanh, s, DType::Float32));
        CHECK(p.source->rank == 2);
        CHECK(first_difference(p, run, sync, tol) == -1);
    }
}

}  // namespace

TEST_CASE("tier 0: every opcode computes the fused kernel's bits on the CPU", "[tier0]") {
    check_every_opcode([](size_t n) { return Buffer::allocate(n); }, run_kernel_cpu, [] {}, Tolerance{4});
}

TEST_CASE("tier 0: programs compute the fused kernel's bits on the CPU", "[tier0]") {
    check_programs([](size_t n) { return Buffer::allocate(n); }, run_kernel_cpu, [] {}, Tolerance{4});
}

TEST_CASE("tier 0: what has no opcode gets no program", "[tier0]") {
    std::vector<BufferRef> keep;
    Allocate alloc = [](size_t n) { return Buffer::allocate(n); };
    NodeP i = input(alloc, DType::Int64, 5, false, keep);
    // A signed integer power can fail (negative exponents): compiled only.
    CHECK(emit_kernel(make_binary(BinaryOp::Pow, i, i, DType::Int64, {kN})).source->tier0.empty());
    NodeP h = make_cast(input(alloc, DType::Float32, 6, false, keep), DType::Float16);
    CHECK(emit_kernel(h).source->tier0.empty());
    CHECK_FALSE(emit_kernel(make_cast(i, DType::Float32)).source->tier0.empty());
    // More operands than the interpreter's argument block holds.
    NodeP acc = i;
    for (int k = 0; k < kTier0MaxOperands; ++k) acc = make_binary(BinaryOp::Add, acc, input(alloc, DType::Int64, 10 + k, false, keep), DType::Int64, {kN});
    CHECK(emit_kernel(acc).source->tier0.empty());
}

TEST_CASE("tier 0: the interpreter compiles with NVRTC for every shadow architecture", "[nvrtc]") {
    std::string why;
    if (!nvrtc::available(&why)) {
        WARN("NVRTC unavailable: " << why);
        return;
    }
    std::string src = cuda_kernel_source(*tier0_interpreter());
    for (const char* arch : kShadowArchs) {
        INFO(arch);
        try {
            CHECK(nvrtc::compile(src, "gpy_tier0.cu", arch, /*fast_compile=*/true).size() > 0);
        } catch (const nvrtc::CompileError& e) {
            FAIL(e.what() << "\n" << e.log);
        }
    }
}

TEST_CASE("tier 0: every opcode and program computes the fused kernel's bits on the GPU", "[gpu]") {
    std::string why;
    if (cuda::device_count(&why) == 0) {
        WARN("skipped: no GPU (" << why << ")");
        return;
    }
    // Outputs on the GPU too, and fused kernels compiled before they run
    // (the runner would otherwise interpret them), until the test ends.
    struct OnGpu {
        ArrayContext ctx;
        ContextScope bound{&ctx};
        OnGpu() {
            ctx.array_kind = DeviceKind::CUDA;
            ctx.runner = run_kernel_cuda;
            ctx.tier0 = Tier0Mode::Off;
        }
    } on_gpu;
    Allocate alloc = [](size_t n) { return allocate_cuda_buffer(0, n, false); };
    check_every_opcode(alloc, run_kernel_cuda, wait_for_device_work, Tolerance{0});
    check_programs(alloc, run_kernel_cuda, wait_for_device_work, Tolerance{0});
}
