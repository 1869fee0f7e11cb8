// CPU JIT timings: cold compile (fresh cache folder), warm disk hit (memory
// cache cleared, entry on disk) and warm memory hit, each the median of
// several runs, for a few small generated-style kernels.
//
//   build/gpy_bench_jit [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "runtime/cpu_backend.h"  // cpu_kernel_source: the real CPU prelude
#include "runtime/cpu_jit.h"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Kernel {
    const char* name;
    std::string source;
};

std::vector<Kernel> kernels() {
    return {
        {"axpb f32 (x*a+b)",
         "extern \"C\" void k(float* out, const float* in, long n, float a, float b) {\n"
         "  for (long i = 0; i < n; ++i) out[i] = in[i] * a + b;\n}\n"},
        {"exp f32 (libmvec)",
         "extern \"C\" void k(float* out, const float* in, long n) {\n"
         "  for (long i = 0; i < n; ++i) out[i] = __builtin_expf(in[i]);\n}\n"},
        {"where/max f64, 3 inputs",
         "template <class T> static inline T mx(T a, T b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }\n"
         "extern \"C\" void k(double* out, const double* x, const double* y, const double* z, long n) {\n"
         "  for (long i = 0; i < n; ++i) {\n"
         "    double t = x[i] * y[i] - z[i];\n"
         "    out[i] = t > 0 ? mx(t, __builtin_sqrt(x[i])) : __builtin_log1p(z[i] * z[i]);\n"
         "  }\n}\n"},
        // What the emitter produces: the full CPU prelude (~9 KB of helpers)
        // and a contiguous elementwise body, exp(x) * s + maximum(y, 0).
        {"prelude + exp/max f32",
         gpy::cpu_kernel_source(
             "GPY_KERNEL void k(char** P, const int64_t* M, const uint64_t* S, int64_t begin, int64_t end) {\n"
             "    float s; __builtin_memcpy(&s, &S[0], sizeof s);\n"
             "    const float* GPY_RESTRICT x = (const float*)P[0];\n"
             "    const float* GPY_RESTRICT y = (const float*)P[1];\n"
             "    float* GPY_RESTRICT out = (float*)P[2];\n"
             "    for (int64_t j = begin; j < end; ++j)\n"
             "        out[j] = gpy_exp(x[j]) * s + gpy_maximum(y[j], 0.0f);\n"
             "}\n")},
    };
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 7;
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));

    auto& jit = gpy::CpuJit::instance();
    std::string base = (std::filesystem::temp_directory_path() / ("gpy_jit_bench_" + std::to_string(::getpid()))).string();

    // The very first lookup in a process also starts LLVM and the ORC JIT.
    std::string warm_src = "extern \"C\" int first_kernel(int x) { return x + 1; }\n";
    jit.set_cache_dir(base + "/first");
    auto t0 = Clock::now();
    jit.lookup(warm_src, "first_kernel");
    double first_ms = ms_since(t0);

    std::printf("target: %s\n", jit.target_description().c_str());
    std::printf("first lookup in process: %.1f ms (of which loading libgpy_cpujit.so + LLVM + ORC start-up: %.1f ms)\n\n",
                first_ms, jit.stats().startup_ms);
    std::printf("%-26s %8s %14s %14s %14s\n", "kernel", "bytes", "cold compile", "disk hit", "memory hit");

    int dir_id = 0;
    for (const auto& k : kernels()) {
        std::vector<double> cold, disk, mem;
        for (int r = 0; r < runs; ++r) {
            jit.set_cache_dir(base + "/c" + std::to_string(dir_id++));
            jit.clear_memory_cache_for_testing();
            auto t = Clock::now();
            jit.lookup(k.source, "k");
            cold.push_back(ms_since(t));
        }
        for (int r = 0; r < runs; ++r) {
            jit.clear_memory_cache_for_testing();
            auto t = Clock::now();
            jit.lookup(k.source, "k");
            disk.push_back(ms_since(t));
        }
        const int reps = 200000;
        for (int r = 0; r < runs; ++r) {
            auto t = Clock::now();
            void* p = nullptr;
            for (int i = 0; i < reps; ++i) p = jit.lookup(k.source, "k");
            mem.push_back(ms_since(t) * 1000.0 / reps);
            if (!p) return 1;
        }
        std::printf("%-26s %8zu %11.1f ms %11.2f ms %11.3f us\n", k.name, k.source.size(), median(cold), median(disk),
                    median(mem));
    }
    auto s = jit.stats();
    std::printf("\n(median of %d runs; stats: compiles=%llu disk_hits=%llu disk_writes=%llu memory_hits=%llu)\n", runs,
                (unsigned long long)s.compiles, (unsigned long long)s.disk_hits, (unsigned long long)s.disk_writes,
                (unsigned long long)s.memory_hits);
    std::error_code ec;
    std::filesystem::remove_all(base, ec);
    return 0;
}
