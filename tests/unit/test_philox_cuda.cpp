// The Philox fill kernels (runtime/philox_cuda.cpp): they compile with NVRTC
// for every shadow architecture (no GPU needed), and on a GPU their outputs
// equal the host fills': uniform floats and doubles bit for bit, normals
// within a few ulp (CUDA's logf/sinf are not glibc's).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/nvrtc.h"
#include "runtime/nvrtc_shadow.h"
#include "runtime/philox_cuda.h"

using namespace gpy;

TEST_CASE("philox fills: the CUDA source compiles for every architecture", "[nvrtc]") {
    std::string why;
    if (!nvrtc::available(&why)) {
        WARN("NVRTC unavailable: " << why);
        return;
    }
    std::string src = philox::cuda_fill_source();
    for (const char* arch : kShadowArchs) {
        INFO(arch);
        try {
            CHECK(nvrtc::compile(src, "gpy_philox_fills.cu", arch).size() > 0);
        } catch (const nvrtc::CompileError& e) {
            FAIL(e.what() << "\n" << e.log);
        }
    }
}

TEST_CASE("philox fills: the GPU draws the host's numbers", "[gpu]") {
    std::string why;
    if (cuda::device_count(&why) == 0) {
        WARN("skipped: no GPU (" << why << ")");
        return;
    }
    const uint64_t n = 1000003;  // not a multiple of 4: the tail of the last block
    philox::Stream s{0x1234567890abcdefull, 6};
    Buffer* f = allocate_cuda_buffer(0, n * 4, false);
    Buffer* d = allocate_cuda_buffer(0, n * 8, false);
    BufferRef fr(f), dr(d);
    std::vector<float> hf(n);
    std::vector<double> hd(n);

    philox::fill_on_device(0, philox::DeviceFill::UniformFloat, s, n, 0, 0, fr.device_bytes());
    philox::fill_uniform_float(s, 0, n, hf.data());
    const float* gf = reinterpret_cast<const float*>(fr.bytes());
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; ++i) bad += gf[i] != (hf[i] == 1.0f ? 0.0f : hf[i]);
    CHECK(bad == 0);

    philox::fill_on_device(0, philox::DeviceFill::UniformDouble, s, n, 0, 0, dr.device_bytes());
    philox::fill_uniform_double(s, 0, n, hd.data());
    const double* gd = reinterpret_cast<const double*>(dr.bytes());
    bad = 0;
    for (uint64_t i = 0; i < n; ++i) bad += gd[i] != hd[i];
    CHECK(bad == 0);

    philox::fill_on_device(0, philox::DeviceFill::NormalDouble, s, n, 1.5, 2.0, dr.device_bytes());
    philox::fill_normal_double(s, 0, n, 1.5, 2.0, hd.data());
    gd = reinterpret_cast<const double*>(dr.bytes());
    double worst = 0;
    for (uint64_t i = 0; i < n; ++i) worst = std::max(worst, std::fabs(gd[i] - hd[i]) / std::max(1.0, std::fabs(hd[i])));
    CHECK(worst < 1e-13);

    philox::fill_on_device(0, philox::DeviceFill::NormalFloat, s, n, 0.0, 1.0, fr.device_bytes());
    philox::fill_normal_float(s, 0, n, 0.0f, 1.0f, hf.data());
    gf = reinterpret_cast<const float*>(fr.bytes());
    double worst_f = 0;
    for (uint64_t i = 0; i < n; ++i) worst_f = std::max(worst_f, double(std::fabs(gf[i] - hf[i])) / std::max(1.0, double(std::fabs(hf[i]))));
    CHECK(worst_f < 1e-5);
}
