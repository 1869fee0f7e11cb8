// Set operations: unique, isin, intersect1d, union1d, setdiff1d, setxor1d.
// Everything works on sorted keys (sort_keys.h): equal keys are NumPy's equal
// elements, except that NaN never equals NaN where NumPy compares with ==.
#include "numpy/promote.h"
#include "runtime/array_memory.h"
#include "runtime/backend.h"
#include "runtime/thread_pool.h"
#include "numpy/indexing.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/sort_keys.h"
#include "numpy/ufuncs.h"

namespace gpy {

bool complex_argument(Interp& in, CallArgs& a, size_t k, const char* key) {
    const Value* v = arg(a, k, key);
    if (!v) return false;
    if (ArrayObj* x = as_array(*v)) return is_complex(x->dtype);
    if (v->is_obj() && v->o->type == types::complex) return true;
    if (!is_kind(*v, OK::List) && !is_kind(*v, OK::Tuple)) return false;
    return is_complex(as_array_value(in, *v).as<ArrayObj>()->dtype);
}

Value call_numpy_py(Interp& in, const char* name, CallArgs& a) {
    const Value* f = in.import_module("numpy")->get(name);
    if (!f) raise(types::RuntimeError, std::string("numpy/py lacks ") + name);
    return in.call(*f, a);
}

namespace {

template <class T>
const T* typed(const Value& c) {
    ArrayObj* a = c.as<ArrayObj>();
    return reinterpret_cast<const T*>(a->buffer.host_read_bytes() + a->offset);
}
template <class T>
T* typed_out(const Value& c) {
    return reinterpret_cast<T*>(c.as<ArrayObj>()->buffer.bytes());
}

// The elements of a flat run sorted (stably) and split into runs of equal ones.
template <class E>
struct Groups {
    std::vector<KeyIndex<typename E::K>> items;
    std::vector<int64_t> starts;  // group g is items[starts[g], starts[g + 1])
    int64_t count() const { return int64_t(starts.size()) - 1; }
    int64_t first(int64_t g) const { return items[size_t(starts[size_t(g)])].index; }
    int64_t size(int64_t g) const { return starts[size_t(g) + 1] - starts[size_t(g)]; }
};

template <class E>
Groups<E> group_equal(const typename E::T* v, int64_t n, bool equal_nan) {
    Groups<E> g;
    g.items = sorted_keys<E>(v, n);
    for (int64_t j = 0; j < n; ++j) {
        auto k = g.items[size_t(j)].key;
        if (j == 0 || k != g.items[size_t(j) - 1].key || (!equal_nan && is_nan_key<E>(k))) g.starts.push_back(j);
    }
    g.starts.push_back(n);
    return g;
}

// A new 1-D array of v[first element of each group].
template <class E>
Value group_values(const Groups<E>& g, const typename E::T* v, DType t) {
    Value out = new_array(t, {g.count()});
    auto* o = typed_out<typename E::T>(out);
    for (int64_t k = 0; k < g.count(); ++k) o[k] = v[g.first(k)];
    return out;
}

// Flags of np.unique.
struct UniqueWants {
    bool index = false, inverse = false, counts = false, equal_nan = true;
    bool any() const { return index || inverse || counts; }
};

Value unique_result(Value values, const UniqueWants& w, Value index, Value inverse, Value counts) {
    if (!w.any()) return values;
    std::vector<Value> parts{std::move(values)};
    if (w.index) parts.push_back(std::move(index));
    if (w.inverse) parts.push_back(std::move(inverse));
    if (w.counts) parts.push_back(std::move(counts));
    return make_tuple(std::move(parts));
}

// np.unique's values alone of a device array: sorted and compacted on the
// device (runtime/sort_cuda.h). Undef: the host's.
Value unique_on_device(ArrayObj* x, const UniqueWants& w) {
    Backend* be = array_backend();
    DeviceSearchType type;
    if (w.any() || !be || !x->buffer || x->buffer->device != DeviceKind::CUDA || !device_element_type(x->dtype, &type) ||
        x->size() < 4096 || uint64_t(x->size()) >= (uint64_t(1) << 32))
        return Value();
    Value c = contiguous_as(x, x->dtype);
    ArrayObj* ca = c.as<ArrayObj>();
    if (!ca->buffer || ca->buffer->device != DeviceKind::CUDA) return Value();
    Value out;
    auto alloc = [&](int64_t k) -> void* {
        out = new_array(x->dtype, {k});
        return out.as<ArrayObj>()->buffer.device_bytes();
    };
    if (!be->unique(type, ca->buffer.device_bytes() + ca->offset, ca->size(), w.equal_nan, alloc)) return Value();
    return out;
}

// np.unique with return_index / return_inverse / return_counts of a device
// array, on the device: a stable sort with indices, run starts by a fused
// compare of neighbours (NaNs one run when equal_nan), their positions by
// stream compaction, then gathers (values, first indices), differences
// (counts) and a scan plus a scatter (inverse). Undef: the host's.
Value unique_variants_on_device(ArrayObj* x, const UniqueWants& w) {
    Backend* be = array_backend();
    DeviceSearchType type;
    const int64_t n = x->size();
    if (!w.any() || !be || !x->buffer || x->buffer->device != DeviceKind::CUDA || !device_element_type(x->dtype, &type) || n < 4096 ||
        uint64_t(n) >= (uint64_t(1) << 32))
        return Value();
    Value c = contiguous_as(x, x->dtype);
    ArrayObj* ca = c.as<ArrayObj>();
    if (!ca->buffer || ca->buffer->device != DeviceKind::CUDA) return Value();
    const DType t = x->dtype;
    const int64_t isz = int64_t(itemsize(t));
    Value sorted = new_array(t, {n}), perm = new_array(DType::Int64, {n});
    const BufferRef &sb = sorted.as<ArrayObj>()->buffer, &pb = perm.as<ArrayObj>()->buffer;
    if (!be->sort(type, ca->buffer.device_read_bytes() + ca->offset, 1, n, sb.device_bytes(), reinterpret_cast<int64_t*>(pb.device_bytes())))
        return Value();
    // New run at k >= 1: sorted[k] differs from sorted[k - 1].
    dag::NodeP cur = dag::make_input(sb, t, {n - 1}, {isz}, isz), prev = dag::make_input(sb, t, {n - 1}, {isz}, 0);
    dag::NodeP differs = dag::make_binary(dag::BinaryOp::Ne, cur, prev, DType::Bool, {n - 1});
    if (is_float(t) && w.equal_nan) {
        dag::NodeP both_nan = dag::make_binary(dag::BinaryOp::LogicalAnd, dag::make_unary(dag::UnaryOp::IsNan, cur, DType::Bool),
                                               dag::make_unary(dag::UnaryOp::IsNan, prev, DType::Bool), DType::Bool, {n - 1});
        differs = dag::make_binary(dag::BinaryOp::LogicalAnd, differs, dag::make_unary(dag::UnaryOp::LogicalNot, both_nan, DType::Bool),
                                   DType::Bool, {n - 1});
    }
    Value flags = compute_into_new(differs, DType::Bool, {n - 1});
    Value later = flat_nonzero_array(flags.as<ArrayObj>());  // k - 1 for each run start k >= 1
    const int64_t m = later.as<ArrayObj>()->size() + 1;
    // starts = [0, later + 1, n]: the runs' bounds in sorted order.
    auto one_int = [](int64_t v) {
        Value r = new_array(DType::Int64, {1});
        std::memcpy(r.as<ArrayObj>()->buffer.bytes(), &v, 8);
        return r;
    };
    Value bounds = new_array(DType::Int64, {m + 1});
    const BufferRef& bb = bounds.as<ArrayObj>()->buffer;
    copy_buffer_bytes(bb, 0, one_int(0).as<ArrayObj>()->buffer, 0, 8);
    if (m > 1) {
        ArrayObj* la = later.as<ArrayObj>();
        dag::ScalarValue one;
        one.i = 1;
        Value shifted = compute_into_new(
            dag::make_binary(dag::BinaryOp::Add, array_node(la), dag::make_scalar(DType::Int64, one), DType::Int64, {m - 1}), DType::Int64,
            {m - 1});
        copy_buffer_bytes(bb, 8, shifted.as<ArrayObj>()->buffer, 0, size_t(m - 1) * 8);
    }
    copy_buffer_bytes(bb, size_t(m) * 8, one_int(n).as<ArrayObj>()->buffer, 0, 8);
    const int64_t* starts = reinterpret_cast<const int64_t*>(bb.device_read_bytes());
    int64_t bad = 0;
    auto gather = [&](const BufferRef& from, DType dt) {
        Value out = new_array(dt, {m});
        if (!be->gather(starts, m, reinterpret_cast<const char*>(from.device_read_bytes()), n, int64_t(itemsize(dt)), itemsize(dt),
                        reinterpret_cast<char*>(out.as<ArrayObj>()->buffer.device_bytes()), &bad))
            throw std::logic_error("unique: the device gather is missing");
        return out;
    };
    Value values = gather(sb, t);
    Value index = w.index ? gather(pb, DType::Int64) : Value::none();
    Value counts = Value::none();
    if (w.counts) {
        dag::NodeP hi = dag::make_input(bb, DType::Int64, {m}, {8}, 8), lo = dag::make_input(bb, DType::Int64, {m}, {8}, 0);
        counts = compute_into_new(dag::make_binary(dag::BinaryOp::Sub, hi, lo, DType::Int64, {m}), DType::Int64, {m});
    }
    Value inverse = Value::none();
    if (w.inverse) {
        // Run number of sorted[k]: 0, then the running count of run starts.
        Value run = new_array(DType::Int64, {n});
        const BufferRef& rb = run.as<ArrayObj>()->buffer;
        copy_buffer_bytes(rb, 0, one_int(0).as<ArrayObj>()->buffer, 0, 8);
        Value f64 = compute_into_new(dag::make_cast(array_node(flags.as<ArrayObj>()), DType::Int64), DType::Int64, {n - 1});
        copy_buffer_bytes(rb, 8, f64.as<ArrayObj>()->buffer, 0, size_t(n - 1) * 8);
        if (!be->scan(DeviceScanOp::Sum, DeviceScanType::Int64, rb.device_bytes(), rb.device_bytes(), 1, n, 1))
            throw std::logic_error("unique: the device scan is missing");
        inverse = new_array(DType::Int64, x->shape);
        if (!be->scatter(reinterpret_cast<const int64_t*>(pb.device_read_bytes()), n,
                         reinterpret_cast<char*>(inverse.as<ArrayObj>()->buffer.device_bytes()), n, 8, 8,
                         reinterpret_cast<const char*>(rb.device_read_bytes()), false, &bad))
            throw std::logic_error("unique: the device scatter is missing");
    }
    return unique_result(values, w, index, inverse, counts);
}

// unique over the flattened array; the inverse has the input's shape (NumPy 2).
Value unique_flat(ArrayObj* x, const UniqueWants& w) {
    materialize(x);
    if (Value r = unique_on_device(x, w); !r.is_undef()) return r;
    if (Value r = unique_variants_on_device(x, w); !r.is_undef()) return r;
    Value c = contiguous_as(x, x->dtype);
    int64_t n = x->size();
    return with_elem(x->dtype, [&](auto e) {
        using E = decltype(e);
        const auto* v = typed<typename E::T>(c);
        Groups<E> g = group_equal<E>(v, n, w.equal_nan);
        Value index = new_array(DType::Int64, {g.count()}), counts = new_array(DType::Int64, {g.count()});
        Value inverse = new_array(DType::Int64, x->shape);
        int64_t *pi = typed_out<int64_t>(index), *pc = typed_out<int64_t>(counts), *pv = typed_out<int64_t>(inverse);
        for (int64_t k = 0; k < g.count(); ++k) {
            pi[k] = g.first(k);
            pc[k] = g.size(k);
            for (int64_t j = g.starts[size_t(k)]; j < g.starts[size_t(k) + 1]; ++j) pv[g.items[size_t(j)].index] = k;
        }
        return unique_result(group_values(g, v, x->dtype), w, index, inverse, counts);
    });
}

// unique of the slices along `axis`, compared element by element (lexicographic
// order; slices holding NaN never equal, as NumPy's).
Value unique_axis(ArrayObj* x, int axis, const UniqueWants& w) {
    materialize(x);
    // The array with `axis` first, as a C-contiguous (n, m) table.
    dag::Shape shape{x->shape[size_t(axis)]};
    std::vector<int64_t> strides{x->strides[size_t(axis)]};
    for (int d = 0; d < x->ndim(); ++d)
        if (d != axis) {
            shape.push_back(x->shape[size_t(d)]);
            strides.push_back(x->strides[size_t(d)]);
        }
    Value moved = array_from_buffer(x->buffer, x->dtype, shape, strides, x->offset);
    Value c = contiguous_as(moved.as<ArrayObj>(), x->dtype);
    int64_t n = shape[0], m = n ? x->size() / n : 0;
    return with_elem(x->dtype, [&](auto e) {
        using E = decltype(e);
        using T = typename E::T;
        using K = typename E::K;
        const T* v = typed<T>(c);
        std::vector<K> keys(size_t(n * m));
        for (int64_t i = 0; i < n * m; ++i) keys[size_t(i)] = E::key(v[i]);
        auto row = [&](int64_t r) { return keys.begin() + r * m; };
        std::vector<int64_t> order(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) order[size_t(i)] = i;
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
            return std::lexicographical_compare(row(a), row(a) + m, row(b), row(b) + m);
        });
        auto same = [&](int64_t a, int64_t b) {
            for (int64_t j = 0; j < m; ++j)
                if (row(a)[j] != row(b)[j] || is_nan_key<E>(row(a)[j])) return false;
            return true;
        };
        std::vector<int64_t> firsts, counts_v, inverse_v(static_cast<size_t>(n));
        for (int64_t j = 0; j < n; ++j) {
            if (j == 0 || !same(order[size_t(j)], order[size_t(j) - 1])) {
                firsts.push_back(order[size_t(j)]);
                counts_v.push_back(0);
            }
            ++counts_v.back();
            inverse_v[size_t(order[size_t(j)])] = int64_t(firsts.size()) - 1;
        }
        dag::Shape ushape = shape;
        ushape[0] = int64_t(firsts.size());
        Value u = new_array(x->dtype, ushape);
        T* o = typed_out<T>(u);
        for (size_t k = 0; k < firsts.size(); ++k) std::copy(v + firsts[k] * m, v + (firsts[k] + 1) * m, o + int64_t(k) * m);
        // Move the first axis back to `axis` (a view, as NumPy's moveaxis).
        ArrayObj* ua = u.as<ArrayObj>();
        dag::Shape rshape(ua->shape.begin() + 1, ua->shape.end());
        std::vector<int64_t> rstrides(ua->strides.begin() + 1, ua->strides.end());
        rshape.insert(rshape.begin() + axis, ua->shape[0]);
        rstrides.insert(rstrides.begin() + axis, ua->strides[0]);
        Value values = array_from_buffer(ua->buffer, ua->dtype, rshape, rstrides, 0);
        return unique_result(values, w, int64_array(firsts), int64_array(inverse_v), int64_array(counts_v));
    });
}

Value np_unique(Interp& in, CallArgs& a) {
    if (complex_argument(in, a, 0, "ar")) return call_numpy_py(in, "_complex_unique", a);
    const Value* ar = arg(a, 0, "ar");
    if (!ar) raise(types::TypeError, "unique() missing required argument 'ar' (pos 0)");
    UniqueWants w;
    if (const Value* v = arg(a, 1, "return_index")) w.index = truthy(*v);
    if (const Value* v = arg(a, 2, "return_inverse")) w.inverse = truthy(*v);
    if (const Value* v = arg(a, 3, "return_counts")) w.counts = truthy(*v);
    if (const Value* v = kwarg(a, "equal_nan")) w.equal_nan = truthy(*v);
    Value x = as_array_value(in, *ar);
    ArrayObj* xa = x.as<ArrayObj>();
    const Value* axis = arg_not_none(a, 4, "axis");
    if (!axis) return unique_flat(xa, w);
    return unique_axis(xa, normalize_axis(to_index(*axis), xa->ndim()), w);
}

// ---- operations on two sets ----

DType common_dtype(const Value& x, const Value& y) { return promote_types(x.as<ArrayObj>()->dtype, y.as<ArrayObj>()->dtype); }

// The sorted distinct elements of x (flattened) in dtype t.
Value unique_values(ArrayObj* x, DType t) {
    Value c = contiguous_as(x, t);
    UniqueWants w;
    return unique_flat(c.as<ArrayObj>(), w);
}

// isin(element, test): element's shape, in the dtype both promote to.
Value isin_mask(Interp& in, const Value& element, const Value& test, bool invert) {
    Value e = as_array_value(in, element), s = as_array_value(in, test);
    DType t = common_dtype(e, s);
    Value ec = contiguous_as(e.as<ArrayObj>(), t), sc = contiguous_as(s.as<ArrayObj>(), t);
    Value out = new_array(DType::Bool, e.as<ArrayObj>()->shape);
    uint8_t* o = typed_out<uint8_t>(out);
    with_elem(t, [&](auto tag) {
        using E = decltype(tag);
        using K = typename E::K;
        const auto* sv = typed<typename E::T>(sc);
        std::vector<K> keys(size_t(s.as<ArrayObj>()->size())), tmp(keys.size());
        for (size_t i = 0; i < keys.size(); ++i) keys[i] = E::key(sv[i]);
        stable_sort_by_key(keys.data(), tmp.data(), int64_t(keys.size()), [](K k) { return k; });
        const auto* ev = typed<typename E::T>(ec);
        parallel_for(e.as<ArrayObj>()->size(), 4096, [&](int64_t b, int64_t end) {
            for (int64_t i = b; i < end; ++i) {
                K k = E::key(ev[i]);
                bool found = !is_nan_key<E>(k) && std::binary_search(keys.begin(), keys.end(), k);
                o[i] = found != invert;
            }
        });
    });
    return out;
}

// isin's kind= (NumPy's _isin): 'sort' and 'table' give the same values as
// the default, but 'table' only takes integers and builds a table over
// max(test) - min(test), with NumPy's errors when that cannot be.
void check_isin_kind(Interp& in, const Value& kind, const Value& element, const Value& test) {
    std::string k = is_kind(kind, OK::Str) ? kind.as<StrObj>()->s : "";
    if (k != "sort" && k != "table")
        raise(types::ValueError, "Invalid kind: '" + (is_kind(kind, OK::Str) ? k : to_str(in, kind)) + "'. Please use None, 'sort' or 'table'.");
    if (k != "table") return;
    Value x = as_array_value(in, element), y = as_array_value(in, test);
    DType tx = x.as<ArrayObj>()->dtype, ty = y.as<ArrayObj>()->dtype;
    if (!(is_integer(tx) || tx == DType::Bool) || !(is_integer(ty) || ty == DType::Bool))
        raise(types::ValueError, "The 'table' method is only supported for boolean or integer arrays. Please select 'sort' or None for kind.");
    ArrayObj* ya = y.as<ArrayObj>();
    if (ya->size() == 0) return;
    Value flat = contiguous_as(ya, ty);
    HostArrayView h = host_view(flat.as<ArrayObj>());
    __int128 lo = 0, hi = 0;
    for (int64_t i = 0; i < ya->size(); ++i) {
        const uint8_t* p = h.data + i * int64_t(itemsize(ty));
        __int128 v = ty == DType::UInt64 ? __int128(*reinterpret_cast<const uint64_t*>(p)) : __int128(element_to_python(ya, p).as_int());
        if (i == 0 || v < lo) lo = v;
        if (i == 0 || v > hi) hi = v;
    }
    __int128 range = hi - lo;
    // (bool tests count as uint8, as NumPy converts them)
    int bits = ty == DType::Bool ? 8 : int(itemsize(ty)) * 8;
    __int128 dtype_max = gpy::kind(ty) == DKind::Int ? (__int128(1) << (bits - 1)) - 1 : (__int128(1) << bits) - 1;
    if (range > dtype_max)
        raise(types::RuntimeError, "You have specified kind='table', but the range of values in `ar2` or `ar1` exceed the maximum integer of the datatype. Please set `kind` to None or 'sort'.");
    if (range + 1 > INT64_MAX) raise(types::ValueError, "Maximum allowed dimension exceeded");
    (void)new_array(DType::Bool, {int64_t(range + 1)});  // NumPy's table: a MemoryError where it cannot be made
}

Value np_isin(Interp& in, CallArgs& a) {
    if (complex_argument(in, a, 0, "element") || complex_argument(in, a, 1, "test_elements")) return call_numpy_py(in, "_complex_isin", a);
    const Value* element = arg(a, 0, "element");
    const Value* test = arg(a, 1, "test_elements");
    if (!element || !test) raise(types::TypeError, "isin() missing required argument 'test_elements' (pos 1)");
    const Value* invert = arg(a, 3, "invert");
    if (const Value* kind = kwarg(a, "kind"); kind && !kind->is_none()) check_isin_kind(in, *kind, *element, *test);
    return isin_mask(in, *element, *test, invert && truthy(*invert));
}

struct TwoSets {
    Value x, y;
    DType t;
};

TwoSets two_sets(Interp& in, CallArgs& a, const char* fname) {
    const Value* x = arg(a, 0, "ar1");
    const Value* y = arg(a, 1, "ar2");
    if (!x || !y) raise(types::TypeError, std::string(fname) + "() missing required argument 'ar2' (pos 1)");
    TwoSets s{as_array_value(in, *x), as_array_value(in, *y), DType::Bool};
    s.t = common_dtype(s.x, s.y);
    return s;
}

// x and y flattened end to end, in dtype t.
Value concat_flat(ArrayObj* x, ArrayObj* y, DType t) {
    Value cx = contiguous_as(x, t), cy = contiguous_as(y, t);
    size_t nx = size_t(x->size()) * itemsize(t), ny = size_t(y->size()) * itemsize(t);
    Value out = new_array(t, {x->size() + y->size()});
    const BufferRef& o = out.as<ArrayObj>()->buffer;
    copy_buffer_bytes(o, 0, cx.as<ArrayObj>()->buffer, size_t(cx.as<ArrayObj>()->offset), nx);
    copy_buffer_bytes(o, nx, cy.as<ArrayObj>()->buffer, size_t(cy.as<ArrayObj>()->offset), ny);
    return out;
}

// assume_unique= only promises what unique() would establish: both are accepted
// and ignored.
Value np_intersect1d(Interp& in, CallArgs& a) {
    if (complex_argument(in, a, 0, "ar1") || complex_argument(in, a, 1, "ar2")) return call_numpy_py(in, "_complex_intersect1d", a);
    TwoSets s = two_sets(in, a, "intersect1d");
    const Value* ri = arg(a, 3, "return_indices");
    bool want_indices = ri && truthy(*ri);
    ArrayObj *x = s.x.as<ArrayObj>(), *y = s.y.as<ArrayObj>();
    Value cx = contiguous_as(x, s.t), cy = contiguous_as(y, s.t);
    return with_elem(s.t, [&](auto tag) {
        using E = decltype(tag);
        using T = typename E::T;
        const T *vx = typed<T>(cx), *vy = typed<T>(cy);
        Groups<E> gx = group_equal<E>(vx, x->size(), true), gy = group_equal<E>(vy, y->size(), true);
        std::vector<int64_t> ix, iy;
        for (int64_t i = 0, j = 0; i < gx.count() && j < gy.count();) {
            auto kx = gx.items[size_t(gx.starts[size_t(i)])].key, ky = gy.items[size_t(gy.starts[size_t(j)])].key;
            if (kx < ky) ++i;
            else if (ky < kx) ++j;
            else {
                if (!is_nan_key<E>(kx)) {  // NumPy compares with ==
                    ix.push_back(gx.first(i));
                    iy.push_back(gy.first(j));
                }
                ++i, ++j;
            }
        }
        Value values = new_array(s.t, {int64_t(ix.size())});
        T* o = typed_out<T>(values);
        for (size_t k = 0; k < ix.size(); ++k) o[k] = vx[ix[k]];
        if (!want_indices) return values;
        return make_tuple({values, int64_array(ix), int64_array(iy)});
    });
}

Value np_union1d(Interp& in, CallArgs& a) {
    if (complex_argument(in, a, 0, "ar1") || complex_argument(in, a, 1, "ar2")) return call_numpy_py(in, "_complex_union1d", a);
    TwoSets s = two_sets(in, a, "union1d");
    // NumPy concatenates the inputs as given: a Python scalar is weak
    // (union1d(-2**62, int32 array) is int32, the scalar wrapped).
    auto kind = [&](const Value& v) {
        bool seq = as_array(v) || is_kind(v, OK::List) || is_kind(v, OK::Tuple);
        return seq ? Operand::array(as_array_value(in, v).as<ArrayObj>()->dtype) : operand_of(v);
    };
    Operand ops[2] = {kind(*arg(a, 0, "ar1")), kind(*arg(a, 1, "ar2"))};
    s.t = result_type(ops);
    Value both = concat_flat(s.x.as<ArrayObj>(), s.y.as<ArrayObj>(), s.t);
    return unique_values(both.as<ArrayObj>(), s.t);
}

Value np_setdiff1d(Interp& in, CallArgs& a) {
    if (complex_argument(in, a, 0, "ar1") || complex_argument(in, a, 1, "ar2")) return call_numpy_py(in, "_complex_setdiff1d", a);
    TwoSets s = two_sets(in, a, "setdiff1d");
    ArrayObj* x = s.x.as<ArrayObj>();
    Value u = unique_values(x, x->dtype);  // NumPy keeps ar1's dtype
    return array_getitem(in, u, isin_mask(in, u, s.y, true));
}

// Elements in exactly one of the two sets: after concatenating their distinct
// elements, the singleton runs (each NaN is one: NumPy compares with !=).
Value np_setxor1d(Interp& in, CallArgs& a) {
    if (complex_argument(in, a, 0, "ar1") || complex_argument(in, a, 1, "ar2")) return call_numpy_py(in, "_complex_setxor1d", a);
    TwoSets s = two_sets(in, a, "setxor1d");
    Value ux = unique_values(s.x.as<ArrayObj>(), s.t), uy = unique_values(s.y.as<ArrayObj>(), s.t);
    Value both = concat_flat(ux.as<ArrayObj>(), uy.as<ArrayObj>(), s.t);
    return with_elem(s.t, [&](auto tag) {
        using E = decltype(tag);
        using T = typename E::T;
        const T* v = typed<T>(both);
        Groups<E> g = group_equal<E>(v, both.as<ArrayObj>()->size(), false);
        std::vector<int64_t> kept;
        for (int64_t k = 0; k < g.count(); ++k)
            if (g.size(k) == 1) kept.push_back(g.first(k));
        Value out = new_array(s.t, {int64_t(kept.size())});
        T* o = typed_out<T>(out);
        for (size_t k = 0; k < kept.size(); ++k) o[k] = v[kept[k]];
        return out;
    });
}

const FunctionSpec kFunctions[] = {
    {"unique", np_unique, "unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True)", "Find the sorted unique elements of an array."},
    {"isin", np_isin, "isin(element, test_elements, assume_unique=False, invert=False, *, kind=None)", "Whether each element is in test_elements (element's shape)."},
    {"intersect1d", np_intersect1d, "intersect1d(ar1, ar2, assume_unique=False, return_indices=False)", "Find the intersection of two arrays."},
    {"union1d", np_union1d, "union1d(ar1, ar2)", "Find the union of two arrays."},
    {"setdiff1d", np_setdiff1d, "setdiff1d(ar1, ar2, assume_unique=False)", "Find the set difference of two arrays."},
    {"setxor1d", np_setxor1d, "setxor1d(ar1, ar2, assume_unique=False)", "Find the set exclusive-or of two arrays."},
};

}  // namespace

void add_set_functions(Interp& in, ModuleObj* m) {
    add_functions(m, kFunctions);
}

}  // namespace gpy
