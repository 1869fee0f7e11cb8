// Tests for lang/format.{h,cpp}. The tables in format_cases.inc hold what
// CPython 3.11 prints (regenerate with tests/unit/gen_format_cases.py); the
// hand-written cases below cover the API surface the tables do not.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "lang/format.h"

using namespace std::literals;
using namespace gpy::fmt;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct ReprCase {
    double x;
    std::string_view expected;
};
struct IntStrCase {
    int64_t v;
    std::string_view expected;
};
// error_type empty: `expected` is the result; else format raises error_type
// ("ValueError"/"OverflowError") with message `expected`.
struct FloatCase {
    double v;
    std::string_view spec, expected, error_type;
};
struct IntCase {
    int64_t v;
    std::string_view spec, expected, error_type;
};
struct StrCase {
    std::string_view s;
    std::string_view spec, expected, error_type;
};
struct BoolCase {
    bool b;
    std::string_view spec, expected, error_type;
};
struct StrReprCase {
    std::string_view s, expected;
};

#include "format_cases.inc"

// Runs one table row: checks the text or the error CPython gave.
template <class Fn>
void check_case(Fn&& fn, std::string_view expected, std::string_view error_type) {
    if (error_type.empty()) {
        std::string got;
        REQUIRE_NOTHROW(got = fn());
        CHECK(got == expected);
    } else {
        try {
            std::string got = fn();
            FAIL_CHECK("expected " << error_type << " '" << expected << "', got '" << got << "'");
        } catch (const FormatError& e) {
            CHECK(std::string(e.what()) == expected);
            CHECK(e.py_type == error_type);
        }
    }
}

}  // namespace

TEST_CASE("float_repr matches Python repr(float)", "[format]") {
    for (const auto& c : kFloatReprCases) {
        CAPTURE(c.x, c.expected);
        CHECK(float_repr(c.x) == c.expected);
    }
}

TEST_CASE("int_to_string matches Python str(int)", "[format]") {
    for (const auto& c : kIntStrCases) {
        CAPTURE(c.v);
        CHECK(int_to_string(c.v) == c.expected);
    }
}

TEST_CASE("format_float matches Python format(float, spec)", "[format]") {
    for (const auto& c : kFormatFloatCases) {
        CAPTURE(c.v, c.spec, c.expected);
        check_case([&] { return format_float(c.v, c.spec); }, c.expected, c.error_type);
    }
}

TEST_CASE("format_float on random doubles", "[format]") {
    for (const auto& c : kFormatRandomFloatCases) {
        CAPTURE(c.v, c.spec, c.expected);
        check_case([&] { return format_float(c.v, c.spec); }, c.expected, c.error_type);
    }
}

TEST_CASE("format_int matches Python format(int, spec)", "[format]") {
    for (const auto& c : kFormatIntCases) {
        CAPTURE(c.v, c.spec, c.expected);
        check_case([&] { return format_int(c.v, c.spec); }, c.expected, c.error_type);
    }
}

TEST_CASE("format_str matches Python format(str, spec)", "[format]") {
    for (const auto& c : kFormatStrCases) {
        CAPTURE(c.s, c.spec, c.expected);
        check_case([&] { return format_str(c.s, c.spec); }, c.expected, c.error_type);
    }
}

TEST_CASE("format_bool matches Python format(bool, spec)", "[format]") {
    for (const auto& c : kFormatBoolCases) {
        CAPTURE(c.b, c.spec, c.expected);
        check_case([&] { return format_bool(c.b, c.spec); }, c.expected, c.error_type);
    }
}

TEST_CASE("str_repr matches Python repr(str)", "[format]") {
    for (const auto& c : kStrReprCases) {
        CAPTURE(c.s, c.expected);
        CHECK(str_repr(c.s) == c.expected);
    }
}

TEST_CASE("str_repr shows bytes that are not UTF-8 as \\x escapes", "[format]") {
    CHECK(str_repr("a\xff" "b") == "'a\\xffb'");
    CHECK(str_repr("\xc3") == "'\\xc3'");  // truncated sequence
}

TEST_CASE("parse_format_spec exposes the parsed fields", "[format]") {
    FormatSpec f;
    std::string err;
    REQUIRE(parse_format_spec("*^+z#012_.3e", f, err));
    CHECK(f.fill == U'*');
    CHECK(f.align == '^');
    CHECK(f.sign == '+');
    CHECK(f.no_neg_zero);
    CHECK(f.alternate);
    CHECK(f.width == 12);  // the '0' flag is ignored once a fill is given
    CHECK(f.grouping == '_');
    CHECK(f.precision == 3);
    CHECK(f.type == U'e');

    // The '0' flag: zero fill, '=' alignment for numbers only.
    REQUIRE(parse_format_spec("08", f, err, 'd', "int"));
    CHECK(f.fill == U'0');
    CHECK(f.align == '=');
    CHECK(f.type == U'd');
    REQUIRE(parse_format_spec("08", f, err, 's', "str"));
    CHECK(f.fill == U'0');
    CHECK(f.align == '<');

    // A multi-byte fill is one code point.
    REQUIRE(parse_format_spec("\xe6\x97\xa5>5", f, err));
    CHECK(f.fill == U'\u65e5');
    CHECK(f.width == 5);

    // Defaults when nothing is given.
    REQUIRE(parse_format_spec("", f, err));
    CHECK(f.width == -1);
    CHECK(f.precision == -1);
    CHECK(f.type == 0);

    CHECK_FALSE(parse_format_spec(".2qq", f, err, 0, "float"));
    CHECK(err == "Invalid format specifier '.2qq' for object of type 'float'");
    CHECK_FALSE(parse_format_spec(",s", f, err, 's', "str"));
    CHECK(err == "Cannot specify ',' with 's'.");
}

TEST_CASE("format handles the extremes of int64 and huge precision", "[format]") {
    CHECK(format_int(INT64_MIN, "#_b") ==
          "-0b1000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000_0000");
    CHECK(format_int(INT64_MAX, ",") == "9,223,372,036,854,775,807");
    // 0.1 printed with every digit of its exact binary value and beyond.
    CHECK(format_float(0.1, ".60f") ==
          "0.100000000000000005551115123125782702118158340454101562500000");
    CHECK(format_float(5e-324, ".3e") == "4.941e-324");
    CHECK(format_float(1e300, ".0f").size() == 301);
}
