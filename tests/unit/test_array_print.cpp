// Tests for numpy/array_print.{h,cpp}. The tables in array_print_cases.inc
// hold what NumPy 2 prints (regenerate with tests/unit/gen_array_print_cases.py);
// each array case is a view (dtype, shape, byte strides, offset of element 0)
// into a raw buffer, with print options and NumPy's str() and repr().
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "base/dtype.h"
#include "runtime/host_view.h"
#include "numpy/array_print.h"

using gpy::DType;
using gpy::PrintOptions;

namespace {

// Plain data (no std::string / std::vector) so the big table compiles fast.
struct CaseOptions {
    int precision;
    int64_t threshold;
    int edgeitems;
    int linewidth;
    bool suppress;
    const char* nanstr;
    const char* infstr;
    char sign;
    const char* floatmode;

    PrintOptions get() const {
        PrintOptions o;
        o.precision = precision;
        o.threshold = threshold;
        o.edgeitems = edgeitems;
        o.linewidth = linewidth;
        o.suppress = suppress;
        o.nanstr = nanstr;
        o.infstr = infstr;
        o.sign = sign;
        o.floatmode = floatmode;
        return o;
    }
};

constexpr int kMaxCaseDims = 4;

struct ArrayPrintCase {
    const char* label;
    const char* dtype;
    int ndim;
    int64_t shape[kMaxCaseDims];
    int64_t strides[kMaxCaseDims];
    int64_t offset;
    const char* hex;
    CaseOptions opts;
    const char* str;
    const char* repr;
};

struct ScalarPrintCase {
    const char* dtype;
    const char* hex;
    const char* str;
    const char* repr;
};

struct FormatFloatCase {
    char kind;  // 'P' positional, 'S' scientific
    const char* dtype;
    const char* hex;
    int precision;
    bool unique, fractional;
    char trim;
    bool sign;
    int pad_left, pad_right_or_exp_digits, min_digits;
    const char* expected;
};

#include "array_print_cases.inc"

std::vector<uint8_t> unhex(const char* h) {
    std::vector<uint8_t> out;
    size_t n = std::strlen(h);
    auto nib = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    for (size_t i = 0; i + 1 < n; i += 2) out.push_back(uint8_t(nib(h[i]) * 16 + nib(h[i + 1])));
    return out;
}

DType dtype_of(const char* name) {
    auto t = gpy::parse_dtype(name);
    REQUIRE(t.has_value());
    return *t;
}

}  // namespace

TEST_CASE("array str/repr match NumPy", "[array_print]") {
    size_t failures = 0;
    for (const ArrayPrintCase& c : kArrayPrintCases) {
        std::vector<uint8_t> buf = unhex(c.hex);
        buf.resize(buf.size() + 16);  // keep .data() valid for empty arrays
        gpy::HostArrayView v;
        v.dtype = dtype_of(c.dtype);
        v.shape.assign(c.shape, c.shape + c.ndim);
        v.strides.assign(c.strides, c.strides + c.ndim);
        v.data = buf.data() + c.offset;
        PrintOptions o = c.opts.get();
        std::string s = gpy::array_str(v, o);
        std::string r = gpy::array_repr(v, o);
        if (s != c.str || r != c.repr) {
            ++failures;
            INFO("case: " << c.label);
            CHECK(s == c.str);
            CHECK(r == c.repr);
        }
    }
    CHECK(failures == 0);
}

TEST_CASE("scalar str/repr match NumPy", "[array_print]") {
    for (const ScalarPrintCase& c : kScalarPrintCases) {
        std::vector<uint8_t> buf = unhex(c.hex);
        DType t = dtype_of(c.dtype);
        INFO("dtype " << c.dtype << " bytes " << c.hex);
        CHECK(gpy::scalar_str(t, buf.data()) == c.str);
        CHECK(gpy::scalar_repr(t, buf.data()) == c.repr);
    }
}

TEST_CASE("format_float_positional/scientific match NumPy", "[array_print]") {
    for (const FormatFloatCase& c : kFormatFloatCases) {
        std::vector<uint8_t> buf = unhex(c.hex);
        DType t = dtype_of(c.dtype);
        INFO(c.kind << " " << c.dtype << " " << c.hex << " precision=" << c.precision << " unique=" << c.unique
                    << " fractional=" << c.fractional << " trim=" << c.trim << " sign=" << c.sign
                    << " pad_left=" << c.pad_left << " pad_right/exp_digits=" << c.pad_right_or_exp_digits
                    << " min_digits=" << c.min_digits);
        std::string got =
            c.kind == 'P'
                ? gpy::format_float_positional(t, buf.data(), c.precision, c.unique, c.fractional, c.trim, c.sign,
                                               c.pad_left, c.pad_right_or_exp_digits, c.min_digits)
                : gpy::format_float_scientific(t, buf.data(), c.precision, c.unique, c.trim, c.sign, c.pad_left,
                                               c.pad_right_or_exp_digits, c.min_digits);
        CHECK(got == c.expected);
    }
}

TEST_CASE("array printing: hand-written checks", "[array_print]") {
    PrintOptions o;
    SECTION("contiguous float64 vector") {
        double d[] = {1.0, 2.5, -3.0};
        gpy::HostArrayView v{DType::Float64, {3}, {8}, reinterpret_cast<const uint8_t*>(d)};
        CHECK(gpy::array_str(v, o) == "[ 1.   2.5 -3. ]");
        CHECK(gpy::array_repr(v, o) == "array([ 1. ,  2.5, -3. ])");
    }
    SECTION("0-d arrays") {
        double d = 3.0;
        gpy::HostArrayView v{DType::Float64, {}, {}, reinterpret_cast<const uint8_t*>(&d)};
        CHECK(gpy::array_str(v, o) == "3.0");
        CHECK(gpy::array_repr(v, o) == "array(3.)");
        float f = 1.5f;
        gpy::HostArrayView w{DType::Float32, {}, {}, reinterpret_cast<const uint8_t*>(&f)};
        CHECK(gpy::array_repr(w, o) == "array(1.5, dtype=float32)");
    }
    SECTION("empty arrays") {
        gpy::HostArrayView v{DType::Float64, {0}, {8}, nullptr};
        CHECK(gpy::array_str(v, o) == "[]");
        CHECK(gpy::array_repr(v, o) == "array([], dtype=float64)");
        gpy::HostArrayView w{DType::Float64, {0, 3}, {24, 8}, nullptr};
        CHECK(gpy::array_repr(w, o) == "array([], shape=(0, 3), dtype=float64)");
    }
    SECTION("scalars") {
        uint8_t t = 1;
        CHECK(gpy::scalar_repr(DType::Bool, &t) == "np.True_");
        int64_t i = 3;
        CHECK(gpy::scalar_repr(DType::Int64, &i) == "np.int64(3)");
        double c[2] = {1.0, 2.0};
        CHECK(gpy::scalar_repr(DType::Complex128, c) == "np.complex128(1+2j)");
        CHECK(gpy::scalar_str(DType::Complex128, c) == "(1+2j)");
        float f = 1.5f;
        CHECK(gpy::scalar_repr(DType::Float32, &f) == "np.float32(1.5)");
        uint16_t h = gpy::double_to_half(65504.0);
        CHECK(h == 0x7bff);
        CHECK(gpy::scalar_str(DType::Float16, &h) == "6.55e+04");
    }
    SECTION("half conversion rounds to nearest even") {
        CHECK(gpy::double_to_half(1.0) == 0x3c00);
        CHECK(gpy::double_to_half(65520.0) == 0x7c00);
        CHECK(gpy::double_to_half(-0.0) == 0x8000);
        CHECK(gpy::double_to_half(1.0 + 1.0 / 2048) == 0x3c00);      // tie to even
        CHECK(gpy::double_to_half(1.0 + 3.0 / 2048) == 0x3c02);      // tie to even (up)
        CHECK(gpy::double_to_half(5.960464477539063e-08) == 0x0001); // smallest subnormal
        CHECK(gpy::double_to_half(2.9802322387695312e-08) == 0x0000); // half of it: ties to 0
        CHECK(gpy::half_to_double(0x0001) == 5.960464477539063e-08);
        CHECK(gpy::half_to_double(0xfbff) == -65504.0);
    }
}
