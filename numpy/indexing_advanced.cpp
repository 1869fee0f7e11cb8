// Advanced indexing: integer and boolean arrays, mixed with integers, slices,
// `...` and None, with NumPy's rules. A boolean array of k dims stands for
// its k nonzero() integer arrays; a 0-d bool for an integer array [0] or []
// on a new length-1 axis. The index arrays (and integers) broadcast to one
// shape B; the result is the non-indexed dims with B inserted where the first
// advanced index was when all advanced indices are adjacent, else in front.
//
// The selection is computed on the host as three offset tables (outer dims,
// B, inner dims); every selected element is base + outer[o] + adv[b] + inner[i].
#include <algorithm>
#include <atomic>
#include <cstring>

#include "runtime/backend.h"
#include "runtime/thread_pool.h"
#include "numpy/dtype_dispatch.h"
#include "numpy/indexing.h"
#include "numpy/sort_keys.h"  // flat_nonzero, int64_array
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

namespace {

struct Dim {
    int64_t size, stride;
};

// One integer index array on one axis of the indexed array. (An integer
// index moves the base offset; as a 0-d array it broadcasts away.)
struct AdvIndex {
    Value arr;              // a materialised integer array
    int64_t size, stride;   // the axis indexed
    int axis;               // for error messages (a new axis counts as none)
};

struct Plan {
    int64_t base = 0;                 // bytes into the buffer
    std::vector<Dim> outer, inner;    // non-indexed dims before / after B
    Shape bshape;                     // the broadcast shape of the index arrays
    std::vector<int64_t> adv;         // byte offset per position of B (row-major)
    Shape shape() const {
        Shape s;
        for (auto& d : outer) s.push_back(d.size);
        s.insert(s.end(), bshape.begin(), bshape.end());
        for (auto& d : inner) s.push_back(d.size);
        return s;
    }
};

[[noreturn]] void out_of_bounds(int64_t i, int axis, int64_t n) {
    raise(types::IndexError, "index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                                 " with size " + std::to_string(n));
}

// The k integer arrays (nonzero coordinates) of a boolean index over axes
// [dim, dim + k).
void expand_mask(ArrayObj* a, ArrayObj* mask, int dim, std::vector<AdvIndex>& out) {
    int k = mask->ndim();
    // NumPy does not check an empty mask's shape (it selects nothing anyway).
    for (int j = 0; j < k && mask->size() > 0; ++j)
        if (mask->shape[size_t(j)] != a->shape[size_t(dim + j)])
            raise(types::IndexError, "boolean index did not match indexed array along axis " + std::to_string(dim + j) +
                                         "; size of axis is " + std::to_string(a->shape[size_t(dim + j)]) +
                                         " but size of corresponding boolean axis is " + std::to_string(mask->shape[size_t(j)]));
    std::vector<int64_t> flat = flat_nonzero(mask);
    int64_t inner = mask->size();
    for (int j = 0; j < k; ++j) {
        // Row-major coordinate j of each flat index (none when the mask is empty).
        int64_t n = mask->shape[size_t(j)];
        std::vector<int64_t> coord(flat.size());
        if (k == 1) {
            coord = std::move(flat);
        } else if (!flat.empty()) {
            inner /= n;
            for (size_t f = 0; f < flat.size(); ++f) coord[f] = flat[f] / inner % n;
        }
        out.push_back({int64_array(coord), a->shape[size_t(dim + j)], a->strides[size_t(dim + j)], dim + j});
    }
}

Shape broadcast_indices(const std::vector<AdvIndex>& adv) {
    Shape b;
    bool ok = true;
    for (auto& e : adv) {
        const Shape& s = e.arr.as<ArrayObj>()->shape;
        if (s.size() > b.size()) b.insert(b.begin(), s.size() - b.size(), 1);
        for (size_t k = 0; k < s.size(); ++k) {
            int64_t& d = b[b.size() - s.size() + k];
            int64_t x = s[k];
            if (d == 1) d = x;
            else if (x != 1 && x != d) ok = false;
        }
    }
    if (!ok) {
        std::string shapes;
        for (auto& e : adv) shapes += compact_shape_text(e.arr.as<ArrayObj>()->shape) + " ";
        raise(types::IndexError, "shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
    }
    return b;
}

// Adds index * stride of `e` (broadcast to b) to every entry of adv,
// checking the bounds as NumPy does: only positions that exist in B.
void add_offsets(const AdvIndex& e, const Shape& b, std::vector<int64_t>& adv) {
    if (adv.empty()) return;
    ArrayObj* x = e.arr.as<ArrayObj>();
    size_t nd = b.size();
    std::vector<int64_t> st(nd, 0);
    for (size_t k = 0; k < size_t(x->ndim()); ++k) {
        size_t d = nd - size_t(x->ndim()) + k;
        st[d] = x->shape[k] == 1 ? 0 : x->strides[k];
    }
    int64_t inner_n = nd ? b[nd - 1] : 1, inner_st = nd ? st[nd - 1] : 0;
    std::vector<int64_t> idx(nd, 0);
    const uint8_t* row = x->buffer.bytes() + x->offset;
    with_real_ctype(x->dtype, "index", [&](auto tag) {
        using T = decltype(tag);
        for (size_t pos = 0; pos < adv.size(); pos += size_t(inner_n)) {
            const uint8_t* p = row;
            for (int64_t i = 0; i < inner_n; ++i, p += inner_st) {
                // intp, as NumPy casts index arrays (huge uint64 values wrap negative).
                int64_t v = int64_t(*reinterpret_cast<const T*>(p));
                int64_t j = v < 0 ? v + e.size : v;
                if (j < 0 || j >= e.size) out_of_bounds(v, e.axis, e.size);
                adv[pos + size_t(i)] += j * e.stride;
            }
            for (size_t d = nd > 0 ? nd - 1 : 0; d-- > 0;) {
                row += st[d];
                if (++idx[d] < b[d]) break;
                row -= st[d] * b[d];
                idx[d] = 0;
            }
        }
    });
}

Plan make_plan(ArrayObj* a, const Index& ix) {
    using K = IndexItem::Kind;
    Plan p;
    p.base = a->offset;
    std::vector<Dim> sub;        // the non-indexed dims, in order
    std::vector<AdvIndex> adv;
    size_t insert_at = 0;
    // NumPy's rule: -1 no advanced index yet, 0 in a run of them, 1 after the
    // run, 2 a second run began (B goes first).
    int run = -1;
    int consumed = 0;
    for (auto& it : ix.items) consumed += it.consumed();
    int dim = 0;
    for (auto& it : ix.items) {
        bool advanced = it.kind == K::Int || it.kind == K::Array || it.kind == K::Bool0d;
        if (advanced && run == -1) {
            insert_at = sub.size();
            run = 0;
        } else if (advanced && run == 1) {
            run = 2;
        } else if (!advanced && run == 0) {
            run = 1;
        }
        switch (it.kind) {
            case K::NewAxis: sub.push_back({1, 0}); break;
            case K::Ellipsis:
                for (int k = 0; k < a->ndim() - consumed; ++k, ++dim) sub.push_back({a->shape[size_t(dim)], a->strides[size_t(dim)]});
                break;
            case K::Slice: {
                int64_t b, e, st, cnt;
                it.v.as<SliceObj>()->indices(a->shape[size_t(dim)], b, e, st, cnt);
                sub.push_back({cnt, cnt <= 1 ? a->strides[size_t(dim)] : a->strides[size_t(dim)] * st});  // see basic indexing
                if (cnt > 0) p.base += b * a->strides[size_t(dim)];
                ++dim;
                break;
            }
            case K::Int: {
                int64_t n = a->shape[size_t(dim)];
                int64_t j = it.i < 0 ? it.i + n : it.i;
                if (j < 0 || j >= n) out_of_bounds(it.i, dim, n);
                p.base += j * a->strides[size_t(dim)];
                ++dim;
                break;
            }
            case K::Bool0d:
                adv.push_back({new_array(DType::Int64, {it.i ? 1 : 0}, true), 1, 0, dim});
                break;
            case K::Array: {
                ArrayObj* x = it.v.as<ArrayObj>();
                if (x->dtype == DType::Bool) {
                    expand_mask(a, x, dim, adv);
                    dim += x->ndim();
                } else {
                    adv.push_back({it.v, a->shape[size_t(dim)], a->strides[size_t(dim)], dim});
                    ++dim;
                }
                break;
            }
        }
    }
    for (; dim < a->ndim(); ++dim) sub.push_back({a->shape[size_t(dim)], a->strides[size_t(dim)]});
    if (run == 2) insert_at = 0;
    p.outer.assign(sub.begin(), sub.begin() + long(insert_at));
    p.inner.assign(sub.begin() + long(insert_at), sub.end());
    p.bshape = broadcast_indices(adv);
    int64_t nb = 1;
    for (int64_t d : p.bshape) nb *= d;
    p.adv.assign(size_t(nb), 0);
    for (auto& e : adv) add_offsets(e, p.bshape, p.adv);
    return p;
}

// Row-major byte offsets of the elements of dims.
std::vector<int64_t> dim_offsets(const std::vector<Dim>& dims) {
    std::vector<int64_t> offs{0};
    for (auto& d : dims) {
        std::vector<int64_t> next;
        next.reserve(offs.size() * size_t(d.size));
        for (int64_t o : offs)
            for (int64_t i = 0; i < d.size; ++i) next.push_back(o + i * d.stride);
        offs = std::move(next);
    }
    return offs;
}

// The selection's element offsets, split as in Plan: element
// (o, b, i) of the selection is at base + outer[o] + adv[b] + inner[i].
struct Offsets {
    uint8_t* base;
    std::vector<int64_t> outer, inner;
    const std::vector<int64_t>* adv;
    bool block;  // inner[i] == i * itemsize: each row is one contiguous run
};

// Rows [begin, end) of the selection (row r = (o, b)) between the array and
// the contiguous run `c`, elements of N bytes.
template <size_t N>
void transfer_rows(const Offsets& x, uint8_t* c, bool gather, int64_t begin, int64_t end) {
    int64_t nb = int64_t(x.adv->size()), ni = int64_t(x.inner.size());
    const int64_t* inner = x.inner.data();
    const int64_t* adv = x.adv->data();
    if (ni == 1 && x.outer.size() == 1) {
        // One gathered element per index (np.take, x[idx] of a 1-d x): a
        // plain indexed loop (was 3.6x NumPy's time with the general one).
        uint8_t* at = x.base + x.outer[0] + inner[0];
        for (int64_t r = begin; r < end; ++r) {
            if (gather) std::memcpy(c + r * int64_t(N), at + adv[r], N);
            else std::memcpy(at + adv[r], c + r * int64_t(N), N);
        }
        return;
    }
    // Row r is (o, b) = (r / nb, r % nb), stepped as counters: a division
    // per row cost more than the copy.
    int64_t o = begin / nb, b = begin % nb;
    for (int64_t r = begin; r < end; ++r) {
        uint8_t* at = x.base + x.outer[size_t(o)] + adv[b];
        if (++b == nb) b = 0, ++o;
        uint8_t* row = c + r * ni * int64_t(N);
        if (x.block && ni > 1) {
            if (gather) std::memcpy(row, at, size_t(ni) * N);
            else std::memcpy(at, row, size_t(ni) * N);
            continue;
        }
        for (int64_t i = 0; i < ni; ++i) {
            if (gather) std::memcpy(row + i * int64_t(N), at + inner[i], N);
            else std::memcpy(at + inner[i], row + i * int64_t(N), N);
        }
    }
}

// Moves every selected element between the indexed array and a contiguous
// array of the selection's shape: a gather runs in parallel; a scatter runs
// in order, so that the last of repeated indices wins.
void transfer(ArrayObj* a, const Plan& p, uint8_t* contiguous, bool gather) {
    size_t isz = itemsize(a->dtype);
    Offsets x{a->buffer.bytes() + p.base, dim_offsets(p.outer), dim_offsets(p.inner), &p.adv, true};
    int64_t ni = int64_t(x.inner.size());
    int64_t rows = int64_t(x.outer.size()) * int64_t(p.adv.size());
    if (rows == 0 || ni == 0) return;
    for (int64_t i = 0; i < ni && x.block; ++i) x.block = x.inner[size_t(i)] == i * int64_t(isz);
    auto run = [&](int64_t begin, int64_t end) {
        switch (isz) {
            case 1: transfer_rows<1>(x, contiguous, gather, begin, end); break;
            case 2: transfer_rows<2>(x, contiguous, gather, begin, end); break;
            case 4: transfer_rows<4>(x, contiguous, gather, begin, end); break;
            case 8: transfer_rows<8>(x, contiguous, gather, begin, end); break;
            default: transfer_rows<16>(x, contiguous, gather, begin, end); break;
        }
    };
    if (gather) parallel_for(rows, std::max<int64_t>(1, 16384 / ni), run);
    else run(0, rows);
}

}  // namespace

std::vector<int64_t> flat_offsets(const ArrayObj* a) {
    std::vector<Dim> dims;
    for (int d = 0; d < a->ndim(); ++d) dims.push_back({a->shape[size_t(d)], a->strides[size_t(d)]});
    std::vector<int64_t> offs = dim_offsets(dims);
    for (int64_t& o : offs) o += a->offset;
    return offs;
}

namespace {

template <size_t N>
void compact_chunk(const uint8_t* src, const uint8_t* mask, int64_t lo, int64_t hi, uint8_t* out) {
    for (int64_t i = lo; i < hi; ++i)
        if (mask[i]) {
            std::memcpy(out, src + i * int64_t(N), N);
            out += N;
        }
}

// x[mask] with a C-contiguous mask of x's full shape over C-contiguous x: a
// parallel compaction (count the Trues per chunk, then each chunk copies to
// its offset) instead of building an offset table. Null when not applicable.
Value full_mask_get(ArrayObj* a, const Index& ix) {
    if (ix.items.size() != 1 || ix.items[0].kind != IndexItem::Kind::Array) return Value();
    ArrayObj* m = as_array(ix.items[0].v);
    if (!m || m->dtype != DType::Bool || m->shape != a->shape || a->ndim() == 0) return Value();
    materialize(m);
    if (!a->c_contiguous() || !m->c_contiguous()) return Value();
    size_t item = itemsize(a->dtype);
    if (item != 1 && item != 2 && item != 4 && item != 8 && item != 16) return Value();
    // Device arrays compact on the device (runtime/select_cuda.h).
    if (Backend* be = array_backend(); be && a->buffer && a->buffer->device == DeviceKind::CUDA && m->buffer &&
                                       m->buffer->device == DeviceKind::CUDA && uint64_t(a->size()) < (uint64_t(1) << 32)) {
        Value out;
        int64_t count = 0;
        auto alloc = [&](int64_t k) -> void* {
            out = new_array(a->dtype, {k});
            return out.as<ArrayObj>()->buffer.device_bytes();
        };
        if (be->select(m->buffer.device_bytes() + m->offset, 1, false, a->size(), a->buffer.device_bytes() + a->offset, item, alloc,
                       &count))
            return out;
    }
    const uint8_t* src = a->buffer.bytes() + a->offset;
    const uint8_t* mask = m->buffer.bytes() + m->offset;
    int64_t n = a->size();
    constexpr int64_t kChunk = int64_t(1) << 16;
    int64_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<int64_t> start(size_t(chunks) + 1, 0);
    parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) {
            int64_t count = 0;
            for (int64_t i = c * kChunk, hi = std::min(n, (c + 1) * kChunk); i < hi; ++i) count += mask[i] != 0;
            start[size_t(c) + 1] = count;
        }
    });
    for (int64_t c = 0; c < chunks; ++c) start[size_t(c) + 1] += start[size_t(c)];
    Value out = new_array(a->dtype, {start.back()});
    uint8_t* dst = out.as<ArrayObj>()->buffer.bytes();
    parallel_for(chunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) {
            int64_t lo = c * kChunk, hi = std::min(n, (c + 1) * kChunk);
            uint8_t* o = dst + start[size_t(c)] * int64_t(item);
            switch (item) {
                case 1: compact_chunk<1>(src, mask, lo, hi, o); break;
                case 2: compact_chunk<2>(src, mask, lo, hi, o); break;
                case 4: compact_chunk<4>(src, mask, lo, hi, o); break;
                case 8: compact_chunk<8>(src, mask, lo, hi, o); break;
                default: compact_chunk<16>(src, mask, lo, hi, o); break;
            }
        }
    });
    return out;
}

}  // namespace

// x[idx] of a 1-d x by one C-contiguous integer array: each element read
// straight through its index (no offset table: np.take of 2^22 indices was
// 2.5x NumPy's time building one). Chunks run in parallel; a bad index
// raises NumPy's IndexError for the first one in order. Undef when the
// index is not of this form.
Value gather_1d(ArrayObj* a, const Index& ix) {
    if (a->ndim() != 1 || ix.items.size() != 1 || ix.items[0].kind != IndexItem::Kind::Array) return Value();
    ArrayObj* x = ix.items[0].v.as<ArrayObj>();
    if (x->dtype == DType::Bool || !is_integer(x->dtype) || !x->c_contiguous()) return Value();
    Value out = new_array(a->dtype, x->shape);
    const int64_t n = a->shape[0], stride = a->strides[0], count = x->size();
    // Device arrays gather on the device (int64 indices, cast there first).
    if (Backend* be = array_backend(); be && a->buffer && a->buffer->device == DeviceKind::CUDA) {
        Value ix = contiguous_as(x, DType::Int64);
        ArrayObj* xi = ix.as<ArrayObj>();
        int64_t first_bad = count;
        if (xi->buffer && xi->buffer->device == DeviceKind::CUDA &&
            be->gather(reinterpret_cast<const int64_t*>(xi->buffer.device_bytes() + xi->offset), count,
                       reinterpret_cast<const char*>(a->buffer.device_bytes() + a->offset), n, stride, itemsize(a->dtype),
                       reinterpret_cast<char*>(out.as<ArrayObj>()->buffer.device_bytes()), &first_bad)) {
            if (first_bad < count) out_of_bounds(reinterpret_cast<const int64_t*>(xi->buffer.bytes() + xi->offset)[first_bad], 0, n);
            return out;
        }
    }
    const uint8_t* src = a->buffer.bytes() + a->offset;
    uint8_t* dst = out.as<ArrayObj>()->buffer.bytes();
    const uint8_t* idx = x->buffer.bytes() + x->offset;
    std::atomic<int64_t> first_bad{count};
    with_real_ctype(x->dtype, "index", [&](auto tag) {
        using T = decltype(tag);
        // Locals and restrict pointers: the element stores may not alias
        // the index loads (through a closure, each store reloaded them).
        auto copy = [&first_bad, n, stride]<class E>(const T* __restrict ip, const uint8_t* __restrict sp, E* __restrict dp,
                                                          int64_t begin, int64_t end) {
            for (int64_t k = begin; k < end; ++k) {
                int64_t v = int64_t(ip[k]);  // intp, as NumPy casts index arrays
                int64_t j = v < 0 ? v + n : v;
                if (j < 0 || j >= n) {
                    int64_t seen = first_bad.load();
                    while (k < seen && !first_bad.compare_exchange_weak(seen, k)) {}
                    return;
                }
                std::memcpy(dp + k, sp + j * stride, sizeof(E));
            }
        };
        struct Bytes16 {
            uint64_t w[2];
        };
        const T* ip = reinterpret_cast<const T*>(idx);
        parallel_for(count, 16384, [&](int64_t begin, int64_t end) {
            switch (itemsize(a->dtype)) {
                case 1: copy(ip, src, reinterpret_cast<uint8_t*>(dst), begin, end); break;
                case 2: copy(ip, src, reinterpret_cast<uint16_t*>(dst), begin, end); break;
                case 4: copy(ip, src, reinterpret_cast<uint32_t*>(dst), begin, end); break;
                case 8: copy(ip, src, reinterpret_cast<uint64_t*>(dst), begin, end); break;
                default: copy(ip, src, reinterpret_cast<Bytes16*>(dst), begin, end); break;
            }
        });
        if (int64_t k = first_bad.load(); k < count) out_of_bounds(int64_t(reinterpret_cast<const T*>(idx)[k]), 0, n);
    });
    return out;
}

// x[idx] = values of a 1-d device array x by one integer index array: the
// form the device scatters.
static bool scatter_1d_form(ArrayObj* a, const Index& ix) {
    if (!array_backend() || a->ndim() != 1 || !a->buffer || a->buffer->device != DeviceKind::CUDA || ix.items.size() != 1 ||
        ix.items[0].kind != IndexItem::Kind::Array)
        return false;
    ArrayObj* x = ix.items[0].v.as<ArrayObj>();
    return x->dtype != DType::Bool && is_integer(x->dtype);
}

// x[idx] = values of that form on the device (runtime/gather_cuda.h);
// `values` has idx's shape and x's dtype, all equal when `uniform`. False:
// the host's.
static bool scatter_1d(ArrayObj* a, const Index& ix, ArrayObj* values, bool uniform) {
    Backend* be = array_backend();
    ArrayObj* x = ix.items[0].v.as<ArrayObj>();
    if (!values->c_contiguous()) return false;
    materialize(values);
    Value idx = contiguous_as(x, DType::Int64);
    // x[x] = v: the kernels would read indices the scatter is writing.
    if (idx.as<ArrayObj>()->buffer.get() == a->buffer.get()) idx = fresh_copy(idx.as<ArrayObj>());
    ArrayObj* xi = idx.as<ArrayObj>();
    if (!xi->buffer || xi->buffer->device != DeviceKind::CUDA || !values->buffer || values->buffer->device != DeviceKind::CUDA) return false;
    const int64_t n = a->shape[0], count = xi->size();
    int64_t first_bad = count;
    if (!be->scatter(reinterpret_cast<const int64_t*>(xi->buffer.device_bytes() + xi->offset), count,
                     reinterpret_cast<char*>(a->buffer.device_bytes() + a->offset), n, a->strides[0], itemsize(a->dtype),
                     reinterpret_cast<const char*>(values->buffer.device_bytes() + values->offset), uniform, &first_bad))
        return false;
    if (first_bad < count) out_of_bounds(reinterpret_cast<const int64_t*>(xi->buffer.bytes() + xi->offset)[first_bad], 0, n);
    return true;
}

Value advanced_get(ArrayObj* a, const Index& ix) {
    if (Value r = full_mask_get(a, ix); !r.is_undef()) return r;
    if (Value r = gather_1d(a, ix); !r.is_undef()) return r;
    Plan p = make_plan(a, ix);
    Value out = new_array(a->dtype, p.shape());
    transfer(a, p, out.as<ArrayObj>()->buffer.bytes(), true);
    return out;
}

void advanced_set(Interp& in, ArrayObj* a, const Index& ix, const Value& value) {
    // The device's scatter needs no plan (its offset table, built on the
    // host, took 100x the scatter's time).
    const bool device_form = scatter_1d_form(a, ix);
    Plan p;
    if (!device_form) p = make_plan(a, ix);
    Shape shape = device_form ? ix.items[0].v.as<ArrayObj>()->shape : p.shape();
    Value src = value;
    if (ArrayObj* s = as_array(value)) {
        const IndexItem& first = ix.items[0];
        bool full_mask = ix.items.size() == 1 && first.kind == IndexItem::Kind::Array &&
                         first.v.as<ArrayObj>()->dtype == DType::Bool && first.v.as<ArrayObj>()->ndim() == a->ndim();
        if (full_mask) {
            // NumPy's boolean-mask assignment: values fill the True places in order.
            if (s->ndim() > 1)
                raise(types::TypeError, "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has " +
                                            std::to_string(s->ndim()) + " dimensions");
            if (s->size() != 1 && s->size() != shape[0])
                raise(types::ValueError, "NumPy boolean array indexing assignment cannot assign " + std::to_string(s->size()) +
                                             " input values to the " + std::to_string(shape[0]) +
                                             " output values where the mask is true");
        } else {
            src = drop_leading_ones(value, shape.size());
            ArrayObj* d = src.as<ArrayObj>();
            bool ok = d->ndim() <= int(shape.size());
            for (size_t k = 0; ok && k < size_t(d->ndim()); ++k) {
                int64_t x = d->shape[k], t = shape[shape.size() - size_t(d->ndim()) + k];
                ok = x == 1 || x == t;
            }
            if (!ok)
                raise(types::ValueError, "shape mismatch: value array of shape " + compact_shape_text(s->shape) +
                                             " could not be broadcast to indexing result of shape " + compact_shape_text(shape));
        }
    }
    // The value broadcast and cast to the selection first: it may read a's
    // memory, and a Python scalar gets the scalar conversion checks even when
    // nothing is selected.
    Value full = new_array(a->dtype, shape);
    assign_array(in, full, src);
    flush_readers(a->buffer.get());
    if (device_form) {
        // All the same value: a scalar, or an array of one (a range or other
        // sequence is not uniform, though not an array here).
        ArrayObj* s = as_array(value);
        const bool uniform = s ? s->size() == 1 : value.is_number();
        if (scatter_1d(a, ix, full.as<ArrayObj>(), uniform)) return;
        p = make_plan(a, ix);
    }
    transfer(a, p, full.as<ArrayObj>()->buffer.bytes(), false);
}

}  // namespace gpy
