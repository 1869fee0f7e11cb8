// emit_kernel with a memo: a statement that repeats (a loop body, the same
// expression over new arrays of the same layout) has the same operation tree,
// dtypes, shapes, strides and aliasing, so its kernel source, meta and operand
// order are those of the last time; only data pointers and scalar values are
// new. Writing the source was most of a small statement's cost (a profile of
// `z = z * 1.0001 + 0.5` on 1,000 elements: emit_kernel and its string
// streams, 40% of the time).
//
// The key is a walk of the tree that records everything the emitter reads:
// per node its operation, dtype, shape, (Input) strides, (Reduce, Expand) axes, which
// earlier node it is when the tree shares it, and for inputs which earlier
// input has the same buffer and offset (the emitter merges operands with the
// same address, dtype and strides: the key is at least as fine), for scalars
// which earlier scalar has the same dtype and bits (merged, codegen/cse.h);
// plus the target's shape and strides. Scalar values and buffer addresses are
// left out: the emitter passes them as arguments.
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

#include "codegen/kernel_memory.h"
#include "codegen/emit_internal.h"
#include "base/buffer.h"
#include "base/context.h"

namespace gpy {

using namespace dag;

namespace {

uint64_t bits_of(const ScalarValue& v) {
    uint64_t b;
    std::memcpy(&b, v.raw, sizeof b);
    return b;
}

struct Walk {
    std::string device_error;  // see KernelPlan::device_error
    std::vector<int64_t> key;
    std::vector<const Node*> nodes;  // by first-visit order
    uint64_t stamp = 0;              // this walk's marks (Node::memo_mark)
    std::vector<int64_t> scalars;  // ids of the Scalar nodes visited

    // Room for a graph at the pending cap (plan.h kMaxPendingNodes) without
    // regrowing: the walk runs at every materialisation.
    Walk() {
        key.reserve(1024);
        nodes.reserve(128);
    }

    void reset() {
        device_error.clear();
        key.clear();
        nodes.clear();
        stamp = next_walk_stamp();
        scalars.clear();
    }

    void visit(const Node* n) {
        if (n->result) n = n->result.get();  // computed nodes act as inputs
        if (n->memo_mark.stamp == stamp) {
            key.push_back(-1 - int64_t(n->memo_mark.id));
            return;
        }
        int64_t me = int64_t(nodes.size());
        n->memo_mark.stamp = stamp;
        n->memo_mark.id = uint32_t(me);
        nodes.push_back(n);
        key.push_back(int64_t(n->op) | int64_t(n->dtype) << 8 | int64_t(n->unary) << 16 | int64_t(n->binary) << 32 |
                      int64_t(n->reduce) << 48 | int64_t(n->loop_cast) << 56);
        key.push_back(int64_t(n->shape.size()));
        key.insert(key.end(), n->shape.begin(), n->shape.end());
        if (n->op == Op::Input) {
            const Buffer* b = n->buffer.get();
            if (b && b->device == DeviceKind::CUDA && array_device_kind() == DeviceKind::CUDA &&
                b->device_index != array_device_index() && device_error.empty())
                device_error = "an array on CUDA device " + std::to_string(b->device_index) +
                               " is used in an expression on CUDA device " + std::to_string(array_device_index()) +
                               " (the current device)";
            key.insert(key.end(), n->strides.begin(), n->strides.end());
            int64_t alias = me;
            for (int64_t k = 0; k < me; ++k) {
                const Node* o = nodes[size_t(k)];
                if (o->op == Op::Input && o->buffer.get() == n->buffer.get() && o->offset == n->offset) {
                    alias = k;
                    break;
                }
            }
            key.push_back(alias);
        }
        if (n->op == Op::Scalar) {
            // The emitter merges scalars of equal dtype and bits (cse.h), so
            // which earlier scalar this one equals shapes the source.
            int64_t same = me;
            for (int64_t k : scalars) {
                const Node* o = nodes[size_t(k)];
                if (o->dtype == n->dtype && bits_of(o->value) == bits_of(n->value) && o->value.imag == n->value.imag) {
                    same = k;
                    break;
                }
            }
            key.push_back(same);
            scalars.push_back(me);
        }
        if (n->op == Op::Reduce || n->op == Op::Expand) {
            key.push_back(int64_t(n->axes.size()));
            key.insert(key.end(), n->axes.begin(), n->axes.end());
        }
        if (n->op == Op::User) key.push_back(n->user->id);
        key.push_back(int64_t(n->in.size()));
        for (const NodeP& c : n->in) visit(c.get());
    }
};


struct Entry {
    std::shared_ptr<const KernelSource> source;
    std::vector<int64_t> meta;
    int64_t outer = 0, inner = 1;
    std::vector<int64_t> input_ids;                    // node id per ptrs[k + 1]
    std::vector<std::pair<int64_t, bool>> scalar_ids;  // node id (imaginary part?) per slot
};

class Memo {
public:
    static constexpr size_t kMaxEntries = 4096;  // beyond: start over (programs with that many shapes are rare)

    // Shared, so a hit copies no source text and clearing the map leaves
    // entries in use intact.
    std::shared_ptr<const Entry> find(const std::vector<int64_t>& key) {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = map_.find(key);
        return it == map_.end() ? nullptr : it->second;
    }
    void store(std::vector<int64_t> key, Entry e) {
        std::lock_guard<std::mutex> lock(mu_);
        if (map_.size() >= kMaxEntries) map_.clear();
        map_.emplace(std::move(key), std::make_shared<const Entry>(std::move(e)));
    }

private:
    std::mutex mu_;
    std::unordered_map<std::vector<int64_t>, std::shared_ptr<const Entry>, Int64VectorHash> map_;
};

Memo& memo() {
    static Memo* m = new Memo();  // never destroyed: kernels may run during exit
    return *m;
}

int64_t walked_id(const Walk& w, const Node* n) {
    if (n->memo_mark.stamp != w.stamp) throw std::logic_error("kernel memo: an emitted operand the walk did not visit");
    return int64_t(n->memo_mark.id);
}

char* data_of(const Node* n) { return kernel_input(n->buffer) + n->offset; }

uint64_t slot_of(const Node* n, bool imaginary) {
    uint64_t slot;
    if (imaginary) __builtin_memcpy(&slot, &n->value.imag, sizeof slot);
    else __builtin_memcpy(&slot, n->value.raw, sizeof slot);
    return slot;
}

}  // namespace

namespace {

// emit_kernel and emit_kernel_multi: `roots` are the outputs (one unless the
// kernel is multi-output), `target` only for one output.
KernelPlan emit_memoised(const std::vector<NodeP>& roots, const Target* target) {
    // One walk per thread, reused: it runs at every materialisation. (Not
    // re-entered: emitting a kernel materialises nothing.)
    thread_local Walk w;
    thread_local bool walking = false;
    if (walking) throw std::logic_error("kernel memo: emit_memoised re-entered");
    struct Busy {
        bool& flag;
        explicit Busy(bool& f) : flag(f) { flag = true; }
        ~Busy() { flag = false; }
    } busy(walking);
    w.reset();
    for (const NodeP& r : roots) {
        w.visit(r.get());
        w.key.push_back(-2000000);  // end of one output's tree
    }
    if (target) {
        const Buffer* b = target->buffer.get();
        if (b && b->device == DeviceKind::CUDA && array_device_kind() == DeviceKind::CUDA &&
            b->device_index != array_device_index() && w.device_error.empty())
            w.device_error = "an array on CUDA device " + std::to_string(b->device_index) +
                             " is written by an expression on CUDA device " + std::to_string(array_device_index()) +
                             " (the current device)";
        w.key.push_back(-1000000 - int64_t(target->shape.size()));
        w.key.insert(w.key.end(), target->shape.begin(), target->shape.end());
        w.key.insert(w.key.end(), target->strides.begin(), target->strides.end());
    }
    if (std::shared_ptr<const Entry> hit = memo().find(w.key)) {
        const Entry& e = *hit;
        KernelPlan plan;
        plan.root = roots[0];
        plan.source = e.source;
        Launch& L = plan.launch;
        if (target) {
            plan.output = target->buffer;
            L.ptrs.push_back(kernel_output(target->buffer) + target->offset);
        } else {
            for (size_t k = 0; k < roots.size(); ++k) {
                BufferRef b(Buffer::allocate(size_t(roots[k]->size()) * itemsize(roots[k]->dtype)));
                L.ptrs.push_back(kernel_output(b));
                if (k == 0) plan.output = b;
                else plan.extra_outputs.push_back(b);
            }
            plan.extra_roots.assign(roots.begin() + 1, roots.end());
        }
        for (int64_t id : e.input_ids) L.ptrs.push_back(data_of(w.nodes[size_t(id)]));
        if (plan.source->may_fail) L.ptrs.push_back(nullptr);  // the runner points it at its error word
        L.meta = e.meta;
        for (auto [id, imaginary] : e.scalar_ids) L.scalars.push_back(slot_of(w.nodes[size_t(id)], imaginary));
        L.outer = e.outer;
        L.inner = e.inner;
        plan.device_error = std::move(w.device_error);
        return plan;
    }
    Entry e;
    EmittedOperands ops;
    KernelPlan plan = emit_kernel_fresh(roots, target, &ops);
    e.source = plan.source;
    e.meta = plan.launch.meta;
    e.outer = plan.launch.outer;
    e.inner = plan.launch.inner;
    for (const Node* n : ops.inputs) e.input_ids.push_back(walked_id(w, n));
    for (auto [n, imaginary] : ops.scalars) e.scalar_ids.push_back({walked_id(w, n), imaginary});
    plan.device_error = std::move(w.device_error);
    memo().store(w.key, std::move(e));
    return plan;
}

}  // namespace

KernelPlan emit_kernel(const NodeP& root, const Target* target) { return emit_memoised({root}, target); }

KernelPlan emit_kernel_multi(const std::vector<NodeP>& roots) {
    for (const NodeP& r : roots)
        if (r->shape != roots.at(0)->shape && !row_kernel_fits(roots))
            throw std::logic_error("emit_kernel_multi: outputs of different shapes");
    return emit_memoised(roots, nullptr);
}

}  // namespace gpy
