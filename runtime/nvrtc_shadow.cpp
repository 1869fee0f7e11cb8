#include "runtime/nvrtc_shadow.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

#include "codegen/prelude.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc.h"

namespace gpy {

bool shadow_nvrtc_enabled() {
    static const bool on = [] {
        const char* v = std::getenv("GPY_SHADOW_NVRTC");
        return v && std::strcmp(v, "1") == 0;
    }();
    return on;
}

bool shadow_arch_wanted(const char* arch) {
    static const std::string only = [] {
        const char* v = std::getenv("GPY_SHADOW_NVRTC_ARCHS");
        return std::string(v ? v : "");
    }();
    return only.empty() || only.find(arch) != std::string::npos;
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
    // A kernel another process already compiled for an arch (same source and
    // NVRTC) left a marker in the kernel cache: script tests share many kernels.
    static DiskCache* done_on_disk = new DiskCache("cuda-shadow", ".ok");  // never destroyed
    std::string src = cuda_kernel_source(k);
    for (const char* arch : kShadowArchs) {
        if (!shadow_arch_wanted(arch)) continue;
        std::string key = strong_hash_hex({"nvrtc-shadow-v1", src, nvrtc::version(), arch, nvrtc::math_option(false)});
        std::string marker;
        if (done_on_disk->load(key, marker) == DiskCache::Load::Hit) continue;
        try {
            nvrtc::compile(src, k.name + ".cu", arch, /*fast_math=*/false, /*fast_compile=*/true);
            done_on_disk->store(key, "ok");
        } catch (const nvrtc::CompileError& e) {
            throw ShadowCompileError(nvrtc::rejected_kernel_message(k.name, arch, e, src));
        }
    }
    std::lock_guard<std::mutex> lock(mu);
    done.insert(k.name);
}

}  // namespace gpy
