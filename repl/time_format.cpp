#include "repl/time_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpy::repl {

std::string format_time(double seconds, int precision) {
    if (seconds >= 60.0) {
        // IPython: largest units first, stop once less than a second is left.
        static const struct { const char* suffix; double length; } parts[] = {
            {"d", 86400.0}, {"h", 3600.0}, {"min", 60.0}, {"s", 1.0}};
        std::string out;
        double leftover = seconds;
        for (const auto& p : parts) {
            long long value = static_cast<long long>(leftover / p.length);
            if (value > 0) {
                leftover = std::fmod(leftover, p.length);
                if (!out.empty()) out += ' ';
                out += std::to_string(value) + p.suffix;
            }
            if (leftover < 1.0) break;
        }
        return out;
    }
    static const char* units[] = {"s", "ms", "\u00b5s", "ns"};
    static const double scaling[] = {1.0, 1e3, 1e6, 1e9};
    int order = 3;
    if (seconds > 0.0) {
        // Python: min(-int(math.floor(math.log10(t)) // 3), 3) with floor
        // division, hence floor() of the quotient.
        double exponent = std::floor(std::log10(seconds));
        order = std::min(-static_cast<int>(std::floor(exponent / 3.0)), 3);
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g %s", precision, seconds * scaling[order], units[order]);
    return buf;
}

std::string format_cpu_times(double user_s, double sys_s, double wall_s) {
    return "CPU times: user " + format_time(user_s) + ", sys: " + format_time(sys_s) +
           ", total: " + format_time(user_s + sys_s) + "\nWall time: " + format_time(wall_s) + "\n";
}

std::string group_thousands(long long n) {
    std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out;
    int count = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        if (count > 0 && count % 3 == 0) out += ',';
        out += *it;
        ++count;
    }
    if (n < 0) out += '-';
    std::reverse(out.begin(), out.end());
    return out;
}

namespace {

// Python's math.fsum (Shewchuk's exact partial sums, correctly rounded), which
// IPython uses for the mean and deviation; a naive sum can turn a deviation of
// exactly 0 into "3.47e-09 ns".
double fsum(const std::vector<double>& xs) {
    std::vector<double> partials;
    for (double x : xs) {
        std::size_t i = 0;
        for (double y : partials) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            double hi = x + y;
            double lo = y - (hi - x);
            if (lo != 0.0) partials[i++] = lo;
            x = hi;
        }
        partials.resize(i);
        partials.push_back(x);
    }
    // Round the partials to one double as Python does (half-even correction).
    if (partials.empty()) return 0.0;
    std::size_t n = partials.size() - 1;
    double hi = partials[n], lo = 0.0;
    while (n > 0) {
        double x = hi;
        double y = partials[--n];
        hi = x + y;
        double yr = hi - x;
        lo = y - yr;
        if (lo != 0.0) break;
    }
    if (n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0))) {
        double y = lo * 2.0;
        double x = hi + y;
        if (y == x - hi) hi = x;
    }
    return hi;
}

}  // namespace

std::string format_timeit(const std::vector<double>& run_totals, long long loops) {
    if (run_totals.empty() || loops <= 0) return "";
    std::vector<double> per_loop;
    for (double t : run_totals) per_loop.push_back(t / static_cast<double>(loops));
    double mean = fsum(per_loop) / static_cast<double>(per_loop.size());
    // Population standard deviation, as IPython's TimeitResult.
    std::vector<double> squares;
    for (double t : per_loop) squares.push_back((t - mean) * (t - mean));
    double stdev = std::sqrt(fsum(squares) / static_cast<double>(per_loop.size()));

    std::string out;
    double best = *std::min_element(per_loop.begin(), per_loop.end());
    double worst = *std::max_element(per_loop.begin(), per_loop.end());
    if (worst > 4 * best && best > 0 && worst > 1e-6) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "The slowest run took %0.2f times longer than the fastest. This could mean "
                      "that an intermediate result is being cached.\n",
                      worst / best);
        out += buf;
    }
    std::size_t runs = per_loop.size();
    out += format_time(mean) + " \u00b1 " + format_time(stdev) + " per loop (mean \u00b1 std. dev. of " +
           std::to_string(runs) + " run" + (runs == 1 ? "" : "s") + ", " + group_thousands(loops) +
           " loop" + (loops == 1 ? "" : "s") + " each)\n";
    return out;
}

}  // namespace gpy::repl
