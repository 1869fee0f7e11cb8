#include "runtime/philox_cuda.h"

#include <algorithm>

#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"
#include "runtime/philox_core_text.h"

namespace gpy::philox {

namespace {

// One thread per block of Philox output: 4 outputs of a 32-bit kind, 2 of a
// double kind (the outputs that share a counter), as the host's for_each_output.
const char* kFillKernels = R"CUDA(
extern "C" __global__ void gpy_philox_uniform_float(uint64_t seed, uint64_t base, uint64_t n, float* out) {
    for (uint64_t g = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; g * 4 < n; g += (uint64_t)blockDim.x * gridDim.x) {
        uint64_t i0 = g * 4;
        Words b = block(seed, counter_of(base, i0, 1), thread_of(i0));
        for (uint64_t k = 0; k < 4 && i0 + k < n; ++k) {
            float u = uniform_float(word(b, k));
            out[i0 + k] = u == 1.0f ? 0.0f : u;
        }
    }
}
extern "C" __global__ void gpy_philox_uniform_double(uint64_t seed, uint64_t base, uint64_t n, double* out) {
    for (uint64_t h = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; h * 2 < n; h += (uint64_t)blockDim.x * gridDim.x) {
        uint64_t i0 = h * 2;
        Words b = block(seed, counter_of(base, i0, 2), thread_of(i0));
        out[i0] = uniform_double(b.x, b.y);
        if (i0 + 1 < n) out[i0 + 1] = uniform_double(b.z, b.w);
    }
}
extern "C" __global__ void gpy_philox_normal_float(uint64_t seed, uint64_t base, uint64_t n, float mean, float stddev, float* out) {
    for (uint64_t g = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; g * 4 < n; g += (uint64_t)blockDim.x * gridDim.x) {
        uint64_t i0 = g * 4;
        Words b = block(seed, counter_of(base, i0, 1), thread_of(i0));
        float r[4];
        box_muller_float(b.x, b.y, &r[0], &r[1]);
        box_muller_float(b.z, b.w, &r[2], &r[3]);
        for (uint64_t k = 0; k < 4 && i0 + k < n; ++k) out[i0 + k] = r[k] * stddev + mean;
    }
}
extern "C" __global__ void gpy_philox_normal_double(uint64_t seed, uint64_t base, uint64_t n, double mean, double stddev, double* out) {
    for (uint64_t h = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; h * 2 < n; h += (uint64_t)blockDim.x * gridDim.x) {
        uint64_t i0 = h * 2;
        Words b = block(seed, counter_of(base, i0, 2), thread_of(i0));
        double r[2];
        box_muller_double(b.x, b.y, b.z, b.w, &r[0], &r[1]);
        out[i0] = r[0] * stddev + mean;
        if (i0 + 1 < n) out[i0 + 1] = r[1] * stddev + mean;
    }
}
)CUDA";

}  // namespace

std::string cuda_fill_source() {
    return std::string(
               "typedef unsigned int uint32_t; typedef unsigned long uint64_t;\n"
               "#define GPY_PHILOX_FN static __device__ __forceinline__\n") +
           kPhiloxCoreSource + kFillKernels;
}

void fill_on_device(int device, DeviceFill kind, const Stream& s, uint64_t n, double a, double b, void* out) {
    if (n == 0) return;
    static const std::string source = cuda_fill_source();
    const char* entry = kind == DeviceFill::UniformFloat    ? "gpy_philox_uniform_float"
                        : kind == DeviceFill::UniformDouble ? "gpy_philox_uniform_double"
                        : kind == DeviceFill::NormalFloat   ? "gpy_philox_normal_float"
                                                            : "gpy_philox_normal_double";
    cuda::CUfunction fn = library_kernel(device, source, "gpy_philox_fills", entry);
    cuda::device(device).make_current();
    uint64_t per_thread = kind == DeviceFill::UniformFloat || kind == DeviceFill::NormalFloat ? 4 : 2;
    uint64_t threads = (n + per_thread - 1) / per_thread;
    unsigned block_size = 256;
    unsigned grid = unsigned(std::min<uint64_t>((threads + block_size - 1) / block_size, uint64_t(cuda::device(device).sm_count) * 16));
    uint64_t seed = s.seed, base = s.base;
    float fa = float(a), fb = float(b);
    bool single = kind == DeviceFill::NormalFloat;
    bool normal = kind == DeviceFill::NormalFloat || kind == DeviceFill::NormalDouble;
    void* args_uniform[] = {&seed, &base, &n, &out};
    void* args_normal_f[] = {&seed, &base, &n, &fa, &fb, &out};
    void* args_normal_d[] = {&seed, &base, &n, &a, &b, &out};
    void** args = !normal ? args_uniform : single ? args_normal_f : args_normal_d;
    size_t nargs = !normal ? 4 : 6;
    cuda::launch(fn, {grid}, {block_size}, 0, current_stream(), {args, nargs});
    note_device_work(device);
}

}  // namespace gpy::philox
