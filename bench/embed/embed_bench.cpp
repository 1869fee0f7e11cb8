// The embedding boundary's costs (issue 24's targets): making an interpreter
// and running print(1) (target <= 5 ms warm), and passing a 1 GiB array in
// and a result out without copying (target <= 10 us plus the script's own
// work), on the CPU backend and, where a GPU is, with device memory.
// Usage: gpy_bench_embed [repeats]   (best and median of `repeats`, in us)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "gpy/dlpack.h"
#include "gpy/gpy.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Stats {
    double best, median;
};

Stats time_us(int repeats, const std::function<void()>& f) {
    std::vector<double> t;
    for (int r = 0; r < repeats; ++r) {
        auto t0 = Clock::now();
        f();
        t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    return {t.front(), t[t.size() / 2]};
}

void report(const char* what, Stats s) { std::printf("%-58s best %10.1f us   median %10.1f us\n", what, s.best, s.median); }

gpy::Config quiet(const char* backend) {
    gpy::Config c;
    c.backend = backend;
    c.out = [](std::string_view) {};
    return c;
}

// A versioned tensor over `data` that frees nothing.
DLManagedTensorVersioned* lend(void* data, int64_t* shape, DLDevice device) {
    auto* t = new DLManagedTensorVersioned{};
    t->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    t->deleter = [](DLManagedTensorVersioned* self) { delete self; };
    t->dl_tensor.data = data;
    t->dl_tensor.device = device;
    t->dl_tensor.ndim = 1;
    t->dl_tensor.dtype = {kDLFloat, 32, 1};
    t->dl_tensor.shape = shape;
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 20;
    // Warm-up: the process's first interpreter pays one-time set-up.
    { gpy::Interpreter warm(quiet("cpu")); warm.run_string("import numpy as np\nprint(np.ones(3).sum())\n"); }

    report("new interpreter + print(1)", time_us(repeats, [] {
        gpy::Interpreter in(quiet("cpu"));
        in.run_string("print(1)\n");
    }));
    report("new interpreter + import numpy + print(1)", time_us(repeats, [] {
        gpy::Interpreter in(quiet("cpu"));
        in.run_string("import numpy as np\nprint(1)\n");
    }));

    // 1 GiB of host memory, untouched: nothing may read or copy it.
    const int64_t n = int64_t(1) << 28;  // float32: 1 GiB
    void* host = std::calloc(size_t(n), 4);
    int64_t shape[1] = {n};
    gpy::Interpreter cpu(quiet("cpu"));
    cpu.run_string("import numpy as np\n");
    report("CPU: 1 GiB in (set_dlpack) and out (get_dlpack)", time_us(repeats, [&] {
        cpu.set_dlpack("x", lend(host, shape, {kDLCPU, 0}));
        DLManagedTensorVersioned* t = cpu.get_dlpack_versioned("x");
        t->deleter(t);
    }));
    report("CPU: the same with a script statement between (y = x[::2])", time_us(repeats, [&] {
        cpu.set_dlpack("x", lend(host, shape, {kDLCPU, 0}));
        cpu.run_string("y = x[::2]\n");
        DLManagedTensorVersioned* t = cpu.get_dlpack_versioned("y");
        t->deleter(t);
    }));
    report("CPU: run_string(\"pass\") alone", time_us(repeats, [&] { cpu.run_string("pass\n"); }));

    // Device memory: interpreter A's 1 GiB array handed to interpreter B and back.
    try {
        gpy::Interpreter a(quiet("cuda")), b(quiet("cuda"));
        a.run_string("import numpy as np\nx = np.zeros(2**28, dtype=np.float32)\n");
        b.run_string("import numpy as np\n");
        report("GPU: 1 GiB device array out of A, into B, out of B", time_us(repeats, [&] {
            b.set_dlpack("x", a.get_dlpack_versioned("x"));
            DLManagedTensorVersioned* t = b.get_dlpack_versioned("x");
            t->deleter(t);
        }));
        report("GPU: new interpreter + import numpy + print(1)", time_us(repeats, [] {
            gpy::Interpreter in(quiet("cuda"));
            in.run_string("import numpy as np\nprint(1)\n");
        }));
    } catch (const std::exception& e) {
        std::printf("GPU: skipped (%s)\n", e.what());
    }
    std::free(host);
    gpy::finish_background_work();
    return 0;
}
