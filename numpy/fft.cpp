// np.fft's one native function, numpy.fft._raw(a, n, axis, kind, fct,
// dtype): one-dimensional transforms of every line of `a` along `axis`,
// cropped or zero-padded to n points, scaled by fct, as `dtype`. The
// functions users call (fft, rfftn, fftfreq, ...) are numpy/py/fft.py, which
// follows NumPy's own layering. Every transform runs in double precision
// (runtime/fft_core.h on the host, cuFFT on a CUDA device) and is rounded to
// the result dtype at the end: NumPy 2's float32 transforms equal its
// float64 ones rounded, so this gives its complex64 results too.
#include <list>
#include <memory>
#include <mutex>

#include "runtime/backend.h"
#include "runtime/fft_core.h"
#include "runtime/thread_pool.h"
#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

namespace {

using cdouble = std::complex<double>;

enum class Kind { Forward = 0, Backward = 1, RealForward = 2, RealBackward = 3 };

// Plans by length, most recently used first. Plans are immutable, so one
// cache serves every interpreter (like the compiled-kernel cache).
std::shared_ptr<const fft::Plan<double>> plan_for(int64_t n) {
    static std::mutex lock;
    static std::list<std::shared_ptr<const fft::Plan<double>>> recent;
    constexpr size_t kKeep = 16;
    {
        std::lock_guard<std::mutex> g(lock);
        for (auto it = recent.begin(); it != recent.end(); ++it)
            if ((*it)->size() == n) {
                recent.splice(recent.begin(), recent, it);
                return recent.front();
            }
    }
    auto p = std::make_shared<const fft::Plan<double>>(n);  // built outside the lock: it can take a while
    std::lock_guard<std::mutex> g(lock);
    recent.push_front(p);
    if (recent.size() > kKeep) recent.pop_back();
    return p;
}

// The element offsets (in elements) of the first entry of every line along
// `axis` of a C-contiguous array of `shape`, and the stride along it.
std::vector<int64_t> line_starts(const dag::Shape& shape, int axis, int64_t& stride) {
    stride = 1;
    for (size_t d = size_t(axis) + 1; d < shape.size(); ++d) stride *= shape[d];
    int64_t outer = 1;
    for (int d = 0; d < axis; ++d) outer *= shape[size_t(d)];
    int64_t len = shape.empty() ? 1 : shape[size_t(axis)];
    std::vector<int64_t> starts;
    starts.reserve(size_t(outer * stride));
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < stride; ++i) starts.push_back(o * len * stride + i);
    return starts;
}

// The transform on the device's FFT library (cuFFT): the input with `axis`
// last, cropped or zero-padded to the points each line reads, in one
// contiguous float64/complex128 array; then scaled, the axis moved back
// and cast in kernels. Undef when the backend has no FFT library.
Value fft_on_device(Interp& in, Backend* dev, ArrayObj* x, int64_t n, int axis, Kind kind, double fct, DType out_dt) {
    bool real_in = kind == Kind::RealForward, real_out = kind == Kind::RealBackward;
    int64_t n_in = real_out ? n / 2 + 1 : n, n_out = real_in ? n / 2 + 1 : n;
    DType in_dt = real_in ? DType::Float64 : DType::Complex128, work_dt = real_out ? DType::Float64 : DType::Complex128;
    int last = x->ndim() - 1;
    Value moved = moveaxis_view(x, axis, last);
    ArrayObj* m = as_array(moved);
    int64_t len = m->shape.back();
    dag::Shape in_shape = m->shape;
    in_shape.back() = n_in;
    Value src;
    if (len == n_in && m->dtype == in_dt && kind != Kind::RealBackward && is_c_contiguous(m)) {
        src = moved;  // read in place (c2r would overwrite its input: it always gets a copy)
    } else if (len >= n_in) {
        Value crop = slice_axis(m, last, 0, n_in);
        src = compute_into_new(dag::make_cast(array_node(as_array(crop)), in_dt), in_dt, in_shape);
    } else {
        src = new_array(in_dt, in_shape, true);
        assign_array(in, slice_axis(as_array(src), last, 0, len), moved);
    }
    dag::Shape out_shape = in_shape;
    out_shape.back() = n_out;
    Value out = new_array(work_dt, out_shape);
    ArrayObj* sa = as_array(src);
    ArrayObj* oa = as_array(out);
    materialize(sa);
    int64_t batch = n_in > 0 ? sa->size() / n_in : 0;
    try {
        if (!dev->fft(int(kind), n, batch, sa->buffer.device_bytes() + sa->offset, oa->buffer.device_bytes() + oa->offset))
            return Value();
    } catch (const std::runtime_error& e) {
        raise(types::RuntimeError, e.what());
    }
    if (fct == 1.0 && axis == last && out_dt == work_dt) return out;
    Value r = out;
    if (fct != 1.0) r = apply_ufunc(in, Ufunc::multiply, {r, Value::real(fct)});
    ArrayObj* ra = as_array(r);
    materialize(ra);
    Value back = moveaxis_view(ra, last, axis);
    return compute_into_new(dag::make_cast(array_node(as_array(back)), out_dt), out_dt, as_array(back)->shape);
}

// _raw(a, n, axis, kind, fct, dtype)
Value fft_raw(Interp& in, CallArgs& a) {
    expect_args(a, "_raw", 6, 6);
    Value av = as_array_value(in, a[0]);
    ArrayObj* x = as_array(av);
    int64_t n = to_index(a[1], "n");
    if (n < 1) raise(types::ValueError, "Invalid number of FFT data points (" + std::to_string(n) + ") specified.");
    int axis = normalize_axis(to_index(a[2], "axis"), x->ndim());
    auto kind = Kind(to_index(a[3], "kind"));
    double fct = to_double(a[4], "fct");
    DType out_dt = *maybe_dtype(in, a[5]);

    if (Backend* dev = array_backend(); dev && dev->kind() == DeviceKind::CUDA && x->size() > 0)
        if (Value r = fft_on_device(in, dev, x, n, axis, kind, fct, out_dt); !r.is_undef()) return r;
    bool real_in = kind == Kind::RealForward;
    bool real_out = kind == Kind::RealBackward;
    int64_t n_in = kind == Kind::RealBackward ? n / 2 + 1 : n;  // points each transform reads
    int64_t n_out = kind == Kind::RealForward ? n / 2 + 1 : n;
    DType in_dt = real_in ? DType::Float64 : DType::Complex128;

    // The input as a C-contiguous float64/complex128 array.
    dag::NodeP node = array_node(x);
    if (x->dtype != in_dt) node = dag::make_cast(node, in_dt);
    Value src = compute_into_new(node, in_dt, x->shape);
    const uint8_t* src_bytes = as_array(src)->buffer.bytes() + as_array(src)->offset;

    dag::Shape out_shape = x->shape;
    out_shape[size_t(axis)] = n_out;
    DType work_dt = real_out ? DType::Float64 : DType::Complex128;
    Value out = new_array(work_dt, out_shape);
    uint8_t* out_bytes = as_array(out)->buffer.bytes() + as_array(out)->offset;

    int64_t len = x->shape[size_t(axis)], in_stride, out_stride;
    std::vector<int64_t> in_starts = line_starts(x->shape, axis, in_stride);
    std::vector<int64_t> out_starts = line_starts(out_shape, axis, out_stride);
    int64_t lines = int64_t(in_starts.size());
    if (lines == 0 || as_array(out)->size() == 0)  // nothing to transform: no plan (n may be huge)
        return out_dt == work_dt ? out : compute_into_new(dag::make_cast(array_node(as_array(out)), out_dt), out_dt, out_shape);
    auto plan = plan_for(n);
    int64_t take = std::min(len, n_in);
    int64_t grain = std::max<int64_t>(1, (1 << 16) / std::max<int64_t>(n, 1));
    parallel_for(lines, grain, [&](int64_t b, int64_t e) {
        // Uninitialised scratch (every entry is written before it is read):
        // zeroing a million-point line would cost as much as transforming it.
        auto cbuf = std::make_unique_for_overwrite<cdouble[]>(size_t(real_in ? n_out : n_in));
        auto rbuf = std::make_unique_for_overwrite<double[]>(size_t(real_in || real_out ? n : 0));
        for (int64_t l = b; l < e; ++l) {
            int64_t is = in_starts[size_t(l)], os = out_starts[size_t(l)];
            if (real_in) {
                auto* s = reinterpret_cast<const double*>(src_bytes);
                for (int64_t j = 0; j < n; ++j) rbuf[size_t(j)] = j < take ? s[is + j * in_stride] : 0.0;
                plan->r2c(rbuf.get(), cbuf.get(), fct);
            } else {
                auto* s = reinterpret_cast<const cdouble*>(src_bytes);
                for (int64_t j = 0; j < n_in; ++j) cbuf[size_t(j)] = j < take ? s[is + j * in_stride] : cdouble(0.0, 0.0);
                if (real_out) plan->c2r(cbuf.get(), rbuf.get(), fct);
                else plan->c2c(cbuf.get(), cbuf.get(), kind == Kind::Backward, fct);  // in place
            }
            if (real_out) {
                auto* o = reinterpret_cast<double*>(out_bytes);
                for (int64_t j = 0; j < n_out; ++j) o[os + j * out_stride] = rbuf[size_t(j)];
            } else {
                auto* o = reinterpret_cast<cdouble*>(out_bytes);
                for (int64_t j = 0; j < n_out; ++j) o[os + j * out_stride] = cbuf[size_t(j)];
            }
        }
    });
    if (out_dt == work_dt) return out;
    return compute_into_new(dag::make_cast(array_node(as_array(out)), out_dt), out_dt, out_shape);
}

}  // namespace

void add_fft_module(Interp&, ModuleObj* m) {
    auto* f = new ModuleObj("numpy.fft");
    f->doc = "Discrete Fourier transforms (mixed radix and Bluestein in double precision).";
    f->set("_raw", make_builtin("_raw", fft_raw, "_raw(a, n, axis, kind, fct, dtype)",
                                "Transforms of every line along axis (kind: 0 fft, 1 ifft, 2 rfft, 3 irfft)."));
    m->set("fft", Value::object(f));
}

}  // namespace gpy
