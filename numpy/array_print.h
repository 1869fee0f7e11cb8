// NumPy 2's text for arrays and scalars: str(a), repr(a), str/repr of scalars,
// np.format_float_positional and np.format_float_scientific.
//
// The output is byte-for-byte what NumPy 2.x (default legacy=False) prints
// for the dtypes in base/dtype.h; tests/unit/gen_array_print_cases.py
// records NumPy's text and tests/unit/test_array_print.cpp compares.
//
// Floats use our own Dragon4 (big-integer shortest/exact digit generation,
// IEEE round-half-even at the margins and on the last digit) on the bits of
// the element's own type, so float16 and float32 get their own shortest
// digits. Float16 bits are decoded on the host; no half type is needed.
//
// Not covered (no DType for them): datetime, strings, structured and object
// arrays, longdouble; the `formatter`, `legacy` and `override_repr` options.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/dtype.h"
#include "runtime/host_view.h"

namespace gpy {

// np.set_printoptions / np.get_printoptions (the defaults are NumPy's).
struct PrintOptions {
    int precision = 8;
    int64_t threshold = 1000;  // summarise (with "...") when size > threshold
    int edgeitems = 3;
    int linewidth = 75;
    bool suppress = false;
    std::string nanstr = "nan", infstr = "inf";
    char sign = '-';                    // '-', '+' or ' '
    std::string floatmode = "maxprec";  // fixed | unique | maxprec | maxprec_equal
    // formatter=: an element's text instead of the built-in format (no
    // padding), or false to keep the built-in one for its dtype.
    using Formatter = std::function<bool(DType, const uint8_t*, std::string&)>;
    Formatter formatter;
    std::shared_ptr<const void> formatter_source;  // what made it (get_printoptions returns it)
};

// str(a) / print(a). A 0-d array prints as its scalar's str().
std::string array_str(const HostArrayView& a, const PrintOptions& o);
// repr(a): "array([1., 2.])", "array([1, 2], dtype=int8)",
// "array([], shape=(0, 3), dtype=float64)", "array([...], shape=(2000,))".
std::string array_repr(const HostArrayView& a, const PrintOptions& o);

// What is wrong with `o` in NumPy's words ("sign option must be one of ..."),
// or "" when nothing is.
std::string print_options_problem(const PrintOptions& o);

// np.array2string(a, separator=, prefix=, suffix=) with options `o`: a 0-d
// array prints its element with the array formatter (not the scalar str).
std::string array_to_string(const HostArrayView& a, const PrintOptions& o, const std::string& separator,
                            const std::string& prefix, const std::string& suffix);

// str / repr of one element of type t stored at p (NumPy scalar rules; NumPy
// ignores print options for scalars, so `o` is only kept for symmetry).
// repr: "np.float32(1.5)", "np.int64(3)", "np.True_", "np.complex128(1+2j)".
std::string scalar_str(DType t, const void* p, const PrintOptions& o = {});
std::string scalar_repr(DType t, const void* p, const PrintOptions& o = {});

// np.format_float_positional / np.format_float_scientific for one float16,
// float32 or float64 value stored at p (t must be a float dtype). Negative
// precision, pad and digit counts mean "not given" (NumPy's None).
// trim: 'k' keep, '.' trim zeros keep the point, '0' keep one zero,
// '-' trim zeros and the point.
std::string format_float_positional(DType t, const void* p, int precision = -1, bool unique = true,
                                    bool fractional = true, char trim = 'k', bool sign = false,
                                    int pad_left = -1, int pad_right = -1, int min_digits = -1);
std::string format_float_scientific(DType t, const void* p, int precision = -1, bool unique = true,
                                    char trim = 'k', bool sign = false, int pad_left = -1,
                                    int exp_digits = -1, int min_digits = -1);

// Float16 bits <-> double (the conversion is exact one way; to_half rounds
// to nearest even, overflowing to inf).
double half_to_double(uint16_t h);
uint16_t double_to_half(double x);

}  // namespace gpy
