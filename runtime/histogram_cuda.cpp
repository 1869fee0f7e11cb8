#include "runtime/histogram_cuda.h"

#include <algorithm>

#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"

namespace gpy {

namespace {

constexpr int kThreads = 256;
constexpr int64_t kSharedBins = 8192;  // 32 KiB of counters a block; more bins count in global memory

const char* kHistogramKernels = R"CUDA(
typedef unsigned long long gpy_u64;
#define GPY_SHARED_BINS 8192
// Element x's bin, as NumPy's histogram computes it for uniform bins.
template <class D, class E>
__device__ __forceinline__ long long gpy_hist_bin(D v, const E* __restrict__ edges, long long bins, E first, E norm) {
    const E x = (E)v;
    long long b = (long long)((x - first) * norm);
    if (b >= bins) b = bins - 1;  // x == last (and a guard)
    if (b < 0) b = 0;
    if (x < __ldg(edges + b)) --b;
    else if (b != bins - 1 && x >= __ldg(edges + b + 1)) ++b;
    return b < 0 ? 0 : b;
}
template <class D, class E, bool SHARED>
__device__ void gpy_hist(const D* __restrict__ data, gpy_u64 n, const E* __restrict__ edges, long long bins, E first, E norm,
                         gpy_u64* __restrict__ counts) {
    __shared__ unsigned h[SHARED ? GPY_SHARED_BINS : 1];
    if (SHARED) {
        for (long long b = threadIdx.x; b < bins; b += blockDim.x) h[b] = 0u;
        __syncthreads();
    }
    const gpy_u64 stride = (gpy_u64)blockDim.x * gridDim.x;
    gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x;
    // Four loads in flight a thread.
    for (; i + 3 * stride < n; i += 4 * stride) {
        D v[4];
        #pragma unroll
        for (int k = 0; k < 4; ++k) v[k] = data[i + k * stride];
        #pragma unroll
        for (int k = 0; k < 4; ++k) {
            const long long b = gpy_hist_bin<D, E>(v[k], edges, bins, first, norm);
            if (SHARED) atomicAdd(&h[b], 1u); else atomicAdd(counts + b, 1ull);
        }
    }
    for (; i < n; i += stride) {
        const long long b = gpy_hist_bin<D, E>(data[i], edges, bins, first, norm);
        if (SHARED) atomicAdd(&h[b], 1u); else atomicAdd(counts + b, 1ull);
    }
    if (SHARED) {
        __syncthreads();
        for (long long b = threadIdx.x; b < bins; b += blockDim.x)
            if (h[b]) atomicAdd(counts + b, (gpy_u64)h[b]);
    }
}
#define GPY_HIST(TN, D, EN, E) \
    extern "C" __global__ void gpy_hist_shared_##TN##_##EN(const D* d, gpy_u64 n, const E* e, long long b, E f, E m, gpy_u64* c) { gpy_hist<D, E, true>(d, n, e, b, f, m, c); } \
    extern "C" __global__ void gpy_hist_global_##TN##_##EN(const D* d, gpy_u64 n, const E* e, long long b, E f, E m, gpy_u64* c) { gpy_hist<D, E, false>(d, n, e, b, f, m, c); }
#define GPY_HIST_E(TN, D) GPY_HIST(TN, D, f32, float) GPY_HIST(TN, D, f64, double)
GPY_HIST_E(i8, signed char) GPY_HIST_E(u8, unsigned char) GPY_HIST_E(i16, short) GPY_HIST_E(u16, unsigned short)
GPY_HIST_E(i32, int) GPY_HIST_E(u32, unsigned int) GPY_HIST_E(i64, long long) GPY_HIST_E(u64, unsigned long long)
GPY_HIST_E(f32, float) GPY_HIST_E(f64, double)
)CUDA";

}  // namespace

std::string cuda_histogram_source() { return kHistogramKernels; }

void histogram_on_device(int device, DeviceSearchType type, bool edges_double, const void* data, int64_t n, const void* edges,
                         int64_t bins, double first, double norm, int64_t* counts) {
    static const std::string source = cuda_histogram_source();
    const bool shared = bins <= kSharedBins;
    const std::string entry = std::string(shared ? "gpy_hist_shared_" : "gpy_hist_global_") + device_type_suffix(type) +
                              (edges_double ? "_f64" : "_f32");
    cuda::CUfunction fn = library_kernel(device, source, "gpy_histogram", entry);
    cuda::device(device).make_current();
    cuda::CUstream stream = current_stream();
    cuda::check(cuda::api().cuMemsetD8Async(cuda::CUdeviceptr(counts), 0, size_t(bins) * 8, stream), "cuMemsetD8Async(histogram)");
    if (n > 0) {
        const int64_t sms = cuda::device(device).sm_count;
        // A few blocks an SM: each adds its whole histogram to the result once.
        unsigned grid = unsigned(std::max<int64_t>(1, std::min<int64_t>((n + kThreads * 4 - 1) / (kThreads * 4), sms * 4)));
        const uint64_t un = uint64_t(n);
        const long long lb = bins;
        float ff = float(first), nf = float(norm);
        void* a32[] = {&data, const_cast<uint64_t*>(&un), &edges, const_cast<long long*>(&lb), &ff, &nf, &counts};
        void* a64[] = {&data, const_cast<uint64_t*>(&un), &edges, const_cast<long long*>(&lb), &first, &norm, &counts};
        cuda::launch(fn, {grid}, {unsigned(kThreads)}, 0, stream, edges_double ? a64 : a32);
    }
    note_device_work(device);
}

}  // namespace gpy
