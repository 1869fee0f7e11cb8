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
#define GPY_RESTRICT __restrict__
#define GPY_REPORT_ERROR(word, code) __atomic_store_n((int*)(word), (code), __ATOMIC_RELAXED)
template <class T> struct gpy_unsigned { typedef T type; };
template <> struct gpy_unsigned<int8_t> { typedef uint8_t type; };
template <> struct gpy_unsigned<int16_t> { typedef uint16_t type; };
template <> struct gpy_unsigned<int32_t> { typedef uint32_t type; };
template <> struct gpy_unsigned<int64_t> { typedef uint64_t type; };
GPY_INLINE float gpy_exp(float x) { return __builtin_expf(x); }
GPY_INLINE double gpy_exp(double x) { return __builtin_exp(x); }
GPY_INLINE float gpy_exp2(float x) { return __builtin_exp2f(x); }
GPY_INLINE double gpy_exp2(double x) { return __builtin_exp2(x); }
GPY_INLINE float gpy_expm1(float x) { return __builtin_expm1f(x); }
GPY_INLINE double gpy_expm1(double x) { return __builtin_expm1(x); }
GPY_INLINE float gpy_log(float x) { return __builtin_logf(x); }
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
)PRELUDE";

// Shared by every backend: NumPy's semantics for the operations whose C
// meaning differs (integer division and modulo signs, shifts past the width,
// NaN-propagating maximum/minimum, ...).
inline constexpr const char* kCommonPrelude = R"PRELUDE(
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
)PRELUDE";

}  // namespace gpy
