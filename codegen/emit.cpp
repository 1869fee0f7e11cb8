// The kernel source emitter: one C++ body per kernel, shared by all backends.
// Shapes and strides are run-time arguments; the source specialises only on
// dtypes, rank after collapsing, which operands have unit inner stride, and
// the operation tree, so one compiled kernel serves many array sizes.
#include <cstdlib>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <unordered_set>
#include <set>
#include <sstream>
#include <stdexcept>

#include "codegen/kernel_memory.h"
#include "codegen/cse.h"
#include "codegen/emit_internal.h"
#include "codegen/kernel.h"
#include "codegen/op_expr.h"
#include "codegen/prelude.h"
#include "codegen/tier0.h"

namespace gpy {

using namespace dag;

namespace {

// Right-aligns `leaf` (shape, strides) inside `context`: broadcast dims get stride 0.
std::vector<int64_t> broadcast_strides(const Shape& leaf_shape, const std::vector<int64_t>& leaf_strides,
                                       const Shape& context) {
    std::vector<int64_t> out(context.size(), 0);
    size_t off = context.size() - leaf_shape.size();
    for (size_t d = 0; d < leaf_shape.size(); ++d)
        out[off + d] = (leaf_shape[d] == 1 && context[off + d] != 1) ? 0 : leaf_strides[d];
    return out;
}

// The strides (in `xs`, x's shape) of the arrays read under x: the
// operands NumPy's iterator would order x's dims by. An operation computed
// already counts by its operands (NumPy's temporary follows them, whatever
// layout gpy stored it in). Stops at Expand nodes (their operand lacks
// dims) and at nested reductions.
void collect_view_strides(const Node* n, const Shape& xs, std::unordered_set<const Node*>& seen,
                          std::vector<std::vector<int64_t>>& out) {
    if (n->result && (n->op == Op::Input || n->in.empty())) n = n->result.get();
    if (!seen.insert(n).second || n->op == Op::Expand || n->op == Op::Reduce) return;
    if (n->op == Op::Input) {
        if (n->shape.size() <= xs.size()) out.push_back(broadcast_strides(n->shape, n->strides, xs));
        return;
    }
    for (auto& c : n->in) collect_view_strides(c.get(), xs, seen, out);
}

// x's dims, outermost first, in the order NumPy's iterator walks them
// (nditer's npyiter_find_best_axis_ordering, written from its description):
// from C order, an insertion sort moves a dim inwards past another only when
// every operand with non-zero strides on both steps it by less (C order wins
// ties and conflicts). A float sum's rounding follows this order.
std::vector<int> numpy_axis_order(const Node* x) {
    const Shape& xs = x->shape;
    std::vector<std::vector<int64_t>> strides;
    std::unordered_set<const Node*> seen;
    collect_view_strides(x, xs, seen, strides);
    const int nd = int(xs.size());
    std::vector<int> perm;  // innermost first, as the iterator keeps them
    for (int d = nd - 1; d >= 0; --d) perm.push_back(d);
    for (int i0 = 1; i0 < nd; ++i0) {
        const int a0 = perm[size_t(i0)];
        int pos = i0;
        for (int i1 = i0 - 1; i1 >= 0; --i1) {
            const int a1 = perm[size_t(i1)];
            bool ambiguous = true, swap = false;
            for (const auto& s : strides) {
                int64_t s0 = s[size_t(a0)], s1 = s[size_t(a1)];
                if (s0 == 0 || s1 == 0) continue;
                if (std::llabs(s1) <= std::llabs(s0)) swap = false;
                else if (ambiguous) swap = true;
                ambiguous = false;
            }
            if (ambiguous) continue;
            if (!swap) break;
            pos = i1;
        }
        if (pos != i0) {
            perm.erase(perm.begin() + i0);
            perm.insert(perm.begin() + pos, a0);
        }
    }
    return std::vector<int>(perm.rbegin(), perm.rend());
}

struct Operand {
    const Node* node;  // Input node (or a computed node's result)
    DType dtype;
    char* base;
    std::vector<int64_t> strides;  // over the full iteration space
    bool epilogue = false;         // read per output (reductions)
};

const Node* row_pattern_under(const Node* n);

class Emitter {
public:
    // roots[0] is the kernel's value; further roots (elementwise kernels
    // only, same shape) are extra outputs computed in the same pass.
    Emitter(const std::vector<NodeP>& roots, const Target* target)
        : root_(roots.at(0)), roots_(roots), n_out_(roots.size()), target_(target) {}

    KernelPlan run() {
        rows_ = !target_ && row_kernel_fits(roots_);
        if (!rows_)
            for (const NodeP& r : roots_) find_reduce(r.get());
        if (target_ && reduce_) throw std::logic_error("emit_kernel: reductions write fresh buffers");
        if (n_out_ > 1 && !rows_ && (reduce_ || target_)) throw std::logic_error("emit_kernel: several outputs need an elementwise kernel");
        KernelPlan plan;
        plan.root = root_;
        std::vector<char*> out_bases;
        if (target_) {
            plan.output = target_->buffer;
            out_bases.push_back(kernel_output(target_->buffer) + target_->offset);
        } else {
            for (size_t k = 0; k < n_out_; ++k) {
                BufferRef b(Buffer::allocate(size_t(roots_[k]->size()) * itemsize(roots_[k]->dtype)));
                out_bases.push_back(kernel_output(b));
                if (k == 0) plan.output = b;
                else plan.extra_outputs.push_back(b);
            }
            plan.extra_roots.assign(roots_.begin() + 1, roots_.end());
        }
        if (rows_) setup_rows();
        else if (reduce_) setup_reduce();
        else setup_elementwise();
        for (size_t k = n_out_; k-- > 0;) {
            Operand out;
            out.node = roots_[k].get();
            out.dtype = roots_[k]->dtype;
            out.base = out_bases[k];
            // Row kernels' per-row outputs (keepdims values) broadcast along the row.
            const Shape& ks = roots_[k]->shape;
            out.strides = k == 0 ? output_strides_
                        : ks == space_ ? contiguous_strides(space_, itemsize(roots_[k]->dtype))
                                       : broadcast_strides(ks, contiguous_strides(ks, itemsize(roots_[k]->dtype)), space_);
            ops_.insert(ops_.begin(), out);
        }
        collapse();
        tile_outputs_ = reduce_ && tiling_pays();
        // A float32 column sum adds each row into the outputs in float32, in
        // row order, as NumPy's outer-axis reduction does (bit-identical
        // results, and half the accumulator traffic of float64 lanes).
        if (tile_outputs_ && acc_dtype_ == DType::Float64 && reduce_->dtype == DType::Float32 &&
            (reduce_->reduce == ReduceOp::Sum || reduce_->reduce == ReduceOp::Prod))
            acc_dtype_ = DType::Float32;
        std::string body = rows_ ? emit_rows() : !reduce_ ? emit_elementwise() : tile_outputs_ ? emit_reduce_tiled() : emit_reduce();
        body = user_preamble() + body;
        // The name covers the GPU entry points too: a column reduction's body
        // specialises its loads on the output tile's strides, its cooperative
        // entry points on the reduced dim's, so two kernels can share a body.
        char name[32];
        std::snprintf(name, sizeof name, "gpy_k_%016llx", (unsigned long long)fnv1a(body + gpu_extras_));
        auto named = [&](std::string src) {
            for (size_t p = src.find("KNAME"); p != std::string::npos; p = src.find("KNAME", p)) src.replace(p, 5, name);
            return src;
        };
        auto src = std::make_shared<KernelSource>();
        plan.source = src;
        src->name = name;
        src->body = named(body);
        src->gpu_body = named(gpu_extras_);
        src->vec4_align = vec4_align_;
        src->rank = int(space_.size());
        src->cooperative = reduce_ && !gpu_extras_.empty();
        src->reduce_unit = reduce_unit_;
        src->pairwise = reduce_ && !rows_ ? uint8_t(pairwise_kind()) : 0;
        src->reduce_vec_align = reduce_vec_align_;
        src->pairwise_vec_align = pairwise_vec_align_;
        src->row_blocks_per_sm = row_blocks_per_sm_;
        src->row_vec_align = row_vec_align_;
        src->row_vec_blocks_per_sm = row_vec_blocks_per_sm_;
        src->light = !reduce_ && !rows_ && std::none_of(roots_.begin(), roots_.end(), [this](const NodeP& r) { return costly_tree(r.get()); });
        src->vec4_prefetch = !src->vec4_align.empty() && !src->light && vec4_in_bytes_ <= 64;
        src->kind = rows_ ? KernelSource::RowFused
                    : !reduce_ ? KernelSource::Elementwise
                           : n_outer_ == 0 ? KernelSource::ReduceFull
                           : tile_outputs_ ? KernelSource::ReduceTiled : KernelSource::ReduceRows;
        src->summary = summary();
        Launch& L = plan.launch;
        for (auto& op : ops_) L.ptrs.push_back(op.base);
        src->may_fail = may_fail_;
        if (may_fail_) L.ptrs.push_back(nullptr);  // the runner points it at its error word
        for (int64_t d : space_) L.meta.push_back(d);
        for (auto& op : ops_) for (int64_t s : op.strides) L.meta.push_back(s);
        L.scalars = scalar_slots_;
        L.outer = 1;
        for (size_t d = 0; d < n_outer_; ++d) L.outer *= space_[d];
        L.inner = 1;
        for (size_t d = n_outer_; d < space_.size(); ++d) L.inner *= space_[d];
        if (!reduce_ && !rows_) {
            L.outer = 1;
            for (int64_t d : space_) L.outer *= d;
            L.inner = 1;
        }
        src->n_ptrs = int(L.ptrs.size());
        src->n_meta = int(L.meta.size());
        src->n_scalars = int(L.scalars.size());
        if (src->kind == KernelSource::Elementwise && !may_fail_)
            src->tier0 = tier0_program(roots_, leaf_index_, scalar_index_, int(space_.size()), int(ops_.size()), int(scalar_slots_.size()));
        return plan;
    }

private:
    NodeP root_;
    std::vector<NodeP> roots_;
    size_t n_out_;  // operands [0, n_out_) are the outputs
    const Target* target_;
    const Node* reduce_ = nullptr;
    std::vector<Operand> ops_;           // output + leaves
    std::map<const Node*, size_t> leaf_index_;
    std::map<const Node*, size_t> scalar_index_;
    std::vector<uint64_t> scalar_slots_;
    Shape space_;                        // iteration shape (outer dims, then inner dims)
    size_t n_outer_ = 0;                 // dims of space_ that index outputs
    bool may_fail_ = false;              // the body can set `err`
    bool tile_outputs_ = false;          // column reduction: loops run across a tile of outputs
    bool sum_inner_kept_ = false;        // a float sum whose innermost memory dim is not reduced (pairwise_kind 4)
    bool sum_input_view_ = false;        // a float sum of an array as it is, not of an expression
    bool sum_reduced_block_ = false;     // its reduced dims are the innermost ones in memory order
    std::vector<int64_t> output_strides_;
    DType acc_dtype_ = DType::Float64;
    std::string gpu_extras_;              // KernelSource::gpu_body (before KNAME substitution)
    std::unordered_set<const Node*> reduce_search_seen_;         // find_reduce
    std::set<std::pair<const Node*, bool>> leaf_search_seen_;    // collect_leaves (node, epilogue)
    std::vector<uint8_t> vec4_align_;     // KernelSource::vec4_align
    int vec4_in_bytes_ = 0;               // the vector path's input bytes a step
    bool reduce_unit_ = false;            // KernelSource::reduce_unit
    std::vector<uint8_t> reduce_vec_align_;  // KernelSource::reduce_vec_align
    std::vector<uint8_t> pairwise_vec_align_;  // KernelSource::pairwise_vec_align
    bool rows_ = false;                   // a RowFused kernel (row_kernel_fits)
    std::vector<const Node*> stages_;     // rows_: its reductions, each after those it reads
    std::map<const Node*, std::string> row_values_;  // rows_: per-row variables of Reduce and Expand nodes
    bool row_cache_ = false;              // rows_: loads read the registers L<k>[u] (emit_rows)
    std::vector<uint8_t> row_vec_align_;  // KernelSource::row_vec_align
    int row_vec_blocks_per_sm_ = 3;       // KernelSource::row_vec_blocks_per_sm
    int row_blocks_per_sm_ = 2;           // KernelSource::row_blocks_per_sm
    // rows_ with the register cache: values a later pass reads again, kept
    // per element in C<i>[u] by the pass that first computes them (pass
    // index: the stage, or stages_.size() for the stores).
    struct CachedValue { const Node* node; size_t producer; std::string array; };
    std::vector<CachedValue> value_cache_;  // in the order chosen (the source must not depend on addresses)
    bool value_cached(const Node* n) const {
        for (const CachedValue& c : value_cache_)
            if (c.node == n) return true;
        return false;
    }

    // Computed nodes act as inputs.
    static const Node* effective(const Node* n) { return n->result ? n->result.get() : n; }

    // Walks visit each node of a shared graph once (a graph of n distinct
    // nodes can be a tree of 2^n).
    void find_reduce(const Node* n) {
        n = effective(n);
        if (!reduce_search_seen_.insert(n).second) return;
        if (n->op == Op::Reduce) {
            if (reduce_ && reduce_ != n) throw std::logic_error("emit_kernel: more than one reduction in a kernel");
            reduce_ = n;
            return;  // its subtree is the prologue
        }
        for (auto& c : n->in) find_reduce(c.get());
    }

    // Registers leaves under `n`, whose values are used in `context` shape;
    // `to_space` maps context strides onto the iteration space.
    void collect_leaves(const Node* n, const Shape& context, const std::function<std::vector<int64_t>(const std::vector<int64_t>&)>& to_space,
                        bool epilogue) {
        n = effective(n);
        if (!leaf_search_seen_.insert({n, epilogue}).second) return;
        if (n->op == Op::Reduce && n == reduce_ && epilogue) return;
        if (n->op == Op::Scalar) {
            if (!scalar_index_.count(n)) {
                scalar_index_[n] = scalar_slots_.size();
                uint64_t slot;
                static_assert(sizeof(slot) == sizeof(n->value.raw), "scalar slot");
                __builtin_memcpy(&slot, n->value.raw, sizeof slot);
                scalar_slots_.push_back(slot);
                if (n->dtype == DType::Complex128) {  // 16 bytes: the imaginary part in the next slot
                    __builtin_memcpy(&slot, &n->value.imag, sizeof slot);
                    scalar_slots_.push_back(slot);
                }
            }
            return;
        }
        if (n->op == Op::Input) {
            if (leaf_index_.count(n)) return;
            // The same view reached through another node (x * x) is one operand.
            std::vector<int64_t> strides = to_space(broadcast_strides(n->shape, n->strides, context));
            char* base = kernel_input(n->buffer) + n->offset;
            for (size_t k = 0; k < ops_.size(); ++k) {
                if (ops_[k].base == base && ops_[k].dtype == n->dtype && ops_[k].strides == strides && ops_[k].epilogue == epilogue) {
                    leaf_index_[n] = k + n_out_;
                    return;
                }
            }
            Operand op;
            op.node = n;
            op.dtype = n->dtype;
            op.base = kernel_input(n->buffer) + n->offset;
            op.strides = to_space(broadcast_strides(n->shape, n->strides, context));
            op.epilogue = epilogue;
            leaf_index_[n] = ops_.size() + n_out_;  // the outputs come first
            ops_.push_back(op);
            return;
        }
        for (auto& c : n->in) collect_leaves(c.get(), context, to_space, epilogue);
    }

    void setup_elementwise() {
        space_ = target_ ? target_->shape : root_->shape;
        n_outer_ = space_.size();
        output_strides_ = target_ ? target_->strides : contiguous_strides(space_, itemsize(root_->dtype));
        for (const NodeP& r : roots_) collect_leaves(r.get(), space_, [](const std::vector<int64_t>& s) { return s; }, false);
    }

    // Row kernels: the iteration space is the root's shape, its last dim the
    // row; every Input sits in that space (inside Expands there are none).
    void setup_rows() {
        const Node* rows_of = row_pattern_under(root_.get());
        space_ = rows_of ? rows_of->shape : root_->shape;
        n_outer_ = space_.size() - 1;
        output_strides_ = contiguous_strides(space_, itemsize(root_->dtype));
        if (rows_of) output_strides_ = broadcast_strides(root_->shape, contiguous_strides(root_->shape, itemsize(root_->dtype)), space_);
        for (const NodeP& r : roots_) collect_leaves(r.get(), space_, [](const std::vector<int64_t>& s) { return s; }, false);
        std::unordered_set<const Node*> seen;
        for (const NodeP& r : roots_) find_stages(r.get(), seen);
    }

    void find_stages(const Node* n, std::unordered_set<const Node*>& seen) {
        n = effective(n);
        if (n->op == Op::Input || n->op == Op::Scalar || !seen.insert(n).second) return;
        for (auto& c : n->in) find_stages(c.get(), seen);
        if (n->op == Op::Reduce) stages_.push_back(n);
    }

    void setup_reduce() {
        const Node* x = effective(reduce_->in[0].get());
        const Shape& xs = x->shape;
        std::vector<int> kept, red = reduce_->axes;
        for (int d = 0; d < int(xs.size()); ++d)
            if (std::find(red.begin(), red.end(), d) == red.end()) kept.push_back(d);
        if (reduce_->reduce == ReduceOp::Sum && is_float(reduce_->dtype) && is_float(x->dtype)) {
            // A float sum adds in NumPy's order: its reduced dims walked in
            // memory order; which loop is innermost picks the kind
            // (pairwise_kind).
            std::vector<int> order = numpy_axis_order(reduce_->in[0].get());
            auto pos = [&](int d) { return std::find(order.begin(), order.end(), d) - order.begin(); };
            std::stable_sort(red.begin(), red.end(), [&](int a, int b) { return pos(a) < pos(b); });
            // Walking inwards: is the innermost dim kept, and do the reduced
            // dims form one block at the inner end (no kept dim among them)?
            bool seen_reduced = false;
            sum_reduced_block_ = true;
            for (int d : order) {
                if (xs[size_t(d)] == 1) continue;
                bool reduced = std::find(red.begin(), red.end(), d) != red.end();
                if (!reduced && seen_reduced) sum_reduced_block_ = false;
                seen_reduced = seen_reduced || reduced;
            }
            for (auto it = order.rbegin(); it != order.rend(); ++it) {
                if (xs[size_t(*it)] == 1) continue;
                sum_inner_kept_ = std::find(red.begin(), red.end(), *it) == red.end();
                break;
            }
            sum_input_view_ = reduce_->in[0]->op == Op::Input;
        }
        for (int d : kept) space_.push_back(xs[size_t(d)]);
        n_outer_ = space_.size();
        for (int d : red) space_.push_back(xs[size_t(d)]);
        // Output: contiguous over the kept dims, zero over reduced ones.
        auto out_kept = contiguous_strides(reduce_->shape, itemsize(root_->dtype));
        output_strides_ = out_kept;
        output_strides_.resize(space_.size(), 0);
        // Prologue leaves: context = x's shape, permuted (kept..., reduced...).
        auto permute = [kept, red](const std::vector<int64_t>& s) {
            std::vector<int64_t> out;
            for (int d : kept) out.push_back(s[size_t(d)]);
            for (int d : red) out.push_back(s[size_t(d)]);
            return out;
        };
        collect_leaves(x, xs, permute, false);
        // Epilogue leaves: context = the reduce's output shape.
        size_t total = space_.size();
        auto widen = [total](const std::vector<int64_t>& s) {
            std::vector<int64_t> out = s;
            out.resize(total, 0);
            return out;
        };
        collect_leaves(root_.get(), reduce_->shape, widen, true);
        acc_dtype_ = accumulator_dtype();
    }

    DType accumulator_dtype() const {
        DType in = effective(reduce_->in[0].get())->dtype;
        switch (reduce_->reduce) {
            case ReduceOp::Sum: case ReduceOp::Prod:
                if (is_complex(reduce_->dtype)) return DType::Complex128;
                return is_float(reduce_->dtype) ? DType::Float64 : reduce_->dtype;
            case ReduceOp::Any: case ReduceOp::All: return DType::Bool;
            default: return in == DType::Float16 ? DType::Float32 : in;
        }
    }

    // Merges adjacent dims of one group when every operand steps through them
    // as one; drops size-1 dims. Keeps at least one dim per non-empty group.
    void collapse() {
        auto collapse_group = [&](size_t begin, size_t end) {
            std::vector<size_t> dims;
            for (size_t d = begin; d < end; ++d)
                if (space_[d] != 1) dims.push_back(d);
            std::vector<int64_t> shape;
            std::vector<std::vector<int64_t>> strides(ops_.size());
            for (size_t d : dims) {
                bool merge = !shape.empty();
                for (size_t k = 0; merge && k < ops_.size(); ++k)
                    merge = strides[k].back() == ops_[k].strides[d] * space_[d];
                if (merge) {
                    shape.back() *= space_[d];
                    for (size_t k = 0; k < ops_.size(); ++k) strides[k].back() = ops_[k].strides[d];
                } else {
                    shape.push_back(space_[d]);
                    for (size_t k = 0; k < ops_.size(); ++k) strides[k].push_back(ops_[k].strides[d]);
                }
            }
            if (shape.empty() && end > begin) {
                shape.push_back(1);
                for (size_t k = 0; k < ops_.size(); ++k) strides[k].push_back(0);
            }
            return std::make_pair(shape, strides);
        };
        if (space_.empty()) {  // 0-d: one element
            space_.push_back(1);
            n_outer_ = 1;
            for (auto& op : ops_) op.strides.push_back(0);
        }
        auto [oshape, ostr] = collapse_group(0, n_outer_);
        auto [ishape, istr] = collapse_group(n_outer_, space_.size());
        space_ = oshape;
        n_outer_ = oshape.size();
        space_.insert(space_.end(), ishape.begin(), ishape.end());
        for (size_t k = 0; k < ops_.size(); ++k) {
            ops_[k].strides = ostr[k];
            ops_[k].strides.insert(ops_[k].strides.end(), istr[k].begin(), istr[k].end());
        }
    }

    // ---- expression emission ----

    std::ostringstream code_;
    std::map<const Node*, std::string> values_;
    int next_value_ = 0;
    // User nodes' preambles (np.ElementwiseKernel), each once, in first-use order.
    std::vector<std::string> preambles_;
    bool has_user_ = false;

    std::string load(size_t k, const std::string& index_expr) {
        const Operand& op = ops_[k];
        std::string T = storage_type(op.dtype);
        std::string raw;
        if (row_cache_ && k >= n_out_ && !zero(k)) return (op.dtype == DType::Float16 ? "(float)L" : "L") + std::to_string(k) + "[u]";
        // Stride-0 (broadcast) and unit-stride operands are specialised in the
        // source so the compiler hoists or vectorises their loads.
        if (zero(k)) raw = "*(const " + T + "*)q" + std::to_string(k);
        else if (unit(k)) raw = "((const " + T + "*)q" + std::to_string(k) + ")[" + index_expr + "]";
        else raw = "*(const " + T + "*)(q" + std::to_string(k) + " + " + index_expr + " * s" + std::to_string(k) + ")";
        if (op.dtype == DType::Float16) return "(float)" + raw;
        return raw;
    }

    // Strides along the dim the innermost loop walks: the last dim, or for
    // column-tiled reductions the last output dim.
    int64_t walk_stride(size_t k) const { return ops_[k].strides[tile_outputs_ ? n_outer_ - 1 : space_.size() - 1]; }
    bool unit(size_t k) const {
        if (space_.empty()) return true;
        return walk_stride(k) == int64_t(itemsize(ops_[k].dtype));
    }
    bool zero(size_t k) const { return !space_.empty() && walk_stride(k) == 0 && k != 0; }

    // Emits statements computing `n` (inside the innermost loop) and returns its variable.
    std::string value(const Node* n, const std::string& idx, bool in_prologue) {
        n = effective(n);
        if (auto row = row_values_.find(n); row != row_values_.end()) return row->second;
        if (n == reduce_ && !in_prologue) {
            // The reduced value enters the epilogue in the reduce node's dtype
            // (argmax/argmin: the index).
            std::string v = "v" + std::to_string(next_value_++);
            std::string expr = is_arg() ? "(int64_t)(ridx < 0 ? 0 : ridx)" : cast_expr("racc", acc_dtype_, n->dtype);
            code_ << "            const " << compute_type(n->dtype) << " " << v << " = " << expr << ";\n";
            values_[n] = v;
            return v;
        }
        auto it = values_.find(n);
        if (it != values_.end()) return it->second;
        std::string v;
        if (n->op == Op::Scalar) {
            v = "c" + std::to_string(scalar_index_.at(n));
            values_[n] = v;
            return v;
        }
        std::string T = compute_type(n->dtype);
        std::string expr;
        switch (n->op) {
            case Op::Input: expr = load(leaf_index_.at(n), idx); break;
            case Op::Cast: expr = cast_expr(value(n->in[0].get(), idx, in_prologue), effective(n->in[0].get())->dtype, n->dtype); break;
            case Op::Unary: expr = unary_expr(n->unary, effective(n->in[0].get())->dtype, n->dtype, value(n->in[0].get(), idx, in_prologue)); break;
            case Op::Binary:
                // A negative integer exponent is an error the kernel reports.
                if (n->binary == BinaryOp::Pow && kind(n->dtype) == DKind::Int) may_fail_ = true;
                expr = binary_expr(n->binary, effective(n->in[0].get())->dtype, effective(n->in[1].get())->dtype, n->dtype,
                                   value(n->in[0].get(), idx, in_prologue), value(n->in[1].get(), idx, in_prologue));
                break;
            case Op::Where:
                expr = "(" + value(n->in[0].get(), idx, in_prologue) + " ? " + value(n->in[1].get(), idx, in_prologue) +
                       " : " + value(n->in[2].get(), idx, in_prologue) + ")";
                break;
            case Op::User: return user_value(n, idx, in_prologue);
            default: throw std::logic_error("emit: unexpected node");
        }
        if (n->dtype == DType::Float16 && n->op != Op::Input && n->op != Op::Cast) expr = "gpy_round_half(" + expr + ")";
        v = "v" + std::to_string(next_value_++);
        code_ << "            const " << T << " " << v << " = " << expr << ";\n";
        values_[n] = v;
        return v;
    }


    // A user's operation (dag::UserCode) as a block: its typedefs, its
    // parameters bound to the operands' values, its output declared, its
    // statements, and the output taken as the node's value.
    std::string user_value(const Node* n, const std::string& idx, bool in_prologue) {
        const dag::UserCode& u = *n->user;
        std::vector<std::string> args;
        for (const NodeP& c : n->in) args.push_back(value(c.get(), idx, in_prologue));
        has_user_ = true;
        if (!u.preamble.empty() && std::find(preambles_.begin(), preambles_.end(), u.preamble) == preambles_.end())
            preambles_.push_back(u.preamble);
        std::string v = "v" + std::to_string(next_value_++);
        std::string T = compute_type(n->dtype);
        code_ << "            " << T << " " << v << ";\n            {  " << kUserKernelMarker << u.name << "\n";
        for (const auto& [tname, dt] : u.types) code_ << "                typedef " << compute_type(dt) << " " << tname << ";\n";
        for (size_t k = 0; k < u.params.size(); ++k)
            code_ << "                const " << compute_type(effective(n->in[k].get())->dtype) << " " << u.params[k] << " = " << args[k] << ";\n";
        // The output starts as the given array's element (its operand after
        // the parameters: `y += x` reads it, as in CuPy), else as zero.
        code_ << "                " << T << " " << u.out << " = " << (u.out_given ? args.back() : T + "()") << ";\n";
        code_ << "                " << u.code << ";\n";  // CuPy ends the operation with a semicolon
        std::string result = n->dtype == DType::Float16 ? "gpy_round_half(" + u.out + ")" : u.out;
        code_ << "                " << v << " = " << result << ";\n            }\n";
        values_[n] = v;
        return v;
    }

    // What a body with user operations needs before the kernel: on the CPU
    // the CUDA math names users call (exp, max, ...) over the compiler's
    // builtins and the CUDA qualifiers as nothing; then the users' preambles.
    std::string user_preamble() const {
        if (!has_user_) return "";
        std::string s = kUserMathPrelude;
        for (const std::string& p : preambles_) s += p + "\n";
        return s;
    }

    std::string scalar_hoists() {
        std::ostringstream s;
        // Slot order, not node-address order: the source must not depend on
        // where nodes happen to live in memory (it is the cache key).
        std::vector<std::pair<size_t, const Node*>> by_slot;
        for (auto& [node, slot] : scalar_index_) by_slot.push_back({slot, node});
        std::sort(by_slot.begin(), by_slot.end());
        for (auto& [slot, node] : by_slot) {
            std::string ST = storage_type(node->dtype);
            std::string CT = compute_type(node->dtype);
            s << "    const " << CT << " c" << slot << " = (" << CT << ")*(const " << ST << "*)(S + " << slot << ");\n";
        }
        return s.str();
    }

    std::string operand_decls() {
        std::ostringstream s;
        size_t D = space_.size();
        s << "    const int64_t* shape = M;\n    const int64_t* st = M + " << D << ";\n";
        s << "    (void)shape; (void)st;\n";
        for (size_t k = 0; k < ops_.size(); ++k) s << "    char* GPY_RESTRICT p" << k << " = P[" << k << "];\n";
        return s.str();
    }

    // Stores value `v` at index `idx` of output `k`.
    std::string store(const std::string& idx, const std::string& v, size_t k = 0) {
        std::string T = storage_type(roots_[k]->dtype), q = "q" + std::to_string(k), st = "s" + std::to_string(k);
        if (unit(k)) return "((" + T + "*)" + q + ")[" + idx + "] = (" + T + ")" + v + ";";
        return "*(" + T + "*)(" + q + " + " + idx + " * " + st + ") = (" + T + ")" + v + ";";
    }

    // Row loop over dims [first, last) of the space, calling `body(j)` for
    // each element of the innermost dim; q<k> point at the row, s<k> are
    // inner strides. `offset_init` gives starting offsets.
    std::string emit_elementwise() {
        size_t D = space_.size();
        std::ostringstream s;
        std::string body;
        {
            std::vector<std::string> vs;
            for (const NodeP& r : roots_) vs.push_back(value(r.get(), "j", false));
            body = code_.str();
            for (size_t k = 0; k < n_out_; ++k) body += "            " + store("j", vs[k], k) + "\n";
        }
        s << "GPY_KERNEL void KNAME(char** P, const int64_t* M, const uint64_t* S, int64_t begin, int64_t end) {\n";
        s << "    int err = 0; (void)err; (void)S;\n" << scalar_hoists() << operand_decls();
        // One dim (the common case once contiguous dims collapse): begin is
        // the index itself. A GPU thread computes one element per call, where
        // a 64-bit division would cost more than the memory access.
        if (D == 1) s << "    int64_t idx[1] = {begin};\n";
        else s << "    int64_t idx[" << D << "];\n    { int64_t r = begin; for (int d = " << D - 1
               << "; d >= 0; --d) { idx[d] = r % shape[d]; r /= shape[d]; } }\n";
        s << "    for (int64_t i = begin; i < end;) {\n";
        s << "        int64_t n = shape[" << D - 1 << "] - idx[" << D - 1 << "];\n        if (n > end - i) n = end - i;\n";
        for (size_t k = 0; k < ops_.size(); ++k) {
            s << "        char* GPY_RESTRICT q" << k << " = p" << k << ";";
            s << " for (int d = 0; d < " << D << "; ++d) q" << k << " += idx[d] * st[" << k * D << " + d];";
            s << " const int64_t s" << k << " = st[" << k * D + D - 1 << "]; (void)s" << k << ";\n";
        }
        s << "        for (int64_t j = 0; j < n; ++j) {\n" << body << "        }\n";
        s << "        i += n;\n        idx[" << D - 1 << "] = 0;\n";
        s << "        for (int d = " << int(D) - 2 << "; d >= 0; --d) { if (++idx[d] < shape[d]) break; idx[d] = 0; }\n";
        s << "    }\n" << error_report() << "}\n";
        if (vec4_eligible()) gpu_extras_ = emit_vec4(body);
        return s.str();
    }

    // ---- row kernels (KernelSource::RowFused) ----

    // KNAME_row(P, M, S, o, t, nt, vec): row o, thread t of nt. Each
    // reduction is a loop over the row (elements t, t + nt, ...) folding into
    // a per-row variable that gpy_row_allreduce makes the same in every
    // thread; the keepdims values built from them are per-row variables too;
    // a last loop stores the result. On a GPU (GPY_ROW_CACHE elements per
    // thread) a row that fits is loaded into registers once and every loop
    // reads those: by vectors of four where `vec` (the runner checked that
    // every row of every operand starts on a vector boundary, see
    // KernelSource::row_vec_align), else element by element; longer rows,
    // and the CPU (a row per call, in L1/L2), read it per loop.
    std::string emit_rows() {
        size_t D = space_.size();
        std::ostringstream s;
        s << "GPY_ROW_FN void KNAME_row(char** P, const int64_t* M, const uint64_t* S, int64_t o, int64_t t, int64_t nt, int vec) {\n";
        s << "    GPY_REASSOC\n    int err = 0; (void)err; (void)S; (void)vec;\n" << scalar_hoists() << operand_decls() << outer_offsets("o");
        s << "        const int64_t n = shape[" << D - 1 << "];\n";
        for (size_t k = 0; k < ops_.size(); ++k)
            s << "        char* GPY_RESTRICT q" << k << " = o" << k << "; const int64_t s" << k << " = st[" << k * D + D - 1 << "]; (void)s" << k << ";\n";
        // Registers: GPY_ROW_CACHE per thread for each operand read along the row.
        size_t cached = 0;
        for (size_t k = n_out_; k < ops_.size(); ++k) cached += !zero(k);
        if (cached > 0 && cached <= 2) {  // 32 registers at most (the wrapper's launch bounds allow 64)
            // Both cached paths keep the same values in registers.
            row_cache_ = true;
            choose_value_cache();
            row_blocks_per_sm_ = peak_register_words() <= 16 ? 4 : 2;
            row_vec_blocks_per_sm_ = peak_register_words() <= 32 ? 3 : 2;
            s << "#if GPY_ROW_CACHE\n";
            if (row_vec_eligible()) s << cached_rows(true) << "        else\n";
            s << cached_rows(false) << "        else\n#endif\n";
            value_cache_.clear();
            row_cache_ = false;
        }
        s << "        {\n" << row_passes({"        for (int64_t j = t; j < n; j += nt) {\n", "", "", "        }\n"}) << "        }\n";
        s << error_report() << "}\n";
        s << "GPY_KERNEL void KNAME(char** P, const int64_t* M, const uint64_t* S, int64_t begin, int64_t end) {\n"
          << "    for (int64_t o = begin; o < end; ++o) KNAME_row(P, M, S, o, 0, 1, 0);\n}\n";
        return s.str();
    }

    // Every operand that the row loops read or write is contiguous along the
    // row (or a broadcast, or a per-row output): the cached path can move
    // four neighbours per load and store.
    bool row_vec_eligible() {
        std::vector<uint8_t> align(ops_.size(), 0);
        for (size_t k = 0; k < ops_.size(); ++k) {
            if (is_complex(ops_[k].dtype)) return false;
            bool per_row = k < n_out_ && roots_[k]->op == Op::Expand;
            if (per_row || zero(k)) continue;
            if (!unit(k)) return false;
            align[k] = uint8_t(4 * itemsize(ops_[k].dtype));
        }
        row_vec_align_ = std::move(align);
        return true;
    }

    // `if (...) { ... }`: the register-cached row, filled and stored by
    // vectors of four (`vec`: slot u = 4w + l is element 4(t + w nt) + l, so
    // a warp's loads and stores stay contiguous) or element by element
    // (slot u is element t + u nt).
    std::string cached_rows(bool vec) {
        std::ostringstream s;
        s << "        if (" << (vec ? "vec && " : "") << "n <= GPY_ROW_CACHE * nt) {\n";
        for (size_t k = n_out_; k < ops_.size(); ++k) {
            if (zero(k)) continue;
            std::string T = storage_type(ops_[k].dtype), K = std::to_string(k);
            s << "        " << T << " L" << K << "[GPY_ROW_CACHE];\n        #pragma unroll\n";
            if (vec) {
                s << "        for (int w = 0; w < GPY_ROW_CACHE / 4; ++w) { const int64_t jv = 4 * (t + w * nt); if (jv < n) { const gpy_vec4<" << T
                  << "> b = *(const gpy_vec4<" << T << ">*)((const " << T << "*)q" << K << " + jv);";
                for (int l = 0; l < 4; ++l) s << " L" << K << "[4 * w + " << l << "] = b.v[" << l << "];";
                s << " } }\n";
            } else {
                std::string raw = unit(k) ? "((const " + T + "*)q" + K + ")[j]" : "*(const " + T + "*)(q" + K + " + j * s" + K + ")";
                s << "        for (int u = 0; u < GPY_ROW_CACHE; ++u) { const int64_t j = t + u * nt; if (j < n) L" << K << "[u] = " << raw << "; }\n";
            }
        }
        for (const CachedValue& c : value_cache_) s << "        " << compute_type(c.node->dtype) << " " << c.array << "[GPY_ROW_CACHE];\n";
        if (vec)
            s << row_passes({"        #pragma unroll\n        for (int w = 0; w < GPY_ROW_CACHE / 4; ++w) { const int64_t jv = 4 * (t + w * nt); if (jv >= n) break;\n",
                             "        #pragma unroll\n        for (int l = 0; l < 4; ++l) { const int u = 4 * w + l; const int64_t j = jv + l;\n",
                             "        }\n", "        }\n"});
        else
            s << row_passes({"        #pragma unroll\n        for (int u = 0; u < GPY_ROW_CACHE; ++u) { const int64_t j = t + u * nt; if (j >= n) break;\n",
                             "", "", "        }\n"});
        s << "        }\n";
        return s.str();
    }
    // A loop over a row's elements, as text: `outer` opens it (defining j,
    // and u where rows are cached) unless `inner` does (the vector path: an
    // outer loop over vectors, an inner one over their four lanes).
    struct RowLoop { std::string outer, inner, inner_close, outer_close; };

    // The reductions one after another, then the stores. In the vector path
    // the store pass gathers each output's four lanes in W<k> between the
    // inner and outer loops and writes them as one vector.
    std::string row_passes(const RowLoop& loop) {
        const std::string open = loop.outer + loop.inner, close = loop.inner_close + loop.outer_close;
        std::ostringstream s;
        row_values_.clear();
        for (size_t i = 0; i < stages_.size(); ++i) {
            const Node* r = stages_[i];
            const Node* x = effective(r->in[0].get());
            s << row_scope_values(x);
            code_.str("");
            values_.clear();
            read_value_cache(i);
            std::string v = value(x, "j", true);
            fill_value_cache(i);
            std::string A = r->reduce == ReduceOp::Sum ? "double" : compute_type(x->dtype);
            std::string a = "a" + std::to_string(i), init, fold, comb;
            switch (r->reduce) {
                case ReduceOp::Sum: init = "0"; fold = a + " += (double)" + v + ";"; comb = "x + y"; break;
                case ReduceOp::Max: init = "-__builtin_inf()"; fold = a + " = gpy_row_max(" + a + ", (" + A + ")" + v + ");"; comb = "gpy_row_max(x, y)"; break;
                default: init = "__builtin_inf()"; fold = a + " = gpy_row_min(" + a + ", (" + A + ")" + v + ");"; comb = "gpy_row_min(x, y)"; break;
            }
            s << "        " << A << " " << a << " = " << init << ";\n";
            if (r->reduce == ReduceOp::Sum && is_float(x->dtype)) {
                // The CPU adds a row as NumPy does (pairwise_kind): pairwise
                // when the row runs along memory, else element after element
                // in the sum's type. The GPU keeps its parallel loops.
                std::string T = x->dtype == DType::Float64 ? "double" : "float";
                std::vector<int> order = numpy_axis_order(r->in[0].get());
                bool along = !order.empty() && order.back() == int(x->shape.size()) - 1;
                s << "#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)\n";
                // Pairwise: the row's values first go to a buffer (the loop
                // hoists what is the same for the whole row, which a lambda
                // called from the recursion recomputes per element).
                if (along)
                    s << "        { " << T << " rstack[4096]; " << T << "* rbuf = n <= 4096 ? rstack : (" << T << "*)__builtin_malloc(sizeof(" << T
                      << ") * n);\n"
                      << "          if (rbuf) {\n" << open << code_.str() << "            rbuf[j] = (" << T << ")(" << v << ");\n" << close
                      << "          auto at = [&](int64_t j) -> " << T << " { return rbuf[j]; };\n"
                      << "          " << a << " = (double)((" << T << ")0 + gpy_pairwise<" << T << ">(at, 0, n));\n"
                      << "          if (rbuf != rstack) __builtin_free(rbuf);\n"
                      << "          } else {  // no memory for the buffer: in order, not NumPy's\n"
                      << "          " << T << " rseq = 0;\n" << open << code_.str() << "            rseq = (" << T << ")(rseq + (" << T << ")(" << v
                      << "));\n" << close << "          " << a << " = (double)rseq; } }\n";
                else
                    s << "        { " << T << " rseq = 0;\n" << open << code_.str() << "            rseq = (" << T << ")(rseq + (" << T << ")(" << v
                      << "));\n" << close << "          " << a << " = (double)rseq; }\n";
                s << "#else\n" << open << code_.str() << "            " << fold << "\n" << close << "#endif\n";
            } else {
                s << open << code_.str() << "            " << fold << "\n" << close;
            }
            // One pass per row: the next row's reuses the slots (prelude).
            s << "        " << a << " = gpy_row_allreduce<" << (stages_.size() == 1 ? "true" : "false") << ">(" << a << ", [](" << A << " x, " << A << " y) { return " << comb << "; });\n";
            std::string rv = "r" + std::to_string(i);
            DType acc = r->reduce == ReduceOp::Sum ? DType::Float64 : x->dtype;
            s << "        const " << compute_type(r->dtype) << " " << rv << " = " << cast_expr(a, acc, r->dtype) << ";\n";
            row_values_[r] = rv;
        }
        for (const NodeP& r : roots_) s << row_scope_values(r.get());
        // Per-row outputs (a keepdims value the program holds): thread 0 stores them.
        for (size_t k = 0; k < n_out_; ++k)
            if (roots_[k]->op == Op::Expand) s << "        if (t == 0) " << store("0", row_values_.at(effective(roots_[k].get())), k) << "\n";
        code_.str("");
        values_.clear();
        read_value_cache(stages_.size());
        std::string stores, gather_decls, gather_writes;
        for (size_t k = 0; k < n_out_; ++k) {
            if (roots_[k]->op == Op::Expand) continue;
            std::string v = value(roots_[k].get(), "j", false);
            if (loop.inner.empty()) {  // element by element
                stores += "            " + store("j", v, k) + "\n";
                continue;
            }
            std::string T = storage_type(roots_[k]->dtype), K = std::to_string(k);
            gather_decls += "        gpy_vec4<" + T + "> W" + K + ";\n";
            stores += "            W" + K + ".v[l] = (" + T + ")" + v + ";\n";
            gather_writes += "        *(gpy_vec4<" + T + ">*)((" + T + "*)q" + K + " + jv) = W" + K + ";\n";
        }
        s << loop.outer << gather_decls << loop.inner << code_.str() << stores << loop.inner_close << gather_writes << loop.outer_close;
        return s.str();
    }

    // The per-element nodes pass `pass` computes: its tree down to loads,
    // scalars and per-row values (reductions, keepdims).
    void pass_nodes(const Node* n, std::set<const Node*>& out) const {
        n = effective(n);
        if (n->op == Op::Scalar || n->op == Op::Reduce || n->op == Op::Expand || !out.insert(n).second) return;
        for (auto& c : n->in) pass_nodes(c.get(), out);
    }
    std::vector<const Node*> pass_roots(size_t pass) const {
        if (pass < stages_.size()) return {effective(stages_[pass]->in[0].get())};
        std::vector<const Node*> out;
        for (const NodeP& r : roots_)
            if (r->op != Op::Expand) out.push_back(r.get());
        return out;
    }

    // More than a few additions and multiplications: a transcendental
    // function, a division, a power. Rounding, sign and class tests are a
    // few instructions (H100, float64 2^24: floor as a costly kernel 0.157 ms
    // against CuPy's 0.105; neg, a light one, 0.107).
    static bool costly(const Node* n) {
        if (n->op == Op::User) return true;  // a user's code: assume work
        if (n->op == Op::Unary) {
            switch (n->unary) {
                case UnaryOp::Neg: case UnaryOp::Pos: case UnaryOp::Abs: case UnaryOp::Square: case UnaryOp::Sign:
                case UnaryOp::Floor: case UnaryOp::Ceil: case UnaryOp::Trunc: case UnaryOp::Rint: case UnaryOp::Deg2Rad:
                case UnaryOp::Rad2Deg: case UnaryOp::IsNan: case UnaryOp::IsInf: case UnaryOp::IsFinite: case UnaryOp::SignBit:
                case UnaryOp::LogicalNot: case UnaryOp::Invert: case UnaryOp::Conj: case UnaryOp::Spacing:
                case UnaryOp::FrexpMant: case UnaryOp::FrexpExp:
                    return false;
                default: return true;
            }
        }
        if (n->op != Op::Binary) return false;
        switch (n->binary) {
            case BinaryOp::TrueDiv: case BinaryOp::FloorDiv: case BinaryOp::Mod: case BinaryOp::Fmod: case BinaryOp::Pow:
            case BinaryOp::Arctan2: case BinaryOp::Hypot: case BinaryOp::Ldexp:
                return true;
            default: return false;
        }
    }
    // Some costly node under n (computed nodes are loads).
    bool costly_tree(const Node* n) const {
        std::unordered_set<const Node*> seen;
        std::function<bool(const Node*)> walk = [&](const Node* m) {
            m = effective(m);
            if (m->op == Op::Input || m->op == Op::Scalar || !seen.insert(m).second) return false;
            if (costly(m) || is_complex(m->dtype)) return true;
            for (auto& c : m->in)
                if (walk(c.get())) return true;
            return false;
        };
        return walk(n);
    }
    bool costly_within(const Node* n, const std::set<const Node*>& pass) const {
        n = effective(n);
        if (!pass.count(n) || n->op == Op::Input) return false;
        if (costly(n)) return true;
        for (auto& c : n->in)
            if (costly_within(c.get(), pass)) return true;
        return false;
    }

    // Softmax's store pass recomputes exp(x - max) that the sum pass already
    // had: a value a later pass needs again, costly to recompute, is kept in
    // registers by the first pass computing it (the largest such values, so
    // one array stands for its whole subtree). Registers bound it: the arrays
    // live in any one pass (loads L<k> until their last reader, caches from
    // producer to last reader) hold at most 32 words per thread (the
    // wrapper's launch bounds allow 64 in all).
    void choose_value_cache() {
        value_cache_.clear();
        std::vector<std::set<const Node*>> per_pass(stages_.size() + 1);
        for (size_t p = 0; p <= stages_.size(); ++p)
            for (const Node* r : pass_roots(p)) pass_nodes(r, per_pass[p]);
        std::set<const Node*> earlier;  // computed by the passes before the current one
        for (size_t p = 1; p <= stages_.size(); ++p) {
            earlier.insert(per_pass[p - 1].begin(), per_pass[p - 1].end());
            std::set<const Node*> seen;
            std::function<void(const Node*)> visit = [&](const Node* n) {
                n = effective(n);
                if (!per_pass[p].count(n) || n->op == Op::Input || !seen.insert(n).second || value_cached(n)) return;
                if (earlier.count(n) && costly_within(n, per_pass[p])) {
                    size_t producer = 0;
                    while (!per_pass[producer].count(n)) ++producer;
                    value_cache_.push_back({n, producer, "C" + std::to_string(value_cache_.size())});
                    if (peak_register_words() <= 32) return;
                    value_cache_.pop_back();
                }
                for (auto& c : n->in) visit(c.get());
            };
            for (const Node* r : pass_roots(p)) visit(r);
        }
    }

    static int words_of(DType t) { return 16 * int(std::max<size_t>(4, itemsize(t)) / 4); }

    // The most register words that the load arrays and value_cache_ hold at
    // once, pass by pass, given what each pass reads under value_cache_.
    int peak_register_words() const {
        size_t passes = stages_.size() + 1;
        std::map<const Node*, size_t> last_read;  // loads and caches: the last pass reading them
        for (size_t p = 0; p < passes; ++p) {
            std::set<const Node*> seen;
            std::function<void(const Node*)> reach = [&](const Node* n) {
                n = effective(n);
                if (n->op == Op::Scalar || n->op == Op::Reduce || n->op == Op::Expand || !seen.insert(n).second) return;
                for (const CachedValue& c : value_cache_)
                    if (c.node == n && c.producer < p) {
                        last_read[n] = p;
                        return;
                    }
                if (n->op == Op::Input) last_read[n] = p;
                for (auto& c : n->in) reach(c.get());
            };
            for (const Node* r : pass_roots(p)) reach(r);
        }
        int peak = 0;
        for (size_t p = 0; p < passes; ++p) {
            int words = 0;
            for (size_t k = n_out_; k < ops_.size(); ++k) {
                if (zero(k)) continue;
                bool live = false;
                for (auto& [n, last] : last_read)
                    live |= n->op == Op::Input && leaf_index_.at(n) == k && last >= p;
                words += live ? words_of(ops_[k].dtype) : 0;
            }
            for (const CachedValue& c : value_cache_) {
                auto it = last_read.find(c.node);
                if (c.producer <= p && it != last_read.end() && it->second >= p) words += words_of(c.node->dtype);
            }
            peak = std::max(peak, words);
        }
        return peak;
    }
    // Pass `pass` reads the cached values earlier passes stored...
    void read_value_cache(size_t pass) {
        for (const CachedValue& c : value_cache_)
            if (c.producer < pass) values_[c.node] = c.array + "[u]";
    }
    // ...which the producing pass stores once its body has computed them.
    void fill_value_cache(size_t pass) {
        for (const CachedValue& c : value_cache_)
            if (c.producer == pass) code_ << "            " << c.array << "[u] = " << values_.at(c.node) << ";\n";
    }

    // Row-scope statements for the keepdims (Expand) values that `n` reads
    // and that are not computed yet: arithmetic on earlier reductions and
    // scalars (row_kernel_fits allows nothing else inside an Expand).
    std::string row_scope_values(const Node* n) {
        std::string out;
        std::unordered_set<const Node*> seen;
        std::function<void(const Node*)> walk = [&](const Node* m) {
            m = effective(m);
            if (m->op == Op::Input || m->op == Op::Scalar || m->op == Op::Reduce || row_values_.count(m) || !seen.insert(m).second) return;
            if (m->op != Op::Expand) {
                for (auto& c : m->in) walk(c.get());
                return;
            }
            code_.str("");
            values_.clear();
            std::string v = value(m->in[0].get(), "0", true);
            out += code_.str();
            row_values_[m] = v;
        };
        walk(n);
        return out;
    }

    // ---- CUDA-only entry points (KernelSource::gpu_body) ----

    // Every operand contiguous or broadcast (stride 0) along the last dim, no
    // complex: a GPU thread can take four neighbouring elements of a row with
    // vector loads.
    bool vec4_eligible() const {
        if (space_.empty()) return false;
        for (size_t k = 0; k < ops_.size(); ++k)
            if (is_complex(ops_[k].dtype) || !(unit(k) || zero(k))) return false;
        return true;
    }

    // KNAME_vec4(P, M, S, r, c, m, vec): elements [c, c + m) (m <= 4) of row
    // r (the flat index over all dims but the last; 0 for one dim). With
    // `vec` (m == 4 and every row of every operand on a 4 x itemsize
    // boundary: the runner and wrapper check) each operand moves as one
    // gpy_vec4; otherwise element by element, the missing lanes repeating
    // element c (so they compute what a real element does, errors included,
    // and are not stored). The loop body runs once, on registers: q<k> point
    // into the vectors. The partial stores are a fixed four-step loop with a
    // test each: a loop to m (a run-time count) cost NVVM and ptxas ~10 ms
    // more per kernel (they unroll it with a remainder).
    // It is two halves: KNAME_vec4_in loads the input vectors into a
    // KNAME_vin, KNAME_vec4_run computes and stores, so that the grid-stride
    // wrapper of a costly kernel can load its next step's inputs before this
    // step's arithmetic (codegen/cuda_source.cpp).
    std::string emit_vec4(const std::string& body) {
        std::ostringstream s;
        auto row_pointers = [&](auto wanted) {
            std::ostringstream p;
            size_t D = space_.size();
            for (size_t k = 0; k < ops_.size(); ++k)
                if (wanted(k)) p << "    char* GPY_RESTRICT r" << k << " = P[" << k << "];\n";
            if (D == 2) {
                for (size_t k = 0; k < ops_.size(); ++k)
                    if (wanted(k)) p << "    r" << k << " += r * M[" << D + k * D << "];\n";
            } else if (D > 2) {
                p << "    { int64_t rr = r; for (int d = " << D - 2 << "; d >= 0; --d) { int64_t id = rr % M[d]; rr /= M[d];";
                for (size_t k = 0; k < ops_.size(); ++k)
                    if (wanted(k)) p << " r" << k << " += id * M[" << D + k * D << " + d];";
                p << " } }\n";
            }
            return p.str();
        };
        auto vector_input = [&](size_t k) { return k >= n_out_ && !zero(k); };
        auto at = [](size_t k, const std::string& T) { return "(r" + std::to_string(k) + " + c * (int64_t)sizeof(" + T + "))"; };
        for (size_t k = 0; k < ops_.size(); ++k) vec4_align_.push_back(zero(k) ? 0 : uint8_t(4 * itemsize(ops_[k].dtype)));
        // The input vectors of one step.
        s << "struct KNAME_vin {";
        for (size_t k = 0; k < ops_.size(); ++k)
            if (vector_input(k)) {
                s << " gpy_vec4<" << storage_type(ops_[k].dtype) << "> b" << k << ";";
                vec4_in_bytes_ += 4 * int(itemsize(ops_[k].dtype));
            }
        s << " };\n";
        s << "GPY_INLINE void KNAME_vec4_in(char** P, const int64_t* M, int64_t r, int64_t c, int m, bool vec, KNAME_vin& in) {\n";
        s << "    (void)P; (void)M; (void)r; (void)c; (void)m; (void)vec;\n" << row_pointers(vector_input);
        for (size_t k = 0; k < ops_.size(); ++k) {
            if (!vector_input(k)) continue;
            std::string T = storage_type(ops_[k].dtype), K = std::to_string(k);
            s << "    if (vec) in.b" << K << " = *(const gpy_vec4<" << T << ">*)" << at(k, T) << ";\n"
              << "    else for (int j = 0; j < 4; ++j) in.b" << K << ".v[j] = ((const " << T << "*)" << at(k, T) << ")[j < m ? j : 0];\n";
        }
        s << "}\n";
        s << "GPY_KERNEL void KNAME_vec4_run(char** P, const int64_t* M, const uint64_t* S, int64_t r, int64_t c, int m, bool vec, const KNAME_vin& in) {\n";
        s << "    int err = 0; (void)err; (void)S; (void)M; (void)r; (void)in;\n" << scalar_hoists();
        s << row_pointers([&](size_t k) { return !vector_input(k); });
        for (size_t k = 0; k < ops_.size(); ++k) {
            std::string T = storage_type(ops_[k].dtype), K = std::to_string(k);
            if (zero(k)) {
                s << "    char* GPY_RESTRICT q" << K << " = r" << K << ";\n";
                continue;
            }
            s << "    gpy_vec4<" << T << "> b" << K << (k >= n_out_ ? " = in.b" + K : std::string()) << ";\n";
            s << "    char* GPY_RESTRICT q" << K << " = (char*)b" << K << ".v;\n";
        }
        s << "    #pragma unroll\n    for (int64_t j = 0; j < 4; ++j) {\n" << body << "    }\n";
        for (size_t k = 0; k < n_out_; ++k) {
            std::string T = storage_type(ops_[k].dtype), K = std::to_string(k);
            s << "    if (vec) *(gpy_vec4<" << T << ">*)" << at(k, T) << " = b" << K << ";\n"
              << "    else {\n    #pragma unroll\n    for (int j = 0; j < 4; ++j) if (j < m) ((" << T << "*)" << at(k, T) << ")[j] = b"
              << K << ".v[j];\n    }\n";
        }
        s << error_report() << "}\n";
        s << "GPY_KERNEL void KNAME_vec4(char** P, const int64_t* M, const uint64_t* S, int64_t r, int64_t c, int m, bool vec) {\n"
             "    KNAME_vin in;\n    KNAME_vec4_in(P, M, r, c, m, vec, in);\n    KNAME_vec4_run(P, M, S, r, c, m, vec, in);\n}\n";
        return s.str();
    }

    // A reduction whose reduced dims collapse to one: GPU threads can split a
    // row (or the whole array, or a column) between them, each taking every
    // step-th element, and combine. Column reductions (tile_outputs_) too:
    // with few outputs, a thread per output would walk millions of elements.
    bool cooperative_eligible() const { return space_.size() == n_outer_ + 1; }

    // Every prologue operand is contiguous or broadcast along the reduced dim
    // (KernelSource::reduce_unit: lanes of a team then read neighbours).
    bool reduced_dim_unit() const {
        for (size_t k = 1; k < ops_.size(); ++k)
            if (!ops_[k].epilogue && !(unit(k) || zero(k))) return false;
        return true;
    }

    // KNAME_racc (fold elements jbegin, jbegin + jstep, ... < jend of output
    // o's row), KNAME_combine (fold another thread's accumulator, in any
    // order) and KNAME_epi (the epilogue for output o). The CUDA wrappers
    // (codegen/cuda_source.cpp) build warp-, block- and grid-wide
    // reductions from them.
    std::string emit_cooperative() {
        // Loads walk the reduced dim here, not the output tile's dim.
        struct Restore {
            bool& flag;
            bool saved;
            ~Restore() { flag = saved; }
        } restore{tile_outputs_, tile_outputs_};
        tile_outputs_ = false;
        reduce_unit_ = reduced_dim_unit();
        size_t D = space_.size();
        std::string A = acc_type();
        std::string header = "    int err = 0; (void)err; (void)S;\n" + scalar_hoists() + operand_decls();
        code_.str("");
        values_.clear();
        std::string v = value(effective(reduce_->in[0].get()), "j", true);
        std::string body = code_.str();
        std::ostringstream s;
        s << "typedef " << A << " KNAME_acc;\n";
        s << "GPY_KERNEL void KNAME_racc(char** P, const int64_t* M, const uint64_t* S, int64_t o, int64_t jbegin, int64_t jstep, int64_t jend, KNAME_acc* out, int64_t* out_idx) {\n";
        s << header << outer_offsets("o");
        s << acc_decl();
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue) continue;
            s << "        char* GPY_RESTRICT q" << k << " = o" << k << "; const int64_t s" << k << " = st[" << k * D + D - 1 << "]; (void)s" << k << ";\n";
        }
        s << "        #pragma unroll 4\n        for (int64_t j = jbegin; j < jend; j += jstep) {\n" << body << "            " << combine(v, "j") << "\n        }\n";
        s << nan_fix() << "        *out = racc; *out_idx = ridx;\n" << error_report() << "}\n";
        if (reduce_vec_eligible()) s << emit_racc4(header, body, v);
        s << "GPY_KERNEL void KNAME_combine(KNAME_acc* racc_, int64_t* ridx_, KNAME_acc pv, int64_t pi) {\n";
        s << "    " << A << " racc = *racc_; int64_t ridx = *ridx_; (void)pi;\n    " << combine_unordered() << "\n";
        s << "    *racc_ = racc; *ridx_ = ridx;\n}\n";
        s << "GPY_KERNEL void KNAME_epi(char** P, const int64_t* M, const uint64_t* S, int64_t o, KNAME_acc racc, int64_t ridx) {\n";
        s << header << outer_offsets("o") << "        (void)ridx;\n" << epilogue() << error_report() << "}\n";
        return s.str();
    }

    // The reduced dim is contiguous in some prologue operand and no operand
    // is complex: KNAME_racc4 can read four elements per load.
    bool reduce_vec_eligible() const {
        if (!reduce_unit_) return false;
        bool any = false;
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue) continue;
            if (is_complex(ops_[k].dtype)) return false;
            any |= !zero(k);
        }
        return any;
    }

    // KNAME_racc4: KNAME_racc over vectors vbegin, vbegin + vstep, ... < vend
    // of four elements each: one gpy_vec4 load per contiguous operand (the
    // runner checks that every row starts on a vector boundary:
    // KernelSource::reduce_vec_align), the body unrolled over the lanes in
    // index order. Twice the bytes in flight of the scalar loop: mse and
    // sum(x*x) were at 66-76% of the copy roof.
    std::string emit_racc4(const std::string& header, const std::string& body, const std::string& v) {
        std::ostringstream s;
        reduce_vec_align_.assign(ops_.size(), 0);
        s << "GPY_KERNEL void KNAME_racc4(char** P, const int64_t* M, const uint64_t* S, int64_t o, int64_t vbegin, int64_t vstep, int64_t vend, KNAME_acc* out, int64_t* out_idx) {\n";
        s << header << outer_offsets("o");
        s << acc_decl();
        std::ostringstream loads;
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue) continue;
            std::string K = std::to_string(k);
            if (zero(k)) {
                s << "        char* GPY_RESTRICT q" << K << " = o" << K << ";\n";
                continue;
            }
            std::string T = storage_type(ops_[k].dtype);
            reduce_vec_align_[k] = uint8_t(4 * itemsize(ops_[k].dtype));
            loads << "            gpy_vec4<" << T << "> b" << K << " = ((const gpy_vec4<" << T << ">*)o" << K << ")[vv];\n"
                  << "            char* GPY_RESTRICT q" << K << " = (char*)b" << K << ".v;\n";
        }
        s << "        #pragma unroll 2\n        for (int64_t vv = vbegin; vv < vend; vv += vstep) {\n" << loads.str()
          << "            #pragma unroll\n            for (int64_t j = 0; j < 4; ++j) {\n" << body << "            "
          << combine(v, "(vv * 4 + j)") << "\n            }\n        }\n";
        s << nan_fix() << "        *out = racc; *out_idx = ridx;\n" << error_report() << "}\n";
        return s.str();
    }

    // combine_partial for partials in no particular order: arg reductions
    // break ties (and NaN against NaN) by the smaller index, as NumPy's
    // first-occurrence rule needs.
    std::string combine_unordered() const {
        const char* better = reduce_->reduce == ReduceOp::ArgMax ? "pv > racc" : "pv < racc";
        if (!is_complex(acc_dtype_) && (reduce_->reduce == ReduceOp::ArgMax || reduce_->reduce == ReduceOp::ArgMin))
            return std::string("if (pi >= 0 && (ridx < 0 || (gpy_isnan(racc) ? (gpy_isnan(pv) && pi < ridx) : (gpy_isnan(pv) || ") +
                   better + " || (pv == racc && pi < ridx))))) { racc = pv; ridx = pi; }";
        return combine_partial();
    }

    // ---- reductions ----

    std::string acc_type() const { return acc_dtype_ == DType::Bool ? "bool" : compute_type(acc_dtype_); }
    bool is_arg() const { return reduce_->reduce == ReduceOp::ArgMax || reduce_->reduce == ReduceOp::ArgMin; }

    // The accumulator, its index (arg reductions) and NaN flag (max/min),
    // declared at the start of a fold.
    std::string acc_decl() const {
        return "        " + acc_type() + " racc = " + acc_init() + "; int64_t ridx = -1; (void)ridx; bool rnan = false; (void)rnan;\n";
    }

    std::string acc_init() const {
        DType t = acc_dtype_;
        std::string A = acc_type();
        if (is_complex(t)) return reduce_->reduce == ReduceOp::Prod ? "gpy_to_complex<double>(1)" : "gpy_to_complex<double>(0)";
        switch (reduce_->reduce) {
            case ReduceOp::Sum: return "(" + A + ")0";
            case ReduceOp::Prod: return "(" + A + ")1";
            case ReduceOp::Any: return "false";
            case ReduceOp::All: return "true";
            case ReduceOp::Max: case ReduceOp::ArgMax:
                if (is_float(t)) return "-__builtin_inf()";
                if (t == DType::Bool) return "false";
                return kind(t) == DKind::UInt ? "(" + A + ")0" : "(" + A + ")((uint64_t)1 << " + std::to_string(itemsize(t) * 8 - 1) + ")";
            case ReduceOp::Min: case ReduceOp::ArgMin:
                if (is_float(t)) return "__builtin_inf()";
                if (t == DType::Bool) return "true";
                return kind(t) == DKind::UInt ? "(" + A + ")~(" + A + ")0" : "(" + A + ")(~((uint64_t)1 << " + std::to_string(itemsize(t) * 8 - 1) + "))";
        }
        return "0";
    }

    // Statement folding value `v` (at flat reduced index `i`) into racc / ridx.
    std::string combine(const std::string& v, const std::string& i) const {
        std::string A = acc_type();
        bool flt = is_float(acc_dtype_);
        if (is_complex(acc_dtype_)) {
            std::string w = cast_expr(v, effective(reduce_->in[0].get())->dtype, acc_dtype_);
            return reduce_->reduce == ReduceOp::Prod ? "racc = racc * " + w + ";" : "racc = racc + " + w + ";";
        }
        switch (reduce_->reduce) {
            case ReduceOp::Sum:
                return flt || acc_dtype_ == DType::Bool ? "racc += (" + A + ")" + v + ";" : "racc = gpy_wrap_add(racc, (" + A + ")" + v + ");";
            case ReduceOp::Prod:
                return flt ? "racc *= (" + A + ")" + v + ";" : "racc = gpy_wrap_mul(racc, (" + A + ")" + v + ");";
            case ReduceOp::Any: return "racc = racc || (" + v + " != 0);";
            case ReduceOp::All: return "racc = racc && (" + v + " != 0);";
            // fmax/fmin vectorise as reductions; NaN propagation (NumPy's
            // maximum) is restored from a separate flag after the loop.
            case ReduceOp::Max:
                return flt ? "{ " + A + " w = (" + A + ")" + v + "; racc = gpy_fmax(racc, w); rnan |= (w != w); }"
                           : "racc = gpy_maximum(racc, (" + A + ")" + v + ");";
            case ReduceOp::Min:
                return flt ? "{ " + A + " w = (" + A + ")" + v + "; racc = gpy_fmin(racc, w); rnan |= (w != w); }"
                           : "racc = gpy_minimum(racc, (" + A + ")" + v + ");";
            case ReduceOp::ArgMax:
                return "{ " + A + " w = (" + A + ")" + v + "; if (!gpy_isnan(racc) && (w > racc || gpy_isnan(w) || ridx < 0)) { racc = w; ridx = " + i + "; } }";
            case ReduceOp::ArgMin:
                return "{ " + A + " w = (" + A + ")" + v + "; if (!gpy_isnan(racc) && (w < racc || gpy_isnan(w) || ridx < 0)) { racc = w; ridx = " + i + "; } }";
        }
        return "";
    }

    // Loop over the reduced dims [n_outer_, D) for the output whose operand
    // offsets are in q<k>, over flat reduced indices [rbegin, rend).
    std::string inner_loop(const std::string& rbegin, const std::string& rend,
                           const std::function<std::string(const std::string& v)>& fold = nullptr) {
        size_t D = space_.size();
        size_t Di = D - n_outer_;
        code_.str("");
        values_.clear();
        // Epilogue values are not needed inside; prologue values are.
        std::string v = value(effective(reduce_->in[0].get()), "j", true);
        std::string body = code_.str();
        std::ostringstream s;
        // Di == 0 (a reduction over no axes: sum(x, axis=())) reduces one
        // element per output; ridx_ keeps one unused slot (C++ has no empty arrays).
        size_t last = Di == 0 ? 0 : Di - 1;
        s << "        int64_t ridx_[" << std::max<size_t>(Di, 1) << "];\n";
        // A reduced dim of extent 0 (an empty reduction of a where= mask
        // broadcast over (2, 0)) reduces nothing: no division by it (SIGFPE).
        s << "        { int64_t r = " << rbegin << "; for (int d = " << int(Di) - 1 << "; d >= 0; --d) { const int64_t e = shape["
          << n_outer_ << " + d]; ridx_[d] = e ? r % e : 0; r = e ? r / e : 0; } }\n";
        s << "        for (int64_t i = " << rbegin << "; i < " << rend << ";) {\n";
        if (Di == 0) s << "            int64_t n = 1;\n";
        else s << "            int64_t n = shape[" << D - 1 << "] - ridx_[" << Di - 1 << "];\n";
        s << "            if (n > " << rend << " - i) n = " << rend << " - i;\n";
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue) continue;
            s << "            char* GPY_RESTRICT q" << k << " = o" << k << ";";
            s << " for (int d = 0; d < " << Di << "; ++d) q" << k << " += ridx_[d] * st[" << k * D + n_outer_ << " + d];";
            s << " const int64_t s" << k << " = st[" << k * D + D - 1 << "]; (void)s" << k << ";\n";
        }
        s << "            int64_t j = 0;\n";
        if (float_minmax()) s << lane_blocked_minmax();
        if (blocked_arg() && !fold) s << lane_blocked_arg();
        s << "            for (; j < n; ++j) {\n" << body << "                " << (fold ? fold(v) : combine(v, "(i + j)")) << "\n            }\n";
        s << "            i += n;\n            ridx_[" << last << "] = 0;\n";
        s << "            for (int d = " << int(Di) - 2 << "; d >= 0; --d) { if (++ridx_[d] < shape[" << n_outer_
          << " + d]) break; ridx_[d] = 0; }\n";
        s << "        }\n";
        return s.str();
    }

    bool float_minmax() const {
        return is_float(acc_dtype_) && (reduce_->reduce == ReduceOp::Max || reduce_->reduce == ReduceOp::Min);
    }

    // Float max/min over a row in 16 independent lanes (a compare-and-select
    // per lane vectorises; fmax chained through one accumulator does not),
    // then folded into racc; the NaN flag is kept per lane too. Leaves j at
    // the first element the scalar loop still has to do.
    std::string lane_blocked_minmax() {
        code_.str("");
        values_.clear();
        std::string v = value(effective(reduce_->in[0].get()), "jj", true);
        std::string body = code_.str();
        std::string A = acc_type();
        const char* cmp = reduce_->reduce == ReduceOp::Max ? " > " : " < ";
        const char* fold = reduce_->reduce == ReduceOp::Max ? "gpy_fmax" : "gpy_fmin";
        std::ostringstream s;
        s << "            if (n >= 32) {\n";
        s << "                " << A << " lacc[16]; unsigned char lnan[16];\n";
        s << "                for (int l = 0; l < 16; ++l) { lacc[l] = racc; lnan[l] = 0; }\n";
        s << "                for (; j + 16 <= n; j += 16) {\n";
        s << "                    for (int l = 0; l < 16; ++l) {\n                    const int64_t jj = j + l;\n" << body;
        s << "                    " << A << " w = (" << A << ")" << v << "; lacc[l] = w" << cmp << "lacc[l] ? w : lacc[l]; lnan[l] |= (w != w);\n";
        s << "                    }\n                }\n";
        s << "                for (int l = 0; l < 16; ++l) { racc = " << fold << "(racc, lacc[l]); rnan |= lnan[l] != 0; }\n";
        s << "            }\n";
        return s.str();
    }

    bool blocked_arg() const {
        return is_arg() && (is_float(acc_dtype_) || is_integer(acc_dtype_));
    }

    // argmax/argmin of a row on the CPU: each block of 256 is reduced to its
    // max (min) and NaN flag in 16 vector lanes, and the block that can
    // change the answer (the first with a strictly larger value, or the
    // first with a NaN, or the first block at all) is remembered; that one
    // block is then scanned element by element for the first occurrence, as
    // NumPy's rule needs. The scalar compare-and-keep-index loop does not
    // vectorise (16x NumPy's time on float32, 2026-11-26); scanning every
    // improving block was 3x NumPy's on sorted input. After a NaN nothing can
    // change the answer: the row's rest is skipped. The GPU keeps its loop.
    std::string lane_blocked_arg() {
        code_.str("");
        values_.clear();
        std::string v = value(effective(reduce_->in[0].get()), "jj", true);
        std::string body = code_.str();
        std::string A = acc_type();
        const char* cmp = reduce_->reduce == ReduceOp::ArgMax ? " > " : " < ";
        std::ostringstream s;
        s << "#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)\n";
        s << "            if (!gpy_isnan(racc)) {\n";
        s << "                int64_t bj = -1; " << A << " bbest = racc;\n";
        s << "                for (; j + 256 <= n; j += 256) {\n";
        s << "                    " << A << " lacc[16]; unsigned char lnan[16];\n";
        s << "                    for (int l = 0; l < 16; ++l) { lacc[l] = bbest; lnan[l] = 0; }\n";
        s << "                    for (int64_t b = j; b < j + 256; b += 16)\n";
        s << "                        for (int l = 0; l < 16; ++l) {\n                        const int64_t jj = b + l;\n" << body;
        s << "                        " << A << " w = (" << A << ")" << v << "; lacc[l] = w" << cmp << "lacc[l] ? w : lacc[l]; lnan[l] |= (w != w);\n";
        s << "                        }\n";
        s << "                    " << A << " bm = lacc[0]; unsigned char bn = lnan[0];\n";
        s << "                    for (int l = 1; l < 16; ++l) { bm = lacc[l]" << cmp << "bm ? lacc[l] : bm; bn |= lnan[l]; }\n";
        s << "                    if (bn) { bj = j; j += 256; break; }\n";
        s << "                    if (bm" << cmp << "bbest || (bj < 0 && ridx < 0)) { bbest = bm; bj = j; }\n";
        s << "                }\n";
        s << "                if (bj >= 0)\n";
        s << "                    for (int64_t jj = bj; jj < bj + 256; ++jj) {\n" << body << "                    " << combine(v, "(i + jj)") << "\n                    }\n";
        s << "            }\n";
        s << "            if (gpy_isnan(racc)) j = n;\n";
        s << "#endif\n";
        return s.str();
    }

    // Statements computing the epilogue from racc at outer offsets o<k>, storing to o0.
    std::string epilogue() {
        code_.str("");
        values_.clear();
        std::string v = value(root_.get(), "0", false);
        std::string s = code_.str();
        // Epilogue loads index element 0 of a row that starts at o<k>.
        std::string T = storage_type(root_->dtype);
        return s + "        *(" + T + "*)o0 = (" + T + ")" + v + ";\n";
    }

    std::string outer_offsets(const std::string& o) {
        size_t D = space_.size();
        std::ostringstream s;
        for (size_t k = 0; k < ops_.size(); ++k) s << "        char* GPY_RESTRICT o" << k << " = p" << k << ";\n";
        if (n_outer_ > 0) {
            s << "        { int64_t r = " << o << "; for (int d = " << n_outer_ - 1 << "; d >= 0; --d) { int64_t id = r % shape[d]; r /= shape[d];";
            for (size_t k = 0; k < ops_.size(); ++k) s << " o" << k << " += id * st[" << k * D << " + d];";
            s << " } }\n";
        }
        // Epilogue operands read through q<k> = o<k> with index 0.
        for (size_t k = 1; k < ops_.size(); ++k)
            if (ops_[k].epilogue) s << "        char* GPY_RESTRICT q" << k << " = o" << k << "; const int64_t s" << k << " = 0; (void)s" << k << ";\n";
        return s.str();
    }

    // A reduction whose input is contiguous along the outputs but strided
    // along the reduced dims (x.sum(axis=0) of a C-order matrix): walking one
    // output's column touches a new cache line per element. Instead each
    // step takes one reduced element for a tile of up to kTile neighbouring
    // outputs, so loads run along memory and vectorise across the tile.
    static constexpr int kTile = kReduceTile;
    bool tiling_pays() const {
        size_t D = space_.size();
        if (n_outer_ == 0 || n_outer_ == D || is_arg() || space_[n_outer_ - 1] < 8) return false;
        // A float16 sum rounds each partial sum to half (pairwise_kind 4).
        if (reduce_->reduce == ReduceOp::Sum && reduce_->dtype == DType::Float16) return false;
        bool strided_rows = false;
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue) continue;
            int64_t across = std::llabs(ops_[k].strides[n_outer_ - 1]), along = std::llabs(ops_[k].strides[D - 1]);
            if (across > along && along != 0) return false;
            if (along != int64_t(itemsize(ops_[k].dtype))) strided_rows = true;
        }
        return strided_rows;
    }

    std::string emit_reduce_tiled() {
        size_t D = space_.size(), Di = D - n_outer_, last = n_outer_ - 1;
        std::string A = acc_type();
        bool minmax = float_minmax();
        std::ostringstream s;
        s << "GPY_KERNEL void KNAME(char** P, const int64_t* M, const uint64_t* S, int64_t begin, int64_t end) {\n";
        if (reduce_->reduce == ReduceOp::Sum || reduce_->reduce == ReduceOp::Prod || minmax) s << "    GPY_REASSOC\n";
        s << "    int err = 0; (void)err; (void)S;\n" << scalar_hoists() << operand_decls();
        s << "    int64_t rn = 1; for (int d = " << n_outer_ << "; d < " << D << "; ++d) rn *= shape[d];\n";
        s << "    const int64_t L = shape[" << last << "];\n";
        s << "    for (int64_t o = begin; o < end;) {\n";
        // GPY_REDUCE_TILE comes from the prelude: kTile on the CPU, 1 on CUDA
        // (there neighbouring threads compute neighbouring outputs, so loads
        // coalesce without a tile, and NVRTC spends seconds unrolling one).
        s << "        int64_t t = L - o % L; if (t > end - o) t = end - o; if (t > GPY_REDUCE_TILE) t = GPY_REDUCE_TILE;\n";
        s << outer_offsets("o");
        s << "        " << A << " tacc[GPY_REDUCE_TILE]; unsigned char tnan[GPY_REDUCE_TILE]; (void)tnan;\n";
        s << "        for (int64_t b = 0; b < t; ++b) { tacc[b] = " << acc_init() << "; tnan[b] = 0; }\n";
        code_.str("");
        values_.clear();
        std::string v = value(effective(reduce_->in[0].get()), "b", true);
        std::string body = code_.str();
        std::string step = combine(v, "0");
        for (auto [from, to] : {std::pair<std::string, std::string>{"racc", "tacc[b]"}, {"rnan", "tnan[b]"}})
            for (size_t p = step.find(from); p != std::string::npos; p = step.find(from, p + to.size())) step.replace(p, from.size(), to);
        s << "        int64_t ridx_[" << Di << "] = {0};\n";
        s << "        for (int64_t i = 0; i < rn; ++i) {\n";
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue) continue;
            s << "            char* GPY_RESTRICT q" << k << " = o" << k << ";";
            s << " for (int d = 0; d < " << Di << "; ++d) q" << k << " += ridx_[d] * st[" << k * D + n_outer_ << " + d];";
            s << " const int64_t s" << k << " = st[" << k * D + last << "]; (void)s" << k << ";\n";
        }
        s << "            for (int64_t b = 0; b < t; ++b) {\n" << body << "                " << step << "\n            }\n";
        s << "            for (int d = " << Di - 1 << "; d >= 0; --d) { if (++ridx_[d] < shape[" << n_outer_ << " + d]) break; ridx_[d] = 0; }\n";
        s << "        }\n";
        // Epilogue per output of the tile: o<k> shifted by b along the last output dim.
        s << "        for (int64_t b = 0; b < t; ++b) {\n";
        for (size_t k = 0; k < ops_.size(); ++k)
            if (k == 0 || ops_[k].epilogue) s << "            char* GPY_RESTRICT e" << k << " = o" << k << " + b * st[" << k * D + last << "];\n";
        s << "            {\n";
        for (size_t k = 0; k < ops_.size(); ++k) {
            if (k == 0) s << "            char* GPY_RESTRICT o0 = e0;\n";
            else if (ops_[k].epilogue) s << "            char* GPY_RESTRICT q" << k << " = e" << k << ";\n";
        }
        s << "            " << A << " racc = tacc[b]; bool rnan = tnan[b] != 0; (void)rnan; int64_t ridx = -1; (void)ridx;\n";
        s << nan_fix() << epilogue();
        s << "            }\n        }\n";
        s << "        o += t;\n    }\n" << error_report() << "}\n";
        if (cooperative_eligible()) gpu_extras_ = emit_cooperative();
        return s.str();
    }

    // NumPy's summation order, for float sums on the CPU (KernelSource::
    // pairwise), found by setup_reduce from the input's memory order:
    //  1 pairwise over each output's elements (one strided run after collapsing);
    //  2 pairwise per buffer, added in order, as NumPy's buffered loop
    //    does when it casts (the mean of an integer array): as many whole
    //    innermost runs of L as fit in 8192 elements, or 8192 of a longer run;
    //  3 a view whose reduced dims are the innermost in memory but not one
    //    run (every full reduction of such a view): pairwise per buffer of
    //    whole innermost runs (8192 / L of them), added in order;
    //  4 the innermost memory dim is kept (x.sum(axis=0) of a C-order
    //    matrix): out[j] += x[i, j] row after row, in the sum's type;
    //  5 a view with kept dims between its reduced ones in memory: each
    //    innermost run pairwise, added in order;
    //  6 an expression: NumPy sums its temporary, laid out in memory order,
    //    so each output's elements pairwise in that order (5 when kept dims
    //    lie between its reduced ones: the temporary's innermost runs).
    // 0: the lane-parallel loop.
    int pairwise_kind() const {
        if (reduce_->reduce != ReduceOp::Sum || tile_outputs_ || !is_float(reduce_->dtype)) return 0;
        const Node* x = effective(reduce_->in[0].get());
        if (!is_float(x->dtype) || space_.size() < n_outer_ + 1) return 0;
        if (x->op == Op::Cast && x->loop_cast && x->in[0]->dtype != x->dtype) return 2;
        if (sum_inner_kept_) return 4;
        if (space_.size() == n_outer_ + 1) return 1;
        if (!sum_input_view_) return sum_reduced_block_ ? 6 : 5;
        return sum_reduced_block_ ? 3 : 5;
    }
    // The type NumPy's pairwise sum adds in: float for float16 and float32.
    std::string pairwise_type() const {
        return effective(reduce_->in[0].get())->dtype == DType::Float64 ? "double" : "float";
    }

    // CPU code setting racc to the sum of reduced elements [lo, lo + n) in
    // NumPy's order (pairwise_kind; gpy_pairwise in the CPU prelude); `top`
    // adds NumPy's identity 0 first (whole outputs, not a part's subtree).
    std::string pairwise_fold(const std::string& lo, const std::string& n, bool top) {
        std::string T = pairwise_type();
        const int kind = pairwise_kind();
        // The innermost run (at least 1: an empty reduction divides by it).
        const std::string L = "(shape[" + std::to_string(space_.size() - 1) + "] > 0 ? shape[" + std::to_string(space_.size() - 1) + "] : 1)";
        if (kind == 4) {
            // float16 rounds to half after each addition, as NumPy's loop
            // stores each partial sum into the float16 output.
            const bool half = reduce_->dtype == DType::Float16;
            std::string loop = inner_loop(lo, "(" + lo + ") + (" + n + ")", [&](const std::string& v) {
                std::string sum = "(" + T + ")(rseq + (" + T + ")(" + v + "))";
                if (half) sum = cast_expr(cast_expr(sum, DType::Float32, DType::Float16), DType::Float16, DType::Float32);
                return "rseq = " + sum + ";";
            });
            return "        {\n        " + T + " rseq = 0;\n" + loop + "        racc = (" + acc_type() + ")rseq;\n        }\n";
        }
        if (kind != 1) {
            // The elements in order into a buffer of rB; each full buffer
            // (and the last) summed pairwise onto the running total.
            std::string B = kind == 2 ? "(" + L + " <= 8192 ? 8192 / " + L + " * " + L + " : 8192)"
                          : kind == 3 ? "(" + L + " <= 8192 ? 8192 / " + L + " * " + L + " : " + L + ")"
                          : kind == 5 ? L : "(" + n + ")";
            std::string flush = "{ auto at = [&](int64_t b) -> " + T + " { return rbuf[b]; }; rtot += gpy_pairwise<" + T + ">(at, 0, rfill); rfill = 0; }";
            // A cast's buffers (2) never span two runs longer than 8192: such
            // a run is cut into its own buffers (NumPy's buffered loop).
            const std::string last = std::to_string(space_.size() - n_outer_ - 1);
            const std::string run_end = kind == 2 ? " || (" + L + " > 8192 && j == n - 1 && ridx_[" + last + "] + n == shape[" +
                                                        std::to_string(space_.size() - 1) + "])"
                                                  : "";
            std::string loop = inner_loop(lo, "(" + lo + ") + (" + n + ")", [&](const std::string& v) {
                return "rbuf[rfill++] = (" + T + ")(" + v + "); if (rfill == rB" + run_end + ") " + flush;
            });
            // Buffers past 8192 elements (runs longer than that, a subtree
            // of an expression's sum) come from the heap.
            return "        {\n        " + T + " rstack[8192]; int64_t rB = " + B + "; if (rB < 1) rB = 1; " + T + "* rbuf = rstack;\n"
                   "        if (rB > 8192) { rbuf = (" + T + "*)__builtin_malloc(sizeof(" + T + ") * rB); if (!rbuf) { rbuf = rstack; rB = 8192; } }\n"
                   "        int64_t rfill = 0; " + T + " rtot = 0;\n" + loop +
                   "        if (rfill) " + flush + "\n        if (rbuf != rstack) __builtin_free(rbuf);\n        racc = (" + acc_type() + ")rtot;\n        }\n";
        }
        size_t D = space_.size();
        code_.str("");
        values_.clear();
        std::string v = value(effective(reduce_->in[0].get()), "j", true);
        std::string body = code_.str();
        std::ostringstream s;
        s << "        {\n";
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue) continue;
            s << "            char* GPY_RESTRICT q" << k << " = o" << k << "; const int64_t s" << k << " = st[" << k * D + D - 1 << "]; (void)s" << k << ";\n";
        }
        s << "            auto at = [&](int64_t j) -> " << T << " {\n" << body << "                return (" << T << ")(" << v << ");\n            };\n";
        std::string sum = "gpy_pairwise<" + T + ">(at, " + lo + ", " + n + ")";
        s << "            racc = (" << acc_type() << ")(" << (top ? "(" + T + ")0 + " : "") << sum << ");\n        }\n";
        return s.str();
    }

    std::string emit_reduce() {
        std::ostringstream s;
        std::string A = acc_type();
        std::string header = "    int err = 0; (void)err; (void)S;\n" + scalar_hoists() + operand_decls();
        std::string loop_all = inner_loop("0", "rn");
        std::string epi = epilogue();
        bool float_minmax = is_float(acc_dtype_) && (reduce_->reduce == ReduceOp::Max || reduce_->reduce == ReduceOp::Min);
        std::string reassoc = (reduce_->reduce == ReduceOp::Sum || reduce_->reduce == ReduceOp::Prod || float_minmax) ? "    GPY_REASSOC\n" : "";
        int pairwise = pairwise_kind();
        // The pairwise code is the CPU's; a GPU keeps the parallel loops.
        const char* if_cpu = "#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)\n";
        auto cpu_or = [&](const std::string& cpu, const std::string& other) {
            return pairwise ? if_cpu + cpu + "#else\n" + other + "#endif\n" : other;
        };
        s << "GPY_KERNEL void KNAME(char** P, const int64_t* M, const uint64_t* S, int64_t begin, int64_t end) {\n"
          << cpu_or("", reassoc) << header;
        s << "    int64_t rn = 1; for (int d = " << n_outer_ << "; d < " << space_.size() << "; ++d) rn *= shape[d];\n";
        s << "    for (int64_t o = begin; o < end; ++o) {\n" << outer_offsets("o");
        s << acc_decl();
        s << cpu_or(pairwise ? pairwise_fold("0", "rn", true) : "", loop_all + nan_fix());
        s << epi;
        s << "    }\n" << error_report() << "}\n";
        if (n_outer_ == 0) {
            // Partials over a range of the reduced elements, then a finishing
            // pass (pairwise: the range is a subtree of NumPy's recursion, or
            // one of its 8192-element buffers; cpu_backend.cpp splits them).
            // A pairwise sum of one run (1) is NumPy's on the GPU too: its
            // leaves are added by NAME_pwslots (codegen/cuda_source.cpp), the
            // merges and the finish combine subtrees as the recursion does.
            // The part stays pairwise on the GPU for the kernels without
            // NAME_pwslots (those that can fail), whose chunks it adds.
            auto gpu_too = [&](const std::string& both, const std::string& cpu, const std::string& other) {
                return pairwise == 1 ? both : cpu_or(cpu, other);
            };
            std::string loop_part = inner_loop("begin", "end");
            s << "GPY_KERNEL void KNAME_part(char** P, const int64_t* M, const uint64_t* S, int64_t begin, int64_t end, int64_t part, char* partials) {\n"
              << cpu_or("", reassoc) << header;
            s << "    {\n" << outer_offsets("0");
            // A pairwise partial's index slot says it holds a subtree (the
            // GPU's empty slots hold -1: the finish skips them).
            std::string fold = pairwise ? pairwise_fold("begin", "end - begin", false) + (pairwise == 1 || pairwise == 6 ? "        ridx = 0;\n" : "") : "";
            s << acc_decl() << gpu_too(fold, fold, loop_part + nan_fix());
            // A complex accumulator fills the 16-byte partial; it has no index.
            s << "        *(" << A << "*)(partials + part * 16) = racc;"
              << (is_complex(acc_dtype_) ? "\n" : " *(int64_t*)(partials + part * 16 + 8) = ridx;\n");
            s << "    }\n" << error_report() << "}\n";
            s << "GPY_KERNEL void KNAME_finish(char** P, const int64_t* M, const uint64_t* S, int64_t nparts, char* partials) {\n"
              << header;
            s << "    {\n" << outer_offsets("0");
            s << acc_decl();
            std::ostringstream seq;
            seq << "        for (int64_t k = 0; k < nparts; ++k) {\n";
            seq << "            " << A << " pv = *(" << A << "*)(partials + k * 16); int64_t pi = *(int64_t*)(partials + k * 16 + 8);\n";
            seq << "            " << combine_partial() << "\n        }\n";
            std::string cpu;
            if (pairwise) {
                // The partials combine as NumPy's recursion did: pairwise
                // subtrees level by level, buffers one after another.
                std::string T = pairwise_type();
                auto at = [&](const std::string& k) { return "*(" + A + "*)(partials + (" + k + ") * 16)"; };
                auto ok = [&](const std::string& k) { return "*(int64_t*)(partials + (" + k + ") * 16 + 8) >= 0"; };
                if (pairwise == 1 || pairwise == 6)
                    cpu = "        for (int64_t step = 1; step < nparts; step *= 2)\n"
                          "            for (int64_t k = 0; k + step < nparts; k += 2 * step) if (" + ok("k + step") + ") " + at("k") + " = (" + A + ")((" + T + ")" + at("k") +
                          " + (" + T + ")" + at("k + step") + ");\n"
                          "        racc = (" + A + ")((" + T + ")0 + (" + T + ")" + at("0") + ");\n";
                else
                    cpu = "        { " + T + " acc = 0; for (int64_t k = 0; k < nparts; ++k) acc += (" + T + ")" + at("k") + "; racc = (" + A + ")acc; }\n";
            }
            s << gpu_too(cpu, cpu, seq.str());
            s << epi << "    }\n" << error_report() << "}\n";
            // Combines partials [begin, end) into merged[out]: a GPU merges
            // its many partials in a few parallel rounds before the finish.
            s << "GPY_KERNEL void KNAME_merge(int64_t begin, int64_t end, int64_t out, const char* partials, char* merged) {\n";
            if (pairwise == 1) {
                // A group (at most 32, aligned) is a subtree: its partials
                // combine level by level, as the finish does.
                std::string T = pairwise_type();
                // An empty partial (index -1: a slot under a shallower leaf)
                // adds nothing; the leftmost of a subtree is never empty.
                s << "    " << A << " v[32]; bool ok[32]; int64_t c = end - begin; if (c > 32) c = 32;\n"
                  << "    for (int64_t k = 0; k < c; ++k) { v[k] = *(const " << A << "*)(partials + (begin + k) * 16); ok[k] = *(const int64_t*)(partials + (begin + k) * 16 + 8) >= 0; }\n"
                  << "    for (int64_t step = 1; step < c; step *= 2)\n"
                  << "        for (int64_t k = 0; k + step < c; k += 2 * step) if (ok[k + step]) v[k] = (" << A << ")((" << T << ")v[k] + (" << T << ")v[k + step]);\n"
                  << "    *(" << A << "*)(merged + out * 16) = v[0]; *(int64_t*)(merged + out * 16 + 8) = ok[0] ? 0 : -1;\n}\n";
            } else {
                s << "    " << A << " racc = " << acc_init() << "; int64_t ridx = -1; (void)ridx;\n";
                s << "    for (int64_t k = begin; k < end; ++k) {\n";
                s << "        " << A << " pv = *(const " << A << "*)(partials + k * 16); int64_t pi = *(const int64_t*)(partials + k * 16 + 8); (void)pi;\n";
                s << "        " << combine_partial() << "\n    }\n";
                s << "    *(" << A << "*)(merged + out * 16) = racc;"
                  << (is_complex(acc_dtype_) ? "\n" : " *(int64_t*)(merged + out * 16 + 8) = ridx;\n");
                s << "}\n";
            }
        }
        if (n_outer_ == 0 && pairwise == 1 && !may_fail_) s << emit_pairwise_element();
        // Last: it numbers values after the body's (the body stays as it was).
        if (cooperative_eligible()) gpu_extras_ = emit_cooperative();
        return s.str();
    }

    // The GPU's pairwise full sum (cuda_source.cpp NAME_pwslots) reads
    // element j of the run through KNAME_at; KNAME_pwt is the type NumPy
    // adds in, KNAME_pwa the partials' slot type.
    std::string emit_pairwise_element() {
        size_t D = space_.size();
        std::string T = pairwise_type();
        code_.str("");
        values_.clear();
        std::string v = value(effective(reduce_->in[0].get()), "j", true);
        std::ostringstream s;
        s << "#if defined(__CUDACC__) || defined(__CUDACC_RTC__)\n";
        s << "typedef " << T << " KNAME_pwt;\ntypedef " << acc_type() << " KNAME_pwa;\n";
        s << "GPY_INLINE " << T << " KNAME_at(char** P, const int64_t* M, const uint64_t* S, int64_t j) {\n";
        s << "    int err = 0; (void)err; (void)S;\n" << scalar_hoists() << operand_decls() << outer_offsets("0");
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue) continue;
            s << "        char* GPY_RESTRICT q" << k << " = o" << k << "; const int64_t s" << k << " = st[" << k * D + D - 1 << "]; (void)s" << k << ";\n";
        }
        s << code_.str() << "    return (" << T << ")(" << v << ");\n}\n";
        // KNAME_at4: elements 4 vv .. 4 vv + 3 from one vector load of each
        // operand, when every operand is contiguous along the run (or a
        // broadcast) and real.
        bool vec = false, fits = true;
        for (size_t k = 1; k < ops_.size(); ++k) {
            if (ops_[k].epilogue || zero(k)) continue;
            if (!unit(k) || is_complex(ops_[k].dtype) || ops_[k].dtype == DType::Float16) fits = false;
            vec = true;
        }
        if (vec && fits) {
            pairwise_vec_align_.assign(ops_.size(), 0);
            s << "GPY_INLINE void KNAME_at4(char** P, const int64_t* M, const uint64_t* S, int64_t vv, " << T << "* out) {\n";
            s << "    int err = 0; (void)err; (void)S;\n" << scalar_hoists() << operand_decls() << outer_offsets("0");
            for (size_t k = 1; k < ops_.size(); ++k) {
                if (ops_[k].epilogue) continue;
                std::string K = std::to_string(k);
                if (zero(k)) {
                    s << "        char* GPY_RESTRICT q" << K << " = o" << K << ";\n";
                    continue;
                }
                std::string TK = storage_type(ops_[k].dtype);
                pairwise_vec_align_[k] = uint8_t(4 * itemsize(ops_[k].dtype));
                s << "        gpy_vec4<" << TK << "> b" << K << " = ((const gpy_vec4<" << TK << ">*)o" << K << ")[vv];\n"
                  << "        char* GPY_RESTRICT q" << K << " = (char*)b" << K << ".v;\n";
            }
            s << "        #pragma unroll\n        for (int64_t j = 0; j < 4; ++j) {\n" << code_.str() << "            out[j] = (" << T << ")(" << v
              << ");\n        }\n}\n";
        }
        s << "#endif\n";
        return s.str();
    }

    // Kernels that can fail (integer ** negative integer) store their error
    // code through the pointer after the operands (Launch::error).
    std::string error_report() const {
        if (!may_fail_) return "";
        return "    if (err) GPY_REPORT_ERROR(P[" + std::to_string(ops_.size()) + "], err);\n";
    }

    std::string nan_fix() const {
        bool float_minmax = is_float(acc_dtype_) && (reduce_->reduce == ReduceOp::Max || reduce_->reduce == ReduceOp::Min);
        return float_minmax ? "        if (rnan) racc = __builtin_nan(\"\");\n" : "";
    }

    std::string combine_partial() const {
        // A partial that saw no element is exactly the identity 1+0j: skipped,
        // so a product NumPy computes in one sequence (inf+nanj for [inf+1j])
        // is not multiplied by it again ((inf+nanj)*(1+0j) is nan+nanj).
        if (is_complex(acc_dtype_)) return reduce_->reduce == ReduceOp::Prod ? "racc = gpy_cmul_partials(racc, pv);" : "racc = racc + pv;";
        switch (reduce_->reduce) {
            case ReduceOp::Sum: return is_float(acc_dtype_) || acc_dtype_ == DType::Bool ? "racc += pv;" : "racc = gpy_wrap_add(racc, pv);";
            case ReduceOp::Prod: return is_float(acc_dtype_) ? "racc *= pv;" : "racc = gpy_wrap_mul(racc, pv);";
            case ReduceOp::Any: return "racc = racc || pv;";
            case ReduceOp::All: return "racc = racc && pv;";
            case ReduceOp::Max: return "racc = gpy_maximum(racc, pv);";
            case ReduceOp::Min: return "racc = gpy_minimum(racc, pv);";
            case ReduceOp::ArgMax: return "if (pi >= 0 && !gpy_isnan(racc) && (pv > racc || gpy_isnan(pv) || ridx < 0)) { racc = pv; ridx = pi; }";
            case ReduceOp::ArgMin: return "if (pi >= 0 && !gpy_isnan(racc) && (pv < racc || gpy_isnan(pv) || ridx < 0)) { racc = pv; ridx = pi; }";
        }
        return "";
    }

public:
    // Which nodes the launch's ptrs (after the output) and scalar slots come from.
    void describe_operands(EmittedOperands& out) const {
        for (size_t k = n_out_; k < ops_.size(); ++k) out.inputs.push_back(ops_[k].node);
        out.scalars.assign(scalar_slots_.size(), {nullptr, false});
        for (auto& [n, slot] : scalar_index_) {
            out.scalars[slot] = {n, false};
            if (n->dtype == DType::Complex128) out.scalars[slot + 1] = {n, true};
        }
    }

private:

    std::string summary() const {
        std::ostringstream s;
        // Long (or exponentially shared) trees are cut short: it is a label.
        std::function<void(const Node*)> walk = [&](const Node* n) {
            n = effective(n);
            if (s.tellp() > 4000) {
                s << "...";
                return;
            }
            switch (n->op) {
                case Op::Input: s << name(n->dtype); return;
                case Op::Scalar: s << "scalar"; return;
                case Op::Cast: s << "cast<" << name(n->dtype) << ">("; break;
                case Op::Unary: s << unary_name(n->unary) << "("; break;
                case Op::Binary: s << binary_name(n->binary) << "("; break;
                case Op::Where: s << "where("; break;
                case Op::User: s << "kernel<" << n->user->name << ">("; break;
                case Op::Reduce: s << reduce_name(n->reduce) << "("; break;
                case Op::Expand: s << "keepdims("; break;
            }
            for (size_t k = 0; k < n->in.size(); ++k) {
                if (k) s << ", ";
                walk(n->in[k].get());
            }
            s << ")";
        };
        for (size_t k = 0; k < n_out_; ++k) {
            if (k) s << ", ";
            walk(roots_[k].get());
        }
        s << " -> ";
        for (size_t k = 0; k < n_out_; ++k) s << (k ? ", " : "") << name(roots_[k]->dtype);
        s << "[";
        for (size_t d = 0; d < root_->shape.size(); ++d) s << (d ? "," : "") << root_->shape[d];
        s << "]";
        return s.str();
    }
};

}  // namespace

KernelPlan emit_kernel_fresh(const std::vector<NodeP>& roots, const Target* target, EmittedOperands* operands) {
    Emitter e(merge_equal_subtrees(roots), target);
    KernelPlan plan = e.run();
    plan.root = roots[0];  // the planner's nodes, not the merged copies
    if (!target) plan.extra_roots.assign(roots.begin() + 1, roots.end());
    if (operands) e.describe_operands(*operands);
    return plan;
}

namespace {

// Rows longer than this leave a block's cache share (and one block per row
// leaves a GPU idle when rows are few and long): those run as separate kernels.
constexpr int64_t kMaxFusedRow = 16384;

bool pending(const Node* n) { return !n->result && n->op != Op::Input && n->op != Op::Scalar; }

// `n` in the row space (shape S) when !row_scope, else per row (shape S[:-1]).
// `seen` holds (node, scope): a node checked per row is checked again if the
// row space reaches it too.
bool row_tree_fits(const Node* n, const Shape& S, bool row_scope, bool& expanded,
                   std::set<std::pair<const Node*, bool>>& seen) {
    if (!pending(n)) return !row_scope || n->op == Op::Scalar;  // no loads per row
    if (is_complex(n->dtype)) return false;
    if (!seen.insert({n, row_scope}).second) return true;
    switch (n->op) {
        case Op::Cast: case Op::Unary: case Op::Binary: case Op::Where:
            for (auto& c : n->in)
                if (!row_tree_fits(c.get(), S, row_scope, expanded, seen)) return false;
            return true;
        case Op::Expand: {
            if (row_scope || n->axes != std::vector<int>{int(S.size()) - 1}) return false;
            expanded = true;
            return row_tree_fits(n->in[0].get(), S, true, expanded, seen);
        }
        case Op::Reduce: {
            const Node* x = n->in[0].get();
            if (!row_scope || x->shape != S || n->axes != std::vector<int>{int(S.size()) - 1}) return false;
            if (n->reduce != ReduceOp::Sum && n->reduce != ReduceOp::Max && n->reduce != ReduceOp::Min) return false;
            DType in = x->result ? x->result->dtype : x->dtype;
            if ((n->dtype != DType::Float32 && n->dtype != DType::Float64) || n->dtype != in) return false;
            return row_tree_fits(x, S, false, expanded, seen);
        }
        default: return false;
    }
}

// A per-row value over a row pattern, Expand(Reduce(x, last axis)) with
// Expands inside x (log(softmax(x)).sum(), planned in codegen/plan.cpp): the
// row space is x's shape. A plain keepdims reduction has none inside: the
// reduction kernels serve it.
const Node* row_pattern_under(const Node* n) {
    if (n->op != Op::Expand || !pending(n)) return nullptr;
    const Node* r = n->in[0].get();
    if (r->op != Op::Reduce || !pending(r) || !pending(r->in[0].get()) || !r->in[0]->has_expand) return nullptr;
    return r->in[0].get();
}

}  // namespace

bool row_kernel_fits(const std::vector<NodeP>& roots) {
    const Node* rows_of = row_pattern_under(roots.at(0).get());
    const Shape& S = rows_of ? rows_of->shape : roots.at(0)->shape;
    if (S.empty() || S.back() > kMaxFusedRow) return false;
    bool expanded = false;
    std::set<std::pair<const Node*, bool>> seen;
    bool any_expand = false;
    for (const NodeP& r : roots) any_expand |= r->has_expand;
    if (!any_expand) return false;  // the common case, without a walk
    Shape per_row = S;
    per_row.back() = 1;
    for (size_t k = 0; k < roots.size(); ++k) {
        const Node* n = roots[k].get();
        if (!pending(n) || n->op == Op::Reduce) return false;
        // The first root spans the rows (or is a per-row value over a row
        // pattern); others span them too, or are per-row values.
        bool row_value = (k > 0 || rows_of) && n->op == Op::Expand && n->shape == per_row;
        if ((n->op == Op::Expand && !row_value) || (!row_value && n->shape != S)) return false;
        if (!row_tree_fits(n, S, false, expanded, seen)) return false;
    }
    return expanded;
}

bool complex_unary_supported(UnaryOp op) {
    switch (op) {
        case UnaryOp::Floor: case UnaryOp::Ceil: case UnaryOp::Trunc: case UnaryOp::Cbrt: case UnaryOp::SignBit:
        case UnaryOp::Invert: case UnaryOp::Deg2Rad: case UnaryOp::Rad2Deg: case UnaryOp::Spacing:
        case UnaryOp::FrexpMant: case UnaryOp::FrexpExp:
            return false;
        default: return true;
    }
}

bool complex_binary_supported(BinaryOp op) {
    switch (op) {
        case BinaryOp::Add: case BinaryOp::Sub: case BinaryOp::Mul: case BinaryOp::TrueDiv: case BinaryOp::Pow:
        case BinaryOp::Max: case BinaryOp::Min: case BinaryOp::Eq: case BinaryOp::Ne: case BinaryOp::Lt:
        case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge: case BinaryOp::LogicalAnd: case BinaryOp::LogicalOr:
        case BinaryOp::LogicalXor:
            return true;
        default: return false;
    }
}

bool complex_reduce_supported(ReduceOp op) { return op == ReduceOp::Sum || op == ReduceOp::Prod; }

}  // namespace gpy
