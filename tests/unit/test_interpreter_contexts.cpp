// Interpreters in one process, each with its own array context
// (base/context.h): backend, device, kernel cache folder, limits, pending
// arrays and kernel record belong to the interpreter that set them, on one
// thread or several. Only the public API (include/gpy/gpy.h).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "gpy/gpy.h"
#include "tests/unit/session.h"

using gpy::Interpreter;
using gpy::Status;
using gpy::test::Session;

namespace {

// Whether an interpreter with backend "cuda" can be made (it throws at
// construction without a usable GPU).
bool gpu_usable() {
    gpy::Config c;
    c.backend = "cuda";
    try {
        Interpreter probe(c);
        return true;
    } catch (const std::runtime_error&) {
        return false;
    }
}

// A fresh folder under the temporary directory, removed at the end of the test.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& tag) {
        path = std::filesystem::temp_directory_path() / ("gpy-ctx-" + tag + "-" + std::to_string(getpid()));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    size_t entries(const std::string& sub) const {
        size_t n = 0;
        if (std::filesystem::exists(path / sub))
            for (auto& e : std::filesystem::directory_iterator(path / sub)) n += e.is_regular_file();
        return n;
    }
};

gpy::Config cpu_config() {
    gpy::Config c;
    c.backend = "cpu";
    return c;
}

}  // namespace

TEST_CASE("contexts: each interpreter's max_array_bytes is its own, whatever the import order") {
    gpy::Config small = cpu_config();
    small.max_array_bytes = 1024;
    Session a(small), b(cpu_config());
    CHECK(a.ok("import numpy as np") == "");
    CHECK(b.ok("import numpy as np") == "");  // imported last: it used to set the limit for both
    CHECK(b.ok("print(np.zeros(1000).sum())") == "0.0\n");
    std::string r = a.ok("try:\n    np.zeros(1000)\nexcept MemoryError as e:\n    print('MemoryError', 'max_array_bytes' in str(e))\n");
    CHECK(r == "MemoryError True\n");
    CHECK(a.ok("print(np.zeros(100).sum())") == "0.0\n");
    CHECK(b.ok("print(np.ones(100000).sum())") == "100000.0\n");
}

TEST_CASE("contexts: the GPY_* user variables are read into a Config by from_environment only") {
    const char* names[] = {"GPY_BACKEND", "GPY_FAST_MATH", "GPY_DEBUG", "GPY_LAZY"};
    std::vector<std::pair<std::string, std::string>> saved;
    for (const char* n : names)
        if (const char* v = std::getenv(n)) saved.push_back({n, v});
    setenv("GPY_BACKEND", "cpu", 1);
    setenv("GPY_FAST_MATH", "1", 1);
    setenv("GPY_DEBUG", "3", 1);
    setenv("GPY_LAZY", "0", 1);
    gpy::Config e = gpy::Config::from_environment(), plain;
    for (const char* n : names) unsetenv(n);
    for (auto& [n, v] : saved) setenv(n.c_str(), v.c_str(), 1);
    CHECK(e.backend == "cpu");
    CHECK(e.fast_math);
    CHECK(e.debug == 3);
    CHECK_FALSE(e.lazy);
    CHECK(plain.backend == "auto");  // a Config made directly ignores the environment
    CHECK_FALSE(plain.fast_math);
    CHECK(plain.debug == 0);
    CHECK(plain.lazy);
}

TEST_CASE("contexts: Config::lazy is each interpreter's own") {
    gpy::Config eager = cpu_config();
    eager.lazy = false;
    Session a(eager), b(cpu_config());
    a.ok("import numpy as np\nx = np.arange(4.0)");
    b.ok("import numpy as np\nx = np.arange(4.0)");
    uint64_t a0 = a.interp.kernels_launched(), b0 = b.interp.kernels_launched();
    // Eager: y and z are each computed when bound; lazy: one fused kernel when printed.
    const char* prog = "y = x * 2 + 1\nz = y - 1\nprint(z)";
    CHECK(a.ok(prog) == "[0. 2. 4. 6.]\n");
    CHECK(b.ok(prog) == "[0. 2. 4. 6.]\n");
    CHECK(a.interp.kernels_launched() == a0 + 2);
    CHECK(b.interp.kernels_launched() == b0 + 1);
}

TEST_CASE("contexts: kernel records and %kernels are per interpreter") {
    Session a(cpu_config()), b(cpu_config());
    a.ok("import numpy as np\nx = np.arange(10.0)");
    b.ok("import numpy as np\ny = np.arange(10.0)");
    uint64_t a0 = a.interp.kernels_launched(), b0 = b.interp.kernels_launched();
    CHECK(a.ok("print((np.sin(x) * 2 + 1).sum() > 0)") == "True\n");
    CHECK(a.interp.kernels_launched() > a0);
    CHECK(b.interp.kernels_launched() == b0);  // a's kernels are not b's
    std::vector<Interpreter::KernelInfo> ks = a.interp.kernels_since(a0);
    REQUIRE(!ks.empty());
    CHECK(ks.front().number == a0);
    CHECK(b.interp.kernels_since(b0).empty());
}

TEST_CASE("contexts: pending arrays belong to the interpreter that made them") {
    Session a(cpu_config()), b(cpu_config());
    a.ok("import numpy as np");
    b.ok("import numpy as np");
    // a's pending expression stays pending across b's input (whose end
    // synchronises b's pending arrays only), and computes right after.
    CHECK(a.ok("z = np.arange(4.0) * 3\n") == "");
    uint64_t a_kernels = a.interp.kernels_launched();
    CHECK(b.ok("w = np.arange(3.0) + 1\nprint(w)") == "[1. 2. 3.]\n");
    CHECK(a.interp.kernels_launched() == a_kernels);  // b's end-of-input synchronize computed b's arrays only
    CHECK(a.ok("print(z)") == "[0. 3. 6. 9.]\n");
    // Destroying an interpreter with pending arrays leaves the other intact.
    {
        Session c(cpu_config());
        c.ok("import numpy as np\nq = np.arange(5.0) ** 2\n");
    }
    CHECK(a.ok("print((z + 1).tolist())") == "[1.0, 4.0, 7.0, 10.0]\n");
}

TEST_CASE("contexts: each interpreter writes kernels to its own cache folder") {
    TempDir da("a"), db("b");
    gpy::Config ca = cpu_config(), cb = cpu_config();
    ca.cache_dir = da.path.string();
    cb.cache_dir = db.path.string();
    Session a(ca), b(cb);
    // Kernels no other test compiles (constants of their own), so that
    // neither is in the process's memory cache yet.
    CHECK(a.ok("import numpy as np\nprint((np.arange(8.0) * 7.123457 - 0.25).sum())") != "");
    CHECK(b.ok("import numpy as np\nprint((np.arange(8.0) * 3.987654 + 0.75).sum())") != "");
    CHECK(da.entries("cpu") >= 1);
    CHECK(db.entries("cpu") >= 1);
    size_t a_before = da.entries("cpu");
    CHECK(b.ok("print((np.arange(8.0) * 5.55501 + 2.5).max())") == "41.38507\n");
    CHECK(da.entries("cpu") == a_before);  // b's new kernel went to b's folder only
}

TEST_CASE("contexts: interpreters on different threads run at once") {
    // No Catch2 assertion off the test's thread: each thread reports a string.
    auto work = [](double k, std::string* result) {
        std::string out;
        gpy::Config c = cpu_config();
        c.out = [&](std::string_view s) { out.append(s); };
        c.err = c.out;
        Interpreter in(c);
        in.run_string("import numpy as np\ntotal = 0.0\n");
        for (int i = 0; i < 20; ++i) in.run_string("total += float((np.arange(1000.0) * " + std::to_string(k) + ").sum())\n");
        in.run_string("print(total)");
        *result = out;
    };
    // Four interpreters on four threads.
    std::string r[4];
    std::vector<std::thread> threads;
    for (int k = 0; k < 4; ++k) threads.emplace_back(work, double(k + 1), &r[k]);
    for (auto& t : threads) t.join();
    CHECK(r[0] == "9990000.0\n");
    CHECK(r[1] == "19980000.0\n");
    CHECK(r[2] == "29970000.0\n");
    CHECK(r[3] == "39960000.0\n");
}

TEST_CASE("contexts: a GPU interpreter and a CPU interpreter side by side", "[gpu]") {
    gpy::Config gc;
    gc.backend = "cuda";
    if (!gpu_usable()) {
        WARN("skipped: no GPU");
        return;
    }
    Session g(gc), c(cpu_config());
    if (g.ok("import numpy as np\nprint(np.zeros(2).device)").rfind("<CUDA Device", 0) != 0) {
        WARN("skipped: no GPU");
        return;
    }
    c.ok("import numpy as np");
    CHECK(c.ok("print(np.zeros(2).device)") == "cpu\n");
    // Interleaved work: each computes on its own device, with its own pending
    // arrays (sums exact in float32 whatever the order).
    g.ok("x = np.arange(1000, dtype=np.float32)\ny = (x * 2 + 1).sum()\n");
    c.ok("x = np.arange(1000, dtype=np.float32)\ny = (x * 3 + 1).sum()\n");
    CHECK(g.ok("print(float(y), x.device)") == "1000000.0 <CUDA Device 0>\n");
    CHECK(c.ok("print(float(y), x.device)") == "1499500.0 cpu\n");
    CHECK(g.ok("s = np.cuda.Stream()\nwith s:\n    z = (x + 1).sum()\nprint(float(z), np.cuda.get_current_stream() == np.cuda.Stream.null)") ==
          "500500.0 True\n");
}

TEST_CASE("contexts: --profile's table is each interpreter's own, written when it ends") {
    std::string err_a, err_b;
    {
        gpy::Config pa = cpu_config(), pb = cpu_config();
        pa.profile = true;
        pa.err = [&](std::string_view s) { err_a.append(s); };
        pb.err = [&](std::string_view s) { err_b.append(s); };
        Interpreter a(pa), b(pb);
        CHECK(a.run_string("import numpy as np\nx = np.arange(10.0)\nprint((x * 2).sum())").status == Status::Ok);
        CHECK(b.run_string("import numpy as np\nx = np.arange(10.0)\nprint((x + 1).sum(), (x - 1).max(), (x * 3).min())").status == Status::Ok);
        CHECK(err_a.empty());  // written at the end, not at each kernel
    }
    // A's one kernel only (B ran three others and asked for no table).
    CHECK(err_a.rfind("gpy: profile: 1 kernels, 1 launches", 0) == 0);
    CHECK(err_a.find("sum(multiply(float64, scalar))") != std::string::npos);
    CHECK(err_b.empty());
}

TEST_CASE("contexts: fast math is one interpreter's; another keeps IEEE arithmetic", "[gpu]") {
    gpy::Config fast, exact;
    fast.backend = exact.backend = "cuda";
    fast.fast_math = true;
    if (!gpu_usable()) {
        WARN("skipped: no GPU");
        return;
    }
    Session f(fast), e(exact);
    if (f.ok("import numpy as np\nprint(np.zeros(2).device)").rfind("<CUDA Device", 0) != 0) {
        WARN("skipped: no GPU");
        return;
    }
    // The fast interpreter compiles its kernel first; the exact one's same
    // statement must not reuse that cubin. Float32 division and square root
    // are correctly rounded without fast math, so the exact GPU result has
    // the CPU backend's bits (the generator's uniforms are the same bits on both).
    const char* program =
        "import numpy as np\n"
        "rng = np.random.default_rng(1)\n"
        "x = rng.random(100000, dtype=np.float32) * 100 + 1\n"
        "y = rng.random(100000, dtype=np.float32) + 0.5\n"
        "q = np.sqrt(x) / y\n"
        "b = q.view(np.uint32).astype(np.uint64)\n"
        "print(int(b.sum()), int((b * np.arange(100000, dtype=np.uint64)).sum()))\n";
    Session c(cpu_config());
    std::string fast_bits = f.ok(program), exact_bits = e.ok(program), host_bits = c.ok(program);
    CHECK(exact_bits == host_bits);
    WARN("fast math " << (fast_bits == host_bits ? "gave" : "did not give") << " the same bits");
}
