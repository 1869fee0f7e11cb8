#include "base/phase_times.h"

#include "base/experiments.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpy::phase {

namespace {
const char* const kNames[kCount] = {"materialize (all)", "emit / memo", "allocate", "compiled lookup", "cuLaunchKernel",
                                    "free", "NVRTC compile", "cubin disk hit", "module load", "host<->device copy"};
std::atomic<int64_t> g_ns[kCount];
std::atomic<int64_t> g_calls[kCount];
std::atomic<int64_t> g_max_ns[kCount];  // the slowest call: a process's first NVRTC compile pays its start-up

void report() {
    std::fprintf(stderr, "gpy: phase times (GPY_EXPERIMENTS=phase_times=1)\n");
    for (int i = 0; i < kCount; ++i) {
        int64_t n = g_calls[i].load();
        if (n)
            std::fprintf(stderr, "  %-18s %9lld calls %8.3f us mean %10.3f us max\n", kNames[i], (long long)n,
                         g_ns[i].load() / 1e3 / n, g_max_ns[i].load() / 1e3);
    }
}
}  // namespace

bool enabled() {
    static const bool on = [] {
        bool yes = experiments().phase_times;
        if (yes) std::atexit(report);
        return yes;
    }();
    return on;
}

void add(Id id, std::chrono::steady_clock::duration d) {
    int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
    g_ns[id] += ns;
    ++g_calls[id];
    for (int64_t seen = g_max_ns[id].load(); ns > seen && !g_max_ns[id].compare_exchange_weak(seen, ns);) {
    }
}

}  // namespace gpy::phase
