#include "runtime/scan_cuda.h"

#include <algorithm>

#include "runtime/array_memory.h"
#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"

namespace gpy {

namespace {

constexpr int kThreads = 256, kItems = 16;   // a tile: 16 chunks of 256 consecutive elements
constexpr int64_t kTile = int64_t(kThreads) * kItems;
constexpr int64_t kChainMaxLen = 256;        // rows up to this long scan as chains
// Float sums and products of rows up to this long scan a warp a row, in
// NumPy's order (about 2 ns an element: 0.13 ms for one row of 2^16); longer
// ones in tiles (the last bits may differ). A cumsum of 400 floats in tiles
// flipped the sign of a mean printed by a corpus program (p150).
constexpr int64_t kExactMaxLen = 65536;

// Each entry point is instantiated per (op, type) by GPY_SCAN_ENTRIES.
const char* kScanKernels = R"CUDA(
typedef long int64_t; typedef unsigned long long gpy_u64; typedef unsigned int gpy_u32;
#define GPY_THREADS 256
#define GPY_ITEMS 16
// One step of the scan: integers in unsigned arithmetic (NumPy wraps; a
// float's U is itself), maximum and minimum as NumPy's (NaN propagates).
template <int OP, class T, class U> struct gpy_scan_op {
    static __device__ __forceinline__ T f(T a, T b) {
        if (OP == 0) return (T)((U)a + (U)b);
        if (OP == 1) return (T)((U)a * (U)b);
        if (OP == 2) return (a >= b || a != a) ? a : b;
        return (a <= b || a != a) ? a : b;
    }
};
// A chain per thread: column (o, i) of the block, element by element.
template <int OP, class T, class U>
__device__ void gpy_scan_chains(T* data, int64_t outer, int64_t len, int64_t inner) {
    const int64_t chains = outer * inner;
    for (int64_t c = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; c < chains; c += (int64_t)blockDim.x * gridDim.x) {
        T* p = data + (c / inner) * len * inner + c % inner;
        T acc = p[0];
        int64_t k = 1;
        // Eight loads in flight: a column scan of 4096 columns is too few
        // threads to hide the latency one load at a time.
        for (; k + 8 <= len; k += 8) {
            T x[8];
            #pragma unroll
            for (int j = 0; j < 8; ++j) x[j] = p[(k + j) * inner];
            #pragma unroll
            for (int j = 0; j < 8; ++j) { acc = gpy_scan_op<OP, T, U>::f(acc, x[j]); p[(k + j) * inner] = acc; }
        }
        for (; k < len; ++k) { acc = gpy_scan_op<OP, T, U>::f(acc, p[k * inner]); p[k * inner] = acc; }
    }
}
// A warp a row, in NumPy's order: 32 elements at a time, lane j adds
// elements 0..j of the chunk to the carry one after another (every prefix
// is the sequential one, bit for bit); eight chunks are loaded ahead.
template <int OP, class T, class U>
__device__ void gpy_scan_warp_rows(T* data, int64_t rows, int64_t len) {
    const int lane = threadIdx.x & 31;
    const int64_t nwarps = ((int64_t)blockDim.x * gridDim.x) >> 5;
    for (int64_t r = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5; r < rows; r += nwarps) {
        T* p = data + r * len;
        T carry = p[0];
        bool has = false;
        for (int64_t base = 0; base < len; base += 256) {
            T xs[8];
            #pragma unroll
            for (int c = 0; c < 8; ++c) {
                const int64_t i = base + c * 32 + lane;
                xs[c] = i < len ? p[i] : carry;
            }
            #pragma unroll
            for (int c = 0; c < 8; ++c) {
                const int64_t start = base + c * 32;
                if (start >= len) break;
                const int cnt = len - start < 32 ? (int)(len - start) : 32;
                T acc = carry;
                bool started = has;
                for (int m = 0; m < cnt; ++m) {
                    const T v = __shfl_sync(0xffffffffu, xs[c], m);
                    if (m <= lane) { acc = started ? gpy_scan_op<OP, T, U>::f(acc, v) : v; started = true; }
                }
                if (lane < cnt) p[start + lane] = acc;
                carry = __shfl_sync(0xffffffffu, acc, cnt - 1);
                has = true;
            }
        }
    }
}
// The block's inclusive scan of one value a thread, in thread order.
template <int OP, class T, class U>
__device__ __forceinline__ T gpy_block_scan(T v, T* warp_totals) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int d = 1; d < 32; d *= 2) {
        T w = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v = gpy_scan_op<OP, T, U>::f(w, v);
    }
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        T t = lane < GPY_THREADS / 32 ? warp_totals[lane] : warp_totals[0];
        for (int d = 1; d < GPY_THREADS / 32; d *= 2) {
            T w = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t = gpy_scan_op<OP, T, U>::f(w, t);
        }
        if (lane < GPY_THREADS / 32) warp_totals[lane] = t;
    }
    __syncthreads();
    if (warp > 0) v = gpy_scan_op<OP, T, U>::f(warp_totals[warp - 1], v);
    __syncthreads();
    return v;
}
// Pass 1: each tile's total (tile t of row r is block r * ntiles + t).
template <int OP, class T, class U>
__device__ void gpy_scan_totals(const T* data, int64_t len, int64_t ntiles, T* totals) {
    __shared__ T warp_totals[GPY_THREADS / 32];
    const int64_t row = blockIdx.x / ntiles, tile = blockIdx.x % ntiles;
    const T* p = data + row * len + tile * (int64_t)(GPY_THREADS * GPY_ITEMS);
    const int64_t n = len - tile * (int64_t)(GPY_THREADS * GPY_ITEMS);
    const int valid = (int)(n < GPY_THREADS ? n : GPY_THREADS);
    if (OP < 2) {  // sums and products: any order (integers wrap exactly; float tiles are the documented deviation)
        // Thread t folds elements t, t + 256, ...; threads past the row's
        // end come after every thread with data, so they change nothing.
        bool any = false;
        T acc = p[0];
        for (int k = 0; k < GPY_ITEMS; ++k) {
            const int64_t i = (int64_t)k * GPY_THREADS + threadIdx.x;
            if (i < n) { T x = p[i]; acc = any ? gpy_scan_op<OP, T, U>::f(acc, x) : x; any = true; }
        }
        T v = gpy_block_scan<OP, T, U>(acc, warp_totals);
        if (threadIdx.x == valid - 1) totals[blockIdx.x] = v;
        return;
    }
    // maximum/minimum keep the first of equal values (-0.0 against 0.0, the
    // first NaN): the tile's total folds its chunks in element order, as
    // pass 3 does.
    __shared__ T chunk_last;
    T total = p[0];
    for (int k = 0; k < GPY_ITEMS; ++k) {
        if ((int64_t)k * GPY_THREADS >= n) break;
        const int64_t i = (int64_t)k * GPY_THREADS + threadIdx.x;
        T v = gpy_block_scan<OP, T, U>(i < n ? p[i] : p[0], warp_totals);
        const int64_t left = n - (int64_t)k * GPY_THREADS;
        if (threadIdx.x == (left < GPY_THREADS ? (int)left : GPY_THREADS) - 1) chunk_last = v;
        __syncthreads();
        total = k == 0 ? chunk_last : gpy_scan_op<OP, T, U>::f(total, chunk_last);
        __syncthreads();
    }
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}
// Pass 2: each row's running tile totals, exclusive (a thread a row).
template <int OP, class T, class U>
__device__ void gpy_scan_carries(T* totals, int64_t rows, int64_t ntiles) {
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < rows; r += (int64_t)blockDim.x * gridDim.x) {
        T* t = totals + r * ntiles;
        T acc = t[0];
        for (int64_t k = 1; k < ntiles; ++k) { T x = t[k]; t[k] = acc; acc = gpy_scan_op<OP, T, U>::f(acc, x); }
    }
}
// Pass 3: each tile scanned in chunks of 256 from its carry.
template <int OP, class T, class U>
__device__ void gpy_scan_tiles(T* data, int64_t len, int64_t ntiles, const T* carries) {
    __shared__ T warp_totals[GPY_THREADS / 32];
    const int64_t row = blockIdx.x / ntiles, tile = blockIdx.x % ntiles;
    T* p = data + row * len + tile * (int64_t)(GPY_THREADS * GPY_ITEMS);
    const int64_t n = len - tile * (int64_t)(GPY_THREADS * GPY_ITEMS);
    T x[GPY_ITEMS];
    #pragma unroll
    for (int k = 0; k < GPY_ITEMS; ++k) {
        const int64_t i = (int64_t)k * GPY_THREADS + threadIdx.x;
        x[k] = i < n ? p[i] : p[0];
    }
    bool has_carry = tile > 0;
    T carry = has_carry ? carries[blockIdx.x] : p[0];
    #pragma unroll
    for (int k = 0; k < GPY_ITEMS; ++k) {
        if ((int64_t)k * GPY_THREADS >= n) break;
        T v = gpy_block_scan<OP, T, U>(x[k], warp_totals);
        if (has_carry) v = gpy_scan_op<OP, T, U>::f(carry, v);
        const int64_t i = (int64_t)k * GPY_THREADS + threadIdx.x;
        if (i < n) p[i] = v;
        // The chunk's last value carries into the next.
        const int last = (int)((n - (int64_t)k * GPY_THREADS) < GPY_THREADS ? (n - (int64_t)k * GPY_THREADS) : GPY_THREADS) - 1;
        if (threadIdx.x == last) warp_totals[0] = v;
        __syncthreads();
        carry = warp_totals[0];
        has_carry = true;
        __syncthreads();
    }
}
#define GPY_SCAN_ENTRIES(OPN, OP, TN, T, U) \
    extern "C" __global__ void gpy_scan_chains_##OPN##_##TN(T* d, int64_t o, int64_t l, int64_t i) { gpy_scan_chains<OP, T, U>(d, o, l, i); } \
    extern "C" __global__ void gpy_scan_warps_##OPN##_##TN(T* d, int64_t o, int64_t l) { gpy_scan_warp_rows<OP, T, U>(d, o, l); } \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS) gpy_scan_totals_##OPN##_##TN(const T* d, int64_t l, int64_t nt, T* t) { gpy_scan_totals<OP, T, U>(d, l, nt, t); } \
    extern "C" __global__ void gpy_scan_carries_##OPN##_##TN(T* t, int64_t r, int64_t nt) { gpy_scan_carries<OP, T, U>(t, r, nt); } \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS) gpy_scan_tiles_##OPN##_##TN(T* d, int64_t l, int64_t nt, const T* c) { gpy_scan_tiles<OP, T, U>(d, l, nt, c); }
#define GPY_SCAN_TYPES(OPN, OP) \
    GPY_SCAN_ENTRIES(OPN, OP, i32, int, gpy_u32) GPY_SCAN_ENTRIES(OPN, OP, u32, gpy_u32, gpy_u32) \
    GPY_SCAN_ENTRIES(OPN, OP, i64, long long, gpy_u64) GPY_SCAN_ENTRIES(OPN, OP, u64, gpy_u64, gpy_u64) \
    GPY_SCAN_ENTRIES(OPN, OP, f32, float, float) GPY_SCAN_ENTRIES(OPN, OP, f64, double, double)
GPY_SCAN_TYPES(sum, 0) GPY_SCAN_TYPES(prod, 1) GPY_SCAN_TYPES(max, 2) GPY_SCAN_TYPES(min, 3)
)CUDA";

}  // namespace

std::string cuda_scan_source() { return kScanKernels; }

void scan_on_device(int device, DeviceScanOp op, DeviceScanType type, void* data, int64_t outer, int64_t len, int64_t inner) {
    if (outer <= 0 || len <= 1 || inner <= 0) return;
    static const std::string source = cuda_scan_source();
    static const char* const kOps[] = {"sum", "prod", "max", "min"};
    static const char* const kTypes[] = {"i32", "u32", "i64", "u64", "f32", "f64"};
    static const size_t kSizes[] = {4, 4, 8, 8, 4, 8};
    const std::string suffix = std::string("_") + kOps[size_t(op)] + "_" + kTypes[size_t(type)];
    auto fn = [&](const char* pass) { return library_kernel(device, source, "gpy_scan", std::string("gpy_scan_") + pass + suffix); };
    cuda::device(device).make_current();
    cuda::CUstream stream = current_stream();
    const int64_t sms = cuda::device(device).sm_count;
    const bool rounds = (type == DeviceScanType::Float || type == DeviceScanType::Double) &&
                        (op == DeviceScanOp::Sum || op == DeviceScanOp::Prod);
    if (inner == 1 && rounds && len <= kExactMaxLen) {
        unsigned grid = unsigned(std::min<int64_t>((outer * 32 + kThreads - 1) / kThreads, sms * 32));
        void* args[] = {&data, &outer, &len};
        cuda::launch(fn("warps"), {grid}, {unsigned(kThreads)}, 0, stream, args);
    } else if (inner > 1 || len <= kChainMaxLen) {
        const int64_t chains = outer * inner;
        unsigned grid = unsigned(std::min<int64_t>((chains + kThreads - 1) / kThreads, sms * 32));
        void* args[] = {&data, &outer, &len, &inner};
        cuda::launch(fn("chains"), {grid}, {unsigned(kThreads)}, 0, stream, args);
    } else {
        int64_t ntiles = (len + kTile - 1) / kTile;
        int64_t blocks = outer * ntiles;
        BufferRef totals(allocate_cuda_buffer(device, size_t(blocks) * kSizes[size_t(type)], false));
        void* t = totals.device_bytes();
        void* a1[] = {&data, &len, &ntiles, &t};
        cuda::launch(fn("totals"), {unsigned(blocks)}, {unsigned(kThreads)}, 0, stream, a1);
        void* a2[] = {&t, &outer, &ntiles};
        cuda::launch(fn("carries"), {unsigned(std::min<int64_t>((outer + 127) / 128, sms * 32))}, {128}, 0, stream, a2);
        void* a3[] = {&data, &len, &ntiles, &t};
        cuda::launch(fn("tiles"), {unsigned(blocks)}, {unsigned(kThreads)}, 0, stream, a3);
    }
    note_device_work(device);
}

}  // namespace gpy
