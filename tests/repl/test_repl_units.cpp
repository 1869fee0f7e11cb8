// Unit tests of the REPL's pure parts: IPython-compatible time formatting,
// tab-completion edits and continuation-line logic. The expected strings for
// format_time were produced by IPython's own _format_time algorithm.
// Built into gpy_unit_tests with tests/unit/*.cpp; the Catch2 main lives there.
#include <catch2/catch.hpp>

#include "repl/completion.h"
#include "repl/input_buffer.h"
#include "repl/time_format.h"

using namespace gpy;
using namespace gpy::repl;

TEST_CASE("format_time matches IPython's _format_time") {
    CHECK(format_time(0) == "0 ns");
    CHECK(format_time(1e-10) == "0.1 ns");
    CHECK(format_time(5.3e-9) == "5.3 ns");
    CHECK(format_time(1.234e-7) == "123 ns");
    CHECK(format_time(0.000123) == "123 \u00b5s");
    CHECK(format_time(0.0009996) == "1e+03 \u00b5s");
    CHECK(format_time(0.5) == "500 ms");
    CHECK(format_time(1.0) == "1 s");
    CHECK(format_time(12.345) == "12.3 s");
    CHECK(format_time(59.99) == "60 s");
    CHECK(format_time(60) == "1min");
    CHECK(format_time(61.5) == "1min 1s");
    CHECK(format_time(3725.2) == "1h 2min 5s");
    CHECK(format_time(90061.7) == "1d 1h 1min 1s");
}

TEST_CASE("%time lines") {
    CHECK(format_cpu_times(0.00123, 0, 0.00125) ==
          "CPU times: user 1.23 ms, sys: 0 ns, total: 1.23 ms\nWall time: 1.25 ms\n");
}

TEST_CASE("%timeit summary line") {
    std::vector<double> runs(7, 0.25);  // 7 runs of 10 loops, 25 ms per loop
    CHECK(format_timeit(runs, 10) ==
          "25 ms \u00b1 0 ns per loop (mean \u00b1 std. dev. of 7 runs, 10 loops each)\n");
    CHECK(format_timeit({1.0}, 1) == "1 s \u00b1 0 ns per loop (mean \u00b1 std. dev. of 1 run, 1 loop each)\n");
    CHECK(group_thousands(1000000) == "1,000,000");
    CHECK(group_thousands(100) == "100");
    std::string warn = format_timeit({1.0, 5.0}, 1);
    CHECK(warn.rfind("The slowest run took 5.00 times longer than the fastest.", 0) == 0);
}

TEST_CASE("tab completion edits") {
    std::vector<std::string> names;
    TabCompleter tab([&](std::string_view) { return names; });

    names = {"sqrt"};
    TabAction a = tab.on_tab("y = math.sq");
    CHECK(a.insert == "rt");

    names = {"math.sqrt"};  // full dotted candidates are accepted too
    CHECK(tab.on_tab("math.sq").insert == "rt");

    names = {"cand_alpha", "cand_beta"};
    a = tab.on_tab("cand");
    CHECK(a.insert == "_");  // common prefix first
    a = tab.on_tab("cand_");
    REQUIRE(a.listing.size() == 2);  // then the list
    CHECK(a.listing[0] == "cand_alpha");

    names = {"sin", "sinh"};
    a = tab.on_tab("math.sin");
    CHECK(a.insert.empty());
    CHECK(a.beep);  // first Tab with nothing to add: beep
    a = tab.on_tab("math.sin");
    CHECK(a.listing == std::vector<std::string>{"math.sin", "math.sinh"});

    names = {};
    CHECK(tab.on_tab("zzz").beep);
    CHECK(tab.on_tab("").insert == "    ");  // indent at line start
    CHECK(tab.on_tab("  ").insert == "  ");
}

TEST_CASE("format_columns lays out down then across") {
    CHECK(format_columns({"a", "b", "c"}, 80) == "a  b  c\n");
    CHECK(format_columns({"aa", "bb", "cc"}, 8) == "aa  cc\nbb\n");
}

namespace {
// A stand-in for Interpreter::check_input with Python's codeop answers for the
// inputs used below.
InputState fake_check(std::string_view src) {
    std::string s(src);
    if (s == "1+" || s.find("+*") != std::string::npos) return InputState::Invalid;
    int depth = 0;
    for (char c : s) depth += (c == '(' || c == '[') - (c == ')' || c == ']');
    if (depth > 0) return InputState::Incomplete;
    if (s.find(":\n") != std::string::npos || (!s.empty() && s.back() == ':'))
        return InputState::Incomplete;  // codeop: a block needs its blank line
    return InputState::Complete;
}
}  // namespace

TEST_CASE("continuation lines") {
    InputBuffer b(fake_check);
    CHECK(b.feed("").kind == Submission::None);
    CHECK(!b.continuing());

    Submission s = b.feed("1+2");
    CHECK(s.kind == Submission::Source);
    CHECK(s.text == "1+2\n");

    CHECK(b.feed("def f(x):").kind == Submission::None);
    CHECK(b.continuing());
    CHECK(b.feed("    return x").kind == Submission::None);
    s = b.feed("");
    CHECK(s.kind == Submission::Source);
    CHECK(s.text == "def f(x):\n    return x\n");
    CHECK(s.history == "def f(x):\n    return x");

    CHECK(b.feed("x = (1,").kind == Submission::None);
    s = b.feed("2)");
    CHECK(s.text == "x = (1,\n2)\n");

    s = b.feed("1 +* 2");
    CHECK(s.kind == Submission::Source);  // invalid: run it to show the error

    s = b.feed("  %timeit 1+1");
    CHECK(s.kind == Submission::Magic);
    CHECK(s.text == "%timeit 1+1");
}

TEST_CASE("a block needs a blank line even if the checker says complete") {
    InputBuffer b([](std::string_view src) {
        return src.back() == ':' ? InputState::Incomplete : InputState::Complete;
    });
    CHECK(b.feed("if x:").kind == Submission::None);
    CHECK(b.feed("    y = 1").kind == Submission::None);
    CHECK(b.feed("    z = 2").kind == Submission::None);
    CHECK(b.feed("").text == "if x:\n    y = 1\n    z = 2\n");
}

TEST_CASE("pasted Python prompts are stripped") {
    InputBuffer b(fake_check);
    CHECK(b.feed(">>> print(7)").text == "print(7)\n");
    CHECK(b.feed(">>> def h():").kind == Submission::None);
    CHECK(b.feed("...     return 11").kind == Submission::None);
    CHECK(b.feed("...").text == "def h():\n    return 11\n");
    // Outside a pasted block, "..." is Python's Ellipsis.
    CHECK(b.feed("...").text == "...\n");
}
