// The CUDA prelude against NVRTC: kernels of representative DAGs (every
// unary/binary op per dtype, row/full/column reductions, complex arithmetic)
// must compile for sm_80 and sm_90. Skipped, with a warning, where NVRTC
// cannot be loaded (no CUDA toolkit).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "codegen/cuda_source.h"
#include "codegen/dag.h"
#include "codegen/kernel.h"
#include "runtime/nvrtc.h"
#include "runtime/nvrtc_shadow.h"

using namespace gpy;
using namespace gpy::dag;

namespace {

bool nvrtc_or_skip() {
    std::string why;
    if (nvrtc::available(&why)) return true;
    WARN("NVRTC unavailable, CUDA compile tests skipped: " << why);
    return false;
}

NodeP input(DType dt, Shape shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    BufferRef b(Buffer::allocate(size_t(n) * itemsize(dt)));
    return make_input(b, dt, shape, contiguous_strides(shape, itemsize(dt)), 0);
}

// Compiles the kernel computing `root` for every shadow architecture;
// `optimise` uses the full (slow) optimisation a real launch would.
void require_compiles(const NodeP& root, bool optimise = false) {
    KernelPlan plan = emit_kernel(root);
    std::string src = cuda_kernel_source(*plan.source);
    for (const char* arch : kShadowArchs) {
        if (!shadow_arch_wanted(arch)) continue;  // CI's fast set: sm_90 (GPY_SHADOW_NVRTC_ARCHS); locally both
        INFO(plan.source->summary << " for " << arch);
        try {
            std::string cubin = nvrtc::compile(src, plan.source->name + ".cu", arch, !optimise);
            CHECK(cubin.size() > 0);
        } catch (const nvrtc::CompileError& e) {
            FAIL(e.what() << "\n" << e.log);
        }
    }
}

// x + cast(op1(x)) + cast(op2(x)) + ...: one kernel exercising many ops.
NodeP chain_unary(DType dt, const std::vector<UnaryOp>& ops, DType bool_like = DType::Bool) {
    NodeP x = input(dt, {100});
    NodeP acc = x;
    for (UnaryOp op : ops) {
        bool predicate = op == UnaryOp::IsNan || op == UnaryOp::IsInf || op == UnaryOp::IsFinite ||
                         op == UnaryOp::SignBit || op == UnaryOp::LogicalNot;
        NodeP u = make_unary(op, x, predicate ? bool_like : dt);
        acc = make_binary(BinaryOp::Add, acc, make_cast(u, dt), dt, {100});
    }
    return acc;
}

NodeP chain_binary(DType dt, const std::vector<BinaryOp>& ops) {
    NodeP x = input(dt, {100}), y = input(dt, {100});
    NodeP acc = x;
    for (BinaryOp op : ops) {
        bool predicate = op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le ||
                         op == BinaryOp::Gt || op == BinaryOp::Ge || op == BinaryOp::LogicalAnd ||
                         op == BinaryOp::LogicalOr || op == BinaryOp::LogicalXor;
        NodeP b = make_binary(op, x, y, predicate ? DType::Bool : dt, {100});
        acc = make_binary(BinaryOp::Add, acc, make_cast(b, dt), dt, {100});
    }
    return acc;
}

const std::vector<UnaryOp> kFloatUnary = {
#define X(n, s) UnaryOp::n,
    GPY_UNARY_OPS(X)
#undef X
};
const std::vector<BinaryOp> kFloatBinary = {
    BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::TrueDiv, BinaryOp::FloorDiv, BinaryOp::Mod,
    BinaryOp::Fmod, BinaryOp::Pow, BinaryOp::Max, BinaryOp::Min, BinaryOp::Fmax, BinaryOp::Fmin,
    BinaryOp::Arctan2, BinaryOp::Hypot, BinaryOp::Copysign, BinaryOp::Heaviside, BinaryOp::LogAddExp, BinaryOp::LogAddExp2, BinaryOp::LogicalAnd,
    BinaryOp::LogicalOr, BinaryOp::LogicalXor, BinaryOp::Eq, BinaryOp::Ne, BinaryOp::Lt, BinaryOp::Le,
    BinaryOp::Gt, BinaryOp::Ge};
const std::vector<UnaryOp> kIntUnary = {UnaryOp::Neg, UnaryOp::Pos, UnaryOp::Abs, UnaryOp::Sign, UnaryOp::Square,
                                        UnaryOp::Invert, UnaryOp::Reciprocal, UnaryOp::Floor, UnaryOp::LogicalNot};
const std::vector<BinaryOp> kIntBinary = {
    BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::FloorDiv, BinaryOp::Mod, BinaryOp::Fmod,
    BinaryOp::Pow, BinaryOp::Max, BinaryOp::Min, BinaryOp::Fmax, BinaryOp::Fmin, BinaryOp::BitAnd,
    BinaryOp::BitOr, BinaryOp::BitXor, BinaryOp::LShift, BinaryOp::RShift, BinaryOp::LogicalAnd,
    BinaryOp::Eq, BinaryOp::Lt, BinaryOp::Ge, BinaryOp::Gcd, BinaryOp::Lcm};

}  // namespace

TEST_CASE("nvrtc: every float unary and binary op compiles for float16/32/64", "[nvrtc]") {
    if (!nvrtc_or_skip()) return;
    std::vector<UnaryOp> unary;
    for (UnaryOp op : kFloatUnary)
        if (op != UnaryOp::Invert) unary.push_back(op);
    for (DType dt : {DType::Float16, DType::Float32, DType::Float64}) {
        require_compiles(chain_unary(dt, unary));
        require_compiles(chain_binary(dt, kFloatBinary));
    }
}

TEST_CASE("nvrtc: integer ops compile, including the may-fail power", "[nvrtc]") {
    if (!nvrtc_or_skip()) return;
    for (DType dt : {DType::Int8, DType::Int32, DType::Int64, DType::UInt16, DType::UInt64}) {
        require_compiles(chain_unary(dt, kIntUnary));
        KernelPlan p = emit_kernel(chain_binary(dt, kIntBinary));
        CHECK(p.source->may_fail == (kind(dt) == DKind::Int));
        require_compiles(chain_binary(dt, kIntBinary));
    }
}

TEST_CASE("nvrtc: the full-optimisation compile (a real launch's options) works", "[nvrtc]") {
    if (!nvrtc_or_skip()) return;
    require_compiles(chain_binary(DType::Float32, {BinaryOp::Mul, BinaryOp::Add, BinaryOp::Pow}), /*optimise=*/true);
}

TEST_CASE("nvrtc: row, full and column reductions compile", "[nvrtc]") {
    if (!nvrtc_or_skip()) return;
    NodeP m = input(DType::Float32, {64, 64});
    KernelPlan rows = emit_kernel(make_reduce(ReduceOp::Sum, m, {1}, DType::Float32));
    CHECK(rows.source->kind == KernelSource::ReduceRows);
    KernelPlan cols = emit_kernel(make_reduce(ReduceOp::Sum, m, {0}, DType::Float32));
    CHECK(cols.source->kind == KernelSource::ReduceTiled);
    KernelPlan full = emit_kernel(make_reduce(ReduceOp::Sum, m, {0, 1}, DType::Float32));
    CHECK(full.source->kind == KernelSource::ReduceFull);
    for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min, ReduceOp::ArgMax}) {
        DType out = op == ReduceOp::ArgMax ? DType::Int64 : DType::Float32;
        for (std::vector<int> axes : {std::vector<int>{1}, {0}, {0, 1}}) require_compiles(make_reduce(op, m, axes, out));
    }
    NodeP h = input(DType::Float16, {64, 64});
    require_compiles(make_reduce(ReduceOp::Sum, h, {0, 1}, DType::Float16));
    NodeP b = input(DType::Bool, {64, 64});
    require_compiles(make_reduce(ReduceOp::Any, b, {1}, DType::Bool));
    NodeP i = input(DType::Int64, {64, 64});
    require_compiles(make_reduce(ReduceOp::Sum, i, {0}, DType::Int64));
    // A reduction over no axes (np.sum(x, axis=())).
    require_compiles(make_reduce(ReduceOp::Sum, m, {}, DType::Float32));
}

// Costly vector kernels with few input bytes a step get the pipelined
// wrapper (KernelSource::vec4_prefetch); light ones and ones whose second
// set of inputs would cost too many registers keep the plain loop. Each
// form must compile, one and two dims.
TEST_CASE("nvrtc: costly vector kernels pipeline their input loads", "[nvrtc]") {
    auto prefetches = [](const NodeP& root) {
        KernelPlan plan = emit_kernel(root);
        REQUIRE(!plan.source->vec4_align.empty());
        bool pipelined = cuda_kernel_text(*plan.source).find("_vec4_in(P, a.M, rn, cn, 4, true, next)") != std::string::npos;
        CHECK(pipelined == plan.source->vec4_prefetch);
        return plan.source->vec4_prefetch;
    };
    auto f32 = DType::Float32, f64 = DType::Float64;
    NodeP x = input(f32, {1000}), y = input(f32, {1000});
    NodeP costly = make_binary(BinaryOp::TrueDiv, make_unary(UnaryOp::Exp, x, f32), y, f32, {1000});
    CHECK(prefetches(costly));
    CHECK(!prefetches(make_binary(BinaryOp::Add, x, y, f32, {1000})));  // light: a thread per vector
    // Five float32 inputs: 80 bytes a step.
    NodeP sum = make_unary(UnaryOp::Exp, x, f32);
    for (int i = 0; i < 4; ++i) sum = make_binary(BinaryOp::Add, sum, input(f32, {1000}), f32, {1000});
    CHECK(!prefetches(sum));
    // Two float64 inputs (64 bytes) and a broadcast column beside them (not
    // read by vector), two dims.
    NodeP a = input(f64, {8, 100}), b = input(f64, {8, 100}), r = input(f64, {8, 1});
    NodeP rows = make_binary(BinaryOp::Add, make_binary(BinaryOp::TrueDiv, a, b, f64, {8, 100}), r, f64, {8, 100});
    CHECK(prefetches(rows));
    if (!nvrtc_or_skip()) return;
    require_compiles(costly, /*optimise=*/true);
    require_compiles(rows, /*optimise=*/true);
    require_compiles(sum);
}

// Config::fast_math (gpy --fast-math, GPY_FAST_MATH=1) must reach NVRTC: the
// same source compiles to other code, and the option is part of what keys the
// cubin (the runner passes its interpreter's setting: runtime/cuda_backend.cpp).
TEST_CASE("nvrtc: fast math compiles with --use_fast_math", "[nvrtc]") {
    if (!nvrtc_or_skip()) return;
    NodeP x = input(DType::Float32, {100});
    NodeP y = make_binary(BinaryOp::TrueDiv, make_unary(UnaryOp::Exp, x, DType::Float32), make_unary(UnaryOp::Sqrt, x, DType::Float32),
                          DType::Float32, {100});
    KernelPlan plan = emit_kernel(y);
    std::string src = cuda_kernel_source(*plan.source);
    CHECK(nvrtc::math_option(false) == "--fmad=false");
    std::string exact = nvrtc::compile(src, "exact.cu", "sm_90");
    CHECK(nvrtc::math_option(true) == "--use_fast_math");
    std::string fast = nvrtc::compile(src, "fast.cu", "sm_90", /*fast_math=*/true);
    CHECK(!fast.empty());
    CHECK(fast != exact);
}

TEST_CASE("nvrtc: complex arithmetic and elementary functions compile", "[nvrtc]") {
    if (!nvrtc_or_skip()) return;
    for (DType dt : {DType::Complex64, DType::Complex128}) {
        std::vector<UnaryOp> unary;
        for (UnaryOp op : kFloatUnary)
            if (complex_unary_supported(op) && op != UnaryOp::Abs) unary.push_back(op);
        require_compiles(chain_unary(dt, unary));
        std::vector<BinaryOp> binary;
        for (BinaryOp op : kFloatBinary)
            if (complex_binary_supported(op)) binary.push_back(op);
        require_compiles(chain_binary(dt, binary));
        require_compiles(make_unary(UnaryOp::Abs, input(dt, {100}), dt == DType::Complex64 ? DType::Float32 : DType::Float64));
        require_compiles(make_reduce(ReduceOp::Sum, input(dt, {8, 8}), {0, 1}, dt));
    }
}

TEST_CASE("nvrtc: a compile error carries NVRTC's log", "[nvrtc]") {
    if (!nvrtc_or_skip()) return;
    try {
        nvrtc::compile("__global__ void k() { undefined_name(); }", "bad.cu", "sm_90", true);
        FAIL("expected a CompileError");
    } catch (const nvrtc::CompileError& e) {
        CHECK(e.log.find("undefined_name") != std::string::npos);
        CHECK(e.log.find("bad.cu") != std::string::npos);
    }
}

TEST_CASE("nvrtc: a rejected generated kernel is an internal error that points at --dump-kernels") {
    gpy::nvrtc::CompileError e("NVRTC: NVRTC_ERROR_COMPILATION", "k.cu(3): error: identifier \"x\" is undefined");
    std::string m = gpy::nvrtc::rejected_kernel_message("k_1a2b", "sm_90", e);
    CHECK(m.rfind("internal error (a bug in gpy; please report it): NVRTC rejected the generated kernel k_1a2b for sm_90", 0) == 0);
    CHECK(m.find("--dump-kernels DIR to write its source to DIR/k_1a2b.cu") != std::string::npos);
    CHECK(m.find("identifier \"x\" is undefined") != std::string::npos);
    // Without a log, NVRTC's error string stands in.
    gpy::nvrtc::CompileError bare("NVRTC: NVRTC_ERROR_INVALID_OPTION", "");
    CHECK(gpy::nvrtc::rejected_kernel_message("k", "sm_80", bare).find("NVRTC_ERROR_INVALID_OPTION") != std::string::npos);
}

TEST_CASE("nvrtc: a kernel with a user's operation that does not compile is the user's error, by name") {
    const std::string source = std::string("GPY_KERNEL void k() {\n    {  ") + gpy::kUserKernelMarker + "leaky\n y = x +* 2;\n }\n"
                               "    {  " + gpy::kUserKernelMarker + "other\n }\n    {  " + gpy::kUserKernelMarker + "leaky\n }\n}\n";
    CHECK(gpy::user_kernel_names(source) == "'leaky', 'other'");
    CHECK(gpy::user_kernel_names("GPY_KERNEL void k() {}").empty());
    gpy::nvrtc::CompileError e("NVRTC: NVRTC_ERROR_COMPILATION", "k.cu(3): error: operand of \"*\" must be a pointer");
    std::string m = gpy::nvrtc::rejected_kernel_message("k_1a2b", "sm_90", e, source);
    CHECK(m.rfind("ElementwiseKernel 'leaky', 'other' does not compile (NVRTC, sm_90):\n", 0) == 0);
    CHECK(m.find("must be a pointer") != std::string::npos);
    CHECK(m.find("internal error") == std::string::npos);
}
