// Order statistics (median, nanmedian, percentile, quantile) and average.
//
// Order statistics are host loops: one kernel copies the input into a fresh
// buffer with the reduced axes last (so each output element owns one
// contiguous row), then rows are partitioned or sorted in parallel (on a
// CUDA device, sorted there) and interpolated with NumPy's formulas, typed
// per dtype by templates.
#include <memory>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime/backend.h"
#include "numpy/promote.h"
#include "numpy/sort_keys.h"  // device_element_type
#include "runtime/thread_pool.h"
#include "numpy/array.h"
#include "numpy/dtype_dispatch.h"
#include "numpy/np_args.h"
#include "numpy/reduce.h"
#include "numpy/scan.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

namespace {

template <class T>
bool is_nan(T v) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, _Float16>) return v != v;
    else return false;
}

// NumPy's sort order: NaN after everything.
template <class T>
bool nan_last_less(T a, T b) {
    return a < b || (!is_nan(a) && is_nan(b));
}

// The input's rows: the reduced axes moved last and merged, in a fresh
// contiguous buffer of the input's dtype (or, `shared`, the input itself:
// only to be read).
struct Rows {
    Value data;
    bool shared = false;
    int64_t rows = 1, len = 1;
    Shape kept;       // result shape without keepdims
    Shape kept_dims;  // result shape with keepdims (reduced axes of size 1)
};

Rows gather_rows(Interp& in, const Value& x, const Value* axis, bool may_share = false) {
    ArrayObj* a = x.as<ArrayObj>();
    materialize(a);
    std::vector<int> axes = parse_axes(in, axis, a->ndim());
    Rows r;
    Shape shape;
    std::vector<int64_t> strides;
    for (int pass = 0; pass < 2; ++pass)
        for (int d = 0; d < a->ndim(); ++d) {
            bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
            if (reduced != (pass == 1)) continue;
            shape.push_back(a->shape[size_t(d)]);
            strides.push_back(a->strides[size_t(d)]);
            if (reduced) r.len *= a->shape[size_t(d)];
            else r.kept.push_back(a->shape[size_t(d)]);
        }
    for (int d = 0; d < a->ndim(); ++d)
        r.kept_dims.push_back(std::find(axes.begin(), axes.end(), d) != axes.end() ? 1 : a->shape[size_t(d)]);
    for (int64_t d : r.kept) r.rows *= d;
    // Rows already laid out so (a C-contiguous input reduced over its last
    // axes) are read in place when the caller only reads them.
    bool trailing = true;
    for (int d = 0; d < a->ndim(); ++d)
        trailing &= (std::find(axes.begin(), axes.end(), d) != axes.end()) == (d >= a->ndim() - int(axes.size()));
    if (may_share && trailing && a->c_contiguous()) {
        r.data = x;
        r.shared = true;
        return r;
    }
    Value view = array_from_buffer(a->buffer, a->dtype, shape, strides, a->offset);
    r.data = compute_into_new(array_node(view.as<ArrayObj>()), a->dtype, shape);
    return r;
}

// Moves NaNs to the end of [p, p+n); returns how many values are not NaN.
template <class T>
int64_t drop_nans(T* p, int64_t n) {
    return std::partition(p, p + n, [](T v) { return !is_nan(v); }) - p;
}

// MaskedMedian: np.ma.median's arithmetic, what NumPy's nanmedian uses for
// the slices of a >1-d array shorter than 600 (its _nanmedian_small).
enum class Method { Linear, Lower, Higher, Nearest, Midpoint, Median, MaskedMedian };

// NumPy's _lerp: a + (b-a)*t, or b - (b-a)*(1-t) from t >= 0.5 on, each
// operation rounded to R (b - a is computed in the input type T, as NumPy does).
template <class T, class R>
R lerp(T a, T b, double t) {
    T d;
    if constexpr (std::is_integral_v<T>) d = T(uint64_t(b) - uint64_t(a));
    else d = T(b - a);
    R dr = R(d);
    if (t >= 0.5) {
        R w = R(1 - t);
        R prod = dr * w;
        return R(R(b) - prod);
    }
    R w = R(t);
    R prod = dr * w;
    return R(R(a) + prod);
}

// The statistic of one row v[0..n) (n > 0, no NaN), partitioned here as it
// needs, or, when `sorted`, read through at(k) (v[k], or an element read
// from device memory: v is then unused).
template <class T, class R, class At>
R row_value(T* v, int64_t n, double q, Method m, bool sorted, const At& at) {
    if (m == Method::Median) {
        // NumPy takes the mean of the middle one or two: float16 in float32,
        // ints in float64, the sum starting from 0 (so a -0.0 median is 0.0).
        using A = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, _Float16>, float, double>;
        int64_t h = n / 2;
        if (!sorted) std::nth_element(v, v + h, v + n, nan_last_less<T>);
        if (n % 2) return R(A(0) + A(sorted ? at(h) : v[h]));
        T lo = sorted ? at(h - 1) : *std::max_element(v, v + h, nan_last_less<T>);
        A s = A(0) + A(lo) + A(sorted ? at(h) : v[h]);
        return R(s / A(2));
    }
    if (m == Method::MaskedMedian) {
        // The two middle values (the middle one twice when n is odd) summed
        // in the dtype (float16 through float32, then rounded), then halved
        // in it: a float16 middle of 65504 is inf, as in NumPy.
        using A = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, _Float16>, float, double>;
        int64_t h = n / 2;
        if (!sorted) std::nth_element(v, v + h, v + n, nan_last_less<T>);
        T hi = sorted ? at(h) : v[h], lo = n % 2 ? hi : sorted ? at(h - 1) : *std::max_element(v, v + h, nan_last_less<T>);
        T s = T(A(0) + A(lo) + A(hi));
        return R(T(A(s) / A(2)));
    }
    double virt = q * double(n - 1);
    auto kth = [&](int64_t k) {
        if (sorted) return at(k);
        std::nth_element(v, v + k, v + n, nan_last_less<T>);
        return v[k];
    };
    switch (m) {
        case Method::Lower: return R(kth(int64_t(std::floor(virt))));
        case Method::Higher: return R(kth(int64_t(std::ceil(virt))));
        case Method::Nearest: return R(kth(int64_t(std::nearbyint(virt))));  // half to even, as np.around
        default: break;
    }
    // NumPy's _get_indexes: past the last index both neighbours are the last
    // element (and gamma is measured from index -1).
    int64_t prev = int64_t(std::floor(virt)), next = prev + 1;
    double gamma = virt - double(prev);
    if (virt >= double(n - 1)) {
        prev = next = n - 1;
        gamma = virt + 1;
    } else if (virt < 0) {
        prev = next = 0;
    }
    if (m == Method::Midpoint) gamma = gamma == 0 ? 0 : 0.5;
    T a = kth(prev);
    // After partitioning at prev, the next value is the least of those after it.
    T b = next == prev ? a : sorted ? at(next) : *std::min_element(v + next, v + n, nan_last_less<T>);
    return lerp<T, R>(a, b, gamma);
}

// f(R{}) for the result type rt of a statistic over T data: T itself (the
// exact methods) or a float type. Dispatching on these four instead of every
// real dtype keeps this file's instantiations (and its compile, 350 s of
// CI's sanitized build with the full 12 x 12) down to the types that occur.
template <class T, class F>
void with_result_ctype(DType t, DType rt, F&& f) {
    if (rt == t) return f(T{});
    switch (rt) {
        case DType::Float16: return f(_Float16{});
        case DType::Float32: return f(float{});
        case DType::Float64: return f(double{});
        default: raise(types::TypeError, std::string("quantile result of dtype ") + name(rt) + " is not supported");
    }
}

// Sorts r's rows in place on the device when they live there (real dtypes
// but float16, 4096 elements up, fewer than 2^32). False: left as they are.
bool sort_rows_on_device(const Rows& r, DType t) {
    Backend* be = array_backend();
    ArrayObj* d = r.data.as<ArrayObj>();
    DeviceSearchType type;
    if (!be || !d->buffer || d->buffer->device != DeviceKind::CUDA || !device_element_type(t, &type) || r.rows * r.len < 4096 ||
        uint64_t(r.rows * r.len) >= (uint64_t(1) << 32) || r.len == 0)
        return false;
    void* p = d->buffer.device_bytes() + d->offset;
    return be->sort(type, p, r.rows, r.len, p, nullptr);
}

struct QuantileArgs {
    const Value* axis = nullptr;
    std::vector<double> q;  // fractions in [0, 1]
    Shape q_shape;
    bool q_scalar = true;  // a Python int/float: NumPy's weak result type
    bool q_integer = false;  // quantile with integer q: NumPy takes the elements (arr's dtype)
    DType q_dtype = DType::Float64;  // q's dtype as NumPy interpolates with it (when not q_scalar)
    Method method = Method::Linear;
    bool skip_nan = false;
    bool keepdims = false;
    const Value* out = nullptr;
};

// The ranks (within a row of len) of the elements the statistics read, in
// the order the host reads them: the row's last element (NaN when the row
// holds one), then row_value's reads for each q.
template <class T, class R>
std::vector<int64_t> wanted_ranks(int64_t len, const std::vector<double>& qs, Method method) {
    std::vector<int64_t> want{len - 1};
    auto record = [&](int64_t k) {
        want.push_back(k);
        return T(0);
    };
    for (double q : qs) (void)row_value<T, R>(nullptr, len, q, method, true, record);
    return want;
}

// The elements of device-sorted rows (no NaN skipping) that the statistics
// read (wanted_ranks of each row), gathered on the device.
template <class T, class R>
std::unique_ptr<T[]> sorted_row_elements(const Rows& r, const std::vector<double>& qs, Method method) {
    std::vector<int64_t> want;
    const std::vector<int64_t> ranks = wanted_ranks<T, R>(r.len, qs, method);
    for (int64_t i = 0; i < r.rows; ++i)
        for (int64_t k : ranks) want.push_back(i * r.len + k);
    const int64_t count = int64_t(want.size());
    Value idx = new_array(DType::Int64, {count});
    std::memcpy(idx.as<ArrayObj>()->buffer.bytes(), want.data(), want.size() * sizeof(int64_t));
    Value picked = new_array(r.data.as<ArrayObj>()->dtype, {count});
    ArrayObj* d = r.data.as<ArrayObj>();
    int64_t first_bad = count;
    bool ok = array_backend()->gather(reinterpret_cast<const int64_t*>(idx.as<ArrayObj>()->buffer.device_read_bytes()), count,
                                      reinterpret_cast<const char*>(d->buffer.device_read_bytes() + d->offset), r.rows * r.len,
                                      int64_t(sizeof(T)), sizeof(T), reinterpret_cast<char*>(picked.as<ArrayObj>()->buffer.device_bytes()),
                                      &first_bad);
    auto got = std::make_unique<T[]>(want.size());
    const uint8_t* p = ok ? picked.as<ArrayObj>()->buffer.host_read_bytes() : nullptr;
    if (p) {
        std::memcpy(got.get(), p, want.size() * sizeof(T));
    } else {  // no device gather: read the rows
        const T* rows = reinterpret_cast<const T*>(d->buffer.host_read_bytes() + d->offset);
        for (size_t k = 0; k < want.size(); ++k) got[k] = rows[want[k]];
    }
    return got;
}

// As sorted_row_elements, for a few long rows on the device, without
// sorting them: each row's wanted elements found by a radix select
// (runtime/kth_cuda.h), a few passes over the row where the sort made
// eight. Null when the device cannot (or -0.0 meets a zero result: the
// select knows zeros only as +0.0, the sort keeps the element's own bits).
template <class T, class R>
std::unique_ptr<T[]> selected_row_elements(const Rows& r, DType t, const std::vector<double>& qs, Method method) {
    Backend* be = array_backend();
    ArrayObj* d = r.data.as<ArrayObj>();
    DeviceSearchType type;
    if (!be || !d->buffer || d->buffer->device != DeviceKind::CUDA || !device_element_type(t, &type) || r.rows > 8 || r.len < 65536 ||
        uint64_t(r.len) >= (uint64_t(1) << 32))
        return nullptr;
    const std::vector<int64_t> want = wanted_ranks<T, R>(r.len, qs, method);
    // want[0], the last element, only tells whether the row holds a NaN: the
    // select's flag says that.
    std::vector<int64_t> ranks(want.begin() + 1, want.end());  // distinct, each selected once
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    // Beyond two groups of ranks (12 a group for 32-bit keys, 6 for 64-bit
    // ones) the passes add up to a sort's cost.
    if (ranks.empty() || ranks.size() > (sizeof(T) == 8 ? 12 : 24)) return nullptr;
    auto got = std::make_unique<T[]>(want.size() * size_t(r.rows));
    auto values = std::make_unique<T[]>(ranks.size());  // (not vector<T>: T may be bool)
    for (int64_t i = 0; i < r.rows; ++i) {
        const void* row = d->buffer.device_read_bytes() + d->offset + size_t(i * r.len) * sizeof(T);
        bool negative_zero = false, nan = false;
        if (!be->kth(type, row, r.len, ranks.data(), int(ranks.size()), values.get(), &negative_zero, &nan)) return nullptr;
        if (negative_zero && std::any_of(values.get(), values.get() + ranks.size(), [](T v) { return v == T(0); })) return nullptr;
        T* row_got = got.get() + size_t(i) * want.size();
        row_got[0] = T(0);
        if constexpr (std::is_floating_point_v<T>)
            if (nan) row_got[0] = std::numeric_limits<T>::quiet_NaN();
        for (size_t k = 1; k < want.size(); ++k)
            row_got[k] = values[size_t(std::lower_bound(ranks.begin(), ranks.end(), want[k]) - ranks.begin())];
    }
    return got;
}

Value quantiles(Interp& in, const Value& x, const QuantileArgs& qa) {
    Value arr = as_array_value(in, x);
    DType t = arr.as<ArrayObj>()->dtype;
    bool exact = qa.method == Method::Lower || qa.method == Method::Higher || qa.method == Method::Nearest ||
                 (qa.method == Method::Linear && qa.q_integer);
    DType rt = exact ? t
               : qa.method == Method::Median ? (is_inexact(t) ? t : DType::Float64)
               // NumPy interpolates with gammas of q's dtype: a Python q is weak
               // (float16 data stay float16), np.float32(30) with uint8 data gives float32.
               : qa.q_scalar ? (is_inexact(t) ? t : DType::Float64)
               : promote_types(t == DType::Bool ? DType::Float64 : t, qa.q_dtype);
    if (t == DType::Bool && !exact && qa.method != Method::Median)
        raise(types::TypeError, "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.");
    // Integer q: NumPy takes the element at the (integral) virtual index
    // without interpolating, so quantile([-inf, -7], 0) is -inf, not
    // -inf + inf * 0 (NaN): the lower neighbour is that element.
    Method method = qa.method == Method::Linear && qa.q_integer ? Method::Lower : qa.method;
    // (Shared rows only on the device, where the select reads them in place.)
    ArrayObj* ao = arr.as<ArrayObj>();
    materialize(ao);  // (a lazy input has no buffer to test yet)
    Rows r = gather_rows(in, arr, qa.axis, !qa.skip_nan && ao->buffer && ao->buffer->device == DeviceKind::CUDA);
    // (A tuple axis covering every axis is NumPy's 1-d path: r.kept is empty.)
    if (method == Method::Median && qa.skip_nan && is_float(t) && arr.as<ArrayObj>()->ndim() > 1 && qa.axis && !qa.axis->is_none() &&
        r.len < 600 && !r.kept.empty())
        method = Method::MaskedMedian;
    if (r.len == 0 && qa.method != Method::Median)
        raise(types::IndexError, "index -1 is out of bounds for axis 0 with size 0");
    int64_t nq = int64_t(qa.q.size());
    Shape out_shape = qa.q_shape;
    for (int64_t d : qa.keepdims ? r.kept_dims : r.kept) out_shape.push_back(d);
    Value res = new_array(rt, out_shape);
    std::atomic<bool> row_had_nan{false};
    uint8_t* dst = res.as<ArrayObj>()->buffer.bytes();
    with_real_ctype(t, "quantile", [&](auto tv) {
        using T = decltype(tv);
        with_result_ctype<T>(t, rt, [&](auto rv) {
            using R = decltype(rv);
            R* out = reinterpret_cast<R*>(dst);
            // On the device, a few long rows have their elements selected
            // there; other rows are sorted there (NaNs last;
            // runtime/sort_cuda.h) and, when the statistics need few of
            // their elements, those are gathered there and only they come to
            // the host (sparse); otherwise the host reads the rows. The
            // host's own selection reorders its own copy.
            std::unique_ptr<T[]> got;
            if (!qa.skip_nan && r.len > 0) got = selected_row_elements<T, R>(r, t, qa.q, method);
            if (!got && r.shared) r = gather_rows(in, arr, qa.axis);  // a copy to sort or reorder
            const bool sorted = !got && sort_rows_on_device(r, t);
            if (sorted && !qa.skip_nan && r.rows * (2 * nq + 1) * 16 <= r.rows * r.len) got = sorted_row_elements<T, R>(r, qa.q, method);
            if (got) {
                size_t c = 0;
                auto next = [&](int64_t) { return got[c++]; };
                for (int64_t i = 0; i < r.rows; ++i) {
                    bool nan = is_nan(got[c++]);  // the row's last element: NaNs sort last
                    if (nan) row_had_nan = true;
                    for (int64_t k = 0; k < nq; ++k) {
                        R value = row_value<T, R>(nullptr, r.len, qa.q[size_t(k)], method, true, next);
                        out[k * r.rows + i] = nan ? R(NAN) : value;
                    }
                }
                return;
            }
            const BufferRef& rows_buf = r.data.as<ArrayObj>()->buffer;
            uint8_t* src = sorted ? const_cast<uint8_t*>(rows_buf.host_read_bytes()) : rows_buf.bytes();
            T* rows = reinterpret_cast<T*>(src);
            int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(r.len, 1));
            parallel_for(r.rows, grain, [&](int64_t begin, int64_t end) {
                for (int64_t i = begin; i < end; ++i) {
                    T* v = rows + i * r.len;
                    int64_t n = !qa.skip_nan ? r.len
                                : sorted ? std::partition_point(v, v + r.len, [](T e) { return !is_nan(e); }) - v
                                         : drop_nans(v, r.len);
                    // A NaN (or, skipping NaNs, no value at all) makes the result NaN.
                    bool nan = n == 0 || (!qa.skip_nan && (sorted ? is_nan(v[n - 1]) : std::any_of(v, v + n, [](T e) { return is_nan(e); })));
                    if (nan && n > 0 && !qa.skip_nan) row_had_nan = true;  // an empty slice is not one holding NaN
                    auto at = [v](int64_t j) { return v[j]; };
                    for (int64_t k = 0; k < nq; ++k)
                        out[k * r.rows + i] = nan ? R(NAN) : row_value<T, R>(v, n, qa.q[size_t(k)], method, sorted, at);
                }
            });
        });
    });
    // NumPy's _quantile: a 0-d result (no out=) of a slice holding NaN is
    // arr[-1], the NaN in the array's own dtype (float32 data and a float64
    // q give np.float32(nan)); keepdims reshapes that result afterwards.
    if (qa.q_shape.empty() && r.kept.empty() && !qa.out && row_had_nan && rt != t && is_float(t)) {
        res = new_array(t, out_shape);
        ScalarValue nanv = convert_scalar(Value::real(NAN), t);
        std::memcpy(res.as<ArrayObj>()->buffer.bytes(), nanv.raw, itemsize(t));
    }
    if (out_shape.empty()) set_numpy_scalar(res.as<ArrayObj>(), true);
    if (qa.out) {
        return store_reduction_out(in, *qa.out, res, "add", as_array(res)->shape, qa.keepdims);
    }
    return res;
}

Method parse_method(const Value* v) {
    if (!v) return Method::Linear;
    const std::string& s = str_of(*v, "method");
    if (s == "linear") return Method::Linear;
    if (s == "lower") return Method::Lower;
    if (s == "higher") return Method::Higher;
    if (s == "nearest") return Method::Nearest;
    if (s == "midpoint") return Method::Midpoint;
    raise(types::ValueError, "'" + s + "' is not a valid method. gpy supports 'linear', 'lower', 'higher', 'nearest' and 'midpoint'");
}

// percentile/quantile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False)
Value percentile_like(Interp& in, CallArgs& a, double scale, bool skip_nan, const char* range_error) {
    const Value* x = arg(a, 0, "a");
    const Value* qv = arg(a, 1, "q");
    if (!x || !qv) raise(types::TypeError, "missing required argument 'q' (pos 1)");
    QuantileArgs qa;
    qa.axis = arg(a, 2, "axis");
    qa.out = out_arg(a, 3, OutWording::Reduction);
    qa.method = parse_method(arg(a, 5, "method"));
    if (const Value* k = arg(a, 6, "keepdims")) qa.keepdims = truthy(*k);
    qa.skip_nan = skip_nan;
    qa.q_scalar = qv->is_int() || qv->is_float();
    Value q = as_array_value(in, *qv);
    ArrayObj* qarr = q.as<ArrayObj>();
    // Integer q (0 or 1) makes integer virtual indexes: NumPy's _quantile
    // then takes the elements instead of interpolating (percentile divides q
    // by 100 first, so never).
    qa.q_integer = scale == 1 && (is_integer(qarr->dtype) || qarr->dtype == DType::Bool);
    qa.q_dtype = is_float(qarr->dtype) ? qarr->dtype : DType::Float64;  // an integer q is divided into float64
    qa.q_shape = qarr->shape;
    if (skip_nan) {
        // NumPy's _nanquantile_unchecked returns nanmean(a, axis, out,
        // keepdims) for an empty a, whatever q (nanpercentile of a (2, 0)
        // array over axis 0 with three q is shape (0,), all NaN).
        Value xa = as_array_value(in, *x);
        if (xa.as<ArrayObj>()->size() == 0) {
            ReduceOptions mo;
            mo.axis = qa.axis;
            mo.keepdims = qa.keepdims;
            mo.out = qa.out;
            return mean(in, xa, mo);
        }
    }
    HostArrayView hv = host_view(as_array(compute_into_new(make_cast(array_node(qarr), DType::Float64), DType::Float64, qarr->shape)));
    for (int64_t k = 0; k < hv.size(); ++k) {
        double f = reinterpret_cast<const double*>(hv.data)[k] / scale;
        if (!(f >= 0 && f <= 1)) raise(types::ValueError, range_error);
        qa.q.push_back(f);
    }
    return quantiles(in, *x, qa);
}

Value np_percentile(Interp& in, CallArgs& a) { return percentile_like(in, a, 100, false, "Percentiles must be in the range [0, 100]"); }
Value np_quantile(Interp& in, CallArgs& a) { return percentile_like(in, a, 1, false, "Quantiles must be in the range [0, 1]"); }
Value np_nanpercentile(Interp& in, CallArgs& a) { return percentile_like(in, a, 100, true, "Percentiles must be in the range [0, 100]"); }
Value np_nanquantile(Interp& in, CallArgs& a) { return percentile_like(in, a, 1, true, "Quantiles must be in the range [0, 1]"); }

// median/nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False)
template <bool SKIP_NAN>
Value np_median(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "median() missing required argument 'a' (pos 0)");
    QuantileArgs qa;
    qa.axis = arg(a, 1, "axis");
    qa.out = out_arg(a, 2, OutWording::Reduction);
    if (const Value* k = arg(a, 4, "keepdims")) qa.keepdims = truthy(*k);
    qa.method = Method::Median;
    qa.skip_nan = SKIP_NAN;
    qa.q = {0.5};
    return quantiles(in, *x, qa);
}

// ---- average ----

// average(a, axis=None, weights=None, returned=False, *, keepdims=False)
Value np_average(Interp& in, CallArgs& a) {
    const Value* xv = arg(a, 0, "a");
    if (!xv) raise(types::TypeError, "average() missing required argument 'a' (pos 0)");
    Value x = as_array_value(in, *xv);
    ArrayObj* xa = x.as<ArrayObj>();
    const Value* axis = arg_not_none(a, 1, "axis");
    const Value* wv = arg_not_none(a, 2, "weights");
    const Value* rv = arg(a, 3, "returned");
    bool returned = rv && truthy(*rv);
    ReduceOptions o;
    o.axis = axis;
    if (const Value* k = kwarg(a, "keepdims")) o.keepdims = truthy(*k);
    Value avg, scl;
    if (!wv) {
        avg = mean(in, x, o);
        std::vector<int> axes = parse_axes(in, axis, xa->ndim());
        int64_t count = 1;
        for (int d : axes) count *= xa->shape[size_t(d)];
        // NumPy: the count in avg's dtype, a scalar (broadcast below when returned).
        DType at = avg.as<ArrayObj>()->dtype;
        scl = compute_into_new(make_scalar(at, convert_scalar(Value::real(double(count)), at)), at, {});
        set_numpy_scalar(scl.as<ArrayObj>(), true);
    } else {
        Value w = as_array_value(in, *wv);
        ArrayObj* wa = w.as<ArrayObj>();
        DType rt = is_inexact(xa->dtype) ? result_type({Operand::array(xa->dtype), Operand::array(wa->dtype)})
                                         : result_type({Operand::array(xa->dtype), Operand::array(wa->dtype), Operand::array(DType::Float64)});
        if (wa->shape != xa->shape) {
            if (!axis) raise(types::TypeError, "Axis must be specified when shapes of a and weights differ.");
            if (wa->ndim() != 1) raise(types::TypeError, "1D weights expected when shapes of a and weights differ.");
            if (!axis->is_intlike()) raise(types::TypeError, "gpy's average supports an integer axis with 1-D weights");
            int ax = normalize_axis(axis->as_int(), xa->ndim());
            if (wa->shape[0] != xa->shape[size_t(ax)]) raise(types::ValueError, "Shape of weights must be consistent with shape of a along specified axis.");
            // Weights along `ax`: shape (n, 1, ..., 1) to broadcast against a.
            materialize(wa);
            Shape shape(size_t(xa->ndim() - ax), 1);
            std::vector<int64_t> strides(shape.size(), 0);
            shape[0] = wa->shape[0];
            strides[0] = wa->strides[0];
            DType wdt = wa->dtype;  // wa dies with w's old value on the next line
            w = array_from_buffer(wa->buffer, wdt, shape, strides, wa->offset);
            wa = nullptr;
            w = compute_into_new(array_node(w.as<ArrayObj>()), wdt, xa->shape);
        }
        ReduceOptions so = o;
        so.dtype = rt;
        scl = reduce(in, ReduceOp::Sum, w, so);
        ReduceOptions any;
        if (truthy(reduce(in, ReduceOp::Any, apply_ufunc(in, Ufunc::equal, {scl, Value::integer(0)}), any)))
            raise(types::ZeroDivisionError, "Weights sum to zero, can't be normalized");
        UfuncOptions uo;
        uo.dtype = rt;
        avg = apply_ufunc(in, Ufunc::true_divide, {reduce(in, ReduceOp::Sum, apply_ufunc(in, Ufunc::multiply, {x, w}, uo), so), scl});
    }
    if (!returned) return avg;
    ArrayObj* aa = avg.as<ArrayObj>();
    ArrayObj* sa = scl.as<ArrayObj>();
    if (sa->shape != aa->shape) scl = compute_into_new(array_node(sa), sa->dtype, aa->shape);
    return make_tuple({avg, scl});
}

}  // namespace

void add_statistics_functions(Interp&, ModuleObj* m) {
    const FunctionSpec fns[] = {
        {"median", np_median<false>, "median(a, axis=None, out=None, overwrite_input=False, keepdims=False)", "Compute the median along the specified axis."},
        {"nanmedian", np_median<true>, "nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False)", "Compute the median along the specified axis, ignoring NaNs."},
        {"percentile", np_percentile, "percentile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False)", "Compute the q-th percentile of the data along the specified axis."},
        {"quantile", np_quantile, "quantile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False)", "Compute the q-th quantile of the data along the specified axis."},
        {"nanpercentile", np_nanpercentile, "nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False)", "Compute the q-th percentile of the data along the specified axis, ignoring NaNs."},
        {"nanquantile", np_nanquantile, "nanquantile(a, q, axis=None, out=None, overwrite_input=False, method='linear', keepdims=False)", "Compute the q-th quantile of the data along the specified axis, ignoring NaNs."},
        {"average", np_average, "average(a, axis=None, weights=None, returned=False, *, keepdims=False)", "Compute the weighted average along the specified axis."},
    };
    add_functions(m, fns);
}

}  // namespace gpy
