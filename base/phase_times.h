// GPY_EXPERIMENTS=phase_times=1 (base/experiments.h): where the host time of each statement's kernels goes
// (emit or memo, allocation, compiled-kernel lookup, the driver's launch
// call, frees), printed to stderr at exit as calls, mean and max microseconds.
// A development aid for per-statement overhead; when off, a scope costs one
// branch.
#pragma once

#include <chrono>

namespace gpy::phase {

enum Id { Materialize, Emit, Alloc, Lookup, DriverLaunch, Free, NvrtcCompile, CubinDiskHit, ModuleLoad, Transfer, kCount };

bool enabled();
void add(Id id, std::chrono::steady_clock::duration d);

class Scope {
public:
    explicit Scope(Id id) : id_(id), on_(enabled()) {
        if (on_) t0_ = std::chrono::steady_clock::now();
    }
    ~Scope() {
        if (on_) add(id_, std::chrono::steady_clock::now() - t0_);
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

private:
    Id id_;
    bool on_;
    std::chrono::steady_clock::time_point t0_;
};

}  // namespace gpy::phase
