// glibc's libmvec as the CPU JIT's vector math library, all of it.
//
// Clang 16's -fveclib=libmvec table names only sin, cos, exp, log and pow; a
// loop calling tanhf, expm1, atan2, cbrt... stays scalar (np.tanh on 2^24
// float32: 160 ms against NumPy's 25 ms). glibc >= 2.35 exports vector
// variants of 27 more functions (_ZGVdN8v_tanhf: 8 floats in a ymm
// register). The compiler gets them the way LLVM's own InjectTLIMappings pass
// gives the table's: each call site names its vector variants in a
// "vector-function-abi-variant" attribute and the variants are declared in
// the module; the loop vectoriser then widens the call. The annotation runs
// on the unoptimised IR (runtime/llvm/cpu_jit_backend.cpp compiles in two
// steps for it).
//
// Only variants this process can resolve (dlsym in libmvec.so.1) for ISAs
// the host has (SSE4 'b', AVX2 'd') are offered, so an older
// glibc or CPU gets scalar loops, never a missing symbol.
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace gpy::cpujit_backend {

struct VectorVariant {
    std::string scalar;  // "tanhf"
    std::string vector;  // "_ZGVdN8v_tanhf"
    unsigned lanes = 0;  // 8
    unsigned args = 1;   // 2 for atan2, hypot
};

// The libmvec variants available here, for a CPU with `features` ("+avx2",
// "-avx512f", ...), beyond those clang's -fveclib=libmvec already maps.
std::vector<VectorVariant> available_vector_variants(const std::vector<std::string>& features);

// One line naming the variants' scalar functions (for the kernel cache key).
std::string describe(const std::vector<VectorVariant>& variants);

// Marks every call in `m` to a function of `variants` with its vector
// variants and declares them (kept until the vectoriser runs).
void add_vector_variants(llvm::Module& m, const std::vector<VectorVariant>& variants);

}  // namespace gpy::cpujit_backend
