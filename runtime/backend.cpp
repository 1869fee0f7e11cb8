#include "runtime/backend.h"

#include <cstdlib>

#include "runtime/cpu_backend.h"
#include "runtime/cuda_backend.h"
#include "runtime/cuda_driver.h"
#include "runtime/nvrtc.h"

namespace gpy {

void Backend::gemm(bool, bool, int, int, int, const float*, int, const float*, int, float*, int) {
    throw std::logic_error("Backend::gemm: this backend has no matrix library");
}
void Backend::gemm(bool, bool, int, int, int, const double*, int, const double*, int, double*, int) {
    throw std::logic_error("Backend::gemm: this backend has no matrix library");
}


std::shared_ptr<RawFunction> Backend::raw_function(const RawSource& source, const std::string& expr) {
    const ArrayContext* c = array_context();
    return cpu_raw_function(source, expr, c ? c->cache_dir : std::string());
}

// The CPU's only settable attribute: how much dynamic shared memory a launch may ask.
void Backend::raw_set_attribute(RawFunction& f, const std::string& name, int value) {
    if (name != "max_dynamic_shared_size_bytes" && name != "preferred_shared_memory_carveout")
        throw std::invalid_argument("no settable function attribute " + name);
    constexpr int kCpuDynamicShared = 256 << 10;  // runtime/raw_cpu.cpp kDynamicShared
    if (name == "max_dynamic_shared_size_bytes" && (value < 0 || value > kCpuDynamicShared))
        throw RawLaunchError("max_dynamic_shared_size_bytes " + std::to_string(value) + " is over the CPU's " +
                             std::to_string(kCpuDynamicShared));
    f.attributes[name] = value;
}

BackendChoice choose_backend(const std::string& requested, int device) {
    BackendChoice c;
    if (requested == "cpu") {
        c.name = "cpu";
        c.description = "cpu (requested with --backend cpu)";
        return c;
    }
    std::string why;
    int n = cuda::device_count(&why);
    if (n > 0 && device >= n) {
        c.error = "--device " + std::to_string(device) + " is out of range: " + std::to_string(n) + " CUDA device(s) found";
        return c;
    }
    if (requested == "cuda") {
        if (n == 0) {
            c.error = "--backend cuda requested but " + why;
            return c;
        }
        if (std::string nvrtc_why; !nvrtc::available(&nvrtc_why)) {
            c.error = "--backend cuda requested but " + nvrtc_why + " (it compiles the kernels)";
            return c;
        }
        c.name = "cuda";
        c.description = "cuda device " + std::to_string(device);
        return c;
    }
    // A GPU without NVRTC cannot compile kernels: auto then runs on the CPU.
    std::string nvrtc_why;
    if (n > 0 && !nvrtc::available(&nvrtc_why)) {
        c.name = "cpu";
        c.note = "GPU found but " + nvrtc_why + ", running on the CPU";
        c.description = "cpu (" + nvrtc_why + ")";
        return c;
    }
    if (n > 0) {
        c.name = "cuda";
        c.description = "cuda device " + std::to_string(device) + " of " + std::to_string(n);
        return c;
    }
    c.name = "cpu";
    c.note = why + ", running on the CPU";
    c.description = "cpu (" + why + ")";
    return c;
}

BackendChoice install_backend(ArrayContext& ctx, const BackendOptions& o) {
    BackendChoice choice = choose_backend(o.backend, o.device);
    const bool cuda = choice.error.empty() && choice.name == "cuda";
    ctx.array_kind = cuda ? DeviceKind::CUDA : DeviceKind::CPU;
    ctx.array_device = cuda ? o.device : 0;
    ctx.max_array_bytes = o.max_array_bytes;
    ctx.max_memory_bytes = o.max_memory_bytes;
    ctx.cache_dir = o.cache_dir;
    ctx.fast_math = o.fast_math;
    ctx.debug = o.debug;
    const char* memory = std::getenv("GPY_GPU_MEMORY");
    ctx.managed_memory = o.managed_memory || (memory && std::string(memory) == "managed");
    ctx.backend = cuda ? make_cuda_backend() : make_cpu_backend();
    ctx.host_backend = cuda ? make_cpu_backend() : nullptr;
    // The context owns both and outlives its runner. Under a HostArraysScope
    // (array_kind CPU on a GPU context) kernels run on the host backend.
    Backend* b = ctx.backend.get();
    Backend* h = ctx.host_backend.get();
    ArrayContext* c = &ctx;
    auto pick = [b, h, c]() { return h && c->array_kind == DeviceKind::CPU ? h : b; };
    ctx.runner = [pick](KernelPlan& plan) { pick()->run(plan); };
    ctx.readiness = [pick](const KernelPlan& plan, bool ahead) { return pick()->ready(plan, ahead); };
    return choice;
}

}  // namespace gpy
