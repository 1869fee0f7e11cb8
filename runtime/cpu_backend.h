// Runs planned kernels on the CPU: compiles the emitted source (with the CPU
// prelude) through the JIT and splits the iteration space across all cores.
#pragma once

#include "codegen/kernel.h"

namespace gpy {

void run_kernel_cpu(KernelPlan& plan);
// The complete source the CPU compiler sees for a kernel body.
std::string cpu_kernel_source(const std::string& body);

}  // namespace gpy
