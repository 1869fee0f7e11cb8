// The CUDA driver layer (runtime/cuda_driver) and the device pool on a real
// GPU. Cases tagged [gpu] skip with a warning where no GPU is usable; on the
// GPU machine tests/gpu/run.sh runs them.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/device_pool.h"
#include "runtime/nvrtc.h"

namespace cuda = gpy::cuda;

namespace {

// Binds device 0's context to this thread; false (with a warning) without a GPU.
bool use_gpu() {
    std::string why;
    if (cuda::device_count(&why) == 0) {
        WARN("skipped: " << why);
        return false;
    }
    cuda::device(0).make_current();
    return true;
}

// Hand-written PTX (the driver JIT-compiles it for the device): add_one adds
// 1 to n floats; spin busy-waits `cycles` clock ticks, to keep a stream busy.
const char* kPtx = R"(
.version 7.0
.target sm_50
.address_size 64

.visible .entry add_one(.param .u64 p_data, .param .u32 p_n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<3>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [p_data];
    ld.param.u32 %r1, [p_n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.f32 %f1, [%rd4];
    add.f32 %f2, %f1, 0f3F800000;
    st.global.f32 [%rd4], %f2;
DONE:
    ret;
}

.visible .entry spin(.param .u64 p_cycles)
{
    .reg .pred %p<2>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [p_cycles];
    mov.u64 %rd2, %clock64;
LOOP:
    mov.u64 %rd3, %clock64;
    sub.s64 %rd4, %rd3, %rd2;
    setp.lt.s64 %p1, %rd4, %rd1;
    @%p1 bra LOOP;
    ret;
}
)";

cuda::StreamKey key(const cuda::Stream& s) { return s.handle(); }

// Runs add_one over n floats at `data` on `s`, with the occupancy block size.
void add_one(cuda::CUfunction fn, uintptr_t data, unsigned n, const cuda::Stream& s) {
    cuda::LaunchShape shape = cuda::occupancy_shape(fn);
    REQUIRE(shape.block > 0);
    unsigned block = unsigned(shape.block);
    cuda::CUdeviceptr p = data;
    void* args[] = {&p, &n};
    cuda::launch(fn, {(n + block - 1) / block}, {block}, 0, s.handle(), args);
}

// Copies n floats up (through a pinned staging block), runs add_one, copies
// them down, and checks the result.
void check_add_one(cuda::CUfunction fn, const cuda::Stream& s) {
    const unsigned n = 100000;
    cuda::BlockPool& dev = cuda::device_pool(0);
    cuda::BlockPool& pinned = cuda::pinned_pool();
    uintptr_t host = pinned.allocate(n * sizeof(float), cuda::kHostStream);
    float* h = reinterpret_cast<float*>(host);
    for (unsigned i = 0; i < n; ++i) h[i] = float(i);
    uintptr_t d = dev.allocate(n * sizeof(float), key(s));
    GPY_CU(cuMemcpyHtoDAsync(d, h, n * sizeof(float), s.handle()));
    add_one(fn, d, n, s);
    GPY_CU(cuMemcpyDtoHAsync(h, d, n * sizeof(float), s.handle()));
    s.synchronize();
    bool ok = true;
    for (unsigned i = 0; i < n; ++i) ok = ok && h[i] == float(i) + 1.0f;
    CHECK(ok);
    dev.free(d);
    pinned.free(host, key(s));
}

}  // namespace

TEST_CASE("cuda driver: the loader says why when there is no GPU", "[cuda_driver]") {
    std::string why;
    int n = cuda::device_count(&why);
    if (n == 0) {
        CHECK(!why.empty());
        CHECK(cuda::try_api() == nullptr);
        CHECK_THROWS_AS(cuda::api(), cuda::Error);
        CHECK_THROWS_AS(cuda::device(0), cuda::Error);
    } else {
        CHECK(cuda::try_api() != nullptr);
        CHECK_THROWS_AS(cuda::device(n), cuda::Error);
    }
}

TEST_CASE("cuda driver: device properties", "[gpu]") {
    if (!use_gpu()) return;
    const cuda::Device& d = cuda::device(0);
    INFO(d.name << " " << d.arch() << " SMs " << d.sm_count);
    CHECK(!d.name.empty());
    CHECK(d.cc_major >= 5);
    CHECK(d.sm_count > 0);
    CHECK(d.arch() == "sm_" + std::to_string(d.cc_major * 10 + d.cc_minor));
    size_t free_b = 0, total_b = 0;
    GPY_CU(cuMemGetInfo(&free_b, &total_b));
    CHECK(total_b == d.total_memory);
    CHECK(free_b <= total_b);
    CHECK(&cuda::device(0) == &d);  // one context per device, created once
    d.synchronize();
}

TEST_CASE("cuda driver: errors name the CUDA error and the call", "[gpu]") {
    if (!use_gpu()) return;
    try {
        cuda::module_from_cubin("this is neither a cubin nor PTX");
        FAIL("no cuda::Error");
    } catch (const cuda::Error& e) {
        std::string what = e.what();
        CHECK(e.code != cuda::CUDA_SUCCESS);
        CHECK(what.rfind("CUDA_ERROR_", 0) == 0);
        CHECK(what.find(" in cuModuleLoadData(") != std::string::npos);
    }
}

TEST_CASE("cuda driver: memcpy round trip and memset through the pools", "[gpu]") {
    if (!use_gpu()) return;
    cuda::Stream s;
    cuda::BlockPool& dev = cuda::device_pool(0);
    cuda::BlockPool& pinned = cuda::pinned_pool();
    const size_t n = 3 * 1024 * 1024 + 17;  // not a multiple of 512
    uintptr_t up = pinned.allocate(n, cuda::kHostStream), down = pinned.allocate(n, cuda::kHostStream);
    auto* u = reinterpret_cast<unsigned char*>(up);
    auto* w = reinterpret_cast<unsigned char*>(down);
    for (size_t i = 0; i < n; ++i) u[i] = static_cast<unsigned char>(i * 7 + 3);
    uintptr_t a = dev.allocate(n, key(s)), b = dev.allocate(n, key(s));
    CHECK(dev.used_bytes() >= 2 * cuda::BlockPool::round_size(n));
    GPY_CU(cuMemcpyHtoDAsync(a, u, n, s.handle()));
    GPY_CU(cuMemcpyDtoDAsync(b, a, n, s.handle()));
    GPY_CU(cuMemcpyDtoHAsync(w, b, n, s.handle()));
    s.synchronize();
    CHECK(std::memcmp(u, w, n) == 0);
    GPY_CU(cuMemsetD8Async(b, 0xab, n, s.handle()));
    GPY_CU(cuMemcpyDtoHAsync(w, b, n, s.handle()));
    s.synchronize();
    CHECK((w[0] == 0xab && w[n / 2] == 0xab && w[n - 1] == 0xab));
    dev.free(a);
    dev.free(b);
    pinned.free(up, key(s));
    pinned.free(down, key(s));
    dev.retire_stream(key(s));
    pinned.retire_stream(key(s));
}

TEST_CASE("cuda driver: a PTX kernel loads and runs", "[gpu]") {
    if (!use_gpu()) return;
    auto m = cuda::module_from_cubin(kPtx);
    cuda::Stream s(true);
    check_add_one(m->function("add_one"), s);
    CHECK_THROWS_AS(m->function("no_such_kernel"), cuda::Error);
    cuda::device_pool(0).retire_stream(key(s));
    cuda::pinned_pool().retire_stream(key(s));
}

TEST_CASE("cuda driver: an NVRTC cubin loads and runs", "[gpu]") {
    if (!use_gpu()) return;
    std::string why;
    if (!gpy::nvrtc::available(&why)) {
        WARN("skipped: " << why);
        return;
    }
    const char* src = R"(extern "C" __global__ void add_one(float* x, unsigned n) {
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] += 1.0f;
    })";
    std::string cubin = gpy::nvrtc::compile(src, "add_one.cu", cuda::device(0).arch());
    auto m = cuda::module_from_cubin(cubin);
    cuda::Stream s;
    check_add_one(m->function("add_one"), s);
    cuda::device_pool(0).retire_stream(key(s));
    cuda::pinned_pool().retire_stream(key(s));
}

TEST_CASE("cuda driver: events time the work between them", "[gpu]") {
    if (!use_gpu()) return;
    auto m = cuda::module_from_cubin(kPtx);
    cuda::Stream s;
    cuda::Event start, end;
    start.record(s.handle());
    unsigned long long cycles = 20'000'000;  // ~10 ms at 2 GHz
    void* args[] = {&cycles};
    cuda::launch(m->function("spin"), {1}, {1}, 0, s.handle(), args);
    end.record(s.handle());
    end.synchronize();
    CHECK(start.done());
    CHECK(end.done());
    CHECK(s.done());
    float ms = cuda::elapsed_ms(start, end);
    INFO("spin took " << ms << " ms");
    CHECK(ms > 1.0f);
    CHECK(ms < 1000.0f);
    // A stream waits for an event of another.
    cuda::Stream t(true, -1);
    start.record(s.handle());
    cuda::launch(m->function("spin"), {1}, {1}, 0, s.handle(), args);
    end.record(s.handle());
    t.wait(end.handle());
    t.synchronize();
    CHECK(end.done());
}

TEST_CASE("device pool: a busy stream's block goes to another stream only when done", "[gpu]") {
    if (!use_gpu()) return;
    auto m = cuda::module_from_cubin(kPtx);
    cuda::BlockPool& pool = cuda::device_pool(0);
    pool.free_all_blocks();
    cuda::Stream s1(true), s2(true);
    const size_t big = 12 * 1024 * 1024;  // large: a segment of its own, no free tail
    uintptr_t a = pool.allocate(big, key(s1));
    unsigned long long cycles = 200'000'000;  // ~0.1 s at 2 GHz
    void* args[] = {&cycles};
    cuda::launch(m->function("spin"), {1}, {1}, 0, s1.handle(), args);
    pool.free(a);  // s1 is still spinning
    uintptr_t b = pool.allocate(big, key(s2));
    CHECK(b != a);
    s1.synchronize();
    uintptr_t c = pool.allocate(big, key(s2));
    CHECK(c == a);
    pool.free(b);
    pool.free(c);
    pool.retire_stream(key(s1));
    pool.retire_stream(key(s2));
    s2.synchronize();
    pool.free_all_blocks();
}

TEST_CASE("device pool: the limit and the OOM error on the device", "[gpu]") {
    if (!use_gpu()) return;
    cuda::BlockPool& pool = cuda::device_pool(0);
    size_t old = pool.get_limit();
    pool.set_limit(pool.total_bytes() + 4 * 1024 * 1024);
    CHECK_THROWS_AS(pool.allocate(size_t(64) << 20, nullptr), cuda::OutOfMemory);
    uintptr_t p = pool.allocate(1024, nullptr);  // the pool still works
    CHECK(p != 0);
    pool.free(p);
    pool.set_limit(old);
    // More than the device has: the driver's OOM turns into OutOfMemory too.
    CHECK_THROWS_AS(pool.allocate(cuda::device(0).total_memory * 2, nullptr), cuda::OutOfMemory);
    pool.free_all_blocks();
}

// Device memory and its host mirror (runtime/cuda_memory.cpp): whichever side
// wrote last, the other side's next access sees it, partial writes included.
TEST_CASE("device buffers: the host mirror and the device copy stay coherent", "[gpu]") {
    if (!use_gpu()) return;
    using gpy::BufferRef;
    const size_t n = 4096;
    BufferRef b(gpy::allocate_cuda_buffer(0, n, false)), c(gpy::allocate_cuda_buffer(0, n, false));
    CHECK_FALSE(gpy::is_managed_buffer(b.get()));
    for (size_t k = 0; k < n; ++k) b.bytes()[k] = uint8_t(k * 7);
    gpy::copy_on_device(c, 0, b, 0, n);  // the host's bytes reach the device first
    CHECK(c.host_read_bytes()[1000] == uint8_t(1000 * 7));
    CHECK(b.host_read_bytes()[999] == uint8_t(999 * 7));  // read-only: the host copy is still current

    auto stream = gpy::current_stream();
    GPY_CU(cuMemsetD8Async(cuda::CUdeviceptr(b.device_bytes()), 7, n, stream));  // a kernel's write
    gpy::note_device_work(0);
    CHECK(b.host_read_bytes()[100] == 7);

    b.bytes()[5] = 9;  // the host writes one byte; the device then writes others
    GPY_CU(cuMemsetD8Async(cuda::CUdeviceptr(b.device_bytes() + 10), 3, 4, stream));
    gpy::note_device_work(0);
    const uint8_t* h = b.host_read_bytes();
    CHECK(h[5] == 9);
    CHECK(h[9] == 7);
    CHECK(h[10] == 3);
    CHECK(h[13] == 3);
    CHECK(h[14] == 7);
    gpy::copy_on_device(c, 100, b, 0, 16);  // device to device, part of c
    const uint8_t* hc = c.host_read_bytes();
    CHECK(hc[99] == uint8_t(99 * 7));
    CHECK(hc[105] == 9);
    CHECK(hc[110] == 3);
    CHECK(hc[116] == uint8_t(116 * 7));

    BufferRef z(gpy::allocate_cuda_buffer(0, 0, false));  // empty arrays have both sides too
    z.bytes();
    z.device_bytes();
    CHECK(z.host_read_bytes() != nullptr);
}
