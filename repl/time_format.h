// Formatting of timings exactly as IPython prints them, so that numbers from
// gpy's %time / %timeit can be read side by side with IPython's.
#pragma once

#include <string>
#include <vector>

namespace gpy::repl {

// IPython's _format_time: "1.23 ms", "456 ns", "12.3 s", "1min 5s".
// `precision` significant digits; units s, ms, µs, ns.
std::string format_time(double seconds, int precision = 3);

// The two lines %time prints (each ending in '\n'):
//   CPU times: user 1.2 ms, sys: 0 ns, total: 1.2 ms
//   Wall time: 1.25 ms
std::string format_cpu_times(double user_s, double sys_s, double wall_s);

// Summary of a %timeit measurement. `run_totals` holds the wall time of each
// run of `loops` loops. Returns IPython's line, e.g.
//   "12.3 ms ± 45.6 µs per loop (mean ± std. dev. of 7 runs, 10 loops each)"
// preceded by IPython's caching warning line when the slowest run took more
// than 4 times the fastest.
std::string format_timeit(const std::vector<double>& run_totals, long long loops);

// 1234567 -> "1,234,567" (Python's "{:,}").
std::string group_thousands(long long n);

}  // namespace gpy::repl
