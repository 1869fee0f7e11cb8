#include "runtime/backend.h"

#include <cstdlib>

#include "codegen/tier0.h"
#include "runtime/cpu_backend.h"
#include "runtime/cublas.h"
#include "runtime/cuda_backend.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/nvrtc.h"

namespace gpy {

void Backend::gemm(bool, bool, int, int, int, const float*, int, const float*, int, float*, int) {
    throw std::logic_error("Backend::gemm: this backend has no matrix library");
}
void Backend::gemm(bool, bool, int, int, int, const double*, int, const double*, int, double*, int) {
    throw std::logic_error("Backend::gemm: this backend has no matrix library");
}

namespace {

class CpuBackend final : public Backend {
public:
    DeviceKind kind() const override { return DeviceKind::CPU; }
    void run(KernelPlan& plan) override { run_kernel_cpu(plan); }
    // The CPU compiles before launching; stand-ins only under tier 0's Always (tests).
    bool ready(const KernelPlan&, bool) override { return tier0_mode() != Tier0Mode::Always; }
};

// Driver and library failures as DeviceError.
template <class F>
auto device_call(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const cuda::Error& e) {
        throw DeviceError(std::string("CUDA error: ") + e.what());
    }
}

class CudaBackend final : public Backend {
public:
    DeviceKind kind() const override { return DeviceKind::CUDA; }
    void run(KernelPlan& plan) override { device_call([&] { run_kernel_cuda(plan); }); }
    // Stand-ins (codegen/stand_in.h): the GPU's fused reductions run unfused while they compile.
    bool ready(const KernelPlan& plan, bool ahead) override {
        try {
            return cuda_kernel_ready(plan, ahead);
        } catch (const std::exception&) {
            return true;  // the launch reports what is wrong
        }
    }
    void synchronize() override { device_call([] { wait_for_device_work(); }); }
    bool has_gemm() const override { return cublas::available(); }
    void gemm(bool ta, bool tb, int n, int m, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc) override {
        device_call([&] { cublas::sgemm(array_device_index(), ta, tb, n, m, k, a, lda, b, ldb, c, ldc); });
    }
    void gemm(bool ta, bool tb, int n, int m, int k, const double* a, int lda, const double* b, int ldb, double* c, int ldc) override {
        device_call([&] { cublas::dgemm(array_device_index(), ta, tb, n, m, k, a, lda, b, ldb, c, ldc); });
    }
    bool fill_random(philox::DeviceFill kind, const philox::Stream& stream, uint64_t n, double a, double b, void* out) override {
        device_call([&] { philox::fill_on_device(array_device_index(), kind, stream, n, a, b, out); });
        return true;
    }
};

}  // namespace

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
    ctx.cache_dir = o.cache_dir;
    ctx.fast_math = o.fast_math;
    ctx.debug = o.debug;
    if (cuda) ctx.backend = std::make_shared<CudaBackend>();
    else ctx.backend = std::make_shared<CpuBackend>();
    Backend* b = ctx.backend.get();  // the context owns it and outlives its runner
    ctx.runner = [b](KernelPlan& plan) { b->run(plan); };
    ctx.readiness = [b](const KernelPlan& plan, bool ahead) { return b->ready(plan, ahead); };
    return choice;
}

}  // namespace gpy
