// np.histogram's counting of uniform bins (numpy/py/shape_misc.py calls
// _histogram_uniform): one pass over the data instead of the module's seven
// kernels and two int64 index arrays. Each element's bin is NumPy's: an
// estimate from (x - first) * norm in the edges' type, corrected against the
// edges themselves. On a GPU array a library kernel counts
// (runtime/histogram_cuda.h); otherwise a parallel loop with a histogram
// per task.
#include <algorithm>
#include <mutex>
#include <vector>

#include "runtime/backend.h"
#include "runtime/thread_pool.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/sort_keys.h"

namespace gpy {

namespace {

template <class D, class E>
int64_t bin_of(D v, const E* edges, int64_t bins, E first, E norm) {
    const E x = E(v);
    int64_t b = int64_t((x - first) * norm);
    if (b >= bins) b = bins - 1;  // x == last (and a guard)
    if (b < 0) b = 0;
    if (x < edges[b]) --b;
    else if (b != bins - 1 && x >= edges[b + 1]) ++b;
    return b < 0 ? 0 : b;
}

template <class D, class E>
void count_on_host(const D* data, int64_t n, const E* edges, int64_t bins, E first, E norm, int64_t* counts) {
    constexpr int64_t kChunk = int64_t(1) << 16;
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<std::vector<int64_t>> partial;
    std::mutex mu;
    parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
        std::vector<int64_t> h(size_t(bins), 0);
        for (int64_t i = b * kChunk; i < std::min(n, e * kChunk); ++i) ++h[size_t(bin_of<D, E>(data[i], edges, bins, first, norm))];
        std::lock_guard<std::mutex> lock(mu);
        partial.push_back(std::move(h));
    });
    for (const auto& h : partial)
        for (int64_t k = 0; k < bins; ++k) counts[k] += h[size_t(k)];
}

// _histogram_uniform(data, edges, bins, first, norm): int64 counts of the
// 1-d data (every element within the edges) in the `bins` uniform bins, or
// None where the module's own code must count (other dtypes).
Value np_histogram_uniform(Interp& in, CallArgs& a) {
    expect_args(a, "_histogram_uniform", 5, 5);
    Value dv = as_array_value(in, a[0]), ev = as_array_value(in, a[1]);
    ArrayObj *d = dv.as<ArrayObj>(), *e = ev.as<ArrayObj>();
    const int64_t bins = to_index(a[2], "bins");
    DeviceSearchType type;
    if (d->ndim() != 1 || e->ndim() != 1 || e->size() != bins + 1 || bins < 1 || !device_element_type(d->dtype, &type) ||
        (e->dtype != DType::Float32 && e->dtype != DType::Float64))
        return Value::none();
    const bool dbl = e->dtype == DType::Float64;
    const double first = to_double(a[3], "first"), norm = to_double(a[4], "norm");
    Value data = contiguous_as(d, d->dtype), edges = contiguous_as(e, e->dtype);
    ArrayObj *da = data.as<ArrayObj>(), *ea = edges.as<ArrayObj>();
    Value counts = new_array(DType::Int64, {bins}, true);
    ArrayObj* ca = counts.as<ArrayObj>();
    Backend* be = array_backend();
    if (be && da->buffer && da->buffer->device == DeviceKind::CUDA && ea->buffer && ea->buffer->device == DeviceKind::CUDA &&
        be->histogram(type, dbl, da->buffer.device_read_bytes() + da->offset, d->size(), ea->buffer.device_read_bytes() + ea->offset,
                      bins, first, norm, reinterpret_cast<int64_t*>(ca->buffer.device_bytes() + ca->offset)))
        return counts;
    const uint8_t* dp = da->buffer.host_read_bytes() + da->offset;
    const uint8_t* ep = ea->buffer.host_read_bytes() + ea->offset;
    auto* out = reinterpret_cast<int64_t*>(ca->buffer.bytes() + ca->offset);
    with_elem(d->dtype, [&](auto el) {
        using D = typename decltype(el)::T;
        if (dbl)
            count_on_host<D, double>(reinterpret_cast<const D*>(dp), d->size(), reinterpret_cast<const double*>(ep), bins, first, norm, out);
        else
            count_on_host<D, float>(reinterpret_cast<const D*>(dp), d->size(), reinterpret_cast<const float*>(ep), bins, float(first),
                                    float(norm), out);
    });
    return counts;
}

const FunctionSpec kFunctions[] = {
    {"_histogram_uniform", np_histogram_uniform, "_histogram_uniform(data, edges, bins, first, norm)",
     "histogram's counts for uniform bins (for the module's own histogram)."},
};

}  // namespace

void add_histogram_functions(Interp&, ModuleObj* m) { add_functions(m, kFunctions); }

}  // namespace gpy
