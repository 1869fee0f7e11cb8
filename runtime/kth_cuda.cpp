#include "runtime/kth_cuda.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"
#include "runtime/sort_cuda.h"

namespace gpy {

namespace {

constexpr int kThreads = 256;
constexpr int kMaxRanks = 12;    // ranks selected together (a histogram each after the first digit)
constexpr int kMaxDigit = 12;    // bits of the first digit (one histogram for every rank)
constexpr int kSharedCounters = 12288;  // 48 KiB of shared memory a block
constexpr int kState = 48;       // [0,12) prefixes, [12,24) ranks left, [24] flags, [32,44) values

// The state lives in device memory, so passes follow one another on the
// stream without the host: st[r] is rank r's key prefix found so far (the
// digits above the current one), st[12 + r] its rank among the elements
// under that prefix. The first digit's histogram is the same for every
// rank (no prefix yet): counted once, kept for each group of ranks.
const char* kKthKernels = R"CUDA(
#define GPY_KTH_MAX 12

struct gpy_kth_ranks { gpy_u64 k[GPY_KTH_MAX]; };
extern "C" __global__ void gpy_kth_init(gpy_u64* st, gpy_kth_ranks ranks) {
    const int r = threadIdx.x;
    if (r < GPY_KTH_MAX) {
        st[r] = 0;
        st[GPY_KTH_MAX + r] = ranks.k[r];
    }
}

// Counts digit (key >> shift) & (2^width - 1) of the elements whose key
// matches each rank's prefix above the digit (ranks histograms; the first
// pass counts one, for all, and flags -0.0 (1) and NaN (2) in st[24]).
template <class T>
static __device__ __forceinline__ void gpy_kth_count(const T* __restrict__ x, gpy_u64 n, gpy_u64* st, int ranks, int shift, int width,
                                                     gpy_u64* __restrict__ hist, int first) {
    extern __shared__ unsigned gpy_kth_h[];
    const int nb = 1 << width;
    for (int j = threadIdx.x; j < ranks * nb; j += blockDim.x) gpy_kth_h[j] = 0u;
    const gpy_u64 hi = shift + width >= 64 ? 0ull : ~0ull << (shift + width);
    gpy_u64 p[GPY_KTH_MAX];
    #pragma unroll
    for (int r = 0; r < GPY_KTH_MAX; ++r) p[r] = r < ranks ? st[r] : 0;
    __syncthreads();
    bool negzero = false, nan = false;
    const gpy_u64 stride = (gpy_u64)blockDim.x * gridDim.x;
    for (gpy_u64 i = blockIdx.x * (gpy_u64)blockDim.x + threadIdx.x; i < n; i += stride) {
        const T v = x[i];
        const gpy_u64 k = (gpy_u64)gpy_key<T>::key(v);
        const unsigned d = (unsigned)(k >> shift) & (unsigned)(nb - 1);
        if (first) {
            if (gpy_key<T>::special(v)) {
                negzero |= v == T(0) && gpy_sign_bit<T>(v);  // (gpy_sign_bit: the sort's keys text)
                nan |= v != v;
            }
            atomicAdd(&gpy_kth_h[d], 1u);
            continue;
        }
        #pragma unroll
        for (int r = 0; r < GPY_KTH_MAX; ++r)
            if (r < ranks && ((k ^ p[r]) & hi) == 0) atomicAdd(&gpy_kth_h[r * nb + d], 1u);
    }
    if (first) {
        negzero = __any_sync(0xffffffffu, negzero);
        nan = __any_sync(0xffffffffu, nan);
        if ((threadIdx.x & 31) == 0 && (negzero || nan)) atomicOr(st + 2 * GPY_KTH_MAX, (negzero ? 1ull : 0ull) | (nan ? 2ull : 0ull));
    }
    __syncthreads();
    for (int j = threadIdx.x; j < ranks * nb; j += blockDim.x)
        if (gpy_kth_h[j]) atomicAdd(hist + j, (gpy_u64)gpy_kth_h[j]);
}

// A block per rank: finds the digit whose run of counts holds the rank and
// appends it to the prefix; `shared`: every rank reads the one histogram
// (the first digit's, kept), else each its own, zeroed for the next pass.
extern "C" __global__ void gpy_kth_pick(gpy_u64* st, int shift, int width, gpy_u64* hist, int shared) {
    __shared__ gpy_u64 sums[256];
    const int r = blockIdx.x, t = threadIdx.x, nb = 1 << width;
    const int per = (nb + 255) / 256, lo = min(nb, t * per), end = min(nb, lo + per);
    gpy_u64* h = hist + (shared ? 0 : (gpy_u64)r * nb);
    const gpy_u64 want = st[GPY_KTH_MAX + r];
    gpy_u64 own = 0;
    for (int j = lo; j < end; ++j) own += h[j];
    sums[t] = own;
    __syncthreads();
    for (int o = 1; o < 256; o <<= 1) {  // inclusive scan
        const gpy_u64 add = t >= o ? sums[t - o] : 0;
        __syncthreads();
        sums[t] += add;
        __syncthreads();
    }
    gpy_u64 c = sums[t] - own;
    if (c <= want && want < sums[t]) {
        for (int j = lo; j < end; ++j) {
            if (want < c + h[j]) {
                st[r] |= (gpy_u64)j << shift;
                st[GPY_KTH_MAX + r] = want - c;
                break;
            }
            c += h[j];
        }
    }
    if (!shared)
        for (int j = lo; j < end; ++j) h[j] = 0;
}

// st[32 + r] = the bits of the element of rank r (its key mapped back).
template <class T>
static __device__ __forceinline__ void gpy_kth_value(gpy_u64* st, int ranks) {
    const int r = threadIdx.x;
    if (r >= ranks) return;
    const T v = gpy_key<T>::value((typename gpy_key<T>::K)st[r]);
    gpy_u64 bits = 0;
    *reinterpret_cast<T*>(&bits) = v;  // the low bytes (little-endian, as the host reads them)
    st[32 + r] = bits;
}

#define GPY_KTH(TN, T) \
    extern "C" __global__ void gpy_kth_count_##TN(const T* x, gpy_u64 n, gpy_u64* st, int ranks, int shift, int width, gpy_u64* hist, int first) { \
        gpy_kth_count<T>(x, n, st, ranks, shift, width, hist, first); } \
    extern "C" __global__ void gpy_kth_value_##TN(gpy_u64* st, int ranks) { gpy_kth_value<T>(st, ranks); }
GPY_KTH(i8, signed char) GPY_KTH(u8, unsigned char) GPY_KTH(i16, short) GPY_KTH(u16, unsigned short)
GPY_KTH(i32, int) GPY_KTH(u32, gpy_u32) GPY_KTH(i64, gpy_i64) GPY_KTH(u64, gpy_u64)
GPY_KTH(f32, float) GPY_KTH(f64, double)
)CUDA";

// The digits, most significant first, as (shift, width): a first digit of
// up to 12 bits, then the rest in digits of at most 11 bits as even as can be.
std::vector<std::pair<int, int>> digits_of(int key_bits) {
    std::vector<std::pair<int, int>> out;
    const int first = std::min(kMaxDigit, key_bits);
    int shift = key_bits - first;
    out.push_back({shift, first});
    const int passes = (shift + 10) / 11;
    for (int p = 0; p < passes; ++p) {
        const int width = shift / (passes - p) + (shift % (passes - p) ? 1 : 0);
        shift -= width;
        out.push_back({shift, width});
    }
    return out;
}

}  // namespace

std::string cuda_kth_source() { return cuda_sort_keys_source() + kKthKernels; }

KthResult kth_on_device(int device, DeviceSearchType type, const void* x, int64_t n, const int64_t* ranks, int count, void* out) {
    static const std::string source = cuda_kth_source();
    auto fn = [&](const std::string& name) { return library_kernel(device, source, "gpy_kth", name); };
    const std::string tn = device_type_suffix(type);
    const size_t size = device_type_size(type);
    const int key_bits = type == DeviceSearchType::Float ? 32 : int(size) * 8;
    const std::vector<std::pair<int, int>> digits = digits_of(key_bits);
    int widest = 0;  // of the digits after the first: how many ranks' histograms fit in shared memory
    for (size_t p = 1; p < digits.size(); ++p) widest = std::max(widest, digits[p].second);
    const int per_group = std::min(kMaxRanks, kSharedCounters >> widest);
    cuda::device(device).make_current();
    cuda::CUstream stream = current_stream();
    const size_t first_words = size_t(1) << kMaxDigit, hist_words = size_t(kSharedCounters);
    BufferRef scratch(allocate_cuda_buffer(device, (kState + first_words + hist_words) * 8, false));
    uint64_t* st = reinterpret_cast<uint64_t*>(scratch.device_bytes());
    uint64_t* first_hist = st + kState;
    uint64_t* hist = first_hist + first_words;
    cuda::check(cuda::api().cuMemsetD8Async(cuda::CUdeviceptr(st), 0, (kState + first_words + hist_words) * 8, stream),
                "cuMemsetD8Async(kth state)");
    const int64_t sms = cuda::device(device).sm_count;
    const unsigned grid = unsigned(std::max<int64_t>(1, std::min<int64_t>((n + kThreads * 8 - 1) / (kThreads * 8), sms * 4)));
    const uint64_t un = uint64_t(n);
    auto count_pass = [&](int hists, int shift, int width, uint64_t* into, int first) {
        void* args[] = {&x, const_cast<uint64_t*>(&un), &st, &hists, &shift, &width, &into, &first};
        cuda::launch(fn("gpy_kth_count_" + tn), {grid}, {unsigned(kThreads)}, unsigned(hists * 4) << width, stream, args);
    };
    auto pick = [&](int group, int shift, int width, uint64_t* from, int shared) {
        void* args[] = {&st, &shift, &width, &from, &shared};
        cuda::launch(fn("gpy_kth_pick"), {unsigned(group)}, {256}, 0, stream, args);
    };
    count_pass(1, digits[0].first, digits[0].second, first_hist, 1);
    KthResult result;
    for (int g = 0; g < count; g += per_group) {
        int group = std::min(per_group, count - g);
        struct { uint64_t k[kMaxRanks]; } k{};
        for (int i = 0; i < group; ++i) k.k[i] = uint64_t(ranks[g + i]);
        void* init_args[] = {&st, &k};
        cuda::launch(fn("gpy_kth_init"), {1}, {32}, 0, stream, init_args);
        pick(group, digits[0].first, digits[0].second, first_hist, 1);
        for (size_t p = 1; p < digits.size(); ++p) {
            count_pass(group, digits[p].first, digits[p].second, hist, 0);
            pick(group, digits[p].first, digits[p].second, hist, 0);
        }
        void* value_args[] = {&st, &group};
        cuda::launch(fn("gpy_kth_value_" + tn), {1}, {32}, 0, stream, value_args);
        uint64_t words[kState];
        cuda::check(cuda::api().cuMemcpyDtoHAsync(words, cuda::CUdeviceptr(st), sizeof words, stream), "cuMemcpyDtoHAsync(kth state)");
        cuda::check(cuda::api().cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
        result.negative_zero = words[24] & 1;
        result.nan = words[24] & 2;
        for (int i = 0; i < group; ++i) std::memcpy(static_cast<char*>(out) + size_t(g + i) * size, &words[32 + i], size);
    }
    return result;
}

}  // namespace gpy
