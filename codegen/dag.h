// The lazy expression DAG. An array operation builds a Node; nothing runs
// until a result is needed, when the planner (plan.cpp) turns the tree into
// kernels. Knows nothing of the parser or of the interpreter's values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/free_list.h"
#include "codegen/small_vec.h"
#include "base/source_position.h"
#include "base/buffer.h"
#include "base/dtype.h"

namespace gpy::dag {

// Inline up to rank 6 (codegen/small_vec.h): shapes are copied at every operation.
using Shape = SmallVec<int64_t, 6>;

enum class Op : uint8_t {
    Input,   // a view of materialised data (buffer + byte offset + byte strides)
    Scalar,  // a run-time constant: becomes a kernel argument, never baked into source
    Cast,    // convert in[0] to `dtype`
    Unary,   // `unary` applied to in[0]
    Binary,  // `binary` applied to in[0], in[1] (both already of the loop dtype)
    Where,   // in[0] ? in[1] : in[2]
    Reduce,  // `reduce` over `axes` of in[0]
    Expand,  // in[0] with size-1 dims inserted at `axes` (keepdims of a pending reduction)
    User,    // `user`'s statements applied to in[...] (np.ElementwiseKernel), elementwise
};

#define GPY_UNARY_OPS(X) \
    X(Neg, "neg") X(Pos, "pos") X(Abs, "abs") X(Sign, "sign") X(Reciprocal, "reciprocal") X(Square, "square") \
    X(Sqrt, "sqrt") X(Cbrt, "cbrt") X(Exp, "exp") X(Exp2, "exp2") X(Expm1, "expm1") X(Log, "log") X(Log2, "log2") \
    X(Log10, "log10") X(Log1p, "log1p") X(Sin, "sin") X(Cos, "cos") X(Tan, "tan") X(Arcsin, "arcsin") \
    X(Arccos, "arccos") X(Arctan, "arctan") X(Sinh, "sinh") X(Cosh, "cosh") X(Tanh, "tanh") X(Arcsinh, "arcsinh") \
    X(Arccosh, "arccosh") X(Arctanh, "arctanh") X(Floor, "floor") X(Ceil, "ceil") X(Trunc, "trunc") X(Rint, "rint") \
    X(IsNan, "isnan") X(IsInf, "isinf") X(IsFinite, "isfinite") X(SignBit, "signbit") X(LogicalNot, "logical_not") \
    X(Invert, "invert") X(Deg2Rad, "deg2rad") X(Rad2Deg, "rad2deg") X(Conj, "conj") X(Spacing, "spacing") \
    X(FrexpMant, "frexp_mant") X(FrexpExp, "frexp_exp")

#define GPY_BINARY_OPS(X) \
    X(Add, "add") X(Sub, "subtract") X(Mul, "multiply") X(TrueDiv, "true_divide") X(FloorDiv, "floor_divide") \
    X(Mod, "remainder") X(Fmod, "fmod") X(Pow, "power") X(Max, "maximum") X(Min, "minimum") X(Fmax, "fmax") \
    X(Fmin, "fmin") X(Arctan2, "arctan2") X(Hypot, "hypot") X(Copysign, "copysign") X(Heaviside, "heaviside") \
    X(LogicalAnd, "logical_and") X(LogicalOr, "logical_or") X(LogicalXor, "logical_xor") X(BitAnd, "bitwise_and") \
    X(BitOr, "bitwise_or") X(BitXor, "bitwise_xor") X(LShift, "left_shift") X(RShift, "right_shift") \
    X(Eq, "equal") X(Ne, "not_equal") X(Lt, "less") X(Le, "less_equal") X(Gt, "greater") X(Ge, "greater_equal") \
    X(Gcd, "gcd") X(Lcm, "lcm") X(LogAddExp, "logaddexp") X(LogAddExp2, "logaddexp2") \
    X(Nextafter, "nextafter") X(Ldexp, "ldexp")

#define GPY_REDUCE_OPS(X) X(Sum, "sum") X(Prod, "prod") X(Max, "max") X(Min, "min") X(Any, "any") X(All, "all") \
    X(ArgMax, "argmax") X(ArgMin, "argmin")

enum class UnaryOp : uint8_t {
#define X(n, s) n,
    GPY_UNARY_OPS(X)
#undef X
};
enum class BinaryOp : uint8_t {
#define X(n, s) n,
    GPY_BINARY_OPS(X)
#undef X
};
enum class ReduceOp : uint8_t {
#define X(n, s) n,
    GPY_REDUCE_OPS(X)
#undef X
};

const char* unary_name(UnaryOp op);
const char* binary_name(BinaryOp op);
const char* reduce_name(ReduceOp op);

// A scalar kernel argument: 8 bytes (16 for complex) holding a value already
// converted to the node's dtype.
struct ScalarValue {
    union {
        int64_t i;
        uint64_t u;
        double f;
        float f32;
        uint16_t f16_bits;
        bool b;
        uint8_t raw[8];
    };
    double imag = 0;  // complex only
    ScalarValue() : i(0) {}
};

struct Node;
using NodeP = std::shared_ptr<Node>;

// A user's elementwise operation (np.ElementwiseKernel): C++ statements that
// read the parameters `params` (one per operand, in order, each of its
// operand's dtype) and assign `out` (of the node's dtype). `types` are
// typedefs the code may use (CuPy's type placeholders: "T" -> float32).
// Immutable once made; `id` hashes everything (the kernel memo's and the
// subtree merger's key: equal ids, equal code).
struct UserCode {
    std::string name;  // the kernel's name, for summaries
    std::string code;
    std::string preamble;  // at file scope, before the kernel
    std::vector<std::string> params;
    std::string out;
    std::vector<std::pair<std::string, DType>> types;
    // The node's last operand is the given output array's value, which `out` starts as.
    bool out_given = false;
    int64_t id = 0;
};

// A node's operands, kept inline: at most three (Where), and a heap vector
// per node was a third of a graph's allocations.
class Operands {
public:
    static constexpr size_t kMax = 3;
    Operands() = default;
    Operands(std::initializer_list<NodeP> list) {
        for (const NodeP& p : list) push_back(p);
    }
    Operands(const std::vector<NodeP>& list) {
        for (const NodeP& p : list) push_back(p);
    }
    void push_back(NodeP p) {
        if (n_ == kMax) throw std::logic_error("dag: a node has at most three operands");
        v_[n_++] = std::move(p);
    }
    void clear() {
        for (size_t k = 0; k < n_; ++k) v_[k].reset();
        n_ = 0;
    }
    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    NodeP& operator[](size_t k) { return v_[k]; }
    const NodeP& operator[](size_t k) const { return v_[k]; }
    NodeP* begin() { return v_; }
    NodeP* end() { return v_ + n_; }
    const NodeP* begin() const { return v_; }
    const NodeP* end() const { return v_ + n_; }
    const NodeP& back() const { return v_[n_ - 1]; }
    bool operator==(const Operands& o) const { return std::equal(begin(), end(), o.begin(), o.end()); }
    bool operator==(const std::vector<NodeP>& o) const { return std::equal(begin(), end(), o.begin(), o.end()); }

private:
    NodeP v_[kMax];
    uint8_t n_ = 0;
};

// A graph walk's mark on a node: the walk's stamp (dag::next_walk_stamp) and
// the node's number in that walk. "Visited by this walk?" is then a field of
// the node the walk reads anyway, not a hash-table probe (the kernel memo's
// walk and count_pending run at every materialisation and, past the pending
// cap, at every operation). A copied node starts unmarked. Walks run on the
// thread that builds the graph.
struct WalkMark {
    uint64_t stamp = 0;
    uint32_t id = 0;
    WalkMark() = default;
    WalkMark(const WalkMark&) {}
    WalkMark& operator=(const WalkMark&) { return *this; }
};

// A stamp no walk has used (process-wide, never 0).
uint64_t next_walk_stamp();

struct Node {
    Op op;
    DType dtype;
    Shape shape;
    Operands in;
    UnaryOp unary{};
    BinaryOp binary{};
    ReduceOp reduce{};
    // Input
    BufferRef buffer;
    int64_t offset = 0;            // bytes
    std::vector<int64_t> strides;  // bytes, one per dim of `shape`
    // Scalar
    ScalarValue value;
    // User
    std::shared_ptr<const UserCode> user;
    // Reduce: sorted axes of in[0] to reduce; the node's shape drops them (no keepdims).
    // Expand: sorted axes of the node's shape that in[0] lacks (each of size 1).
    std::vector<int> axes;
    // Set once the node has been computed: later consumers read it as an Input.
    NodeP result;
    // Un-computed nodes in this tree (shared ones counted per use): an upper
    // bound kept at construction so no walk is needed to cap a growing graph
    // until it passes the cap (then count_pending says how many are distinct,
    // and the array module stores that tighter bound here).
    uint32_t pending_weight = 0;
    // An Expand may be pending in this tree (kept at construction, like the
    // weight): the planner's row-kernel and Expand walks skip trees without.
    bool has_expand = false;
    // A Reduce may be pending in this tree (kept the same way): the planner's
    // reduction walks skip trees without.
    bool has_reduce = false;
    // An integer power may be pending in this tree (its kernel can fail at
    // run time: a negative exponent), kept the same way.
    bool may_fail = false;
    // Cast: a reduction's own cast (sum(dtype=...), the mean of integers),
    // which NumPy makes in its buffered loop, not an array the program cast
    // (the summation order differs: codegen/emit.cpp pairwise_kind).
    bool loop_cast = false;
    // Where the program built it (the array module stores the interpreter's
    // statement), for GPY_DEBUG's plan report.
    const SourcePosition* origin = nullptr;
    // Scratch of the kernel memo's key walk and of count_pending (WalkMark).
    mutable WalkMark memo_mark, count_mark;

    int64_t size() const {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        return n;
    }
};

// A new node (a copy of `args...`' node, or a default one), its memory from a
// per-thread free list (codegen/free_list.h): graphs are built and dropped
// by the hundred nodes per statement.
template <class... A>
NodeP new_node(A&&... args) {
    return std::allocate_shared<Node>(FreeListAllocator<Node>(), std::forward<A>(args)...);
}

NodeP make_input(BufferRef buf, DType dt, Shape shape, std::vector<int64_t> strides, int64_t offset);
NodeP make_scalar(DType dt, const ScalarValue& v);
NodeP make_cast(NodeP x, DType to);  // returns x itself when already `to`
NodeP make_unary(UnaryOp op, NodeP x, DType out);
NodeP make_binary(BinaryOp op, NodeP a, NodeP b, DType out, Shape shape);
NodeP make_where(NodeP c, NodeP a, NodeP b, Shape shape);
// `code` applied elementwise to `in` (at most three operands, each already
// of its parameter's dtype and broadcastable to `shape`; with out_given the
// last one is the output's old value).
NodeP make_user(std::shared_ptr<const UserCode> code, const std::vector<NodeP>& in, DType out, Shape shape);
NodeP make_reduce(ReduceOp op, NodeP x, std::vector<int> axes, DType out);
// keepdims: x with a size-1 dim at each of `axes` (sorted, of the result).
NodeP make_expand(NodeP x, std::vector<int> axes);

// C-contiguous byte strides of a shape.
std::vector<int64_t> contiguous_strides(const Shape& shape, size_t itemsize);
// The bytes [lo, hi) a view's elements occupy, relative to its first
// element (strides of either sign); {0, 0} when it has none.
std::pair<int64_t, int64_t> byte_extent(const Shape& shape, const std::vector<int64_t>& strides, size_t itemsize);


// Distinct un-computed nodes in n's graph, counting stops at `limit`.
size_t count_pending(const NodeP& n, size_t limit);

// Leaves `n` computed: `result` holds its value, its inputs are dropped
// (their buffers can be freed).
void set_result(Node& n, NodeP result);

}  // namespace gpy::dag
