// "Shadow compile" for CI machines without a GPU: with GPY_SHADOW_NVRTC=1,
// every kernel the CPU backend compiles is also compiled with NVRTC for the
// CUDA architectures gpy targets, so an emitter bug that only the CUDA path
// hits fails the test suite. scripts/test.sh turns it on.
#pragma once

#include <stdexcept>
#include <string>

#include "codegen/kernel.h"

namespace gpy {

// The architectures every kernel is shadow-compiled for.
inline constexpr const char* kShadowArchs[] = {"sm_80", "sm_90"};

// The CUDA translation unit of a kernel: kCudaPrelude + kCommonPrelude + body,
// then one extern "C" __global__ wrapper per entry point (NAME_grid,
// NAME_part_grid, NAME_finish_grid) calling it on [i, i + 1) chunks in a
// grid-stride loop: enough to compile and link every entry point (real launch
// geometry is the CUDA backend's work).
std::string cuda_kernel_source(const KernelSource& k);

// A kernel NVRTC rejected; what() is "internal error: NVRTC could not compile
// kernel NAME for ARCH: LOG".
struct ShadowCompileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Whether GPY_SHADOW_NVRTC=1 is set (read once).
bool shadow_nvrtc_enabled();

// When enabled: compiles `k` for each of kShadowArchs, once per kernel name
// per process (later calls return at once). Throws ShadowCompileError. If
// NVRTC cannot be loaded, warns once on stderr and does nothing.
void shadow_compile_nvrtc(const KernelSource& k);

}  // namespace gpy
