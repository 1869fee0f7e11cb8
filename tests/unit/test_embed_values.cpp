// Values across the embedding boundary (include/gpy/gpy.h, issue 24):
// globals in and out, host arrays shared without copying and released when
// the script's last view is gone, host functions and their exceptions,
// script functions called by name, errors as data, one interpreter on
// several threads. Only the public API.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gpy/gpy.h"
#include "tests/unit/session.h"

using gpy::ArrayRef;
using gpy::ElementType;
using gpy::HostValue;
using gpy::test::Session;

namespace {

gpy::Config cpu_config() {
    gpy::Config c = gpy::Config::from_environment();
    c.backend = "cpu";
    return c;
}

// A host buffer of n doubles whose release the test can see.
struct HostBuffer {
    std::vector<double> data;
    std::shared_ptr<std::atomic<int>> released = std::make_shared<std::atomic<int>>(0);
    explicit HostBuffer(size_t n) : data(n) {
        for (size_t i = 0; i < n; ++i) data[i] = double(i);
    }
    ArrayRef ref(std::vector<int64_t> shape) {
        ArrayRef r;
        r.data = data.data();
        r.shape = std::move(shape);
        r.dtype = ElementType::Float64;
        auto flag = released;
        r.owner = std::shared_ptr<void>(nullptr, [flag](void*) { ++*flag; });
        return r;
    }
};

}  // namespace

TEST_CASE("embed: scalars and strings in and out of globals", "[embed]") {
    Session s(cpu_config());
    s.interp.set("n", int64_t(7));
    s.interp.set("scale", 2.5);
    s.interp.set("flag", true);
    s.interp.set("label", std::string("héllo"));
    s.interp.set("nothing", std::monostate{});
    CHECK(s.ok("print(n * scale, flag, label.upper(), nothing)\nresult = n * 6\nratio = n / 4\n") == "17.5 True HÉLLO None\n");
    CHECK(std::get<int64_t>(*s.interp.get("result")) == 42);
    CHECK(std::get<double>(*s.interp.get("ratio")) == 1.75);
    CHECK(std::get<std::string>(*s.interp.get("label")) == "héllo");
    CHECK(!s.interp.get("never_bound").has_value());
    // NumPy scalars come out as the Python values they print as.
    s.ok("import numpy as np\nm = np.float32(0.5) * 3\nk = np.int8(-5)\nb = np.bool_(True)\n");
    CHECK(std::get<double>(*s.interp.get("m")) == 1.5);
    CHECK(std::get<int64_t>(*s.interp.get("k")) == -5);
    CHECK(std::get<bool>(*s.interp.get("b")) == true);
    // A value with no host form is a TypeError, as data.
    s.ok("d = {'a': 1}\n");
    try {
        s.interp.get("d");
        FAIL("get of a dict should throw");
    } catch (const gpy::ScriptError& e) {
        CHECK(e.info.type == "TypeError");
        CHECK(e.info.message == "a 'dict' has no host form (None, bool, int, float, str or an ndarray)");
    }
}

TEST_CASE("embed: a host array is the script's array, not a copy", "[embed]") {
    HostBuffer host(12);
    Session s(cpu_config());
    s.interp.set("x", host.ref({3, 4}));
    CHECK(s.ok("import numpy as np\nprint(x.shape, x.dtype, float(x.sum()))\nx *= 2\nx[0, 0] = -1.0\n") == "(3, 4) float64 66.0\n");
    CHECK(host.data[0] == -1.0);
    CHECK(host.data[11] == 22.0);
    // Out again: the same memory.
    ArrayRef back = std::get<ArrayRef>(*s.interp.get("x"));
    CHECK(back.data == host.data.data());
    CHECK(back.shape == std::vector<int64_t>{3, 4});
    CHECK(back.strides == std::vector<int64_t>{32, 8});
    CHECK(back.dtype == ElementType::Float64);
    // A strided view of host memory (every other column), written in place.
    HostBuffer cols(8);
    ArrayRef view = cols.ref({2, 2});
    view.strides = {32, 16};
    s.interp.set("v", view);
    s.ok("v += 100\n");
    CHECK(cols.data == std::vector<double>{100, 1, 102, 3, 104, 5, 106, 7});
    // Hostile shapes are a ValueError at set(), nothing is bound.
    ArrayRef huge = cols.ref({int64_t(1) << 40, int64_t(1) << 40});
    CHECK_THROWS_WITH(s.interp.set("h", huge), "ValueError: ArrayRef: the array is too big (its byte count overflows int64)");
    ArrayRef negative = cols.ref({-1});
    CHECK_THROWS_WITH(s.interp.set("h", negative), "ValueError: ArrayRef: negative dimensions are not allowed");
    ArrayRef ragged = cols.ref({2, 2});
    ragged.strides = {8};
    CHECK_THROWS_AS(s.interp.set("h", ragged), gpy::ScriptError);
    CHECK(!s.interp.get("h").has_value());
}

TEST_CASE("embed: the host's memory is released when the script's last view is gone", "[embed]") {
    HostBuffer host(10);
    {
        Session s(cpu_config());
        s.interp.set("x", host.ref({10}));
        s.ok("import numpy as np\ny = x[2:5]\ndel x\n");
        CHECK(*host.released == 0);  // y is a view of it
        s.ok("z = y * 2\ndel y\nprint(z)\n");
        CHECK(*host.released == 1);  // z is a new array
        HostBuffer other(3);
        s.interp.set("w", other.ref({3}));
        CHECK(*other.released == 0);
        s.ok("keep = w[::2]\n");
        // Released at the interpreter's end at the latest.
        s.interp.set("w", std::monostate{});
        CHECK(*other.released == 0);
        s.ok("del keep\n");
        CHECK(*other.released == 1);
    }
    CHECK(*host.released == 1);
}

TEST_CASE("embed: an array the script computed, read out, outlives the script's name", "[embed]") {
    Session s(cpu_config());
    s.ok("import numpy as np\nr = np.arange(6, dtype=np.int32).reshape(2, 3) * 3\n");
    ArrayRef r = std::get<ArrayRef>(*s.interp.get("r"));
    REQUIRE(r.dtype == ElementType::Int32);
    CHECK(r.shape == std::vector<int64_t>{2, 3});
    s.ok("r = None\n");
    const int32_t* p = static_cast<const int32_t*>(r.data);
    CHECK(std::vector<int32_t>(p, p + 6) == std::vector<int32_t>{0, 3, 6, 9, 12, 15});
}

TEST_CASE("embed: host functions, their results and their exceptions", "[embed]") {
    Session s(cpu_config());
    int calls = 0;
    s.interp.define("host_add", [&](const std::vector<HostValue>& a) -> HostValue {
        ++calls;
        if (a.size() != 2) throw std::invalid_argument("host_add takes 2 numbers, got " + std::to_string(a.size()));
        return std::get<double>(a[0]) + std::get<double>(a[1]);
    });
    s.interp.define("host_sum", [](const std::vector<HostValue>& a) -> HostValue {
        const ArrayRef& r = std::get<ArrayRef>(a.at(0));
        const double* p = static_cast<const double*>(r.data);
        double t = 0;
        for (int64_t i = 0; i < r.shape.at(0); ++i) t += p[i * r.strides.at(0) / 8];
        return t;
    });
    s.interp.define("host_fail", [](const std::vector<HostValue>&) -> HostValue { throw std::out_of_range("no such row"); });
    CHECK(s.ok("print(host_add(1.5, 2.25))\n") == "3.75\n");
    CHECK(s.ok("import numpy as np\nprint(host_sum(np.arange(10.0)[::3]))\n") == "18.0\n");
    CHECK(s.ok("try:\n    host_add(1.0)\nexcept ValueError as e:\n    print('ValueError', e)\n") == "ValueError host_add takes 2 numbers, got 1\n");
    CHECK(s.ok("try:\n    host_fail()\nexcept IndexError as e:\n    print('IndexError', e)\n") == "IndexError no such row\n");
    CHECK(calls == 2);
    std::string err = s.fails("host_add([1], 2.0)\n");
    CHECK(err.find("TypeError: a 'list' has no host form") != std::string::npos);
}

TEST_CASE("embed: script functions called by name; errors as data", "[embed]") {
    Session s(cpu_config());
    s.ok("def area(w, h):\n    return w * h\n\ndef check(x):\n    if x < 0:\n        raise ValueError('negative: ' + str(x))\n    return x\n");
    CHECK(std::get<int64_t>(s.interp.call("area", {int64_t(6), int64_t(7)})) == 42);
    CHECK(std::get<double>(s.interp.call("area", {1.5, int64_t(2)})) == 3.0);
    try {
        s.interp.call("check", {int64_t(-3)});
        FAIL("check(-3) should throw");
    } catch (const gpy::ScriptError& e) {
        CHECK(e.info.type == "ValueError");
        CHECK(e.info.message == "negative: -3");
        CHECK(e.info.file == "<test>");
        CHECK(e.info.line == 6);
    }
    try {
        s.interp.call("missing");
        FAIL("missing() should throw");
    } catch (const gpy::ScriptError& e) {
        CHECK(e.info.type == "NameError");
    }
    gpy::Result r = s.run("x = 1\ny = [1, 2][5]\n");
    CHECK(r.status == gpy::Status::RuntimeError);
    CHECK(r.error.type == "IndexError");
    CHECK(r.error.message == "list index out of range");
    CHECK(r.error.line == 2);
    CHECK(r.error.column == 5);
    r = s.run("def (:\n");
    CHECK(r.status == gpy::Status::SyntaxError);
    CHECK(r.error.type == "SyntaxError");
    CHECK(r.error.line == 1);
}

TEST_CASE("embed: one interpreter on several threads in turn, deep recursion on each", "[embed]") {
    Session s(cpu_config());
    const char* deep = "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\nprint(depth(900))\n";
    CHECK(s.ok(deep) == "900\n");
    std::string out;
    gpy::Status status = gpy::Status::SyntaxError;
    std::thread t([&] {
        s.out.clear();
        status = s.interp.run_string("print(depth(900))\n", "<thread>").status;
        out = s.out;
    });
    t.join();
    CHECK(status == gpy::Status::Ok);
    CHECK(out == "900\n");
    CHECK(s.ok("print(depth(900))\n") == "900\n");
}

TEST_CASE("embed: backend cuda without a GPU is an error at construction", "[embed]") {
    gpy::Config c;
    c.backend = "cuda";
    bool gpu = true;
    try {
        gpy::Interpreter in(c);
    } catch (const std::runtime_error& e) {
        gpu = false;
        CHECK(std::string(e.what()).rfind("gpy::Interpreter: ", 0) == 0);
    }
    if (gpu) SUCCEED("a GPU is present: the interpreter was made");
}
