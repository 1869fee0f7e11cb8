#include "repl/magics.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <string>
#include <sys/resource.h>
#include <vector>

#include "repl/time_format.h"

namespace gpy::repl {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double tv_seconds(const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

std::string_view trim(std::string_view s) {
    std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos) return {};
    std::size_t e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

// %timeit runs the statement inside a function, like IPython: the loop runs in
// the interpreter (so per-run parsing is not timed), expression statements do
// not echo, and names the statement assigns stay local to the measurement.
constexpr const char* kTimeitFn = "__gpy_timeit__";

// The loop ends with synchronize(): arrays are lazy and GPU kernels
// asynchronous, so the work the statement queued is inside the measurement.
std::string timeit_wrapper(std::string_view stmt) {
    return std::string("def ") + kTimeitFn + "(__gpy_n__):\n    for __gpy_i__ in range(__gpy_n__):\n        " +
           std::string(stmt) + "\n    synchronize()\n";
}

}  // namespace

void Magics::out(std::string_view text) {
    if (const auto& sink = interp_.config().out) {
        sink(text);
    } else {
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
    }
}

void Magics::err(std::string_view text) {
    if (const auto& sink = interp_.config().err) {
        sink(text);
    } else {
        std::fwrite(text.data(), 1, text.size(), stderr);
        std::fflush(stderr);
    }
}

Result Magics::run(std::string_view line) {
    line = trim(line);
    std::size_t end = line.find_first_of(" \t");
    std::string_view name = line.substr(0, end);
    std::string_view rest = end == std::string_view::npos ? std::string_view{} : trim(line.substr(end));
    if (name == "%time") return time(rest);
    if (name == "%timeit") return timeit(rest);
    if (name == "%kernels") {
        std::vector<Interpreter::KernelInfo> ks = interp_.kernels_since(last_statement_first_kernel_);
        if (ks.empty()) out("no kernels ran in the last statement\n");
        for (const Interpreter::KernelInfo& k : ks) out(k.name + ": " + k.summary + "\n");
        return {};
    }
    err("UsageError: Line magic function `" + std::string(name) + "` not found.\n");
    return {};
}

void Magics::statement_starts() { last_statement_first_kernel_ = interp_.kernels_launched(); }

Result Magics::time(std::string_view stmt) {
    rusage r0{}, r1{};
    getrusage(RUSAGE_SELF, &r0);
    auto t0 = Clock::now();
    Result res;
    // Run as typed, so an expression's value is shown as IPython shows it.
    if (!stmt.empty()) res = interp_.run_interactive(std::string(stmt) + "\n");
    double wall = seconds_since(t0);
    getrusage(RUSAGE_SELF, &r1);
    if (res.status != Status::Ok) return res;  // the error is already printed
    double user = tv_seconds(r1.ru_utime) - tv_seconds(r0.ru_utime);
    double sys = tv_seconds(r1.ru_stime) - tv_seconds(r0.ru_stime);
    out(format_cpu_times(user, sys, wall));
    return res;
}

Result Magics::timeit(std::string_view stmt) {
    // IPython's -n<loops> and -r<repeats> options (also "-n 10"), before the
    // statement. Like IPython, a statement starting with '-' is read as options.
    long long fixed_loops = 0;
    int repeats = 7;
    while (!stmt.empty() && stmt[0] == '-' && stmt.size() > 1 && (stmt[1] == 'n' || stmt[1] == 'r')) {
        char opt = stmt[1];
        stmt = trim(stmt.substr(2));
        std::size_t digits = 0;
        while (digits < stmt.size() && stmt[digits] >= '0' && stmt[digits] <= '9') ++digits;
        if (digits == 0 || digits > 12) {
            err(std::string("UsageError: option -") + opt + " needs a positive number\n");
            return {};
        }
        long long value = std::stoll(std::string(stmt.substr(0, digits)));
        if (value <= 0) {
            err(std::string("UsageError: option -") + opt + " needs a positive number\n");
            return {};
        }
        if (opt == 'n') fixed_loops = value;
        else repeats = static_cast<int>(std::min<long long>(value, 1000));
        stmt = trim(stmt.substr(digits));
    }
    if (!stmt.empty() && stmt[0] == '-' && stmt.size() > 1 && std::isalpha(static_cast<unsigned char>(stmt[1]))) {
        err(std::string("UsageError: option -") + stmt[1] + " not recognized ( allowed: \"n:r:\" )\n");
        return {};
    }
    if (stmt.empty()) stmt = "pass";
    // A statement that does not parse is reported as typed (caret positions
    // then match what the user wrote), without running anything.
    if (interp_.check_input(std::string(stmt)) == InputState::Invalid)
        return interp_.run_interactive(std::string(stmt) + "\n");

    Result res = interp_.run_interactive(timeit_wrapper(stmt));
    if (res.status != Status::Ok) return res;

    auto measure = [&](long long loops, double* seconds) {
        std::string call = std::string(kTimeitFn) + "(" + std::to_string(loops) + ")\n";
        auto t0 = Clock::now();
        Result r = interp_.run_interactive(call);
        *seconds = seconds_since(t0);
        return r;
    };

    // IPython's autorange: 1, 10, 100, ... loops until one run takes >= 0.2 s.
    long long loops = fixed_loops > 0 ? fixed_loops : 1;
    double t = 0.0;
    for (int index = 0; index < 10 && fixed_loops == 0; ++index) {
        loops = 1;
        for (int i = 0; i < index; ++i) loops *= 10;
        res = measure(loops, &t);
        if (res.status != Status::Ok) break;
        if (t >= 0.2) break;
    }
    std::vector<double> runs;
    for (int rep = 0; rep < repeats && res.status == Status::Ok; ++rep) {
        res = measure(loops, &t);
        runs.push_back(t);
    }
    if (res.status == Status::Ok) out(format_timeit(runs, loops));

    // Remove the helper so it does not show up in completion or dir().
    if (res.status != Status::Exit) interp_.run_interactive(std::string("del ") + kTimeitFn + "\n");
    return res;
}

}  // namespace gpy::repl
