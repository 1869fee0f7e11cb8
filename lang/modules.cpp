// The native modules of the language: math, cmath, time, sys; and the import
// of those a host registered (Interp::native_modules: the array module).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>

#include "lang/interp.h"
#include "lang/stdlib_modules.h"

namespace gpy {

namespace {

double arg_float(CallArgs& a, size_t k, const char* fname) {
    const Value& v = a[k];
    double d;
    if (real_value(v, d)) return d;
    raise(types::TypeError, std::string("must be real number, not ") + type_name(v));
    (void)fname;
}

[[noreturn]] void domain_error() { raise(types::ValueError, "math domain error"); }

template <double (*F)(double)>
Value unary_math(Interp&, CallArgs& a) {
    expect_args(a, "math function", 1, 1);
    double x = arg_float(a, 0, "");
    double r = F(x);
    if (std::isnan(r) && !std::isnan(x)) domain_error();
    if (std::isinf(r) && std::isfinite(x)) raise(types::OverflowError, "math range error");
    return Value::real(r);
}

double checked_log(double x) { if (x <= 0) domain_error(); return std::log(x); }
double checked_log2(double x) { if (x <= 0) domain_error(); return std::log2(x); }
double checked_log10(double x) { if (x <= 0) domain_error(); return std::log10(x); }
double checked_sqrt(double x) { if (x < 0) domain_error(); return std::sqrt(x); }
double sin_(double x) { if (std::isinf(x)) domain_error(); return std::sin(x); }
double cos_(double x) { if (std::isinf(x)) domain_error(); return std::cos(x); }
double tan_(double x) { if (std::isinf(x)) domain_error(); return std::tan(x); }
double exp_(double x) { return std::exp(x); }
double asin_(double x) { return std::asin(x); }
double acos_(double x) { return std::acos(x); }
double atan_(double x) { return std::atan(x); }
double sinh_(double x) { return std::sinh(x); }
double cosh_(double x) { return std::cosh(x); }
double tanh_(double x) { return std::tanh(x); }
double fabs_(double x) { return std::fabs(x); }
double expm1_(double x) { return std::expm1(x); }
double log1p_(double x) { if (x <= -1) domain_error(); return std::log1p(x); }
double degrees_(double x) { return x * (180.0 / M_PI); }
double radians_(double x) { return x * (M_PI / 180.0); }

Value m_log(Interp& in, CallArgs& a) {
    expect_args(a, "log", 1, 2);
    CallArgs one{a.pos, 1, nullptr};
    Value r = unary_math<checked_log>(in, one);
    if (a.npos == 2) {
        double b = arg_float(a, 1, "log");
        if (b <= 0 || b == 1) {
            if (b == 1) raise(types::ZeroDivisionError, "float division by zero");
            domain_error();
        }
        return Value::real(r.f / std::log(b));
    }
    return r;
}

// floor/ceil/trunc return ints, as Python's do.
template <double (*F)(double)>
Value to_int_math(Interp&, CallArgs& a) {
    expect_args(a, "math function", 1, 1);
    if (a[0].is_intlike()) return Value::integer(a[0].as_int());
    double x = arg_float(a, 0, "");
    if (std::isnan(x)) raise(types::ValueError, "cannot convert float NaN to integer");
    if (std::isinf(x)) raise(types::OverflowError, "cannot convert float infinity to integer");
    double r = F(x);
    if (std::fabs(r) >= 9.2233720368547758e18) raise(types::OverflowError, "integer overflow");
    return Value::integer(int64_t(r));
}
double floor_(double x) { return std::floor(x); }
double ceil_(double x) { return std::ceil(x); }
double trunc_(double x) { return std::trunc(x); }

Value m_pow(Interp&, CallArgs& a) {
    expect_args(a, "pow", 2, 2);
    double x = arg_float(a, 0, "pow"), y = arg_float(a, 1, "pow");
    if (x == 0 && y < 0) domain_error();
    if (x < 0 && y != std::floor(y) && std::isfinite(y)) domain_error();
    double r = std::pow(x, y);
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) raise(types::OverflowError, "math range error");
    return Value::real(r);
}

Value m_atan2(Interp&, CallArgs& a) {
    expect_args(a, "atan2", 2, 2);
    return Value::real(std::atan2(arg_float(a, 0, "atan2"), arg_float(a, 1, "atan2")));
}

Value m_hypot(Interp&, CallArgs& a) {
    double acc = 0;
    for (size_t k = 0; k < a.npos; ++k) acc = std::hypot(acc, arg_float(a, k, "hypot"));
    return Value::real(acc);
}

Value m_fmod(Interp&, CallArgs& a) {
    expect_args(a, "fmod", 2, 2);
    double x = arg_float(a, 0, "fmod"), y = arg_float(a, 1, "fmod");
    if (y == 0 && !std::isnan(x)) domain_error();
    return Value::real(std::fmod(x, y));
}

Value m_copysign(Interp&, CallArgs& a) {
    expect_args(a, "copysign", 2, 2);
    return Value::real(std::copysign(arg_float(a, 0, "copysign"), arg_float(a, 1, "copysign")));
}

Value m_isnan(Interp&, CallArgs& a) { expect_args(a, "isnan", 1, 1); return Value::boolean(std::isnan(arg_float(a, 0, "isnan"))); }
Value m_isinf(Interp&, CallArgs& a) { expect_args(a, "isinf", 1, 1); return Value::boolean(std::isinf(arg_float(a, 0, "isinf"))); }
Value m_isfinite(Interp&, CallArgs& a) { expect_args(a, "isfinite", 1, 1); return Value::boolean(std::isfinite(arg_float(a, 0, "isfinite"))); }

Value m_isclose(Interp&, CallArgs& a) {
    expect_args(a, "isclose", 2, 2);
    double x = arg_float(a, 0, "isclose"), y = arg_float(a, 1, "isclose");
    double rel = 1e-9, abs_tol = 0.0;
    if (const Value* r = kwarg(a, "rel_tol")) rel = to_double(*r, "isclose");
    if (const Value* t = kwarg(a, "abs_tol")) abs_tol = to_double(*t, "isclose");
    if (rel < 0 || abs_tol < 0) raise(types::ValueError, "tolerances must be non-negative");
    if (x == y) return Value::boolean(true);
    if (std::isinf(x) || std::isinf(y)) return Value::boolean(false);
    double diff = std::fabs(y - x);
    return Value::boolean(diff <= std::fabs(rel * y) || diff <= std::fabs(rel * x) || diff <= abs_tol);
}

Value m_factorial(Interp&, CallArgs& a) {
    expect_args(a, "factorial", 1, 1);
    int64_t n = index_arg(a[0]);
    if (n < 0) raise(types::ValueError, "factorial() not defined for negative values");
    int64_t r = 1;
    for (int64_t k = 2; k <= n; ++k)
        if (__builtin_mul_overflow(r, k, &r)) raise(types::OverflowError, "integer overflow");
    return Value::integer(r);
}

Value m_gcd(Interp&, CallArgs& a) {
    int64_t g = 0;
    for (size_t k = 0; k < a.npos; ++k) {
        int64_t x = to_index(a[k], "gcd arguments");
        x = x < 0 ? -x : x;
        while (x) { int64_t t = g % x; g = x; x = t; }
    }
    return Value::integer(g);
}

Value m_fsum(Interp& in, CallArgs& a) {
    expect_args(a, "fsum", 1, 1);
    // Neumaier compensated summation: exact enough for the common cases.
    double s = 0, c = 0;
    for_each(in, a[0], [&](const Value& v) {
        double x = to_double(v, "fsum");
        double t = s + x;
        c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
        s = t;
        return true;
    });
    return Value::real(s + c);
}

Value t_perf_counter(Interp&, CallArgs&) {
    using namespace std::chrono;
    return Value::real(duration<double>(steady_clock::now().time_since_epoch()).count());
}

Value t_perf_counter_ns(Interp&, CallArgs&) {
    using namespace std::chrono;
    return Value::integer(duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count());
}

Value t_time(Interp&, CallArgs&) {
    using namespace std::chrono;
    return Value::real(duration<double>(system_clock::now().time_since_epoch()).count());
}

Value t_sleep(Interp& in, CallArgs& a) {
    expect_args(a, "sleep", 1, 1);
    double s = to_double(a[0], "sleep");
    if (std::isnan(s)) raise(types::ValueError, "Invalid value NaN (not a number)");
    if (s < 0) raise(types::ValueError, "sleep length must be non-negative");
    if (s > 9.2e9) raise(types::OverflowError, "timestamp out of range for platform time_t");  // CPython's limit: int64 nanoseconds
    // Sleep in slices so Ctrl-C interrupts promptly.
    using clock = std::chrono::steady_clock;
    auto until = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(s));
    while (clock::now() < until) {
        if (in.interrupted) { in.countdown = -1; in.tick(); }
        clock::duration left = until - clock::now();
        std::this_thread::sleep_for(std::min<clock::duration>(left, std::chrono::milliseconds(20)));
    }
    return Value::none();
}

Value sys_exit(Interp&, CallArgs& a) {
    expect_args(a, "exit", 0, 1);
    Value e = make_exception(types::SystemExit, "");
    e.as<ExceptionObj>()->args = make_tuple(std::vector<Value>(a.pos, a.pos + a.npos));
    throw GpyError{e};
}

Value sys_getrecursionlimit(Interp& in, CallArgs&) { return Value::integer(in.recursion_limit); }

Value sys_setrecursionlimit(Interp& in, CallArgs& a) {
    expect_args(a, "setrecursionlimit", 1, 1);
    int64_t n = to_index(a[0], "recursion limit");
    if (n < 1) raise(types::ValueError, "recursion limit must be greater or equal than 1");
    in.recursion_limit = int(std::min<int64_t>(n, 100000));
    return Value::none();
}

void def(ModuleObj* m, const char* name, NativeFn fn, const char* sig, const char* doc) {
    m->set(name, make_builtin(name, fn, sig, doc));
}

}  // namespace

void add_math_more(ModuleObj* m);  // math_more.cpp

namespace {

ModuleObj* make_math(Interp&) {
    auto* m = new ModuleObj("math");
    m->doc = "Mathematical functions on floats (C99 libm), as Python's math module.";
    def(m, "sqrt", unary_math<checked_sqrt>, "sqrt(x, /)", "Return the square root of x.");
    def(m, "exp", unary_math<exp_>, "exp(x, /)", "Return e raised to the power of x.");
    def(m, "expm1", unary_math<expm1_>, "expm1(x, /)", "Return exp(x)-1.");
    def(m, "log", m_log, "log(x, [base=math.e])", "Return the logarithm of x to the given base.");
    def(m, "log2", unary_math<checked_log2>, "log2(x, /)", "Return the base 2 logarithm of x.");
    def(m, "log10", unary_math<checked_log10>, "log10(x, /)", "Return the base 10 logarithm of x.");
    def(m, "log1p", unary_math<log1p_>, "log1p(x, /)", "Return the natural logarithm of 1+x.");
    def(m, "sin", unary_math<sin_>, "sin(x, /)", "Return the sine of x (measured in radians).");
    def(m, "cos", unary_math<cos_>, "cos(x, /)", "Return the cosine of x (measured in radians).");
    def(m, "tan", unary_math<tan_>, "tan(x, /)", "Return the tangent of x (measured in radians).");
    def(m, "asin", unary_math<asin_>, "asin(x, /)", "Return the arc sine (measured in radians) of x.");
    def(m, "acos", unary_math<acos_>, "acos(x, /)", "Return the arc cosine (measured in radians) of x.");
    def(m, "atan", unary_math<atan_>, "atan(x, /)", "Return the arc tangent (measured in radians) of x.");
    def(m, "atan2", m_atan2, "atan2(y, x, /)", "Return the arc tangent (measured in radians) of y/x.");
    def(m, "sinh", unary_math<sinh_>, "sinh(x, /)", "Return the hyperbolic sine of x.");
    def(m, "cosh", unary_math<cosh_>, "cosh(x, /)", "Return the hyperbolic cosine of x.");
    def(m, "tanh", unary_math<tanh_>, "tanh(x, /)", "Return the hyperbolic tangent of x.");
    def(m, "fabs", unary_math<fabs_>, "fabs(x, /)", "Return the absolute value of the float x.");
    def(m, "degrees", unary_math<degrees_>, "degrees(x, /)", "Convert angle x from radians to degrees.");
    def(m, "radians", unary_math<radians_>, "radians(x, /)", "Convert angle x from degrees to radians.");
    def(m, "floor", to_int_math<floor_>, "floor(x, /)", "Return the floor of x as an Integral.");
    def(m, "ceil", to_int_math<ceil_>, "ceil(x, /)", "Return the ceiling of x as an Integral.");
    def(m, "trunc", to_int_math<trunc_>, "trunc(x, /)", "Truncates the Real x to the nearest Integral toward 0.");
    def(m, "pow", m_pow, "pow(x, y, /)", "Return x**y (x to the power of y).");
    def(m, "hypot", m_hypot, "hypot(*coordinates)", "Multidimensional Euclidean distance from the origin to a point.");
    def(m, "fmod", m_fmod, "fmod(x, y, /)", "Return fmod(x, y), according to platform C.");
    def(m, "copysign", m_copysign, "copysign(x, y, /)", "Return a float with the magnitude of x but the sign of y.");
    def(m, "isnan", m_isnan, "isnan(x, /)", "Return True if x is a NaN (not a number), and False otherwise.");
    def(m, "isinf", m_isinf, "isinf(x, /)", "Return True if x is a positive or negative infinity, and False otherwise.");
    def(m, "isfinite", m_isfinite, "isfinite(x, /)", "Return True if x is neither an infinity nor a NaN, and False otherwise.");
    def(m, "isclose", m_isclose, "isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)", "Determine whether two floating point numbers are close in value.");
    def(m, "factorial", m_factorial, "factorial(n, /)", "Find n!.");
    def(m, "gcd", m_gcd, "gcd(*integers)", "Greatest Common Divisor.");
    def(m, "fsum", m_fsum, "fsum(seq, /)", "Return an accurate floating point sum of values in the iterable seq.");
    add_math_more(m);
    m->set("pi", Value::real(M_PI));
    m->set("e", Value::real(M_E));
    m->set("tau", Value::real(2 * M_PI));
    m->set("inf", Value::real(INFINITY));
    m->set("nan", Value::real(NAN));
    return m;
}

ModuleObj* make_time(Interp&) {
    auto* m = new ModuleObj("time");
    m->doc = "Time access: perf_counter, time, sleep.";
    def(m, "perf_counter", t_perf_counter, "perf_counter()", "Performance counter for benchmarking, in seconds.");
    def(m, "perf_counter_ns", t_perf_counter_ns, "perf_counter_ns()", "Performance counter for benchmarking, in nanoseconds.");
    def(m, "monotonic", t_perf_counter, "monotonic()", "Monotonic clock, cannot go backward.");
    def(m, "time", t_time, "time()", "Return the current time in seconds since the Epoch.");
    def(m, "sleep", t_sleep, "sleep(seconds)", "Delay execution for a given number of seconds.");
    return m;
}

ModuleObj* make_sys(Interp& in) {
    auto* m = new ModuleObj("sys");
    m->doc = "System-specific parameters: argv, exit, recursion limit.";
    std::vector<Value> argv;
    for (auto& s : in.cfg.argv) argv.push_back(make_str(s));
    if (argv.empty()) argv.push_back(make_str(""));
    m->set("argv", make_list(std::move(argv)));
    def(m, "exit", sys_exit, "exit(status=None, /)", "Exit the interpreter by raising SystemExit(status).");
    def(m, "getrecursionlimit", sys_getrecursionlimit, "getrecursionlimit()", "Return the current value of the recursion limit.");
    def(m, "setrecursionlimit", sys_setrecursionlimit, "setrecursionlimit(limit, /)", "Set the maximum depth of the gpy interpreter stack.");
    m->set("maxsize", Value::integer(INT64_MAX));
    m->set("platform", make_str("linux"));
    m->set("version", make_str(std::string("gpy ") + version()));
    return m;
}

}  // namespace

ModuleObj* Interp::import_module(const std::string& name) {
    auto it = modules.find(name);
    if (it != modules.end()) return it->second.get();
    ModuleObj* m = nullptr;
    if (name == "math") m = make_math(*this);
    else if (name == "cmath") m = make_cmath(*this);
    else if (name == "time") m = make_time(*this);
    else if (name == "sys") m = make_sys(*this);
    else if (name == "itertools") m = make_itertools(*this);
    else if (name == "functools") m = make_functools(*this);
    else if (name == "bisect") m = make_bisect(*this);
    else if (name == "heapq") m = make_heapq(*this);
    else if (name == "random") m = make_random(*this);
    else if (name == "json") m = make_json(*this);
    else if (name == "operator") m = make_operator(*this);
    else if (name == "copy") m = make_copy(*this);
    else if (name == "string") m = make_string(*this);
    else if (name == "collections") m = make_collections(*this);
    else if (name == "dataclasses") m = make_dataclasses(*this);
    else if (name == "typing") m = make_typing(*this);
    else if (name == "__future__") m = make_future(*this);
    else {
        for (const NativeModule& nm : native_modules) {
            if (std::find(nm.names.begin(), nm.names.end(), name) == nm.names.end()) continue;
            m = nm.make(*this);
            for (const std::string& n : nm.names) modules[n] = Ref<ModuleObj>(m);
            return m;
        }
    }
    if (!m && name.find('.') != std::string::npos) {
        // A submodule (numpy.linalg): an attribute of its parent that is a module.
        size_t dot = name.rfind('.');
        ModuleObj* parent = import_module(name.substr(0, dot));
        const Value* v = parent->get(name.substr(dot + 1));
        if (v && is_kind(*v, OK::Module)) m = v->as<ModuleObj>();
    }
    if (!m) raise(types::ModuleNotFoundError, "No module named '" + name + "'");
    modules[name] = Ref<ModuleObj>(m);
    return m;
}

}  // namespace gpy
