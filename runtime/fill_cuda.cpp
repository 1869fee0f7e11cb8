#include "runtime/fill_cuda.h"

#include <algorithm>
#include <cstring>

#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"

namespace gpy {

namespace {

// A thread per element (grid-stride). Elements 0 and 1 are copied as
// stored: start + 1 * (p1 - start) need not round back to p1.
const char* kRangeFillKernels = R"CUDA(
typedef long int64_t; typedef unsigned long long gpy_u64;
typedef unsigned char gpy_u8; typedef unsigned short gpy_u16; typedef unsigned int gpy_u32;
#define GPY_FOR_EACH for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x)
template <class U>
static __device__ __forceinline__ void gpy_fill_int(U p0, U p1, int64_t n, U* out) {
    const gpy_u64 start = p0, delta = (U)(p1 - p0);
    GPY_FOR_EACH out[i] = i == 0 ? p0 : i == 1 ? p1 : (U)(start + (gpy_u64)i * delta);
}
template <class T>
static __device__ __forceinline__ void gpy_fill_real(T p0, T p1, int64_t n, T* out) {
    const T delta = p1 - p0;
    GPY_FOR_EACH out[i] = i == 0 ? p0 : i == 1 ? p1 : p0 + (T)i * delta;
}
extern "C" __global__ void gpy_range_fill_int8(gpy_u8 a, gpy_u8 b, int64_t n, gpy_u8* out) { gpy_fill_int<gpy_u8>(a, b, n, out); }
extern "C" __global__ void gpy_range_fill_int16(gpy_u16 a, gpy_u16 b, int64_t n, gpy_u16* out) { gpy_fill_int<gpy_u16>(a, b, n, out); }
extern "C" __global__ void gpy_range_fill_int32(gpy_u32 a, gpy_u32 b, int64_t n, gpy_u32* out) { gpy_fill_int<gpy_u32>(a, b, n, out); }
extern "C" __global__ void gpy_range_fill_int64(gpy_u64 a, gpy_u64 b, int64_t n, gpy_u64* out) { gpy_fill_int<gpy_u64>(a, b, n, out); }
extern "C" __global__ void gpy_range_fill_float(float a, float b, int64_t n, float* out) { gpy_fill_real<float>(a, b, n, out); }
extern "C" __global__ void gpy_range_fill_double(double a, double b, int64_t n, double* out) { gpy_fill_real<double>(a, b, n, out); }
// float16: bits in and out, the arithmetic in float (NumPy's HALF_fill).
extern "C" __global__ void gpy_range_fill_half(gpy_u16 a, gpy_u16 b, int64_t n, gpy_u16* out) {
    float start, second;
    asm("cvt.f32.f16 %0, %1;" : "=f"(start) : "h"(a));
    asm("cvt.f32.f16 %0, %1;" : "=f"(second) : "h"(b));
    const float delta = second - start;
    GPY_FOR_EACH {
        gpy_u16 h;
        const float v = start + (float)i * delta;
        asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(v));
        out[i] = i == 0 ? a : i == 1 ? b : h;
    }
}
extern "C" __global__ void gpy_range_fill_cfloat(float re, float im, float re1, float im1, int64_t n, float* out) {
    const float dre = re1 - re, dim = im1 - im;
    GPY_FOR_EACH {
        out[2 * i] = i == 0 ? re : i == 1 ? re1 : re + (float)i * dre;
        out[2 * i + 1] = i == 0 ? im : i == 1 ? im1 : im + (float)i * dim;
    }
}
extern "C" __global__ void gpy_range_fill_cdouble(double re, double im, double re1, double im1, int64_t n, double* out) {
    const double dre = re1 - re, dim = im1 - im;
    GPY_FOR_EACH {
        out[2 * i] = i == 0 ? re : i == 1 ? re1 : re + (double)i * dre;
        out[2 * i + 1] = i == 0 ? im : i == 1 ? im1 : im + (double)i * dim;
    }
}
)CUDA";

}  // namespace

std::string cuda_range_fill_source() { return kRangeFillKernels; }

void range_fill_on_device(int device, RangeFill kind, const void* first, int64_t n, void* out) {
    if (n <= 0) return;
    static const std::string source = cuda_range_fill_source();
    static const char* const kEntries[] = {"gpy_range_fill_int8", "gpy_range_fill_int16", "gpy_range_fill_int32",
                                           "gpy_range_fill_int64", "gpy_range_fill_half", "gpy_range_fill_float",
                                           "gpy_range_fill_double", "gpy_range_fill_cfloat", "gpy_range_fill_cdouble"};
    static const size_t kSizes[] = {1, 2, 4, 8, 2, 4, 8, 8, 16};
    const size_t size = kSizes[size_t(kind)];
    cuda::CUfunction fn = library_kernel(device, source, "gpy_range_fill", kEntries[size_t(kind)]);
    cuda::device(device).make_current();
    // The two stored elements, as the kernel's first parameters (a complex
    // element is two of its parts: re, im, re1, im1).
    alignas(16) unsigned char a[16] = {}, b[16] = {};
    std::memcpy(a, first, size);
    std::memcpy(b, static_cast<const unsigned char*>(first) + size, size);
    unsigned block = 256;
    unsigned grid = unsigned(std::min<int64_t>((n + block - 1) / block, int64_t(cuda::device(device).sm_count) * 32));
    cuda::CUstream stream = current_stream();
    if (kind == RangeFill::ComplexFloat || kind == RangeFill::ComplexDouble) {
        const size_t part = size / 2;
        void* args[] = {a, a + part, b, b + part, &n, &out};
        cuda::launch(fn, {grid}, {block}, 0, stream, args);
    } else {
        void* args[] = {a, b, &n, &out};
        cuda::launch(fn, {grid}, {block}, 0, stream, args);
    }
    note_device_work(device);
}

}  // namespace gpy
