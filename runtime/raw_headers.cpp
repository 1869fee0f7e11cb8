#include "runtime/raw_headers.h"

#include <regex>

namespace gpy {

namespace {

// complex<T> with thrust's interface (what CuPy's cupy/complex.cuh offers):
// real/imag, arithmetic with complex and real operands, comparisons, and
// abs, arg, norm, conj, polar, proj, exp, log, log10, sqrt, pow, the
// trigonometric and hyperbolic functions and isnan/isinf/isfinite, as
// __host__ __device__ functions found by argument-dependent lookup. Written
// for gpy (not CuPy's text); the layout is (real, imag), as NumPy's complex64
// and complex128, so arrays of those are arrays of complex<float>/<double>.
constexpr const char* kComplexHeader = R"CUDA(#ifndef GPY_CUPY_COMPLEX
#define GPY_CUPY_COMPLEX 1
namespace gpy_complex {
// The real functions, which the complex overloads below would hide.
using ::exp; using ::log; using ::sqrt; using ::sin; using ::cos; using ::sinh; using ::cosh; using ::atan2;
using ::hypot; using ::fabs; using ::copysign; using ::isinf; using ::isnan; using ::isfinite;
template <class T> struct __align__(2 * sizeof(T)) complex {
    T re_, im_;
    __host__ __device__ complex(const T& re = T(), const T& im = T()) : re_(re), im_(im) {}
    template <class U> __host__ __device__ explicit complex(const complex<U>& z) : re_(T(z.real())), im_(T(z.imag())) {}
    __host__ __device__ T real() const { return re_; }
    __host__ __device__ T imag() const { return im_; }
    __host__ __device__ void real(T v) { re_ = v; }
    __host__ __device__ void imag(T v) { im_ = v; }
    __host__ __device__ complex& operator+=(const complex& z) { re_ += z.re_; im_ += z.im_; return *this; }
    __host__ __device__ complex& operator-=(const complex& z) { re_ -= z.re_; im_ -= z.im_; return *this; }
    __host__ __device__ complex& operator*=(const complex& z) { *this = *this * z; return *this; }
    __host__ __device__ complex& operator/=(const complex& z) { *this = *this / z; return *this; }
    __host__ __device__ complex& operator+=(const T& v) { re_ += v; return *this; }
    __host__ __device__ complex& operator-=(const T& v) { re_ -= v; return *this; }
    __host__ __device__ complex& operator*=(const T& v) { re_ *= v; im_ *= v; return *this; }
    __host__ __device__ complex& operator/=(const T& v) { re_ /= v; im_ /= v; return *this; }
};
template <class T> __host__ __device__ inline T real(const complex<T>& z) { return z.real(); }
template <class T> __host__ __device__ inline T imag(const complex<T>& z) { return z.imag(); }
template <class T> __host__ __device__ inline complex<T> operator+(const complex<T>& z) { return z; }
template <class T> __host__ __device__ inline complex<T> operator-(const complex<T>& z) { return complex<T>(-z.real(), -z.imag()); }
template <class T> __host__ __device__ inline complex<T> operator+(const complex<T>& a, const complex<T>& b) { return complex<T>(a.real() + b.real(), a.imag() + b.imag()); }
template <class T> __host__ __device__ inline complex<T> operator-(const complex<T>& a, const complex<T>& b) { return complex<T>(a.real() - b.real(), a.imag() - b.imag()); }
template <class T> __host__ __device__ inline complex<T> operator*(const complex<T>& a, const complex<T>& b) {
    return complex<T>(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}
// Smith's division: scaled by the larger part of the divisor (no overflow for large divisors).
template <class T> __host__ __device__ inline complex<T> operator/(const complex<T>& a, const complex<T>& b) {
    const T br = b.real(), bi = b.imag();
    if (fabs(br) >= fabs(bi)) {
        if (br == T(0) && bi == T(0)) return complex<T>(a.real() / fabs(br), a.imag() / fabs(br));
        const T r = bi / br, d = br + bi * r;
        return complex<T>((a.real() + a.imag() * r) / d, (a.imag() - a.real() * r) / d);
    }
    const T r = br / bi, d = br * r + bi;
    return complex<T>((a.real() * r + a.imag()) / d, (a.imag() * r - a.real()) / d);
}
template <class T> __host__ __device__ inline complex<T> operator+(const complex<T>& a, const T& b) { return complex<T>(a.real() + b, a.imag()); }
template <class T> __host__ __device__ inline complex<T> operator+(const T& a, const complex<T>& b) { return complex<T>(a + b.real(), b.imag()); }
template <class T> __host__ __device__ inline complex<T> operator-(const complex<T>& a, const T& b) { return complex<T>(a.real() - b, a.imag()); }
template <class T> __host__ __device__ inline complex<T> operator-(const T& a, const complex<T>& b) { return complex<T>(a - b.real(), -b.imag()); }
template <class T> __host__ __device__ inline complex<T> operator*(const complex<T>& a, const T& b) { return complex<T>(a.real() * b, a.imag() * b); }
template <class T> __host__ __device__ inline complex<T> operator*(const T& a, const complex<T>& b) { return complex<T>(a * b.real(), a * b.imag()); }
template <class T> __host__ __device__ inline complex<T> operator/(const complex<T>& a, const T& b) { return complex<T>(a.real() / b, a.imag() / b); }
template <class T> __host__ __device__ inline complex<T> operator/(const T& a, const complex<T>& b) { return complex<T>(a) / b; }
template <class T> __host__ __device__ inline bool operator==(const complex<T>& a, const complex<T>& b) { return a.real() == b.real() && a.imag() == b.imag(); }
template <class T> __host__ __device__ inline bool operator==(const complex<T>& a, const T& b) { return a.real() == b && a.imag() == T(0); }
template <class T> __host__ __device__ inline bool operator==(const T& a, const complex<T>& b) { return b == a; }
template <class T> __host__ __device__ inline bool operator!=(const complex<T>& a, const complex<T>& b) { return !(a == b); }
template <class T> __host__ __device__ inline bool operator!=(const complex<T>& a, const T& b) { return !(a == b); }
template <class T> __host__ __device__ inline bool operator!=(const T& a, const complex<T>& b) { return !(b == a); }
template <class T> __host__ __device__ inline T abs(const complex<T>& z) { return hypot(z.real(), z.imag()); }
template <class T> __host__ __device__ inline T arg(const complex<T>& z) { return atan2(z.imag(), z.real()); }
template <class T> __host__ __device__ inline T norm(const complex<T>& z) { return z.real() * z.real() + z.imag() * z.imag(); }
template <class T> __host__ __device__ inline complex<T> conj(const complex<T>& z) { return complex<T>(z.real(), -z.imag()); }
template <class T> __host__ __device__ inline complex<T> polar(const T& r, const T& theta = T()) { return complex<T>(r * cos(theta), r * sin(theta)); }
template <class T> __host__ __device__ inline complex<T> proj(const complex<T>& z) {
    if (isinf(z.real()) || isinf(z.imag())) return complex<T>(T(1) / T(0), copysign(T(0), z.imag()));
    return z;
}
template <class T> __host__ __device__ inline bool isnan(const complex<T>& z) { return isnan(z.real()) || isnan(z.imag()); }
template <class T> __host__ __device__ inline bool isinf(const complex<T>& z) { return isinf(z.real()) || isinf(z.imag()); }
template <class T> __host__ __device__ inline bool isfinite(const complex<T>& z) { return isfinite(z.real()) && isfinite(z.imag()); }
template <class T> __host__ __device__ inline complex<T> exp(const complex<T>& z) {
    const T e = exp(z.real());
    if (z.imag() == T(0)) return complex<T>(e, z.imag());
    return complex<T>(e * cos(z.imag()), e * sin(z.imag()));
}
template <class T> __host__ __device__ inline complex<T> log(const complex<T>& z) { return complex<T>(log(abs(z)), arg(z)); }
template <class T> __host__ __device__ inline complex<T> log10(const complex<T>& z) { return log(z) / log(T(10)); }
// The principal square root, computed without cancellation.
template <class T> __host__ __device__ inline complex<T> sqrt(const complex<T>& z) {
    const T x = z.real(), y = z.imag();
    if (x == T(0) && y == T(0)) return complex<T>(T(0), y);
    if (isinf(y)) return complex<T>(T(1) / T(0), y);
    const T t = sqrt((fabs(x) + abs(z)) / T(2));
    if (x >= T(0)) return complex<T>(t, y / (T(2) * t));
    return complex<T>(fabs(y) / (T(2) * t), copysign(t, y));
}
template <class T> __host__ __device__ inline complex<T> pow(const complex<T>& a, const complex<T>& b) {
    if (a.real() == T(0) && a.imag() == T(0)) return (b.real() == T(0) && b.imag() == T(0)) ? complex<T>(T(1)) : complex<T>();
    return exp(b * log(a));
}
template <class T> __host__ __device__ inline complex<T> pow(const complex<T>& a, const T& b) { return pow(a, complex<T>(b)); }
template <class T> __host__ __device__ inline complex<T> pow(const T& a, const complex<T>& b) { return pow(complex<T>(a), b); }
template <class T> __host__ __device__ inline complex<T> sinh(const complex<T>& z) {
    return complex<T>(sinh(z.real()) * cos(z.imag()), cosh(z.real()) * sin(z.imag()));
}
template <class T> __host__ __device__ inline complex<T> cosh(const complex<T>& z) {
    return complex<T>(cosh(z.real()) * cos(z.imag()), sinh(z.real()) * sin(z.imag()));
}
template <class T> __host__ __device__ inline complex<T> tanh(const complex<T>& z) {
    // (sinh 2x + i sin 2y) / (cosh 2x + cos 2y); for large |x| the limit +-1 + 0i.
    if (fabs(z.real()) > T(20)) return complex<T>(copysign(T(1), z.real()), copysign(T(0), sin(T(2) * z.imag())));
    const T d = cosh(T(2) * z.real()) + cos(T(2) * z.imag());
    return complex<T>(sinh(T(2) * z.real()) / d, sin(T(2) * z.imag()) / d);
}
// sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz).
template <class T> __host__ __device__ inline complex<T> sin(const complex<T>& z) {
    const complex<T> s = sinh(complex<T>(-z.imag(), z.real()));
    return complex<T>(s.imag(), -s.real());
}
template <class T> __host__ __device__ inline complex<T> cos(const complex<T>& z) { return cosh(complex<T>(-z.imag(), z.real())); }
template <class T> __host__ __device__ inline complex<T> tan(const complex<T>& z) {
    const complex<T> t = tanh(complex<T>(-z.imag(), z.real()));
    return complex<T>(t.imag(), -t.real());
}
}  // namespace gpy_complex
using gpy_complex::complex;
using gpy_complex::polar;  // its arguments are real: argument-dependent lookup does not find it
namespace thrust { using gpy_complex::complex; using gpy_complex::polar; }
#endif
)CUDA";

}  // namespace

std::string expand_bundled_headers(const std::string& code, const std::string& file) {
    if (code.find("cupy/complex.cuh") == std::string::npos) return code;
    static const std::regex include(R"(^[ \t]*#[ \t]*include[ \t]*[<"]cupy/complex\.cuh[>"][ \t]*$)");
    std::string out;
    size_t line = 1, at = 0;
    while (at <= code.size()) {
        const size_t end = code.find('\n', at);
        const std::string text = code.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (std::regex_match(text, include)) {
            out += "#line 1 \"cupy/complex.cuh\"\n";
            out += kComplexHeader;
            out += "#line " + std::to_string(line + 1) + " \"" + file + "\"\n";
        } else {
            out += text;
            if (end != std::string::npos) out += '\n';
        }
        if (end == std::string::npos) break;
        at = end + 1;
        ++line;
    }
    return out;
}

}  // namespace gpy
