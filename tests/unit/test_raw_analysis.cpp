// Clang's analysis of user CUDA source (runtime/raw_analysis.h): the kernels
// a GPU can launch by name, their parameters, which pointers a kernel may
// write through, barriers and shared memory (through the functions a kernel
// calls), the text spans, and module variables, where text matching fails
// (comments, #if 0, namespaces, templates).
#include <catch2/catch.hpp>

#include <string>

#include "runtime/raw_analysis.h"
#include "runtime/raw_kernel.h"

namespace gpy {
namespace {

RawModuleInfo analyse(const std::string& code, std::vector<std::string> names = {}) {
    RawSource s;
    s.code = code;
    s.name_expressions = std::move(names);
    return *raw_module_info(s, "");
}

const RawKernelInfo& kernel(const RawModuleInfo& m, const std::string& name) {
    const RawKernelInfo* k = m.find(name);
    REQUIRE(k != nullptr);
    return *k;
}

}  // namespace

TEST_CASE("raw analysis: parameters and the pointers a kernel writes", "[raw][analysis]") {
    const RawModuleInfo m = analyse(R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n, double* unused, unsigned char* bytes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
    if (unused != nullptr && bytes[0] > 3) return;
}
)");
    const RawKernelInfo& k = kernel(m, "saxpy");
    REQUIRE(k.params.size() == 6);
    CHECK_FALSE(k.params[0].pointer);
    CHECK(k.params[0].kind == 'f');
    CHECK(k.params[0].size == 4);
    CHECK(k.params[1].pointer);
    CHECK(k.params[1].const_pointee);
    CHECK_FALSE(k.params[1].written);
    CHECK(k.params[2].written);
    CHECK(k.params[3].kind == 'i');
    CHECK_FALSE(k.params[4].written);  // compared, never written
    CHECK_FALSE(k.params[5].written);  // read
    CHECK(k.params[5].kind == 'u');
    CHECK(k.param_names[2] == "y");
    CHECK(k.extern_c);
    CHECK_FALSE(k.barriers);
}

TEST_CASE("raw analysis: writes through derived pointers, references, atomics and device functions", "[raw][analysis]") {
    const RawModuleInfo m = analyse(R"(
__device__ void put(float* p, float v) { p[0] = v; }
__device__ float get(const float* p) { return p[0]; }
__device__ float get2(float* p) { return p[1]; }
struct Pair { float a, b; };
extern "C" __global__ void k(float* a, float* b, float* c, float* d, float* e, float* f, int* g, float* h, Pair* s, Pair* t, float* u) {
    float* row = a + threadIdx.x * 4;
    row[1] = 2.0f;
    float& acc = b[threadIdx.x];
    acc += 1.0f;
    put(c + 1, 3.0f);
    float x = get(d) + get2(e);
    *f++ = x;
    atomicAdd(g, 1);
    const float* ro = h + 2;
    x += ro[0];
    s[0].a = x;
    Pair copy = t[0];
    x += copy.b;
    float* w = u;
    w = w + 1;
    x += w[0];
    (void)x;
}
)");
    const RawKernelInfo& k = kernel(m, "k");
    REQUIRE(k.params.size() == 11);
    CHECK(k.params[0].written);        // through a local pointer
    CHECK(k.params[1].written);        // through a reference
    CHECK(k.params[2].written);        // in a __device__ function
    CHECK_FALSE(k.params[3].written);  // a const pointer parameter of a function
    CHECK_FALSE(k.params[4].written);  // a function that only reads
    CHECK(k.params[5].written);        // *f++ = x
    CHECK(k.params[6].written);        // atomicAdd
    CHECK_FALSE(k.params[7].written);  // a const local pointer
    CHECK(k.params[8].written);        // a struct member
    CHECK_FALSE(k.params[9].written);  // a struct copied
    CHECK_FALSE(k.params[10].written); // a local pointer moved, read
    CHECK(k.params[8].kind == 'o');
    CHECK(k.params[8].size == 8);
}

TEST_CASE("raw analysis: barriers and shared memory through the functions a kernel calls", "[raw][analysis]") {
    const RawModuleInfo m = analyse(R"(
// __syncthreads() in a comment does not count
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__device__ int lane_id() { return threadIdx.x % 32; }
extern "C" {
__global__ void plain(float* y) { y[threadIdx.x] = 1.0f; }
__global__ void reduce(float* y) { y[0] = warp_sum(y[threadIdx.x]); }
__global__ void tiles(float* y) {
    __shared__ float tile[32];
    tile[threadIdx.x] = y[threadIdx.x];
    y[threadIdx.x] = tile[31 - threadIdx.x];
}
__global__ void lanes(int* y) { y[threadIdx.x] = lane_id(); }
}
)");
    CHECK_FALSE(kernel(m, "plain").barriers);
    CHECK_FALSE(kernel(m, "plain").callee_state);
    CHECK(kernel(m, "reduce").barriers);
    CHECK(kernel(m, "tiles").shared);
    CHECK_FALSE(kernel(m, "tiles").barriers);
    CHECK(kernel(m, "lanes").callee_state);
    CHECK(kernel(m, "plain").extern_c);
}

TEST_CASE("raw analysis: what a GPU finds by name, and module variables", "[raw][analysis]") {
    const RawModuleInfo m = analyse(R"(
#if 0
__constant__ float hidden[4];
extern "C" __global__ void gone(float* y) {}
#endif
/* __device__ int commented; */
__constant__ float table[4];
extern "C" __device__ int counter;
extern "C" { __device__ double total; }
namespace inner { __device__ int nested; }
__global__ void cxx_only(float* y) { y[0] = 1; }
template <typename T> __global__ void scale(T* y, T a) { y[threadIdx.x] *= a; }
extern "C" __global__ void named(const double* x) {}
)",
                                    {"scale<float>", "scale<double>"});
    CHECK(m.find("gone") == nullptr);
    CHECK(m.find("cxx_only") == nullptr);  // a C++ name: mangled on a GPU
    CHECK(m.find("named") != nullptr);
    const RawKernelInfo& f = kernel(m, "scale<float>");
    REQUIRE(f.params.size() == 2);
    CHECK(f.params[0].kind == 'f');
    CHECK(f.params[0].size == 4);
    CHECK(f.params[0].written);
    const RawKernelInfo& d = kernel(m, "scale<double>");
    CHECK(d.params[0].size == 8);
    CHECK(d.params[1].size == 8);
    CHECK(d.body_open == f.body_open);  // one text
    // (`extern "C" __device__ int counter;` defines it in CUDA, as in a block.)
    CHECK(m.globals == std::vector<std::string>{"table", "counter", "total"});
}

TEST_CASE("raw analysis: complex parameters and errors", "[raw][analysis]") {
    const RawModuleInfo m = analyse(R"(
#include <cupy/complex.cuh>
extern "C" __global__ void c(const complex<float>* x, complex<double>* y, complex<float> s) {
    y[threadIdx.x] = complex<double>(x[threadIdx.x].real() * s.real(), 0);
}
)");
    const RawKernelInfo& k = kernel(m, "c");
    REQUIRE(k.params.size() == 3);
    CHECK(k.params[0].kind == 'c');
    CHECK(k.params[0].size == 8);
    CHECK_FALSE(k.params[0].written);
    CHECK(k.params[1].kind == 'c');
    CHECK(k.params[1].size == 16);
    CHECK(k.params[1].written);
    CHECK(k.params[2].kind == 'c');
    CHECK_FALSE(k.params[2].pointer);

    RawSource bad;
    bad.code = "extern \"C\" __global__ void k(float* y) {\n    y[0] = undefined_thing;\n}\n";
    bad.file = "bad.cu";
    try {
        raw_module_info(bad, "");
        FAIL("a source that does not parse");
    } catch (const RawCompileError& e) {
        CHECK(e.log.find("bad.cu:2:12: error: use of undeclared identifier 'undefined_thing'") != std::string::npos);
    }
}

}  // namespace gpy
