// Sorting: sort, argsort, partition, argpartition, lexsort (functions and
// methods). Data-dependent work runs on the host over materialised data, one
// lane (1-D run along the axis) per task, lanes in parallel; the order is
// NumPy's (sort_keys.h). sort and argsort of device arrays along their last
// axis run on the device (runtime/sort_cuda.h). Registers the searching and set parts too.
#include <complex>
#include <cctype>
#include <numeric>

#include "runtime/array_memory.h"
#include "runtime/backend.h"
#include "runtime/thread_pool.h"
#include "numpy/module_parts.h"
#include "numpy/shape_funcs.h"
#include "numpy/np_args.h"
#include "numpy/sort_keys.h"

namespace gpy {

Lanes lanes_along(const dag::Shape& shape, const std::vector<int64_t>& strides, int axis) {
    Lanes l;
    l.length = shape[size_t(axis)];
    l.stride = strides[size_t(axis)];
    int64_t count = 1;
    for (int d = 0; d < int(shape.size()); ++d)
        if (d != axis) count *= shape[size_t(d)];
    l.offsets.reserve(size_t(count));
    // An odometer over the other axes, last fastest.
    std::vector<int64_t> idx(shape.size(), 0);
    int64_t off = 0;
    for (int64_t c = 0; c < count; ++c) {
        l.offsets.push_back(off);
        for (int d = int(shape.size()) - 1; d >= 0; --d) {
            if (d == axis) continue;
            if (++idx[size_t(d)] < shape[size_t(d)]) {
                off += strides[size_t(d)];
                break;
            }
            off -= strides[size_t(d)] * (shape[size_t(d)] - 1);
            idx[size_t(d)] = 0;
        }
    }
    return l;
}

void for_lanes(const Lanes& l, const std::function<void(int64_t, int64_t)>& fn) {
    int64_t grain = std::max<int64_t>(1, (int64_t(1) << 15) / std::max<int64_t>(l.length, 1));
    parallel_for(int64_t(l.offsets.size()), grain, fn);
}

Value contiguous_as(ArrayObj* x, DType t) {
    materialize(x);
    if (x->dtype == t && x->c_contiguous()) return Value::object(x);
    return compute_into_new(dag::make_cast(array_node(x), t), t, x->shape);
}

Value fresh_copy(ArrayObj* x) {
    materialize(x);
    if (!x->c_contiguous()) return compute_into_new(array_node(x), x->dtype, x->shape);
    Value out = new_array(x->dtype, x->shape);
    copy_buffer_bytes(out.as<ArrayObj>()->buffer, 0, x->buffer, x->offset, size_t(x->size()) * itemsize(x->dtype));
    return out;
}

namespace {

uint8_t* data_of(ArrayObj* x) { return x->buffer.bytes() + x->offset; }
// For host code that only reads x (a device array's copy stays current).
const uint8_t* read_data_of(ArrayObj* x) { return x->buffer.host_read_bytes() + x->offset; }

// kind= (and stable=) of sort/argsort: NumPy reads the first letter of kind.
// Every kind is stable here.
void check_sort_kind(CallArgs& a) {
    const Value* kind = arg(a, 2, "kind");
    if (!kind || kind->is_none()) return;
    if (const Value* stable = kwarg(a, "stable"); stable && !stable->is_none())
        raise(types::ValueError, "`kind` and keyword parameters can't be provided at the same time. Use only one of them.");
    if (!is_kind(*kind, OK::Str)) raise(types::TypeError, std::string("sort kind must be str, not ") + type_name(*kind));
    const std::string& s = kind->as<StrObj>()->s;
    char c = s.empty() ? 0 : char(std::tolower(s[0]));
    if (c != 'q' && c != 'm' && c != 'h' && c != 's')
        raise(types::ValueError, "sort kind must be one of 'quick', 'heap', or 'stable' (got '" + s + "')");
}

void check_order(const Value* order) {
    if (order && !order->is_none()) raise(types::ValueError, "Cannot specify order when the array has no fields.");
}

// NumPy's order of complex numbers: lexicographic on (real, imag), then
// those with a NaN imaginary part (by real part), a NaN real part (by
// imaginary part), both NaN. A strict weak order, so std::stable_sort
// gives NumPy's stable result.
template <class F>
bool complex_less(const std::complex<F>& a, const std::complex<F>& b) {
    int ga = (a.real() != a.real()) * 2 + (a.imag() != a.imag()), gb = (b.real() != b.real()) * 2 + (b.imag() != b.imag());
    if (ga != gb) return ga < gb;
    switch (ga) {
        case 0: return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
        case 1: return a.real() < b.real();
        case 2: return a.imag() < b.imag();
        default: return false;
    }
}

// Calls f(std::complex<F>{}) for a complex dtype.
template <class Fn>
void with_complex(DType t, Fn&& f) {
    if (t == DType::Complex64) f(std::complex<float>{});
    else f(std::complex<double>{});
}

// sort_lanes / argsort for complex dtypes: a stable comparison sort per lane.
void sort_complex_lanes(ArrayObj* x, ArrayObj* out, int axis, bool indices) {
    Lanes l = lanes_along(x->shape, x->strides, axis), lo = lanes_along(out->shape, out->strides, axis);
    const uint8_t* base = read_data_of(x);
    uint8_t* obase = data_of(out);
    with_complex(x->dtype, [&](auto z) {
        using C = decltype(z);
        for_lanes(l, [&](int64_t begin, int64_t end) {
            std::vector<C> run(size_t(l.length));
            std::vector<int64_t> idx(size_t(l.length));
            for (int64_t k = begin; k < end; ++k) {
                const uint8_t* p = base + l.offsets[size_t(k)];
                uint8_t* q = obase + lo.offsets[size_t(k)];
                for (int64_t i = 0; i < l.length; ++i) run[size_t(i)] = *reinterpret_cast<const C*>(p + i * l.stride);
                for (int64_t i = 0; i < l.length; ++i) idx[size_t(i)] = i;
                std::stable_sort(idx.begin(), idx.end(), [&](int64_t i, int64_t j) { return complex_less(run[size_t(i)], run[size_t(j)]); });
                for (int64_t i = 0; i < l.length; ++i) {
                    if (indices) *reinterpret_cast<int64_t*>(q + i * lo.stride) = idx[size_t(i)];
                    else *reinterpret_cast<C*>(q + i * lo.stride) = run[size_t(idx[size_t(i)])];
                }
            }
        });
    });
}

// Below this many elements the host sorts device arrays too: the device's
// launches and its one wait cost more than the host's sort.
constexpr int64_t kDeviceSortMin = 4096;

// Lanes along the last axis of a C-contiguous device array sort on the
// device (runtime/sort_cuda.h): values to `values` (may be x) and/or int64
// indices to `index` (C-contiguous like x). False: the host sorts.
bool sorted_on_device(ArrayObj* x, int axis, ArrayObj* values, ArrayObj* index) {
    Backend* be = array_backend();
    DeviceSearchType type;
    if (!be || !x->buffer || x->buffer->device != DeviceKind::CUDA || !device_element_type(x->dtype, &type)) return false;
    const int64_t n = x->size();
    if (n < kDeviceSortMin || uint64_t(n) >= (uint64_t(1) << 32) || axis != x->ndim() - 1 || !is_c_contiguous(x)) return false;
    const int64_t len = x->shape.back();
    // Device addresses only now: taking one marks the device's copy current.
    const uint8_t* in = values == x ? x->buffer.device_bytes() + x->offset : x->buffer.device_read_bytes() + x->offset;
    void* v = values ? values->buffer.device_bytes() + values->offset : nullptr;
    auto* i = index ? reinterpret_cast<int64_t*>(index->buffer.device_bytes() + index->offset) : nullptr;
    return be->sort(type, in, n / len, len, v, i);
}

// Writes every lane of `x` (materialised) along `axis`, sorted, into the same
// lane of `out` (same shape and dtype; may be x).
void sort_lanes(ArrayObj* x, ArrayObj* out, int axis) {
    if ((out == x || is_c_contiguous(out)) && sorted_on_device(x, axis, out, nullptr)) return;
    if (is_complex(x->dtype)) return sort_complex_lanes(x, out, axis, false);
    Lanes l = lanes_along(x->shape, x->strides, axis), lo = lanes_along(out->shape, out->strides, axis);
    const uint8_t* base = read_data_of(x);
    uint8_t* obase = data_of(out);
    with_elem(x->dtype, [&](auto e) {
        using E = decltype(e);
        using T = typename E::T;
        for_lanes(l, [&](int64_t begin, int64_t end) {
            bool in_direct = l.stride == int64_t(sizeof(T)), out_direct = lo.stride == int64_t(sizeof(T));
            BufferRef holder;
            T* run = in_direct && out_direct ? nullptr : scratch_array<T>(holder, l.length);
            for (int64_t k = begin; k < end; ++k) {
                const uint8_t* p = base + l.offsets[size_t(k)];
                uint8_t* q = obase + lo.offsets[size_t(k)];
                const T* src = in_direct ? reinterpret_cast<const T*>(p) : run;
                T* dst = out_direct ? reinterpret_cast<T*>(q) : run;
                if (!in_direct)
                    for (int64_t i = 0; i < l.length; ++i) run[i] = *reinterpret_cast<const T*>(p + i * l.stride);
                sort_values<E>(src, dst, l.length);
                if (!out_direct)
                    for (int64_t i = 0; i < l.length; ++i) *reinterpret_cast<T*>(q + i * lo.stride) = run[i];
            }
        });
    });
}

// For each lane of `x` along `axis`: fill the matching lane of the int64
// array `out` (same shape) with indices, given the lane's (key, index) items.
template <class Order>
void index_lanes(ArrayObj* x, ArrayObj* out, int axis, Order order) {
    Lanes l = lanes_along(x->shape, x->strides, axis);
    Lanes lo = lanes_along(out->shape, out->strides, axis);
    const uint8_t* base = read_data_of(x);
    uint8_t* obase = data_of(out);
    with_elem(x->dtype, [&](auto e) {
        using E = decltype(e);
        using T = typename E::T;
        using KI = KeyIndex<typename E::K>;
        for_lanes(l, [&](int64_t begin, int64_t end) {
            BufferRef holder;
            KI* items = scratch_array<KI>(holder, 2 * l.length);
            for (int64_t k = begin; k < end; ++k) {
                const uint8_t* p = base + l.offsets[size_t(k)];
                for (int64_t i = 0; i < l.length; ++i) items[i] = KI{E::key(*reinterpret_cast<const T*>(p + i * l.stride)), i};
                order(items, items + l.length, l.length);
                uint8_t* q = obase + lo.offsets[size_t(k)];
                for (int64_t i = 0; i < l.length; ++i) *reinterpret_cast<int64_t*>(q + i * lo.stride) = items[i].index;
            }
        });
    });
}

// An axis= value, with Python's message for a non-integer.
int64_t axis_value(const Value& v) {
    if (!v.is_intlike() && !(v.is_obj() && v.o->type->scalar && v.o->type->scalar(v).is_intlike()))
        raise(types::TypeError, std::string("'") + type_name(v) + "' object cannot be interpreted as an integer");
    return to_index(v);
}

// The array argument of a function (converted) or method (self), and its
// axis; axis=None gives the flattened (contiguous) array and axis 0.
struct Subject {
    Value array;
    int axis;
};

Subject subject(Interp& in, CallArgs& a, const Value* axis, bool at_least_1d = false) {
    if (a.npos < 1) raise(types::TypeError, "missing required argument 'a' (pos 0)");
    Value x = as_array_value(in, a.pos[0]);
    ArrayObj* xa = x.as<ArrayObj>();
    materialize(xa);
    if (at_least_1d && xa->ndim() == 0) {
        x = array_from_buffer(xa->buffer, xa->dtype, {1}, {0}, xa->offset);
        xa = x.as<ArrayObj>();
    }
    if (axis && axis->is_none()) {
        Value c = contiguous_as(xa, xa->dtype);
        ArrayObj* ca = c.as<ArrayObj>();
        return {array_from_buffer(ca->buffer, ca->dtype, {ca->size()}, {int64_t(itemsize(ca->dtype))}, ca->offset), 0};
    }
    return {x, normalize_axis(axis ? axis_value(*axis) : -1, xa->ndim())};
}

Value np_sort(Interp& in, CallArgs& a) {
    check_sort_kind(a);
    check_order(arg(a, 3, "order"));
    Subject s = subject(in, a, arg(a, 1, "axis"));
    ArrayObj* x = s.array.as<ArrayObj>();
    Value out = new_array(x->dtype, x->shape);
    sort_lanes(x, out.as<ArrayObj>(), s.axis);
    return out;
}

Value m_sort(Interp& in, CallArgs& a) {
    check_sort_kind(a);
    check_order(arg(a, 3, "order"));
    ArrayObj* x = a.pos[0].as<ArrayObj>();
    const Value* axis = arg(a, 1, "axis");
    int ax = normalize_axis(axis ? axis_value(*axis) : -1, x->ndim());
    materialize(x);
    flush_readers(x->buffer.get());  // pending results that read the old values keep them
    sort_lanes(x, x, ax);
    return Value::none();
}

Value np_argsort(Interp& in, CallArgs& a) {
    check_sort_kind(a);
    check_order(arg(a, 3, "order"));
    Subject s = subject(in, a, arg(a, 1, "axis"), true);  // NumPy argsorts a 0-d array as 1-d
    ArrayObj* x = s.array.as<ArrayObj>();
    Value out = new_array(DType::Int64, x->shape);
    if (is_complex(x->dtype)) {
        sort_complex_lanes(x, out.as<ArrayObj>(), s.axis, true);
        return out;
    }
    if (sorted_on_device(x, s.axis, nullptr, out.as<ArrayObj>())) return out;
    index_lanes(x, out.as<ArrayObj>(), s.axis, [](auto* items, auto* tmp, int64_t n) {
        stable_sort_by_key(items, tmp, n, [](const auto& ki) { return ki.key; });
    });
    return out;
}

// ---- partition ----

// kth= (an int or a sequence of ints) normalised against a lane of length n,
// sorted and without repeats.
std::vector<int64_t> parse_kth(Interp& in, const Value& kth, int64_t n) {
    std::vector<Value> ks;
    if (ArrayObj* k = as_array(kth)) {
        if (!is_integer(k->dtype)) raise(types::TypeError, "Partition index must be integer");
        Value c = contiguous_as(k, DType::Int64);
        const int64_t* p = reinterpret_cast<const int64_t*>(read_data_of(c.as<ArrayObj>()));
        for (int64_t i = 0; i < k->size(); ++i) ks.push_back(Value::integer(p[i]));
    } else if (is_kind(kth, OK::List) || is_kind(kth, OK::Tuple)) {
        ks = to_vector(in, kth);
    } else {
        ks.push_back(kth);
    }
    std::vector<int64_t> out;
    for (const Value& v : ks) {
        if (v.is_bool()) raise(types::ValueError, "Booleans unacceptable as partition index");
        if (!v.is_int()) raise(types::TypeError, "Partition index must be integer");
        int64_t k = v.as_int() < 0 ? v.as_int() + n : v.as_int();
        if (n > 0 && (k < 0 || k >= n)) raise(types::ValueError, "kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(n) + ")");
        out.push_back(k);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void check_select_kind(const Value* kind) {
    if (!kind || kind->is_none()) return;
    const std::string& s = str_of(*kind, "kind");
    if (s != "introselect") raise(types::ValueError, "select kind must be 'introselect' (got '" + s + "')");
}

// Puts the elements of ranks kths (ascending) in place, smaller ones before.
template <class It, class Less>
void select_ranks(It first, int64_t n, const std::vector<int64_t>& kths, Less less) {
    if (n == 0) return;
    // NumPy on x86 with AVX-512 selects with x86-simd-sort, which sorts a
    // short row whole (its sorting networks): the same order here, so small
    // partitions print what NumPy prints there.
    if (n <= 128) {
        std::sort(first, first + n, less);
        return;
    }
    int64_t lo = 0;
    for (int64_t k : kths) {
        std::nth_element(first + lo, first + k, first + n, less);
        lo = k + 1;
    }
}

struct PartitionArgs {
    Subject s;
    std::vector<int64_t> kths;
};

PartitionArgs partition_args(Interp& in, CallArgs& a) {
    const Value* kth = arg(a, 1, "kth");
    if (!kth) raise(types::TypeError, "partition() missing required argument 'kth' (pos 1)");
    check_select_kind(arg(a, 3, "kind"));
    check_order(arg(a, 4, "order"));
    Subject s = subject(in, a, arg(a, 2, "axis"));
    ArrayObj* x = s.array.as<ArrayObj>();
    return {s, parse_kth(in, *kth, x->ndim() ? x->shape[size_t(s.axis)] : 0)};
}

void partition_lanes(ArrayObj* x, int axis, const std::vector<int64_t>& kths) {
    Lanes l = lanes_along(x->shape, x->strides, axis);
    uint8_t* base = data_of(x);
    with_elem(x->dtype, [&](auto e) {
        using E = decltype(e);
        using T = typename E::T;
        for_lanes(l, [&](int64_t begin, int64_t end) {
            BufferRef holder;
            T* run = scratch_array<T>(holder, l.length);
            for (int64_t k = begin; k < end; ++k) {
                uint8_t* p = base + l.offsets[size_t(k)];
                for (int64_t i = 0; i < l.length; ++i) run[i] = *reinterpret_cast<T*>(p + i * l.stride);
                select_ranks(run, l.length, kths, [](T u, T v) { return E::key(u) < E::key(v); });
                for (int64_t i = 0; i < l.length; ++i) *reinterpret_cast<T*>(p + i * l.stride) = run[i];
            }
        });
    });
}

Value np_partition(Interp& in, CallArgs& a) {
    PartitionArgs p = partition_args(in, a);
    Value c = fresh_copy(p.s.array.as<ArrayObj>());
    partition_lanes(c.as<ArrayObj>(), p.s.axis, p.kths);
    return c;
}

Value m_partition(Interp& in, CallArgs& a) {
    if (const Value* axis = arg(a, 2, "axis")) axis_value(*axis);  // in place: None is no axis
    PartitionArgs p = partition_args(in, a);
    ArrayObj* x = a.pos[0].as<ArrayObj>();
    flush_readers(x->buffer.get());
    partition_lanes(x, p.s.axis, p.kths);
    return Value::none();
}

Value np_argpartition(Interp& in, CallArgs& a) {
    PartitionArgs p = partition_args(in, a);
    ArrayObj* x = p.s.array.as<ArrayObj>();
    Value out = new_array(DType::Int64, x->shape);
    index_lanes(x, out.as<ArrayObj>(), p.s.axis, [&](auto* items, auto*, int64_t n) {
        select_ranks(items, n, p.kths, [](const auto& u, const auto& v) { return u.key < v.key; });
    });
    return out;
}

// ---- lexsort ----

[[noreturn]] void no_keys() { raise(types::TypeError, "need sequence of keys with len > 0 in lexsort"); }

Value np_lexsort(Interp& in, CallArgs& a) {
    const Value* kv = arg(a, 0, "keys");
    if (!kv) raise(types::TypeError, "lexsort() missing required argument 'keys' (pos 0)");
    std::vector<Value> keys;
    if (ArrayObj* k = as_array(*kv)) {
        if (k->ndim() == 0) no_keys();
        for (int64_t i = 0; i < k->shape[0]; ++i) keys.push_back(get_item(in, *kv, Value::integer(i)));
    } else if (is_kind(*kv, OK::List) || is_kind(*kv, OK::Tuple)) {
        for (const Value& v : to_vector(in, *kv)) keys.push_back(as_array_value(in, v));
    } else {
        no_keys();
    }
    if (keys.empty()) no_keys();
    const dag::Shape& shape = keys[0].as<ArrayObj>()->shape;
    for (const Value& k : keys) {
        if (k.as<ArrayObj>()->shape != shape) raise(types::ValueError, "all keys need to be the same shape");
        materialize(k.as<ArrayObj>());
    }
    Value out = new_array(DType::Int64, shape);
    if (shape.empty()) {  // scalar keys: the one index
        set_numpy_scalar(out.as<ArrayObj>(), true);
        std::memset(out.as<ArrayObj>()->buffer.bytes(), 0, sizeof(int64_t));
        return out;
    }
    const Value* axis = arg(a, 1, "axis");
    int ax = normalize_axis(axis ? axis_value(*axis) : -1, int(shape.size()));
    ArrayObj* o = out.as<ArrayObj>();
    Lanes lo = lanes_along(o->shape, o->strides, ax);
    std::vector<Lanes> kl;
    for (const Value& k : keys) kl.push_back(lanes_along(shape, k.as<ArrayObj>()->strides, ax));
    // Host bytes taken here, on the interpreter's thread (device memory is
    // copied to its host mirror once), not in the workers.
    std::vector<const uint8_t*> key_base;
    for (const Value& k : keys) key_base.push_back(read_data_of(k.as<ArrayObj>()));
    uint8_t* out_base = data_of(o);
    // Stable sorts by each key in turn, the last key deciding most.
    for_lanes(lo, [&](int64_t begin, int64_t end) {
        std::vector<int64_t> order(static_cast<size_t>(lo.length));
        for (int64_t lane = begin; lane < end; ++lane) {
            std::iota(order.begin(), order.end(), 0);
            for (size_t j = 0; j < keys.size(); ++j) {
                ArrayObj* k = keys[j].as<ArrayObj>();
                const uint8_t* p = key_base[j] + kl[j].offsets[size_t(lane)];
                int64_t stride = kl[j].stride;
                with_elem(k->dtype, [&](auto e) {
                    using E = decltype(e);
                    using KI = KeyIndex<typename E::K>;
                    std::vector<KI> items(static_cast<size_t>(lo.length)), tmp(static_cast<size_t>(lo.length));
                    for (int64_t i = 0; i < lo.length; ++i) {
                        int64_t at = order[size_t(i)];
                        items[size_t(i)] = KI{E::key(*reinterpret_cast<const typename E::T*>(p + at * stride)), at};
                    }
                    stable_sort_by_key(items.data(), tmp.data(), lo.length, [](const KI& ki) { return ki.key; });
                    for (int64_t i = 0; i < lo.length; ++i) order[size_t(i)] = items[size_t(i)].index;
                });
            }
            uint8_t* q = out_base + lo.offsets[size_t(lane)];
            for (int64_t i = 0; i < lo.length; ++i) *reinterpret_cast<int64_t*>(q + i * lo.stride) = order[size_t(i)];
        }
    });
    return out;
}

const FunctionSpec kFunctions[] = {
    {"sort", np_sort, "sort(a, axis=-1, kind=None, order=None, *, stable=None)", "Return a sorted copy of an array (NaNs last; every kind is stable)."},
    {"argsort", np_argsort, "argsort(a, axis=-1, kind=None, order=None, *, stable=None)", "Returns the indices that would sort an array."},
    {"partition", np_partition, "partition(a, kth, axis=-1, kind='introselect', order=None)", "Return a partitioned copy of an array."},
    {"argpartition", np_argpartition, "argpartition(a, kth, axis=-1, kind='introselect', order=None)", "Indices that would partition an array along the given axis."},
    {"lexsort", np_lexsort, "lexsort(keys, axis=-1)", "Indirect stable sort using a sequence of keys (the last key is the primary one)."},
};

}  // namespace

void add_sorting_functions(Interp& in, ModuleObj* m) {
    add_functions(m, kFunctions);
    add_search_functions(in, m);
    add_set_functions(in, m);
}

void install_sorting_methods() {
    TypeObject* t = types::ndarray;
    def_method(t, "sort", m_sort, "ndarray.sort(axis=-1, kind=None, order=None, *, stable=None)", "Sort an array in place.");
    def_method(t, "argsort", np_argsort, "ndarray.argsort(axis=-1, kind=None, order=None, *, stable=None)", "Returns the indices that would sort this array.");
    def_method(t, "partition", m_partition, "ndarray.partition(kth, axis=-1, kind='introselect', order=None)", "Partially sorts the array in place.");
    def_method(t, "argpartition", np_argpartition, "ndarray.argpartition(kth, axis=-1, kind='introselect', order=None)", "Indices that would partition this array.");
    install_search_methods();
}

}  // namespace gpy
