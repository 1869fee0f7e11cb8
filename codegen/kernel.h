// A kernel ready to compile and launch: its source (without prelude), its
// entry points, and the run-time arguments of one launch.
//
// Launch ABI, the same for every backend:
//   void NAME(char** ptrs, const int64_t* meta, const uint64_t* scalars, int64_t begin, int64_t end)
// ptrs[0] is the output (ptrs[0..K) for a K-output kernel), then the inputs
// (each already offset to element 0); meta holds the iteration shape then each operand's byte strides;
// scalars holds one 8-byte slot per run-time constant. [begin, end) is the
// range of the flattened iteration space (of outputs, for reductions) a call
// computes, so a backend splits work across threads or blocks freely.
// Full reductions also have NAME_part (partials over a range of the reduced
// elements into ptrs[0][part]), NAME_merge (partials [begin, end) into one)
// and NAME_finish (combine partials + epilogue). A partial is 16 bytes: the
// accumulator, then (arg reductions) its index.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codegen/dag.h"

namespace gpy {

// Outputs per tile of a ReduceTiled kernel (a float64 accumulator each).
constexpr int kReduceTile = 256;  // = GPY_REDUCE_TILE in kCpuPrelude

struct KernelSource {
    std::string name;     // gpy_k_<hash of body>
    std::string body;     // C++ without prelude
    // ReduceTiled: like ReduceRows, but each call walks tiles of up to
    // kReduceTile neighbouring outputs (column reductions), so a backend gives
    // it ranges of at least that many outputs.
    // RowFused: one call per row of the last axis (Launch::outer rows of
    // Launch::inner elements): NAME_row(P, M, S, o, t, nt) runs reductions
    // over the row one after another, each seeing the earlier ones, then the
    // elementwise result (softmax, layer norm); threads t of nt share a row
    // (gpy_row_allreduce combines them; on the CPU nt is 1).
    enum Kind : uint8_t { Elementwise, ReduceRows, ReduceTiled, ReduceFull, RowFused } kind = Elementwise;
    std::string summary;  // one line for GPY_DEBUG / %kernels, e.g. "exp(mul(f32,f32)) -> f32[1048576]"
    // The kernel can fail at run time: its last ptrs slot is an int error
    // word, stored with GPY_REPORT_ERROR (kernel_error_message gives the text).
    bool may_fail = false;
    // Float sums on the CPU add in NumPy's order (codegen/emit.cpp
    // pairwise_kind, 1 to 6: pairwise, buffered, row after row); a
    // ReduceFull's parts are then that recursion's subtrees or buffers.
    uint8_t pairwise = 0;
    // CUDA-only entry points appended after the body (codegen/emit.cpp):
    //  - elementwise, when vec4_align is non-empty: NAME_vec4(P, M, S, r, c, m,
    //    vec) computes elements [c, c + m) of row r with one vector load/store
    //    per operand when `vec`: ptrs[k] and operand k's strides over the
    //    outer dims must then be multiples of vec4_align[k] (0: no requirement).
    //  - reductions, when `cooperative`: NAME_racc / NAME_combine / NAME_epi,
    //    from which threads split rows and whole arrays between them.
    // `name` hashes the body and these (a column reduction's body does not
    // determine its cooperative loads).
    std::string gpu_body;
    std::vector<uint8_t> vec4_align;
    int rank = 0;  // dims of the iteration space after collapsing (meta holds shape[rank], then strides)
    bool cooperative = false;
    bool reduce_unit = false;  // cooperative: the reduced dim is contiguous (or broadcast) in every operand
    // Cooperative kernels with NAME_racc4 (four elements per load): per
    // operand, the alignment in bytes that its base and outer strides need
    // for it (0: not read by vector); empty: no NAME_racc4.
    std::vector<uint8_t> reduce_vec_align;
    // Pairwise full sums with NAME_at4 (four elements of the run per load:
    // NAME_pwslots4): per operand, the alignment its base needs; empty: none.
    std::vector<uint8_t> pairwise_vec_align;
    // RowFused on a GPU: blocks of 512 threads per SM that the row wrapper's
    // launch bounds ask for (registers per thread: 64 at 2, 32 at 4). Rows
    // that cache one array of 16 words (layer norm) run faster at 4 (H200:
    // 8192^2 0.208 -> 0.188 ms); two (softmax's input and exp) spill there.
    int row_blocks_per_sm = 2;
    // RowFused: per operand, the alignment in bytes its base and outer
    // strides need for the register cache to move rows by vectors of four
    // (0: not read or written along the row); empty: no vector path. The
    // runner checks it per launch, with the row length a multiple of four.
    // The vector path's entry point has launch bounds of its own: three
    // blocks per SM where the cached arrays fit 32 words (H200, 8192^2:
    // softmax 0.218 -> 0.174 ms, layer norm 0.190 -> 0.153), else two.
    std::vector<uint8_t> row_vec_align;
    int row_vec_blocks_per_sm = 3;
    // Elementwise: nothing costlier than additions and multiplications
    // (codegen/emit.cpp costly()). The GPU launches such vector kernels with a
    // thread per vector, not a grid-stride loop over an occupancy-sized
    // grid (H200: saxpy 0.212 -> 0.198 ms, copy 0.148 -> 0.142); kernels
    // with transcendentals or divisions lose by it (gauss 0.174 -> 0.19).
    bool light = false;
    // Elementwise, not light, with a vector path whose inputs take at most
    // 64 bytes a step: the grid-stride wrapper loads the next step's input
    // vectors before this step's arithmetic (NAME_vec4_in / NAME_vec4_run),
    // so each thread keeps a load in flight while it computes (H200, 2^26:
    // Black-Scholes 423 -> 409 us, gauss 168 -> 148 us; bench/gpu/kernel_lab.py).
    // More inputs would cost registers (occupancy) for the second set.
    bool vec4_prefetch = false;
    // Lengths of the launch's ptrs, meta and scalars arrays (fixed by the
    // body): the CUDA wrappers pass them by value as one parameter struct.
    int n_ptrs = 0, n_meta = 0, n_scalars = 0;
    // Elementwise: the same computation as a program of the tier-0
    // interpreter (codegen/tier0.h), which runs it before this kernel is
    // compiled; empty when the interpreter lacks an operation or dtype.
    std::vector<int64_t> tier0;
};

// The comment that opens a user operation's block in a kernel's source
// (np.ElementwiseKernel), followed by its name: compile errors of such
// kernels are the user's, and say whose (user_kernel_names).
inline constexpr const char* kUserKernelMarker = "// gpy user kernel: ";
// The names after the markers in `source`, ", "-separated; "" when none.
inline std::string user_kernel_names(const std::string& source) {
    std::string names;
    const std::string marker = kUserKernelMarker;
    for (size_t p = source.find(marker); p != std::string::npos; p = source.find(marker, p + 1)) {
        size_t b = p + marker.size(), e = source.find('\n', b);
        std::string n = "'" + source.substr(b, e - b) + "'";
        if (names.find(n) == std::string::npos) names += (names.empty() ? "" : ", ") + n;
    }
    return names;
}

struct Launch {
    std::vector<char*> ptrs;        // output first
    std::vector<int64_t> meta;
    std::vector<uint64_t> scalars;
    int64_t outer = 0;              // outputs to compute
    int64_t inner = 1;              // reduced elements per output
    int error = 0;                  // set by the runner when a may_fail kernel reported one
};

struct KernelPlan {
    // Shared: the kernel memo hands the same source to every repeat of a statement.
    std::shared_ptr<const KernelSource> source;
    Launch launch;
    // Non-empty when an input lives on another CUDA device than the one the
    // kernel runs on: the runner raises it instead of launching.
    std::string device_error;
    dag::NodeP root;         // the node this kernel computes
    BufferRef output;        // freshly allocated, C-contiguous
    // Multi-output kernels (emit_kernel_multi): further nodes of root's shape
    // computed in the same pass, each into its own fresh buffer.
    std::vector<dag::NodeP> extra_roots;
    std::vector<BufferRef> extra_outputs;
    // Part of an unfused stand-in for a kernel compiling in the background
    // (codegen/stand_in.h): an elementwise kernel with a tier-0 program runs
    // on the interpreter and is not compiled itself.
    bool stand_in = false;
};

// Builds the kernel that computes `root`. Requirements (the planner ensures
// them): the tree holds at most one un-computed Reduce node, and if it does,
// every node above it is elementwise over the reduce's output shape.
// Where a kernel writes: a fresh C-contiguous buffer (default) or an existing
// strided view of `target.shape` into which root's value broadcasts.
struct Target {
    BufferRef buffer;
    int64_t offset = 0;
    dag::Shape shape;
    std::vector<int64_t> strides;
};
// The error codes a kernel can report through GPY_REPORT_ERROR.
enum KernelErrorCode : int { kErrNegativeIntPower = 1 };

// The kernel computing `root` (into `target` when given). Defined in
// kernel_memo.cpp: a memo of the last emission of each tree shape in front
// of the emitter proper (emit.cpp's emit_kernel_fresh).
KernelPlan emit_kernel(const dag::NodeP& root, const Target* target = nullptr);
// Whether `roots` are a row pattern that one RowFused kernel computes (the
// first root spans the rows; others do too, or are keepdims values of shape
// (..., 1) stored once per row): elementwise trees over shape (..., C) whose pending reductions reduce the
// last axis of (..., C)-shaped trees and come back through keepdims (Expand)
// nodes, possibly nested (x - mean(x) inside a variance). emit_kernel then
// writes that kernel; otherwise the planner computes the Expands first.
bool row_kernel_fits(const std::vector<dag::NodeP>& roots);
// One elementwise kernel computing every root (same shape, no un-computed
// reductions): the launch's ptrs are the outputs in order, then the inputs;
// shared subexpressions are computed once per element.
KernelPlan emit_kernel_multi(const std::vector<dag::NodeP>& roots);

// Which operations the emitter implements for complex operands; callers raise
// NotImplementedError for the others before building a node.
bool complex_unary_supported(dag::UnaryOp op);
bool complex_binary_supported(dag::BinaryOp op);
bool complex_reduce_supported(dag::ReduceOp op);

}  // namespace gpy
