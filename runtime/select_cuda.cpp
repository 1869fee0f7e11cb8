#include "runtime/select_cuda.h"

#include <algorithm>

#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"

namespace gpy {

namespace {

constexpr int kThreads = 256;  // GPY_THREADS below
constexpr int kTile = 4096;    // GPY_TILE

// Three launches: `count` totals each tile's selected elements, `scan` turns
// the totals into each tile's first output position (one block; the grand
// total for the host), `write` places them. Within a tile, round r covers
// 256 consecutive elements, a warp's 32 of them ranked by ballot, so the
// output keeps the input order.
const char* kSelectKernels = R"CUDA(
typedef unsigned int gpy_u32; typedef unsigned long long gpy_u64; typedef long long gpy_i64;
typedef unsigned char gpy_u8; typedef unsigned short gpy_u16;
struct gpy_b16 { gpy_u64 lo, hi; };
#define GPY_THREADS 256
#define GPY_ROUNDS 16
#define GPY_TILE (GPY_THREADS * GPY_ROUNDS)
#define GPY_WARPS (GPY_THREADS / 32)

// Element i of round r of this block's tile.
static __device__ __forceinline__ gpy_u64 gpy_at(int r) { return (gpy_u64)blockIdx.x * GPY_TILE + r * GPY_THREADS + threadIdx.x; }

// Selected: lo <= (mask[i] without the `ignore` bits) <= lo + span, as
// unsigned integers. Nonzero: [1, max] (`ignore` the sign bit of a float
// mask: -0.0 is zero); a float's zeros: [0, 0]; its NaNs: [inf + 1, max].
template <class M>
static __device__ __forceinline__ bool gpy_selected(const M* __restrict__ mask, M ignore, M lo, M span, gpy_u64 i, gpy_u64 n) {
    return i < n && (M)((mask[i] & (M)~ignore) - lo) <= span;
}

template <class M>
static __device__ __forceinline__ void gpy_select_count(const M* __restrict__ mask, M ignore, M lo, M span, gpy_u64 n, gpy_u32* __restrict__ counts) {
    __shared__ gpy_u32 warp_sums[GPY_WARPS];
    gpy_u32 c = 0;
#pragma unroll 4
    for (int r = 0; r < GPY_ROUNDS; ++r) c += gpy_selected(mask, ignore, lo, span, gpy_at(r), n);
    for (int o = 16; o; o >>= 1) c += __shfl_xor_sync(0xffffffffu, c, o);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
        gpy_u32 s = 0;
        for (int w = 0; w < GPY_WARPS; ++w) s += warp_sums[w];
        counts[blockIdx.x] = s;
    }
}

// One block: counts[0, tiles) become exclusive offsets; *total = the sum.
extern "C" __global__ void __launch_bounds__(1024) gpy_select_scan(gpy_u32* counts, gpy_u64 tiles, gpy_u64* total) {
    __shared__ gpy_u64 warp_sums[32];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    gpy_u64 carry = 0;
    for (gpy_u64 base = 0; base < tiles; base += blockDim.x) {
        const gpy_u64 i = base + threadIdx.x;
        const gpy_u64 v = i < tiles ? counts[i] : 0u;
        gpy_u64 s = v;
        for (int o = 1; o < 32; o <<= 1) {
            const gpy_u64 t = __shfl_up_sync(0xffffffffu, s, o);
            if ((int)lane >= o) s += t;
        }
        if (lane == 31) warp_sums[warp] = s;
        __syncthreads();
        if (warp == 0) {
            gpy_u64 w = lane < warps ? warp_sums[lane] : 0u;
            for (int o = 1; o < 32; o <<= 1) {
                const gpy_u64 t = __shfl_up_sync(0xffffffffu, w, o);
                if ((int)lane >= o) w += t;
            }
            warp_sums[lane] = w;
        }
        __syncthreads();
        if (i < tiles) counts[i] = (gpy_u32)(carry + (warp ? warp_sums[warp - 1] : 0u) + s - v);
        carry += warp_sums[warps - 1];
        __syncthreads();
    }
    if (threadIdx.x == 0) *total = carry;
}

// E: the element type copied from src, or gpy_i64 with INDEX (i itself).
template <class M, class E, int INDEX>
static __device__ __forceinline__ void gpy_select_write(const M* __restrict__ mask, M ignore, M lo, M span, gpy_u64 n, const gpy_u32* __restrict__ offsets,
                                                        const E* __restrict__ src, E* __restrict__ out) {
    __shared__ gpy_u32 before[GPY_ROUNDS * GPY_WARPS];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned ballots[GPY_ROUNDS];
#pragma unroll
    for (int r = 0; r < GPY_ROUNDS; ++r) {
        ballots[r] = __ballot_sync(0xffffffffu, gpy_selected(mask, ignore, lo, span, gpy_at(r), n));
        if (lane == 0) before[r * GPY_WARPS + warp] = __popc(ballots[r]);
    }
    __syncthreads();
    if (warp == 0) {  // exclusive scan of the 128 (round, warp) counts, 4 a lane, in order
        gpy_u32 c[4], s = 0;
        for (int k = 0; k < 4; ++k) { c[k] = before[lane * 4 + k]; s += c[k]; }
        gpy_u32 inc = s;
        for (int o = 1; o < 32; o <<= 1) {
            const gpy_u32 t = __shfl_up_sync(0xffffffffu, inc, o);
            if ((int)lane >= o) inc += t;
        }
        gpy_u32 run = inc - s;
        for (int k = 0; k < 4; ++k) { before[lane * 4 + k] = run; run += c[k]; }
    }
    __syncthreads();
    const gpy_u32 lower = (1u << lane) - 1u, tile_start = offsets[blockIdx.x];
#pragma unroll
    for (int r = 0; r < GPY_ROUNDS; ++r) {
        if (ballots[r] >> lane & 1u) {
            const gpy_u64 i = gpy_at(r);
            const gpy_u64 pos = (gpy_u64)tile_start + before[r * GPY_WARPS + warp] + __popc(ballots[r] & lower);
            if (INDEX) ((gpy_i64*)out)[pos] = (gpy_i64)i;
            else out[pos] = src[i];
        }
    }
}

extern "C" __global__ void gpy_select_unravel(const gpy_i64* __restrict__ flat, gpy_u64 count, gpy_i64 inner, gpy_i64 len, gpy_i64* __restrict__ out) {
    for (gpy_u64 k = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; k < count; k += (gpy_u64)blockDim.x * gridDim.x)
        out[k] = flat[k] / inner % len;
}

#define GPY_SELECT_WRITE(MN, M, EN, E, INDEX) \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS) gpy_select_write_##MN##_##EN(const M* m, M ig, M lo, M sp, gpy_u64 n, const gpy_u32* o, const E* s, E* out) { \
        gpy_select_write<M, E, INDEX>(m, ig, lo, sp, n, o, s, out); }
#define GPY_SELECT_MASK(MN, M) \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS) gpy_select_count_##MN(const M* m, M ig, M lo, M sp, gpy_u64 n, gpy_u32* c) { gpy_select_count<M>(m, ig, lo, sp, n, c); } \
    GPY_SELECT_WRITE(MN, M, index, gpy_i64, 1) GPY_SELECT_WRITE(MN, M, e1, gpy_u8, 0) GPY_SELECT_WRITE(MN, M, e2, gpy_u16, 0) \
    GPY_SELECT_WRITE(MN, M, e4, gpy_u32, 0) GPY_SELECT_WRITE(MN, M, e8, gpy_u64, 0) GPY_SELECT_WRITE(MN, M, e16, gpy_b16, 0)
GPY_SELECT_MASK(m1, gpy_u8) GPY_SELECT_MASK(m2, gpy_u16) GPY_SELECT_MASK(m4, gpy_u32) GPY_SELECT_MASK(m8, gpy_u64)
)CUDA";

}  // namespace

std::string cuda_select_source() { return kSelectKernels; }

int64_t select_on_device(int device, const void* mask, size_t mask_elem, bool mask_float, int64_t n, const void* src, size_t elem,
                         const std::function<void*(int64_t)>& alloc, MaskTest test) {
    static const std::string source = cuda_select_source();
    auto fn = [&](const std::string& name) { return library_kernel(device, source, "gpy_select", name); };
    const std::string mn = "m" + std::to_string(mask_elem);
    cuda::device(device).make_current();
    cuda::CUstream stream = current_stream();
    uint64_t count = uint64_t(std::max<int64_t>(n, 0));
    const uint64_t tiles = (count + kTile - 1) / kTile;
    if (tiles == 0) {
        alloc(0);
        return 0;
    }
    // The kernel's mask-typed parameters, each passed as its low mask_elem
    // bytes (little-endian): the sign bit ignored for floats, and the range.
    const int bits = int(mask_elem * 8);
    const uint64_t all = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    const uint64_t ignore = mask_float ? uint64_t(1) << (bits - 1) : 0;
    const int mantissa = bits == 16 ? 10 : bits == 32 ? 23 : 52;
    const uint64_t inf = (all >> 1) & ~((uint64_t(1) << mantissa) - 1);  // a float's exponent bits
    uint64_t lo = 1, span = all - 1;
    if (test == MaskTest::Zero) lo = 0, span = 0;
    if (test == MaskTest::NaN) lo = inf + 1, span = all - inf - 1;
    BufferRef counts(allocate_cuda_buffer(device, tiles * 4, false)), total(allocate_cuda_buffer(device, 8, false));
    void* counts_p = counts.device_bytes();
    void* total_p = total.device_bytes();
    void* count_args[] = {const_cast<void**>(&mask), const_cast<uint64_t*>(&ignore), &lo, &span, &count, &counts_p};
    cuda::launch(fn("gpy_select_count_" + mn), {unsigned(tiles)}, {kThreads}, 0, stream, count_args);
    void* scan_args[] = {&counts_p, const_cast<uint64_t*>(&tiles), &total_p};
    cuda::launch(fn("gpy_select_scan"), {1}, {1024}, 0, stream, scan_args);
    uint64_t selected = 0;
    cuda::check(cuda::api().cuMemcpyDtoHAsync(&selected, cuda::CUdeviceptr(total_p), 8, stream), "cuMemcpyDtoHAsync(total)");
    cuda::check(cuda::api().cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
    void* out = alloc(int64_t(selected));
    if (selected > 0) {
        const std::string en = src ? "e" + std::to_string(elem) : "index";
        void* write_args[] = {const_cast<void**>(&mask), const_cast<uint64_t*>(&ignore), &lo, &span, &count, &counts_p,
                              const_cast<void**>(&src), &out};
        cuda::launch(fn("gpy_select_write_" + mn + "_" + en), {unsigned(tiles)}, {kThreads}, 0, stream, write_args);
    }
    note_device_work(device);
    return int64_t(selected);
}

void unravel_on_device(int device, const int64_t* flat, int64_t count, int64_t inner, int64_t len, int64_t* out) {
    if (count <= 0) return;
    static const std::string source = cuda_select_source();
    cuda::CUfunction fn = library_kernel(device, source, "gpy_select", "gpy_select_unravel");
    cuda::device(device).make_current();
    uint64_t c = uint64_t(count);
    unsigned grid = unsigned(std::min<int64_t>((count + kThreads - 1) / kThreads, int64_t(cuda::device(device).sm_count) * 16));
    void* args[] = {&flat, &c, &inner, &len, &out};
    cuda::launch(fn, {grid}, {kThreads}, 0, current_stream(), args);
    note_device_work(device);
}

}  // namespace gpy
