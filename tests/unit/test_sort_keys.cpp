// The sorting machinery (numpy/sort_keys.h) against std::stable_sort with
// NumPy's comparison: byte-identical results for every element type, on
// every path (short runs, LSD, the parallel MSD split), with NaNs of both
// signs and payloads, signed zeros and infinities mixed in.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "numpy/sort_keys.h"

namespace {

using gpy::Elem;

// Random bit patterns (for floats: every class, payload NaNs included) with
// a share of values drawn from a few, so that ties are common.
template <class T>
std::vector<T> sample(int64_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(static_cast<size_t>(n));
    T few[4];
    for (T& f : few) {
        uint64_t r = rng();
        std::memcpy(&f, &r, sizeof(T));
    }
    for (auto& x : v) {
        uint64_t r = rng();
        if (r % 3 == 0) x = few[(r >> 8) % 4];
        else std::memcpy(&x, &r, sizeof(T));
        if constexpr (!std::is_integral_v<T>) {
            if (r % 17 == 1) x = T(0);
            if (r % 19 == 1) x = -T(0);
            if (r % 23 == 1) x = -T(INFINITY);
        }
    }
    return v;
}

template <class T>
void check_sort(int64_t n, uint64_t seed) {
    using E = Elem<T>;
    std::vector<T> v = sample<T>(n, seed), want = v, got(v.size()), in_place = v;
    std::stable_sort(want.begin(), want.end(), [](T a, T b) { return E::key(a) < E::key(b); });
    gpy::sort_values<E>(v.data(), got.data(), n);
    gpy::sort_values<E>(in_place.data(), in_place.data(), n);
    REQUIRE(std::memcmp(got.data(), want.data(), v.size() * sizeof(T)) == 0);
    REQUIRE(std::memcmp(in_place.data(), want.data(), v.size() * sizeof(T)) == 0);
}

template <class T>
void check_argsort(int64_t n, uint64_t seed) {
    using E = Elem<T>;
    std::vector<T> v = sample<T>(n, seed);
    std::vector<int64_t> want(v.size());
    for (size_t i = 0; i < want.size(); ++i) want[i] = int64_t(i);
    std::stable_sort(want.begin(), want.end(), [&](int64_t a, int64_t b) { return E::key(v[size_t(a)]) < E::key(v[size_t(b)]); });
    std::vector<int64_t> got;
    for (const auto& ki : gpy::sorted_keys<E>(v.data(), n)) got.push_back(ki.index);
    REQUIRE(got == want);
}

template <class T>
void check_all(std::initializer_list<int64_t> sizes) {
    uint64_t seed = 1;
    for (int64_t n : sizes) {
        check_sort<T>(n, seed++);
        check_argsort<T>(n, seed++);
    }
}

}  // namespace

TEST_CASE("sort keys order like NumPy", "[sort]") {
    using F = Elem<float>;
    REQUIRE(F::key(-INFINITY) < F::key(-1.0f));
    REQUIRE(F::key(-1.0f) < F::key(-0.0f));
    REQUIRE(F::key(-0.0f) == F::key(0.0f));
    REQUIRE(F::key(0.0f) < F::key(1e-45f));
    REQUIRE(F::key(INFINITY) < F::key(NAN));
    REQUIRE(F::key(-NAN) == F::key(NAN));
    REQUIRE(Elem<int8_t>::key(-128) < Elem<int8_t>::key(127));
    for (float x : {-INFINITY, -2.5f, -0.0f, 0.0f, 1e-45f, 3.0f, INFINITY}) {
        float back = F::from_bits(F::bits(x));
        REQUIRE(std::memcmp(&x, &back, sizeof x) == 0);
    }
}

// Sizes cover the short path (< 256), LSD (up to 4 MiB) and the split.
TEST_CASE("sort_values and sorted_keys match std::stable_sort", "[sort]") {
    check_all<float>({0, 1, 2, 255, 256, 3000, 70000, 1100000});
    check_all<double>({0, 1, 300, 5000, 600000});
    check_all<_Float16>({0, 7, 256, 40000, 2100000});
    check_all<int8_t>({0, 5, 1000, 300000});
    check_all<uint64_t>({3, 2000, 700000});
    check_all<int32_t>({9, 4096, 1200000});
}
