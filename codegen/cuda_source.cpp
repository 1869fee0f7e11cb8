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
    if (k.kind == KernelSource::ReduceFull && k.pairwise == 1) {
        // NumPy's pairwise sum: part p is the subtree `depth` levels down
        // the recursion along p's bits (left half: 0), every level cutting
        // at half rounded down to a multiple of 8, as gpy_pairwise does.
        s += "extern \"C\" __global__ void " + n + "_pwpart_grid(" + params +
             ", int64_t inner, int depth, int64_t nparts, char* partials) {\n" + unpack +
             "    for (int64_t p = " + thread + "; p < nparts; p += " + stride + ") {\n"
             "        int64_t lo = 0, len = inner;\n"
             "        for (int l = depth - 1; l >= 0; --l) { int64_t h = len / 2; h -= h % 8; if ((p >> l) & 1) { lo += h; len -= h; } else len = h; }\n"
             "        " + n + "_part(P, a.M, a.S, lo, lo + len, p, partials);\n    }\n}\n";
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
