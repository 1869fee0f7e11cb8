// The device gather, arange-fill, scan and histogram kernels (runtime/gather_cuda.cpp,
// runtime/fill_cuda.cpp, runtime/scan_cuda.cpp): they compile with NVRTC for every shadow
// architecture (no GPU needed), and on a GPU they gather every element size
// and report the first bad index, and fill as the host's loop does.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>
#include <vector>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/fill_cuda.h"
#include "runtime/histogram_cuda.h"
#include "runtime/kth_cuda.h"
#include "runtime/scan_cuda.h"
#include "runtime/search_cuda.h"
#include "runtime/select_cuda.h"
#include "runtime/sort_cuda.h"
#include "runtime/gather_cuda.h"
#include "runtime/nvrtc.h"
#include "runtime/nvrtc_shadow.h"

using namespace gpy;

TEST_CASE("library kernels: each CUDA source compiles for the shadow architectures", "[nvrtc]") {
    std::string why;
    if (!nvrtc::available(&why)) {
        WARN("NVRTC unavailable: " << why);
        return;
    }
    for (const char* arch : kShadowArchs) {
        if (!shadow_arch_wanted(arch)) continue;  // CI's fast set: sm_90 (a minute for both)
        INFO(arch);
        try {
            CHECK(nvrtc::compile(cuda_gather_source(), "gpy_gather.cu", arch).size() > 0);
            CHECK(nvrtc::compile(cuda_range_fill_source(), "gpy_range_fill.cu", arch).size() > 0);
            CHECK(nvrtc::compile(cuda_scan_source(), "gpy_scan.cu", arch).size() > 0);
            CHECK(nvrtc::compile(cuda_search_source(), "gpy_search.cu", arch).size() > 0);
            CHECK(nvrtc::compile(cuda_histogram_source(), "gpy_histogram.cu", arch).size() > 0);
            CHECK(nvrtc::compile(cuda_sort_source(), "gpy_sort.cu", arch).size() > 0);
            CHECK(nvrtc::compile(cuda_select_source(), "gpy_select.cu", arch).size() > 0);
            CHECK(nvrtc::compile(cuda_kth_source(), "gpy_kth.cu", arch).size() > 0);
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
        auto dix = [&] { return reinterpret_cast<const int64_t*>(idx.device_read_bytes()); };
        int64_t bad = gather_on_device(0, dix(), count, reinterpret_cast<const char*>(src.device_bytes()), n, int64_t(2 * elem), elem,
                                       reinterpret_cast<char*>(dst.device_bytes()));
        CHECK(bad == count);
        int wrong = 0;
        for (int64_t k = 0; k < count; ++k) {
            int64_t j = ix[k] < 0 ? ix[k] + n : ix[k];
            wrong += std::memcmp(dst.bytes() + k * int64_t(elem), src.bytes() + j * int64_t(2 * elem), elem) != 0;
        }
        CHECK(wrong == 0);
        ix = reinterpret_cast<int64_t*>(idx.bytes());
        ix[4000] = n;
        ix[1234] = -n - 1;
        ix[4999] = 1 << 30;
        CHECK(gather_on_device(0, dix(), count, reinterpret_cast<const char*>(src.device_bytes()), n, int64_t(2 * elem), elem,
                               reinterpret_cast<char*>(dst.device_bytes())) == 1234);
    }
}

TEST_CASE("range fill: the GPU fills as the host's loop", "[gpu]") {
    std::string why;
    if (cuda::device_count(&why) == 0) {
        WARN("skipped: no GPU (" << why << ")");
        return;
    }
    const int64_t n = 100003;
    BufferRef out(allocate_cuda_buffer(0, size_t(n) * 16, false));
    {   // int16 wraps in 64-bit unsigned arithmetic
        int16_t first[2] = {-7, 5};
        range_fill_on_device(0, RangeFill::Int16, first, n, out.device_bytes());
        auto* p = reinterpret_cast<const int16_t*>(out.bytes());
        int wrong = 0;
        for (int64_t i = 0; i < n; ++i) wrong += p[i] != int16_t(uint16_t(uint64_t(uint16_t(-7)) + uint64_t(i) * 12u));
        CHECK(wrong == 0);
    }
    {   // double: start + i * delta, no fused multiply-add; elements 0 and 1 as stored
        double first[2] = {0.1, 0.1 + 1.0 / 3};
        range_fill_on_device(0, RangeFill::Double, first, n, out.device_bytes());
        auto* p = reinterpret_cast<const double*>(out.bytes());
        volatile double delta = first[1] - first[0];
        int wrong = 0;
        for (int64_t i = 2; i < n; ++i) {
            volatile double prod = double(i) * delta;
            wrong += p[i] != first[0] + prod;
        }
        CHECK(wrong == 0);
        CHECK(p[0] == first[0]);
        CHECK(p[1] == first[1]);
    }
    {   // complex64: the parts fill apart
        float first[4] = {1.5f, -2.0f, 1.75f, -1.0f};
        range_fill_on_device(0, RangeFill::ComplexFloat, first, n, out.device_bytes());
        auto* p = reinterpret_cast<const float*>(out.bytes());
        CHECK(p[2 * 1000] == 1.5f + 1000.0f * 0.25f);
        CHECK(p[2 * 1000 + 1] == -2.0f + 1000.0f * 1.0f);
    }
}

TEST_CASE("scan: the GPU's running sums, products, maxima and minima", "[gpu]") {
    std::string why;
    if (cuda::device_count(&why) == 0) {
        WARN("skipped: no GPU (" << why << ")");
        return;
    }
    // Rows of 1, 255, 4097 and 100003 (chains, and tiles with a partial last
    // chunk), and a block scanned across rows (inner 3).
    for (auto [outer, len, inner] : {std::tuple<int64_t, int64_t, int64_t>{3, 1, 1}, {5, 255, 1}, {2, 4097, 1}, {1, 100003, 1}, {4, 1000, 3}}) {
        INFO(outer << " x " << len << " x " << inner);
        const int64_t n = outer * len * inner;
        BufferRef buf(allocate_cuda_buffer(0, size_t(n) * 8, false));
        std::vector<int64_t> x(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) x[size_t(k)] = (k * 7919) % 2001 - 1000;
        for (DeviceScanOp op : {DeviceScanOp::Sum, DeviceScanOp::Prod, DeviceScanOp::Max, DeviceScanOp::Min}) {
            std::memcpy(buf.bytes(), x.data(), size_t(n) * 8);
            scan_on_device(0, op, DeviceScanType::Int64, buf.device_bytes(), buf.device_bytes(), outer, len, inner);
            const auto* got = reinterpret_cast<const int64_t*>(buf.bytes());
            std::vector<int64_t> want = x;
            for (int64_t o = 0; o < outer; ++o)
                for (int64_t i = 0; i < inner; ++i)
                    for (int64_t k = 1; k < len; ++k) {
                        int64_t& w = want[size_t((o * len + k) * inner + i)];
                        int64_t p = want[size_t((o * len + k - 1) * inner + i)];
                        w = op == DeviceScanOp::Sum    ? int64_t(uint64_t(p) + uint64_t(w))
                            : op == DeviceScanOp::Prod ? int64_t(uint64_t(p) * uint64_t(w))
                            : op == DeviceScanOp::Max  ? std::max(p, w)
                                                       : std::min(p, w);
                    }
            int wrong = 0;
            for (int64_t k = 0; k < n; ++k) wrong += got[k] != want[size_t(k)];
            CHECK(wrong == 0);
        }
    }
    // float64 rows up to 2^16: NumPy's sequential sums, bit for bit.
    {
        const int64_t rows = 5, len = 3001;
        BufferRef rb(allocate_cuda_buffer(0, size_t(rows * len) * 8, false));
        auto* d = reinterpret_cast<double*>(rb.bytes());
        for (int64_t k = 0; k < rows * len; ++k) d[k] = 0.1 * double((k * 7919) % 1000);
        std::vector<double> want(d, d + rows * len);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t k = 1; k < len; ++k) want[size_t(r * len + k)] += want[size_t(r * len + k - 1)];
        scan_on_device(0, DeviceScanOp::Sum, DeviceScanType::Double, rb.device_bytes(), rb.device_bytes(), rows, len, 1);
        const auto* g = reinterpret_cast<const double*>(rb.bytes());
        int wrong = 0;
        for (int64_t k = 0; k < rows * len; ++k) wrong += g[k] != want[size_t(k)];
        CHECK(wrong == 0);
    }
    // float32 sums of a long row (tiles): within float rounding of the sequential sum.
    const int64_t n = 1 << 20;
    BufferRef buf(allocate_cuda_buffer(0, size_t(n) * 4, false));
    auto* f = reinterpret_cast<float*>(buf.bytes());
    for (int64_t k = 0; k < n; ++k) f[k] = float((k * 7919) % 1000) * 0.001f;
    scan_on_device(0, DeviceScanOp::Sum, DeviceScanType::Float, buf.device_bytes(), buf.device_bytes(), 1, n, 1);
    const auto* g = reinterpret_cast<const float*>(buf.bytes());
    double exact = 0;
    int far = 0;
    for (int64_t k = 0; k < n; ++k) {
        exact += double(float((k * 7919) % 1000) * 0.001f);
        far += std::abs(double(g[k]) - exact) > 1e-5 * std::max(1.0, exact);
    }
    CHECK(far == 0);
}

TEST_CASE("scan: the look-back scan reads one buffer and writes another", "[gpu]") {
    std::string why;
    if (cuda::device_count(&why) == 0) {
        WARN("skipped: no GPU (" << why << ")");
        return;
    }
    // Rows of many tiles (4096 elements a tile): windows of the look-back
    // past 32 tiles, a partial last tile, rows that must not see each other.
    for (auto [outer, len] : {std::pair<int64_t, int64_t>{1, 5000011}, {3, 300007}, {7, 4096}}) {
        INFO(outer << " x " << len);
        const int64_t n = outer * len;
        BufferRef in(allocate_cuda_buffer(0, size_t(n) * 4, false)), out(allocate_cuda_buffer(0, size_t(n) * 4, false));
        auto* x = reinterpret_cast<int32_t*>(in.bytes());
        for (int64_t k = 0; k < n; ++k) x[k] = int32_t((k * 7919) % 2001 - 1000);
        for (DeviceScanOp op : {DeviceScanOp::Sum, DeviceScanOp::Max}) {
            scan_on_device(0, op, DeviceScanType::Int32, in.device_read_bytes(), out.device_bytes(), outer, len, 1);
            const auto* got = reinterpret_cast<const int32_t*>(out.bytes());
            const auto* src = reinterpret_cast<const int32_t*>(in.bytes());
            int wrong = 0;
            for (int64_t r = 0; r < outer; ++r) {
                int32_t acc = src[r * len];
                for (int64_t k = 0; k < len; ++k) {
                    const int32_t v = src[r * len + k];
                    if (k > 0) acc = op == DeviceScanOp::Sum ? int32_t(uint32_t(acc) + uint32_t(v)) : std::max(acc, v);
                    wrong += got[r * len + k] != acc;
                }
            }
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("kth: the GPU's radix select finds each rank as a sorted copy", "[gpu]") {
    std::string why;
    if (cuda::device_count(&why) == 0) {
        WARN("skipped: no GPU (" << why << ")");
        return;
    }
    // Ranks at the ends, adjacent ranks, more ranks than one group (12, or 6
    // for 64-bit keys), repeats (values mod 1001) and negative values.
    const int64_t n = 300007;
    std::vector<int64_t> ranks{0, 1, n / 2 - 1, n / 2, n - 2, n - 1};
    for (int64_t k = 0; k < 14; ++k) ranks.push_back((k * 21911) % n);
    auto run = [&](DeviceSearchType type, auto zero) {
        using T = decltype(zero);
        INFO(device_type_suffix(type));
        BufferRef in(allocate_cuda_buffer(0, size_t(n) * sizeof(T), false));
        auto* x = reinterpret_cast<T*>(in.bytes());
        for (int64_t k = 0; k < n; ++k) x[k] = T((k * 7919) % 1001) - T(std::is_signed_v<T> ? 500 : 0) + T(k % 3) / T(4);
        std::vector<T> sorted(x, x + n);
        std::sort(sorted.begin(), sorted.end());
        std::vector<T> got(ranks.size());
        KthResult r = kth_on_device(0, type, in.device_read_bytes(), n, ranks.data(), int(ranks.size()), got.data());
        CHECK(!r.nan);
        CHECK(!r.negative_zero);
        for (size_t i = 0; i < ranks.size(); ++i) {
            INFO("rank " << ranks[i]);
            CHECK(got[i] == sorted[size_t(ranks[i])]);
        }
    };
    run(DeviceSearchType::Float, 0.0f);
    run(DeviceSearchType::Double, 0.0);
    run(DeviceSearchType::Int16, int16_t(0));
    run(DeviceSearchType::UInt16, uint16_t(0));
    run(DeviceSearchType::Int32, int32_t(0));
    run(DeviceSearchType::Int64, int64_t(0));
    run(DeviceSearchType::UInt64, uint64_t(0));
}
