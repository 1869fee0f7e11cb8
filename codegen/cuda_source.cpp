#include "codegen/cuda_source.h"

#include <algorithm>

#include "codegen/prelude.h"

namespace gpy {

std::string cuda_kernel_source(const KernelSource& k) {
    const std::string& n = k.name;
    // Zero-length arrays are not C++; an unused slot costs 8 bytes of parameters.
    auto len = [](int count) { return std::to_string(std::max(count, 1)); };
    std::string s = std::string(kCudaPrelude) + kCommonPrelude + k.body;
    s += "struct " + n + "_args { char* P[" + len(k.n_ptrs) + "]; int64_t M[" + len(k.n_meta) + "]; uint64_t S[" +
         len(k.n_scalars) + "]; };\n";
    const std::string params = "const __grid_constant__ " + n + "_args a";
    const std::string unpack = "    char** P = const_cast<char**>(a.P);\n";
    const std::string thread = "blockIdx.x * (int64_t)blockDim.x + threadIdx.x";
    const std::string stride = "(int64_t)blockDim.x * gridDim.x";
    s += "extern \"C\" __global__ void " + n + "_grid(" + params + ", int64_t n) {\n" + unpack +
         "    for (int64_t i = " + thread + "; i < n; i += " + stride + ")\n"
         "        " + n + "(P, a.M, a.S, i, i + 1);\n}\n";
    if (k.kind == KernelSource::ReduceFull) {
        s += "extern \"C\" __global__ void " + n + "_part_grid(" + params +
             ", int64_t inner, int64_t chunk, int64_t nparts, char* partials) {\n" + unpack +
             "    for (int64_t p = " + thread + "; p < nparts; p += " + stride + ") {\n"
             "        int64_t b = p * chunk, e = b + chunk < inner ? b + chunk : inner;\n"
             "        " + n + "_part(P, a.M, a.S, b, e, p, partials);\n    }\n}\n"
             "extern \"C\" __global__ void " + n + "_merge_grid(int64_t nparts, int64_t group, int64_t nout, const char* in, char* out) {\n"
             "    for (int64_t g = " + thread + "; g < nout; g += " + stride + ") {\n"
             "        int64_t b = g * group, e = b + group < nparts ? b + group : nparts;\n"
             "        " + n + "_merge(b, e, g, in, out);\n    }\n}\n"
             "extern \"C\" __global__ void " + n + "_finish_grid(" + params + ", int64_t nparts, char* partials) {\n" + unpack +
             "    if (blockIdx.x == 0 && threadIdx.x == 0) " + n + "_finish(P, a.M, a.S, nparts, partials);\n}\n";
    }
    return s;
}

}  // namespace gpy
