// The FFT core: see fft_core.h.
//
// Mixed radix (Stockham, decimation in frequency). A length n = f1*f2*...*fk
// runs k passes, each out of place, alternating between the output and a
// scratch array. Before the pass of radix p, l1 = f1*...*f(s-1) independent
// sub-transforms of length p*ido (ido = n / (l1*p)) lie one after another;
// element i + ido*m of sub-transform k (i < ido, m < p) is
//     in[i + ido*(m + p*k)].
// The pass takes the length-p DFT across m, multiplies output m by the
// twiddle w^(m*i) (w = exp(-2*pi*i/(p*ido))), and writes it to
//     out[i + ido*(k + l1*m)],
// which is element i of sub-transform k + l1*m of length ido for the next
// pass. After the last pass (ido = 1) the spectrum is in natural order, with
// no bit-reversal step. A pass's twiddles depend on p and ido only, so the
// passes after a leading radix-2 pass are exactly the plan for n/2: the real
// transforms of even n use them for their half-length complex transform.
//
// Bluestein: with jk = (j^2 + k^2 - (k-j)^2)/2, the DFT is a convolution of
// x[j]*c[j] with conj(c), c[j] = exp(-pi*i*j^2/n), done cyclically with FFTs
// of a smooth length m >= 2n-1.
#include "runtime/fft_core.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace gpy::fft {
namespace {

using LD = long double;

// Complex numbers as plain pairs. Data arrays are handled as interleaved T
// (re, im, re, im, ...), the access std::complex<T> arrays allow; and
// std::complex's operator* checks every product for NaN/inf, which is slow.
template <class T>
struct cx {
    T r, i;
};

template <class T>
inline cx<T> operator+(cx<T> a, cx<T> b) { return {a.r + b.r, a.i + b.i}; }
template <class T>
inline cx<T> operator-(cx<T> a, cx<T> b) { return {a.r - b.r, a.i - b.i}; }
template <class T>
inline cx<T> operator*(cx<T> a, T s) { return {a.r * s, a.i * s}; }
template <class T>
inline cx<T> operator*(cx<T> a, cx<T> b) { return {a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r}; }
template <class T>
inline cx<T> conj(cx<T> a) { return {a.r, -a.i}; }

// Twiddles are stored for the forward sign; the backward transform multiplies
// by their conjugates.
template <bool Bwd, class T>
inline cx<T> twiddle(cx<T> a, cx<T> w) {
    if constexpr (Bwd) return {a.r * w.r + a.i * w.i, a.i * w.r - a.r * w.i};
    else return {a.r * w.r - a.i * w.i, a.r * w.i + a.i * w.r};
}

// a * (-i) forward, a * (+i) backward.
template <bool Bwd, class T>
inline cx<T> rot(cx<T> a) {
    if constexpr (Bwd) return {-a.i, a.r};
    else return {a.i, -a.r};
}

template <class T>
inline cx<T> ld(const T* p, size_t j) { return {p[2 * j], p[2 * j + 1]}; }
template <class T>
inline void st(T* p, size_t j, cx<T> v) {
    p[2 * j] = v.r;
    p[2 * j + 1] = v.i;
}

template <class T, class U>
inline cx<T> round_to(cx<U> a) { return {static_cast<T>(a.r), static_cast<T>(a.i)}; }

// ---- twiddle factors ----

// exp(-2*pi*i * t/n) in long double. The angle is reduced by symmetry to
// [0, pi/4] before cos and sin, where they are accurate to an ulp or so.
cx<LD> exact_root(uint64_t t, uint64_t n) {
    const LD pi = 3.141592653589793238462643383279502884L;
    t %= n;
    uint64_t q = 4 * t / n, r = 4 * t - q * n;  // angle = (q + r/n) * pi/2
    bool flip = 2 * r > n;                      // past pi/4: use pi/2 - angle
    LD phi = static_cast<LD>(flip ? n - r : r) / static_cast<LD>(n) * (pi / 2);
    LD c = std::cos(phi), s = std::sin(phi);
    if (flip) std::swap(c, s);
    for (; q > 0; --q) {  // a quarter turn: (c, s) -> (-s, c)
        LD c0 = c;
        c = -s;
        s = c0;
    }
    return {c, -s};
}

// exp(-2*pi*i * t/n) for any t < n from two tables of about sqrt(n) entries:
// root(t) = lo[t mod 2^b] * hi[t >> b]. The product is taken in long double
// (x86: 64-bit mantissa), so rounded to double it is still within about half
// an ulp, while only ~2*sqrt(n) cos/sin evaluations are needed. (Where long
// double is double, as on MSVC, twiddles are off by an ulp or two.)
class Roots {
public:
    explicit Roots(uint64_t n) {
        while ((uint64_t(1) << (2 * bits_)) < n) ++bits_;
        lo_.resize(size_t(1) << bits_);
        hi_.resize(((n - 1) >> bits_) + 1);
        for (size_t a = 0; a < lo_.size(); ++a) lo_[a] = exact_root(a, n);
        for (size_t b = 0; b < hi_.size(); ++b) hi_[b] = exact_root(uint64_t(b) << bits_, n);
    }
    cx<LD> operator()(uint64_t t) const {
        return lo_[t & ((uint64_t(1) << bits_) - 1)] * hi_[t >> bits_];
    }

private:
    unsigned bits_ = 0;
    std::vector<cx<LD>> lo_, hi_;
};

// ---- butterflies: in-place DFTs of length 2, 3, 4, 5 and any odd p ----

template <bool Bwd, class T>
inline void dft2(cx<T>* x) {
    cx<T> a = x[0];
    x[0] = a + x[1];
    x[1] = a - x[1];
}

template <bool Bwd, class T>
inline void dft3(cx<T>* x) {
    const T c = T(-0.5), s = T(0.86602540378443864676372317075293618L);  // cos, sin of 2pi/3
    cx<T> t = x[1] + x[2];
    cx<T> a = x[0] + t * c;
    cx<T> b = rot<Bwd>((x[1] - x[2]) * s);
    x[0] = x[0] + t;
    x[1] = a + b;
    x[2] = a - b;
}

template <bool Bwd, class T>
inline void dft4(cx<T>* x) {
    cx<T> t0 = x[0] + x[2], t1 = x[0] - x[2], t2 = x[1] + x[3], t3 = rot<Bwd>(x[1] - x[3]);
    x[0] = t0 + t2;
    x[1] = t1 + t3;
    x[2] = t0 - t2;
    x[3] = t1 - t3;
}

// a * w8 with w8 = exp(-+2pi*i/8) = (1 -+ i)/sqrt(2).
template <bool Bwd, class T>
inline cx<T> rot45(cx<T> a) {
    const T h = T(0.70710678118654752440084436210484904L);
    if constexpr (Bwd) return {(a.r - a.i) * h, (a.r + a.i) * h};
    else return {(a.r + a.i) * h, (a.i - a.r) * h};
}

// Two length-4 DFTs (even and odd samples) joined with w8^k: fewer passes
// over memory than radix 4 for long transforms.
template <bool Bwd, class T>
inline void dft8(cx<T>* x) {
    cx<T> e[4] = {x[0], x[2], x[4], x[6]}, o[4] = {x[1], x[3], x[5], x[7]};
    dft4<Bwd>(e);
    dft4<Bwd>(o);
    o[1] = rot45<Bwd>(o[1]);
    o[2] = rot<Bwd>(o[2]);
    o[3] = rot<Bwd>(rot45<Bwd>(o[3]));
    for (int k = 0; k < 4; ++k) {
        x[k] = e[k] + o[k];
        x[k + 4] = e[k] - o[k];
    }
}

template <bool Bwd, class T>
inline void dft5(cx<T>* x) {
    // cos and sin of 2pi/5 and 4pi/5
    const T c1 = T(0.30901699437494742410229341718281906L), c2 = T(-0.80901699437494742410229341718281906L);
    const T s1 = T(0.95105651629515357211643933337938214L), s2 = T(0.58778525229247312916870595463907277L);
    cx<T> t1 = x[1] + x[4], t2 = x[2] + x[3], d1 = x[1] - x[4], d2 = x[2] - x[3];
    cx<T> a1 = x[0] + t1 * c1 + t2 * c2, a2 = x[0] + t1 * c2 + t2 * c1;
    cx<T> b1 = rot<Bwd>(d1 * s1 + d2 * s2), b2 = rot<Bwd>(d1 * s2 - d2 * s1);
    x[0] = x[0] + t1 + t2;
    x[1] = a1 + b1;
    x[4] = a1 - b1;
    x[2] = a2 + b2;
    x[3] = a2 - b2;
}

// Largest odd prime the generic butterfly takes: its work is O(p^2) and it
// keeps p values on the stack. Larger prime factors go to Bluestein.
constexpr size_t kMaxGeneric = 127;

// Odd p: with s_j = x_j + x_{p-j}, d_j = x_j - x_{p-j} (j = 1..(p-1)/2),
// y_m and y_{p-m} share a_m = x_0 + sum cos(2pi jm/p) s_j and differ in the
// sign of b_m = rot(sum sin(2pi jm/p) d_j), halving the multiplications.
// cs[j] = (cos, sin) of 2pi*j/p.
template <bool Bwd, class T>
inline void dftp(cx<T>* x, size_t p, const cx<T>* cs) {
    const size_t h = (p - 1) / 2;
    cx<T> s[kMaxGeneric / 2 + 1], d[kMaxGeneric / 2 + 1];
    cx<T> x0 = x[0], y0 = x[0];
    for (size_t j = 1; j <= h; ++j) {
        s[j] = x[j] + x[p - j];
        d[j] = x[j] - x[p - j];
        y0 = y0 + s[j];
    }
    for (size_t m = 1; m <= h; ++m) {
        cx<T> a = x0, b = {T(0), T(0)};
        size_t jm = 0;  // j*m mod p, stepped to avoid a division per term
        for (size_t j = 1; j <= h; ++j) {
            jm += m;
            if (jm >= p) jm -= p;
            a = a + s[j] * cs[jm].r;
            b = b + d[j] * cs[jm].i;
        }
        b = rot<Bwd>(b);
        x[m] = a + b;
        x[p - m] = a - b;
    }
    x[0] = y0;
}

// One pass of radix P (0: the generic odd radix p, with table cs); see the
// layout at the top of the file. tw[(i-1)*(p-1) + m-1] = w^(m*i).
template <size_t P, bool Bwd, class T>
void pass(size_t p, size_t ido, size_t l1, const T* in, T* out, const cx<T>* tw, const cx<T>* cs) {
    if constexpr (P != 0) p = P;
    const size_t so = ido * l1;  // output stride between the p results of one butterfly
    cx<T> x[P != 0 ? P : kMaxGeneric];
    auto butterfly = [&] {
        if constexpr (P == 2) dft2<Bwd>(x);
        else if constexpr (P == 3) dft3<Bwd>(x);
        else if constexpr (P == 4) dft4<Bwd>(x);
        else if constexpr (P == 5) dft5<Bwd>(x);
        else if constexpr (P == 8) dft8<Bwd>(x);
        else dftp<Bwd>(x, p, cs);
    };
    for (size_t k = 0; k < l1; ++k) {
        const T* src = in + 2 * ido * p * k;
        T* dst = out + 2 * ido * k;
        // i = 0: all twiddles are 1.
        for (size_t m = 0; m < p; ++m) x[m] = ld(src, ido * m);
        butterfly();
        for (size_t m = 0; m < p; ++m) st(dst, so * m, x[m]);
        for (size_t i = 1; i < ido; ++i) {
            for (size_t m = 0; m < p; ++m) x[m] = ld(src, i + ido * m);
            butterfly();
            const cx<T>* w = tw + (i - 1) * (p - 1);
            st(dst, i, x[0]);
            for (size_t m = 1; m < p; ++m) st(dst, i + so * m, twiddle<Bwd>(x[m], w[m - 1]));
        }
    }
}

// ---- the mixed-radix engine ----

// Radix 8 makes fewer passes over memory but has 16 streams (8 in, 8 out) at
// power-of-two strides, which thrash an 8-way L1 cache: timed, radix 4 wins
// below about 256 MB of data and radix 8 above (2.5x at 2^26 doubles), where
// every pass is a trip to DRAM.
constexpr size_t kRadix8Bytes = size_t(1) << 28;

template <class T>
class Engine {
public:
    Engine() = default;

    // With lead2 and n even the first pass is radix 2, so that the passes
    // after it are the engine for n/2 (see the top of the file).
    Engine(size_t n, bool lead2) : n_(n) {
        std::vector<size_t> f;
        size_t m = n;
        if (lead2 && m % 2 == 0) f.push_back(2), m /= 2;
        if (n * sizeof(cx<T>) >= kRadix8Bytes)
            while (m % 8 == 0) f.push_back(8), m /= 8;
        while (m % 4 == 0) f.push_back(4), m /= 4;
        if (m % 2 == 0) f.push_back(2), m /= 2;
        for (size_t p = 3; p * p <= m; p += 2)
            while (m % p == 0) f.push_back(p), m /= p;
        if (m > 1) f.push_back(m);

        size_t count = 0, l = 1;
        for (size_t p : f) count += (n / (l * p) - 1) * (p - 1) + (p % 2 == 1 && p > 5 ? p : 0), l *= p;
        tw_.reserve(count);
        Roots roots(n);
        size_t l1 = 1;
        for (size_t p : f) {
            if (p > kMaxGeneric) throw std::logic_error("fft: prime factor too large for the mixed-radix engine");
            size_t ido = n / (l1 * p);
            passes_.push_back({p, ido, tw_.size(), 0});
            // w^(m*i) for the sub-transform length p*ido = n/l1: root m*i*l1 of n.
            for (size_t i = 1; i < ido; ++i)
                for (size_t j = 1; j < p; ++j) tw_.push_back(round_to<T>(roots(uint64_t(j) * i * l1)));
            if (p % 2 == 1 && p > 5) {  // the generic butterfly's table
                passes_.back().cs = tw_.size();
                for (size_t j = 0; j < p; ++j) tw_.push_back(round_to<T>(conj(exact_root(j, p))));
            }
            l1 *= p;
        }
    }

    size_t size() const { return n_; }
    size_t passes() const { return passes_.size(); }
    // w^i = exp(-2*pi*i*i/n), i = 1..n/2-1: the twiddles of a leading radix-2 pass.
    const cx<T>* lead2_twiddles() const { return tw_.data() + passes_[0].tw; }

    // The transform of passes first.. (of length n / product of the earlier
    // radixes): in -> out, which may be the same array. scratch holds as many
    // complex values. Unnormalized.
    void run(const T* in, T* out, T* scratch, size_t first, bool bwd) const {
        if (bwd) run_dir<true>(in, out, scratch, first);
        else run_dir<false>(in, out, scratch, first);
    }

private:
    struct Pass {
        size_t p, ido, tw, cs;  // radix, ido, offsets of twiddles and of the generic cos/sin table in tw_
    };

    template <bool Bwd>
    void run_dir(const T* in, T* out, T* scratch, size_t first) const {
        size_t len = n_;
        for (size_t s = 0; s < first; ++s) len /= passes_[s].p;
        const size_t np = passes_.size() - first;
        if (np == 0) {
            if (in != out) std::copy(in, in + 2 * len, out);
            return;
        }
        // Passes alternate between out and scratch so that the last one lands
        // in out. In place with an odd count, the first pass cannot write to
        // out (it reads it): that case ends with a copy.
        const bool copy_back = in == out && np % 2 == 1;
        T* last = copy_back ? scratch : out;
        T* other = copy_back ? out : scratch;
        const T* src = in;
        size_t l1 = 1;
        for (size_t s = first; s < passes_.size(); ++s) {
            const Pass& ps = passes_[s];
            T* dst = (passes_.size() - 1 - s) % 2 == 0 ? last : other;
            const cx<T>* tw = tw_.data() + ps.tw;
            switch (ps.p) {
            case 2: pass<2, Bwd>(2, ps.ido, l1, src, dst, tw, tw); break;
            case 3: pass<3, Bwd>(3, ps.ido, l1, src, dst, tw, tw); break;
            case 4: pass<4, Bwd>(4, ps.ido, l1, src, dst, tw, tw); break;
            case 5: pass<5, Bwd>(5, ps.ido, l1, src, dst, tw, tw); break;
            case 8: pass<8, Bwd>(8, ps.ido, l1, src, dst, tw, tw); break;
            default: pass<0, Bwd>(ps.p, ps.ido, l1, src, dst, tw, tw_.data() + ps.cs); break;
            }
            src = dst;
            l1 *= ps.p;
        }
        if (copy_back) std::copy(scratch, scratch + 2 * len, out);
    }

    size_t n_ = 0;
    std::vector<Pass> passes_;
    std::vector<cx<T>> tw_;
};

// ---- choosing between mixed radix and Bluestein ----

std::vector<size_t> prime_factors(size_t n) {
    std::vector<size_t> f;
    for (size_t p = 2; p * p <= n; ++p)
        while (n % p == 0) f.push_back(p), n /= p;
    if (n > 1) f.push_back(n);
    return f;
}

// Rough cost of the mixed-radix transform: a pass of radix p costs about p
// per point, the generic butterfly included (timed: it matches radix 2-5
// butterflies per p within ~10%).
double mixed_cost(size_t n) {
    double c = 0;
    for (size_t p : prime_factors(n)) c += double(p);
    return c * double(n);
}

// The smallest 2^a 3^b 5^c >= n.
size_t good_size(size_t n) {
    size_t best = 1;
    while (best < n) best *= 2;
    for (size_t a = 1; a < best; a *= 5)
        for (size_t b = a; b < best; b *= 3) {
            size_t c = b;
            while (c < n) c *= 2;
            best = std::min(best, c);
        }
    return best;
}

bool use_bluestein(size_t n) {
    std::vector<size_t> f = prime_factors(n);
    if (f.empty()) return false;  // n = 1
    if (f.back() > kMaxGeneric) return true;
    if (f.back() <= 5) return false;
    size_t m = good_size(2 * n - 1);
    // Two transforms of length m plus the pointwise products and copies
    // (timed: pure primes break even near 70-80; p * 2^k stays mixed radix).
    return 2 * mixed_cost(m) + 6.0 * double(m) < mixed_cost(n);
}

// ---- per-thread scratch ----

// Up to this many T a thread keeps its scratch between calls: a fresh large
// allocation is page-faulted in again on every call. Beyond, the scratch is
// allocated for the call only, so a one-off huge transform does not pin its
// memory for the thread's life.
constexpr size_t kKeepScratch = size_t(1) << 23;

template <class T>
T* scratch(size_t complex_count, std::unique_ptr<T[]>& own) {
    const size_t len = 2 * complex_count;
    if (len > kKeepScratch) {
        own.reset(new T[len]);
        return own.get();
    }
    thread_local std::unique_ptr<T[]> buf;
    thread_local size_t cap = 0;
    if (cap < len) {
        buf.reset();
        buf.reset(new T[len]);
        cap = len;
    }
    return buf.get();
}

}  // namespace

namespace detail {

template <class T>
struct PlanData {
    size_t n = 0;
    bool blue = false;              // Bluestein
    bool half = false;              // real transforms through the n/2 complex transform (even n, mixed radix)
    Engine<T> eng;                  // length n, or the convolution length m for Bluestein
    size_t m = 0;                   // Bluestein: convolution length
    std::vector<cx<T>> chirp;       // Bluestein: c[j] = exp(-pi*i*j^2/n), j < n
    std::vector<cx<T>> kernel;      // Bluestein: FFT_m of conj(c) wrapped around, divided by m
    size_t work = 0;                // scratch (complex values) of the largest execution

    // Complex transform in -> out (may alias), times fct, with work holding
    // `work` complex values (or whatever c2c needs, for r2c/c2r's use).
    void c2c(const T* in, T* out, bool bwd, T fct, T* w) const {
        if (blue) return bluestein(in, out, bwd, fct, w);
        eng.run(in, out, w, 0, bwd);
        if (fct != T(1))
            for (size_t j = 0; j < 2 * n; ++j) out[j] *= fct;
    }

    // The backward transform is the conjugate of the forward one of the
    // conjugate input, so one kernel serves both.
    void bluestein(const T* in, T* out, bool bwd, T fct, T* w) const {
        T* a = w;           // m complex
        T* s = w + 2 * m;   // m complex, the engine's scratch
        const T sg = bwd ? T(-1) : T(1);
        for (size_t j = 0; j < n; ++j) {
            cx<T> x = ld(in, j);
            x.i *= sg;
            st(a, j, x * chirp[j]);
        }
        std::fill(a + 2 * n, a + 2 * m, T(0));
        eng.run(a, a, s, 0, false);
        for (size_t k = 0; k < m; ++k) st(a, k, ld(a, k) * kernel[k]);
        eng.run(a, a, s, 0, true);
        for (size_t k = 0; k < n; ++k) {
            cx<T> y = ld(a, k) * chirp[k] * fct;
            y.i *= sg;
            st(out, k, y);
        }
    }
};

}  // namespace detail

template <class T>
Plan<T>::Plan(int64_t n) : n_(n) {
    if (n < 1) throw std::invalid_argument("fft: length must be >= 1");
    auto d = std::make_unique<detail::PlanData<T>>();
    const size_t N = static_cast<size_t>(n);
    d->n = N;
    d->blue = use_bluestein(N);
    if (!d->blue) {
        d->half = N % 2 == 0;
        d->eng = Engine<T>(N, /*lead2=*/true);
        // c2c: scratch n; even real: scratch n/2; odd real: a complex copy plus scratch.
        d->work = d->half ? N : 2 * N;
    } else {
        const size_t m = good_size(2 * N - 1);
        d->m = m;
        d->eng = Engine<T>(m, false);
        d->work = N + 2 * m;  // c2c: 2m; real: a complex copy of n on top
        // c[j] from j^2 mod 2n: the angle pi*j^2/n kept below 2pi, exactly.
        Roots roots(2 * uint64_t(N));
        d->chirp.resize(N);
        std::vector<double> bk(2 * m, 0.0);
        uint64_t q = 0;
        for (size_t j = 0; j < N; ++j) {
            cx<LD> c = roots(q);
            d->chirp[j] = round_to<T>(c);
            cx<double> cc = round_to<double>(conj(c));
            st(bk.data(), j, cc);
            if (j > 0) st(bk.data(), m - j, cc);
            q += 2 * j + 1;  // (j+1)^2 - j^2
            while (q >= 2 * N) q -= 2 * N;
        }
        // The kernel's FFT is taken in double even for float plans: it is
        // computed once, and its error would add to every transform's.
        std::vector<double> s(2 * m);
        if constexpr (std::is_same_v<T, double>) {
            d->eng.run(bk.data(), bk.data(), s.data(), 0, false);
        } else {
            Engine<double>(m, false).run(bk.data(), bk.data(), s.data(), 0, false);
        }
        d->kernel.resize(m);
        for (size_t k = 0; k < m; ++k) d->kernel[k] = round_to<T>(ld(bk.data(), k) * (1.0 / double(m)));
    }
    d_ = std::move(d);
}

template <class T>
Plan<T>::~Plan() = default;
template <class T>
Plan<T>::Plan(Plan&&) noexcept = default;
template <class T>
Plan<T>& Plan<T>::operator=(Plan&&) noexcept = default;

template <class T>
void Plan<T>::c2c(const std::complex<T>* in, std::complex<T>* out, bool backward, T fct) const {
    std::unique_ptr<T[]> own;
    T* w = scratch<T>(d_->blue ? 2 * d_->m : d_->n, own);
    d_->c2c(reinterpret_cast<const T*>(in), reinterpret_cast<T*>(out), backward, fct, w);
}

template <class T>
void Plan<T>::r2c(const T* in, std::complex<T>* out_c, T fct) const {
    const detail::PlanData<T>& d = *d_;
    const size_t n = d.n;
    T* out = reinterpret_cast<T*>(out_c);
    std::unique_ptr<T[]> own;
    if (d.half) {
        // z[j] = x[2j] + i*x[2j+1] (the real input read as n/2 complex) has
        // Z = FFT_h(z) = E + i*O, E and O the FFTs of the even and odd samples.
        // With E[k] = (Z[k] + conj Z[h-k])/2, O[k] = (Z[k] - conj Z[h-k])/(2i):
        // X[k] = E[k] + w^k O[k], X[h-k] = conj(E[k] - w^k O[k]).
        const size_t h = n / 2;
        T* w = scratch<T>(h, own);
        d.eng.run(in, out, w, 1, false);
        const cx<T>* tw = d.eng.lead2_twiddles();  // w^k, k = 1..h-1
        const cx<T> z0 = ld(out, 0);
        st(out, 0, cx<T>{(z0.r + z0.i) * fct, T(0)});
        st(out, h, cx<T>{(z0.r - z0.i) * fct, T(0)});
        const T f2 = fct / 2;
        for (size_t k = 1; 2 * k <= h; ++k) {
            cx<T> zk = ld(out, k), zc = conj(ld(out, h - k));
            cx<T> e = (zk + zc) * f2;
            cx<T> t = rot<false>(zk - zc) * f2 * tw[k - 1];  // w^k O[k]
            st(out, k, e + t);
            st(out, h - k, conj(e - t));
        }
        return;
    }
    // Odd n (or Bluestein): the full complex transform of the real input.
    T* w = scratch<T>(d.work, own);
    T* buf = w + 2 * (d.work - n);  // last n complex; the c2c's scratch comes first
    for (size_t j = 0; j < n; ++j) st(buf, j, cx<T>{in[j], T(0)});
    d.c2c(buf, buf, false, T(1), w);
    for (size_t k = 0; k <= n / 2; ++k) st(out, k, ld(buf, k) * fct);
}

template <class T>
void Plan<T>::c2r(const std::complex<T>* in_c, T* out, T fct) const {
    const detail::PlanData<T>& d = *d_;
    const size_t n = d.n;
    const T* in = reinterpret_cast<const T*>(in_c);
    std::unique_ptr<T[]> own;
    if (d.half) {
        // The inverse of r2c's split: Z[k] = (X[k] + conj X[h-k]) +
        // i * conj(w^k) (X[k] - conj X[h-k]) is the FFT of z[j] = y[2j] +
        // i*y[2j+1], which the output array holds as n reals.
        const size_t h = n / 2;
        T* w = scratch<T>(h, own);
        const cx<T>* tw = d.eng.lead2_twiddles();
        const T x0 = in[0], xh = in[2 * h];  // imaginary parts ignored
        const cx<T> z0 = {(x0 + xh) * fct, (x0 - xh) * fct};
        for (size_t k = 1; 2 * k <= h; ++k) {
            cx<T> xk = ld(in, k), xc = conj(ld(in, h - k));
            cx<T> e = (xk + xc) * fct;
            cx<T> o = twiddle<true>((xk - xc) * fct, tw[k - 1]);
            st(out, k, e + rot<true>(o));
            st(out, h - k, conj(e) + rot<true>(conj(o)));
        }
        st(out, 0, z0);  // after the loop: out may alias in, and in[0] is read above only
        d.eng.run(out, out, w, 1, true);
        return;
    }
    // Odd n (or Bluestein): the Hermitian extension, then the full transform.
    T* w = scratch<T>(d.work, own);
    T* buf = w + 2 * (d.work - n);
    st(buf, 0, cx<T>{in[0], T(0)});
    for (size_t k = 1; 2 * k < n; ++k) {
        cx<T> x = ld(in, k);
        st(buf, k, x);
        st(buf, n - k, conj(x));
    }
    if (n % 2 == 0) st(buf, n / 2, cx<T>{in[n], T(0)});
    d.c2c(buf, buf, true, T(1), w);
    for (size_t j = 0; j < n; ++j) out[j] = buf[2 * j] * fct;
}

template class Plan<float>;
template class Plan<double>;

}  // namespace gpy::fft
