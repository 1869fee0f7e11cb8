#include "codegen/cse.h"

#include <cstring>
#include <unordered_map>

#include "codegen/emit_internal.h"

namespace gpy {

using namespace dag;

namespace {

class Merger {
public:
    NodeP merged(const NodeP& original) {
        const NodeP& n = original->result ? original->result : original;
        if (auto it = done_.find(n.get()); it != done_.end()) return it->second;
        std::vector<NodeP> in;
        for (const NodeP& c : n->in) in.push_back(merged(c));
        NodeP m = negation_moved_out(*n, in);
        if (!m) m = interned(n, std::move(in));
        done_.emplace(n.get(), m);
        return m;
    }

private:
    std::unordered_map<const Node*, NodeP> done_;
    std::unordered_map<std::vector<int64_t>, NodeP, Int64VectorHash> by_key_;

    // The one node equal to `n` over the merged inputs `in`: n itself when
    // they are its own inputs and no equal node came first.
    NodeP interned(const NodeP& n, std::vector<NodeP> in) {
        auto [it, fresh] = by_key_.emplace(key_of(*n, in), nullptr);
        if (fresh) it->second = in == n->in ? n : with_inputs(*n, std::move(in));
        return it->second;
    }
    static NodeP with_inputs(const Node& n, std::vector<NodeP> in) {
        auto c = new_node(n);
        c->in = std::move(in);
        return c;
    }

    // `like` turned into the operation `op` over `in` (a rewrite's new node).
    NodeP interned_like(const Node& like, Op op, UnaryOp unary, std::vector<NodeP> in) {
        Node proto = like;
        proto.op = op;
        proto.unary = unary;
        if (op == Op::Unary) proto.binary = BinaryOp{};  // as a user's unary node, so equal ones merge
        auto [it, fresh] = by_key_.emplace(key_of(proto, in), nullptr);
        if (fresh) it->second = with_inputs(proto, std::move(in));
        return it->second;
    }

    // A float negation of the same dtype as its operand (merged already).
    static const Node* negation(const NodeP& x, DType dt) {
        if (x->op != Op::Unary || x->unary != UnaryOp::Neg || x->dtype != dt || !is_float(dt)) return nullptr;
        return x->in[0]->dtype == dt ? x.get() : nullptr;
    }

    // Negations move outwards, so `cnd(-d)` computes the subtrees of `cnd(d)`
    // (Black-Scholes' put): -(-a) = a, |-a| = |a|, (-a)^2 = a^2,
    // (-a)*b = a*(-b) = -(a*b), (-a)*(-b) = a*b, and the same for division.
    // Each is exact in IEEE arithmetic: negation is, and rounding to nearest
    // is symmetric. Returns null when no rewrite applies.
    NodeP negation_moved_out(const Node& n, const std::vector<NodeP>& in) {
        if (n.op == Op::Unary && n.dtype == in[0]->dtype) {
            const Node* neg = negation(in[0], n.dtype);
            if (!neg) return nullptr;
            if (n.unary == UnaryOp::Neg) return neg->in[0];
            if (n.unary == UnaryOp::Abs || n.unary == UnaryOp::Square) return interned_like(n, Op::Unary, n.unary, {neg->in[0]});
            return nullptr;
        }
        if (n.op != Op::Binary || (n.binary != BinaryOp::Mul && n.binary != BinaryOp::TrueDiv)) return nullptr;
        const Node* na = negation(in[0], n.dtype);
        const Node* nb = negation(in[1], n.dtype);
        if (!na && !nb) return nullptr;
        NodeP p = interned_like(n, Op::Binary, n.unary, {na ? na->in[0] : in[0], nb ? nb->in[0] : in[1]});
        return na && nb ? p : interned_like(n, Op::Unary, UnaryOp::Neg, {p});
    }

    static int64_t bits(const void* p) {
        int64_t v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }

    static std::vector<int64_t> key_of(const Node& n, const std::vector<NodeP>& in) {
        std::vector<int64_t> key{int64_t(n.op) | int64_t(n.dtype) << 8 | int64_t(n.unary) << 16 |
                                 int64_t(n.binary) << 32 | int64_t(n.reduce) << 48};
        key.push_back(int64_t(n.shape.size()));
        key.insert(key.end(), n.shape.begin(), n.shape.end());
        key.insert(key.end(), n.axes.begin(), n.axes.end());
        switch (n.op) {
            case Op::Input:
                key.push_back(reinterpret_cast<intptr_t>(n.buffer.get()));
                key.push_back(n.offset);
                key.insert(key.end(), n.strides.begin(), n.strides.end());
                break;
            case Op::Scalar:
                key.push_back(bits(n.value.raw));
                key.push_back(bits(&n.value.imag));
                break;
            default:
                if (n.op == Op::User) key.push_back(n.user->id);
                // Inputs are already merged: equal subtrees are the same pointer.
                for (const NodeP& c : in) key.push_back(reinterpret_cast<intptr_t>(c.get()));
        }
        return key;
    }
};

}  // namespace

std::vector<NodeP> merge_equal_subtrees(const std::vector<NodeP>& roots) {
    Merger m;
    std::vector<NodeP> out;
    for (const NodeP& r : roots) out.push_back(m.merged(r));
    return out;
}

}  // namespace gpy
