// Scans (cumsum, cumprod, nancumsum, nancumprod, ufunc.accumulate) and the
// differences built on views (diff, ediff1d).
//
// A scan is a host loop, not a kernel: the input (with its NaN replacement
// and cast to the accumulator dtype fused in) is first computed by one kernel
// into a fresh C-contiguous buffer, then scanned in place by a loop
// specialised per dtype and operation (templates: no per-element switch).
// Independent rows run in parallel; a few long rows are split into chunks
// (scan each chunk, then combine each chunk with the running total of the
// chunks before it). Floats accumulate in the result dtype, in order, as
// NumPy does: results match NumPy bit for bit unless a row is chunked.
#include <algorithm>
#include <type_traits>

#include "runtime/backend.h"
#include "numpy/promote.h"
#include "runtime/thread_pool.h"
#include "numpy/array.h"
#include "numpy/dtype_dispatch.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/scan.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

namespace {

// Rows below this length are never split (they also match NumPy's rounding exactly).
constexpr int64_t kChunkMinLen = int64_t(1) << 15;
constexpr int64_t kWorkPerTask = int64_t(1) << 15;  // elements per parallel task

// In-place scan of the n elements p[0], p[stride], ...
template <ScanOp OP, class T>
void scan_run(T* p, int64_t n, int64_t stride) {
    T acc = p[0];
    for (int64_t i = 1; i < n; ++i) p[i * stride] = acc = scan_combine<OP, T>(acc, p[i * stride]);
}

// In-place scan of p viewed as [outer][len][inner] along the middle axis.
template <ScanOp OP, class T>
void scan_block(T* p, int64_t outer, int64_t len, int64_t inner) {
    if (len <= 1 || outer * inner == 0) return;
    int64_t rows = outer * inner;
    if (rows >= num_threads() || len < kChunkMinLen) {
        // Tasks are (outer index, block of inner columns): with inner > 1 the
        // column loop is contiguous and vectorises.
        int64_t block = std::min<int64_t>(inner, 1024);
        int64_t blocks = (inner + block - 1) / block;
        int64_t grain = std::max<int64_t>(1, kWorkPerTask / (len * block));
        parallel_for(outer * blocks, grain, [&](int64_t begin, int64_t end) {
            for (int64_t t = begin; t < end; ++t) {
                T* row = p + (t / blocks) * len * inner;
                if (inner == 1) {  // the running value stays in a register
                    scan_run<OP>(row, len, 1);
                    continue;
                }
                int64_t j0 = (t % blocks) * block, j1 = std::min(inner, j0 + block);
                for (int64_t i = 1; i < len; ++i) {
                    T* cur = row + i * inner;
                    const T* prev = cur - inner;
                    for (int64_t j = j0; j < j1; ++j) cur[j] = scan_combine<OP>(prev[j], cur[j]);
                }
            }
        });
        return;
    }
    // Few long rows: each is split into chunks scanned in parallel.
    int64_t chunks = std::min<int64_t>(int64_t(num_threads()) * 4, len / 4096);
    int64_t clen = (len + chunks - 1) / chunks;
    chunks = (len + clen - 1) / clen;
    std::vector<T> carry(static_cast<size_t>(chunks));  // (bool: a proxy vector, hence scan_combine<OP, T>)
    for (int64_t r = 0; r < rows; ++r) {
        T* row = p + (r / inner) * len * inner + r % inner;
        auto at = [&](int64_t i) -> T& { return row[i * inner]; };
        parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
            for (int64_t c = begin; c < end; ++c) scan_run<OP>(row + c * clen * inner, std::min(len, (c + 1) * clen) - c * clen, inner);
        });
        carry[0] = at(clen - 1);
        for (int64_t c = 1; c < chunks; ++c) carry[size_t(c)] = scan_combine<OP, T>(carry[size_t(c - 1)], at(std::min(len, (c + 1) * clen) - 1));
        parallel_for(chunks - 1, 1, [&](int64_t begin, int64_t end) {
            for (int64_t c = begin + 1; c < end + 1; ++c)
                for (int64_t i = c * clen; i < std::min(len, (c + 1) * clen); ++i) at(i) = scan_combine<OP, T>(carry[size_t(c - 1)], at(i));
        });
    }
}

template <class T>
void scan_typed(ScanOp op, T* p, int64_t outer, int64_t len, int64_t inner) {
    switch (op) {
        case ScanOp::Sum: return scan_block<ScanOp::Sum>(p, outer, len, inner);
        case ScanOp::Prod: return scan_block<ScanOp::Prod>(p, outer, len, inner);
        case ScanOp::Max: return scan_block<ScanOp::Max>(p, outer, len, inner);
        case ScanOp::Min: return scan_block<ScanOp::Min>(p, outer, len, inner);
    }
}

}  // namespace

Value flat_copy(ArrayObj* x, DType t) {
    Value c = compute_into_new(make_cast(array_node(x), t), t, x->shape);
    return array_from_buffer(c.as<ArrayObj>()->buffer, t, {x->size()}, {int64_t(itemsize(t))}, 0);
}

// The device scan's type for `t` (runtime/scan_cuda.h); false: the device
// does not scan it.
static bool device_scan_type(DType t, DeviceScanType& type) {
    switch (t) {
        case DType::Int32: type = DeviceScanType::Int32; return true;
        case DType::UInt32: type = DeviceScanType::UInt32; return true;
        case DType::Int64: type = DeviceScanType::Int64; return true;
        case DType::UInt64: type = DeviceScanType::UInt64; return true;
        case DType::Float32: type = DeviceScanType::Float; return true;
        case DType::Float64: type = DeviceScanType::Double; return true;
        default: return false;
    }
}

static DeviceScanOp device_scan_op(ScanOp op) {
    return op == ScanOp::Sum ? DeviceScanOp::Sum : op == ScanOp::Prod ? DeviceScanOp::Prod
         : op == ScanOp::Max ? DeviceScanOp::Max : DeviceScanOp::Min;
}

// A computed C-contiguous device array already of the accumulator's type
// scans straight into a new array (one read and one write: no copy first).
// Null: the caller copies and scans in place.
static Value scanned_from_source(ScanOp op, DType t, ArrayObj* x, int64_t outer, int64_t len, int64_t inner) {
    Backend* be = array_backend();
    DeviceScanType type;
    if (!be || x->pending() || x->dtype != t || !x->buffer || x->buffer->device != DeviceKind::CUDA || !x->c_contiguous() ||
        !device_scan_type(t, type) || x->size() == 0)
        return Value();
    Value r = new_array(t, x->shape);
    ArrayObj* ra = r.as<ArrayObj>();
    if (!be->scan(device_scan_op(op), type, x->buffer.device_read_bytes() + x->offset, ra->buffer.device_bytes(), outer, len, inner))
        return Value();
    return r;
}

// A device array of a type the device scans (runtime/scan_cuda.h) scans
// there, in place; false: the host scans it.
static bool scanned_on_device(ScanOp op, DType t, ArrayObj* r, int64_t outer, int64_t len, int64_t inner) {
    Backend* be = array_backend();
    if (!be || !r->buffer || r->buffer->device != DeviceKind::CUDA) return false;
    DeviceScanType type;
    if (!device_scan_type(t, type)) return false;
    uint8_t* data = r->buffer.device_bytes() + r->offset;
    return be->scan(device_scan_op(op), type, data, data, outer, len, inner);
}

Value scan(Interp& in, ScanOp op, const Value& x, const Value* axis, std::optional<DType> dtype, const Value* out,
           bool skip_nan) {
    Value arr = as_array_value(in, x);
    ArrayObj* a = arr.as<ArrayObj>();
    // NumPy scans a 0-d array as its flattened (1,) form, along axis 0 or -1.
    bool flat = !axis || axis->is_none() || a->ndim() == 0;
    int ax = axis && !axis->is_none() ? normalize_axis(to_index(*axis, "axis"), std::max(a->ndim(), 1)) : 0;
    DType acc = dtype ? *dtype
                : op == ScanOp::Sum ? reduce_dtype(ReduceOp::Sum, a->dtype, std::nullopt)
                : op == ScanOp::Prod ? reduce_dtype(ReduceOp::Prod, a->dtype, std::nullopt)
                                     : a->dtype;
    // Given out= (and no dtype=), NumPy resolves the loop from (out, input):
    // multiply.accumulate(uint64, out=float32) multiplies in float64.
    if (!dtype && out)
        if (ArrayObj* oa = as_array(*out)) acc = promote_types(oa->dtype, a->dtype);
    Value src = skip_nan ? replace_nan(in, arr, Value::integer(op == ScanOp::Prod ? 1 : 0)) : arr;
    Shape shape = a->shape;
    if (flat) {
        shape = {a->size()};
        ax = 0;
    }
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < ax; ++d) outer *= shape[size_t(d)];
    for (size_t d = size_t(ax) + 1; d < shape.size(); ++d) inner *= shape[d];
    int64_t len = shape.empty() ? 1 : shape[size_t(ax)];
    Value r = scanned_from_source(op, acc, src.as<ArrayObj>(), outer, len, inner);
    const bool scanned = !r.is_undef();
    if (!scanned) r = compute_into_new(make_cast(array_node(src.as<ArrayObj>()), acc), acc, a->shape);
    if (flat) {
        ArrayObj* ra = r.as<ArrayObj>();
        r = array_from_buffer(ra->buffer, acc, shape, contiguous_strides(shape, itemsize(acc)), 0);
    }
    if (scanned || scanned_on_device(op, acc, r.as<ArrayObj>(), outer, len, inner)) {
        // queued on the device: nothing more here
    } else if (is_complex(acc)) {
        uint8_t* data = r.as<ArrayObj>()->buffer.bytes();
        if (op != ScanOp::Sum && op != ScanOp::Prod)
            raise(types::NotImplementedError, "maximum/minimum accumulate of complex arrays is not supported yet");
        auto run = [&](auto* p) {
            if (op == ScanOp::Sum) scan_block<ScanOp::Sum>(p, outer, len, inner);
            else scan_block<ScanOp::Prod>(p, outer, len, inner);
        };
        if (acc == DType::Complex64) run(reinterpret_cast<ScanComplex<float>*>(data));
        else run(reinterpret_cast<ScanComplex<double>*>(data));
    } else {
        uint8_t* data = r.as<ArrayObj>()->buffer.bytes();
        with_real_ctype(acc, "cumulative operation", [&](auto t) {
            using T = decltype(t);
            scan_typed<T>(op, reinterpret_cast<T*>(data), outer, len, inner);
        });
    }
    if (out) {
        const Shape& os = as_array(*out)->shape;
        const Shape& rs = as_array(r)->shape;
        if (as_array(*out)->size() != as_array(r)->size() || (os.size() != rs.size() && os.size() != 1))
            raise(types::ValueError, "provided out is the wrong size for the accumulation.");
        if (os != rs) raise(types::ValueError, "operands could not be broadcast together with remapped shapes [original->remapped]: " +
                                                   shape_text(os) + "->" + shape_text(os) + " " + shape_text(rs) + "->" + shape_text(rs) + " ");
        assign_array(in, *out, r);
        return *out;
    }
    return r;
}

namespace {

// ---- cumsum, cumprod and their nan- variants: functions and methods ----

// (a, axis=None, dtype=None, out=None), a being self for the methods.
template <ScanOp OP, bool SKIP_NAN>
Value cumulative(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "missing required argument 'a' (pos 0)");
    return scan(in, OP, a.pos[0], arg(a, 1, "axis"), dtype_arg(in, a, 2), out_arg(a, 3, OutWording::CApi), SKIP_NAN);
}

// ---- diff, ediff1d ----

// x[lo:hi] along `axis` as a view (x materialised).
Value slice_axis(ArrayObj* x, int axis, int64_t lo, int64_t hi) {
    Shape shape = x->shape;
    shape[size_t(axis)] = hi - lo;
    return array_from_buffer(x->buffer, x->dtype, shape, x->strides, x->offset + lo * x->strides[size_t(axis)]);
}

// np.concatenate of arrays that must agree except along `axis` (NumPy's
// ValueErrors otherwise), in the promoted dtype.
Value concat_axis(Interp& in, const std::vector<Value>& parts, int axis) {
    std::vector<Operand> ops;
    Shape shape = parts[0].as<ArrayObj>()->shape;
    shape[size_t(axis)] = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
        const ArrayObj* p = parts[k].as<ArrayObj>();
        if (p->ndim() != int(shape.size()))
            raise(types::ValueError, "all the input arrays must have same number of dimensions, but the array at index 0 has " +
                                         std::to_string(shape.size()) + " dimension(s) and the array at index " + std::to_string(k) + " has " +
                                         std::to_string(p->ndim()) + " dimension(s)");
        for (size_t d = 0; d < shape.size(); ++d)
            if (int(d) != axis && p->shape[d] != parts[0].as<ArrayObj>()->shape[d])
                raise(types::ValueError, "all the input array dimensions except for the concatenation axis must match exactly, but along dimension " +
                                             std::to_string(d) + ", the array at index 0 has size " + std::to_string(parts[0].as<ArrayObj>()->shape[d]) +
                                             " and the array at index " + std::to_string(k) + " has size " + std::to_string(p->shape[d]));
        ops.push_back(Operand::array(p->dtype));
        shape[size_t(axis)] = size_add(shape[size_t(axis)], p->shape[size_t(axis)]);
    }
    Value r = new_array(result_type(ops), shape);
    ArrayObj* ra = r.as<ArrayObj>();
    int64_t at = 0;
    for (auto& p : parts) {
        int64_t n = p.as<ArrayObj>()->shape[size_t(axis)];
        if (n) assign_array(in, slice_axis(ra, axis, at, at + n), p);
        at += n;
    }
    return r;
}

// prepend=/append= of diff: an array broadcast to x's shape with length 1
// along the axis when it is 0-d, else taken as is.
Value diff_edge(Interp& in, const Value& v, const ArrayObj* x, int axis) {
    Value e = as_array_value(in, v);
    ArrayObj* ea = e.as<ArrayObj>();
    if (ea->ndim() != 0) return e;
    Shape shape = x->shape;
    shape[size_t(axis)] = 1;
    return compute_into_new(array_node(ea), ea->dtype, shape);
}

Value np_diff(Interp& in, CallArgs& a) {
    if (a.npos < 1) raise(types::TypeError, "diff() missing required argument 'a' (pos 0)");
    const Value* nv = arg(a, 1, "n");
    int64_t n = nv ? to_index(*nv) : 1;
    if (n == 0) return a.pos[0];
    if (n < 0) raise(types::ValueError, "order must be non-negative but got " + std::to_string(n));
    Value x = as_array_value(in, a.pos[0]);
    ArrayObj* xa = x.as<ArrayObj>();
    if (xa->ndim() == 0) raise(types::ValueError, "diff requires input that is at least one dimensional");
    const Value* axv = arg(a, 2, "axis");
    int axis = normalize_axis(axv ? to_index(*axv) : -1, xa->ndim());
    const Value* pre = arg(a, 3, "prepend");
    const Value* app = arg(a, 4, "append");
    if (pre || app) {
        std::vector<Value> parts;
        if (pre) parts.push_back(diff_edge(in, *pre, xa, axis));
        parts.push_back(x);
        if (app) parts.push_back(diff_edge(in, *app, xa, axis));
        x = concat_axis(in, parts, axis);
    }
    // NumPy subtracts, except for bools, where a difference is `!=`.
    const Ufunc op = x.as<ArrayObj>()->dtype == DType::Bool ? Ufunc::not_equal : Ufunc::subtract;
    for (int64_t k = 0; k < n; ++k) {
        ArrayObj* cur = x.as<ArrayObj>();
        materialize(cur);
        int64_t len = cur->shape[size_t(axis)];
        if (len == 0) break;
        x = apply_ufunc(in, op, {slice_axis(cur, axis, 1, len), slice_axis(cur, axis, 0, len - 1)});
    }
    return x;
}

// to_begin/to_end of ediff1d: flattened, and castable to ary's dtype.
Value ediff_edge(Interp& in, const Value& v, DType t, const char* name) {
    Value e = as_array_value(in, v);
    ArrayObj* ea = e.as<ArrayObj>();
    if (!can_cast(ea->dtype, t, Casting::SameKind))
        raise(types::TypeError, std::string("dtype of `") + name + "` must be compatible with input `ary` under the `same_kind` rule.");
    return flat_copy(ea, t);
}

Value np_ediff1d(Interp& in, CallArgs& a) {
    const Value* ary = arg(a, 0, "ary");
    if (!ary) raise(types::TypeError, "ediff1d() missing required argument 'ary' (pos 0)");
    Value x = as_array_value(in, *ary);
    ArrayObj* xa = x.as<ArrayObj>();
    DType t = xa->dtype;
    Value flat = flat_copy(xa, t);
    ArrayObj* fa = flat.as<ArrayObj>();
    int64_t n = fa->size();
    Value d = n > 1 ? apply_ufunc(in, Ufunc::subtract, {slice_axis(fa, 0, 1, n), slice_axis(fa, 0, 0, n - 1)})
                    : new_array(t, {0});
    std::vector<Value> parts;
    if (const Value* b = arg_not_none(a, 2, "to_begin")) parts.push_back(ediff_edge(in, *b, t, "to_begin"));
    parts.push_back(compute_into_new(make_cast(array_node(d.as<ArrayObj>()), t), t, d.as<ArrayObj>()->shape));
    if (const Value* e = arg_not_none(a, 1, "to_end")) parts.push_back(ediff_edge(in, *e, t, "to_end"));
    return parts.size() == 1 ? parts[0] : concat_axis(in, parts, 0);
}

}  // namespace

void add_scan_functions(Interp& in, ModuleObj* m) {
    const FunctionSpec fns[] = {
        {"cumsum", cumulative<ScanOp::Sum, false>, "cumsum(a, axis=None, dtype=None, out=None)", "Return the cumulative sum of the elements along a given axis."},
        {"cumprod", cumulative<ScanOp::Prod, false>, "cumprod(a, axis=None, dtype=None, out=None)", "Return the cumulative product of elements along a given axis."},
        {"nancumsum", cumulative<ScanOp::Sum, true>, "nancumsum(a, axis=None, dtype=None, out=None)", "Cumulative sum treating NaNs as zero."},
        {"nancumprod", cumulative<ScanOp::Prod, true>, "nancumprod(a, axis=None, dtype=None, out=None)", "Cumulative product treating NaNs as one."},
        {"diff", np_diff, "diff(a, n=1, axis=-1, prepend=<no value>, append=<no value>)", "Calculate the n-th discrete difference along the given axis."},
        {"ediff1d", np_ediff1d, "ediff1d(ary, to_end=None, to_begin=None)", "The differences between consecutive elements of an array."},
    };
    add_functions(m, fns);
    add_nan_reduce_functions(in, m);
    add_statistics_functions(in, m);
}

void install_scan_methods() {
    def_method(types::ndarray, "cumsum", cumulative<ScanOp::Sum, false>, "ndarray.cumsum(axis=None, dtype=None, out=None)", "Return the cumulative sum of the elements along the given axis.");
    def_method(types::ndarray, "cumprod", cumulative<ScanOp::Prod, false>, "ndarray.cumprod(axis=None, dtype=None, out=None)", "Return the cumulative product of the elements along the given axis.");
    install_ufunc_type();
}

}  // namespace gpy
