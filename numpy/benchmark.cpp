// benchmark(func, args=(), kwargs=None, n_repeat=100, *, name=None,
// n_warmup=10), in the manner of cupyx.profiler.benchmark: runs func n_warmup
// times, then n_repeat times, timing each run on the host and (on the GPU) with
// events recorded around it on the current stream. Returns a result whose str
// is CuPy's line ("name : CPU: mean us +/- std (min: / max:) us GPU-0: ...")
// with cpu_times and gpu_times (seconds) as arrays.
//
// The arrays a run returns or leaves pending are computed inside its timing
// (gpy is lazy), so the CPU time includes launching their kernels, as CuPy's does.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>

#include "runtime/array_memory.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "numpy/array.h"
#include "numpy/cuda_errors.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"

namespace gpy {

namespace {

TypeObject* g_result_type = nullptr;

struct ResultObj : Object {
    std::string name;
    std::vector<double> cpu, gpu;  // seconds; gpu empty on the CPU backend
    int device = 0;
    ResultObj() : Object(g_result_type) {}
};

// CuPy's _to_str_per_item.
std::string item_text(const std::string& label, const std::vector<double>& t) {
    double mean = 0, sq = 0, lo = INFINITY, hi = -INFINITY;
    for (double v : t) {
        mean += v * 1e6;
        lo = std::min(lo, v * 1e6);
        hi = std::max(hi, v * 1e6);
    }
    mean /= double(t.size());
    for (double v : t) sq += (v * 1e6 - mean) * (v * 1e6 - mean);
    char buf[160];
    int n = std::snprintf(buf, sizeof buf, "    %s: %9.03f us", label.c_str(), mean);
    if (t.size() > 1)
        std::snprintf(buf + n, sizeof buf - size_t(n), "   +/- %6.03f (min: %9.03f / max: %9.03f) us",
                      std::sqrt(sq / double(t.size())), lo, hi);
    return buf;
}

std::string result_text(Interp&, const Value& v) {
    auto* r = static_cast<ResultObj*>(v.o);
    char head[64];
    std::snprintf(head, sizeof head, "%-20s:", r->name.c_str());
    std::string s = head + item_text("CPU", r->cpu);
    if (!r->gpu.empty()) s += " " + item_text("GPU-" + std::to_string(r->device), r->gpu);
    return s;
}

// cpu_times: (n_repeat,); gpu_times: (devices, n_repeat), no rows on the CPU backend.
Value times_array(const std::vector<double>& t, bool two_d, size_t n_repeat) {
    dag::Shape shape = two_d ? dag::Shape{t.empty() ? 0 : 1, int64_t(n_repeat)} : dag::Shape{int64_t(t.size())};
    Value a = new_array(DType::Float64, shape);
    if (!t.empty()) std::memcpy(as_array(a)->buffer.bytes(), t.data(), t.size() * sizeof(double));
    return a;
}

Value result_getattr(Interp&, const Value& v, const std::string& name) {
    auto* r = static_cast<ResultObj*>(v.o);
    if (name == "name") return make_str(r->name);
    if (name == "cpu_times") return times_array(r->cpu, false, r->cpu.size());
    if (name == "gpu_times") return times_array(r->gpu, true, r->cpu.size());
    return Value();
}

// A run's result is computed inside its timing even though nothing keeps it
// (a lazy array dropped unread would otherwise never run).
void compute_returned(const Value& v) {
    if (ArrayObj* x = as_array(v)) {
        materialize(x);
        return;
    }
    if (is_kind(v, OK::Tuple))
        for (const Value& item : v.as<TupleObj>()->items) compute_returned(item);
    if (is_kind(v, OK::List))
        for (const Value& item : v.as<ListObj>()->items) compute_returned(item);
}

int64_t int_arg(CallArgs& a, size_t pos, const char* name, int64_t dflt) {
    const Value* v = arg(a, pos, name);
    if (!v || v->is_none()) return dflt;
    if (v->kind != VK::Int) raise(types::TypeError, std::string("benchmark(): ") + name + " must be an int");
    if (v->i < 0) raise(types::ValueError, std::string("benchmark(): ") + name + " must be non-negative");
    return v->i;
}

Value benchmark(Interp& in, CallArgs& a) {
    const Value* fn = arg(a, 0, "func");
    if (!fn) raise(types::TypeError, "benchmark() missing required argument 'func' (pos 1)");
    const Value* args_v = arg(a, 1, "args");
    const Value* kwargs_v = arg(a, 2, "kwargs");
    int64_t n_repeat = int_arg(a, 3, "n_repeat", 100);
    int64_t n_warmup = int_arg(a, 5, "n_warmup", 10);
    const Value* name_v = arg(a, 4, "name");

    std::vector<Value> call_args;
    if (args_v && !args_v->is_none()) {
        if (!is_kind(*args_v, OK::Tuple)) raise(types::TypeError, "benchmark(): args must be a tuple");
        call_args = args_v->as<TupleObj>()->items;
    }
    std::vector<std::pair<std::string, Value>> call_kw;
    if (kwargs_v && !kwargs_v->is_none()) {
        if (!is_kind(*kwargs_v, OK::Dict)) raise(types::TypeError, "benchmark(): kwargs must be a dict");
        for (auto& e : kwargs_v->as<DictObj>()->table.entries) {
            if (e.key.is_undef()) continue;
            if (!is_kind(e.key, OK::Str)) raise(types::TypeError, "benchmark(): kwargs keys must be strings");
            call_kw.emplace_back(e.key.as<StrObj>()->s, e.value);
        }
    }
    auto run_once = [&] {
        std::vector<Value> pos = call_args;  // the callee may keep or modify its argument array
        std::vector<std::pair<std::string, Value>> kw = call_kw;
        CallArgs ca{pos.data(), pos.size(), kw.empty() ? nullptr : &kw};
        Value ret = in.call(*fn, ca);
        compute_returned(ret);
        materialize_all_pending();
    };

    auto* r = new ResultObj();
    Value result = Value::object(r);
    r->name = name_v && !name_v->is_none() ? to_str(in, *name_v) : to_str(in, get_attr(in, *fn, "__name__"));
    if (n_repeat == 0) raise(types::ValueError, "benchmark(): n_repeat must be at least 1");
    bool gpu = array_device_kind() == DeviceKind::CUDA;
    r->device = array_device_index();
    for (int64_t i = 0; i < n_warmup; ++i) run_once();
    std::unique_ptr<cuda::Event> start, stop;
    if (gpu) cuda_call([&] {
        start = std::make_unique<cuda::Event>();
        stop = std::make_unique<cuda::Event>();
    });
    for (int64_t i = 0; i < n_repeat; ++i) {
        if (gpu) cuda_call([&] { start->record(current_stream()); });
        auto t0 = std::chrono::steady_clock::now();
        run_once();
        auto t1 = std::chrono::steady_clock::now();
        r->cpu.push_back(std::chrono::duration<double>(t1 - t0).count());
        if (gpu) r->gpu.push_back(cuda_call([&] {
            stop->record(current_stream());
            stop->synchronize();
            return double(cuda::elapsed_ms(*start, *stop)) / 1e3;
        }));
    }
    return result;
}

const FunctionSpec kFunctions[] = {
    {"benchmark", benchmark, "benchmark(func, args=(), kwargs=None, n_repeat=100, name=None, n_warmup=10)",
     "Times func on the host and (on the GPU) with events; CuPy's cupyx.profiler.benchmark."},
};

}  // namespace

void add_benchmark_function(Interp&, ModuleObj* m) {
    if (!g_result_type) {
        g_result_type = new TypeObject("cupyx.profiler._PerfCaseResult", nullptr, OK::Other);
        g_result_type->doc = "The times of a benchmark() run: name, cpu_times, gpu_times (seconds).";
        g_result_type->repr = result_text;
        g_result_type->str = result_text;
        g_result_type->getattr = result_getattr;
    }
    add_functions(m, kFunctions);
    add_functions((*m->get("cuda")).as<ModuleObj>(), kFunctions);
}

}  // namespace gpy
