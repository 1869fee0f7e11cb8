#include "runtime/search_cuda.h"

#include <algorithm>

#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"

namespace gpy {

namespace {

// NumPy's order (npy_sort's LT): for floats a NaN is greater than every
// number and equal to a NaN; the search is std::lower_bound / upper_bound's.
const char* kSearchKernels = R"CUDA(
typedef long int64_t;
template <class T> static __device__ __forceinline__ bool gpy_lt(T a, T b) { return a < b; }
static __device__ __forceinline__ bool gpy_lt(float a, float b) { return a < b || (b != b && a == a); }
static __device__ __forceinline__ bool gpy_lt(double a, double b) { return a < b || (b != b && a == a); }
#define GPY_SAMPLES 2048
// Each block first copies every (n / GPY_SAMPLES)-th element to shared
// memory and searches those: the answer then lies between two neighbouring
// samples, and only that stretch is searched in global memory (eleven of
// the 24 dependent loads of a search of 2^24 elements come from shared
// memory). Exact: sample j at index j * step; with c samples before x,
// the answer is in [(c - 1) * step + 1, c * step] (0 and n at the ends).
template <class T, bool RIGHT>
static __device__ __forceinline__ void gpy_search(const T* __restrict__ a, int64_t n, const T* __restrict__ v, int64_t m, int64_t* __restrict__ out) {
    __shared__ T samples[GPY_SAMPLES];
    const int64_t step = n / GPY_SAMPLES;
    if (step >= 2) {
        for (int j = threadIdx.x; j < GPY_SAMPLES; j += blockDim.x) samples[j] = __ldg(a + j * step);
        __syncthreads();
    }
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < m; i += (int64_t)blockDim.x * gridDim.x) {
        const T x = v[i];
        int64_t lo = 0, hi = n;
        if (step >= 2) {
            int slo = 0, shi = GPY_SAMPLES;
            while (slo < shi) {
                const int mid = (slo + shi) >> 1;
                const T y = samples[mid];
                if (RIGHT ? !gpy_lt(x, y) : gpy_lt(y, x)) slo = mid + 1;
                else shi = mid;
            }
            lo = slo == 0 ? 0 : (slo - 1) * step + 1;
            hi = slo < GPY_SAMPLES ? slo * step : n;
        }
        while (lo < hi) {
            const int64_t mid = lo + ((hi - lo) >> 1);
            const T y = __ldg(a + mid);
            if (RIGHT ? !gpy_lt(x, y) : gpy_lt(y, x)) lo = mid + 1;
            else hi = mid;
        }
        out[i] = lo;
    }
}
#define GPY_SEARCH(TN, T) \
    extern "C" __global__ void gpy_search_left_##TN(const T* a, int64_t n, const T* v, int64_t m, int64_t* out) { gpy_search<T, false>(a, n, v, m, out); } \
    extern "C" __global__ void gpy_search_right_##TN(const T* a, int64_t n, const T* v, int64_t m, int64_t* out) { gpy_search<T, true>(a, n, v, m, out); }
GPY_SEARCH(i8, signed char) GPY_SEARCH(u8, unsigned char) GPY_SEARCH(i16, short) GPY_SEARCH(u16, unsigned short)
GPY_SEARCH(i32, int) GPY_SEARCH(u32, unsigned int) GPY_SEARCH(i64, long long) GPY_SEARCH(u64, unsigned long long)
GPY_SEARCH(f32, float) GPY_SEARCH(f64, double)
)CUDA";

}  // namespace

std::string cuda_search_source() { return kSearchKernels; }

void searchsorted_on_device(int device, DeviceSearchType type, bool right, const void* a, int64_t n, const void* v, int64_t m, int64_t* out) {
    if (m <= 0) return;
    static const std::string source = cuda_search_source();
    const std::string entry = std::string(right ? "gpy_search_right_" : "gpy_search_left_") + device_type_suffix(type);
    cuda::CUfunction fn = library_kernel(device, source, "gpy_search", entry);
    cuda::device(device).make_current();
    unsigned block = 256;
    // Eight blocks an SM: each copies the samples once (16 KiB at most).
    unsigned grid = unsigned(std::min<int64_t>((m + block - 1) / block, int64_t(cuda::device(device).sm_count) * 8));
    void* args[] = {&a, &n, &v, &m, &out};
    cuda::launch(fn, {grid}, {block}, 0, current_stream(), args);
    note_device_work(device);
}

}  // namespace gpy
