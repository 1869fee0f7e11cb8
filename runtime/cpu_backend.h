// Runs planned kernels on the CPU: compiles the emitted source (with the CPU
// prelude) through the JIT and splits the iteration space across all cores.
#pragma once

#include <memory>

#include "codegen/kernel.h"

namespace gpy {

class Backend;

// The CPU's Backend object (runtime/backend.h): run_kernel_cpu, no device libraries.
std::shared_ptr<Backend> make_cpu_backend();
void run_kernel_cpu(KernelPlan& plan);
// The complete source the CPU compiler sees for a kernel body.
std::string cpu_kernel_source(const std::string& body);

}  // namespace gpy
