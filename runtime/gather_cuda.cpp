#include "runtime/gather_cuda.h"

#include <algorithm>

#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"
#include "runtime/sort_cuda.h"

namespace gpy {

namespace {

// A thread per index (grid-stride); a bad index lowers the pinned word to
// its position, so the host reports the first in order, as NumPy does.
const char* kGatherKernels = R"CUDA(
typedef long int64_t; typedef unsigned long long gpy_u64;
struct gpy_b16 { gpy_u64 lo, hi; };
template <class E>
static __device__ __forceinline__ void gpy_gather(const int64_t* __restrict__ idx, int64_t count, const char* __restrict__ src,
                                                  int64_t n, int64_t stride, E* __restrict__ dst, gpy_u64* bad) {
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)blockDim.x * gridDim.x) {
        const int64_t v = __ldg(idx + k);
        const int64_t j = v < 0 ? v + n : v;
        if (j < 0 || j >= n) { atomicMin(bad, (gpy_u64)k); continue; }
        dst[k] = *(const E*)(src + j * stride);
    }
}
#define GPY_GATHER(N, E) \
    extern "C" __global__ void gpy_gather_##N(const int64_t* idx, int64_t count, const char* src, int64_t n, int64_t stride, E* dst, gpy_u64* bad) { \
        gpy_gather<E>(idx, count, src, n, stride, dst, bad); \
    }
GPY_GATHER(1, unsigned char) GPY_GATHER(2, unsigned short) GPY_GATHER(4, unsigned int) GPY_GATHER(8, gpy_u64) GPY_GATHER(16, gpy_b16)

// Scatters dst[idx[k]] = src[k]. NumPy assigns in order, so of repeated
// indices the last wins: `check` finds the first bad index (NumPy then
// writes nothing) and, unless every value is the same (winner null), leaves
// in winner[j] the last k aiming at j; `write` stores only the winners.
// Winners are int32 below 2^31 positions (half the traffic of int64).
// Without winners first: `check` (no claims) finds any bad index, then
// `scatter_bits` writes every value and sets a bit a target with atomicOr;
// a bit already set means a repeated target, and only then do the winners
// run (claims, then their values over those written). A permutation (the
// usual index) costs one read of the indices more than CuPy's single pass:
// the bitmap (n / 8 bytes) stays in L2, where the winners' int32 claims went
// to memory and were read back (2.2x CuPy's time).
template <class W>
static __device__ __forceinline__ void gpy_scatter_check(const int64_t* __restrict__ idx, int64_t count, int64_t n, gpy_u64* bad, W* winner) {
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)blockDim.x * gridDim.x) {
        const int64_t v = __ldg(idx + k);
        const int64_t j = v < 0 ? v + n : v;
        if (j < 0 || j >= n) atomicMin(bad, (gpy_u64)k);
        else if (winner) atomicMax(winner + j, (W)k);
    }
}
extern "C" __global__ void gpy_scatter_check_w32(const int64_t* idx, int64_t count, int64_t n, gpy_u64* bad, int* winner) {
    gpy_scatter_check<int>(idx, count, n, bad, winner);
}
extern "C" __global__ void gpy_scatter_check_w64(const int64_t* idx, int64_t count, int64_t n, gpy_u64* bad, long long* winner) {
    gpy_scatter_check<long long>(idx, count, n, bad, winner);
}
template <class E, class W>
static __device__ __forceinline__ void gpy_scatter(const int64_t* __restrict__ idx, int64_t count, int64_t n, int64_t stride,
                                                   char* __restrict__ dst, const E* __restrict__ src, const W* __restrict__ winner,
                                                   int uniform) {
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)blockDim.x * gridDim.x) {
        const int64_t v = __ldg(idx + k);
        const int64_t j = v < 0 ? v + n : v;
        if (winner && winner[j] != (W)k) continue;
        *(E*)(dst + j * stride) = uniform ? src[0] : src[k];
    }
}
template <class E>
static __device__ __forceinline__ void gpy_scatter_bits(const int64_t* __restrict__ idx, int64_t count, int64_t n, int64_t stride,
                                                        char* __restrict__ dst, const E* __restrict__ src, unsigned* bits, unsigned* repeat) {
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)blockDim.x * gridDim.x) {
        const int64_t v = __ldg(idx + k);
        const int64_t j = v < 0 ? v + n : v;
        *(E*)(dst + j * stride) = src[k];
        const unsigned bit = 1u << (j & 31);
        if (atomicOr(bits + (j >> 5), bit) & bit) *repeat = 1u;  // (device memory: many repeats cost no PCIe writes)
    }
}
// ufunc.at: x[j] = x[j] OP v[k] for each k in order. Integers with atomics
// (any order gives NumPy's result; OP 0 add, 1 maximum, 2 minimum); float
// sums by runs of equal indices after a stable sort of the indices (`perm`),
// a thread adding each run in NumPy's order.
template <class T>
static __device__ __forceinline__ void gpy_at_atomic_op(T* p, T v, int op) {
    if (op == 0) atomicAdd(p, v);
    else if (op == 1) atomicMax(p, v);
    else atomicMin(p, v);
}
static __device__ __forceinline__ void gpy_at_atomic_op(long long* p, long long v, int op) {
    if (op == 0) atomicAdd((gpy_u64*)p, (gpy_u64)v);
    else if (op == 1) atomicMax(p, v);
    else atomicMin(p, v);
}
template <class T>
static __device__ __forceinline__ void gpy_at_atomic(const int64_t* __restrict__ idx, int64_t count, int64_t n, int64_t stride, char* dst,
                                                     const T* __restrict__ v, int uniform, int op) {
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)blockDim.x * gridDim.x) {
        const int64_t i = __ldg(idx + k);
        gpy_at_atomic_op((T*)(dst + (i < 0 ? i + n : i) * stride), uniform ? v[0] : v[k], op);
    }
}
// targets[k] = idx[k] made non-negative (-1 and n - 1 are one element: the
// runs are of targets, sorted); targets may be null (only the check).
// Also sets *unsorted when some target is below the one before it (sorted
// targets, CSR rows or grouped labels, need no sort: their runs are in place).
extern "C" __global__ void gpy_at_targets(const int64_t* __restrict__ idx, int64_t count, int64_t n, int64_t* __restrict__ targets,
                                          unsigned long long* unsorted) {
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)blockDim.x * gridDim.x) {
        const int64_t i = idx[k];
        const int64_t t = i < 0 ? i + n : i;
        if (targets) targets[k] = t;
        if (k > 0) {
            const int64_t p = idx[k - 1];
            if ((p < 0 ? p + n : p) > t) *unsorted = 1;
        }
    }
}
template <class T>
static __device__ __forceinline__ void gpy_at_runs(const int64_t* __restrict__ targets, const int64_t* __restrict__ perm, int64_t count,
                                                   int64_t n, int64_t stride, char* dst, const T* __restrict__ v, int uniform) {
    // perm null: the targets are sorted already (the identity permutation),
    // and may be the indices themselves (negative ones made so here).
    #define GPY_AT_TARGET(m) (targets[m] < 0 ? targets[m] + n : targets[m])
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)blockDim.x * gridDim.x) {
        const int64_t j = GPY_AT_TARGET(perm ? perm[k] : k);
        if (k > 0 && GPY_AT_TARGET(perm ? perm[k - 1] : k - 1) == j) continue;  // not the first of its run
        T* p = (T*)(dst + j * stride);
        T acc = *p;
        for (int64_t m = k; m < count; ++m) {
            const int64_t pm = perm ? perm[m] : m;
            if (GPY_AT_TARGET(pm) != j) break;
            acc += uniform ? v[0] : v[pm];
        }
        *p = acc;
    }
    #undef GPY_AT_TARGET
}
// Few targets (bincount's bins): each block applies its share to a copy in
// shared memory first, then once per target to x (global atomics on a few
// hundred addresses serialised: 5x CuPy's time).
template <class T>
static __device__ __forceinline__ void gpy_at_shared(const int64_t* __restrict__ idx, int64_t count, int64_t n, int64_t stride, char* dst,
                                                     const T* __restrict__ v, int uniform, int op) {
    extern __shared__ gpy_u64 gpy_at_cells[];
    T* h = (T*)gpy_at_cells;
    // The block's copy starts at 0 (add) or at x itself (max/min: neutral).
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) h[i] = op == 0 ? (T)0 : *(const T*)(dst + i * stride);
    __syncthreads();
    for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < count; k += (int64_t)blockDim.x * gridDim.x) {
        const int64_t i = __ldg(idx + k);
        gpy_at_atomic_op(h + (i < 0 ? i + n : i), uniform ? v[0] : v[k], op);
    }
    __syncthreads();
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
        if (op != 0 || h[i] != (T)0) gpy_at_atomic_op((T*)(dst + i * stride), h[i], op);
}
#define GPY_AT_ATOMIC(TN, T) \
    extern "C" __global__ void gpy_at_atomic_##TN(const int64_t* idx, int64_t count, int64_t n, int64_t stride, char* dst, const T* v, int u, int op) { \
        gpy_at_atomic<T>(idx, count, n, stride, dst, v, u, op); } \
    extern "C" __global__ void gpy_at_shared_##TN(const int64_t* idx, int64_t count, int64_t n, int64_t stride, char* dst, const T* v, int u, int op) { \
        gpy_at_shared<T>(idx, count, n, stride, dst, v, u, op); }
GPY_AT_ATOMIC(i32, int) GPY_AT_ATOMIC(u32, unsigned int) GPY_AT_ATOMIC(i64, long long) GPY_AT_ATOMIC(u64, gpy_u64)
#define GPY_AT_RUNS(TN, T) \
    extern "C" __global__ void gpy_at_runs_##TN(const int64_t* targets, const int64_t* perm, int64_t count, int64_t n, int64_t stride, char* dst, const T* v, int u) { \
        gpy_at_runs<T>(targets, perm, count, n, stride, dst, v, u); }
GPY_AT_RUNS(f32, float) GPY_AT_RUNS(f64, double)

#define GPY_SCATTER(N, E) \
    extern "C" __global__ void gpy_scatter_##N##_w32(const int64_t* idx, int64_t count, int64_t n, int64_t stride, char* dst, const E* src, const int* winner, int u) { \
        gpy_scatter<E, int>(idx, count, n, stride, dst, src, winner, u); \
    } \
    extern "C" __global__ void gpy_scatter_##N##_w64(const int64_t* idx, int64_t count, int64_t n, int64_t stride, char* dst, const E* src, const long long* winner, int u) { \
        gpy_scatter<E, long long>(idx, count, n, stride, dst, src, winner, u); \
    } \
    extern "C" __global__ void gpy_scatter_bits_##N(const int64_t* idx, int64_t count, int64_t n, int64_t stride, char* dst, const E* src, unsigned* bits, unsigned* repeat) { \
        gpy_scatter_bits<E>(idx, count, n, stride, dst, src, bits, repeat); \
    }
GPY_SCATTER(1, unsigned char) GPY_SCATTER(2, unsigned short) GPY_SCATTER(4, unsigned int) GPY_SCATTER(8, gpy_u64) GPY_SCATTER(16, gpy_b16)
)CUDA";

// The word the kernels report into: pinned host memory the device writes
// (as the fused kernels' error word); one per thread, used only inside the
// synchronous calls below.
uint64_t* bad_word() {
    thread_local uint64_t* word = [] {
        void* p = nullptr;
        cuda::check(cuda::api().cuMemAllocHost(&p, sizeof(uint64_t)), "cuMemAllocHost(&p, 8)");
        return static_cast<uint64_t*>(p);
    }();
    return word;
}

}  // namespace

std::string cuda_gather_source() { return kGatherKernels; }

int64_t gather_on_device(int device, const int64_t* idx, int64_t count, const char* src, int64_t n, int64_t stride, size_t elem, char* dst) {
    if (count <= 0) return count;
    static const std::string source = cuda_gather_source();
    const std::string entry = "gpy_gather_" + std::to_string(elem);
    cuda::CUfunction fn = library_kernel(device, source, "gpy_gather", entry);
    cuda::device(device).make_current();
    uint64_t* bad = bad_word();
    *bad = uint64_t(count);
    unsigned block = 256;
    unsigned grid = unsigned(std::min<int64_t>((count + block - 1) / block, int64_t(cuda::device(device).sm_count) * 32));
    void* args[] = {&idx, &count, &src, &n, &stride, &dst, &bad};
    cuda::CUstream stream = current_stream();
    cuda::launch(fn, {grid}, {block}, 0, stream, args);
    cuda::check(cuda::api().cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
    return int64_t(std::min<uint64_t>(*bad, uint64_t(count)));
}

namespace {

// Runs a gpy_scatter_check_* kernel (`check`: its winner claims too, when
// `winner` is set) and waits: the first index outside [-n, n), or count.
int64_t first_bad_index(cuda::CUfunction check, unsigned grid, cuda::CUstream stream, const int64_t* idx, int64_t count, int64_t n,
                        void* winner) {
    uint64_t* bad = bad_word();
    *bad = uint64_t(count);
    void* args[] = {&idx, &count, &n, &bad, &winner};
    cuda::launch(check, {grid}, {256}, 0, stream, args);
    cuda::check(cuda::api().cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
    return int64_t(std::min<uint64_t>(*bad, uint64_t(count)));
}

}  // namespace

int64_t scatter_on_device(int device, const int64_t* idx, int64_t count, char* dst, int64_t n, int64_t stride, size_t elem,
                          const char* src, bool uniform) {
    if (count <= 0) return count;
    static const std::string source = cuda_gather_source();
    auto fn = [&](const std::string& name) { return library_kernel(device, source, "gpy_gather", name); };
    cuda::device(device).make_current();
    cuda::CUstream stream = current_stream();
    const unsigned block = 256;
    const unsigned grid = unsigned(std::min<int64_t>((count + block - 1) / block, int64_t(cuda::device(device).sm_count) * 32));
    const bool narrow = count < (int64_t(1) << 31);
    const std::string w = narrow ? "_w32" : "_w64";
    if (int64_t bad = first_bad_index(fn("gpy_scatter_check" + w), grid, stream, idx, count, n, nullptr); bad < count) return bad;
    BufferRef winners;
    void* winner = nullptr;
    if (!uniform && count > 1) {
        const size_t words = size_t((n + 31) / 32);
        BufferRef bits(allocate_cuda_buffer(device, (words + 1) * 4, false));  // + the repeat flag
        cuda::check(cuda::api().cuMemsetD8Async(cuda::CUdeviceptr(bits.device_bytes()), 0, (words + 1) * 4, stream), "cuMemsetD8Async(bits)");
        void* bits_p = bits.device_bytes();
        void* repeat_p = bits.device_bytes() + words * 4;
        void* write_args[] = {&idx, &count, &n, &stride, &dst, &src, &bits_p, &repeat_p};
        cuda::launch(fn("gpy_scatter_bits_" + std::to_string(elem)), {grid}, {block}, 0, stream, write_args);
        unsigned repeat = 0;
        cuda::check(cuda::api().cuMemcpyDtoHAsync(&repeat, cuda::CUdeviceptr(repeat_p), 4, stream), "cuMemcpyDtoHAsync(repeat)");
        cuda::check(cuda::api().cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
        if (!repeat) {
            note_device_work(device);
            return count;
        }
        const size_t bytes = size_t(n) * (narrow ? 4 : 8);
        winners = BufferRef(allocate_cuda_buffer(device, bytes, false));
        winner = winners.device_bytes();
        cuda::check(cuda::api().cuMemsetD8Async(cuda::CUdeviceptr(winner), 0xff, bytes, stream), "cuMemsetD8Async(winner)");
        first_bad_index(fn("gpy_scatter_check" + w), grid, stream, idx, count, n, winner);  // the claims (no bad index now)
    }
    int u = uniform || count == 1 ? 1 : 0;
    void* args[] = {&idx, &count, &n, &stride, &dst, &src, &winner, &u};
    cuda::launch(fn("gpy_scatter_" + std::to_string(elem) + w), {grid}, {block}, 0, stream, args);
    note_device_work(device);
    return count;
}

int64_t ufunc_at_on_device(int device, int op, DeviceSearchType type, const int64_t* idx, int64_t count, char* dst, int64_t n,
                           int64_t stride, const void* values, bool uniform) {
    if (count <= 0) return count;
    static const std::string source = cuda_gather_source();
    auto fn = [&](const std::string& name) { return library_kernel(device, source, "gpy_gather", name); };
    cuda::device(device).make_current();
    cuda::CUstream stream = current_stream();
    const unsigned block = 256;
    const unsigned grid = unsigned(std::min<int64_t>((count + block - 1) / block, int64_t(cuda::device(device).sm_count) * 32));
    if (int64_t bad = first_bad_index(fn("gpy_scatter_check_w64"), grid, stream, idx, count, n, nullptr); bad < count) return bad;
    int u = uniform;
    if (type == DeviceSearchType::Float || type == DeviceSearchType::Double) {
        // Sorted targets (CSR rows) are read as the indices themselves; others
        // are made non-negative and sorted, stably (NumPy's order in a run).
        BufferRef perm, targets;
        const int64_t* targets_p = idx;
        int64_t* perm_p = nullptr;
        uint64_t* unsorted = bad_word();
        *unsorted = 0;
        int64_t* no_targets = nullptr;
        void* check_args[] = {&idx, &count, &n, &no_targets, &unsorted};
        cuda::launch(fn("gpy_at_targets"), {grid}, {block}, 0, stream, check_args);
        cuda::check(cuda::api().cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
        if (*unsorted) {
            perm = BufferRef(allocate_cuda_buffer(device, size_t(count) * 8, false));
            targets = BufferRef(allocate_cuda_buffer(device, size_t(count) * 8, false));
            perm_p = reinterpret_cast<int64_t*>(perm.device_bytes());
            int64_t* made = reinterpret_cast<int64_t*>(targets.device_bytes());
            void* target_args[] = {&idx, &count, &n, &made, &unsorted};
            cuda::launch(fn("gpy_at_targets"), {grid}, {block}, 0, stream, target_args);
            sort_on_device(device, DeviceSearchType::Int64, made, 1, count, nullptr, perm_p);
            targets_p = made;
        }
        void* args[] = {&targets_p, &perm_p, &count, &n, &stride, &dst, const_cast<void**>(&values), &u};
        cuda::launch(fn(type == DeviceSearchType::Float ? "gpy_at_runs_f32" : "gpy_at_runs_f64"), {grid}, {block}, 0, stream, args);
    } else {
        const char* tn = type == DeviceSearchType::Int32 ? "i32" : type == DeviceSearchType::UInt32 ? "u32" : type == DeviceSearchType::Int64 ? "i64" : "u64";
        const bool wide = type == DeviceSearchType::Int64 || type == DeviceSearchType::UInt64;
        const size_t cells = size_t(n) * (wide ? 8 : 4);
        void* args[] = {&idx, &count, &n, &stride, &dst, const_cast<void**>(&values), &u, &op};
        if (cells <= 32768 && count >= 8 * n) {  // a block-private copy pays off
            const unsigned blocks = unsigned(std::min<int64_t>((count + block - 1) / block, int64_t(cuda::device(device).sm_count) * 4));
            cuda::launch(fn(std::string("gpy_at_shared_") + tn), {blocks}, {block}, unsigned(cells), stream, args);
        } else {
            cuda::launch(fn(std::string("gpy_at_atomic_") + tn), {grid}, {block}, 0, stream, args);
        }
    }
    note_device_work(device);
    return count;
}

}  // namespace gpy
