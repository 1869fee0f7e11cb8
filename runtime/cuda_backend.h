// Runs planned kernels on a CUDA GPU: the emitted body with the CUDA prelude
// and wrappers (codegen/cuda_source.h), compiled by NVRTC for the device's
// exact architecture, cached in memory and on disk, launched on the current
// stream with a block size from the occupancy calculator.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "codegen/kernel.h"
#include "runtime/cuda_driver.h"

namespace gpy {

class Backend;

// The CUDA Backend object (runtime/backend.h): run_kernel_cuda and
// cuda_kernel_ready, waiting for the device, cuBLAS's gemm and the Philox
// fill kernels; driver errors become DeviceErrors.
std::shared_ptr<Backend> make_cuda_backend();

// On the current array device (set_array_device). Kernels that can fail wait
// for their error word; others return once queued.
void run_kernel_cuda(KernelPlan& plan);

// Whether `plan`'s kernel can launch without waiting for NVRTC; if not,
// starts its compile in the background (`ahead`: behind every other) and,
// while the tier-0 interpreter is ready to stand in, answers false
// (codegen/plan.h KernelReadiness).
// When the tier-0 interpreter was not in the disk cache (a machine's first
// gpy run, or a new cache folder), the first call also queues the kernels
// stand-ins want (compile_generic_reductions_ahead, codegen/stand_in.h).
bool cuda_kernel_ready(const KernelPlan& plan, bool ahead);

// Entry point `entry` of a fixed CUDA source (a library kernel, not an
// emitted one), compiled once per device and cached in memory and on disk
// like emitted kernels. `name` names the source in NVRTC's log.
cuda::CUfunction library_kernel(int device, const std::string& source, const std::string& name, const std::string& entry);

}  // namespace gpy
