#include "runtime/scan_cuda.h"

#include <algorithm>
#include <stdexcept>

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
__device__ void gpy_scan_chains(const T* src, T* dst, int64_t outer, int64_t len, int64_t inner) {
    const int64_t chains = outer * inner;
    for (int64_t c = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; c < chains; c += (int64_t)blockDim.x * gridDim.x) {
        const int64_t at = (c / inner) * len * inner + c % inner;
        const T* s = src + at;
        T* p = dst + at;
        T acc = s[0];
        p[0] = acc;
        int64_t k = 1;
        // Eight loads in flight: a column scan of 4096 columns is too few
        // threads to hide the latency one load at a time.
        for (; k + 8 <= len; k += 8) {
            T x[8];
            #pragma unroll
            for (int j = 0; j < 8; ++j) x[j] = s[(k + j) * inner];
            #pragma unroll
            for (int j = 0; j < 8; ++j) { acc = gpy_scan_op<OP, T, U>::f(acc, x[j]); p[(k + j) * inner] = acc; }
        }
        for (; k < len; ++k) { acc = gpy_scan_op<OP, T, U>::f(acc, s[k * inner]); p[k * inner] = acc; }
    }
}
// A warp a row, in NumPy's order: 32 elements at a time, lane j adds
// elements 0..j of the chunk to the carry one after another (every prefix
// is the sequential one, bit for bit); eight chunks are loaded ahead.
template <int OP, class T, class U>
__device__ void gpy_scan_warp_rows(const T* src, T* dst, int64_t rows, int64_t len) {
    const int lane = threadIdx.x & 31;
    const int64_t nwarps = ((int64_t)blockDim.x * gridDim.x) >> 5;
    for (int64_t r = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5; r < rows; r += nwarps) {
        const T* s = src + r * len;
        T* p = dst + r * len;
        T carry = s[0];
        bool has = false;
        for (int64_t base = 0; base < len; base += 256) {
            T xs[8];
            #pragma unroll
            for (int c = 0; c < 8; ++c) {
                const int64_t i = base + c * 32 + lane;
                xs[c] = i < len ? s[i] : carry;
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
        // (Lanes past the warps keep their own value: a read of warp_totals[0]
        // there would race with lane 0's write below, racecheck's warp hazard.)
        T t = lane < GPY_THREADS / 32 ? warp_totals[lane] : v;
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
// A tile's slot in shared memory: one pad a 32 elements, so that both the
// coalesced copies (thread t, element k * 256 + t) and each thread's run of
// 16 consecutive elements are free of bank conflicts.
__device__ __forceinline__ int gpy_pad(int i) { return i + (i >> 5); }
// Decoupled look-back (Merrill and Garland's single-pass scan): tiles take
// their numbers from a counter in the order they start, so every tile a tile
// waits on is already running. A tile publishes its total (flag 1), then
// walks back over its predecessors a warp at a time, adding their totals
// until one has published its inclusive prefix (flag 2; the row's first
// tile publishes one at once), and publishes its own inclusive prefix.
// One read and one write of every element; src may be dst.
template <int OP, class T, class U>
__device__ void gpy_scan_lookback(const T* src, T* dst, int64_t len, int64_t ntiles, unsigned* state, T* aggs, T* incs) {
    constexpr int TILE = GPY_THREADS * GPY_ITEMS;
    __shared__ T tile[TILE + TILE / 32];
    __shared__ T thread_incl[GPY_THREADS];
    __shared__ T warp_totals[GPY_THREADS / 32];
    __shared__ T s_prefix;
    __shared__ unsigned s_id;
    volatile unsigned* flags = state + 1;  // state[0]: the tile counter
    if (threadIdx.x == 0) s_id = atomicAdd(state, 1u);
    __syncthreads();
    const int64_t id = s_id, row = id / ntiles, t = id % ntiles;
    const int64_t base = row * len + t * (int64_t)TILE;
    const int n = (int)(len - t * (int64_t)TILE < TILE ? len - t * (int64_t)TILE : TILE);
    T x[GPY_ITEMS];
    #pragma unroll
    for (int k = 0; k < GPY_ITEMS; ++k) {
        const int i = k * GPY_THREADS + threadIdx.x;
        if (i < n) x[k] = src[base + i];
    }
    #pragma unroll
    for (int k = 0; k < GPY_ITEMS; ++k) {
        const int i = k * GPY_THREADS + threadIdx.x;
        if (i < n) tile[gpy_pad(i)] = x[k];
    }
    __syncthreads();
    // Each thread folds its run of consecutive elements in order; threads
    // past the tile's end come after every thread with data.
    const int first = threadIdx.x * GPY_ITEMS;
    const int cnt = n - first < 0 ? 0 : (n - first < GPY_ITEMS ? n - first : GPY_ITEMS);
    T acc = tile[gpy_pad(cnt > 0 ? first : 0)];
    for (int j = 1; j < cnt; ++j) acc = gpy_scan_op<OP, T, U>::f(acc, tile[gpy_pad(first + j)]);
    const T incl = gpy_block_scan<OP, T, U>(acc, warp_totals);
    thread_incl[threadIdx.x] = incl;
    __syncthreads();
    if (threadIdx.x < 32 && t > 0) {
        const int lane = threadIdx.x;
        const T agg = thread_incl[(n - 1) / GPY_ITEMS];
        if (lane == 0) { aggs[id] = agg; __threadfence(); flags[id] = 1u; }
        const int64_t row_first = row * ntiles;
        bool has = false;
        T prefix = agg;
        for (int64_t top = id - 1;; top -= 32) {
            const int64_t j = top - lane;
            unsigned fl = 3u;  // before the row: never read (the row's first tile stops the walk)
            if (j >= row_first) {
                do fl = flags[j]; while (fl == 0u);
            }
            __syncwarp();
            __threadfence();
            T v = agg;
            if (j >= row_first) v = fl == 2u ? ((volatile T*)incs)[j] : ((volatile T*)aggs)[j];
            const unsigned done = __ballot_sync(0xffffffffu, fl == 2u);
            const int stop = done ? __ffs(done) - 1 : 31;  // lanes 0..stop: tiles top..top-stop
            // Fold lanes 0..stop keeping tile order (a higher lane is an earlier tile).
            bool live = lane <= stop;
            for (int d = 1; d < 32; d *= 2) {
                const T w = __shfl_down_sync(0xffffffffu, v, d);
                const bool wl = __shfl_down_sync(0xffffffffu, (int)live, d) != 0 && lane + d < 32;
                if ((lane & (2 * d - 1)) == 0 && wl) { v = live ? gpy_scan_op<OP, T, U>::f(w, v) : w; live = true; }
            }
            if (lane == 0) { prefix = has ? gpy_scan_op<OP, T, U>::f(v, prefix) : v; has = true; }
            if (done) break;
        }
        if (lane == 0) {
            incs[id] = gpy_scan_op<OP, T, U>::f(prefix, agg);
            __threadfence();
            flags[id] = 2u;
            s_prefix = prefix;
        }
    } else if (threadIdx.x == 0 && t == 0) {
        incs[id] = thread_incl[(n - 1) / GPY_ITEMS];
        __threadfence();
        flags[id] = 2u;
    }
    __syncthreads();
    // Each thread's run from its carry: the tile's prefix, then the threads before it.
    bool has = t > 0;
    T carry = has ? s_prefix : acc;
    if (threadIdx.x > 0) { carry = has ? gpy_scan_op<OP, T, U>::f(carry, thread_incl[threadIdx.x - 1]) : thread_incl[threadIdx.x - 1]; has = true; }
    for (int j = 0; j < cnt; ++j) {
        T& e = tile[gpy_pad(first + j)];
        carry = has ? gpy_scan_op<OP, T, U>::f(carry, e) : e;
        has = true;
        e = carry;
    }
    __syncthreads();
    #pragma unroll
    for (int k = 0; k < GPY_ITEMS; ++k) {
        const int i = k * GPY_THREADS + threadIdx.x;
        if (i < n) dst[base + i] = tile[gpy_pad(i)];
    }
}
#define GPY_SCAN_ENTRIES(OPN, OP, TN, T, U) \
    extern "C" __global__ void gpy_scan_chains_##OPN##_##TN(const T* s, T* d, int64_t o, int64_t l, int64_t i) { gpy_scan_chains<OP, T, U>(s, d, o, l, i); } \
    extern "C" __global__ void gpy_scan_warps_##OPN##_##TN(const T* s, T* d, int64_t o, int64_t l) { gpy_scan_warp_rows<OP, T, U>(s, d, o, l); } \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS) gpy_scan_lookback_##OPN##_##TN(const T* s, T* d, int64_t l, int64_t nt, unsigned* st, T* a, T* c) { gpy_scan_lookback<OP, T, U>(s, d, l, nt, st, a, c); }
#define GPY_SCAN_TYPES(OPN, OP) \
    GPY_SCAN_ENTRIES(OPN, OP, i32, int, gpy_u32) GPY_SCAN_ENTRIES(OPN, OP, u32, gpy_u32, gpy_u32) \
    GPY_SCAN_ENTRIES(OPN, OP, i64, long long, gpy_u64) GPY_SCAN_ENTRIES(OPN, OP, u64, gpy_u64, gpy_u64) \
    GPY_SCAN_ENTRIES(OPN, OP, f32, float, float) GPY_SCAN_ENTRIES(OPN, OP, f64, double, double)
GPY_SCAN_TYPES(sum, 0) GPY_SCAN_TYPES(prod, 1) GPY_SCAN_TYPES(max, 2) GPY_SCAN_TYPES(min, 3)
)CUDA";

}  // namespace

std::string cuda_scan_source() { return kScanKernels; }

void scan_on_device(int device, DeviceScanOp op, DeviceScanType type, const void* src, void* dst, int64_t outer, int64_t len,
                    int64_t inner) {
    if (outer <= 0 || len <= 0 || inner <= 0) return;
    static const std::string source = cuda_scan_source();
    static const char* const kOps[] = {"sum", "prod", "max", "min"};
    static const char* const kTypes[] = {"i32", "u32", "i64", "u64", "f32", "f64"};
    static const size_t kSizes[] = {4, 4, 8, 8, 4, 8};
    const size_t item = kSizes[size_t(type)];
    const std::string suffix = std::string("_") + kOps[size_t(op)] + "_" + kTypes[size_t(type)];
    auto fn = [&](const char* pass) { return library_kernel(device, source, "gpy_scan", std::string("gpy_scan_") + pass + suffix); };
    cuda::device(device).make_current();
    cuda::CUstream stream = current_stream();
    if (len == 1) {  // nothing to scan: a copy
        if (src != dst)
            cuda::check(cuda::api().cuMemcpyDtoDAsync(cuda::CUdeviceptr(dst), cuda::CUdeviceptr(src), size_t(outer * inner) * item, stream),
                        "cuMemcpyDtoDAsync(scan)");
        note_device_work(device);
        return;
    }
    const int64_t sms = cuda::device(device).sm_count;
    const bool rounds = (type == DeviceScanType::Float || type == DeviceScanType::Double) &&
                        (op == DeviceScanOp::Sum || op == DeviceScanOp::Prod);
    if (inner == 1 && rounds && len <= kExactMaxLen) {
        unsigned grid = unsigned(std::min<int64_t>((outer * 32 + kThreads - 1) / kThreads, sms * 32));
        void* args[] = {&src, &dst, &outer, &len};
        cuda::launch(fn("warps"), {grid}, {unsigned(kThreads)}, 0, stream, args);
    } else if (inner > 1 || len <= kChainMaxLen) {
        const int64_t chains = outer * inner;
        unsigned grid = unsigned(std::min<int64_t>((chains + kThreads - 1) / kThreads, sms * 32));
        void* args[] = {&src, &dst, &outer, &len, &inner};
        cuda::launch(fn("chains"), {grid}, {unsigned(kThreads)}, 0, stream, args);
    } else {
        // The look-back state: the tile counter and a flag a tile (zeroed
        // here, in stream order), then each tile's total and inclusive prefix.
        int64_t ntiles = (len + kTile - 1) / kTile;
        int64_t blocks = outer * ntiles;
        if (blocks >= (int64_t(1) << 31)) throw std::length_error("scan: too many tiles for one launch");
        const size_t flag_bytes = (size_t(blocks) + 1) * 4, values_at = (flag_bytes + 15) / 16 * 16;
        BufferRef state(allocate_cuda_buffer(device, values_at + 2 * size_t(blocks) * item, false));
        uint8_t* st = state.device_bytes();
        cuda::check(cuda::api().cuMemsetD8Async(cuda::CUdeviceptr(st), 0, flag_bytes, stream), "cuMemsetD8Async(scan state)");
        void* aggs = st + values_at;
        void* incs = st + values_at + size_t(blocks) * item;
        void* args[] = {&src, &dst, &len, &ntiles, &st, &aggs, &incs};
        cuda::launch(fn("lookback"), {unsigned(blocks)}, {unsigned(kThreads)}, 0, stream, args);
    }
    note_device_work(device);
}

}  // namespace gpy
