// Python-compatible text for numbers and strings: repr(float), repr(str) and
// the format-spec mini-language behind format(), f-strings and str.format().
// Self-contained (no interpreter types) so it can be tested against CPython
// 3.11 output directly; see tests/unit/gen_format_cases.py.
//
// Known differences from CPython, all deliberate:
//   - the 'n' type always uses the C locale ('.' and no grouping), which is
//     what CPython does unless the program calls locale.setlocale;
//   - only ASCII digits are accepted for width and precision;
//   - str_repr escapes the assigned non-printable code points (controls,
//     format characters, separators, surrogates, private use) but leaves
//     unassigned ones alone, so it needs no full Unicode table.
// Strings are UTF-8; widths and precisions count code points.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace gpy::fmt {

// A bad spec or value. what() is the exact message CPython gives; py_type
// is the Python exception class it belongs to.
struct FormatError : std::runtime_error {
    std::string py_type;
    explicit FormatError(const std::string& message, std::string type = "ValueError")
        : std::runtime_error(message), py_type(std::move(type)) {}
};

// [[fill]align][sign][z][#][0][width][grouping][.precision][type], with the
// '0' flag and defaults already folded into fill/align.
struct FormatSpec {
    char32_t fill = U' ';
    char align = '>';          // one of < > = ^
    char sign = 0;             // 0 (not given), '+', '-' or ' '
    bool no_neg_zero = false;  // 'z': print -0.0 (after rounding) as 0.0
    bool alternate = false;    // '#'
    int64_t width = -1;        // -1: not given
    char grouping = 0;         // 0, ',' or '_'
    int64_t precision = -1;    // -1: not given
    char32_t type = 0;         // the spec's type code, or default_type
};

// Parses a spec the way CPython does before looking at the value's type.
// default_type is what an omitted type means ('d' for int, 's' for str, 0 for
// float) and also picks the default alignment ('<' for 's', else '>');
// type_name only appears in error text. On failure returns false and sets
// error to CPython's ValueError message.
bool parse_format_spec(std::string_view spec, FormatSpec& out, std::string& error,
                       char32_t default_type = 0, std::string_view type_name = "float");

// repr(float): shortest round-trip digits, exponent form below 1e-4 and from
// 1e16 up, e.g. "1.0", "1e+16", "1e-05", "-0.0", "inf", "nan".
std::string float_repr(double x);

// str(int).
std::string int_to_string(int64_t v);

// repr(str): single quotes unless the text has ' and no ", with \\ \n \r \t
// and \xNN / \uNNNN / \UNNNNNNNN escapes for non-printable code points.
std::string str_repr(std::string_view s);

// format(value, spec) for Python int, float, str and bool. Throw FormatError.
std::string format_int(int64_t v, std::string_view spec);
std::string format_float(double v, std::string_view spec);
std::string format_str(std::string_view s, std::string_view spec);
std::string format_bool(bool b, std::string_view spec);

}  // namespace gpy::fmt
