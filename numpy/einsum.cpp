// Contraction over labelled axes (einsum's model) and np.einsum itself.
// Every product (matmul, dot, tensordot, inner, outer, kron, einsum) becomes
// broadcast views of its operands with one axis per label; a plain (batched)
// matrix product of floats then runs on BLAS, anything else as one fused
// multiply-and-sum kernel.
#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <optional>

#include "numpy/promote.h"
#include "runtime/array_memory.h"
#include "runtime/backend.h"
#include "numpy/linalg.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

const blas::Library& blas_library() {
    std::string why;
    const blas::Library* lib = blas::library(&why);
    if (!lib) raise(types::RuntimeError, why);
    return *lib;
}

std::string remapped_text(const std::vector<int64_t>& dims) {
    if (dims.size() == 1) return "(" + (dims[0] < 0 ? std::string("newaxis") : std::to_string(dims[0])) + ",)";
    size_t first = 0;
    while (first < dims.size() && dims[first] < 0) ++first;
    std::string s = "(";
    for (size_t k = first; k < dims.size(); ++k) {
        if (k > first) s += ",";
        s += dims[k] < 0 ? "newaxis" : std::to_string(dims[k]);
    }
    return s + ")";
}

namespace {

struct Dim {
    int64_t size = 1;
    int64_t stride = 0;  // bytes
};

std::string label_text(int label) { return std::string(1, char(label)); }

// One operand seen through the labels: label -> (size, stride); a repeated
// label (a diagonal) has the sum of its axes' strides.
using LabelAxes = std::map<int, Dim>;

struct Problem {
    std::vector<ArrayObj*> ops;            // materialised
    std::vector<LabelAxes> axes;           // per operand
    std::vector<int> order;                // iteration order: output labels, then summed labels ascending
    size_t nout = 0;
    std::map<int, int64_t> size;           // label -> broadcast size
    // An operand's stride for a label of the iteration (0: absent or broadcast).
    int64_t stride(size_t k, int label) const {
        auto it = axes[k].find(label);
        return it == axes[k].end() || it->second.size != size.at(label) ? 0 : it->second.stride;
    }
};

Problem make_problem(const std::vector<Value>& operands, const std::vector<std::vector<int>>& labels, const std::vector<int>& out) {
    Problem p;
    for (size_t k = 0; k < operands.size(); ++k) {
        ArrayObj* a = operands[k].as<ArrayObj>();
        materialize(a);
        p.ops.push_back(a);
        LabelAxes ax;
        for (size_t j = 0; j < labels[k].size(); ++j) {
            int l = labels[k][j];
            int64_t d = a->shape[j];
            auto it = ax.find(l);
            if (it == ax.end()) {
                ax[l] = Dim{d, a->strides[j]};
                continue;
            }
            if (it->second.size != d)
                raise(types::ValueError, "dimensions in operand " + std::to_string(k) + " for collapsing index '" + label_text(l) +
                                             "' don't match (" + std::to_string(it->second.size) + " != " + std::to_string(d) + ")");
            it->second.stride += a->strides[j];
        }
        p.axes.push_back(std::move(ax));
    }
    p.order = out;
    p.nout = out.size();
    std::vector<int> summed;
    for (auto& ax : p.axes)
        for (auto& [l, d] : ax)
            if (std::find(out.begin(), out.end(), l) == out.end() && std::find(summed.begin(), summed.end(), l) == summed.end())
                summed.push_back(l);
    std::sort(summed.begin(), summed.end());
    p.order.insert(p.order.end(), summed.begin(), summed.end());
    // Sizes broadcast as NumPy's iterator does: 1 gives way to any size.
    bool mismatch = false;
    for (auto& ax : p.axes)
        for (auto& [l, d] : ax) {
            auto it = p.size.find(l);
            if (it == p.size.end() || it->second == 1) p.size[l] = d.size;
            else if (d.size != 1 && d.size != it->second) mismatch = true;
        }
    if (mismatch) {
        std::string msg = "operands could not be broadcast together with remapped shapes [original->remapped]: ";
        for (size_t k = 0; k < p.ops.size(); ++k) {
            std::vector<int64_t> dims;
            for (int l : p.order) dims.push_back(p.axes[k].count(l) ? p.axes[k].at(l).size : -1);
            msg += compact_shape_text(p.ops[k]->shape) + "->" + remapped_text(dims) + " ";
        }
        raise(types::ValueError, msg);
    }
    return p;
}

// ---- the fused kernel path ----

Value contract_kernel(Interp& in, const Problem& p, DType t) {
    Shape full;
    for (int l : p.order) full.push_back(p.size.at(l));
    Value prod;
    for (size_t k = 0; k < p.ops.size(); ++k) {
        ArrayObj* a = p.ops[k];
        std::vector<int64_t> strides;
        for (int l : p.order) strides.push_back(p.stride(k, l));
        Value view = array_from_buffer(a->buffer, a->dtype, full, strides, a->offset);
        if (a->dtype != t) view = array_from_node(make_cast(array_node(view.as<ArrayObj>()), t));
        prod = k == 0 ? view : apply_ufunc(in, Ufunc::multiply, {prod, view});
    }
    if (p.order.size() == p.nout) return prod;
    std::vector<Value> axes;
    for (size_t d = p.nout; d < p.order.size(); ++d) axes.push_back(Value::integer(int64_t(d)));
    Value axis = make_tuple(axes);
    ReduceOptions o;
    o.axis = &axis;
    if (t == DType::Bool) return reduce(in, ReduceOp::Any, prod, o);
    o.dtype = t;
    return reduce(in, ReduceOp::Sum, prod, o);
}

// ---- the BLAS path ----

// Dims (outer to inner) as one strided run, if they are one.
std::optional<Dim> merge(const std::vector<Dim>& dims) {
    Dim r{1, 0};
    bool any = false;
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
        if (it->size == 1) continue;
        if (!any) {
            r = *it;
            any = true;
        } else if (it->stride == r.stride * r.size) {
            r.size *= it->size;
        } else {
            return std::nullopt;
        }
    }
    return r;
}

// Where the matrix library reads and writes: cuBLAS takes device addresses,
// the host BLAS host bytes (device memory's mirror when no gemm runs there).
bool gemm_on_device() {
    Backend* device = array_backend();
    return device && device->has_gemm();
}
const uint8_t* gemm_input(const BufferRef& b) { return gemm_on_device() ? b.device_read_bytes() : b.host_read_bytes(); }
uint8_t* gemm_output(const BufferRef& b) { return gemm_on_device() ? b.device_bytes() : b.bytes(); }

// A matrix for BLAS: rows x cols with byte strides.
struct Mat {
    const uint8_t* base;
    Dim rows, cols;
    Mat t() const { return Mat{base, cols, rows}; }
};

struct Layout {
    int trans;
    int64_t ld;
};

// How BLAS reads `m` (row-major, maybe transposed), if it can.
std::optional<Layout> layout_of(const Mat& m, int64_t isz) {
    int64_t r = m.rows.size, c = m.cols.size;
    auto ok_ld = [](int64_t s, int64_t isz, int64_t min) { return s > 0 && s % isz == 0 && s / isz >= std::max<int64_t>(min, 1); };
    if (c == 1 || m.cols.stride == isz) {
        if (r == 1) return Layout{blas::kNoTrans, std::max<int64_t>(c, 1)};
        if (ok_ld(m.rows.stride, isz, c)) return Layout{blas::kNoTrans, m.rows.stride / isz};
    }
    if (r == 1 || m.rows.stride == isz) {
        if (c == 1) return Layout{blas::kTrans, std::max<int64_t>(r, 1)};
        if (ok_ld(m.cols.stride, isz, r)) return Layout{blas::kTrans, m.cols.stride / isz};
    }
    return std::nullopt;
}

// An operand as a batch of matrices (batch dims, row dims, col dims, each a
// list of labels), in the compute dtype: its own memory when BLAS can read it,
// else a contiguous copy (broadcast batch dims are not copied).
struct Batched {
    Value keep;                   // the array whose memory `base` points into
    const uint8_t* base = nullptr;
    std::vector<int64_t> batch_strides;
    Dim rows, cols;
};

Batched as_batched(const Problem& p, size_t k, const std::vector<int>& batch, const std::vector<int>& rl, const std::vector<int>& cl,
                   DType ct) {
    ArrayObj* a = p.ops[k];
    int64_t isz = int64_t(itemsize(ct));
    auto dims_of = [&](const std::vector<int>& ls) {
        std::vector<Dim> ds;
        for (int l : ls) ds.push_back(Dim{p.size.at(l), p.stride(k, l)});
        return ds;
    };
    Batched b;
    for (int l : batch) b.batch_strides.push_back(p.stride(k, l));
    if (a->dtype == ct) {
        auto r = merge(dims_of(rl)), c = merge(dims_of(cl));
        if (r && c && layout_of(Mat{nullptr, *r, *c}, isz)) {
            b.keep = Value::object(a);
            b.base = gemm_input(a->buffer) + a->offset;
            b.rows = *r;
            b.cols = *c;
            return b;
        }
    }
    // Copy: batch dims the operand broadcasts stay size 1 (stride 0).
    Shape shape;
    std::vector<int64_t> strides;
    for (int l : batch) {
        int64_t s = p.stride(k, l);
        shape.push_back(s == 0 ? 1 : p.size.at(l));
        strides.push_back(s);
    }
    for (auto* ls : {&rl, &cl})
        for (int l : *ls) {
            shape.push_back(p.size.at(l));
            strides.push_back(p.stride(k, l));
        }
    NodeP view = make_input(a->buffer, a->dtype, shape, strides, a->offset);
    b.keep = compute_into_new(make_cast(view, ct), ct, shape);
    ArrayObj* c = b.keep.as<ArrayObj>();
    b.base = gemm_input(c->buffer) + c->offset;
    for (size_t d = 0; d < batch.size(); ++d) b.batch_strides[d] = shape[d] == 1 ? 0 : c->strides[d];
    int64_t ncols = 1;
    for (int l : cl) ncols *= p.size.at(l);
    int64_t nrows = 1;
    for (int l : rl) nrows *= p.size.at(l);
    b.rows = Dim{nrows, ncols * isz};
    b.cols = Dim{ncols, isz};
    return b;
}

void check_int(int64_t v) {
    if (v > INT_MAX) raise(types::ValueError, "matrix dimension " + std::to_string(v) + " is too large for BLAS (32-bit indices)");
}

// On a device with its own matrix library (cuBLAS): every shape is one gemm
// (vectors included). A stored matrix with one row may carry any row stride;
// cuBLAS wants at least its width.
template <class T>
void product_on_device(Backend& device, Layout la, Layout lb, int64_t n, int64_t m, int64_t k, const T* a, const T* b, T* c, int64_t ldc) {
    bool ta = la.trans == blas::kTrans, tb = lb.trans == blas::kTrans;
    int64_t lda = (ta ? k : n) == 1 ? std::max(la.ld, ta ? n : k) : la.ld;
    int64_t ldb = (tb ? m : k) == 1 ? std::max(lb.ld, tb ? k : m) : lb.ld;
    ldc = n == 1 ? std::max(ldc, m) : ldc;
    for (int64_t v : {lda, ldb, ldc}) check_int(v);
    try {
        device.gemm(ta, tb, int(n), int(m), int(k), a, int(lda), b, int(ldb), c, int(ldc));
    } catch (const std::runtime_error& e) {  // the library's or the driver's errors
        raise(types::RuntimeError, e.what());
    }
}

// C (n x m, row-major, leading dimension ldc) = A (n x k) B (k x m).
template <class T>
void product(const blas::Library& L, const Mat& A, const Mat& B, T* c, int64_t ldc, int64_t isz) {
    int64_t n = A.rows.size, k = A.cols.size, m = B.cols.size;
    Layout la = *layout_of(A, isz), lb = *layout_of(B, isz);
    for (int64_t v : {n, k, m, la.ld, lb.ld, ldc}) check_int(v);
    auto a = reinterpret_cast<const T*>(A.base);
    auto b = reinterpret_cast<const T*>(B.base);
    if (Backend* device = array_backend(); device && device->has_gemm()) {
        product_on_device<T>(*device, la, lb, n, m, k, a, b, c, ldc);
        return;
    }
    auto flip = [](int t) { return t == blas::kNoTrans ? blas::kTrans : blas::kNoTrans; };
    // gemv(trans, stored rows, stored cols): the stored matrix is op's input before `trans`.
    // A vector product is BLAS's dot, as NumPy's (gemm with a 1x1 result was
    // 9x slower for 2^22 float32, and sums in another order).
    if (n == 1 && m == 1 && A.cols.stride > 0 && B.rows.stride > 0) {
        *c = blas::dot<T>(L, int(k), a, int(A.cols.stride / isz), b, int(B.rows.stride / isz));
    } else if (m == 1 && n > 1) {
        int incx = k == 1 ? 1 : int(B.rows.stride / isz);
        if (la.trans == blas::kNoTrans) blas::gemv<T>(L, blas::kNoTrans, int(n), int(k), a, int(la.ld), b, incx, c, int(ldc));
        else blas::gemv<T>(L, blas::kTrans, int(k), int(n), a, int(la.ld), b, incx, c, int(ldc));
    } else if (n == 1 && m > 1) {
        int incx = k == 1 ? 1 : int(A.cols.stride / isz);
        if (lb.trans == blas::kNoTrans) blas::gemv<T>(L, flip(lb.trans), int(k), int(m), b, int(lb.ld), a, incx, c, 1);
        else blas::gemv<T>(L, flip(lb.trans), int(m), int(k), b, int(lb.ld), a, incx, c, 1);
    } else {
        blas::gemm<T>(L, la.trans, lb.trans, int(n), int(m), int(k), a, int(la.ld), b, int(lb.ld), c, int(ldc));
    }
}

// The BLAS plan, when the contraction is a batched matrix product:
// A(batch, I, K) B(batch, K, J) -> out(batch, I, J) or out(batch, J, I).
struct GemmPlan {
    std::vector<int> batch, I, J, K;
    bool swapped = false;  // out is (batch, J, I): computed as B^T A^T
};

std::optional<GemmPlan> gemm_plan(const Problem& p) {
    if (p.ops.size() != 2) return std::nullopt;
    GemmPlan g;
    auto in_op = [&](size_t k, int l) { return p.axes[k].count(l) > 0; };
    for (size_t d = 0; d < p.order.size(); ++d) {
        int l = p.order[d];
        bool a = in_op(0, l), b = in_op(1, l), o = d < p.nout;
        if (!o && !(a && b)) return std::nullopt;  // summed over one operand only
        if (!o) g.K.push_back(l);
        else if (a && b) g.batch.push_back(l);
        else (a ? g.I : g.J).push_back(l);
    }
    // Output order must be batch, then one block, then the other.
    std::vector<int> ij = g.batch, ji = g.batch;
    ij.insert(ij.end(), g.I.begin(), g.I.end());
    ij.insert(ij.end(), g.J.begin(), g.J.end());
    ji.insert(ji.end(), g.J.begin(), g.J.end());
    ji.insert(ji.end(), g.I.begin(), g.I.end());
    std::vector<int> out(p.order.begin(), p.order.begin() + int64_t(p.nout));
    if (out == ij) return g;
    if (out == ji) {
        g.swapped = true;
        return g;
    }
    return std::nullopt;
}

template <class T>
void run_batches(const blas::Library& L, const Problem& p, const GemmPlan& g, const Batched& A, const Batched& B, ArrayObj* out) {
    int64_t isz = sizeof(T);
    int64_t n = A.rows.size, m = B.cols.size;
    int64_t nbatch = 1;
    std::vector<int64_t> bsz;
    for (int l : g.batch) {
        bsz.push_back(p.size.at(l));
        nbatch *= bsz.back();
    }
    T* c = reinterpret_cast<T*>(gemm_output(out->buffer) + out->offset);
    std::vector<int64_t> idx(bsz.size(), 0);
    for (int64_t t = 0; t < nbatch; ++t) {
        int64_t oa = 0, ob = 0;
        for (size_t d = 0; d < idx.size(); ++d) {
            oa += idx[d] * A.batch_strides[d];
            ob += idx[d] * B.batch_strides[d];
        }
        Mat a{A.base + oa, A.rows, A.cols}, b{B.base + ob, B.rows, B.cols};
        T* ct = c + t * n * m;
        if (g.swapped) product<T>(L, b.t(), a.t(), ct, n, isz);
        else product<T>(L, a, b, ct, m, isz);
        for (size_t d = idx.size(); d-- > 0;) {
            if (++idx[d] < bsz[d]) break;
            idx[d] = 0;
        }
    }
}

Value contract_blas(const Problem& p, const GemmPlan& g, DType t) {
    // On a device with its own library the products go there
    // (product_on_device) and never touch the host library, which may be absent.
    static const blas::Library kNoHostBlas{};
    const Backend* device = array_backend();
    const blas::Library& L = device && device->has_gemm() ? kNoHostBlas : blas_library();
    DType ct = t == DType::Float16 ? DType::Float32 : t;
    Batched A = as_batched(p, 0, g.batch, g.I, g.K, ct);
    Batched B = as_batched(p, 1, g.batch, g.K, g.J, ct);
    Shape shape;
    for (size_t d = 0; d < p.nout; ++d) shape.push_back(p.size.at(p.order[d]));
    int64_t kk = A.cols.size;
    Value out = new_array(ct, shape, kk == 0);
    ArrayObj* o = out.as<ArrayObj>();
    if (o->size() > 0 && kk > 0) {
        if (ct == DType::Float32) run_batches<float>(L, p, g, A, B, o);
        else run_batches<double>(L, p, g, A, B, o);
    }
    if (ct != t) out = array_from_node(make_cast(array_node(o), t));
    return out;
}

}  // namespace

Value contract(Interp& in, const std::vector<Value>& operands, const std::vector<std::vector<int>>& labels, const std::vector<int>& out,
               DType t) {
    // Complex products run as fused multiply-and-sum kernels (no zgemm yet).
    Problem p = make_problem(operands, labels, out);
    Value r;
    // Without BLAS (a host lacking OpenBLAS) float products still run, as kernels.
    const Backend* device = array_backend();
    bool have_blas = (device && device->has_gemm()) || blas::library(nullptr) != nullptr;
    std::optional<GemmPlan> g = is_float(t) && have_blas ? gemm_plan(p) : std::nullopt;
    r = g ? contract_blas(p, *g, t) : contract_kernel(in, p, t);
    if (out.empty() && !r.as<ArrayObj>()->numpy_scalar) r = array_from_node(array_node(r.as<ArrayObj>()), true);
    return r;
}

// ---- np.einsum ----

namespace {

constexpr int kEllipsisLabel = 256;  // ellipsis dim p (of the broadcast ellipsis dims) is label 256 + p

struct Term {
    std::vector<int> labels;  // letters; -1 marks the ellipsis
};

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

Term parse_term(const std::string& s, size_t opnum, bool output) {
    Term t;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == ' ') continue;
        if (c == '.') {
            if (s.compare(i, 3, "...") != 0 || std::count(t.labels.begin(), t.labels.end(), -1) > 0)
                raise(types::ValueError, output ? std::string("einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in the output")
                                                : "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in operand " +
                                                      std::to_string(opnum));
            t.labels.push_back(-1);
            i += 2;
            continue;
        }
        if (!is_letter(c))
            raise(types::ValueError, std::string("invalid subscript '") + c + "' in einstein sum subscripts string, subscripts must be letters");
        t.labels.push_back(c);
    }
    return t;
}

// Expands an operand's ellipsis to labels of the broadcast ellipsis dims (right-aligned).
std::vector<int> operand_labels(const Term& t, int ndim, size_t opnum, int nell_total) {
    int nletters = int(std::count_if(t.labels.begin(), t.labels.end(), [](int l) { return l >= 0; }));
    bool has_ell = nletters != int(t.labels.size());
    if (nletters > ndim)
        raise(types::ValueError, "einstein sum subscripts string contains too many subscripts for operand " + std::to_string(opnum));
    if (!has_ell && nletters < ndim)
        raise(types::ValueError, "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.");
    std::vector<int> r;
    int nell = ndim - nletters;
    for (int l : t.labels) {
        if (l >= 0) r.push_back(l);
        else for (int j = 0; j < nell; ++j) r.push_back(kEllipsisLabel + nell_total - nell + j);
    }
    return r;
}

// einsum(a, [0, 1], b, [1, 2], [0, 2]) as the subscripts "AB,BC->AC" (NumPy
// maps 0-25 to 'A'-'Z' and 26-51 to 'a'-'z').
std::string sublist_text(Interp& in, const Value& list) {
    std::string s;
    for (auto& v : to_vector(in, list)) {
        if (std::string(type_name(v)) == "ellipsis") {
            s += "...";
            continue;
        }
        int64_t k = to_index(v);
        if (k < 0 || k >= 52) raise(types::ValueError, "subscript is not within the valid range [0, 52)");
        s += char(k < 26 ? 'A' + k : 'a' + (k - 26));
    }
    return s;
}

Value np_einsum(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "einsum() missing required argument 'subscripts' (pos 0)");
    std::string spec;
    std::vector<Value> ops;
    if (is_kind(a.pos[0], OK::Str)) {
        spec = str_of(a.pos[0], "subscripts");
        for (size_t k = 1; k < a.npos; ++k) ops.push_back(as_array_value(in, a.pos[k]));
    } else {
        for (size_t k = 0; k + 1 < a.npos; k += 2) {
            ops.push_back(as_array_value(in, a.pos[k]));
            spec += (k ? "," : "") + sublist_text(in, a.pos[k + 1]);
        }
        if (a.npos % 2 == 1) spec += "->" + sublist_text(in, a.pos[a.npos - 1]);
    }
    if (ops.empty()) raise(types::ValueError, "must specify at least one operand");
    // A GPU context's NumPy scalars live on the host: the kernels and cuBLAS
    // read their device copies.
    for (Value& v : ops)
        if (ArrayObj* x = v.as<ArrayObj>(); x->buffer && x->buffer->device == DeviceKind::CPU && array_device_kind() == DeviceKind::CUDA)
            v = array_from_buffer(device_copy(x), x->dtype, x->shape, x->strides, x->offset);
    // optimize= only chooses a contraction order in NumPy; one fused kernel needs none.
    std::optional<DType> dt;
    if (const Value* d = kwarg(a, "dtype"); d && !d->is_none()) dt = to_dtype(in, *d);
    std::string lhs = spec, rhs;
    size_t arrow = spec.find("->");
    bool explicit_out = arrow != std::string::npos;
    if (explicit_out) {
        lhs = spec.substr(0, arrow);
        rhs = spec.substr(arrow + 2);
    } else if (spec.find_first_of("->") != std::string::npos) {
        raise(types::ValueError, "einstein sum subscript string does not contain proper '->' output specified");
    }
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
        size_t comma = lhs.find(',', start);
        parts.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    // NumPy's own (swapped-looking) wording for the two count mismatches.
    if (parts.size() > ops.size()) raise(types::ValueError, "more operands provided to einstein sum function than specified in the subscripts string");
    if (parts.size() < ops.size()) raise(types::ValueError, "fewer operands provided to einstein sum function than specified in the subscripts string");
    std::vector<Term> terms;
    int nell = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
        terms.push_back(parse_term(parts[k], k, false));
        const Term& t = terms.back();
        int nletters = int(std::count_if(t.labels.begin(), t.labels.end(), [](int l) { return l >= 0; }));
        if (nletters != int(t.labels.size())) nell = std::max(nell, ops[k].as<ArrayObj>()->ndim() - nletters);
    }
    std::vector<std::vector<int>> labels;
    for (size_t k = 0; k < terms.size(); ++k) labels.push_back(operand_labels(terms[k], ops[k].as<ArrayObj>()->ndim(), k, nell));
    std::vector<int> out;
    if (explicit_out) {
        Term o = parse_term(rhs, 0, true);
        for (int l : o.labels) {
            if (l < 0) {
                for (int j = 0; j < nell; ++j) out.push_back(kEllipsisLabel + j);
                continue;
            }
            if (std::count(out.begin(), out.end(), l))
                raise(types::ValueError, std::string("einstein sum subscripts string includes output subscript '") + char(l) + "' multiple times");
            bool seen = false;
            for (auto& ls : labels) seen |= std::count(ls.begin(), ls.end(), l) > 0;
            if (!seen)
                raise(types::ValueError, std::string("einstein sum subscripts string included output subscript '") + char(l) +
                                             "' which never appeared in an input");
            out.push_back(l);
        }
        if (nell > 0 && std::count(o.labels.begin(), o.labels.end(), -1) == 0)
            raise(types::ValueError, "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.");
    } else {
        // Implicit output: the ellipsis dims, then the letters used once, in character order.
        for (int j = 0; j < nell; ++j) out.push_back(kEllipsisLabel + j);
        std::map<int, int> count;
        for (auto& t : terms)
            for (int l : t.labels)
                if (l >= 0) ++count[l];
        for (auto& [l, c] : count)
            if (c == 1) out.push_back(l);
    }
    DType t = DType::Bool;
    if (dt) t = *dt;
    else {
        for (size_t k = 0; k < ops.size(); ++k) t = k == 0 ? ops[k].as<ArrayObj>()->dtype : promote_types(t, ops[k].as<ArrayObj>()->dtype);
    }
    // complex: the fused kernel path of contract()
    Value r = contract(in, ops, labels, out, t);
    if (const Value* o = checked_out(kwarg(a, "out"), OutWording::Einsum)) {
        assign_array(in, *o, r);
        return *o;
    }
    return r;
}

}  // namespace

void add_einsum_function(ModuleObj* m) {
    m->set("einsum", make_builtin("einsum", np_einsum, "einsum(subscripts, *operands, out=None, dtype=None, order='K', casting='safe', optimize=False)",
                                  "Evaluates the Einstein summation convention on the operands."));
}

}  // namespace gpy
