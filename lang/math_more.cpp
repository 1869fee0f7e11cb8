// The rest of Python 3.11's math module (modules.cpp has the core): special
// functions, integer combinatorics, float decomposition and prod/dist, with
// CPython's errors.
#include <cmath>
#include <limits>

#include "lang/ast.h"
#include "lang/interp.h"

namespace gpy {

namespace {

double real_arg(const Value& v) {
    double d;
    if (real_value(v, d)) return d;
    raise(types::TypeError, std::string("must be real number, not ") + type_name(v));
}

[[noreturn]] void domain_error() { raise(types::ValueError, "math domain error"); }
[[noreturn]] void range_error() { raise(types::OverflowError, "math range error"); }

// A libm function with CPython's checks: NaN from a number is a domain
// error, infinity from a finite number a range error.
template <double (*F)(double)>
Value checked(Interp&, CallArgs& a) {
    expect_args(a, "math function", 1, 1);
    double x = real_arg(a[0]), r = F(x);
    if (std::isnan(r) && !std::isnan(x)) domain_error();
    if (std::isinf(r) && std::isfinite(x)) range_error();
    return Value::real(r);
}
double acosh_(double x) { return std::acosh(x); }
double asinh_(double x) { return std::asinh(x); }
double atanh_(double x) { if (std::fabs(x) >= 1) domain_error(); return std::atanh(x); }
double cbrt_(double x) { return std::cbrt(x); }
double exp2_(double x) { return std::exp2(x); }
double erf_(double x) { return std::erf(x); }
double erfc_(double x) { return std::erfc(x); }
bool nonpositive_integer(double x) { return x <= 0 && x == std::floor(x); }
double gamma_(double x) {
    if (nonpositive_integer(x) || x == -INFINITY) domain_error();
    return std::tgamma(x);
}
double lgamma_(double x) {
    if (nonpositive_integer(x)) domain_error();
    return std::lgamma(x);
}

Value m_frexp(Interp&, CallArgs& a) {
    expect_args(a, "frexp", 1, 1);
    int e = 0;
    double m = std::frexp(real_arg(a[0]), &e);
    return make_tuple({Value::real(m), Value::integer(e)});
}

Value m_ldexp(Interp&, CallArgs& a) {
    expect_args(a, "ldexp", 2, 2);
    double x = real_arg(a[0]);
    if (!a[1].is_intlike()) raise(types::TypeError, "Expected an int as second argument to ldexp.");
    int64_t e = std::clamp<int64_t>(a[1].as_int(), -100000, 100000);
    double r = std::ldexp(x, int(e));
    if (std::isinf(r) && std::isfinite(x)) range_error();
    return Value::real(r);
}

Value m_modf(Interp&, CallArgs& a) {
    expect_args(a, "modf", 1, 1);
    double whole, x = real_arg(a[0]);
    double frac = std::isinf(x) ? std::copysign(0.0, x) : std::modf(x, &whole);
    if (std::isinf(x)) whole = x;
    return make_tuple({Value::real(frac), Value::real(whole)});
}

Value m_nextafter(Interp&, CallArgs& a) {
    expect_args(a, "nextafter", 2, 2);
    return Value::real(std::nextafter(real_arg(a[0]), real_arg(a[1])));
}

Value m_ulp(Interp&, CallArgs& a) {
    expect_args(a, "ulp", 1, 1);
    double x = std::fabs(real_arg(a[0]));
    if (std::isnan(x) || std::isinf(x)) return Value::real(x);
    double next = std::nextafter(x, INFINITY);
    if (std::isinf(next)) return Value::real(x - std::nextafter(x, -INFINITY));
    return Value::real(next - x);
}

Value m_remainder(Interp&, CallArgs& a) {
    expect_args(a, "remainder", 2, 2);
    double x = real_arg(a[0]), y = real_arg(a[1]);
    if (std::isnan(x) || std::isnan(y)) return Value::real(NAN);
    if (std::isinf(x) || y == 0) domain_error();
    return Value::real(std::remainder(x, y));
}

// Integer arguments of the combinatorics: CPython's index conversion.
int64_t int_arg(const Value& v) { return index_arg(v); }

Value m_isqrt(Interp&, CallArgs& a) {
    expect_args(a, "isqrt", 1, 1);
    int64_t n = int_arg(a[0]);
    if (n < 0) raise(types::ValueError, "isqrt() argument must be nonnegative");
    auto r = int64_t(std::sqrt(double(n)));
    while (r > 0 && (__int128)r * r > n) --r;
    while ((__int128)(r + 1) * (r + 1) <= n) ++r;
    return Value::integer(r);
}

Value m_lcm(Interp&, CallArgs& a) {
    int64_t l = 1;
    for (size_t k = 0; k < a.npos; ++k) {
        int64_t x = int_arg(a[k]);
        x = x < 0 ? -x : x;
        if (x == 0) return Value::integer(0);
        int64_t g = l, y = x;
        while (y) { int64_t t = g % y; g = y; y = t; }
        if (__builtin_mul_overflow(l / g, x, &l)) raise(types::OverflowError, "integer overflow");
    }
    return Value::integer(a.npos == 0 ? 1 : l);
}

// n! / (n - k)! (perm) or that over k! (comb), exactly in 64 bits.
Value combinatoric(CallArgs& a, const char* fname, bool divide) {
    expect_args(a, fname, divide ? 2 : 1, 2);
    int64_t n = int_arg(a[0]);
    bool has_k = a.npos == 2 && !a[1].is_none();
    int64_t k = has_k ? int_arg(a[1]) : n;
    if (n < 0 && !has_k && !divide) raise(types::ValueError, "factorial() not defined for negative values");  // perm(n) is n!
    if (n < 0) raise(types::ValueError, "n must be a non-negative integer");
    if (k < 0) raise(types::ValueError, "k must be a non-negative integer");
    if (k > n) return Value::integer(0);
    if (divide) k = std::min(k, n - k);
    __int128 r = 1;
    for (int64_t i = 1; i <= k; ++i) {
        r *= n - k + i;
        if (divide) r /= i;  // exact: a product of i consecutive integers is divisible by i!
        if (r > std::numeric_limits<int64_t>::max()) raise(types::OverflowError, "integer overflow");
    }
    return Value::integer(int64_t(r));
}
Value m_comb(Interp&, CallArgs& a) { return combinatoric(a, "comb", true); }
Value m_perm(Interp&, CallArgs& a) { return combinatoric(a, "perm", false); }

// prod(iterable, *, start=1): the language's own multiplication.
Value m_prod(Interp& in, CallArgs& a) {
    expect_args(a, "prod", 1, 1);
    const Value* s = kwarg(a, "start");
    Value acc = s ? *s : Value::integer(1);
    for_each(in, a[0], [&](const Value& v) {
        acc = binary_op(in, BinOp::Mul, acc, v);
        return true;
    });
    return acc;
}

Value m_dist(Interp& in, CallArgs& a) {
    expect_args(a, "dist", 2, 2);
    std::vector<double> p, q;
    for_each(in, a[0], [&](const Value& v) { p.push_back(real_arg(v)); return true; });
    for_each(in, a[1], [&](const Value& v) { q.push_back(real_arg(v)); return true; });
    if (p.size() != q.size()) raise(types::ValueError, "both points must have the same number of dimensions");
    double acc = 0;
    for (size_t i = 0; i < p.size(); ++i) acc = std::hypot(acc, p[i] - q[i]);
    return Value::real(acc);
}

void def(ModuleObj* m, const char* name, NativeFn fn, const char* sig, const char* doc) {
    m->set(name, make_builtin(name, fn, sig, doc));
}

}  // namespace

void add_math_more(ModuleObj* m) {
    def(m, "acosh", checked<acosh_>, "acosh(x, /)", "Return the inverse hyperbolic cosine of x.");
    def(m, "asinh", checked<asinh_>, "asinh(x, /)", "Return the inverse hyperbolic sine of x.");
    def(m, "atanh", checked<atanh_>, "atanh(x, /)", "Return the inverse hyperbolic tangent of x.");
    def(m, "cbrt", checked<cbrt_>, "cbrt(x, /)", "Return the cube root of x.");
    def(m, "exp2", checked<exp2_>, "exp2(x, /)", "Return 2 raised to the power x.");
    def(m, "erf", checked<erf_>, "erf(x, /)", "Error function at x.");
    def(m, "erfc", checked<erfc_>, "erfc(x, /)", "Complementary error function at x.");
    def(m, "gamma", checked<gamma_>, "gamma(x, /)", "Gamma function at x.");
    def(m, "lgamma", checked<lgamma_>, "lgamma(x, /)", "Natural logarithm of absolute value of Gamma function at x.");
    def(m, "frexp", m_frexp, "frexp(x, /)", "Return the mantissa and exponent of x, as pair (m, e).");
    def(m, "ldexp", m_ldexp, "ldexp(x, i, /)", "Return x * (2**i).");
    def(m, "modf", m_modf, "modf(x, /)", "Return the fractional and integer parts of x.");
    def(m, "nextafter", m_nextafter, "nextafter(x, y, /)", "Return the next floating-point value after x towards y.");
    def(m, "ulp", m_ulp, "ulp(x, /)", "Return the value of the least significant bit of the float x.");
    def(m, "remainder", m_remainder, "remainder(x, y, /)", "Difference between x and the closest integer multiple of y.");
    def(m, "isqrt", m_isqrt, "isqrt(n, /)", "Return the integer part of the square root of the input.");
    def(m, "lcm", m_lcm, "lcm(*integers)", "Least Common Multiple.");
    def(m, "comb", m_comb, "comb(n, k, /)", "Number of ways to choose k items from n items without repetition and without order.");
    def(m, "perm", m_perm, "perm(n, k=None, /)", "Number of ways to choose k items from n items without repetition and with order.");
    def(m, "prod", m_prod, "prod(iterable, /, *, start=1)", "Calculate the product of all the elements in the input iterable.");
    def(m, "dist", m_dist, "dist(p, q, /)", "Return the Euclidean distance between two points p and q.");
}

}  // namespace gpy
