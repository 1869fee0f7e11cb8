#include "runtime/gather_cuda.h"

#include <algorithm>

#include "runtime/cuda_backend.h"
#include "runtime/cuda_memory.h"

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
)CUDA";

// The word the kernels report into: pinned host memory the device writes
// (as the fused kernels' error word); one per thread, used only inside the
// synchronous call below.
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

}  // namespace gpy
