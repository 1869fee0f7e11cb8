#include "codegen/cuda_source.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/experiments.h"
#include "codegen/prelude.h"

namespace gpy {

namespace {

// DIR/NAME.cu (GPY_EXPERIMENTS=kernel_override_dir=DIR), when it exists, replaces the kernel text
// of kernel NAME (the format --dump-kernels writes): for measuring a
// hand-edited kernel inside the real program (bench/gpu/kernel_lab.py).
// Read at each compile; the disk cache keys on the source, so an edit
// compiles anew.
bool read_override(const std::string& name, std::string& text) {
    const std::string& dir = experiments().kernel_override_dir;
    if (dir.empty()) return false;
    std::ifstream f(dir + "/" + name + ".cu");
    if (!f) return false;
    std::ostringstream all;
    all << f.rdbuf();
    text = all.str();
    return true;
}

}  // namespace

std::string cuda_kernel_source(const KernelSource& k) {
    std::string text;
    if (!read_override(k.name, text)) text = cuda_kernel_text(k);
    return std::string(kCudaPrelude) + kCommonPrelude + text;
}

std::string cuda_kernel_text(const KernelSource& k) {
    const std::string& n = k.name;
    // Zero-length arrays are not C++; an unused slot costs 8 bytes of parameters.
    auto len = [](int count) { return std::to_string(std::max(count, 1)); };
    std::string s = k.body + k.gpu_body;
    s += "struct " + n + "_args { char* P[" + len(k.n_ptrs) + "]; int64_t M[" + len(k.n_meta) + "]; uint64_t S[" +
         len(k.n_scalars) + "]; };\n";
    const std::string params = "const __grid_constant__ " + n + "_args a";
    const std::string unpack = "    char** P = const_cast<char**>(a.P);\n";
    const std::string thread = "blockIdx.x * (int64_t)blockDim.x + threadIdx.x";
    const std::string stride = "(int64_t)blockDim.x * gridDim.x";
    const bool vec4 = !k.vec4_align.empty();
    // Only the wrappers the runner launches: each inlines the body again, and
    // NVRTC's time grows with every copy.
    // Column reductions keep a thread per output too (many outputs: adjacent
    // threads read adjacent memory).
    if (k.kind == KernelSource::RowFused) {
        // A block per row (block-uniform loop: every thread reaches the
        // barriers). At most 512 threads, two blocks per SM (64 registers)
        // unless the row's cached arrays fit four (KernelSource::row_blocks_per_sm);
        // unbounded, a softmax took 117 registers: one block per SM, half
        // the bandwidth on 8192-wide rows.
        // Rows that the register cache moves by vectors (KernelSource::
        // row_vec_align) have an entry point of their own, so each path gets
        // its own register allocation and launch bounds.
        auto wrapper = [&](const std::string& suffix, int blocks, const char* vec) {
            return "extern \"C\" __global__ void __launch_bounds__(512, " + std::to_string(blocks) + ") " + n + suffix + "(" + params +
                   ", int64_t nrows) {\n" + unpack + "    for (int64_t o = blockIdx.x; o < nrows; o += gridDim.x) " + n +
                   "_row(P, a.M, a.S, o, threadIdx.x, blockDim.x, " + vec + ");\n}\n";
        };
        s += wrapper("_rows", k.row_blocks_per_sm, "0");
        if (!k.row_vec_align.empty()) s += wrapper("_rows_vec", k.row_vec_blocks_per_sm, "1");
        return s;
    }
    if (!vec4 && (!k.cooperative || k.kind == KernelSource::ReduceTiled)) {
        s += "extern \"C\" __global__ void " + n + "_grid(" + params + ", int64_t n) {\n" + unpack +
             "    for (int64_t i = " + thread + "; i < n; i += " + stride + ")\n"
             "        " + n + "(P, a.M, a.S, i, i + 1);\n}\n";
    }
    if (vec4) {
        // Rows of `cols` elements, four per step; `aligned`: every row of
        // every operand is on a vector boundary. One dim: no division; more:
        // a 32-bit one per step while the count of vectors allows.
        s += "extern \"C\" __global__ void " + n + "_vec4_grid(" + params + ", int64_t rows, int64_t cols, int aligned) {\n" + unpack +
             "    const int64_t nvr = (cols + 3) >> 2, total = rows * nvr;\n"
             "    auto at = [&](int64_t v, int64_t& r, int64_t& c, int& m) {\n";
        if (k.rank == 1) {
            s += "        r = 0; c = v << 2;\n";
        } else {
            s += "        if (total <= 0xffffffffLL) { const unsigned q = (unsigned)v / (unsigned)nvr; r = q; c = (int64_t)((unsigned)v - q * (unsigned)nvr) << 2; }\n"
                 "        else { r = v / nvr; c = (v - r * nvr) << 2; }\n";
        }
        s += "        m = cols - c < 4 ? (int)(cols - c) : 4;\n    };\n";
        if (k.vec4_prefetch) {
            // Software pipelining (KernelSource::vec4_prefetch): step v +
            // stride's inputs load while step v computes. Only where every
            // step is a whole aligned vector, so vec and m are constants and
            // the element-by-element paths drop out (H200, Black-Scholes:
            // 62 registers and 414 us with them, 50 and 409 without); other
            // launches take the plain loop below.
            s += "    if (aligned && (cols & 3) == 0) {\n"
                 "        const int64_t step = " + stride + ";\n"
                 "        int64_t v = " + thread + ", r, c;\n        int m;\n"
                 "        if (v >= total) return;\n"
                 "        at(v, r, c, m);\n"
                 "        " + n + "_vin in;\n"
                 "        " + n + "_vec4_in(P, a.M, r, c, 4, true, in);\n"
                 "        for (;;) {\n"
                 "            const int64_t vn = v + step;\n"
                 "            int64_t rn = 0, cn = 0;\n"
                 "            " + n + "_vin next;\n"
                 "            if (vn < total) { at(vn, rn, cn, m); " + n + "_vec4_in(P, a.M, rn, cn, 4, true, next); }\n"
                 "            " + n + "_vec4_run(P, a.M, a.S, r, c, 4, true, in);\n"
                 "            if (vn >= total) return;\n"
                 "            v = vn; r = rn; c = cn; in = next;\n"
                 "        }\n"
                 "    }\n";
        }
        s += "    for (int64_t v = " + thread + "; v < total; v += " + stride + ") {\n"
             "        int64_t r, c;\n        int m;\n        at(v, r, c, m);\n"
             "        " + n + "_vec4(P, a.M, a.S, r, c, m, aligned && m == 4);\n"
             "    }\n}\n";
    }
    if (k.cooperative) {
        // Teams of G threads (a power of two up to a warp, or the whole
        // block) each reduce one (row, part) pair: row o = t / nsplit, part
        // c = t % nsplit, the team's threads folding every (nsplit * G)-th
        // element, then combining by shuffles (and shared memory for a
        // block). A team writes its 32-byte partial (accumulator, index at
        // +16) to out_parts, or without it finishes the row. With in_parts,
        // teams (nsplit == 1) fold a row's in_split partials instead of its
        // elements. One entry point, so NVRTC compiles the body once; the
        // loop is block-uniform, so every thread reaches shuffles and barriers.
        s += "extern \"C\" __global__ void " + n + "_reduce(" + params +
             ", int64_t nrows, int64_t inner, int G, int64_t nsplit, char* out_parts, const char* in_parts, int64_t in_split, int vec) {\n" + unpack +
             "    auto comb = [](" + n + "_acc* r, int64_t* i, " + n + "_acc pv, int64_t pi) { " + n + "_combine(r, i, pv, pi); };\n"
             "    const int teams = blockDim.x / G, sub = threadIdx.x % G;\n"
             "    const int64_t nteams = nrows * nsplit;\n"
             "    for (int64_t base = (int64_t)blockIdx.x * teams; base < nteams; base += (int64_t)gridDim.x * teams) {\n"
             "        const int64_t t = base + threadIdx.x / G;\n"
             "        const bool valid = t < nteams;\n"
             "        const int64_t o = t / nsplit, c = t % nsplit;\n"
             "        " + n + "_acc racc; int64_t ridx;\n"
             + (k.reduce_vec_align.empty()
                    ? "        " + n + "_racc(P, a.M, a.S, o, c * G + sub, nsplit * (int64_t)G, valid && !in_parts ? inner : 0, &racc, &ridx);\n"
                    // Vectors of four while whole ones remain (none unless `vec`), then the tail element by element.
                    : "        const int64_t jb = c * G + sub, je = valid && !in_parts ? inner : 0, nv = vec ? je >> 2 : 0;\n"
                      "        " + n + "_racc4(P, a.M, a.S, o, jb, nsplit * (int64_t)G, nv, &racc, &ridx);\n"
                      "        " + n + "_acc tacc; int64_t tidx;\n"
                      "        " + n + "_racc(P, a.M, a.S, o, 4 * nv + jb, nsplit * (int64_t)G, je, &tacc, &tidx);\n"
                      "        comb(&racc, &ridx, tacc, tidx);\n") +
             "        if (in_parts && valid) {\n"
             "            for (int64_t k = sub; k < in_split; k += G) {\n"
             "                const char* q = in_parts + (o * in_split + k) * 32;\n"
             "                comb(&racc, &ridx, *(const " + n + "_acc*)q, *(const int64_t*)(q + 16));\n"
             "            }\n"
             "        }\n"
             "        gpy_team_combine(racc, ridx, comb, G);\n"
             "        if (valid && sub == 0) {\n"
             "            if (out_parts) { *(" + n + "_acc*)(out_parts + t * 32) = racc; *(int64_t*)(out_parts + t * 32 + 16) = ridx; }\n"
             "            else " + n + "_epi(P, a.M, a.S, o, racc, ridx);\n"
             "        }\n"
             "    }\n}\n";
    }
    if (k.kind == KernelSource::ReduceFull && k.pairwise == 1 && !k.may_fail) {
        // NumPy's pairwise sum: slot p is the node `depth` levels down the
        // recursion along p's bits (left half: 0; every level cuts at half
        // rounded down to a multiple of 8), a leaf of at most 128 elements;
        // a slot under a leaf that ends higher up is empty unless leftmost.
        // Eight lanes add a leaf: lane k is NumPy's accumulator r[k] (every
        // 8th element from k), the shuffles combine them in NumPy's order,
        // lane 0 adds the tail. A block's 32 slots are an aligned subtree,
        // combined level by level into its partial (index -1: empty).
        s += "extern \"C\" __global__ void __launch_bounds__(256) " + n + "_pwslots(" + params +
             ", int64_t inner, int depth, int64_t nslots, char* partials) {\n" + unpack +
             "    typedef " + n + "_pwt T;\n"
             "    __shared__ T sv[32];\n    __shared__ int sok[32];\n"
             "    const int g = threadIdx.x >> 3, k = threadIdx.x & 7;\n"
             "    for (int64_t base = (int64_t)blockIdx.x * 32; base < nslots; base += (int64_t)gridDim.x * 32) {\n"
             "        const int64_t slot = base + g;\n"
             "        int64_t lo = 0, len = inner;\n"
             "        bool ok = slot < nslots;\n"
             "        for (int l = depth - 1; l >= 0 && ok; --l) {\n"
             "            if (len <= 128) { ok = (slot & ((2LL << l) - 1)) == 0; break; }\n"
             "            int64_t h = len / 2; h -= h % 8;\n"
             "            if ((slot >> l) & 1) { lo += h; len -= h; } else len = h;\n"
             "        }\n"
             "        const bool full = ok && len >= 8;\n"
             "        T r = 0;\n"
             // Unrolled to the leaf's most (128): the guarded loads issue
             // together instead of one per dependent addition.
             "        if (full) {\n"
             "            const int64_t lim = len - len % 8;\n"
             "            r = " + n + "_at(P, a.M, a.S, lo + k);\n"
             "            #pragma unroll\n"
             "            for (int u = 1; u < 16; ++u) if (8 * u < lim) r += " + n + "_at(P, a.M, a.S, lo + 8 * u + k);\n"
             "        }\n"
             "        r += __shfl_xor_sync(0xffffffffu, r, 1);\n"
             "        r += __shfl_xor_sync(0xffffffffu, r, 2);\n"
             "        r += __shfl_xor_sync(0xffffffffu, r, 4);\n"
             "        if (k == 0) {\n"
             "            T res = full ? r : (T)0;\n"
             "            if (ok) for (int64_t i = full ? len - len % 8 : 0; i < len; ++i) res += " + n + "_at(P, a.M, a.S, lo + i);\n"
             "            sv[g] = res; sok[g] = ok;\n"
             "        }\n"
             // The 32 slots level by level, a lane each in warp 0.
             "        __syncthreads();\n"
             "        if (threadIdx.x < 32) {\n"
             "            T v = sv[threadIdx.x];\n            int ok2 = sok[threadIdx.x];\n"
             "            for (int st = 1; st < 32; st *= 2) {\n"
             "                const T w = __shfl_down_sync(0xffffffffu, v, st);\n"
             "                const int wok = __shfl_down_sync(0xffffffffu, ok2, st);\n"
             "                if ((threadIdx.x & (2 * st - 1)) == 0 && wok) v = v + w;\n"
             "            }\n"
             "            if (threadIdx.x == 0) {\n"
             "                char* q = partials + (base / 32) * 16;\n"
             "                *(" + n + "_pwa*)q = (" + n + "_pwa)v; *(int64_t*)(q + 8) = ok2 ? 0 : -1;\n"
             "            }\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n}\n";
    }
    if (k.kind == KernelSource::ReduceFull && k.pairwise == 1 && !k.may_fail && !k.pairwise_vec_align.empty()) {
        // NAME_pwslots with vector loads (every operand contiguous and
        // aligned: the runner checks): two lanes a leaf, lane q holding
        // NumPy's accumulators r[4q .. 4q+3] (vector 2u + q of the leaf is
        // elements 8u + 4q ..), each lane adding its four pairwise and one
        // shuffle the halves: NumPy's order. A warp's 16 slots, then the
        // block's 8 warps, level by level into a partial per 128 slots.
        s += "extern \"C\" __global__ void __launch_bounds__(256) " + n + "_pwslots4(" + params +
             ", int64_t inner, int depth, int64_t nslots, char* partials) {\n" + unpack +
             "    typedef " + n + "_pwt T;\n"
             "    __shared__ T wv[8];\n    __shared__ int wok[8];\n"
             "    const int g = threadIdx.x >> 1, q = threadIdx.x & 1, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;\n"
             "    for (int64_t base = (int64_t)blockIdx.x * 128; base < nslots; base += (int64_t)gridDim.x * 128) {\n"
             "        const int64_t slot = base + g;\n"
             "        int64_t lo = 0, len = inner;\n"
             "        bool ok = slot < nslots;\n"
             "        for (int l = depth - 1; l >= 0 && ok; --l) {\n"
             "            if (len <= 128) { ok = (slot & ((2LL << l) - 1)) == 0; break; }\n"
             "            int64_t h = len / 2; h -= h % 8;\n"
             "            if ((slot >> l) & 1) { lo += h; len -= h; } else len = h;\n"
             "        }\n"
             "        const bool full = ok && len >= 8;\n"
             "        T r0 = 0, r1 = 0, r2 = 0, r3 = 0;\n"
             "        if (full) {\n"
             "            const int64_t lim = len - len % 8, v0 = lo / 4 + q;\n"
             "            T e[4];\n"
             "            " + n + "_at4(P, a.M, a.S, v0, e);\n"
             "            r0 = e[0]; r1 = e[1]; r2 = e[2]; r3 = e[3];\n"
             "            #pragma unroll\n"
             "            for (int u = 1; u < 16; ++u)\n"
             "                if (8 * u < lim) { " + n + "_at4(P, a.M, a.S, v0 + 2 * u, e); r0 += e[0]; r1 += e[1]; r2 += e[2]; r3 += e[3]; }\n"
             "        }\n"
             "        T res = (r0 + r1) + (r2 + r3);\n"
             "        res += __shfl_xor_sync(0xffffffffu, res, 1);\n"
             "        if (!full) res = 0;\n"
             "        if (q == 0 && ok) for (int64_t i = full ? len - len % 8 : 0; i < len; ++i) res += " + n + "_at(P, a.M, a.S, lo + i);\n"
             "        int okv = ok;\n"
             "        for (int st = 2; st < 32; st *= 2) {\n"
             "            const T w = __shfl_down_sync(0xffffffffu, res, st);\n"
             "            const int wk = __shfl_down_sync(0xffffffffu, okv, st);\n"
             "            if ((lane & (2 * st - 1)) == 0 && wk) res = res + w;\n"
             "        }\n"
             "        if (lane == 0) { wv[warp] = res; wok[warp] = okv; }\n"
             "        __syncthreads();\n"
             "        if (threadIdx.x < 32) {\n"
             "            T v = threadIdx.x < 8 ? wv[threadIdx.x] : (T)0;\n"
             "            int vk = threadIdx.x < 8 ? wok[threadIdx.x] : 0;\n"
             "            for (int st = 1; st < 8; st *= 2) {\n"
             "                const T w = __shfl_down_sync(0xffffffffu, v, st);\n"
             "                const int wk = __shfl_down_sync(0xffffffffu, vk, st);\n"
             "                if ((threadIdx.x & (2 * st - 1)) == 0 && wk) v = v + w;\n"
             "            }\n"
             "            if (threadIdx.x == 0) {\n"
             "                char* p = partials + (base / 128) * 16;\n"
             "                *(" + n + "_pwa*)p = (" + n + "_pwa)v; *(int64_t*)(p + 8) = vk ? 0 : -1;\n"
             "            }\n"
             "        }\n"
             "        __syncthreads();\n"
             "    }\n}\n";
    }
    if (k.kind == KernelSource::ReduceFull && (!k.cooperative || k.pairwise == 1)) {
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
