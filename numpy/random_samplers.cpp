#include "numpy/random_samplers.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpy::rng {

namespace {

constexpr double kPi = 3.14159265358979323846;

uint64_t splitmix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

}  // namespace

uint64_t chunk_key(uint64_t seed, uint64_t base, uint64_t chunk) {
    return splitmix(splitmix(seed ^ splitmix(base)) + chunk);
}

void Source::refill() {
    philox::fill_uniform_double(stream_, next_, next_ + kBuf, buf_);
    next_ += kBuf;
    pos_ = 0;
}

double Source::normal() {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    double x, y, r2;
    do {
        x = 2.0 * uniform() - 1.0;
        y = 2.0 * uniform() - 1.0;
        r2 = x * x + y * y;
    } while (r2 >= 1.0 || r2 == 0.0);
    double f = std::sqrt(-2.0 * std::log(r2) / r2);
    spare_ = f * x;
    has_spare_ = true;
    return f * y;
}

double Source::exponential() { return -std::log(uniform()); }

// Marsaglia and Tsang (2000); shape < 1 boosts: G(k) = G(k + 1) * U^(1/k).
double standard_gamma(Source& s, double k) {
    if (std::isnan(k)) return k;
    if (k == 0.0) return 0.0;
    if (k == 1.0) return s.exponential();
    if (k < 1.0) {
        // In logs: U^(1/k) underflows for tiny k where the product need not.
        double g = standard_gamma(s, k + 1.0);
        return std::exp(std::log(g) + std::log(s.uniform()) / k);
    }
    double d = k - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x, v;
        do {
            x = s.normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        double u = s.uniform();
        if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return d * v;
        if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
    }
}

// Jöhnk's method for a, b <= 1 (the gamma ratio loses everything to
// underflow there), else X / (X + Y) of two gammas.
double beta(Source& s, double a, double b) {
    if (a <= 1.0 && b <= 1.0) {
        for (;;) {
            double u = s.uniform(), v = s.uniform();
            double x = std::pow(u, 1.0 / a), y = std::pow(v, 1.0 / b);
            double sum = x + y;
            if (sum > 1.0) continue;
            if (sum > 0.0) return x / sum;
            // Both underflowed: compare in logs.
            double lx = std::log(u) / a, ly = std::log(v) / b;
            double m = std::max(lx, ly);
            lx -= m, ly -= m;
            return std::exp(lx - std::log(std::exp(lx) + std::exp(ly)));
        }
    }
    double x = standard_gamma(s, a), y = standard_gamma(s, b);
    return x / (x + y);
}

double chisquare(Source& s, double df) { return 2.0 * standard_gamma(s, df / 2.0); }

double noncentral_chisquare(Source& s, double df, double nonc) {
    if (std::isnan(nonc)) return nonc;
    if (nonc == 0.0) return chisquare(s, df);
    if (df > 1.0) {
        double n = s.normal() + std::sqrt(nonc);
        return chisquare(s, df - 1.0) + n * n;
    }
    // A Poisson mixture of central chi-squares.
    int64_t i = poisson(s, nonc / 2.0);
    return chisquare(s, df + 2.0 * double(i));
}

double standard_t(Source& s, double df) {
    double num = s.normal(), denom = standard_gamma(s, df / 2.0);
    return std::sqrt(df / 2.0) * num / std::sqrt(denom);
}

// Best and Fisher (1979); a wrapped normal for huge kappa, where their
// envelope loses precision.
double vonmises(Source& s, double mu, double kappa) {
    if (std::isnan(kappa)) return kappa;
    if (kappa < 1e-8) return kPi * (2.0 * s.uniform() - 1.0);
    double result;
    if (kappa > 1e6) {
        result = mu + std::sqrt(1.0 / kappa) * s.normal();
        if (result >= -kPi && result <= kPi) return result;
    } else {
        double r;
        if (kappa < 1e-5) {
            r = 1.0 / kappa + kappa;  // second-order Taylor expansion around kappa = 0
        } else {
            double t = 1.0 + std::sqrt(1.0 + 4.0 * kappa * kappa);
            double rho = (t - std::sqrt(2.0 * t)) / (2.0 * kappa);
            r = (1.0 + rho * rho) / (2.0 * rho);
        }
        double w;
        for (;;) {
            double u = s.uniform();
            double z = std::cos(kPi * u);
            w = (1.0 + r * z) / (r + z);
            double y = kappa * (r - w);
            double v = s.uniform();
            if (y * (2.0 - y) - v >= 0.0 || std::log(y / v) + 1.0 - y >= 0.0) break;
        }
        result = std::acos(std::clamp(w, -1.0, 1.0));
        if (s.uniform() < 0.5) result = -result;
        result += mu;
    }
    // Wrap into [-pi, pi].
    bool negative = result < 0;
    double m = std::fmod(std::fabs(result) + kPi, 2.0 * kPi) - kPi;
    return negative ? -m : m;
}

// Michael, Schucany and Haas (1976).
double wald(Source& s, double mean, double scale) {
    double mu_2l = mean / (2.0 * scale);
    double y = s.normal();
    y = mean * y * y;
    double x = mean + mu_2l * (y - std::sqrt(4.0 * scale * y + y * y));
    return s.uniform() <= mean / (mean + x) ? x : mean * mean / x;
}

double triangular(Source& s, double left, double mode, double right) {
    double base = right - left, left_base = mode - left;
    double u = s.uniform();
    if (u <= left_base / base) return left + std::sqrt(u * left_base * base);
    return right - std::sqrt((1.0 - u) * (right - mode) * base);
}

// Multiplication for small lam; Hörmann's PTRS (1993) from 10 on.
int64_t poisson(Source& s, double lam) {
    if (lam == 0.0) return 0;
    // Past int64's range (a negative binomial's huge gamma mixing value)
    // no count is representable: the largest one.
    if (!(lam < 9.2e18)) return std::numeric_limits<int64_t>::max();
    if (lam < 10.0) {
        double limit = std::exp(-lam), prod = 1.0;
        int64_t x = 0;
        for (;;) {
            prod *= s.uniform();
            if (prod <= limit) return x;
            ++x;
        }
    }
    double slam = std::sqrt(lam), loglam = std::log(lam);
    double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
    for (;;) {
        double u = s.uniform() - 0.5, v = s.uniform();
        double us = 0.5 - std::fabs(u);
        double k = std::floor((2.0 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) return int64_t(k);
        if (k < 0.0 || (us < 0.013 && v > us)) continue;
        if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <= -lam + k * loglam - std::lgamma(k + 1.0))
            return int64_t(k);
    }
}

// Inversion while n*p is small; Hörmann's BTRS (1993) beyond. Works with
// p <= 1/2 and reflects.
int64_t binomial(Source& s, int64_t n, double p) {
    if (n == 0 || p == 0.0) return 0;
    if (p > 0.5) return n - binomial(s, n, 1.0 - p);
    double q = 1.0 - p, np = double(n) * p;
    if (np < 30.0) {
        double qn = std::exp(double(n) * std::log1p(-p));
        double bound = std::min(double(n), np + 10.0 * std::sqrt(np * q + 1.0));
        for (;;) {
            int64_t x = 0;
            double px = qn, u = s.uniform();
            while (u > px) {
                ++x;
                if (double(x) > bound) break;
                u -= px;
                px = ((double(n - x) + 1.0) * p * px) / (double(x) * q);
            }
            if (double(x) <= bound) return x;
        }
    }
    double spq = std::sqrt(np * q);
    double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p, c = np + 0.5;
    double vr = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, lpq = std::log(p / q);
    double m = std::floor(double(n + 1) * p);
    double h = std::lgamma(m + 1.0) + std::lgamma(double(n) - m + 1.0);
    for (;;) {
        double u = s.uniform() - 0.5, v = s.uniform();
        double us = 0.5 - std::fabs(u);
        double k = std::floor((2.0 * a / us + b) * u + c);
        if (k < 0.0 || k > double(n)) continue;
        if (us >= 0.07 && v <= vr) return int64_t(k);
        v = std::log(v * alpha / (a / (us * us) + b));
        if (v <= h - std::lgamma(k + 1.0) - std::lgamma(double(n) - k + 1.0) + (k - m) * lpq) return int64_t(k);
    }
}

// Trials to the first success: a sequential search for large p, inversion
// for small.
int64_t geometric(Source& s, double p) {
    if (p >= 1.0 / 3.0) {
        double q = 1.0 - p, prod = p, sum = p, u = s.uniform();
        int64_t x = 1;
        while (u > sum) {
            prod *= q;
            sum += prod;
            ++x;
        }
        return x;
    }
    double x = std::ceil(std::log1p(-s.uniform()) / std::log1p(-p));
    return x >= 9.2233720368547758e18 ? std::numeric_limits<int64_t>::max() : int64_t(x);
}

// Devroye (1986), X.6.
int64_t zipf(Source& s, double a) {
    // From a = 1025 on, P(k > 1) < 2^-1024 and 2^(a-1) overflows (the loop
    // below would never accept): all mass is on 1, as NumPy returns.
    if (a >= 1025.0) return 1;
    double am1 = a - 1.0, b = std::pow(2.0, am1);
    for (;;) {
        double u = 1.0 - s.uniform(), v = s.uniform();
        double x = std::floor(std::pow(u, -1.0 / am1));
        // Past int64 the value cannot be returned; such draws are rejected.
        if (!(x >= 1.0) || x >= 9.2233720368547758e18) continue;
        double t = std::pow(1.0 + 1.0 / x, am1);
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b) return int64_t(x);
    }
}

// Kemp (1981), "LK".
int64_t logseries(Source& s, double p) {
    double r = std::log1p(-p);
    for (;;) {
        double v = s.uniform();
        if (v >= p) return 1;
        double q = -std::expm1(r * s.uniform());
        if (v <= q * q) {
            double x = std::floor(1.0 + std::log(v) / std::log(q));
            if (x < 1.0 || v == 0.0) continue;
            return int64_t(x);
        }
        return v >= q ? 1 : 2;
    }
}

// Draws the smaller of `sample` and its complement one item at a time.
int64_t hypergeometric(Source& s, int64_t good, int64_t bad, int64_t sample) {
    int64_t total = good + bad;
    int64_t k = std::min(sample, total - sample);
    int64_t left_good = good, left = total, got = 0;
    for (int64_t i = 0; i < k && left_good > 0; ++i) {
        if (s.uniform() * double(left) < double(left_good)) {
            ++got;
            --left_good;
        }
        --left;
    }
    // Drawing the complement picked `got` good items that are not sampled.
    return k == sample ? got : good - got;
}

}  // namespace gpy::rng
