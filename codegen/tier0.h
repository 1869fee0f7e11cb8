// Tier 0: one bytecode-interpreting kernel, the same for every program, so a
// new elementwise kernel can run at once while NVRTC compiles the real one in
// the background (NVRTC takes ~130 ms per fused kernel; runtime/cuda_backend.cpp
// decides which runs). A program is launch metadata, not source: the
// interpreter is compiled once per machine and served by the kernel cache.
//
// Each opcode's case is written by the emitter's own expression builders
// (codegen/op_expr.h), and values live in registers of their compute type,
// so the interpreter computes the same bits as the fused kernel.
//
// Launch ABI: the elementwise one (codegen/kernel.h) with meta =
//   [rank, operands, instructions, shape[rank], strides[operands][rank], code...]
// An instruction is one int64: opcode (bits 0-15), then registers or operand
// indices d, a, b, c (8 bits each, from bit 16 up).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/kernel.h"

namespace gpy {

constexpr int kTier0MaxOperands = 16;  // outputs and inputs (Launch::ptrs)
constexpr int kTier0MaxRank = 6;
constexpr int kTier0Registers = 32;    // 8-byte slots per element
constexpr int kTier0MaxCode = 160;     // instructions
constexpr int kTier0MaxScalars = 32;   // Launch::scalars slots
constexpr int kTier0MetaSlots = 3 + kTier0MaxRank + kTier0MaxOperands * kTier0MaxRank + kTier0MaxCode;

// The interpreter kernel (built once; its name hashes its source).
const std::shared_ptr<const KernelSource>& tier0_interpreter();

// What one opcode computes, for tests that run each against the fused kernel.
struct Tier0Opcode {
    dag::Op op;            // Cast, Unary, Binary or Where (Input and Scalar: loads)
    dag::UnaryOp unary{};
    dag::BinaryOp binary{};
    DType in0{}, in1{}, out{};
};
std::vector<Tier0Opcode> tier0_opcodes();

// The program computing `roots` (an elementwise kernel: outputs are operands
// [0, roots.size()), in order); `operands` and `scalars` give each Input's
// operand index and each Scalar's slot (the emitter's maps). Empty when some
// operation or dtype has no opcode (float16, complex, integer powers that can
// fail) or a limit above is passed.
std::vector<int64_t> tier0_program(const std::vector<dag::NodeP>& roots, const std::map<const dag::Node*, size_t>& operands,
                                   const std::map<const dag::Node*, size_t>& scalars, int rank, int n_operands, int n_scalars);

// Whether the interpreter has every elementwise operation in `root`'s
// pending tree; reductions and keepdims values pass (their inputs are
// checked): the planner runs such a tree unfused, its elementwise parts as
// programs (codegen/stand_in.h). The program limits are not checked.
bool tier0_interprets(const dag::NodeP& root);

// The interpreter costs a few ps per instruction and element on an H100
// (gauss, 20 instructions over 2^26 elements: 2.7 ms; Black-Scholes over
// 2^26: 59 ms a call). Past this many instruction-elements a call costs as
// much as a compile: the kernel compiles first, as without tier 0.
constexpr double kTier0MostWork = 2147483648.0;

// `plan` (whose source has a tier-0 program) as a launch of the interpreter.
KernelPlan tier0_plan(const KernelPlan& plan);

// Off, Auto (the CUDA backend interprets new elementwise kernels until their
// compile finishes), Always (every kernel with a program runs on the
// interpreter, on either backend; for tests). Each interpreter's context has
// its mode (PlanContext::tier0, which launches read: tier0_mode() in plan.h);
// it starts from $GPY_TIER0 ("0": Off, unset: Auto, "always": Always), read
// once per process.
enum class Tier0Mode { Off, Auto, Always };
Tier0Mode tier0_mode_from_environment();

}  // namespace gpy
