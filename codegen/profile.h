// --profile: a per-kernel table printed at exit (stderr): launches, total and
// mean time, bytes moved (inputs read + outputs written, each view once) and
// achieved GB/s. While profiling, the planner waits for each kernel to finish
// (the installed device sync) so a kernel's time is its own.
#pragma once

#include <functional>
#include <string>

#include "codegen/kernel.h"

namespace gpy::profile {

// Turns profiling on for the process; `sync` waits for the device's queued
// work (a no-op on the CPU). The table is printed at exit.
void enable(std::function<void()> sync);
bool enabled();
// Runs `launch` (one kernel) timed, and records it under the plan's kernel.
void timed(const KernelPlan& plan, const std::function<void()>& launch);
// The table, most expensive kernel first ("" when nothing ran).
std::string report();

}  // namespace gpy::profile
