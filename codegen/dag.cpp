#include "codegen/dag.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gpy::dag {

const char* unary_name(UnaryOp op) {
    switch (op) {
#define X(n, s) case UnaryOp::n: return s;
        GPY_UNARY_OPS(X)
#undef X
    }
    return "?";
}
const char* binary_name(BinaryOp op) {
    switch (op) {
#define X(n, s) case BinaryOp::n: return s;
        GPY_BINARY_OPS(X)
#undef X
    }
    return "?";
}
const char* reduce_name(ReduceOp op) {
    switch (op) {
#define X(n, s) case ReduceOp::n: return s;
        GPY_REDUCE_OPS(X)
#undef X
    }
    return "?";
}

std::vector<int64_t> contiguous_strides(const Shape& shape, size_t itemsize) {
    std::vector<int64_t> s(shape.size());
    // NumPy 2 gives a new array with no elements all-zero strides (np.zeros((0, 3)).strides == (0, 0)).
    for (int64_t d : shape)
        if (d == 0) return s;
    int64_t acc = int64_t(itemsize);
    for (size_t k = shape.size(); k-- > 0;) {
        s[k] = acc;
        acc *= shape[k] > 0 ? shape[k] : 1;
    }
    return s;
}

std::pair<int64_t, int64_t> byte_extent(const Shape& shape, const std::vector<int64_t>& strides, size_t itemsize) {
    int64_t lo = 0, hi = int64_t(itemsize);
    for (size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 0) return {0, 0};
        const int64_t span = strides[d] * (shape[d] - 1);
        (span < 0 ? lo : hi) += span;
    }
    return {lo, hi};
}

// 1 + the pending weight of the inputs (computed inputs weigh nothing).
static void weigh(Node& n) {
    uint64_t w = 1;
    n.has_expand = n.op == Op::Expand;
    n.has_reduce = n.op == Op::Reduce;
    n.may_fail = n.op == Op::Binary && n.binary == BinaryOp::Pow && kind(n.dtype) == DKind::Int;
    for (auto& c : n.in) {
        if (c->result) continue;
        w += c->pending_weight;
        n.has_expand |= c->has_expand;
        n.has_reduce |= c->has_reduce;
        n.may_fail |= c->may_fail;
    }
    n.pending_weight = uint32_t(std::min<uint64_t>(w, UINT32_MAX));
}

NodeP make_input(BufferRef buf, DType dt, Shape shape, std::vector<int64_t> strides, int64_t offset) {
    auto n = new_node();
    n->op = Op::Input;
    n->dtype = dt;
    n->shape = std::move(shape);
    n->buffer = std::move(buf);
    n->strides = std::move(strides);
    n->offset = offset;
    return n;
}

NodeP make_scalar(DType dt, const ScalarValue& v) {
    auto n = new_node();
    n->op = Op::Scalar;
    n->dtype = dt;
    n->value = v;
    return n;
}

NodeP make_cast(NodeP x, DType to) {
    if (x->dtype == to) return x;
    auto n = new_node();
    n->op = Op::Cast;
    n->dtype = to;
    n->shape = x->shape;
    n->in.push_back(std::move(x));  // (a braced list would copy: atomic reference counts)
    weigh(*n);
    return n;
}

NodeP make_unary(UnaryOp op, NodeP x, DType out) {
    auto n = new_node();
    n->op = Op::Unary;
    n->unary = op;
    n->dtype = out;
    n->shape = x->shape;
    n->in.push_back(std::move(x));
    weigh(*n);
    return n;
}

// An elementwise node's operands must broadcast to its shape: a caller that
// gets this wrong would have the kernel read and write out of bounds, so it
// is an internal error (catchable, "please report") instead.
static void require_broadcasts(const NodeP& x, const Shape& shape) {
    const Shape& s = x->shape;
    bool ok = s.size() <= shape.size();
    for (size_t k = 1; ok && k <= s.size(); ++k) {
        int64_t d = s[s.size() - k];
        ok = d == 1 || d == shape[shape.size() - k];
    }
    if (!ok) throw std::logic_error("an operand does not broadcast to its elementwise node's shape");
}

NodeP make_binary(BinaryOp op, NodeP a, NodeP b, DType out, Shape shape) {
    require_broadcasts(a, shape);
    require_broadcasts(b, shape);
    auto n = new_node();
    n->op = Op::Binary;
    n->binary = op;
    n->dtype = out;
    n->shape = std::move(shape);
    n->in.push_back(std::move(a));
    n->in.push_back(std::move(b));
    weigh(*n);
    return n;
}

NodeP make_user(std::shared_ptr<const UserCode> code, const std::vector<NodeP>& in, DType out, Shape shape) {
    auto n = new_node();
    n->op = Op::User;
    n->dtype = out;
    n->shape = std::move(shape);
    for (const NodeP& x : in) {
        require_broadcasts(x, n->shape);
        n->in.push_back(x);
    }
    n->user = std::move(code);
    weigh(*n);
    return n;
}

NodeP make_where(NodeP c, NodeP a, NodeP b, Shape shape) {
    require_broadcasts(c, shape);
    require_broadcasts(a, shape);
    require_broadcasts(b, shape);
    auto n = new_node();
    n->op = Op::Where;
    n->dtype = a->dtype;
    n->shape = std::move(shape);
    n->in.push_back(std::move(c));
    n->in.push_back(std::move(a));
    n->in.push_back(std::move(b));
    weigh(*n);
    return n;
}

NodeP make_reduce(ReduceOp op, NodeP x, std::vector<int> axes, DType out) {
    auto n = new_node();
    n->op = Op::Reduce;
    n->reduce = op;
    n->dtype = out;
    for (size_t d = 0; d < x->shape.size(); ++d) {
        bool reduced = false;
        for (int a : axes) reduced |= a == int(d);
        if (!reduced) n->shape.push_back(x->shape[d]);
    }
    n->axes = std::move(axes);
    n->in.push_back(std::move(x));
    weigh(*n);
    return n;
}

NodeP make_expand(NodeP x, std::vector<int> axes) {
    auto n = new_node();
    n->op = Op::Expand;
    n->dtype = x->dtype;
    size_t k = 0;
    for (size_t d = 0; d < x->shape.size() + axes.size(); ++d) {
        bool inserted = std::find(axes.begin(), axes.end(), int(d)) != axes.end();
        n->shape.push_back(inserted ? 1 : x->shape[k++]);
    }
    n->axes = std::move(axes);
    n->in.push_back(std::move(x));
    weigh(*n);
    return n;
}

uint64_t next_walk_stamp() {
    static std::atomic<uint64_t> last{0};
    return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

void set_result(Node& n, NodeP result) {
    n.result = std::move(result);
    n.in.clear();
}

size_t count_pending(const NodeP& root, size_t limit) {
    // Runs as an operation builds its array once a graph passes the pending
    // cap (Black-Scholes: ~15 walks of up to ~60 nodes a call): nodes are
    // marked with the walk's stamp, so it neither allocates nor probes.
    thread_local std::vector<const Node*> stack;
    const uint64_t stamp = next_walk_stamp();
    size_t seen = 0;
    stack.assign(1, root.get());
    while (!stack.empty() && seen < limit) {
        const Node* n = stack.back();
        stack.pop_back();
        if (n->result || n->op == Op::Input || n->op == Op::Scalar || n->count_mark.stamp == stamp) continue;
        n->count_mark.stamp = stamp;
        ++seen;
        for (auto& c : n->in) stack.push_back(c.get());
    }
    return seen;
}

}  // namespace gpy::dag
