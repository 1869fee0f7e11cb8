// The FFT core (runtime/fft_core.h) against a naive O(n^2) DFT in long double,
// in float and double: every length 1..64 (each radix and the generic odd
// butterfly), primes and composites that take Bluestein, powers of two up to
// 2^12; complex both ways, real to complex and back, round trips, in-place
// calls, and one plan run from several threads at once.
//
// Errors are relative RMS: ||got - ref||_2 / ||ref||_2. The tolerance is
// eps * log2(2n) (eps = 2.2e-16 for double, 1.2e-7 for float), about 4 times
// what the transforms reach and about what NumPy's pocketfft reaches.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/fft_core.h"

namespace {

using LD = long double;
using CL = std::complex<LD>;
using gpy::fft::Plan;

// sum_j x[j] exp(sign*2*pi*i*j*k/n), with j*k reduced mod n so the angle
// given to cos/sin stays below 2*pi.
std::vector<CL> naive_dft(const std::vector<CL>& x, int sign) {
    const size_t n = x.size();
    const LD pi = 3.141592653589793238462643383279502884L;
    std::vector<CL> w(n), y(n);
    for (size_t t = 0; t < n; ++t) {
        LD a = 2 * pi * static_cast<LD>(t) / static_cast<LD>(n);
        w[t] = CL(std::cos(a), sign * std::sin(a));
    }
    for (size_t k = 0; k < n; ++k) {
        CL acc = 0;
        for (size_t j = 0; j < n; ++j) acc += x[j] * w[(j * k) % n];
        y[k] = acc;
    }
    return y;
}

// Inputs drawn as floats, so float and double transforms see the same exact
// values and share one long double reference.
struct Case {
    std::vector<CL> x, fwd, bwd;  // complex input and its forward and backward DFTs
    std::vector<CL> xr, rfwd;     // real input (as complex) and its forward DFT
    std::vector<CL> h, hbwd;      // a Hermitian spectrum (the real DFT of a random signal) and its backward DFT
};

const Case& reference(size_t n) {
    static std::map<size_t, Case> cache;
    auto it = cache.find(n);
    if (it != cache.end()) return it->second;
    std::mt19937_64 rng(n);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Case c;
    for (size_t j = 0; j < n; ++j) c.x.emplace_back(u(rng), u(rng));
    for (size_t j = 0; j < n; ++j) c.xr.emplace_back(u(rng), 0.0f);
    c.fwd = naive_dft(c.x, -1);
    c.bwd = naive_dft(c.x, +1);
    c.rfwd = naive_dft(c.xr, -1);
    // A Hermitian spectrum with exactly representable float values: h[0] (and
    // h[n/2] for even n) real, h[n-k] = conj(h[k]).
    c.h.resize(n);
    for (size_t k = 0; 2 * k <= n; ++k) {
        c.h[k] = CL(u(rng), u(rng));
        if (k == 0 || 2 * k == n) c.h[k].imag(0);
        if (k > 0) c.h[n - k] = std::conj(c.h[k]);
    }
    c.hbwd = naive_dft(c.h, +1);
    return cache.emplace(n, std::move(c)).first->second;
}

// Relative RMS error of got[0..count) against ref[0..count) * scale.
template <class G>
double rel_rms(const G* got, const std::vector<CL>& ref, size_t count, LD scale = 1) {
    LD num = 0, den = 0;
    for (size_t k = 0; k < count; ++k) {
        CL r = ref[k] * scale;
        num += std::norm(CL(got[k]) - r);
        den += std::norm(r);
    }
    return den == 0 ? double(std::sqrt(num)) : double(std::sqrt(num / den));
}

template <class T>
double tolerance(size_t n) {
    return std::numeric_limits<T>::epsilon() * std::log2(2.0 * double(n));
}

std::vector<size_t> lengths() {
    std::vector<size_t> v;
    for (size_t n = 1; n <= 64; ++n) v.push_back(n);
    // Around the cut-over to Bluestein (67 generic, 79 Bluestein), and
    // Bluestein for primes, odd and (times 2) even.
    for (size_t n : {67, 79, 97, 101, 131, 257, 262, 1009, 2018}) v.push_back(n);
    // Mixed radix composites: generic butterflies 7, 11, 13 and 127.
    for (size_t n : {360, 508, 1000, 1001, 2310}) v.push_back(n);
    for (size_t n = 128; n <= 4096; n *= 2) v.push_back(n);
    return v;
}

template <class T>
std::vector<std::complex<T>> to(const std::vector<CL>& x) {
    std::vector<std::complex<T>> y;
    for (const CL& v : x) y.emplace_back(T(v.real()), T(v.imag()));
    return y;
}

}  // namespace

TEMPLATE_TEST_CASE("fft_core: c2c matches a long double DFT", "[fft]", float, double) {
    using T = TestType;
    for (size_t n : lengths()) {
        INFO("n = " << n);
        const Case& c = reference(n);
        Plan<T> plan{int64_t(n)};
        REQUIRE(plan.size() == int64_t(n));
        std::vector<std::complex<T>> x = to<T>(c.x), y(n);
        plan.c2c(x.data(), y.data(), false, T(1));
        CHECK(rel_rms(y.data(), c.fwd, n) < tolerance<T>(n));
        const T f = T(1) / T(n);
        plan.c2c(x.data(), y.data(), true, f);
        CHECK(rel_rms(y.data(), c.bwd, n, LD(f)) < tolerance<T>(n));
        // In place: the same numbers as out of place.
        std::vector<std::complex<T>> z = x;
        plan.c2c(z.data(), z.data(), true, f);
        CHECK(z == y);
        // Round trip.
        plan.c2c(x.data(), y.data(), false, T(1));
        plan.c2c(y.data(), y.data(), true, f);
        CHECK(rel_rms(y.data(), c.x, n) < tolerance<T>(n));
    }
}

TEMPLATE_TEST_CASE("fft_core: r2c and c2r match a long double DFT", "[fft]", float, double) {
    using T = TestType;
    for (size_t n : lengths()) {
        INFO("n = " << n);
        const Case& c = reference(n);
        const size_t h = n / 2 + 1;
        Plan<T> plan{int64_t(n)};
        std::vector<T> xr(n);
        for (size_t j = 0; j < n; ++j) xr[j] = T(c.xr[j].real());
        std::vector<std::complex<T>> X(h);
        plan.r2c(xr.data(), X.data(), T(1));
        CHECK(rel_rms(X.data(), c.rfwd, h) < tolerance<T>(n));
        // fct scales; numbers otherwise unchanged.
        std::vector<std::complex<T>> X2(h);
        plan.r2c(xr.data(), X2.data(), T(0.5));
        CHECK(rel_rms(X2.data(), c.rfwd, h, 0.5L) < tolerance<T>(n));

        // c2r of the first half of a Hermitian spectrum, with garbage in the
        // imaginary parts it must ignore.
        std::vector<std::complex<T>> H = to<T>(std::vector<CL>(c.h.begin(), c.h.begin() + h));
        H[0].imag(T(0.75));
        if (n % 2 == 0) H[n / 2].imag(T(-0.5));
        std::vector<T> y(n);
        const T f = T(1) / T(n);
        plan.c2r(H.data(), y.data(), f);
        std::vector<CL> yc(y.begin(), y.end());
        CHECK(rel_rms(yc.data(), c.hbwd, n, LD(f)) < tolerance<T>(n));

        // Round trip.
        plan.c2r(X.data(), y.data(), f);
        std::vector<CL> back(y.begin(), y.end());
        CHECK(rel_rms(back.data(), c.xr, n) < tolerance<T>(n));
    }
}

TEMPLATE_TEST_CASE("fft_core: larger lengths round trip", "[fft]", float, double) {
    // No naive reference at these sizes: forward then backward must give the
    // input back, on every path (radix 4 and 2, 3 and 5, generic, Bluestein).
    using T = TestType;
    for (size_t n : {65536, 65537, 3 * 5 * 7 * 11 * 13 * 16, 1 << 17, 100003 * 2}) {
        INFO("n = " << n);
        std::mt19937_64 rng(n);
        std::uniform_real_distribution<T> u(-1, 1);
        std::vector<std::complex<T>> x(n), y(n);
        std::vector<CL> xl(n);
        for (size_t j = 0; j < n; ++j) xl[j] = x[j] = {u(rng), u(rng)};
        Plan<T> plan{int64_t(n)};
        plan.c2c(x.data(), y.data(), false, T(1));
        plan.c2c(y.data(), y.data(), true, T(1) / T(n));
        CHECK(rel_rms(y.data(), xl, n) < tolerance<T>(n));
        std::vector<T> xr(n), yr(n);
        std::vector<std::complex<T>> X(n / 2 + 1);
        for (size_t j = 0; j < n; ++j) xl[j] = xr[j] = x[j].real();
        plan.r2c(xr.data(), X.data(), T(1));
        plan.c2r(X.data(), yr.data(), T(1) / T(n));
        std::vector<CL> yl(yr.begin(), yr.end());
        CHECK(rel_rms(yl.data(), xl, n) < tolerance<T>(n));
    }
}

TEST_CASE("fft_core: one plan run from several threads", "[fft]") {
    // Plans are immutable; each thread's scratch is its own. Every thread
    // must get exactly the single-threaded numbers.
    for (int64_t n : {1024, 1000, 1009, 4098}) {
        INFO("n = " << n);
        Plan<double> plan(n);
        std::vector<std::complex<double>> x(n);
        std::vector<double> xr(n);
        for (int64_t j = 0; j < n; ++j) x[j] = {std::sin(0.1 * j), std::cos(0.37 * j)}, xr[j] = std::sin(0.3 * j);
        std::vector<std::complex<double>> want(n), wantr(n / 2 + 1);
        plan.c2c(x.data(), want.data(), false, 1.0);
        plan.r2c(xr.data(), wantr.data(), 1.0);
        std::vector<int> ok(8, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t)
            threads.emplace_back([&, t] {
                std::vector<std::complex<double>> y(n), yr(n / 2 + 1);
                bool good = true;
                for (int rep = 0; rep < 20; ++rep) {
                    plan.c2c(x.data(), y.data(), false, 1.0);
                    plan.r2c(xr.data(), yr.data(), 1.0);
                    good = good && y == want && yr == wantr;
                }
                ok[t] = good;
            });
        for (auto& th : threads) th.join();
        for (int t = 0; t < 8; ++t) CHECK(ok[t] == 1);
    }
}

TEST_CASE("fft_core: length must be positive", "[fft]") {
    CHECK_THROWS_AS(Plan<double>(0), std::invalid_argument);
    CHECK_THROWS_AS(Plan<float>(-3), std::invalid_argument);
}
