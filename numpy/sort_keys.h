// The machinery under sorting, searching and set operations: NumPy's sort
// order as unsigned integer keys, a stable radix sort, per-dtype dispatch,
// and the 1-D lanes of an array along an axis.
//
// NumPy orders floats with NaNs last and -0.0 == 0.0. Mapping each element to
// an unsigned key with that order (NaN -> all ones, -0.0 -> +0.0's key, sign
// flips) turns every comparison into an integer compare: keys are equal
// exactly when NumPy's sort sees the elements as equal (all NaNs alike), and
// an LSD radix sort over keys is a stable sort in NumPy's order.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <vector>

#include "runtime/search_cuda.h"
#include "runtime/thread_pool.h"
#include "numpy/array.h"
#include "numpy/dtype_dispatch.h"

namespace gpy {

template <class Value_, class Key_>
struct ElemBase {
    using T = Value_;
    using K = Key_;
    static constexpr bool has_nan = false;
};

// Each Elem<T> maps an element of C++ type T to its sort key (key) and, for
// sorting values fast, to an order-preserving bijection into the same
// unsigned type (bits/from_bits; for integers the key itself).
template <class T> struct Elem;
template <> struct Elem<bool> : ElemBase<bool, uint8_t> {
    static K key(T v) { return v; }
    static K bits(T v) { return v; }
    static T from_bits(K k) { return k != 0; }
};
template <class S, class U>
struct SignedElem : ElemBase<S, U> {
    static constexpr U kSign = U(1) << (sizeof(U) * 8 - 1);
    static U key(S v) { return U(v) ^ kSign; }
    static U bits(S v) { return key(v); }
    static S from_bits(U k) { return S(U(k ^ kSign)); }
};
template <> struct Elem<int8_t> : SignedElem<int8_t, uint8_t> {};
template <> struct Elem<int16_t> : SignedElem<int16_t, uint16_t> {};
template <> struct Elem<int32_t> : SignedElem<int32_t, uint32_t> {};
template <> struct Elem<int64_t> : SignedElem<int64_t, uint64_t> {};
template <class U>
struct UnsignedElem : ElemBase<U, U> {
    static U key(U v) { return v; }
    static U bits(U v) { return v; }
    static U from_bits(U k) { return k; }
};
template <> struct Elem<uint8_t> : UnsignedElem<uint8_t> {};
template <> struct Elem<uint16_t> : UnsignedElem<uint16_t> {};
template <> struct Elem<uint32_t> : UnsignedElem<uint32_t> {};
template <> struct Elem<uint64_t> : UnsignedElem<uint64_t> {};
// bits() orders -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
template <class F, class U>
struct FloatElem : ElemBase<F, U> {
    static constexpr bool has_nan = true;
    static constexpr U kSign = U(1) << (sizeof(U) * 8 - 1);
    static U bits(F v) {
        U b = std::bit_cast<U>(v);
        return (b & kSign) ? U(~b) : U(b | kSign);
    }
    static F from_bits(U k) { return std::bit_cast<F>((k & kSign) ? U(k ^ kSign) : U(~k)); }
    static U key(F v) {
        if (v != v) return U(~U(0));
        return bits(v == F(0) ? F(0) : v);
    }
};
template <> struct Elem<_Float16> : FloatElem<_Float16, uint16_t> {};
template <> struct Elem<float> : FloatElem<float, uint32_t> {};
template <> struct Elem<double> : FloatElem<double, uint64_t> {};

// True for the all-ones key: the one NaN maps to (and no other float does).
template <class E>
bool is_nan_key(typename E::K k) {
    return E::has_nan && k == typename E::K(~typename E::K(0));
}

// Calls f(Elem<T>{}) for the element type T of a real dtype; complex raises.
template <class F>
decltype(auto) with_elem(DType t, F&& f) {
    return with_real_ctype(t, "sorting and searching", [&](auto v) { return f(Elem<decltype(v)>{}); });
}

// The key bits that vary over items[0, n): the bit width of OR(key ^ key0).
template <class Item, class KeyFn>
int varying_bits(const Item* items, int64_t n, KeyFn key) {
    using K = decltype(key(items[0]));
    K first = key(items[0]), diff = 0;
    for (int64_t i = 1; i < n; ++i) diff |= K(key(items[i]) ^ first);
    return std::bit_width(diff);
}

// LSD radix sort of items[0, n) (n >= 1, n < 2^32) by the low `bits` bits of
// key(item), an unsigned integer, with `tmp` (n items) as scratch: `passes`
// digits of equal width, each stable. Returns where the result is (items or
// tmp: with an odd number of passes, tmp).
template <class Item, class KeyFn>
Item* radix_passes(Item* items, Item* tmp, int64_t n, KeyFn key, int bits, int passes) {
    if (bits == 0) return items;
    int width = (bits + passes - 1) / passes;
    uint32_t mask = (uint32_t(1) << width) - 1;
    std::vector<uint32_t> hist(size_t(passes) << width, 0);
    for (int64_t i = 0; i < n; ++i) {
        auto k = key(items[i]);
        for (int p = 0; p < passes; ++p) ++hist[(size_t(p) << width) + ((k >> (p * width)) & mask)];
    }
    Item *src = items, *dst = tmp;
    for (int p = 0; p < passes; ++p) {
        uint32_t* h = &hist[size_t(p) << width];
        uint32_t sum = 0;
        for (uint32_t b = 0; b <= mask; ++b) {
            uint32_t c = h[b];
            h[b] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < n; ++i) dst[h[(key(src[i]) >> (p * width)) & mask]++] = src[i];
        std::swap(src, dst);
    }
    return src;
}

// The fewest radix passes of at most 11 bits that cover `bits`.
inline int lsd_passes(int bits) { return (bits + 10) / 11; }
// Stable sort of items[0, n) by key(item), an unsigned integer; `tmp` holds n
// items of scratch. Short runs use std::stable_sort and runs up to 4 MiB an
// LSD radix sort over the key bits that vary (`bits`, when the caller knows
// them). Longer runs are first split (stably) by their top 11 varying bits
// into buckets that fit in cache, sorted in parallel: one pass over memory
// instead of one per digit.
template <class Item, class KeyFn>
void stable_sort_by_key(Item* items, Item* tmp, int64_t n, KeyFn key, int bits = -1) {
    if (n < 256) {
        std::stable_sort(items, items + n, [&](const Item& a, const Item& b) { return key(a) < key(b); });
        return;
    }
    if (bits < 0) bits = varying_bits(items, n, key);
    if (int64_t(sizeof(Item)) * n <= (int64_t(1) << 22) || bits <= 11) {
        Item* r = radix_passes(items, tmp, n, key, bits, lsd_passes(bits));
        if (r != items) std::memcpy(static_cast<void*>(items), r, size_t(n) * sizeof(Item));
        return;
    }
    // The split runs over chunks in parallel: each chunk counts its digits,
    // then scatters from offsets that put earlier chunks first (stable).
    int shift = bits - 11;
    int64_t chunks = std::clamp<int64_t>(n >> 16, 1, int64_t(num_threads()) * 4), per = (n + chunks - 1) / chunks;
    std::vector<int64_t> counts(size_t(chunks) * 2048, 0), start(2049, 0);
    // (Loop bounds and shift are copied to locals: through the captured
    // references the compiler would reload them after every store.)
    parallel_for(chunks, 1, [&, shift](int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) {
            int64_t* h = &counts[size_t(c) * 2048];
            const Item* src = items;
            for (int64_t i = c * per, e = std::min(n, (c + 1) * per); i < e; ++i) ++h[(key(src[i]) >> shift) & 2047];
        }
    });
    int64_t sum = 0;
    for (size_t b = 0; b < 2048; ++b) {
        start[b] = sum;
        for (int64_t c = 0; c < chunks; ++c) {
            int64_t k = counts[size_t(c) * 2048 + b];
            counts[size_t(c) * 2048 + b] = sum;
            sum += k;
        }
    }
    start[2048] = n;
    parallel_for(chunks, 1, [&, shift](int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) {
            int64_t* next = &counts[size_t(c) * 2048];
            const Item* src = items;
            Item* dst = tmp;
            for (int64_t i = c * per, e = std::min(n, (c + 1) * per); i < e; ++i) dst[next[(key(src[i]) >> shift) & 2047]++] = src[i];
        }
    });
    parallel_for(2048, 1, [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
            int64_t lo = start[size_t(b)], len = start[size_t(b) + 1] - lo;
            if (len == 0) continue;
            Item *src = tmp + lo, *dst = items + lo;
            if (len < 256 || int64_t(sizeof(Item)) * len > (int64_t(1) << 22)) {
                stable_sort_by_key(src, dst, len, key);
                std::memcpy(static_cast<void*>(dst), src, size_t(len) * sizeof(Item));
                continue;
            }
            // The bits above `shift` are the bucket's own: at most shift vary.
            if (radix_passes(src, dst, len, key, shift, lsd_passes(shift)) != dst)
                std::memcpy(static_cast<void*>(dst), src, size_t(len) * sizeof(Item));
        }
    });
}

// An element's key with the index it came from (argsort, unique, lexsort).
template <class K>
struct KeyIndex {
    K key;
    int64_t index;
};

// The 1-D lanes of an array along `axis`: byte offsets of each lane's first
// element (row-major over the other axes), its length and byte stride.
struct Lanes {
    std::vector<int64_t> offsets;
    int64_t length = 0;
    int64_t stride = 0;
};
Lanes lanes_along(const dag::Shape& shape, const std::vector<int64_t>& strides, int axis);

// Runs fn(begin, end) over lane indices in parallel, in chunks of roughly
// equal work.
void for_lanes(const Lanes& l, const std::function<void(int64_t, int64_t)>& fn);

// A materialised C-contiguous array of `x`'s values in dtype `t`: `x` itself
// when it already is one, else a copy.
Value contiguous_as(ArrayObj* x, DType t);
// A fresh C-contiguous copy of `x` (which is left untouched).
Value fresh_copy(ArrayObj* x);
// The flat (row-major) indices of the nonzero elements of `x`.
std::vector<int64_t> flat_nonzero(ArrayObj* x);
// The same as an int64 array: for a device array (fewer than 2^32
// elements) computed and left on the device (runtime/select_cuda.h).
Value flat_nonzero_array(ArrayObj* x);

// Uninitialised scratch for n items from the pooled host allocator: a block
// of the same size is reused, where a large std::vector would fault its pages
// in on every call.
template <class T>
T* scratch_array(BufferRef& holder, int64_t n) {
    holder = BufferRef(Buffer::allocate_host(size_t(n) * sizeof(T)));
    return static_cast<T*>(holder->data);
}

// Writes in[0, n) sorted stably in NumPy's order to out[0, n) (out may be
// in). Sorting the bijective bits() as plain integers is twice as fast as
// computing key() in every radix pass; it puts -NaN first and -0.0 before
// +0.0, so NaNs and zeros are then put back as a stable sort leaves them
// (in input order).
template <class E>
void sort_values(const typename E::T* in, typename E::T* out, int64_t n) {
    using T = typename E::T;
    using K = typename E::K;
    if (n < 256) {
        std::copy(in, in + n, out);
        std::stable_sort(out, out + n, [](T a, T b) { return E::key(a) < E::key(b); });
        return;
    }
    BufferRef holder;
    K *k = scratch_array<K>(holder, 2 * n), *tmp = k + n;
    K first = E::bits(in[0]), diff = 0;
    int64_t specials = 0;  // NaNs and zeros (a branch-free count keeps this loop vectorised)
    std::mutex merge;
    parallel_for(n, int64_t(1) << 16, [&, in, k, first](int64_t begin, int64_t end) {
        K d = 0;
        int64_t sp = 0;
        for (int64_t i = begin; i < end; ++i) {
            if constexpr (E::has_nan) sp += (in[i] != in[i]) | (in[i] == T(0));
            k[i] = E::bits(in[i]);
            d |= K(k[i] ^ first);
        }
        std::lock_guard<std::mutex> lock(merge);
        diff |= d;
        specials += sp;
    });
    std::vector<T> nans, zeros;
    for (int64_t i = 0; specials > 0 && i < n; ++i) {
        if (in[i] != in[i]) nans.push_back(in[i]);
        else if (in[i] == T(0)) zeros.push_back(in[i]);
    }
    stable_sort_by_key(k, tmp, n, [](K x) { return x; }, std::bit_width(diff));
    int64_t neg_nans = 0;
    if constexpr (E::has_nan) neg_nans = std::lower_bound(k, k + n, E::bits(-T(std::numeric_limits<float>::infinity()))) - k;
    int64_t m = n - int64_t(nans.size());
    parallel_for(m, int64_t(1) << 16, [out, k, neg_nans](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) out[i] = E::from_bits(k[neg_nans + i]);
    });
    if constexpr (E::has_nan) {
        std::copy(nans.begin(), nans.end(), out + m);
        if (!zeros.empty()) {
            int64_t z = std::lower_bound(k, k + n, E::bits(-T(0))) - k - neg_nans;
            std::copy(zeros.begin(), zeros.end(), out + z);
        }
    }
}

// (key, index) items of v[0, n), stably sorted by key.
template <class E>
std::vector<KeyIndex<typename E::K>> sorted_keys(const typename E::T* v, int64_t n) {
    using KI = KeyIndex<typename E::K>;
    std::vector<KI> items(static_cast<size_t>(n)), tmp(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) items[size_t(i)] = KI{E::key(v[i]), i};
    stable_sort_by_key(items.data(), tmp.data(), n, [](const KI& x) { return x.key; });
    return items;
}

// The element type of the device's sort and search kernels for `t`
// (runtime/search_cuda.h); false for bool, float16 and complex, which the
// host sorts and searches.
bool device_element_type(DType t, DeviceSearchType* out);

// The other parts add_sorting_functions / install_sorting_methods register.
void add_search_functions(Interp& in, ModuleObj* m);  // numpy/searching.cpp
void install_search_methods();
void add_set_functions(Interp& in, ModuleObj* m);  // numpy/set_ops.cpp

}  // namespace gpy
