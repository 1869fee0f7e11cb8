// "Shadow compile" for CI machines without a GPU: with GPY_SHADOW_NVRTC=1,
// every kernel the CPU backend compiles is also compiled with NVRTC for the
// CUDA architectures gpy targets, so an emitter bug that only the CUDA path
// hits fails the test suite. scripts/test.sh turns it on.
#pragma once

#include <stdexcept>
#include <string>

#include "codegen/cuda_source.h"
#include "codegen/kernel.h"

namespace gpy {

// The architectures every kernel is shadow-compiled for
// (GPY_SHADOW_NVRTC_ARCHS=sm_90 narrows it to those it names).
inline constexpr const char* kShadowArchs[] = {"sm_80", "sm_90"};

// A kernel NVRTC rejected; what() is nvrtc::rejected_kernel_message's.
struct ShadowCompileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Whether `arch` (one of kShadowArchs) is to be compiled for: all are,
// unless GPY_SHADOW_NVRTC_ARCHS names some (CI's fast set names sm_90; the
// [nvrtc] unit tests of the fused kernels' kinds still compile every arch).
bool shadow_arch_wanted(const char* arch);

// Whether GPY_SHADOW_NVRTC=1 is set (read once).
bool shadow_nvrtc_enabled();

// When enabled: compiles `k` for each of kShadowArchs, once per kernel name
// per process (later calls return at once). Throws ShadowCompileError. If
// NVRTC cannot be loaded, warns once on stderr and does nothing.
void shadow_compile_nvrtc(const KernelSource& k);

}  // namespace gpy
