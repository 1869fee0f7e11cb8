#include "runtime/sort_cuda.h"

#include <algorithm>
#include <stdexcept>

#include "runtime/cub_sort.h"
#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"
#include "runtime/select_cuda.h"

namespace gpy {

namespace {

constexpr int kThreads = 256;  // GPY_THREADS below
constexpr int kTile = 4096;    // GPY_TILE: 256 threads x 16 items (8 and 12 were slower on an H100)

// An LSD radix sort with 8-bit digits, three launches a digit (reduce, then
// scan, then scatter): `upsweep` counts each tile's digits, `scan_rows`
// turns the counts (digit-major: [256][tiles]) into each tile's offset
// within its digit, `downsweep` ranks the tile's keys stably and scatters
// them. A warp ranks 32 consecutive keys at a time with __match_any_sync, so
// the rank order is the input order (stable). The row of an element (its
// index / len) is taken as further, more significant digits, so rows sort
// together without a launch per row.
//
// Keys are NumPy's order as unsigned integers (numpy/sort_keys.h): floats
// with NaN -> all ones and -0.0 -> +0.0's key. Sorted values are the keys
// mapped back, with the zeros and NaNs (whose bits and order the keys
// forget) compacted from the input into their runs; argsort and rows carry
// each element's index (and sort gathers the values through it).
//
// kSortKeys is the first part (runtime/kth_cuda.cpp selects on the keys too).
const char* kSortKeys = R"CUDA(
typedef unsigned int gpy_u32; typedef unsigned long long gpy_u64; typedef long long gpy_i64;
template <class T> struct gpy_key;
template <class T, class U, U SIGN> struct gpy_signed_key {
    typedef typename gpy_key<U>::K K;
    static __device__ __forceinline__ K key(T v) { return (K)((U)v ^ SIGN); }
    static __device__ __forceinline__ bool special(T) { return false; }
    static __device__ __forceinline__ bool negative(T) { return false; }  // only floats ask
    static __device__ __forceinline__ T value(K k) { return (T)(U)((U)k ^ SIGN); }
};
template <class T, class KT> struct gpy_unsigned_key {
    typedef KT K;
    static __device__ __forceinline__ K key(T v) { return (K)v; }
    static __device__ __forceinline__ bool special(T) { return false; }
    static __device__ __forceinline__ bool negative(T) { return false; }  // only floats ask
    static __device__ __forceinline__ T value(K k) { return (T)k; }
};
template <> struct gpy_key<unsigned char> : gpy_unsigned_key<unsigned char, gpy_u32> {};
template <> struct gpy_key<unsigned short> : gpy_unsigned_key<unsigned short, gpy_u32> {};
template <> struct gpy_key<gpy_u32> : gpy_unsigned_key<gpy_u32, gpy_u32> {};
template <> struct gpy_key<gpy_u64> : gpy_unsigned_key<gpy_u64, gpy_u64> {};
template <> struct gpy_key<signed char> : gpy_signed_key<signed char, unsigned char, 0x80> {};
template <> struct gpy_key<short> : gpy_signed_key<short, unsigned short, 0x8000> {};
template <> struct gpy_key<int> : gpy_signed_key<int, gpy_u32, 0x80000000u> {};
template <> struct gpy_key<gpy_i64> : gpy_signed_key<gpy_i64, gpy_u64, 0x8000000000000000ull> {};
template <> struct gpy_key<float> {
    typedef gpy_u32 K;
    static __device__ __forceinline__ K key(float v) {
        if (v != v) return 0xffffffffu;
        const gpy_u32 b = v == 0.0f ? 0u : __float_as_uint(v);
        return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
    }
    static __device__ __forceinline__ bool special(float v) { return v != v || v == 0.0f; }
    static __device__ __forceinline__ bool negative(float v) { return v < 0.0f; }
    static __device__ __forceinline__ float value(K k) { return __uint_as_float((k & 0x80000000u) ? (k ^ 0x80000000u) : ~k); }
};
template <> struct gpy_key<double> {
    typedef gpy_u64 K;
    static __device__ __forceinline__ K key(double v) {
        if (v != v) return ~0ull;
        const gpy_u64 b = v == 0.0 ? 0ull : (gpy_u64)__double_as_longlong(v);
        return (b >> 63) ? ~b : (b | 0x8000000000000000ull);
    }
    static __device__ __forceinline__ bool special(double v) { return v != v || v == 0.0; }
    static __device__ __forceinline__ bool negative(double v) { return v < 0.0; }
    static __device__ __forceinline__ double value(K k) {
        return __longlong_as_double((gpy_i64)((k >> 63) ? (k ^ 0x8000000000000000ull) : ~k));
    }
};

// The sign bit of floats (-0.0 has it: v < 0 does not say so); false for integers.
template <class T> static __device__ __forceinline__ bool gpy_sign_bit(T) { return false; }
template <> __device__ __forceinline__ bool gpy_sign_bit(float v) { return __float_as_uint(v) >> 31; }
template <> __device__ __forceinline__ bool gpy_sign_bit(double v) { return (gpy_u64)__double_as_longlong(v) >> 63; }
)CUDA";

const char* kSortKernels = R"CUDA(
#define GPY_THREADS 256
#define GPY_ITEMS 16
#define GPY_TILE (GPY_THREADS * GPY_ITEMS)
#define GPY_WARPS (GPY_THREADS / 32)
// Three blocks of a scatter pass on an SM at least (80 registers a
// thread): unbounded, NVRTC's allocation left room for two, and sorts of
// 2^24 keys took 8% longer on an H100; four made the pair passes spill.
#define GPY_SORT_MINB 3

// out[0] |= the key bits that vary (key ^ the first key); out[1], out[2],
// out[3] += how many elements are negative, zeros (+-0.0) and NaNs (floats);
// out[4] += how many are -0.0.
// keys[i] = the key of x[i], for the first pass (keys may be null).
template <class T>
static __device__ __forceinline__ void gpy_sort_analyze(const T* __restrict__ x, gpy_u64 n, gpy_u64* out, typename gpy_key<T>::K* __restrict__ keys) {
    typedef gpy_key<T> M;
    typedef typename M::K K;
    const K first = M::key(x[0]);
    K diff = 0;
    unsigned neg = 0, zeros = 0, nans = 0, negzeros = 0;
    for (gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; i < n; i += (gpy_u64)blockDim.x * gridDim.x) {
        const T v = x[i];
        const K k = M::key(v);
        if (keys) keys[i] = k;  // (null: CUB sorts the values themselves)
        diff |= k ^ first;
        if (M::special(v)) {
            zeros += v == T(0);
            negzeros += v == T(0) && gpy_sign_bit<T>(v);
            nans += v != v;
        }
        neg += M::negative(v);
    }
    for (int o = 16; o; o >>= 1) {
        diff |= __shfl_xor_sync(0xffffffffu, diff, o);
        neg += __shfl_xor_sync(0xffffffffu, neg, o);
        zeros += __shfl_xor_sync(0xffffffffu, zeros, o);
        nans += __shfl_xor_sync(0xffffffffu, nans, o);
        negzeros += __shfl_xor_sync(0xffffffffu, negzeros, o);
    }
    if ((threadIdx.x & 31) == 0) {
        if (diff) atomicOr(out, (gpy_u64)diff);
        if (neg) atomicAdd(out + 1, (gpy_u64)neg);
        if (zeros) atomicAdd(out + 2, (gpy_u64)zeros);
        if (nans) atomicAdd(out + 3, (gpy_u64)nans);
        if (negzeros) atomicAdd(out + 4, (gpy_u64)negzeros);
    }
}

// The digit of element j: of its key, or (ROWS) of its row.
template <class K, int ROWS>
static __device__ __forceinline__ unsigned gpy_digit(K key, gpy_u32 index, int shift, gpy_u32 len) {
    if (ROWS) return ((index / len) >> shift) & 255u;
    return (unsigned)(key >> shift) & 255u;
}

// Element j's index: the first pass has no index array yet (null): j.
static __device__ __forceinline__ gpy_u32 gpy_index(const gpy_u32* __restrict__ idx, gpy_u64 j) { return idx ? idx[j] : (gpy_u32)j; }

// A warp's items: GPY_ITEMS rounds of 32 consecutive elements.
static __device__ __forceinline__ gpy_u64 gpy_item(int round) {
    return (gpy_u64)blockIdx.x * GPY_TILE + (threadIdx.x >> 5) * (32 * GPY_ITEMS) + round * 32 + (threadIdx.x & 31);
}

// counts[d * tiles + tile] = how many of the tile's elements have digit d.
template <class K, int ROWS>
static __device__ __forceinline__ void gpy_sort_upsweep(const K* __restrict__ keys, const gpy_u32* __restrict__ idx, gpy_u64 n,
                                                        int shift, gpy_u32 len, gpy_u32* __restrict__ counts, gpy_u64 tiles) {
    __shared__ gpy_u32 h[256];
    h[threadIdx.x] = 0;
    __syncthreads();
    unsigned d[GPY_ITEMS];  // all loads first: 16 in flight
#pragma unroll
    for (int r = 0; r < GPY_ITEMS; ++r) {
        const gpy_u64 j = (gpy_u64)blockIdx.x * GPY_TILE + r * GPY_THREADS + threadIdx.x;
        d[r] = j < n ? gpy_digit<K, ROWS>(ROWS ? (K)0 : keys[j], ROWS ? gpy_index(idx, j) : 0u, shift, len) : 256u;
    }
#pragma unroll
    for (int r = 0; r < GPY_ITEMS; ++r)
        if (d[r] < 256u) atomicAdd(&h[d[r]], 1u);
    __syncthreads();
    counts[threadIdx.x * tiles + blockIdx.x] = h[threadIdx.x];
}

// A block per digit: its row of counts becomes exclusive offsets (in
// place); totals[d] = the row's sum.
static __device__ __forceinline__ void gpy_scan_row(gpy_u32* counts, gpy_u64 tiles, gpy_u32* totals) {
    __shared__ gpy_u32 warp_sums[32];
    gpy_u32* row = counts + blockIdx.x * tiles;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    gpy_u32 carry = 0;
    for (gpy_u64 base = 0; base < tiles; base += blockDim.x) {
        const gpy_u64 i = base + threadIdx.x;
        const gpy_u32 v = i < tiles ? row[i] : 0u;
        gpy_u32 s = v;
        for (int o = 1; o < 32; o <<= 1) {
            const gpy_u32 t = __shfl_up_sync(0xffffffffu, s, o);
            if ((int)lane >= o) s += t;
        }
        if (lane == 31) warp_sums[warp] = s;
        __syncthreads();
        if (warp == 0) {
            gpy_u32 w = lane < warps ? warp_sums[lane] : 0u;
            for (int o = 1; o < 32; o <<= 1) {
                const gpy_u32 t = __shfl_up_sync(0xffffffffu, w, o);
                if ((int)lane >= o) w += t;
            }
            warp_sums[lane] = w;  // inclusive over warps
        }
        __syncthreads();
        const gpy_u32 before = carry + (warp ? warp_sums[warp - 1] : 0u) + s - v;
        if (i < tiles) row[i] = before;
        carry += warp_sums[warps - 1];
        __syncthreads();
    }
    if (threadIdx.x == 0) totals[blockIdx.x] = carry;
}

// Exclusive scan of v over the block's 256 threads (`sums`: GPY_WARPS words).
static __device__ __forceinline__ gpy_u32 gpy_block_exclusive(gpy_u32 v, gpy_u32* sums) {
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    gpy_u32 s = v;
    for (int o = 1; o < 32; o <<= 1) {
        const gpy_u32 u = __shfl_up_sync(0xffffffffu, s, o);
        if ((int)lane >= o) s += u;
    }
    if (lane == 31) sums[warp] = s;
    __syncthreads();
    gpy_u32 before = s - v;
    for (unsigned w = 0; w < warp; ++w) before += sums[w];
    __syncthreads();
    return before;
}

// V: the keys' type (K: written as they are), or the element type of the
// last pass, which writes the keys mapped back to values.
// Ranks the tile's elements by digit (stable), places them in shared memory
// in their sorted order within the tile, then writes them out in that order,
// so a digit's run goes to consecutive addresses (coalesced): element at
// tile position p with digit d goes to the digit's start (the totals of
// smaller digits) + the tile's offset within the digit + p - where the
// digit starts within the tile. Ranks within a warp: 32 consecutive keys at
// a time, __match_any_sync grouping equal digits.
template <class K, int ROWS, int KEYS, int IDX, class V>
static __device__ __forceinline__ void gpy_sort_downsweep(const K* __restrict__ keys, const gpy_u32* __restrict__ idx,
                                                          V* __restrict__ keys_out, gpy_u32* __restrict__ idx_out, gpy_u64 n,
                                                          int shift, gpy_u32 len, const gpy_u32* __restrict__ counts,
                                                          const gpy_u32* __restrict__ totals, gpy_u64 tiles) {
    __shared__ gpy_u32 start[256];
    __shared__ gpy_u32 local[256];
    __shared__ gpy_u32 warp_counts[GPY_WARPS][256];
    __shared__ gpy_u32 sums[GPY_WARPS];
    __shared__ K stage[GPY_TILE];  // the keys, then the indices (as wide)
    __shared__ unsigned char digits[GPY_TILE];
    const unsigned t = threadIdx.x, lane = t & 31, warp = t >> 5;
    for (int w = 0; w < GPY_WARPS; ++w) warp_counts[w][t] = 0;
    const gpy_u32 digit_start = gpy_block_exclusive(totals[t], sums);
    K k[GPY_ITEMS];
    gpy_u32 ix[GPY_ITEMS];
    unsigned short rank[GPY_ITEMS];
    const gpy_u32 lower = (1u << lane) - 1u;
#pragma unroll
    for (int r = 0; r < GPY_ITEMS; ++r) {  // all loads first: 16 (or 32) in flight
        const gpy_u64 j = gpy_item(r);
        if (j < n) {
            if (KEYS || !ROWS) k[r] = keys[j];
            if (IDX) ix[r] = gpy_index(idx, j);
        }
    }
#pragma unroll
    for (int r = 0; r < GPY_ITEMS; ++r) {
        // The lanes with the same digit (ballots on its 8 bits: cheaper than
        // __match_any_sync, which held the pass at 5x its memory time); the
        // highest of them counts the group in for the warp.
        const bool ok = gpy_item(r) < n;
        const unsigned active = __ballot_sync(0xffffffffu, ok);
        const unsigned d = ok ? gpy_digit<K, ROWS>(k[r], IDX ? ix[r] : 0u, shift, len) : 0u;
        unsigned peers = active;
#pragma unroll
        for (int b = 0; b < 8; ++b) {
            const bool bit = (d >> b) & 1u;
            const unsigned v = __ballot_sync(0xffffffffu, bit);
            peers &= bit ? v : ~v;
        }
        const int leader = 31 - __clz(peers);
        gpy_u32 before = 0;
        if (ok && leader == (int)lane) before = atomicAdd(&warp_counts[warp][d], (gpy_u32)__popc(peers));
        before = __shfl_sync(0xffffffffu, before, leader & 31);
        rank[r] = (unsigned short)(before + __popc(peers & lower));
    }
    __syncthreads();
    gpy_u32 tile_count = 0;  // thread t: digit t's count in the tile, each warp's offset within it
    for (int w = 0; w < GPY_WARPS; ++w) {
        const gpy_u32 c = warp_counts[w][t];
        warp_counts[w][t] = tile_count;
        tile_count += c;
    }
    const gpy_u32 local_start = gpy_block_exclusive(tile_count, sums);
    local[t] = local_start;
    start[t] = digit_start + counts[t * tiles + blockIdx.x] - local_start;
    __syncthreads();
#pragma unroll
    for (int r = 0; r < GPY_ITEMS; ++r)
        if (gpy_item(r) < n) {  // (the digit again: cheaper than a register for each)
            const unsigned d = gpy_digit<K, ROWS>(k[r], IDX ? ix[r] : 0u, shift, len);
            rank[r] = (unsigned short)(local[d] + warp_counts[warp][d] + rank[r]);
            digits[rank[r]] = (unsigned char)d;
        }
    const gpy_u64 tile_base = (gpy_u64)blockIdx.x * GPY_TILE;
    const unsigned tile_n = (unsigned)min((gpy_u64)GPY_TILE, n - tile_base);
    if (KEYS) {
        K* sk = (K*)stage;
#pragma unroll
        for (int r = 0; r < GPY_ITEMS; ++r)
            if (gpy_item(r) < n) sk[rank[r]] = k[r];
        __syncthreads();
        for (unsigned p = t; p < tile_n; p += GPY_THREADS) keys_out[start[digits[p]] + p] = gpy_key<V>::value(sk[p]);
        __syncthreads();
    }
    if (IDX) {
        gpy_u32* si = (gpy_u32*)stage;
#pragma unroll
        for (int r = 0; r < GPY_ITEMS; ++r)
            if (gpy_item(r) < n) si[rank[r]] = ix[r];
        __syncthreads();
        for (unsigned p = t; p < tile_n; p += GPY_THREADS) idx_out[start[digits[p]] + p] = si[p];
    }
}

template <class T>
static __device__ __forceinline__ void gpy_sort_values(const typename gpy_key<T>::K* __restrict__ keys, gpy_u64 n, T* __restrict__ out) {
    for (gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; i < n; i += (gpy_u64)blockDim.x * gridDim.x)
        out[i] = gpy_key<T>::value(keys[i]);
}
template <class T>
static __device__ __forceinline__ void gpy_sort_gather(const T* __restrict__ x, const gpy_u32* __restrict__ idx, gpy_u64 n, T* __restrict__ out) {
    for (gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; i < n; i += (gpy_u64)blockDim.x * gridDim.x) out[i] = x[gpy_index(idx, i)];
}
template <class T>
static __device__ __forceinline__ void gpy_sort_copy(const T* __restrict__ x, gpy_u64 n, T* __restrict__ out) {
    for (gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; i < n; i += (gpy_u64)blockDim.x * gridDim.x) out[i] = x[i];
}

// flags[i] = 1 where sorted element i starts a run of equal ones (NumPy's
// equality: NaNs equal only with equal_nan).
template <class T>
static __device__ __forceinline__ void gpy_sort_run_starts(const T* __restrict__ s, gpy_u64 n, int equal_nan, unsigned char* __restrict__ flags) {
    typedef gpy_key<T> M;
    for (gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; i < n; i += (gpy_u64)blockDim.x * gridDim.x) {
        const T v = s[i];
        flags[i] = i == 0 || M::key(v) != M::key(s[i - 1]) || (!equal_nan && v != v);
    }
}

extern "C" __global__ void gpy_sort_index(const gpy_u32* __restrict__ idx, gpy_u64 n, gpy_u32 len, gpy_i64* __restrict__ out) {
    for (gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; i < n; i += (gpy_u64)blockDim.x * gridDim.x) out[i] = gpy_index(idx, i) % len;
}
extern "C" __global__ void __launch_bounds__(1024) gpy_sort_scan_rows(gpy_u32* counts, gpy_u64 tiles, gpy_u32* totals) {
    gpy_scan_row(counts, tiles, totals);
}
#define GPY_SORT_PASSES(KN, K) \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS) gpy_sort_up_##KN(const K* keys, const gpy_u32* idx, gpy_u64 n, int s, gpy_u32 len, gpy_u32* c, gpy_u64 t) { \
        gpy_sort_upsweep<K, 0>(keys, idx, n, s, len, c, t); } \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS) gpy_sort_up_rows_##KN(const K* keys, const gpy_u32* idx, gpy_u64 n, int s, gpy_u32 len, gpy_u32* c, gpy_u64 t) { \
        gpy_sort_upsweep<K, 1>(keys, idx, n, s, len, c, t); } \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS, GPY_SORT_MINB) gpy_sort_down_keys_##KN(const K* keys, const gpy_u32* idx, K* ko, gpy_u32* io, gpy_u64 n, int s, gpy_u32 len, const gpy_u32* c, const gpy_u32* tot, gpy_u64 t) { \
        gpy_sort_downsweep<K, 0, 1, 0, K>(keys, idx, ko, io, n, s, len, c, tot, t); } \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS, GPY_SORT_MINB) gpy_sort_down_pairs_##KN(const K* keys, const gpy_u32* idx, K* ko, gpy_u32* io, gpy_u64 n, int s, gpy_u32 len, const gpy_u32* c, const gpy_u32* tot, gpy_u64 t) { \
        gpy_sort_downsweep<K, 0, 1, 1, K>(keys, idx, ko, io, n, s, len, c, tot, t); } \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS, GPY_SORT_MINB) gpy_sort_down_rows_##KN(const K* keys, const gpy_u32* idx, K* ko, gpy_u32* io, gpy_u64 n, int s, gpy_u32 len, const gpy_u32* c, const gpy_u32* tot, gpy_u64 t) { \
        gpy_sort_downsweep<K, 1, 0, 1, K>(keys, idx, ko, io, n, s, len, c, tot, t); }
GPY_SORT_PASSES(k32, gpy_u32) GPY_SORT_PASSES(k64, gpy_u64)
#define GPY_SORT_TYPE(TN, T) \
    extern "C" __global__ void gpy_sort_analyze_##TN(const T* x, gpy_u64 n, gpy_u64* out, typename gpy_key<T>::K* keys) { gpy_sort_analyze<T>(x, n, out, keys); } \
    extern "C" __global__ void gpy_sort_values_##TN(const typename gpy_key<T>::K* keys, gpy_u64 n, T* out) { gpy_sort_values<T>(keys, n, out); } \
    extern "C" __global__ void __launch_bounds__(GPY_THREADS, GPY_SORT_MINB) gpy_sort_down_values_##TN(const typename gpy_key<T>::K* keys, const gpy_u32* idx, T* vo, gpy_u32* io, gpy_u64 n, int s, gpy_u32 len, const gpy_u32* c, const gpy_u32* tot, gpy_u64 t) { \
        gpy_sort_downsweep<typename gpy_key<T>::K, 0, 1, 0, T>(keys, idx, vo, io, n, s, len, c, tot, t); } \
    extern "C" __global__ void gpy_sort_gather_##TN(const T* x, const gpy_u32* idx, gpy_u64 n, T* out) { gpy_sort_gather<T>(x, idx, n, out); } \
    extern "C" __global__ void gpy_sort_copy_##TN(const T* x, gpy_u64 n, T* out) { gpy_sort_copy<T>(x, n, out); } \
    extern "C" __global__ void gpy_sort_run_starts_##TN(const T* s, gpy_u64 n, int e, unsigned char* f) { gpy_sort_run_starts<T>(s, n, e, f); }
GPY_SORT_TYPE(i8, signed char) GPY_SORT_TYPE(u8, unsigned char) GPY_SORT_TYPE(i16, short) GPY_SORT_TYPE(u16, unsigned short)
GPY_SORT_TYPE(i32, int) GPY_SORT_TYPE(u32, gpy_u32) GPY_SORT_TYPE(i64, gpy_i64) GPY_SORT_TYPE(u64, gpy_u64)
GPY_SORT_TYPE(f32, float) GPY_SORT_TYPE(f64, double)
// out[i] = i: the indices CUB's pairs start from.
extern "C" __global__ void gpy_sort_iota(gpy_u32* out, gpy_u64 n) {
    for (gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; i < n; i += (gpy_u64)blockDim.x * gridDim.x) out[i] = (gpy_u32)i;
}
)CUDA";

}  // namespace

std::string cuda_sort_keys_source() { return kSortKeys; }
std::string cuda_sort_source() { return std::string(kSortKeys) + kSortKernels; }

namespace {

// A CUB call failed before writing anything (it launches nothing it has no
// code for): gpy's own passes from now on. False, for the callers.
bool cub_failed() {
    disable_cub();
    return false;
}

// CUB's code for the values it sorts as they are (gpy_cub_sort_values), or -1.
int cub_value_type(DeviceSearchType t) {
    switch (t) {
        case DeviceSearchType::Float: return 0;
        case DeviceSearchType::Double: return 1;
        case DeviceSearchType::Int32: return 2;
        case DeviceSearchType::UInt32: return 3;
        case DeviceSearchType::Int64: return 4;
        case DeviceSearchType::UInt64: return 5;
        default: return -1;
    }
}

// One row of NaN-free values (flags: the analysis's varying key bits,
// negatives, zeros, NaNs, -0.0s) sorted by CUB as themselves, x to out (or
// in place): no keys made or mapped back. CUB's keys are gpy's but for
// -0.0, which CUB puts before +0.0 where NumPy keeps the zeros in input
// order: with a -0.0 the zeros are rewritten from x afterwards, as in the
// key path, and CUB sorts all the bits (the varying bits are of gpy's keys).
bool sort_values_with_cub(int device, DeviceSearchType type, int cub_type, const void* x, uint64_t n, void* out, const uint64_t* flags) {
    const uint64_t varying = flags[0], negatives = flags[1], zeros = flags[4] ? flags[2] : 0;  // zeros to rewrite
    const size_t elem = device_type_size(type);
    cuda::CUstream stream = current_stream();
    const cuda::Api& api = cuda::api();
    int begin_bit = 0, end_bit = int(elem * 8);
    if (!zeros) {
        if (varying == 0) {  // every element the same
            if (out != x) cuda::check(api.cuMemcpyDtoDAsync(cuda::CUdeviceptr(out), cuda::CUdeviceptr(x), n * elem, stream), "cuMemcpyDtoDAsync(sort)");
            note_device_work(device);
            return true;
        }
        begin_bit = __builtin_ctzll(varying);
        end_bit = 64 - __builtin_clzll(varying);
    }
    // In place with zeros to rewrite: sorted into scratch (x must stay to
    // read the zeros from), then copied back; in place without: CUB's
    // double buffer of x and scratch.
    BufferRef scratch;
    const bool in_place = out == x;
    if (in_place) scratch = BufferRef(allocate_cuda_buffer(device, n * elem, false));
    void* dst = in_place && zeros ? scratch.device_bytes() : out;
    void* alt = in_place && !zeros ? scratch.device_bytes() : nullptr;
    int selector = 0, count = int(n);
    size_t temp_bytes = 0;
    const CubSortValues sort = cub_sort_values();
    if (sort(cub_type, nullptr, &temp_bytes, x, dst, alt, count, begin_bit, end_bit, stream, &selector) != 0) return cub_failed();
    BufferRef temp(allocate_cuda_buffer(device, std::max<size_t>(temp_bytes, 16), false));
    if (sort(cub_type, temp.device_bytes(), &temp_bytes, x, dst, alt, count, begin_bit, end_bit, stream, &selector) != 0) return cub_failed();
    if (zeros) {
        char* o = static_cast<char*>(dst);
        select_on_device(device, x, elem, true, int64_t(n), x, elem, [&](int64_t) -> void* { return o + negatives * elem; }, MaskTest::Zero);
    }
    void* result = alt && selector ? alt : dst;
    if (result != out) cuda::check(api.cuMemcpyDtoDAsync(cuda::CUdeviceptr(out), cuda::CUdeviceptr(result), n * elem, stream), "cuMemcpyDtoDAsync(sort)");
    note_device_work(device);
    return true;
}

}  // namespace

void sort_on_device(int device, DeviceSearchType type, const void* x, int64_t rows, int64_t len, void* out_values,
                    int64_t* out_index) {
    uint64_t n = uint64_t(rows) * uint64_t(len);
    if (n == 0 || (!out_values && !out_index)) return;
    static const std::string source = cuda_sort_source();
    const std::string tn = device_type_suffix(type);
    const bool wide = device_type_size(type) == 8;  // 64-bit keys
    const std::string kn = wide ? "k64" : "k32";
    auto fn = [&](const std::string& name) { return library_kernel(device, source, "gpy_sort", name); };
    cuda::Device& dev = cuda::device(device);
    dev.make_current();
    cuda::CUstream stream = current_stream();
    const cuda::Api& api = cuda::api();
    const unsigned stream_grid = unsigned(std::min<uint64_t>((n + kThreads - 1) / kThreads, uint64_t(dev.sm_count) * 16));

    // The keys, which of their bits vary, and whether values must travel by
    // index (the first pass makes the indices: i_in is null).
    const size_t key_size = wide ? 8 : 4;
    // Values of one row that CUB sorts as they are need no keys, unless
    // they hold NaNs (sort_values_with_cub).
    const int cub_type = cub_value_type(type);
    const bool values_only = rows == 1 && !out_index && out_values && cub_type >= 0 && n < (uint64_t(1) << 31) && cub_sort_values();
    BufferRef keys0, keys1;
    BufferRef info(allocate_cuda_buffer(device, 64, true));
    void* k_in = nullptr;
    void* k_out = nullptr;
    uint64_t flags[5] = {0, 0, 0, 0, 0};
    auto analyze = [&](bool with_keys) {
        if (with_keys) {
            keys0 = BufferRef(allocate_cuda_buffer(device, n * key_size, false));
            keys1 = BufferRef(allocate_cuda_buffer(device, n * key_size, false));
            k_in = keys0.device_bytes();
            k_out = keys1.device_bytes();
            cuda::check(api.cuMemsetD8Async(cuda::CUdeviceptr(info.device_bytes()), 0, 64, stream), "cuMemsetD8Async(sort info)");
        }
        void* info_p = info.device_bytes();
        void* args[] = {&x, &n, &info_p, &k_in};
        cuda::launch(fn("gpy_sort_analyze_" + tn), {stream_grid}, {kThreads}, 0, stream, args);
        cuda::check(api.cuMemcpyDtoHAsync(flags, cuda::CUdeviceptr(info.device_bytes()), sizeof flags, stream), "cuMemcpyDtoHAsync(flags)");
        cuda::check(api.cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
    };
    analyze(!values_only);
    if (values_only && flags[3] == 0 && sort_values_with_cub(device, type, cub_type, x, n, out_values, flags)) return;
    if (values_only) analyze(true);  // NaNs (or CUB failed): keys after all
    const uint64_t varying = flags[0], negatives = flags[1], zeros = flags[2], nans = flags[3];
    // Zeros and NaNs sort as one key each, which forgets their bits and
    // order: the sorted values get them back by compacting x's own zeros and
    // NaNs (in input order) into their runs; in place (x overwritten) and
    // for rows, values travel by index instead.
    // In place (median's sorted copy), one row with zeros or NaNs: sorted
    // into a scratch buffer, the specials taken from x, then copied back;
    // moving the values by index instead cost twice the scatter traffic
    // (a median of 2^24 float32 holding one 0.0 took 1.5 ms, 0.78 without).
    void* const result_values = out_values;
    BufferRef scratch;
    if (zeros + nans > 0 && out_values && out_values == x && rows == 1 && !out_index) {
        scratch = BufferRef(allocate_cuda_buffer(device, n * device_type_size(type), false));
        out_values = scratch.device_bytes();
    }
    const bool fix_specials = zeros + nans > 0 && out_values && out_values != x && rows == 1 && !out_index;
    const bool by_index = out_index || rows > 1 || (zeros + nans > 0 && !fix_specials);
    BufferRef idx0, idx1;
    if (by_index) {
        idx0 = BufferRef(allocate_cuda_buffer(device, n * 4, false));
        idx1 = BufferRef(allocate_cuda_buffer(device, n * 4, false));
    }
    const uint64_t tiles = (n + kTile - 1) / kTile;
    BufferRef counts(allocate_cuda_buffer(device, tiles * 256 * 4, false)), totals(allocate_cuda_buffer(device, 256 * 4, false));
    void* i_in = nullptr;  // identity until the first pass writes i_out
    void* i_out = by_index ? idx0.device_bytes() : nullptr;
    void* i_spare = by_index ? idx1.device_bytes() : nullptr;
    uint32_t len32 = uint32_t(len);
    void* counts_p = counts.device_bytes();
    void* totals_p = totals.device_bytes();
    // One row: CUB's onesweep sort (runtime/cub_sort.h) where its module
    // loads, over the bits that vary.
    CubRadixSort cub = rows == 1 && varying != 0 && n < (uint64_t(1) << 31) ? cub_radix_sort() : nullptr;
    // Keys alone, one row: the last pass writes the values themselves.
    int last_shift = -1;
    for (int shift = 0; shift < int(key_size * 8); shift += 8)
        if ((varying >> shift) & 255) last_shift = shift;
    const bool values_in_pass = !cub && !by_index && out_values && last_shift >= 0;
    auto pass = [&](bool row_digit, int shift) {
        void* up_args[] = {&k_in, &i_in, &n, &shift, &len32, &counts_p, const_cast<uint64_t*>(&tiles)};
        cuda::launch(fn((row_digit ? "gpy_sort_up_rows_" : "gpy_sort_up_") + kn), {unsigned(tiles)}, {kThreads}, 0, stream, up_args);
        void* scan_args[] = {&counts_p, const_cast<uint64_t*>(&tiles), &totals_p};
        cuda::launch(fn("gpy_sort_scan_rows"), {256}, {1024}, 0, stream, scan_args);
        void* down_args[] = {&k_in, &i_in, &k_out, &i_out, &n, &shift, &len32, &counts_p, &totals_p, const_cast<uint64_t*>(&tiles)};
        if (values_in_pass && shift == last_shift) {
            down_args[2] = &out_values;
            cuda::launch(fn("gpy_sort_down_values_" + tn), {unsigned(tiles)}, {kThreads}, 0, stream, down_args);
            return;
        }
        const char* kind = row_digit ? "gpy_sort_down_rows_" : by_index ? "gpy_sort_down_pairs_" : "gpy_sort_down_keys_";
        cuda::launch(fn(kind + kn), {unsigned(tiles)}, {kThreads}, 0, stream, down_args);
        if (!row_digit) std::swap(k_in, k_out);  // row passes move only the indices
        if (by_index) {
            i_in = i_out;
            i_out = i_in == idx0.device_bytes() ? i_spare : idx0.device_bytes();
        }
    };
    if (cub) {
        if (by_index) {
            void* args[] = {&i_out, &n};
            cuda::launch(fn("gpy_sort_iota"), {stream_grid}, {kThreads}, 0, stream, args);
        }
        const int begin_bit = __builtin_ctzll(varying), end_bit = 64 - __builtin_clzll(varying);
        int selector = 0, count = int(n);
        size_t temp_bytes = 0;
        auto* v0 = static_cast<unsigned*>(i_out);
        auto* v1 = static_cast<unsigned*>(i_spare);
        bool ok = cub(int(key_size), by_index, nullptr, &temp_bytes, k_in, k_out, v0, v1, count, begin_bit, end_bit, stream, &selector) == 0;
        BufferRef temp(allocate_cuda_buffer(device, std::max<size_t>(temp_bytes, 16), false));
        ok = ok && cub(int(key_size), by_index, temp.device_bytes(), &temp_bytes, k_in, k_out, v0, v1, count, begin_bit, end_bit, stream,
                       &selector) == 0;
        if (!ok) {
            cub = nullptr;  // the keys are untouched: gpy's passes below
            cub_failed();
        } else {
            if (selector) std::swap(k_in, k_out);
            if (by_index) i_in = selector ? i_spare : i_out;
        }
    }
    // Least significant first: the key's digits that vary, then the row's.
    for (int shift = 0; !cub && shift < int(key_size * 8); shift += 8)
        if ((varying >> shift) & 255) pass(false, shift);
    for (int shift = 0; rows > 1 && shift < 32 && (uint64_t(rows - 1) >> shift) != 0; shift += 8) pass(true, shift);

    if (out_index) {
        void* args[] = {&i_in, &n, &len32, &out_index};
        cuda::launch(fn("gpy_sort_index"), {stream_grid}, {kThreads}, 0, stream, args);
    }
    if (out_values && !values_in_pass) {
        if (!by_index) {
            void* args[] = {&k_in, &n, &out_values};
            cuda::launch(fn("gpy_sort_values_" + tn), {stream_grid}, {kThreads}, 0, stream, args);
        } else if (out_values != x) {
            void* args[] = {&x, &i_in, &n, &out_values};
            cuda::launch(fn("gpy_sort_gather_" + tn), {stream_grid}, {kThreads}, 0, stream, args);
        } else {  // in place: gather into the spare key buffer (as large), then copy
            void* args[] = {&x, &i_in, &n, &k_out};
            cuda::launch(fn("gpy_sort_gather_" + tn), {stream_grid}, {kThreads}, 0, stream, args);
            void* copy_args[] = {&k_out, &n, &out_values};
            cuda::launch(fn("gpy_sort_copy_" + tn), {stream_grid}, {kThreads}, 0, stream, copy_args);
        }
    }
    if (fix_specials) {
        const size_t elem = device_type_size(type);
        char* out = static_cast<char*>(out_values);
        if (zeros) select_on_device(device, x, elem, true, int64_t(n), x, elem, [&](int64_t) -> void* { return out + negatives * elem; }, MaskTest::Zero);
        if (nans) select_on_device(device, x, elem, true, int64_t(n), x, elem, [&](int64_t) -> void* { return out + (n - nans) * elem; }, MaskTest::NaN);
    }
    if (out_values != result_values)
        cuda::check(api.cuMemcpyDtoDAsync(cuda::CUdeviceptr(result_values), cuda::CUdeviceptr(out_values), n * device_type_size(type), stream),
                    "cuMemcpyDtoDAsync(sort)");
    note_device_work(device);
}

int64_t unique_on_device(int device, DeviceSearchType type, const void* x, int64_t n, bool equal_nan,
                         const std::function<void*(int64_t)>& alloc) {
    const size_t elem = device_type_size(type);
    BufferRef sorted(allocate_cuda_buffer(device, size_t(n) * elem, false)), flags(allocate_cuda_buffer(device, size_t(n), false));
    sort_on_device(device, type, x, 1, n, sorted.device_bytes(), nullptr);
    static const std::string source = cuda_sort_source();
    cuda::CUfunction fn = library_kernel(device, source, "gpy_sort", std::string("gpy_sort_run_starts_") + device_type_suffix(type));
    cuda::device(device).make_current();
    void* s = sorted.device_bytes();
    void* f = flags.device_bytes();
    uint64_t count = uint64_t(n);
    int e = equal_nan;
    void* args[] = {&s, &count, &e, &f};
    unsigned grid = unsigned(std::min<uint64_t>((count + kThreads - 1) / kThreads, uint64_t(cuda::device(device).sm_count) * 16));
    cuda::launch(fn, {grid}, {kThreads}, 0, current_stream(), args);
    return select_on_device(device, f, 1, false, n, s, elem, alloc);
}

}  // namespace gpy
