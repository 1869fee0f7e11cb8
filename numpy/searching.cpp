// Searching: nonzero (also np.where(cond)), flatnonzero, argwhere and
// searchsorted. Results have data-dependent shapes, so inputs are
// materialised and results are plain int64 arrays over new buffers.
#include <cstring>

#include "runtime/backend.h"
#include "numpy/promote.h"
#include "runtime/thread_pool.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/sort_keys.h"

namespace gpy {

std::vector<int64_t> flat_nonzero(ArrayObj* x) {
    // Complex values are tested as bool (either part nonzero).
    DType t = is_complex(x->dtype) ? DType::Bool : x->dtype;
    Value c = contiguous_as(x, t);
    const uint8_t* data = c.as<ArrayObj>()->buffer.bytes() + c.as<ArrayObj>()->offset;
    int64_t n = x->size();
    // Count per chunk in parallel, then each chunk writes from its offset.
    constexpr int64_t kChunk = int64_t(1) << 16;
    int64_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<int64_t> starts(size_t(chunks) + 1, 0);
    std::vector<int64_t> out;
    with_elem(t, [&](auto e) {
        using T = typename decltype(e)::T;
        const T* v = reinterpret_cast<const T*>(data);
        auto chunk_range = [&](int64_t c) { return std::pair{c * kChunk, std::min(n, (c + 1) * kChunk)}; };
        parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
            for (int64_t c = b; c < e; ++c) {
                auto [lo, hi] = chunk_range(c);
                int64_t count = 0;
                for (int64_t i = lo; i < hi; ++i) count += v[i] != T(0);
                starts[size_t(c) + 1] = count;
            }
        });
        for (int64_t c = 0; c < chunks; ++c) starts[size_t(c) + 1] += starts[size_t(c)];
        out.resize(size_t(starts.back()));
        parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
            for (int64_t c = b; c < e; ++c) {
                auto [lo, hi] = chunk_range(c);
                int64_t* o = out.data() + starts[size_t(c)];
                for (int64_t i = lo; i < hi; ++i)
                    if (v[i] != T(0)) *o++ = i;
            }
        });
    });
    return out;
}

Value flat_nonzero_array(ArrayObj* x) {
    materialize(x);  // a pending result has no buffer yet
    Backend* be = array_backend();
    if (be && x->buffer && x->buffer->device == DeviceKind::CUDA && uint64_t(x->size()) < (uint64_t(1) << 32)) {
        DType t = is_complex(x->dtype) ? DType::Bool : x->dtype;
        Value c = contiguous_as(x, t);
        ArrayObj* ca = c.as<ArrayObj>();
        Value out;
        int64_t count = 0;
        auto alloc = [&](int64_t k) -> void* {
            out = new_array(DType::Int64, {k});
            return out.as<ArrayObj>()->buffer.device_bytes();
        };
        if (ca->buffer && ca->buffer->device == DeviceKind::CUDA &&
            be->select(ca->buffer.device_read_bytes() + ca->offset, itemsize(t), is_float(t), ca->size(), nullptr, 0, alloc, &count))
            return out;
    }
    return int64_array(flat_nonzero(x));
}

// np.nonzero of a device array: the flat indices on the device, then each
// coordinate there. Undef: the host's.
static Value nonzero_on_device(ArrayObj* xa) {
    materialize(xa);
    Backend* be = array_backend();
    if (!be || !xa->buffer || xa->buffer->device != DeviceKind::CUDA) return Value();
    Value flat = flat_nonzero_array(xa);
    ArrayObj* f = flat.as<ArrayObj>();
    const int nd = xa->ndim();
    if (nd == 1) return make_tuple({flat});
    if (!f->buffer || f->buffer->device != DeviceKind::CUDA) return Value();
    std::vector<Value> dims;
    int64_t inner = xa->size();
    for (int d = 0; d < nd; ++d) {
        inner = xa->shape[size_t(d)] ? inner / xa->shape[size_t(d)] : 0;
        dims.push_back(new_array(DType::Int64, f->shape));
        if (!be->unravel(reinterpret_cast<const int64_t*>(f->buffer.device_bytes() + f->offset), f->size(), inner,
                         xa->shape[size_t(d)], reinterpret_cast<int64_t*>(dims.back().as<ArrayObj>()->buffer.device_bytes())))
            return Value();
    }
    return make_tuple(std::move(dims));
}

Value nonzero(Interp& in, const Value& v, bool for_where) {
    Value x = as_array_value(in, v);
    ArrayObj* xa = x.as<ArrayObj>();
    if (xa->ndim() == 0)
        raise(types::ValueError, std::string("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.") +
                                     (for_where ? " If the context of this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`." : ""));
    if (Value r = nonzero_on_device(xa); !r.is_undef()) return r;
    int nd = xa->ndim();
    std::vector<int64_t> flat = flat_nonzero(xa);
    if (nd == 1) return make_tuple({int64_array(flat)});  // the flat indices are the coordinates
    std::vector<Value> dims;
    std::vector<int64_t*> ptrs;
    for (int d = 0; d < nd; ++d) {
        dims.push_back(new_array(DType::Int64, {int64_t(flat.size())}));
        ptrs.push_back(reinterpret_cast<int64_t*>(dims.back().as<ArrayObj>()->buffer.bytes()));
    }
    // A local copy of the shape: through xa the compiler reloaded it after
    // every store (nonzero was 20x NumPy's time on 2^20 elements).
    const std::vector<int64_t> shape(xa->shape.begin(), xa->shape.end());
    for (size_t k = 0; k < flat.size(); ++k) {
        int64_t i = flat[k];
        for (int d = nd - 1; d >= 0; --d) {
            ptrs[size_t(d)][k] = i % shape[size_t(d)];
            i /= shape[size_t(d)];
        }
    }
    return make_tuple(std::move(dims));
}

bool device_element_type(DType t, DeviceSearchType* out) {
    switch (t) {
        case DType::Int8: *out = DeviceSearchType::Int8; return true;
        case DType::UInt8: *out = DeviceSearchType::UInt8; return true;
        case DType::Int16: *out = DeviceSearchType::Int16; return true;
        case DType::UInt16: *out = DeviceSearchType::UInt16; return true;
        case DType::Int32: *out = DeviceSearchType::Int32; return true;
        case DType::UInt32: *out = DeviceSearchType::UInt32; return true;
        case DType::Int64: *out = DeviceSearchType::Int64; return true;
        case DType::UInt64: *out = DeviceSearchType::UInt64; return true;
        case DType::Float32: *out = DeviceSearchType::Float; return true;
        case DType::Float64: *out = DeviceSearchType::Double; return true;
        default: return false;
    }
}

namespace {

Value np_nonzero(Interp& in, CallArgs& a) {
    expect_args(a, "nonzero", 1, 1);
    return nonzero(in, a.pos[0]);
}

Value np_flatnonzero(Interp& in, CallArgs& a) {
    expect_args(a, "flatnonzero", 1, 1);
    Value x = as_array_value(in, a.pos[0]);
    return flat_nonzero_array(x.as<ArrayObj>());
}

Value np_argwhere(Interp& in, CallArgs& a) {
    expect_args(a, "argwhere", 1, 1);
    Value x = as_array_value(in, a.pos[0]);
    ArrayObj* xa = x.as<ArrayObj>();
    std::vector<int64_t> flat = flat_nonzero(xa);
    int nd = xa->ndim();
    // A 0-d input gives (count, 0), as NumPy's atleast_1d(a)[:, :0].
    Value out = new_array(DType::Int64, {int64_t(flat.size()), nd});
    int64_t* o = reinterpret_cast<int64_t*>(out.as<ArrayObj>()->buffer.bytes());
    for (size_t k = 0; k < flat.size(); ++k) {
        int64_t i = flat[k];
        for (int d = nd - 1; d >= 0; --d) {
            o[int64_t(k) * nd + d] = i % xa->shape[size_t(d)];
            i /= xa->shape[size_t(d)];
        }
    }
    return out;
}

// ---- searchsorted ----

bool parse_side(const Value* side) {
    if (!side || side->is_none()) return false;
    const std::string& s = str_of(*side, "side");
    if (s == "left") return false;
    if (s == "right") return true;
    if (!s.empty() && std::strchr("lLrR", s[0])) raise(types::ValueError, "search side must be one of 'left' or 'right'");
    raise(types::ValueError, "search side must be 'left' or 'right' (got '" + s + "')");
}

// The order a[sorter] (or a itself), checked.
std::vector<int64_t> sorter_order(Interp& in, const Value* sorter, int64_t n) {
    std::vector<int64_t> order(static_cast<size_t>(n));
    if (!sorter) {
        for (int64_t i = 0; i < n; ++i) order[size_t(i)] = i;
        return order;
    }
    Value s = as_array_value(in, *sorter);
    ArrayObj* sa = s.as<ArrayObj>();
    if (!is_integer(sa->dtype)) raise(types::TypeError, "sorter must only contain integers");
    if (sa->size() != n) raise(types::ValueError, "sorter.size must equal a.size");
    Value c = contiguous_as(sa, DType::Int64);
    const int64_t* p = reinterpret_cast<const int64_t*>(c.as<ArrayObj>()->buffer.bytes() + c.as<ArrayObj>()->offset);
    for (int64_t i = 0; i < n; ++i) {
        if (p[i] < 0 || p[i] >= n) raise(types::ValueError, "Sorter index out of range.");
        order[size_t(i)] = p[i];
    }
    return order;
}

// Device arrays of a real type search on the device (runtime/search_cuda.h);
// undef: the host searches.
Value searchsorted_on_device(ArrayObj* A, ArrayObj* V, DType t, bool right) {
    Backend* be = array_backend();
    if (!be || !A->buffer || A->buffer->device != DeviceKind::CUDA || V->size() < 1024) return Value();
    DeviceSearchType type;
    if (!device_element_type(t, &type)) return Value();
    Value ac = contiguous_as(A, t), vc = contiguous_as(V, t);
    ArrayObj* a = ac.as<ArrayObj>();
    ArrayObj* v = vc.as<ArrayObj>();
    if (!a->buffer || a->buffer->device != DeviceKind::CUDA || !v->buffer || v->buffer->device != DeviceKind::CUDA) return Value();
    Value out = new_array(DType::Int64, V->shape);
    ArrayObj* o = out.as<ArrayObj>();
    set_numpy_scalar(o, V->shape.empty());
    if (!be->searchsorted(type, right, a->buffer.device_bytes() + a->offset, a->size(), v->buffer.device_bytes() + v->offset,
                          v->size(), reinterpret_cast<int64_t*>(o->buffer.device_bytes())))
        return Value();
    return out;
}

Value searchsorted(Interp& in, const Value& av, const Value& vv, const Value* side_arg, const Value* sorter) {
    Value arr = as_array_value(in, av);
    ArrayObj* A = arr.as<ArrayObj>();
    if (A->ndim() != 1)
        raise(types::ValueError, A->ndim() == 0 ? "object of too small depth for desired array" : "object too deep for desired array");
    bool right = parse_side(side_arg);
    // Python scalars count with their default dtype (not weakly): NumPy
    // compares an np.float32 array with 0.1 in float64.
    Value v = as_array_value(in, vv);
    ArrayObj* V = v.as<ArrayObj>();
    DType t = promote_types(A->dtype, V->dtype);
    if (!sorter)
        if (Value r = searchsorted_on_device(A, V, t, right); !r.is_undef()) return r;
    std::vector<int64_t> order = sorter_order(in, sorter, A->size());
    Value ac = contiguous_as(A, t), vc = contiguous_as(V, t);
    Value out = new_array(DType::Int64, V->shape);
    set_numpy_scalar(out.as<ArrayObj>(), V->shape.empty());
    int64_t* o = reinterpret_cast<int64_t*>(out.as<ArrayObj>()->buffer.bytes());
    with_elem(t, [&](auto e) {
        using E = decltype(e);
        using T = typename E::T;
        using K = typename E::K;
        const T* ap = reinterpret_cast<const T*>(ac.as<ArrayObj>()->buffer.bytes() + ac.as<ArrayObj>()->offset);
        const T* vp = reinterpret_cast<const T*>(vc.as<ArrayObj>()->buffer.bytes() + vc.as<ArrayObj>()->offset);
        std::vector<K> keys(order.size());
        for (size_t i = 0; i < order.size(); ++i) keys[i] = E::key(ap[order[i]]);
        parallel_for(V->size(), 4096, [&](int64_t b, int64_t end) {
            for (int64_t i = b; i < end; ++i) {
                K k = E::key(vp[i]);
                auto it = right ? std::upper_bound(keys.begin(), keys.end(), k) : std::lower_bound(keys.begin(), keys.end(), k);
                o[i] = it - keys.begin();
            }
        });
    });
    return out;
}

Value np_searchsorted(Interp& in, CallArgs& a) {
    // Complex values: numpy/py/complex_sets.py (no integer sort keys).
    if (complex_argument(in, a, 0, "a") || complex_argument(in, a, 1, "v")) return call_numpy_py(in, "_complex_searchsorted", a);
    const Value* av = arg(a, 0, "a");
    const Value* vv = arg(a, 1, "v");
    if (!av || !vv) raise(types::TypeError, "searchsorted() missing required argument 'v' (pos 1)");
    return searchsorted(in, *av, *vv, arg(a, 2, "side"), arg_not_none(a, 3, "sorter"));
}

Value m_nonzero(Interp& in, CallArgs& a) {
    expect_args(a, "nonzero", 1, 1);
    return nonzero(in, a.pos[0]);
}

const FunctionSpec kFunctions[] = {
    {"nonzero", np_nonzero, "nonzero(a)", "Return the indices of the elements that are non-zero (a tuple of arrays, one per dimension)."},
    {"flatnonzero", np_flatnonzero, "flatnonzero(a)", "Return indices that are non-zero in the flattened version of a."},
    {"argwhere", np_argwhere, "argwhere(a)", "Find the indices of array elements that are non-zero, grouped by element."},
    {"searchsorted", np_searchsorted, "searchsorted(a, v, side='left', sorter=None)", "Find indices where elements should be inserted to maintain order."},
};

}  // namespace

void add_search_functions(Interp& in, ModuleObj* m) {
    add_functions(m, kFunctions);
}

void install_search_methods() {
    TypeObject* t = types::ndarray;
    def_method(t, "nonzero", m_nonzero, "ndarray.nonzero()", "Return the indices of the elements that are non-zero.");
    def_method(t, "searchsorted", np_searchsorted, "ndarray.searchsorted(v, side='left', sorter=None)", "Find indices where elements of v should be inserted in a to maintain order.");
}

}  // namespace gpy
