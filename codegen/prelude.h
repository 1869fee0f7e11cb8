// The per-backend preludes: the small set of type names and math functions
// that generated kernel bodies use. One emitter writes the bodies; only this
// prelude differs between the CPU (Clang) and CUDA (NVRTC) compilers.
#pragma once

namespace gpy {

// CPU prelude: no headers (parsing <cmath> would cost more than compiling the
// kernel); Clang builtins lower to libm/libmvec calls that vectorise.
inline constexpr const char* kCpuPrelude = R"PRELUDE(
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t; typedef unsigned long uint64_t;
typedef _Float16 gpy_half;
#define GPY_KERNEL extern "C"
#define GPY_INLINE static inline __attribute__((always_inline))
#define GPY_ROW_FN static inline __attribute__((always_inline))
#define GPY_RECURSIVE static
#define GPY_RESTRICT __restrict__
#define GPY_REDUCE_TILE 256
#define GPY_REPORT_ERROR(word, code) __atomic_store_n((int*)(word), (code), __ATOMIC_RELAXED)
// Row kernels: one thread per row, nothing to combine, rows read from cache.
#define GPY_ROW_CACHE 0
template <bool Fence, class A, class F> GPY_INLINE A gpy_row_allreduce(A v, F) { return v; }
template <class T> struct gpy_unsigned { typedef T type; };
template <> struct gpy_unsigned<int8_t> { typedef uint8_t type; };
template <> struct gpy_unsigned<int16_t> { typedef uint16_t type; };
template <> struct gpy_unsigned<int32_t> { typedef uint32_t type; };
template <> struct gpy_unsigned<int64_t> { typedef uint64_t type; };
// float32 exp and log as NumPy computes them on x86 with AVX2+FMA3 or
// AVX-512F (loops_exponent_log: Cody-Waite reduction and Remez rational
// approximations, fused multiply-adds; max 2.52 and 3.83 ulp), so CPU results
// equal NumPy's bit for bit, and the loops vectorise as plain arithmetic.
GPY_INLINE float gpy_np_expf(float x_in) {
    const bool nan = x_in != x_in;
    float x = nan ? 0.0f : x_in;
    const bool big = x >= 88.72283935546875f, small = x <= -103.97208404541015625f;
    x = big || small ? 0.0f : x;
    // rint(x * log2(e)) by the 1.5 * 2^23 magic addition, as NumPy.
    const float q = (x * 1.44269504088896341f + 0x1.8p+23f) - 0x1.8p+23f;
    x = __builtin_fmaf(q, -6.93145752e-1f, x);
    x = __builtin_fmaf(q, -1.42860677e-6f, x);
    float num = __builtin_fmaf(5.082762527590693718096e-04f, x, 6.757896990527504603057e-03f);
    num = __builtin_fmaf(num, x, 5.114512081637298353406e-02f);
    num = __builtin_fmaf(num, x, 2.473615434895520810817e-01f);
    num = __builtin_fmaf(num, x, 7.257664613233124478488e-01f);
    num = __builtin_fmaf(num, x, 9.999999999980870924916e-01f);
    float den = __builtin_fmaf(2.159509375685829852307e-02f, x, -2.742335390411667452936e-01f);
    den = __builtin_fmaf(den, x, 1.0f);
    // poly * 2^q with one rounding (AVX-512's scalef): the first factor
    // keeps the product normal (exact), only the second can round (a
    // subnormal result) or overflow (q = 128).
    const int32_t qi = (int32_t)q, q1 = qi < -100 ? -100 : qi > 127 ? 127 : qi;
    const float r = ((num / den) * __builtin_bit_cast(float, (uint32_t)(q1 + 127) << 23)) *
                    __builtin_bit_cast(float, (uint32_t)(qi - q1 + 127) << 23);
    return nan ? __builtin_nanf("") : big ? __builtin_inff() : small ? 0.0f : r;
}
GPY_INLINE float gpy_np_logf(float x_in) {
    const bool nan = x_in != x_in, neg = x_in < 0.0f, zero = x_in == 0.0f, inf = x_in == __builtin_inff();
    float x = neg || nan ? 1.0f : x_in;
    // x = m * 2^e, m in [0.5, 1) (AVX-512's getmant/getexp); subnormals scaled first.
    const bool sub = x < 1.17549435e-38f;
    x = sub ? x * 0x1p100f : x;
    const uint32_t b = __builtin_bit_cast(uint32_t, x);
    float e = (float)((int32_t)(b >> 23) - 126 - (sub ? 100 : 0));
    float m = __builtin_bit_cast(float, (b & 0x007fffffu) | 0x3f000000u);
    const bool below = m <= 0.707106781186547524400844362104849039f;
    m = below ? m + m : m;
    e = below ? e - 1.0f : e;
    const float y = m - 1.0f;
    float num = __builtin_fmaf(2.589979117907922693523e-02f, y, 3.808837741388407920751e-01f);
    num = __builtin_fmaf(num, y, 1.480000633576506585156e+00f);
    num = __builtin_fmaf(num, y, 2.112677543073053063722e+00f);
    num = __builtin_fmaf(num, y, 9.999999999999998702752e-01f);
    num = __builtin_fmaf(num, y, 0.0f);
    float den = __builtin_fmaf(5.875095403124574342950e-03f, y, 1.546476374983906719538e-01f);
    den = __builtin_fmaf(den, y, 9.864942958519418960339e-01f);
    den = __builtin_fmaf(den, y, 2.453006071784736363091e+00f);
    den = __builtin_fmaf(den, y, 2.612677543073109236779e+00f);
    den = __builtin_fmaf(den, y, 1.0f);
    const float r = __builtin_fmaf(e, 0.693147180559945309417232121458176568f, num / den);
    return nan ? __builtin_nanf("") : neg ? -__builtin_nanf("") : zero ? -__builtin_inff() : inf ? __builtin_inff() : r;
}
GPY_INLINE float gpy_exp(float x) { return gpy_np_expf(x); }
GPY_INLINE double gpy_exp(double x) { return __builtin_exp(x); }
GPY_INLINE float gpy_exp2(float x) { return __builtin_exp2f(x); }
GPY_INLINE double gpy_exp2(double x) { return __builtin_exp2(x); }
GPY_INLINE float gpy_expm1(float x) { return __builtin_expm1f(x); }
GPY_INLINE double gpy_expm1(double x) { return __builtin_expm1(x); }
GPY_INLINE float gpy_log(float x) { return gpy_np_logf(x); }
GPY_INLINE double gpy_log(double x) { return __builtin_log(x); }
GPY_INLINE float gpy_log2(float x) { return __builtin_log2f(x); }
GPY_INLINE double gpy_log2(double x) { return __builtin_log2(x); }
GPY_INLINE float gpy_log10(float x) { return __builtin_log10f(x); }
GPY_INLINE double gpy_log10(double x) { return __builtin_log10(x); }
GPY_INLINE float gpy_log1p(float x) { return __builtin_log1pf(x); }
GPY_INLINE double gpy_log1p(double x) { return __builtin_log1p(x); }
GPY_INLINE float gpy_sqrt(float x) { return __builtin_sqrtf(x); }
GPY_INLINE double gpy_sqrt(double x) { return __builtin_sqrt(x); }
GPY_INLINE float gpy_cbrt(float x) { return __builtin_cbrtf(x); }
GPY_INLINE double gpy_cbrt(double x) { return __builtin_cbrt(x); }
GPY_INLINE float gpy_sin(float x) { return __builtin_sinf(x); }
GPY_INLINE double gpy_sin(double x) { return __builtin_sin(x); }
GPY_INLINE float gpy_cos(float x) { return __builtin_cosf(x); }
GPY_INLINE double gpy_cos(double x) { return __builtin_cos(x); }
GPY_INLINE float gpy_tan(float x) { return __builtin_tanf(x); }
GPY_INLINE double gpy_tan(double x) { return __builtin_tan(x); }
GPY_INLINE float gpy_arcsin(float x) { return __builtin_asinf(x); }
GPY_INLINE double gpy_arcsin(double x) { return __builtin_asin(x); }
GPY_INLINE float gpy_arccos(float x) { return __builtin_acosf(x); }
GPY_INLINE double gpy_arccos(double x) { return __builtin_acos(x); }
GPY_INLINE float gpy_arctan(float x) { return __builtin_atanf(x); }
GPY_INLINE double gpy_arctan(double x) { return __builtin_atan(x); }
GPY_INLINE float gpy_sinh(float x) { return __builtin_sinhf(x); }
GPY_INLINE double gpy_sinh(double x) { return __builtin_sinh(x); }
GPY_INLINE float gpy_cosh(float x) { return __builtin_coshf(x); }
GPY_INLINE double gpy_cosh(double x) { return __builtin_cosh(x); }
GPY_INLINE float gpy_tanh(float x) { return __builtin_tanhf(x); }
GPY_INLINE double gpy_tanh(double x) { return __builtin_tanh(x); }
GPY_INLINE float gpy_arcsinh(float x) { return __builtin_asinhf(x); }
GPY_INLINE double gpy_arcsinh(double x) { return __builtin_asinh(x); }
GPY_INLINE float gpy_arccosh(float x) { return __builtin_acoshf(x); }
GPY_INLINE double gpy_arccosh(double x) { return __builtin_acosh(x); }
GPY_INLINE float gpy_arctanh(float x) { return __builtin_atanhf(x); }
GPY_INLINE double gpy_arctanh(double x) { return __builtin_atanh(x); }
GPY_INLINE float gpy_floor(float x) { return __builtin_floorf(x); }
GPY_INLINE double gpy_floor(double x) { return __builtin_floor(x); }
GPY_INLINE float gpy_ceil(float x) { return __builtin_ceilf(x); }
GPY_INLINE double gpy_ceil(double x) { return __builtin_ceil(x); }
GPY_INLINE float gpy_trunc(float x) { return __builtin_truncf(x); }
GPY_INLINE double gpy_trunc(double x) { return __builtin_trunc(x); }
GPY_INLINE float gpy_rint(float x) { return __builtin_rintf(x); }
GPY_INLINE double gpy_rint(double x) { return __builtin_rint(x); }
GPY_INLINE float gpy_fabs(float x) { return __builtin_fabsf(x); }
GPY_INLINE double gpy_fabs(double x) { return __builtin_fabs(x); }
GPY_INLINE float gpy_pow(float x, float y) { return __builtin_powf(x, y); }
GPY_INLINE double gpy_pow(double x, double y) { return __builtin_pow(x, y); }
GPY_INLINE float gpy_fmod(float x, float y) { return __builtin_fmodf(x, y); }
GPY_INLINE double gpy_fmod(double x, double y) { return __builtin_fmod(x, y); }
GPY_INLINE float gpy_atan2(float x, float y) { return __builtin_atan2f(x, y); }
GPY_INLINE double gpy_atan2(double x, double y) { return __builtin_atan2(x, y); }
GPY_INLINE float gpy_hypot(float x, float y) { return __builtin_hypotf(x, y); }
GPY_INLINE double gpy_hypot(double x, double y) { return __builtin_hypot(x, y); }
GPY_INLINE float gpy_copysign(float x, float y) { return __builtin_copysignf(x, y); }
GPY_INLINE double gpy_copysign(double x, double y) { return __builtin_copysign(x, y); }
GPY_INLINE float gpy_fmax(float x, float y) { return __builtin_fmaxf(x, y); }
GPY_INLINE double gpy_fmax(double x, double y) { return __builtin_fmax(x, y); }
GPY_INLINE float gpy_fmin(float x, float y) { return __builtin_fminf(x, y); }
GPY_INLINE double gpy_fmin(double x, double y) { return __builtin_fmin(x, y); }
template <class T> GPY_INLINE bool gpy_isnan(T x) { return x != x; }
template <class T> GPY_INLINE bool gpy_isinf(T x) { return __builtin_isinf(x); }
template <class T> GPY_INLINE bool gpy_isfinite(T x) { return __builtin_isfinite(x); }
template <class T> GPY_INLINE bool gpy_signbit(T x) { return __builtin_signbit(x); }
GPY_INLINE float gpy_round_half(float x) { return (float)(gpy_half)x; }
GPY_INLINE uint16_t gpy_half_bits(float x) { return __builtin_bit_cast(uint16_t, (gpy_half)x); }
GPY_INLINE float gpy_half_from_bits(uint16_t b) { return (float)__builtin_bit_cast(gpy_half, b); }
// Exponents beyond +-2200 change nothing (a double's range is 2^-1074 .. 2^1024).
GPY_INLINE float gpy_ldexp(float x, int64_t e) { return __builtin_ldexpf(x, (int)(e < -2200 ? -2200 : e > 2200 ? 2200 : e)); }
GPY_INLINE double gpy_ldexp(double x, int64_t e) { return __builtin_ldexp(x, (int)(e < -2200 ? -2200 : e > 2200 ? 2200 : e)); }
// Complex elementary functions of any {re, im} struct through glibc's
// (NumPy's npy_csqrt & co. call these on Linux).
template <class T> struct gpy_libm_complex;
template <> struct gpy_libm_complex<float> { typedef _Complex float type; };
template <> struct gpy_libm_complex<double> { typedef _Complex double type; };
template <class Z> GPY_INLINE typename gpy_libm_complex<__typeof__(Z().re)>::type gpy_libm_in(Z z) {
    typename gpy_libm_complex<__typeof__(Z().re)>::type c; __real__ c = z.re; __imag__ c = z.im; return c;
}
template <class Z, class C> GPY_INLINE Z gpy_libm_out(C c) { Z r; r.re = __real__ c; r.im = __imag__ c; return r; }
#define GPY_LIBM_COMPLEX(name, fn) \
    GPY_INLINE _Complex float gpy_libm_##fn(_Complex float z) { return __builtin_##fn##f(z); } \
    GPY_INLINE _Complex double gpy_libm_##fn(_Complex double z) { return __builtin_##fn(z); } \
    template <class Z> GPY_INLINE Z gpy_libm_c##name(Z z) { return gpy_libm_out<Z>(gpy_libm_##fn(gpy_libm_in(z))); }
GPY_LIBM_COMPLEX(sqrt, csqrt) GPY_LIBM_COMPLEX(exp, cexp) GPY_LIBM_COMPLEX(log, clog)
GPY_LIBM_COMPLEX(sin, csin) GPY_LIBM_COMPLEX(cos, ccos) GPY_LIBM_COMPLEX(tan, ctan)
GPY_LIBM_COMPLEX(arcsin, casin) GPY_LIBM_COMPLEX(arccos, cacos) GPY_LIBM_COMPLEX(arctan, catan)
GPY_LIBM_COMPLEX(sinh, csinh) GPY_LIBM_COMPLEX(cosh, ccosh) GPY_LIBM_COMPLEX(tanh, ctanh)
GPY_LIBM_COMPLEX(arcsinh, casinh) GPY_LIBM_COMPLEX(arccosh, cacosh) GPY_LIBM_COMPLEX(arctanh, catanh)
#undef GPY_LIBM_COMPLEX
GPY_INLINE _Complex float gpy_libm_cpow2(_Complex float a, _Complex float b) { return __builtin_cpowf(a, b); }
GPY_INLINE _Complex double gpy_libm_cpow2(_Complex double a, _Complex double b) { return __builtin_cpow(a, b); }
template <class Z> GPY_INLINE Z gpy_libm_cpow(Z a, Z b) { return gpy_libm_out<Z>(gpy_libm_cpow2(gpy_libm_in(a), gpy_libm_in(b))); }
)PRELUDE";

// CUDA prelude (NVRTC, compiled with -default-device): no headers either;
// NVRTC declares CUDA's device math (expf, exp, ...) itself. Kernel entry
// points are __device__ functions: the CUDA backend appends the __global__
// wrappers that map threads onto [begin, end) ranges.
inline constexpr const char* kCudaPrelude = R"PRELUDE(
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t; typedef unsigned long uint64_t;
#define GPY_KERNEL static __device__
#define GPY_INLINE __device__ __forceinline__
// A row kernel's row function, inlined into each entry point with its `vec`
// a constant there, so the other path's code and registers drop out.
#define GPY_ROW_FN static __device__ __forceinline__
#define GPY_RECURSIVE static __device__
#define GPY_RESTRICT __restrict__
#define GPY_REDUCE_TILE 1
#define GPY_REPORT_ERROR(word, code) atomicExch((int*)(word), (code))
#define GPY_REASSOC
// Row kernels keep up to this many elements of a row per thread in registers.
#define GPY_ROW_CACHE 16
// The GCC builtins that kCommonPrelude and emitted bodies use, which NVRTC lacks.
#define __builtin_nan(tag) __longlong_as_double(0x7ff8000000000000LL)
#define __builtin_inf() __longlong_as_double(0x7ff0000000000000LL)
#define __builtin_memcpy memcpy
template <class T> struct gpy_unsigned { typedef T type; };
template <> struct gpy_unsigned<int8_t> { typedef uint8_t type; };
template <> struct gpy_unsigned<int16_t> { typedef uint16_t type; };
template <> struct gpy_unsigned<int32_t> { typedef uint32_t type; };
template <> struct gpy_unsigned<int64_t> { typedef uint64_t type; };
// float16 storage: IEEE binary16 bits converted with the PTX cvt instructions
// (round to nearest even), as <cuda_fp16.h> does, without its headers.
struct gpy_half {
    uint16_t bits;
    gpy_half() = default;
    __device__ gpy_half(float x) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(x)); }
    __device__ gpy_half(double x) { asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(x)); }
    // Integers: exact in double up to 2^53, so one rounding as _Float16 does.
    template <class T> __device__ gpy_half(T x) : gpy_half((double)x) {}
    __device__ operator float() const { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits)); return f; }
};
#define GPY_MATH1(name, fn) \
    GPY_INLINE float gpy_##name(float x) { return fn##f(x); } \
    GPY_INLINE double gpy_##name(double x) { return fn(x); }
#define GPY_MATH2(name, fn) \
    GPY_INLINE float gpy_##name(float x, float y) { return fn##f(x, y); } \
    GPY_INLINE double gpy_##name(double x, double y) { return fn(x, y); }
GPY_MATH1(exp, exp) GPY_MATH1(exp2, exp2) GPY_MATH1(expm1, expm1) GPY_MATH1(log, log) GPY_MATH1(log2, log2)
GPY_MATH1(log10, log10) GPY_MATH1(log1p, log1p) GPY_MATH1(sqrt, sqrt) GPY_MATH1(cbrt, cbrt)
GPY_MATH1(sin, sin) GPY_MATH1(cos, cos) GPY_MATH1(tan, tan) GPY_MATH1(arcsin, asin) GPY_MATH1(arccos, acos)
GPY_MATH1(arctan, atan) GPY_MATH1(sinh, sinh) GPY_MATH1(cosh, cosh) GPY_MATH1(tanh, tanh)
GPY_MATH1(arcsinh, asinh) GPY_MATH1(arccosh, acosh) GPY_MATH1(arctanh, atanh) GPY_MATH1(floor, floor)
GPY_MATH1(ceil, ceil) GPY_MATH1(trunc, trunc) GPY_MATH1(rint, rint) GPY_MATH1(fabs, fabs)
GPY_MATH2(fmod, fmod) GPY_MATH2(atan2, atan2) GPY_MATH2(hypot, hypot)
GPY_MATH2(copysign, copysign) GPY_MATH2(fmax, fmax) GPY_MATH2(fmin, fmin)
#undef GPY_MATH1
#undef GPY_MATH2
// x ** 2 is x * x: what a correctly rounded pow gives (glibc's, so NumPy's
// scalars'); CUDA's pow may be an ulp off there (np.mean(x) ** 2).
GPY_INLINE float gpy_pow(float x, float y) { return y == 2.0f ? x * x : powf(x, y); }
GPY_INLINE double gpy_pow(double x, double y) { return y == 2.0 ? x * x : pow(x, y); }
// Classification by arithmetic (x - x is 0 for finite x, NaN otherwise) and
// copysign, valid for any IEEE type without the toolkit's headers.
template <class T> GPY_INLINE bool gpy_isnan(T x) { return x != x; }
template <class T> GPY_INLINE bool gpy_isfinite(T x) { return x - x == x - x; }
template <class T> GPY_INLINE bool gpy_isinf(T x) { return x == x && !gpy_isfinite(x); }
template <class T> GPY_INLINE bool gpy_signbit(T x) { return gpy_copysign((T)1, x) < 0; }
GPY_INLINE float gpy_round_half(float x) { return (float)gpy_half(x); }
GPY_INLINE uint16_t gpy_half_bits(float x) { return gpy_half(x).bits; }
GPY_INLINE float gpy_half_from_bits(uint16_t b) { gpy_half h; h.bits = b; return (float)h; }
GPY_INLINE float gpy_ldexp(float x, int64_t e) { return ldexpf(x, (int)(e < -2200 ? -2200 : e > 2200 ? 2200 : e)); }
GPY_INLINE double gpy_ldexp(double x, int64_t e) { return ldexp(x, (int)(e < -2200 ? -2200 : e > 2200 ? 2200 : e)); }
// Complex elementary functions of any {re, im} struct. Textbook formulas
// (CUDA has no complex libm): glibc's special values for infinite and NaN
// parts and its accuracy near branch cuts are not reproduced yet.
template <class Z> GPY_INLINE Z gpy_cz(decltype(Z().re) re, decltype(Z().re) im) { Z r; r.re = re; r.im = im; return r; }
template <class Z> GPY_INLINE Z gpy_cz_mul(Z a, Z b) { return gpy_cz<Z>(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }
template <class Z> GPY_INLINE Z gpy_cz_mul_i(Z z) { return gpy_cz<Z>(-z.im, z.re); }        // i z
template <class Z> GPY_INLINE Z gpy_cz_mul_minus_i(Z z) { return gpy_cz<Z>(z.im, -z.re); }  // -i z
template <class Z> GPY_INLINE Z gpy_libm_cexp(Z z) {
    decltype(z.re) e = gpy_exp(z.re);
    return gpy_cz<Z>(e * gpy_cos(z.im), e * gpy_sin(z.im));
}
template <class Z> GPY_INLINE Z gpy_libm_clog(Z z) { return gpy_cz<Z>(gpy_log(gpy_hypot(z.re, z.im)), gpy_atan2(z.im, z.re)); }
template <class Z> GPY_INLINE Z gpy_libm_csqrt(Z z) {
    typedef decltype(z.re) T;
    if (z.re == 0 && z.im == 0) return gpy_cz<Z>((T)0, z.im);
    T t = gpy_sqrt((gpy_fabs(z.re) + gpy_hypot(z.re, z.im)) / 2);
    if (z.re >= 0) return gpy_cz<Z>(t, z.im / (2 * t));
    return gpy_cz<Z>(gpy_fabs(z.im) / (2 * t), gpy_copysign(t, z.im));
}
template <class Z> GPY_INLINE Z gpy_libm_csinh(Z z) { return gpy_cz<Z>(gpy_sinh(z.re) * gpy_cos(z.im), gpy_cosh(z.re) * gpy_sin(z.im)); }
template <class Z> GPY_INLINE Z gpy_libm_ccosh(Z z) { return gpy_cz<Z>(gpy_cosh(z.re) * gpy_cos(z.im), gpy_sinh(z.re) * gpy_sin(z.im)); }
// Kahan's formula; past |re| = 20 tanh(re) is +-1 in double and sinh overflows.
template <class Z> GPY_INLINE Z gpy_libm_ctanh(Z z) {
    typedef decltype(z.re) T;
    if (gpy_fabs(z.re) > 20) return gpy_cz<Z>(gpy_copysign((T)1, z.re), 4 * gpy_sin(z.im) * gpy_cos(z.im) * gpy_exp(-2 * gpy_fabs(z.re)));
    T t = gpy_tan(z.im), beta = 1 + t * t, s = gpy_sinh(z.re), rho = gpy_sqrt(1 + s * s), d = 1 + beta * s * s;
    return gpy_cz<Z>(beta * rho * s / d, t / d);
}
template <class Z> GPY_INLINE Z gpy_libm_csin(Z z) { return gpy_cz_mul_minus_i(gpy_libm_csinh(gpy_cz_mul_i(z))); }
template <class Z> GPY_INLINE Z gpy_libm_ccos(Z z) { return gpy_libm_ccosh(gpy_cz_mul_i(z)); }
template <class Z> GPY_INLINE Z gpy_libm_ctan(Z z) { return gpy_cz_mul_minus_i(gpy_libm_ctanh(gpy_cz_mul_i(z))); }
// asinh z = log(z + sqrt(z^2 + 1)); acosh z = log(z + sqrt(z + 1) sqrt(z - 1)); atanh z = (log(1 + z) - log(1 - z)) / 2.
template <class Z> GPY_INLINE Z gpy_libm_carcsinh(Z z) {
    // asinh is odd: for re < 0 the formula would cancel (z + sqrt(z^2 + 1) -> 0).
    if (gpy_signbit(z.re)) {
        Z r = gpy_libm_carcsinh(gpy_cz<Z>(-z.re, -z.im));
        return gpy_cz<Z>(-r.re, -r.im);
    }
    Z w = gpy_cz_mul(z, z);
    w.re += 1;
    w = gpy_libm_csqrt(w);
    return gpy_libm_clog(gpy_cz<Z>(z.re + w.re, z.im + w.im));
}
template <class Z> GPY_INLINE Z gpy_libm_carccosh(Z z) {
    Z w = gpy_cz_mul(gpy_libm_csqrt(gpy_cz<Z>(z.re + 1, z.im)), gpy_libm_csqrt(gpy_cz<Z>(z.re - 1, z.im)));
    return gpy_libm_clog(gpy_cz<Z>(z.re + w.re, z.im + w.im));
}
template <class Z> GPY_INLINE Z gpy_libm_carctanh(Z z) {
    Z a = gpy_libm_clog(gpy_cz<Z>(1 + z.re, z.im)), b = gpy_libm_clog(gpy_cz<Z>(1 - z.re, -z.im));
    // The real part has the sign of re (-0 stays -0, as glibc's catanh).
    return gpy_cz<Z>(gpy_copysign((a.re - b.re) / 2, z.re), (a.im - b.im) / 2);
}
template <class Z> GPY_INLINE Z gpy_libm_carcsin(Z z) { return gpy_cz_mul_minus_i(gpy_libm_carcsinh(gpy_cz_mul_i(z))); }
template <class Z> GPY_INLINE Z gpy_libm_carccos(Z z) {
    typedef decltype(z.re) T;
    Z s = gpy_libm_carcsin(z);
    return gpy_cz<Z>((T)1.57079632679489661923132169163975144 - s.re, -s.im);
}
template <class Z> GPY_INLINE Z gpy_libm_carctan(Z z) { return gpy_cz_mul_minus_i(gpy_libm_carctanh(gpy_cz_mul_i(z))); }
template <class Z> GPY_INLINE Z gpy_libm_cpow(Z a, Z b) { return gpy_libm_cexp(gpy_cz_mul(b, gpy_libm_clog(a))); }
// Four elements moved as one aligned vector (16 bytes for float32: one
// 128-bit load or store).
template <class T> struct alignas(4 * sizeof(T)) gpy_vec4 { T v[4]; };
// Cooperative reductions and row kernels (the wrappers of
// codegen/cuda_source.cpp): any accumulator type moves between lanes as
// 32-bit words, down by d lanes or (butterfly) from lane ^ d.
template <class T> GPY_INLINE T gpy_shfl(T v, unsigned d, bool butterfly) {
    constexpr int W = (sizeof(T) + 3) / 4;
    unsigned w[W] = {};
    memcpy(w, &v, sizeof(T));
    for (int k = 0; k < W; ++k) w[k] = butterfly ? __shfl_xor_sync(0xffffffffu, w[k], d) : __shfl_down_sync(0xffffffffu, w[k], d);
    memcpy(&v, w, sizeof(T));
    return v;
}
template <class T> GPY_INLINE T gpy_shfl_down(T v, unsigned d) { return gpy_shfl(v, d, false); }
// In each group of `width` lanes (a power of two up to 32; the whole warp
// takes part), folds the accumulators of the group's lanes [0, valid) into
// its first lane.
template <class A, class F> GPY_INLINE void gpy_warp_combine(A& racc, int64_t& ridx, F combine, int width, int valid) {
    const int sub = threadIdx.x & (width - 1);
    for (int d = width >> 1; d > 0; d >>= 1) {
        A pv = gpy_shfl_down(racc, d);
        int64_t pi = gpy_shfl_down(ridx, d);
        if (sub + d < valid) combine(&racc, &ridx, pv, pi);
    }
}
// Folds the accumulators of each team of G threads (a power of two up to
// 32, or the whole block: a multiple of 32) into the team's first thread.
// Every thread of the block calls it; it may be called again at once.
template <class A, class F> __device__ void gpy_team_combine(A& racc, int64_t& ridx, F combine, int G) {
    const int width = G < 32 ? G : 32;
    gpy_warp_combine(racc, ridx, combine, width, width);
    if (G <= 32) return;
    __shared__ alignas(16) unsigned char raw[32 * sizeof(A)];
    __shared__ int64_t shi[32];
    A* sh = (A*)raw;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
    __syncthreads();  // the slots are free (an earlier call has read them)
    if (lane == 0) { sh[warp] = racc; shi[warp] = ridx; }
    __syncthreads();
    if (warp == 0) {
        if (lane < nw) { racc = sh[lane]; ridx = shi[lane]; }
        gpy_warp_combine(racc, ridx, combine, 32, nw);
    }
}
// Row kernels (a block per row, whole warps): every thread gets the fold of
// all threads' v, the same bits in each (lane 0 of each warp publishes its
// warp's butterfly result; all threads fold the slots in one order).
// Each call site has its own slots (a template instance per lambda type),
// written again only by the same call for the block's next row: with more
// than one call per row, another call's barrier lies between, which every
// thread reaches after reading. With one (`Fence`), a barrier before the
// write keeps the slots until all have read them.
template <bool Fence, class A, class F> __device__ A gpy_row_allreduce(A v, F f) {
    for (int d = 16; d > 0; d >>= 1) v = f(v, gpy_shfl(v, d, true));
    __shared__ double slots[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
    if (Fence) __syncthreads();  // the slots are free (every thread has read the last call's)
    if (lane == 0) slots[warp] = (double)v;
    __syncthreads();
    A r = (A)slots[0];
    for (int w = 1; w < nw; ++w) r = f(r, (A)slots[w]);
    return r;
}
)PRELUDE";

// Shared by every backend: NumPy's semantics for the operations whose C
// meaning differs (integer division and modulo signs, shifts past the width,
// NaN-propagating maximum/minimum, ...).
inline constexpr const char* kCommonPrelude = R"PRELUDE(
// NumPy's pairwise summation of at(lo), ..., at(lo + n - 1): sequential
// below 8 elements, 8 interleaved accumulators up to 128, halves (cut at a
// multiple of 8) above. Bit for bit NumPy's float sums (written from its
// description; at() computes a fused element). Recursive, so not
// force-inlined (GPY_RECURSIVE); the GPU's full sums use it too (their parts
// are subtrees of the recursion: runtime/cuda_backend.cpp).
template <class T, class F> GPY_RECURSIVE T gpy_pairwise(F& at, int64_t lo, int64_t n) {
    if (n < 8) {
        T res = 0;
        for (int64_t i = 0; i < n; ++i) res += at(lo + i);
        return res;
    }
    if (n <= 128) {
        T r[8];
        for (int k = 0; k < 8; ++k) r[k] = at(lo + k);
        int64_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (int k = 0; k < 8; ++k) r[k] += at(lo + i + k);
        T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) res += at(lo + i);
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return gpy_pairwise<T>(at, lo, n2) + gpy_pairwise<T>(at, lo + n2, n - n2);
}
// Float -> integer casts as NumPy's x86 build converts (cvttsd2si): an
// integer narrower than 32 bits is the low bits of the int32 conversion;
// an out-of-range or NaN conversion gives the "integer indefinite" minimum;
// unsigned 32/64-bit values above the signed range go through an offset.
// Written without undefined behaviour, so the CPU and the GPU (whose own
// conversions saturate) give the same bits.
GPY_INLINE int32_t gpy_x86_i32(double x) { return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : (int32_t)(-2147483647 - 1); }
GPY_INLINE int64_t gpy_x86_i64(double x) {
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : (int64_t)(-9223372036854775807LL - 1);
}
template <class T> GPY_INLINE T gpy_ftoi_(double x, T*) { return (T)gpy_x86_i32(x); }
GPY_INLINE int64_t gpy_ftoi_(double x, int64_t*) { return gpy_x86_i64(x); }
GPY_INLINE uint32_t gpy_ftoi_(double x, uint32_t*) { return x >= 2147483648.0 ? (uint32_t)gpy_x86_i32(x - 2147483648.0) ^ 0x80000000u : (uint32_t)gpy_x86_i32(x); }
GPY_INLINE uint64_t gpy_ftoi_(double x, uint64_t*) {
    return x >= 9223372036854775808.0 ? (uint64_t)gpy_x86_i64(x - 9223372036854775808.0) ^ 0x8000000000000000ull : (uint64_t)gpy_x86_i64(x);
}
template <class T> GPY_INLINE T gpy_ftoi(double x) { return gpy_ftoi_(x, (T*)0); }
// Bit-level float operations (frexp, nextafter, spacing) as NumPy's
// npy_math computes them, in selects on the bits so that the CPU loops
// vectorise (glibc's frexp and nextafter are calls: frexp was 38x NumPy's
// time composed from log2 and exp2, 2026-11-26).
template <class To, class From> GPY_INLINE To gpy_bitcast(From x) { To r; __builtin_memcpy(&r, &x, sizeof(To)); return r; }
template <class T> struct gpy_fbits;
template <> struct gpy_fbits<float> { typedef uint32_t U; static constexpr int mant = 23, bias = 127; static constexpr uint32_t emax = 0xff; };
template <> struct gpy_fbits<double> { typedef uint64_t U; static constexpr int mant = 52, bias = 1023; static constexpr uint64_t emax = 0x7ff; };
// A subnormal x is first scaled by 2^(mant + 2) into the normal range (exact).
template <class T> GPY_INLINE T gpy_frexp_scaled(T x, int32_t* adjust) {
    typedef gpy_fbits<T> F;
    const bool sub = ((gpy_bitcast<typename F::U>(x) >> F::mant) & F::emax) == 0;
    *adjust = sub ? F::mant + 2 : 0;
    return sub ? x * (T)(1ull << (F::mant + 2)) : x;
}
// frexp: x = m * 2^e, 0.5 <= |m| < 1; zero, inf and NaN give (x, 0).
template <class T> GPY_INLINE T gpy_frexp_mant(T x) {
    typedef gpy_fbits<T> F;
    typedef typename F::U U;
    int32_t adjust;
    const U c = gpy_bitcast<U>(gpy_frexp_scaled(x, &adjust));
    const U e = (c >> F::mant) & F::emax;
    const T m = gpy_bitcast<T>((c & ~(F::emax << F::mant)) | ((U)(F::bias - 1) << F::mant));
    return (e == 0 || e == F::emax) ? x : m;
}
template <class T> GPY_INLINE int32_t gpy_frexp_exp(T x) {
    typedef gpy_fbits<T> F;
    typedef typename F::U U;
    int32_t adjust;
    const U c = gpy_bitcast<U>(gpy_frexp_scaled(x, &adjust));
    const int32_t e = (int32_t)((c >> F::mant) & F::emax);
    return (e == 0 || e == (int32_t)F::emax) ? 0 : e - (F::bias - 1) - adjust;
}
// nextafter: one step of the bit pattern toward y (C's: y itself when equal).
template <class T> GPY_INLINE T gpy_nextafter(T x, T y) {
    typedef typename gpy_fbits<T>::U U;
    const U b = gpy_bitcast<U>(x);
    const T stepped = gpy_bitcast<T>((x < y) == (x > 0) ? b + 1 : b - 1);
    const T from_zero = gpy_copysign(gpy_bitcast<T>((U)1), y);
    return (x != x || y != y) ? x + y : x == y ? y : x == 0 ? from_zero : stepped;
}
// npy_half_nextafter: binary16's bits (x itself when equal, 0 and -0 too).
GPY_INLINE float gpy_nextafter_half(float x, float y) {
    const uint16_t b = gpy_half_bits(x);
    const uint16_t stepped = (x < y) == (x > 0) ? (uint16_t)(b + 1) : (uint16_t)(b - 1);
    const uint16_t from_zero = (uint16_t)((gpy_half_bits(y) & 0x8000u) | 1u);
    return (x != x || y != y) ? (float)__builtin_nan("") : x == y ? x : gpy_half_from_bits(x == 0 ? from_zero : stepped);  // NPY_HALF_NAN
}
// npy_spacing: the next pattern away from zero, less x (+-0: the smallest
// subnormal; inf: NPY_NAN, a positive NaN; x86's inf - inf is a negative
// one). float16's npy_half_spacing steps toward +inf, NaN and inf giving
// NPY_HALF_NAN.
template <class T> GPY_INLINE T gpy_spacing(T x) {
    typedef typename gpy_fbits<T>::U U;
    const T up = gpy_bitcast<T>(gpy_bitcast<U>(x) + 1) - x;
    return x != x ? x : !gpy_isfinite(x) ? (T)__builtin_nan("") : x == 0 ? gpy_bitcast<T>((U)1) : up;
}
GPY_INLINE float gpy_spacing_half(float x) { return !gpy_isfinite(x) ? (float)__builtin_nan("") : gpy_nextafter_half(x, __builtin_inf()) - x; }
// NaN-propagating max/min folds of row kernels (a NaN accumulator stays).
template <class T> GPY_INLINE T gpy_row_max(T a, T b) { return (a > b || a != a) ? a : b; }
template <class T> GPY_INLINE T gpy_row_min(T a, T b) { return (a < b || a != a) ? a : b; }
template <class T> GPY_INLINE T gpy_wrap_add(T a, T b) { typedef typename gpy_unsigned<T>::type U; return (T)((U)a + (U)b); }
template <class T> GPY_INLINE T gpy_wrap_sub(T a, T b) { typedef typename gpy_unsigned<T>::type U; return (T)((U)a - (U)b); }
template <class T> GPY_INLINE T gpy_wrap_mul(T a, T b) { typedef typename gpy_unsigned<T>::type U; return (T)((U)a * (U)b); }
template <class T> GPY_INLINE T gpy_wrap_neg(T a) { typedef typename gpy_unsigned<T>::type U; return (T)((U)0 - (U)a); }
template <class T> GPY_INLINE T gpy_int_floordiv(T a, T b) {
    if (b == 0) return 0;
    if ((T)-1 < 0 && b == (T)-1) return gpy_wrap_neg(a);
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
template <class T> GPY_INLINE T gpy_int_mod(T a, T b) {
    if (b == 0) return 0;
    if ((T)-1 < 0 && b == (T)-1) return 0;
    T r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
template <class T> GPY_INLINE T gpy_float_mod(T a, T b) {
    T mod = gpy_fmod(a, b);
    if (b == 0) return mod;
    if (mod != 0) { if ((b < 0) != (mod < 0)) mod += b; }
    else mod = gpy_copysign((T)0, b);
    return mod;
}
template <class T> GPY_INLINE T gpy_float_floordiv(T a, T b) {
    if (b == 0) return a / b;
    T mod = gpy_fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
    if (div == 0) return gpy_copysign((T)0, a / b);
    T f = gpy_floor(div);
    if (div - f > (T)0.5) f += 1;
    return f;
}
template <class T> GPY_INLINE T gpy_int_pow(T base, T exp, int* err) {
    if ((T)-1 < 0 && exp < 0) { *err = 1; return 0; }
    typedef typename gpy_unsigned<T>::type U;
    U r = 1, b = (U)base;
    while (exp) { if (exp & 1) r *= b; b *= b; exp >>= 1; }
    return (T)r;
}
template <class T> GPY_INLINE T gpy_maximum(T a, T b) { return (a >= b || gpy_isnan(a)) ? a : b; }
template <class T> GPY_INLINE T gpy_minimum(T a, T b) { return (a <= b || gpy_isnan(a)) ? a : b; }
template <class T> GPY_INLINE T gpy_lshift(T a, T b) {
    typedef typename gpy_unsigned<T>::type U;
    return (b < 0 || (U)b >= sizeof(T) * 8) ? (T)0 : (T)((U)a << (U)b);
}
template <class T> GPY_INLINE T gpy_rshift(T a, T b) {
    typedef typename gpy_unsigned<T>::type U;
    if (b < 0 || (U)b >= sizeof(T) * 8) return a < 0 ? (T)-1 : (T)0;
    return (T)(a >> b);
}
// Comparisons of int64 with uint64 (NumPy compares their values exactly).
GPY_INLINE bool gpy_lt(int64_t a, uint64_t b) { return a < 0 || (uint64_t)a < b; }
GPY_INLINE bool gpy_lt(uint64_t a, int64_t b) { return b >= 0 && a < (uint64_t)b; }
GPY_INLINE bool gpy_eq(int64_t a, uint64_t b) { return a >= 0 && (uint64_t)a == b; }
GPY_INLINE bool gpy_eq(uint64_t a, int64_t b) { return b >= 0 && a == (uint64_t)b; }
template <class T> GPY_INLINE T gpy_sign(T x) { return x > 0 ? (T)1 : x < 0 ? (T)-1 : x == 0 ? (T)0 : x; }
template <class T> GPY_INLINE T gpy_heaviside(T x, T h0) { return x < 0 ? (T)0 : x > 0 ? (T)1 : x == 0 ? h0 : x; }
template <class T> GPY_INLINE T gpy_int_abs(T x) { return x < 0 ? gpy_wrap_neg(x) : x; }
// NumPy's npy_gcd/npy_lcm: Euclid on |a|, |b| in the unsigned type (|INT_MIN|
// fits there); lcm = |a| / gcd * |b| wraps back into T (int8 lcm(100, 3) is 44).
template <class T> GPY_INLINE typename gpy_unsigned<T>::type gpy_uabs(T x) {
    typedef typename gpy_unsigned<T>::type U;
    return x < 0 ? (U)((U)0 - (U)x) : (U)x;
}
template <class T> GPY_INLINE T gpy_gcd(T a, T b) {
    typedef typename gpy_unsigned<T>::type U;
    U x = gpy_uabs(a), y = gpy_uabs(b);
    while (y != 0) { U r = (U)(x % y); x = y; y = r; }
    return (T)x;
}
template <class T> GPY_INLINE T gpy_lcm(T a, T b) {
    typedef typename gpy_unsigned<T>::type U;
    U g = (U)gpy_gcd(a, b);
    // The product in uint64: a uint16 product in U would promote to (signed) int.
    return g == 0 ? (T)0 : (T)(U)((uint64_t)(U)(gpy_uabs(a) / g) * (uint64_t)gpy_uabs(b));
}
// NumPy's npy_logaddexp(2): the larger argument plus log1p of the exponential
// of minus the distance; equal arguments (infinities included) add log(2)
// (or 1); a NaN distance is the result. Written with selects so loops vectorise.
template <class T> GPY_INLINE T gpy_logaddexp(T x, T y) {
    T d = x - y;
    T r = (d > 0 ? x : y) + gpy_log1p(gpy_exp(-gpy_fabs(d)));
    return x == y ? x + (T)0.693147180559945309417232121458176568 : d != d ? d : r;
}
template <class T> GPY_INLINE T gpy_logaddexp2(T x, T y) {
    T d = x - y;
    T r = (d > 0 ? x : y) + (T)1.442695040888963407359924681001892137 * gpy_log1p(gpy_exp2(-gpy_fabs(d)));
    return x == y ? x + (T)1 : d != d ? d : r;
}
// Complex numbers laid out as NumPy's (real, imaginary), with the formulas of
// NumPy's complex loops (umath loops and npy_math_complex); elementary
// functions go to the backend's gpy_libm_c* (glibc's on the CPU).
template <class T> struct gpy_cplx { T re, im; };
typedef gpy_cplx<float> gpy_complex64;
typedef gpy_cplx<double> gpy_complex128;
template <class T> GPY_INLINE gpy_cplx<T> gpy_cpack(T re, T im) { gpy_cplx<T> r; r.re = re; r.im = im; return r; }
template <class T, class S> GPY_INLINE gpy_cplx<T> gpy_to_complex(S x) { return gpy_cpack((T)x, (T)0); }
template <class T, class S> GPY_INLINE gpy_cplx<T> gpy_to_complex(gpy_cplx<S> z) { return gpy_cpack((T)z.re, (T)z.im); }
template <class T> GPY_INLINE gpy_cplx<T> operator+(gpy_cplx<T> a, gpy_cplx<T> b) { return gpy_cpack(a.re + b.re, a.im + b.im); }
template <class T> GPY_INLINE gpy_cplx<T> operator-(gpy_cplx<T> a, gpy_cplx<T> b) { return gpy_cpack(a.re - b.re, a.im - b.im); }
template <class T> GPY_INLINE gpy_cplx<T> operator-(gpy_cplx<T> a) { return gpy_cpack(-a.re, -a.im); }
template <class T> GPY_INLINE gpy_cplx<T> operator*(gpy_cplx<T> a, gpy_cplx<T> b) {
    return gpy_cpack(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
// Smith's division, as NumPy's divide loop (a zero divisor gives inf/nan parts).
template <class T> GPY_INLINE gpy_cplx<T> operator/(gpy_cplx<T> a, gpy_cplx<T> b) {
    T abr = gpy_fabs(b.re), abi = gpy_fabs(b.im);  // |-0.0| is +0.0: 1/(-0.0+0j) is +inf, as NumPy
    if (abr >= abi) {
        if (abr == 0 && abi == 0) return gpy_cpack(a.re / abr, a.im / abr);
        T rat = b.im / b.re, scl = (T)1 / (b.re + b.im * rat);
        return gpy_cpack((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
    }
    T rat = b.re / b.im, scl = (T)1 / (b.im + b.re * rat);
    return gpy_cpack((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}
template <class T> GPY_INLINE bool operator==(gpy_cplx<T> a, gpy_cplx<T> b) { return a.re == b.re && a.im == b.im; }
// Two partial products of a reduction; one still the identity 1+0j is skipped.
template <class T> GPY_INLINE gpy_cplx<T> gpy_cmul_partials(gpy_cplx<T> a, gpy_cplx<T> b) {
    if (b.re == 1 && b.im == 0) return a;
    if (a.re == 1 && a.im == 0) return b;
    return a * b;
}
template <class T> GPY_INLINE bool operator!=(gpy_cplx<T> a, gpy_cplx<T> b) { return !(a == b); }
template <class T> GPY_INLINE bool gpy_truth(gpy_cplx<T> z) { return z.re != 0 || z.im != 0; }
template <class T> GPY_INLINE gpy_cplx<T> gpy_conj(gpy_cplx<T> z) { return gpy_cpack(z.re, -z.im); }
template <class T> GPY_INLINE T gpy_cabs(gpy_cplx<T> z) { return gpy_hypot(z.re, z.im); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_square(gpy_cplx<T> z) { return gpy_cpack(z.re * z.re - z.im * z.im, z.re * z.im + z.im * z.re); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_reciprocal(gpy_cplx<T> z) {
    if (gpy_fabs(z.im) <= gpy_fabs(z.re)) { T r = z.im / z.re, d = z.re + z.im * r; return gpy_cpack((T)1 / d, -r / d); }
    T r = z.re / z.im, d = z.re * r + z.im;
    return gpy_cpack(r / d, (T)-1 / d);
}
template <class T> GPY_INLINE bool gpy_isnan(gpy_cplx<T> z) { return gpy_isnan(z.re) || gpy_isnan(z.im); }
template <class T> GPY_INLINE bool gpy_isinf(gpy_cplx<T> z) { return gpy_isinf(z.re) || gpy_isinf(z.im); }
template <class T> GPY_INLINE bool gpy_isfinite(gpy_cplx<T> z) { return gpy_isfinite(z.re) && gpy_isfinite(z.im); }
// NumPy 2's sign: z / |z| (0 for 0, nan for nan, the unit direction of an infinite part).
template <class T> GPY_INLINE gpy_cplx<T> gpy_sign(gpy_cplx<T> z) {
    T a = gpy_hypot(z.re, z.im), nan = __builtin_nan("");
    if (gpy_isnan(a)) return gpy_cpack((T)nan, (T)nan);
    if (gpy_isinf(a)) {
        if (gpy_isinf(z.re)) return gpy_isinf(z.im) ? gpy_cpack((T)nan, (T)nan) : gpy_cpack(z.re > 0 ? (T)1 : (T)-1, (T)0);
        return gpy_cpack((T)0, z.im > 0 ? (T)1 : (T)-1);
    }
    if (a == 0) return gpy_cpack((T)0, (T)0);
    return gpy_cpack(z.re / a, z.im / a);
}
// Lexicographic order with NumPy's NaN rules (CLT/CLE in umath's loops).
template <class T> GPY_INLINE bool gpy_clt(gpy_cplx<T> x, gpy_cplx<T> y) {
    return (x.re < y.re && !gpy_isnan(x.im) && !gpy_isnan(y.im)) || (x.re == y.re && x.im < y.im);
}
template <class T> GPY_INLINE bool gpy_cle(gpy_cplx<T> x, gpy_cplx<T> y) {
    return (x.re < y.re && !gpy_isnan(x.im) && !gpy_isnan(y.im)) || (x.re == y.re && x.im <= y.im);
}
template <class T> GPY_INLINE gpy_cplx<T> gpy_maximum(gpy_cplx<T> a, gpy_cplx<T> b) { return (gpy_isnan(a) || gpy_cle(b, a)) ? a : b; }
template <class T> GPY_INLINE gpy_cplx<T> gpy_minimum(gpy_cplx<T> a, gpy_cplx<T> b) { return (gpy_isnan(a) || gpy_cle(a, b)) ? a : b; }
template <class T> GPY_INLINE gpy_cplx<T> gpy_rint(gpy_cplx<T> z) { return gpy_cpack(gpy_rint(z.re), gpy_rint(z.im)); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_sqrt(gpy_cplx<T> z) { return gpy_libm_csqrt(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_exp(gpy_cplx<T> z) { return gpy_libm_cexp(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_log(gpy_cplx<T> z) { return gpy_libm_clog(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_sin(gpy_cplx<T> z) { return gpy_libm_csin(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_cos(gpy_cplx<T> z) { return gpy_libm_ccos(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_tan(gpy_cplx<T> z) { return gpy_libm_ctan(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_arcsin(gpy_cplx<T> z) { return gpy_libm_carcsin(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_arccos(gpy_cplx<T> z) { return gpy_libm_carccos(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_arctan(gpy_cplx<T> z) { return gpy_libm_carctan(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_sinh(gpy_cplx<T> z) { return gpy_libm_csinh(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_cosh(gpy_cplx<T> z) { return gpy_libm_ccosh(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_tanh(gpy_cplx<T> z) { return gpy_libm_ctanh(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_arcsinh(gpy_cplx<T> z) { return gpy_libm_carcsinh(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_arccosh(gpy_cplx<T> z) { return gpy_libm_carccosh(z); }
template <class T> GPY_INLINE gpy_cplx<T> gpy_arctanh(gpy_cplx<T> z) { return gpy_libm_carctanh(z); }
// NumPy's own formulas (umath funcs.inc) for these.
template <class T> GPY_INLINE gpy_cplx<T> gpy_exp2(gpy_cplx<T> z) {
    const T ln2 = (T)0.693147180559945309417232121458176568;
    return gpy_exp(gpy_cpack(z.re * ln2, z.im * ln2));
}
template <class T> GPY_INLINE gpy_cplx<T> gpy_expm1(gpy_cplx<T> z) {
    T a = gpy_sin(z.im / 2);
    return gpy_cpack(gpy_expm1(z.re) * gpy_cos(z.im) - 2 * a * a, gpy_exp(z.re) * gpy_sin(z.im));
}
template <class T> GPY_INLINE gpy_cplx<T> gpy_log2(gpy_cplx<T> z) {
    const T k = (T)1.442695040888963407359924681001892137;
    gpy_cplx<T> l = gpy_log(z);
    return gpy_cpack(l.re * k, l.im * k);
}
template <class T> GPY_INLINE gpy_cplx<T> gpy_log10(gpy_cplx<T> z) {
    const T k = (T)0.434294481903251827651128918916605082;
    gpy_cplx<T> l = gpy_log(z);
    return gpy_cpack(l.re * k, l.im * k);
}
template <class T> GPY_INLINE gpy_cplx<T> gpy_log1p(gpy_cplx<T> z) {
    return gpy_cpack(gpy_log(gpy_hypot(z.re + 1, z.im)), gpy_atan2(z.im, z.re + 1));
}
// NumPy's npy_cpow: exact small integer powers by squaring, else the libm's cpow.
template <class T> GPY_INLINE gpy_cplx<T> gpy_pow(gpy_cplx<T> a, gpy_cplx<T> b) {
    if (b.re == 0 && b.im == 0) return gpy_cpack((T)1, (T)0);
    if (a.re == 0 && a.im == 0) {
        if (b.re > 0) return gpy_cpack((T)0, (T)0);  // NumPy 2: 0 ** z is 0 for Re(z) > 0, else nan
        T nan = __builtin_nan("");
        return gpy_cpack(nan, nan);
    }
    if (b.im == 0 && b.re > -100 && b.re < 100 && b.re == (T)(int64_t)b.re) {
        int64_t n = (int64_t)b.re;
        if (n == 1) return a;
        if (n == 2) return a * a;
        if (n == 3) return a * (a * a);
        int64_t m = n < 0 ? -n : n, mask = 1;
        gpy_cplx<T> r = gpy_cpack((T)1, (T)0), p = a;
        for (;;) {
            if (m & mask) r = r * p;
            mask <<= 1;
            if (m < mask || mask <= 0) break;
            p = p * p;
        }
        return n < 0 ? gpy_cpack((T)1, (T)0) / r : r;
    }
    return gpy_libm_cpow(a, b);
}
)PRELUDE";


// Before the body of a kernel with user code (np.ElementwiseKernel): on the
// CPU the CUDA qualifiers as nothing and the math functions CUDA code calls
// (float and double overloads, the f-suffixed float forms, fma, ldexp,
// sincos, the __expf-style intrinsics, rsqrt, max/min, abs,
// isnan/isinf/isfinite/signbit, size_t) over the compiler's builtins: what
// NVRTC offers, no more, so a kernel that compiles here compiles on a GPU
// (sqrt(4) is ambiguous there; M_PI, INFINITY and NAN are undefined).
inline constexpr const char* kUserMathPrelude = R"PRELUDE(
#if !defined(__CUDACC_RTC__) && !defined(GPY_USER_MATH)
#define GPY_USER_MATH 1
#ifndef __device__
#define __device__
#endif
#define __host__
#define __forceinline__ inline
#define GPY_UM1(N) GPY_INLINE float N(float x) { return __builtin_##N##f(x); } GPY_INLINE double N(double x) { return __builtin_##N(x); } GPY_INLINE float N##f(float x) { return __builtin_##N##f(x); }
#define GPY_UM2(N) GPY_INLINE float N(float x, float y) { return __builtin_##N##f(x, y); } GPY_INLINE double N(double x, double y) { return __builtin_##N(x, y); } GPY_INLINE float N##f(float x, float y) { return __builtin_##N##f(x, y); }
GPY_UM1(exp) GPY_UM1(exp2) GPY_UM1(expm1) GPY_UM1(log) GPY_UM1(log2) GPY_UM1(log10) GPY_UM1(log1p) GPY_UM1(sqrt) GPY_UM1(cbrt) GPY_UM1(sin) GPY_UM1(cos) GPY_UM1(tan) GPY_UM1(asin) GPY_UM1(acos) GPY_UM1(atan) GPY_UM1(sinh)
GPY_UM1(cosh) GPY_UM1(tanh) GPY_UM1(asinh) GPY_UM1(acosh) GPY_UM1(atanh) GPY_UM1(floor) GPY_UM1(ceil) GPY_UM1(trunc) GPY_UM1(round) GPY_UM1(rint) GPY_UM1(fabs) GPY_UM1(erf) GPY_UM1(erfc) GPY_UM1(tgamma) GPY_UM1(lgamma)
GPY_UM2(pow) GPY_UM2(atan2) GPY_UM2(fmod) GPY_UM2(hypot) GPY_UM2(fmax) GPY_UM2(fmin) GPY_UM2(copysign)
GPY_INLINE float fma(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
GPY_INLINE double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
GPY_INLINE float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
GPY_INLINE float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
GPY_INLINE double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
GPY_INLINE float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
GPY_INLINE void sincosf(float x, float* s, float* c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
GPY_INLINE void sincos(double x, double* s, double* c) { *s = __builtin_sin(x); *c = __builtin_cos(x); }
GPY_INLINE float __expf(float x) { return __builtin_expf(x); }
GPY_INLINE float __logf(float x) { return __builtin_logf(x); }
GPY_INLINE float __sinf(float x) { return __builtin_sinf(x); }
GPY_INLINE float __cosf(float x) { return __builtin_cosf(x); }
GPY_INLINE float __powf(float x, float y) { return __builtin_powf(x, y); }
GPY_INLINE float __fdividef(float x, float y) { return x / y; }
GPY_INLINE int __float2int_rn(float x) { return (int)__builtin_rintf(x); }
typedef __SIZE_TYPE__ size_t;
GPY_INLINE float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
GPY_INLINE float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
GPY_INLINE double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
GPY_INLINE int abs(int x) { return x < 0 ? -x : x; }
GPY_INLINE long abs(long x) { return x < 0 ? -x : x; }
GPY_INLINE long long abs(long long x) { return x < 0 ? -x : x; }
GPY_INLINE float abs(float x) { return __builtin_fabsf(x); }
GPY_INLINE double abs(double x) { return __builtin_fabs(x); }
template <class A, class B> GPY_INLINE auto max(A a, B b) -> decltype(a + b) { return a > b ? a : b; }
template <class A, class B> GPY_INLINE auto min(A a, B b) -> decltype(a + b) { return a < b ? a : b; }
template <class A> GPY_INLINE bool isnan(A x) { return __builtin_isnan((double)x); }
template <class A> GPY_INLINE bool isinf(A x) { return __builtin_isinf((double)x); }
template <class A> GPY_INLINE bool isfinite(A x) { return __builtin_isfinite((double)x); }
template <class A> GPY_INLINE bool signbit(A x) { return __builtin_signbit((double)x); }
#endif
)PRELUDE";

}  // namespace gpy
