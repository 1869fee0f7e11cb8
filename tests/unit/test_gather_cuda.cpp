// The device gather kernels (runtime/gather_cuda.cpp): they compile with
// NVRTC for every shadow architecture (no GPU needed), and on a GPU they
// gather every element size and report the first bad index.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/gather_cuda.h"
#include "runtime/nvrtc.h"
#include "runtime/nvrtc_shadow.h"

using namespace gpy;

TEST_CASE("gather: the CUDA source compiles for every architecture", "[nvrtc]") {
    std::string why;
    if (!nvrtc::available(&why)) {
        WARN("NVRTC unavailable: " << why);
        return;
    }
    for (const char* arch : kShadowArchs) {
        INFO(arch);
        try {
            CHECK(nvrtc::compile(cuda_gather_source(), "gpy_gather.cu", arch).size() > 0);
        } catch (const nvrtc::CompileError& e) {
            FAIL(e.what() << "\n" << e.log);
        }
    }
}

TEST_CASE("gather: the GPU gathers every element size through its indices", "[gpu]") {
    std::string why;
    if (cuda::device_count(&why) == 0) {
        WARN("skipped: no GPU (" << why << ")");
        return;
    }
    const int64_t n = 1000, count = 5000;
    for (size_t elem : {1, 2, 4, 8, 16}) {
        INFO(elem);
        BufferRef src(allocate_cuda_buffer(0, size_t(n) * elem * 2, false));
        BufferRef idx(allocate_cuda_buffer(0, size_t(count) * 8, false));
        BufferRef dst(allocate_cuda_buffer(0, size_t(count) * elem, false));
        for (size_t b = 0; b < size_t(n) * elem * 2; ++b) src.bytes()[b] = uint8_t(b * 7 + 3);
        auto* ix = reinterpret_cast<int64_t*>(idx.bytes());
        for (int64_t k = 0; k < count; ++k) ix[k] = (k * 7919) % (2 * n) - n;  // negative ones too
        // Every other element of the source (byte stride 2 * elem).
        int64_t bad = gather_on_device(0, ix, count, reinterpret_cast<const char*>(src.device_bytes()), n, int64_t(2 * elem), elem,
                                       reinterpret_cast<char*>(dst.device_bytes()));
        CHECK(bad == count);
        int wrong = 0;
        for (int64_t k = 0; k < count; ++k) {
            int64_t j = ix[k] < 0 ? ix[k] + n : ix[k];
            wrong += std::memcmp(dst.bytes() + k * int64_t(elem), src.bytes() + j * int64_t(2 * elem), elem) != 0;
        }
        CHECK(wrong == 0);
        ix[4000] = n;
        ix[1234] = -n - 1;
        ix[4999] = 1 << 30;
        CHECK(gather_on_device(0, ix, count, reinterpret_cast<const char*>(src.device_bytes()), n, int64_t(2 * elem), elem,
                               reinterpret_cast<char*>(dst.device_bytes())) == 1234);
    }
}
