// End-to-end tests through the embedding API (include/gpy/gpy.h): programs
// run with stdout and stderr captured, checking Python's semantics, error
// texts, resource limits, isolation between interpreters and REPL support.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "gpy/gpy.h"
#include "tests/unit/session.h"

using gpy::InputState;
using gpy::Interpreter;
using gpy::Result;
using gpy::Status;
using gpy::test::Session;

namespace {

bool contains(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }
bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// Runs `fn` in a child process; returns how it ended: "exit N" or "signal N".
// Lets a test check that something is an error and not a crash without
// taking the whole test binary down if it is a crash.
std::string in_child(const std::function<int()>& fn) {
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
        // Catch2's fatal-signal handlers would report the child as a second
        // test run; let a crash be a plain signal instead.
        for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE}) std::signal(sig, SIG_DFL);
        _exit(fn());
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
    return "?";
}

}  // namespace

TEST_CASE("eval: integer and float arithmetic") {
    Session s;
    CHECK(s.ok("print(7 // 2, -7 // 2, 7 // -2, -7 // -2)") == "3 -4 -4 3\n");
    CHECK(s.ok("print(7 % 3, -7 % 3, 7 % -3, -7 % -3)") == "1 2 -2 -1\n");
    CHECK(s.ok("print(-7.5 // 2, 7.5 % -2, -0.5 % 1)") == "-4.0 -0.5 0.5\n");
    CHECK(s.ok("print(divmod(-7, 2), divmod(7, -2))") == "(-4, 1) (-4, -1)\n");
    CHECK(s.ok("print(7 / 2, 6 / 3, 1 / 3, -1 / 4)") == "3.5 2.0 0.3333333333333333 -0.25\n");
    CHECK(s.ok("print(0.1 + 0.2, 1e16, 1.5e-7, 2.0 ** 10, 10 ** 15)") ==
          "0.30000000000000004 1e+16 1.5e-07 1024.0 1000000000000000\n");
    CHECK(s.ok("print(2 ** -1, 2 ** 0.5, (-8) ** 2, -2 ** 2)") == "0.5 1.4142135623730951 64 -4\n");
    CHECK(s.ok("print(1 + True, 3 * 1.0, 5 - 2.5, 1 == 1.0, 7 // 2.0)") == "2 3.0 2.5 True 3.0\n");
    CHECK(s.ok("print(-9223372036854775807 - 1, 9223372036854775807)") == "-9223372036854775808 9223372036854775807\n");
    CHECK(s.ok("print(1 << 62, -1 >> 3, 6 & 3, 6 | 3, 6 ^ 3, ~5)") == "4611686018427387904 -1 2 7 5 -6\n");
    CHECK(s.ok("print(1 < 2 < 3, 1 < 3 < 2, 2 == 2.0 != 3)") == "True False True\n");
}

TEST_CASE("eval: division by zero and int64 overflow are errors") {
    Session s;
    std::string err = s.fails("x = 1\ny = x / 0\n");
    CHECK(contains(err, "ZeroDivisionError: division by zero"));
    CHECK(contains(err, "<test>:2:5: error:"));

    err = s.fails("print(5 % 0)");
    CHECK(contains(err, "ZeroDivisionError"));

    err = s.fails("x = 9223372036854775807\ny = x + 1\n");
    CHECK(contains(err, "OverflowError"));
    CHECK(contains(err, "<test>:2:5"));

    CHECK(contains(s.fails("print(2 ** 63)"), "OverflowError"));
    CHECK(contains(s.fails("print(3037000500 * 3037000500)"), "OverflowError"));
    CHECK(contains(s.fails("x = -9223372036854775807 - 1\nprint(x // -1)"), "OverflowError"));
    CHECK(contains(s.fails("x = -9223372036854775807 - 1\nprint(-x)"), "OverflowError"));
    CHECK(contains(s.fails("print(1 << 64)"), "OverflowError"));
    // The largest values are still fine.
    CHECK(s.ok("print(2 ** 62 + (2 ** 62 - 1))") == "9223372036854775807\n");
    // The exception can be caught like any other.
    CHECK(s.ok("try:\n    2 ** 64\nexcept OverflowError:\n    print('caught')\n") == "caught\n");
}

TEST_CASE("eval: closures, nonlocal and global") {
    Session s;
    CHECK(s.ok("def counter():\n"
               "    n = 0\n"
               "    def inc():\n"
               "        nonlocal n\n"
               "        n += 1\n"
               "        return n\n"
               "    return inc\n"
               "a = counter(); b = counter()\n"
               "a(); a()\n"
               "print(a(), b())\n") == "3 1\n");
    CHECK(s.ok("total = 0\n"
               "def add(x):\n"
               "    global total\n"
               "    total += x\n"
               "add(5); add(7)\n"
               "print(total)\n") == "12\n");
    CHECK(s.ok("def outer():\n"
               "    x = 'outer'\n"
               "    def mid():\n"
               "        def inner():\n"
               "            return x\n"
               "        return inner()\n"
               "    return mid()\n"
               "print(outer())\n") == "outer\n");
    // Late binding of closure variables, and the default-argument idiom.
    CHECK(s.ok("fs = [lambda: i for i in range(3)]\nprint([f() for f in fs])") == "[2, 2, 2]\n");
    CHECK(s.ok("fs = [lambda i=i: i * 10 for i in range(3)]\nprint([f() for f in fs])") == "[0, 10, 20]\n");
    // A local assigned later in the function shadows the global.
    std::string err = s.fails("x = 1\ndef f():\n    print(x)\n    x = 2\nf()\n");
    CHECK(contains(err, "UnboundLocalError"));
    CHECK(contains(err, "'x'"));
    // nonlocal without an enclosing binding is a compile-time error.
    s.err.clear();
    Result r = s.run("def f():\n    nonlocal q\n    q = 1\n");
    CHECK(r.status == Status::SyntaxError);
    CHECK(r.exit_code == 2);
    CHECK(contains(s.err, "no binding for nonlocal"));
}

TEST_CASE("eval: default arguments are evaluated once") {
    Session s;
    CHECK(s.ok("def f(a=[]):\n"
               "    a.append(1)\n"
               "    return len(a)\n"
               "print(f(), f(), f([]), f())\n") == "1 2 1 3\n");
    CHECK(s.ok("n = 5\n"
               "def g(x=n):\n"
               "    return x\n"
               "n = 6\n"
               "print(g(), g(7))\n") == "5 7\n");
}

TEST_CASE("eval: *args and **kwargs binding") {
    Session s;
    CHECK(s.ok("def h(a, *args, b=2, **kw):\n"
               "    print(a, args, b, sorted(kw))\n"
               "h(1, 2, 3, b=4, c=5, d=6)\n"
               "h(*[1, 2], **{'b': 3})\n"
               "h(1)\n") == "1 (2, 3) 4 ['c', 'd']\n1 (2,) 3 []\n1 () 2 []\n");
    CHECK(s.ok("def f(a, b, c):\n    return a * 100 + b * 10 + c\n"
               "print(f(1, c=3, b=2), f(*(1, 2), 3), f(**{'c': 1, 'a': 3, 'b': 2}))\n") == "123 123 321\n");
    CHECK(s.ok("def k(a, *, key):\n    return key\nprint(k(1, key='x'))\n") == "x\n");
}

TEST_CASE("eval: argument binding errors have Python's texts") {
    Session s;
    s.ok("def f(a, b):\n    pass\n"
         "def g(a, *, k):\n    pass\n"
         "def h(a, b=1):\n    pass\n"
         "def one(a):\n    pass\n"
         "def report(fn):\n"
         "    try:\n"
         "        fn()\n"
         "    except TypeError as e:\n"
         "        print(e)\n");
    CHECK(s.ok("report(lambda: f(1))") == "f() missing 1 required positional argument: 'b'\n");
    CHECK(s.ok("report(lambda: f())") == "f() missing 2 required positional arguments: 'a' and 'b'\n");
    CHECK(s.ok("report(lambda: f(1, c=2))") == "f() got an unexpected keyword argument 'c'\n");
    CHECK(s.ok("report(lambda: f(1, a=2))") == "f() got multiple values for argument 'a'\n");
    CHECK(s.ok("report(lambda: f(1, 2, 3))") == "f() takes 2 positional arguments but 3 were given\n");
    CHECK(s.ok("report(lambda: one(1, 2))") == "one() takes 1 positional argument but 2 were given\n");
    CHECK(s.ok("report(lambda: h(1, 2, 3))") == "h() takes from 1 to 2 positional arguments but 3 were given\n");
    CHECK(s.ok("report(lambda: g(1))") == "g() missing 1 required keyword-only argument: 'k'\n");
    CHECK(s.ok("report(lambda: g(1, 2))") == "g() takes 1 positional argument but 2 were given\n");
    // Uncaught: the message reaches stderr with the exception type.
    CHECK(contains(s.fails("f(1)"), "TypeError: f() missing 1 required positional argument: 'b'"));
}

TEST_CASE("eval: exceptions are caught by base class") {
    Session s;
    CHECK(s.ok("try:\n    1 / 0\nexcept ArithmeticError as e:\n    print(type(e).__name__, e)\n") ==
          "ZeroDivisionError division by zero\n");
    CHECK(s.ok("try:\n    {}['k']\nexcept LookupError as e:\n    print(type(e).__name__, e)\n") == "KeyError 'k'\n");
    CHECK(s.ok("try:\n    [][1]\nexcept LookupError as e:\n    print(type(e).__name__, e)\n") ==
          "IndexError list index out of range\n");
    CHECK(s.ok("try:\n    int('x')\nexcept Exception as e:\n    print(type(e).__name__, e)\n") ==
          "ValueError invalid literal for int() with base 10: 'x'\n");
    CHECK(s.ok("try:\n    raise KeyError('a')\nexcept (ValueError, LookupError):\n    print('tuple match')\n") ==
          "tuple match\n");
    CHECK(s.ok("try:\n    raise ValueError\nexcept TypeError:\n    print('no')\nexcept BaseException as e:\n"
               "    print('base', type(e).__name__)\n") == "base ValueError\n");
    // A handler that does not match lets the exception through.
    CHECK(contains(s.fails("try:\n    raise ValueError('v')\nexcept KeyError:\n    pass\n"), "ValueError: v"));
    // Bare raise re-raises the exception being handled.
    CHECK(contains(s.fails("try:\n    raise KeyError('k')\nexcept KeyError:\n    raise\n"), "KeyError: 'k'"));
}

TEST_CASE("eval: try/except/else/finally ordering") {
    Session s;
    CHECK(s.ok("def f():\n"
               "    try:\n"
               "        print('try')\n"
               "        return 'ret'\n"
               "    finally:\n"
               "        print('finally')\n"
               "print(f())\n") == "try\nfinally\nret\n");
    CHECK(s.ok("try:\n"
               "    try:\n"
               "        raise ValueError('v')\n"
               "    finally:\n"
               "        print('inner finally')\n"
               "except ValueError as e:\n"
               "    print('caught', e)\n"
               "else:\n"
               "    print('else')\n"
               "finally:\n"
               "    print('outer finally')\n") == "inner finally\ncaught v\nouter finally\n");
    CHECK(s.ok("try:\n    print('body')\nexcept Exception:\n    print('except')\nelse:\n    print('else')\n"
               "finally:\n    print('finally')\n") == "body\nelse\nfinally\n");
    // finally runs on break and continue.
    CHECK(s.ok("for i in range(3):\n"
               "    try:\n"
               "        if i == 0:\n"
               "            continue\n"
               "        if i == 2:\n"
               "            break\n"
               "        print('body', i)\n"
               "    finally:\n"
               "        print('fin', i)\n") == "fin 0\nbody 1\nfin 1\nfin 2\n");
    // A return in finally overrides the pending return value.
    CHECK(s.ok("def g():\n    try:\n        return 1\n    finally:\n        return 2\nprint(g())\n") == "2\n");
    // An uncaught exception still runs finally before reporting.
    s.out.clear();
    s.err.clear();
    Result r = s.run("try:\n    1 / 0\nfinally:\n    print('cleanup')\n");
    CHECK(r.status == Status::RuntimeError);
    CHECK(s.out == "cleanup\n");
    CHECK(contains(s.err, "ZeroDivisionError"));
}

TEST_CASE("eval: deep recursion raises RecursionError and the interpreter stays usable") {
    Session s;
    std::string err = s.fails("def f(n):\n    return f(n + 1)\nf(0)\n");
    CHECK(contains(err, "RecursionError: maximum recursion depth exceeded"));
    CHECK(contains(err, "Traceback (most recent call last):"));
    CHECK(s.ok("print(1 + 1)") == "2\n");
    CHECK(s.ok("def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept RecursionError:\n    print('deep')\n") ==
          "deep\n");
    // Legal recursion below the limit works.
    CHECK(s.ok("def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\nprint(depth(900))\n") == "900\n");
}

TEST_CASE("eval: recursion_limit is configurable") {
    gpy::Config c = gpy::Config::from_environment();
    c.recursion_limit = 50;
    Session s(c);
    CHECK(s.ok("def d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\nprint(d(40))\n") == "40\n");
    CHECK(contains(s.fails("print(d(60))"), "RecursionError"));
}

TEST_CASE("eval: a long flat expression is a result or an error, not a crash") {
    // Python gives up on this with "RecursionError: maximum recursion depth
    // exceeded during compilation"; gpy may compute it or report an error, but
    // must not overflow the C++ stack of an ordinary (8 MiB) embedding thread.
    // Run in a child so that a crash fails this test instead of the whole run.
    std::string how = in_child([] {
        std::string out, err;
        gpy::Config c = gpy::Config::from_environment();
        c.out = [&](std::string_view v) { out.append(v); };
        c.err = [&](std::string_view v) { err.append(v); };
        Interpreter in(c);
        std::string src = "x = 1";
        for (int k = 0; k < 200000; ++k) src += "+1";
        src += "\nprint(x)\n";
        Result r = in.run_string(src);
        if (r.status == Status::Ok) return out == "200001\n" ? 0 : 3;
        return r.status == Status::SyntaxError || r.status == Status::RuntimeError ? 0 : 4;
    });
    CHECK(how == "exit 0");
}

TEST_CASE("eval: deeply nested lists: repr is a RecursionError, freeing does not crash") {
    std::string how = in_child([] {
        std::string out, err;
        gpy::Config c = gpy::Config::from_environment();
        c.out = [&](std::string_view v) { out.append(v); };
        c.err = [&](std::string_view v) { err.append(v); };
        Interpreter in(c);
        Result r = in.run_string("x = []\nfor i in range(100000):\n    x = [x]\ns = repr(x)\n");
        if (r.status != Status::RuntimeError || err.find("RecursionError") == std::string::npos) return 3;
        return 0;
    });
    CHECK(how == "exit 0");
    // Dropping the last reference to a million-deep list (Python frees this
    // without recursion, via its "trashcan").
    how = in_child([] {
        std::string out;
        gpy::Config c = gpy::Config::from_environment();
        c.out = [&](std::string_view v) { out.append(v); };
        c.err = [](std::string_view) {};
        Interpreter in(c);
        Result r = in.run_string("x = []\nfor i in range(1000000):\n    x = [x]\nx = None\nprint('freed')\n");
        return r.status == Status::Ok && out == "freed\n" ? 0 : 3;
    });
    CHECK(how == "exit 0");
}

TEST_CASE("eval: max_steps stops an endless loop with an error") {
    gpy::Config c = gpy::Config::from_environment();
    c.max_steps = 100000;
    Session s(c);
    std::string err = s.fails("while True:\n    pass\n");
    CHECK(contains(err, "RuntimeError"));
    CHECK(contains(err, "step limit"));
    // Endless recursion through calls is also bounded (RecursionError or the step limit).
    err = s.fails("def f():\n    while True:\n        pass\nf()\n");
    CHECK(contains(err, "step limit"));
    // Short programs still run afterwards.
    CHECK(s.ok("print(sum(range(10)))") == "45\n");
}

TEST_CASE("eval: max_array_bytes turns a too-large array into a catchable MemoryError") {
    gpy::Config c = gpy::Config::from_environment();
    c.max_array_bytes = 1 << 20;
    {
        Session s(c);
        std::string err = s.fails("import numpy as np\nx = np.zeros(200000)\n");
        CHECK(contains(err, "MemoryError: an array of 1600000 bytes is over the limit of 1048576 bytes (max_array_bytes)"));
        // Smaller arrays still work, also results of operations; the error is catchable.
        CHECK(s.ok("import numpy as np\nprint(float((np.ones(1000) * 2).sum()))") == "2000.0\n");
        CHECK(s.ok("try:\n    np.ones((1000, 1000)) + 1\nexcept MemoryError:\n    print('caught')\n") == "caught\n");
    }
    // The next interpreter's import sets its own limit (none).
    Session t;
    CHECK(t.ok("import numpy as np\nprint(np.zeros(200000).size)") == "200000\n");
}

TEST_CASE("eval: two interpreters are isolated") {
    Session a, b;
    a.ok("shared = 41\nimport math\nmath.answer = 1\n");
    CHECK(a.ok("print(shared + 1)") == "42\n");
    std::string err = b.fails("print(shared)");
    CHECK(contains(err, "NameError: name 'shared' is not defined"));
    // Module objects are per interpreter too.
    CHECK(contains(b.fails("import math\nprint(math.answer)"), "AttributeError"));
    // Rebinding a builtin in one does not affect the other.
    a.ok("len = lambda x: -1\n");
    CHECK(a.ok("print(len([1, 2]))") == "-1\n");
    CHECK(b.ok("print(len([1, 2]))") == "2\n");
}

TEST_CASE("eval: output goes to the configured sinks in order") {
    Session s;
    s.out.clear();
    s.err.clear();
    Result r = s.run("print('a')\nprint('b', end='')\nprint()\nprint(1, 2, sep='-')\nundefined_name\n");
    CHECK(r.status == Status::RuntimeError);
    CHECK(s.out == "a\nb\n1-2\n");
    CHECK(contains(s.err, "NameError: name 'undefined_name' is not defined"));
    CHECK(contains(s.err, "<test>:5:1: error:"));
}

TEST_CASE("eval: run_interactive keeps state, echoes expressions and binds _") {
    Session s;
    CHECK(s.repl("x = 5") == "");
    CHECK(s.repl("x * 2") == "10\n");
    CHECK(s.repl("_ + 1") == "11\n");
    CHECK(s.repl("'text'") == "'text'\n");  // echo uses repr
    CHECK(s.repl("_") == "'text'\n");
    CHECK(s.repl("None") == "");               // None is not echoed
    CHECK(s.repl("_") == "'text'\n");          // ... and does not rebind _
    CHECK(s.repl("def sq(n):\n    return n * n\n\n") == "");
    CHECK(s.repl("sq(x)") == "25\n");
    CHECK(s.repl("[sq(i) for i in range(4)]") == "[0, 1, 4, 9]\n");
    CHECK(s.repl("1; 2") == "1\n2\n");
    CHECK(s.repl("print('hi')") == "hi\n");  // print returns None: no extra echo
    // run_string shares the same globals but does not echo.
    CHECK(s.ok("x + 100") == "");
    CHECK(s.ok("print(x)") == "5\n");
    // An error in one entry leaves earlier state intact.
    Result r = s.interp.run_interactive("y = 1 / 0");
    CHECK(r.status == Status::RuntimeError);
    CHECK(s.repl("x") == "5\n");
}

TEST_CASE("eval: check_input classifies REPL buffers") {
    Session s;
    CHECK(s.interp.check_input("x = 1") == InputState::Complete);
    CHECK(s.interp.check_input("x = 1\n") == InputState::Complete);
    CHECK(s.interp.check_input("") == InputState::Complete);
    CHECK(s.interp.check_input("if x:") == InputState::Incomplete);
    CHECK(s.interp.check_input("if x:\n") == InputState::Incomplete);
    CHECK(s.interp.check_input("if x:\n    y = 1\n") == InputState::Incomplete);  // needs a blank line
    CHECK(s.interp.check_input("if x:\n    y = 1\n\n") == InputState::Complete);
    CHECK(s.interp.check_input("def f():\n    return 1\n") == InputState::Incomplete);
    CHECK(s.interp.check_input("def f():\n    return 1\n\n") == InputState::Complete);
    CHECK(s.interp.check_input("for i in r:\n    pass\nelse:\n") == InputState::Incomplete);
    // A nested block header as the last line waits for its block.
    CHECK(s.interp.check_input("def f():\n    for i in range(2):\n") == InputState::Incomplete);
    CHECK(s.interp.check_input("if a:\n    if b:\n        while c:\n") == InputState::Incomplete);
    CHECK(s.interp.check_input("def f():\n    for i in range(2):\n        print(i)\n\n") == InputState::Complete);
    CHECK(s.interp.check_input("def f():\n    for i in range(2):\n    x = 1\n") == InputState::Invalid);
    CHECK(s.interp.check_input("x = (1,") == InputState::Incomplete);
    CHECK(s.interp.check_input("x = [1,\n 2,\n") == InputState::Incomplete);
    CHECK(s.interp.check_input("s = '''abc") == InputState::Incomplete);
    CHECK(s.interp.check_input("x = 1 + \\") == InputState::Incomplete);
    CHECK(s.interp.check_input("x = )") == InputState::Invalid);
    CHECK(s.interp.check_input("s = 'abc") == InputState::Invalid);
    CHECK(s.interp.check_input("1 = x") == InputState::Invalid);
    CHECK(s.interp.check_input("x = 1 2") == InputState::Invalid);
}

TEST_CASE("eval: completion") {
    Session s;
    auto c = s.interp.complete("ma");
    CHECK(has(c, "max"));
    CHECK(has(c, "map"));
    for (auto& n : c) CHECK(n.rfind("ma", 0) == 0);
    CHECK(std::is_sorted(c.begin(), c.end()));

    CHECK(has(s.interp.complete("pri"), "print"));
    CHECK(has(s.interp.complete("x = le"), "len"));
    CHECK(has(s.interp.complete("whi"), "while"));  // keywords
    CHECK(s.interp.complete("zzzq").empty());

    s.repl("my_value = 3");
    CHECK(has(s.interp.complete("my_"), "my_value"));

    s.repl("import math");
    auto m = s.interp.complete("math.sq");
    CHECK(m == std::vector<std::string>{"sqrt"});
    CHECK(has(s.interp.complete("print(math.fl"), "floor"));
    CHECK(has(s.interp.complete("math."), "pi"));
    // An unknown root completes to nothing rather than throwing.
    CHECK(s.interp.complete("nosuch.a").empty());
}

TEST_CASE("eval: help_text") {
    Session s;
    std::string h = s.interp.help_text("len");
    CHECK(h.rfind("len(", 0) == 0);
    CHECK(s.interp.help_text("print").rfind("print(", 0) == 0);
    CHECK(s.interp.help_text("no_such_name_at_all") == "");
    s.ok("def add(a, b=1, *rest, **kw):\n    return a\n");
    CHECK(s.interp.help_text("add") == "add(a, b=..., *rest, **kw)");
}

TEST_CASE("eval: Result status and exit codes") {
    Session s;
    Result r = s.run("x = 1");
    CHECK(r.status == Status::Ok);
    CHECK(r.exit_code == 0);

    r = s.run("1 / 0");
    CHECK(r.status == Status::RuntimeError);
    CHECK(r.exit_code == 1);

    s.err.clear();
    r = s.run("x = (");
    CHECK(r.status == Status::SyntaxError);
    CHECK(r.exit_code == 2);
    CHECK(contains(s.err, "<test>:1:5: error:"));

    r = s.run("import sys\nsys.exit(3)\nprint('not reached')\n");
    CHECK(r.status == Status::Exit);
    CHECK(r.exit_code == 3);

    r = s.run("import sys\nsys.exit()\n");
    CHECK(r.status == Status::Exit);
    CHECK(r.exit_code == 0);

    s.err.clear();
    r = s.run("import sys\nsys.exit('bye')\n");
    CHECK(r.status == Status::Exit);
    CHECK(r.exit_code == 1);
    CHECK(s.err == "bye\n");

    // SystemExit passes through finally but not `except Exception`.
    s.out.clear();
    r = s.run("import sys\ntry:\n    sys.exit(4)\nexcept Exception:\n    print('no')\nfinally:\n    print('fin')\n");
    CHECK(r.status == Status::Exit);
    CHECK(r.exit_code == 4);
    CHECK(s.out == "fin\n");

    s.err.clear();
    r = s.interp.run_file("/nonexistent/dir/script.gpy");
    CHECK(r.exit_code == 2);
    CHECK(contains(s.err, "can't open file"));
}

TEST_CASE("eval: sys.argv comes from Config") {
    gpy::Config c = gpy::Config::from_environment();
    c.argv = {"prog.gpy", "a", "b c"};
    Session s(c);
    CHECK(s.ok("import sys\nprint(sys.argv)") == "['prog.gpy', 'a', 'b c']\n");
}
