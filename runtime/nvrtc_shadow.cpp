#include "runtime/nvrtc_shadow.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include "codegen/prelude.h"
#include "runtime/nvrtc.h"

namespace gpy {

std::string cuda_kernel_source(const KernelSource& k) {
    const std::string& n = k.name;
    std::string s = std::string(kCudaPrelude) + kCommonPrelude + k.body;
    s += "extern \"C\" __global__ void " + n + "_grid(char** P, const int64_t* M, const uint64_t* S, int64_t n) {\n"
         "    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x)\n"
         "        " + n + "(P, M, S, i, i + 1);\n}\n";
    if (k.kind == KernelSource::ReduceFull) {
        s += "extern \"C\" __global__ void " + n + "_part_grid(char** P, const int64_t* M, const uint64_t* S, int64_t n, char* partials) {\n"
             "    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x)\n"
             "        " + n + "_part(P, M, S, i, i + 1, i, partials);\n}\n"
             "extern \"C\" __global__ void " + n + "_finish_grid(char** P, const int64_t* M, const uint64_t* S, int64_t nparts, char* partials) {\n"
             "    if (blockIdx.x == 0 && threadIdx.x == 0) " + n + "_finish(P, M, S, nparts, partials);\n}\n";
    }
    return s;
}

bool shadow_nvrtc_enabled() {
    static const bool on = [] {
        const char* v = std::getenv("GPY_SHADOW_NVRTC");
        return v && std::strcmp(v, "1") == 0;
    }();
    return on;
}

void shadow_compile_nvrtc(const KernelSource& k) {
    if (!shadow_nvrtc_enabled()) return;
    static std::mutex mu;
    static std::unordered_set<std::string> done;  // kernel names compiled for every arch
    {
        std::lock_guard<std::mutex> lock(mu);
        if (done.count(k.name)) return;
    }
    std::string why;
    if (!nvrtc::available(&why)) {
        static std::once_flag warned;
        std::call_once(warned, [&] {
            std::fprintf(stderr, "gpy: warning: GPY_SHADOW_NVRTC=1 but NVRTC is unavailable (%s); kernels are not shadow-compiled\n",
                         why.c_str());
        });
        return;
    }
    // Compiled outside the lock: two threads may both compile a new kernel,
    // which costs time but not correctness.
    std::string src = cuda_kernel_source(k);
    for (const char* arch : kShadowArchs) {
        try {
            nvrtc::compile(src, k.name + ".cu", arch, /*fast_compile=*/true);
        } catch (const nvrtc::CompileError& e) {
            std::string log = e.log.empty() ? e.what() : e.log;
            throw ShadowCompileError("internal error: NVRTC could not compile kernel " + k.name + " for " + arch + ": " + log);
        }
    }
    std::lock_guard<std::mutex> lock(mu);
    done.insert(k.name);
}

}  // namespace gpy
