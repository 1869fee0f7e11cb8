// Tests for numpy/promote.{h,cpp} and numpy/ufunc_table.{h,cpp}. The
// tables in promote_cases.inc hold NumPy 2's answers (regenerate with
// tests/unit/gen_promote_cases.py); the hand-written cases below cover the
// API surface the tables do not.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "numpy/promote.h"
#include "numpy/ufunc_table.h"

using namespace std::literals;
using namespace gpy;

namespace {

using T = DType;
using W = WeakKind;

struct TestOperand {
    DType dtype = T::Bool;
    WeakKind weak = W::None;
    int64_t int_value = 0;
    double float_value = 0;
    bool present = false;  // unused slots of a TestOperands are not
};
constexpr TestOperand A(DType t) { return {t, W::None, 0, 0.0, true}; }
constexpr TestOperand WB(int v) { return {T::Bool, W::Bool, v, 0.0, true}; }
constexpr TestOperand WI(int64_t v) { return {T::Int64, W::Int, v, 0.0, true}; }
constexpr TestOperand WF(double v) { return {T::Float64, W::Float, 0, v, true}; }
constexpr TestOperand WC(double re) { return {T::Complex128, W::Complex, 0, re, true}; }
// Up to five operands, without the cost of 30k static std::vectors.
struct TestOperands {
    TestOperand op[5];
    size_t size() const {
        size_t n = 0;
        while (n < 5 && op[n].present) ++n;
        return n;
    }
    const TestOperand& operator[](size_t i) const { return op[i]; }
};

struct PromoteCase {
    DType a, b, expected;
};
struct CanCastCase {
    DType from, to;
    unsigned mask;  // bit i: allowed under Casting(i)
};
struct ResultTypeCase {
    TestOperands ops;
    DType expected;
};
struct UfuncCase {
    std::string_view ufunc;
    TestOperands ops;
    std::string_view in, out;  // NumPy type chars; `in` empty: not checked
    std::string_view error_kind;
    int message;   // index into kUfuncMessages
    int constant;  // -1, or the constant comparison result
};

#include "promote_cases.inc"

Operand to_operand(const TestOperand& t) { return Operand{t.dtype, t.weak, t.int_value, t.float_value}; }

std::vector<Operand> to_operands(const TestOperands& ops) {
    std::vector<Operand> r;
    for (size_t i = 0; i < ops.size(); ++i) r.push_back(to_operand(ops[i]));
    return r;
}

std::string describe(const TestOperand& o) {
    switch (o.weak) {
        case W::None: return name(o.dtype);
        case W::Bool: return o.int_value ? "True" : "False";
        case W::Int: return std::to_string(o.int_value);
        case W::Float: return std::to_string(o.float_value);
        case W::Complex: return "complex";
    }
    return "?";
}

std::string describe(std::string_view fn, const TestOperands& ops) {
    std::string s(fn);
    s += "(";
    for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : "") + describe(ops[i]);
    return s + ")";
}

std::string chars(const std::vector<DType>& ts) {
    std::string s;
    for (DType t : ts) s += info(t).char_code;
    return s;
}

// Reports the first failures (the tables have thousands of rows).
void report(const std::vector<std::string>& failures, size_t total) {
    std::string text;
    for (size_t i = 0; i < failures.size() && i < 40; ++i) text += failures[i] + "\n";
    INFO(failures.size() << " of " << total << " cases fail:\n" << text);
    CHECK(failures.empty());
}

}  // namespace

TEST_CASE("promote_types matches np.promote_types for all pairs", "[promote]") {
    std::vector<std::string> failures;
    for (const auto& c : kPromoteCases) {
        DType got = promote_types(c.a, c.b);
        if (got != c.expected)
            failures.push_back("promote_types("s + name(c.a) + ", " + name(c.b) + ") = " + name(got) +
                               ", NumPy: " + name(c.expected));
    }
    CHECK(std::size(kPromoteCases) == 196);
    report(failures, std::size(kPromoteCases));
}

TEST_CASE("can_cast matches np.can_cast for all pairs and casting levels", "[promote]") {
    static const char* const kLevels[] = {"no", "equiv", "safe", "same_kind", "unsafe"};
    std::vector<std::string> failures;
    for (const auto& c : kCanCastCases) {
        for (int lv = 0; lv < 5; ++lv) {
            bool want = (c.mask >> lv) & 1;
            bool got = can_cast(c.from, c.to, Casting(lv));
            if (got != want)
                failures.push_back("can_cast("s + name(c.from) + ", " + name(c.to) + ", " + kLevels[lv] +
                                   ") = " + (got ? "True" : "False"));
        }
    }
    report(failures, std::size(kCanCastCases) * 5);
}

TEST_CASE("result_type matches np.result_type with weak Python scalars", "[promote]") {
    std::vector<std::string> failures;
    for (const auto& c : kResultTypeCases) {
        DType got = result_type(to_operands(c.ops));
        if (got != c.expected)
            failures.push_back(describe("result_type", c.ops) + " = " + name(got) + ", NumPy: " +
                               name(c.expected));
    }
    report(failures, std::size(kResultTypeCases));
}

TEST_CASE("resolve_ufunc matches NumPy's loop selection", "[promote][ufunc]") {
    std::vector<std::string> failures;
    for (const auto& c : kUfuncCases) {
        std::string call = describe(c.ufunc, c.ops);
        std::string want_msg(kUfuncMessages[c.message]);
        try {
            UfuncLoop loop = resolve_ufunc(c.ufunc, to_operands(c.ops));
            if (!c.error_kind.empty()) {
                failures.push_back(call + ": no error, NumPy raises " + std::string(c.error_kind) + ": " +
                                   want_msg);
                continue;
            }
            std::string in = chars(loop.in), out = chars(loop.out);
            if ((!c.in.empty() && in != c.in) || out != c.out)
                failures.push_back(call + ": " + in + "->" + out + ", NumPy: " + std::string(c.in) + "->" +
                                   std::string(c.out));
            int constant = loop.constant_result ? int(*loop.constant_result) : -1;
            if (constant != c.constant)
                failures.push_back(call + ": constant_result " + std::to_string(constant) + ", NumPy " +
                                   std::to_string(c.constant));
        } catch (const PromotionError& e) {
            // The table records NumPy's UFuncTypeError under its base class TypeError.
            std::string kind = e.kind == "UFuncTypeError" ? "TypeError" : e.kind;
            if (kind != c.error_kind || e.what() != want_msg)
                failures.push_back(call + ": " + e.kind + ": " + e.what() + "; NumPy: " +
                                   (c.error_kind.empty() ? "no error" : std::string(c.error_kind) + ": " + want_msg));
        }
    }
    report(failures, std::size(kUfuncCases));
}

TEST_CASE("ufunc table lookups", "[promote][ufunc]") {
    CHECK(is_known_ufunc("add"));
    CHECK(is_known_ufunc("mod"));
    CHECK(is_known_ufunc("true_divide"));
    CHECK_FALSE(is_known_ufunc("sinc"));  // a function, not a ufunc
    CHECK_FALSE(is_known_ufunc("Add"));
    CHECK(ufunc_nin("add") == 2);
    CHECK(ufunc_nout("add") == 1);
    CHECK(ufunc_nin("sqrt") == 1);
    CHECK(ufunc_nin("divmod") == 2);
    CHECK(ufunc_nout("divmod") == 2);
    CHECK(ufunc_nin("modf") == 1);
    CHECK(ufunc_nout("modf") == 2);
    CHECK(ufunc_nin("nope") == -1);
    CHECK(ufunc_nout("nope") == -1);
    CHECK(all_ufuncs().size() == 87);
    const UfuncDef* mod = find_ufunc("mod");
    REQUIRE(mod != nullptr);
    CHECK(mod->numpy_name == "remainder");
    CHECK(mod->loops().front().t[0] == T::Int8);
    for (const UfuncDef& u : all_ufuncs()) {
        INFO(u.name);
        CHECK(u.num_loops > 0);
        CHECK(find_ufunc(u.name) == &u);
    }
}

TEST_CASE("resolve_ufunc hand-written cases", "[promote][ufunc]") {
    auto arr = [](DType t) { return Operand::array(t); };
    SECTION("int arrays with Python scalars (NEP 50)") {
        UfuncLoop l = resolve_ufunc("add", {arr(T::Int8), Operand::py_int(1)});
        CHECK(l.in == std::vector<DType>{T::Int8, T::Int8});
        CHECK(l.out == std::vector<DType>{T::Int8});
        CHECK_FALSE(l.constant_result);
        CHECK(resolve_ufunc("multiply", {arr(T::Int8), Operand::py_float(2.5)}).out[0] == T::Float64);
        CHECK(resolve_ufunc("multiply", {arr(T::Float32), Operand::py_float(1e300)}).out[0] == T::Float32);
        CHECK(resolve_ufunc("add", {arr(T::Float16), Operand::py_complex()}).out[0] == T::Complex64);
        CHECK(resolve_ufunc("add", {arr(T::Int16), Operand::py_bool(true)}).out[0] == T::Int16);
        CHECK(resolve_ufunc("true_divide", {arr(T::Int8), arr(T::Int8)}).out[0] == T::Float64);
        CHECK(resolve_ufunc("arctan2", {arr(T::Int8), Operand::py_int(3)}).out[0] == T::Float16);
    }
    SECTION("errors carry NumPy's kind and message") {
        try {
            resolve_ufunc("add", {arr(T::Int8), Operand::py_int(300)});
            FAIL("no error");
        } catch (const PromotionError& e) {
            CHECK(e.kind == "OverflowError");
            CHECK(e.what() == "Python integer 300 out of bounds for int8"s);
        }
        CHECK_THROWS_WITH(resolve_ufunc("subtract", {arr(T::Bool), arr(T::Bool)}),
                          "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                          "the `^` operator, or the logical_xor function instead.");
        CHECK_THROWS_WITH(resolve_ufunc("bitwise_and", {arr(T::Float64), arr(T::Float64)}),
                          "ufunc 'bitwise_and' not supported for the input types, and the inputs could not be "
                          "safely coerced to any supported types according to the casting rule ''safe''");
        CHECK_THROWS_WITH(resolve_ufunc("add", {arr(T::Int8)}),
                          "add() takes from 2 to 3 positional arguments but 1 was given");
        CHECK_THROWS_WITH(resolve_ufunc("mod", {arr(T::Int8)}),
                          "remainder() takes from 2 to 3 positional arguments but 1 was given");
        CHECK_THROWS_WITH(resolve_ufunc("divmod", std::vector<Operand>(5, arr(T::Int8))),
                          "divmod() takes from 2 to 4 positional arguments but 5 were given");
        CHECK_THROWS_WITH(resolve_ufunc("sqrt", {}),
                          "sqrt() takes from 1 to 2 positional arguments but 0 were given");
        CHECK_THROWS_AS(resolve_ufunc("sinc", {arr(T::Float64)}), PromotionError);  // a function, not a ufunc
    }
    SECTION("comparisons with out-of-range Python ints are constant") {
        UfuncLoop l = resolve_ufunc("less", {arr(T::UInt8), Operand::py_int(300)});
        CHECK(l.out == std::vector<DType>{T::Bool});
        REQUIRE(l.constant_result);
        CHECK(*l.constant_result == true);
        CHECK(*resolve_ufunc("less", {Operand::py_int(300), arr(T::UInt8)}).constant_result == false);
        CHECK(*resolve_ufunc("equal", {arr(T::UInt64), Operand::py_int(-1)}).constant_result == false);
        CHECK(*resolve_ufunc("not_equal", {arr(T::Int8), Operand::py_int(-129)}).constant_result == true);
        CHECK_FALSE(resolve_ufunc("equal", {arr(T::Int8), Operand::py_int(-128)}).constant_result);
    }
    SECTION("two-output ufuncs") {
        UfuncLoop l = resolve_ufunc("divmod", {arr(T::Int8), arr(T::UInt8)});
        CHECK(l.in == std::vector<DType>{T::Int16, T::Int16});
        CHECK(l.out == std::vector<DType>{T::Int16, T::Int16});
        l = resolve_ufunc("modf", {arr(T::Int32)});
        CHECK(l.out == std::vector<DType>{T::Float64, T::Float64});
    }
}

TEST_CASE("promotion helpers on edge cases", "[promote]") {
    CHECK(promote_types(T::UInt64, T::Int64) == T::Float64);
    CHECK(promote_types(T::Int16, T::Float16) == T::Float32);
    CHECK(can_cast(T::Int64, T::Float64));
    CHECK_FALSE(can_cast(T::Int64, T::Float32));
    CHECK(can_cast(T::Float64, T::Float16, Casting::SameKind));
    CHECK_FALSE(can_cast(T::Float64, T::Int64, Casting::SameKind));
    CHECK(can_cast(T::Complex128, T::Bool, Casting::Unsafe));
    CHECK(result_type({Operand::py_int(1)}) == T::Int64);
    CHECK(result_type({Operand::py_int(1), Operand::py_float(1.0)}) == T::Float64);
    CHECK(result_type({Operand::array(T::Int8), Operand::py_int(300)}) == T::Int8);  // values unchecked
    CHECK(result_type({Operand::array(T::Bool), Operand::py_int(1)}) == T::Int64);
    CHECK(result_type({Operand::array(T::Float32), Operand::py_complex()}) == T::Complex64);
    CHECK(result_type({Operand::array(T::Int8), Operand::py_complex(), Operand::array(T::Float32)}) ==
          T::Complex64);
}
