// The embedding API's rules (include/gpy/gpy.h, issue 24): one call at a
// time per interpreter (a second thread gets BusyError, not a race), an
// interrupt from another thread, output delivered line by line, an error
// inside a lazily computed array keeping its line, DLPack both ways through
// the C++ API. Only the public headers.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpy/dlpack.h"
#include "gpy/gpy.h"
#include "tests/unit/session.h"

using gpy::HostValue;
using gpy::test::Session;

namespace {

gpy::Config cpu_config() {
    gpy::Config c = gpy::Config::from_environment();
    c.backend = "cpu";
    return c;
}

// A versioned tensor over `data` whose deleter bumps `deleted`.
struct Lent {
    DLManagedTensorVersioned t{};
    std::vector<int64_t> shape;
    std::atomic<int>* deleted;
    Lent(float* data, std::vector<int64_t> s, std::atomic<int>* d, uint64_t flags = 0) : shape(std::move(s)), deleted(d) {
        t.version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
        t.manager_ctx = this;
        t.deleter = [](DLManagedTensorVersioned* self) { ++*static_cast<Lent*>(self->manager_ctx)->deleted; };
        t.flags = flags;
        t.dl_tensor.data = data;
        t.dl_tensor.device = {kDLCPU, 0};
        t.dl_tensor.ndim = int(shape.size());
        t.dl_tensor.dtype = {kDLFloat, 32, 1};
        t.dl_tensor.shape = shape.data();
    }
};

}  // namespace

TEST_CASE("embed api: a second thread inside a busy interpreter gets BusyError", "[embed]") {
    Session s(cpu_config());
    std::mutex mu;
    std::condition_variable cv;
    bool inside = false, release = false;
    s.interp.define("wait_here", [&](const std::vector<HostValue>&) -> HostValue {
        std::unique_lock<std::mutex> lock(mu);
        inside = true;
        cv.notify_all();
        cv.wait(lock, [&] { return release; });
        return std::monostate{};
    });
    gpy::Result first;
    std::thread runner([&] { first = s.interp.run_string("wait_here()\nx = 5\n", "<runner>"); });
    {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return inside; });
    }
    // The interpreter is inside wait_here on the runner thread.
    gpy::Result second = s.interp.run_string("y = 1\n", "<second>");
    CHECK(second.status == gpy::Status::RuntimeError);
    CHECK(second.error.type == "RuntimeError");
    CHECK(second.error.message.find("another thread") != std::string::npos);
    CHECK_THROWS_AS(s.interp.set("z", int64_t(1)), gpy::BusyError);
    CHECK_THROWS_AS(s.interp.call("wait_here"), gpy::BusyError);
    {
        std::lock_guard<std::mutex> lock(mu);
        release = true;
    }
    cv.notify_all();
    runner.join();
    CHECK(first.status == gpy::Status::Ok);
    // Free again, from this thread; y was never bound.
    CHECK(s.ok("print(x)\n") == "5\n");
    CHECK(!s.interp.get("y").has_value());
}

TEST_CASE("embed api: a host function may call back into its own interpreter", "[embed]") {
    Session s(cpu_config());
    s.ok("def square(v):\n    return v * v\n");
    s.interp.define("via_host", [&](const std::vector<HostValue>& a) -> HostValue { return s.interp.call("square", a); });
    CHECK(s.ok("print(via_host(7))\n") == "49\n");
}

TEST_CASE("embed api: interrupt() from another thread stops a running loop", "[embed]") {
    Session s(cpu_config());
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        s.interp.interrupt();
    });
    gpy::Result r = s.interp.run_string("n = 0\nwhile True:\n    n += 1\n", "<spin>");
    stopper.join();
    CHECK(r.status == gpy::Status::RuntimeError);
    CHECK(r.error.type == "KeyboardInterrupt");
    CHECK((r.error.line == 2 || r.error.line == 3));  // the loop's header or body
    CHECK(s.ok("print(n > 0)\n") == "True\n");  // still usable
}

TEST_CASE("embed api: output reaches the sink line by line, as printed", "[embed]") {
    std::vector<std::string> chunks;
    gpy::Config c = cpu_config();
    c.out = [&](std::string_view t) { chunks.emplace_back(t); };
    gpy::Interpreter in(c);
    std::vector<size_t> seen;
    in.define("mark", [&](const std::vector<HostValue>&) -> HostValue {
        seen.push_back(chunks.size());
        return std::monostate{};
    });
    in.run_string("print('a')\nmark()\nprint('b', end='')\nmark()\nprint('c')\nmark()\n");
    // 'a' was delivered before the first mark; 'b' waited for its line's end.
    CHECK(seen == std::vector<size_t>{1, 1, 2});
    REQUIRE(chunks.size() == 2);
    CHECK(chunks[0] == "a\n");
    CHECK(chunks[1] == "bc\n");
}

TEST_CASE("embed api: an error inside a lazily computed array keeps its line", "[embed]") {
    gpy::Config c = cpu_config();
    c.max_array_bytes = 4096;
    Session s(c);
    // y's memory is allocated when y is computed, after its statement.
    gpy::Result r = s.run("import numpy as np\nx = np.ones(100)\ny = np.outer(x, x) + 1\nprint(float(y.sum()))\n");
    CHECK(r.status == gpy::Status::RuntimeError);
    CHECK(r.error.type == "MemoryError");
    CHECK((r.error.line == 3 || r.error.line == 4));
    CHECK(r.error.file == "<test>");
}

TEST_CASE("embed api: DLPack tensors in and out without copying", "[embed]") {
    Session s(cpu_config());
    std::vector<float> data{1, 2, 3, 4, 5, 6};
    std::atomic<int> deleted{0};
    Lent lent(data.data(), {2, 3}, &deleted);
    s.interp.set_dlpack("a", &lent.t);
    s.ok("import numpy as np\na *= 2\nrow = a[1]\ndel a\n");
    CHECK(data == std::vector<float>{2, 4, 6, 8, 10, 12});
    CHECK(deleted == 0);
    s.ok("del row\n");
    CHECK(deleted == 1);

    // Read-only: copied, deleted at once, the host's bytes untouched.
    std::atomic<int> ro_deleted{0};
    Lent ro(data.data(), {6}, &ro_deleted, DLPACK_FLAG_BITMASK_READ_ONLY);
    s.interp.set_dlpack("ro", &ro.t);
    CHECK(ro_deleted == 1);
    s.ok("ro[:] = 0\n");
    CHECK(data[0] == 2);

    // Out: a tensor over the script's array, alive after the script drops it.
    s.ok("out = np.arange(6, dtype=np.float32)[::-2]\n");
    DLManagedTensorVersioned* t = s.interp.get_dlpack_versioned("out");
    REQUIRE(t != nullptr);
    CHECK(t->dl_tensor.ndim == 1);
    CHECK(t->dl_tensor.shape[0] == 3);
    CHECK(t->dl_tensor.strides[0] == -2);
    CHECK(t->dl_tensor.device.device_type == kDLCPU);
    s.ok("del out\n");
    const float* p = static_cast<const float*>(t->dl_tensor.data);
    CHECK(p[0] == 5.0f);
    CHECK(p[-2] == 3.0f);
    t->deleter(t);
    CHECK(s.interp.get_dlpack_versioned("never_bound") == nullptr);
    CHECK_THROWS_AS(s.interp.use_stream(nullptr), std::logic_error);
}

TEST_CASE("embed api: max_memory_bytes bounds all of an interpreter's arrays together", "[embed]") {
    gpy::Config c = cpu_config();
    c.max_memory_bytes = 1 << 20;
    Session s(c);
    Session unbounded(cpu_config());
    // Two arrays of 400,000 bytes fit the MiB; a third does not (each alone would).
    s.ok("import numpy as np\na = np.ones(50000)\na[0] = 2.0\nb = np.ones(50000)\nb[0] = 2.0\n");
    gpy::Result r = s.run("c = np.ones(50000)\nc[0] = 2.0\n");
    CHECK(r.status == gpy::Status::RuntimeError);
    CHECK(r.error.type == "MemoryError");
    // (The two arrays, and a few bytes of small ones the module keeps.)
    CHECK_THAT(r.error.message, Catch::Matchers::StartsWith("an array of 400000 bytes would take this interpreter's arrays to 12000"));
    CHECK_THAT(r.error.message, Catch::Matchers::EndsWith(" bytes, over its budget of 1048576 bytes (max_memory_bytes)"));
    // Freeing gives the bytes back; the script goes on.
    CHECK(s.ok("del a\nc = np.ones(50000)\nc[0] = 2.0\nprint(float(c.sum()))\n") == "50001.0\n");
    // Another interpreter's arrays are its own business.
    CHECK(unbounded.ok("import numpy as np\nz = np.ones(500000)\nz[0] = 2.0\nprint(z.size)\n") == "500000\n");
}

TEST_CASE("embed api: a function handle outlives the script's rebinding of its name", "[embed]") {
    Session s(cpu_config());
    s.ok("def scale(v, k):\n    return v * k\n");
    gpy::Interpreter::Function f = s.interp.function("scale");
    REQUIRE(f);
    s.ok("def scale(v, k):\n    return -1\n");
    CHECK(std::get<int64_t>(s.interp.call(f, {int64_t(6), int64_t(7)})) == 42);
    CHECK(std::get<int64_t>(s.interp.call("scale", {int64_t(6), int64_t(7)})) == -1);
    CHECK_THROWS_AS(s.interp.function("nope"), gpy::ScriptError);
    CHECK_THROWS_AS(s.interp.call(gpy::Interpreter::Function{}, {}), std::invalid_argument);
    s.ok("def bad(x):\n    return x[5]\n");
    gpy::Interpreter::Function b = s.interp.function("bad");
    try {
        s.interp.call(b, {std::string("abc")});
        FAIL("no exception");
    } catch (const gpy::ScriptError& e) {
        CHECK(e.info.type == "IndexError");
        CHECK(e.info.line == 2);
    }
}

TEST_CASE("embed api: print options are each interpreter's own", "[embed]") {
    Session a(cpu_config()), b(cpu_config());
    a.ok("import numpy as np\nnp.set_printoptions(precision=3)\n");
    b.ok("import numpy as np\n");
    CHECK(a.ok("print(np.array([1 / 3]))\n") == "[0.333]\n");
    CHECK(b.ok("print(np.array([1 / 3]))\n") == "[0.33333333]\n");
}
