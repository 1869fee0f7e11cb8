// Kernel compiles off the launching thread: a few worker threads run queued
// jobs (each returns a cubin) while the program goes on, its new kernels on
// the tier-0 interpreter meanwhile (codegen/tier0.h, runtime/cuda_backend.cpp).
//
// At exit, compiles already running finish (their cubins reach the disk
// cache, atomically); queued ones are dropped.
#pragma once

#include <functional>
#include <future>
#include <string>

namespace gpy {

// Urgent jobs run first, idle ones (kernels compiled ahead of need) last.
enum class CompilePriority { Urgent, Normal, Idle };

// Queues `job` and returns its result to come; an exception it throws is
// rethrown by the future's get().
std::shared_future<std::string> compile_in_background(std::function<std::string()> job, CompilePriority priority);

// Waits for running compiles and drops queued ones; later jobs never run.
// The CLI calls it before returning from main, while every static still lives.
void finish_background_compiles();

}  // namespace gpy
