// np.random's distributions beyond the uniform, normal and integer draws of
// random.cpp: NumPy's signatures, parameter checks (its words), broadcasting
// of array parameters against size=, and Python scalars for scalar draws.
// The samplers are in random_samplers.cpp; chunk c of a draw (kChunk
// outputs) reads its own key, so the numbers do not depend on threads.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "runtime/thread_pool.h"
#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/random_generator.h"
#include "numpy/random_samplers.h"
#include "numpy/reduce.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace rng;

namespace {

constexpr int64_t kChunk = 4096;  // outputs per key
constexpr size_t kMaxParams = 4;   // a distribution's parameters (noncentral_f, triangular: 3)
// NumPy's POISSON_LAM_MAX: int64's maximum less 10 standard deviations.
constexpr double kPoissonLamMax = 9.223372006484771e18;

int64_t count(const dag::Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

// The values of `arr` broadcast to `out` (C order).
std::vector<double> broadcast_values(const Value& arr, const dag::Shape& out) {
    ArrayObj* a = as_array(arr);
    std::vector<double> src = doubles_of(arr);
    size_t nd = out.size(), off = nd - a->shape.size();
    std::vector<int64_t> step(nd, 0);  // source stride per output axis; 0 where broadcast
    int64_t s = 1;
    for (size_t d = a->shape.size(); d-- > 0;) {
        step[d + off] = a->shape[d] == 1 ? 0 : s;
        s *= a->shape[d];
    }
    int64_t n = count(out);
    std::vector<double> v(size_t(std::max<int64_t>(n, 0)));
    std::vector<int64_t> idx(nd, 0);
    int64_t pos = 0;
    for (int64_t i = 0; i < n; ++i) {
        v[size_t(i)] = src[size_t(pos)];
        for (size_t d = nd; d-- > 0;) {
            if (++idx[d] < out[d]) {
                pos += step[d];
                break;
            }
            pos -= step[d] * (out[d] - 1);
            idx[d] = 0;
        }
    }
    return v;
}

// NumPy's error when a parameter's shape does not broadcast to size=.
void check_broadcasts_to(const dag::Shape& size, const dag::Shape& p) {
    bool ok = p.size() <= size.size();
    for (size_t k = 0; ok && k < p.size(); ++k) {
        int64_t d = p[p.size() - 1 - k];
        ok = d == 1 || d == size[size.size() - 1 - k];
    }
    if (!ok)
        raise(types::ValueError, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape " +
                                     shape_text(size) + " and arg 1 with shape " + shape_text(p) + ".");
}

// Checks that the value is bad for: one per NumPy constraint.
bool negative(double x) { return x < 0; }
bool not_positive(double x) { return x <= 0; }
bool negative_or_nan(double x) { return !(x >= 0); }
bool not_positive_or_nan(double x) { return !(x > 0); }
bool outside_0_1(double x) { return !(x >= 0 && x <= 1); }     // p < 0, p > 1 or p is NaN
bool outside_gt0_1(double x) { return !(x > 0 && x <= 1); }    // p <= 0, p > 1 or NaN
bool outside_0_lt1(double x) { return !(x >= 0 && x < 1); }    // p < 0, p >= 1 or NaN
bool not_above_1(double x) { return !(x > 1); }                // a <= 1 or NaN

// Calls f(source, i) for i in [0, n): output i reads chunk i / kChunk's key
// of a fresh draw of g.
template <class F>
void for_each_output(GeneratorObj* g, int64_t n, F f) {
    uint64_t seed = g->seed, base = g->base++;
    int64_t chunks = (n + kChunk - 1) / kChunk;
    parallel_for(chunks, 1, [&](int64_t cb, int64_t ce) {
        for (int64_t c = cb; c < ce; ++c) {
            Source src(chunk_key(seed, base, uint64_t(c)));
            for (int64_t i = c * kChunk, e = std::min(n, i + kChunk); i < e; ++i) f(src, i);
        }
    });
}

struct ParamSpec {
    const char* name;
    double dflt = std::nan("");  // NaN: required
};

// One call of a distribution: its parameters, size=, and the draw.
class Draw {
public:
    Draw(Interp& in, CallArgs& a, const char* fname, std::initializer_list<ParamSpec> specs)
        : in_(in), g_(self_of(a)), r_(rest(a)), fname_(fname) {
        size_t required = 0;
        for (const ParamSpec& s : specs) required += std::isnan(s.dflt) ? 1 : 0;
        size_t given = 0;
        for (size_t k = 0; k < specs.size(); ++k) given += arg(r_, k, specs.begin()[k].name) ? 1 : 0;
        if (given < required && r_.npos < required) {
            std::string n = std::to_string(required);
            raise(types::TypeError, std::string(fname) + "() takes at least " + n + " positional argument" +
                                        (required == 1 ? "" : "s") + " (" + std::to_string(r_.npos) + " given)");
        }
        // run() keeps one output's parameters in a fixed array of kMaxParams.
        if (specs.size() > kMaxParams) throw std::logic_error("Draw: more parameters than kMaxParams");
        size_t k = 0;
        for (const ParamSpec& s : specs) {
            if (r_.npos > k && kwarg(r_, s.name))
                raise(types::TypeError, std::string(fname) + "() got multiple values for keyword argument '" + s.name + "'");
            params_.push_back(param(in, r_, k++, s.name, s.dflt));
        }
        size_ = size_arg(in, r_, k);
    }

    Interp& interp() { return in_; }
    CallArgs& args() { return r_; }
    GeneratorObj* generator() { return g_; }
    const std::optional<dag::Shape>& size() const { return size_; }

    // Raises ValueError(msg) if `bad` holds for any value of parameter i.
    void check(size_t i, bool (*bad)(double), const char* msg) {
        const DrawParam& p = params_[i];
        bool any = p.is_array ? std::ranges::any_of(doubles_of(p.value), bad) : bad(p.number);
        if (any) raise(types::ValueError, msg);
    }
    // Parameter i as given (a number, or its float64 array).
    const Value& value(size_t i) const { return params_[i].value; }
    // The values of parameter i (the scalar, or every element).
    std::vector<double> values(size_t i) const {
        const DrawParam& p = params_[i];
        return p.is_array ? doubles_of(p.value) : std::vector<double>{p.number};
    }
    // The shape of the draw: size=, else the parameters' broadcast shape.
    dag::Shape shape() const {
        if (size_) return *size_;
        std::vector<const dag::Shape*> shapes;
        for (const DrawParam& p : params_)
            if (p.is_array) shapes.push_back(&as_array(p.value)->shape);
        return broadcast_shapes(shapes);
    }
    // Parameter i's value for each output (one value for a scalar).
    std::vector<double> broadcast(size_t i) const {
        const DrawParam& p = params_[i];
        if (!p.is_array) return {p.number};
        dag::Shape s = shape();
        check_broadcasts_to(s, as_array(p.value)->shape);
        return broadcast_values(p.value, s);
    }

    // Samples f(source, params) of C++ type T into an array of dtype dt (a
    // Python scalar for a scalar draw); `out` overrides the result array.
    template <class T, class F>
    Value run(DType dt, F f, const Value* out = nullptr) {
        dag::Shape shape = this->shape();
        if (out) {
            ArrayObj* o = as_array(*out);
            if (size_ && *size_ != o->shape) raise(types::ValueError, "size must match out.shape when used together");
            shape = o->shape;
        }
        std::vector<std::vector<double>> per;  // per-output values of array parameters
        std::vector<double> fixed(params_.size());
        for (size_t k = 0; k < params_.size(); ++k) {
            if (!params_[k].is_array) {
                fixed[k] = params_[k].number;
                per.emplace_back();
                continue;
            }
            check_broadcasts_to(shape, as_array(params_[k].value)->shape);
            per.push_back(broadcast_values(params_[k].value, shape));
        }
        int64_t n = count(shape);
        check_scratch(in_, n);
        bool scalar = !size_ && !out && shape.empty();
        Value result = new_array(dt, shape);
        ArrayObj* arr = as_array(result);
        T* data = reinterpret_cast<T*>(arr->buffer.bytes() + arr->offset);
        for_each_output(g_, n, [&](Source& src, int64_t i) {
            double p[kMaxParams];
            for (size_t k = 0; k < per.size(); ++k) p[k] = per[k].empty() ? fixed[k] : per[k][size_t(i)];
            data[i] = T(f(src, p));
        });
        if (out) {
            assign_array(in_, *out, result, true);
            return *out;
        }
        if (!scalar) return result;
        if constexpr (std::is_integral_v<T>) return Value::integer(int64_t(data[0]));
        else return Value::real(double(data[0]));
    }
    template <class F>
    Value doubles(F f) { return run<double>(DType::Float64, f); }
    template <class F>
    Value integers(F f) { return run<int64_t>(DType::Int64, f); }

private:
    Interp& in_;
    GeneratorObj* g_;
    CallArgs r_;
    const char* fname_;
    std::vector<DrawParam> params_;
    std::optional<dag::Shape> size_;
};

// ---- continuous ----

// dtype= and out= of standard_gamma / standard_exponential (Generator only).
Value float_draw(Draw& d, size_t dtype_pos, size_t out_pos, const char* fname, bool with_dtype,
                 double (*f)(Source&, const double*)) {
    DType dt = DType::Float64;
    const Value* out = nullptr;
    if (with_dtype) {
        dt = dtype_arg(d.interp(), d.args(), dtype_pos).value_or(DType::Float64);
        if (dt != DType::Float64 && dt != DType::Float32)
            raise(types::TypeError, std::string("Unsupported dtype dtype('") + name(dt) + "') for " + fname);
        out = out_arg(d.args(), out_pos);
        if (out && as_array(*out)->dtype != dt)
            raise(types::TypeError, std::string("Supplied output array has the wrong type. Expected ") + name(dt) +
                                        ", got " + name(as_array(*out)->dtype));
    }
    if (dt == DType::Float32) return d.run<float>(dt, f, out);
    return d.run<double>(dt, f, out);
}

Value standard_gamma_impl(Interp& in, CallArgs& a, bool gen) {
    Draw d(in, a, "standard_gamma", {{"shape"}});
    d.check(0, negative, "shape < 0");
    return float_draw(d, 2, 3, "standard_gamma", gen, [](Source& s, const double* p) { return standard_gamma(s, p[0]); });
}
Value gen_standard_gamma(Interp& in, CallArgs& a) { return standard_gamma_impl(in, a, true); }
Value legacy_standard_gamma(Interp& in, CallArgs& a) { return standard_gamma_impl(in, a, false); }

Value standard_exponential_impl(Interp& in, CallArgs& a, bool gen) {
    Draw d(in, a, "standard_exponential", {});
    if (gen) {
        const Value* m = arg(d.args(), 2, "method");
        if (m && !(is_kind(*m, OK::Str) && (m->as<StrObj>()->s == "zig" || m->as<StrObj>()->s == "inv")))
            raise(types::ValueError, "method must be either 'inv' or 'zig'");
    }
    return float_draw(d, 1, 3, "standard_exponential", gen, [](Source& s, const double*) { return s.exponential(); });
}
Value gen_standard_exponential(Interp& in, CallArgs& a) { return standard_exponential_impl(in, a, true); }
Value legacy_standard_exponential(Interp& in, CallArgs& a) { return standard_exponential_impl(in, a, false); }

Value gamma_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "gamma", {{"shape"}, {"scale", 1.0}});
    d.check(0, negative, "shape < 0");
    d.check(1, negative, "scale < 0");
    return d.doubles([](Source& s, const double* p) { return p[1] * standard_gamma(s, p[0]); });
}

Value beta_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "beta", {{"a"}, {"b"}});
    d.check(0, not_positive, "a <= 0");
    d.check(1, not_positive, "b <= 0");
    return d.doubles([](Source& s, const double* p) { return beta(s, p[0], p[1]); });
}

Value chisquare_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "chisquare", {{"df"}});
    d.check(0, not_positive, "df <= 0");
    return d.doubles([](Source& s, const double* p) { return chisquare(s, p[0]); });
}

Value f_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "f", {{"dfnum"}, {"dfden"}});
    d.check(0, not_positive, "dfnum <= 0");
    d.check(1, not_positive, "dfden <= 0");
    return d.doubles([](Source& s, const double* p) {
        return (chisquare(s, p[0]) * p[1]) / (chisquare(s, p[1]) * p[0]);
    });
}

Value noncentral_chisquare_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "noncentral_chisquare", {{"df"}, {"nonc"}});
    d.check(0, not_positive, "df <= 0");
    d.check(1, negative, "nonc < 0");
    return d.doubles([](Source& s, const double* p) { return noncentral_chisquare(s, p[0], p[1]); });
}

Value noncentral_f_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "noncentral_f", {{"dfnum"}, {"dfden"}, {"nonc"}});
    d.check(0, not_positive, "dfnum <= 0");
    d.check(1, not_positive, "dfden <= 0");
    d.check(2, negative, "nonc < 0");
    return d.doubles([](Source& s, const double* p) {
        return (noncentral_chisquare(s, p[0], p[2]) * p[1]) / (chisquare(s, p[1]) * p[0]);
    });
}

Value standard_t_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "standard_t", {{"df"}});
    d.check(0, not_positive, "df <= 0");
    return d.doubles([](Source& s, const double* p) { return standard_t(s, p[0]); });
}

Value standard_cauchy_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "standard_cauchy", {});
    return d.doubles([](Source& s, const double*) { return s.normal() / s.normal(); });
}

Value lognormal_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "lognormal", {{"mean", 0.0}, {"sigma", 1.0}});
    d.check(1, negative, "sigma < 0");
    return d.doubles([](Source& s, const double* p) { return std::exp(p[0] + p[1] * s.normal()); });
}

// laplace, logistic and gumbel: loc + scale * g(U), U in (0, 1).
Value laplace_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "laplace", {{"loc", 0.0}, {"scale", 1.0}});
    d.check(1, negative, "scale < 0");
    return d.doubles([](Source& s, const double* p) {
        double u = s.uniform();
        return u >= 0.5 ? p[0] - p[1] * std::log(2.0 - u - u) : p[0] + p[1] * std::log(u + u);
    });
}
Value logistic_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "logistic", {{"loc", 0.0}, {"scale", 1.0}});
    d.check(1, negative, "scale < 0");
    return d.doubles([](Source& s, const double* p) {
        double u = s.uniform();
        return p[0] + p[1] * std::log(u / (1.0 - u));
    });
}
Value gumbel_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "gumbel", {{"loc", 0.0}, {"scale", 1.0}});
    d.check(1, negative, "scale < 0");
    return d.doubles([](Source& s, const double* p) { return p[0] - p[1] * std::log(-std::log(s.uniform())); });
}

Value pareto_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "pareto", {{"a"}});
    d.check(0, not_positive, "a <= 0");
    return d.doubles([](Source& s, const double* p) { return std::expm1(s.exponential() / p[0]); });
}
Value power_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "power", {{"a"}});
    d.check(0, not_positive, "a <= 0");
    return d.doubles([](Source& s, const double* p) { return std::pow(-std::expm1(-s.exponential()), 1.0 / p[0]); });
}
Value weibull_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "weibull", {{"a"}});
    d.check(0, negative, "a < 0");
    return d.doubles([](Source& s, const double* p) { return p[0] == 0.0 ? 0.0 : std::pow(s.exponential(), 1.0 / p[0]); });
}
Value rayleigh_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "rayleigh", {{"scale", 1.0}});
    d.check(0, negative, "scale < 0");
    return d.doubles([](Source& s, const double* p) { return p[0] * std::sqrt(2.0 * s.exponential()); });
}
Value wald_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "wald", {{"mean"}, {"scale"}});
    d.check(0, not_positive, "mean <= 0");
    d.check(1, not_positive, "scale <= 0");
    return d.doubles([](Source& s, const double* p) { return wald(s, p[0], p[1]); });
}
Value vonmises_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "vonmises", {{"mu"}, {"kappa"}});
    d.check(1, negative, "kappa < 0");
    return d.doubles([](Source& s, const double* p) { return vonmises(s, p[0], p[1]); });
}

Value triangular_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "triangular", {{"left"}, {"mode"}, {"right"}});
    // NumPy's checks, each on its pair of parameters broadcast together
    // (before size= or the third parameter shapes anything).
    auto any = [&](size_t i, size_t j, Ufunc u) {
        ReduceOptions o;
        return truthy(reduce(in, dag::ReduceOp::Any, apply_ufunc(in, u, {d.value(i), d.value(j)}), o));
    };
    if (any(0, 1, Ufunc::greater)) raise(types::ValueError, "left > mode");
    if (any(1, 2, Ufunc::greater)) raise(types::ValueError, "mode > right");
    if (any(0, 2, Ufunc::equal)) raise(types::ValueError, "left == right");
    return d.doubles([](Source& s, const double* p) { return triangular(s, p[0], p[1], p[2]); });
}

// ---- discrete ----

Value poisson_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "poisson", {{"lam", 1.0}});
    d.check(0, negative_or_nan, "lam < 0 or lam is NaN");
    d.check(0, [](double x) { return x > kPoissonLamMax; }, "lam value too large");
    return d.integers([](Source& s, const double* p) { return poisson(s, p[0]); });
}

// An integer parameter's values as NumPy converts them to int64: the
// Generator raises Python's conversion errors; the legacy functions cast as
// C does (to INT64_MIN), which then fails their `< 0` check.
void check_int64(Draw& d, size_t i, bool gen, const char* negative_msg) {
    for (double x : d.values(i)) {
        if (!gen && !(std::fabs(x) < 9.2233720368547758e18)) raise(types::ValueError, negative_msg);
        if (std::isnan(x)) raise(types::ValueError, "cannot convert float NaN to integer");
        if (std::isinf(x)) raise(types::OverflowError, "cannot convert float infinity to integer");
        if (std::fabs(x) >= 9.2233720368547758e18) raise(types::OverflowError, "Python int too large to convert to C long");
    }
}

Value binomial_impl(Interp& in, CallArgs& a, bool gen) {
    Draw d(in, a, "binomial", {{"n"}, {"p"}});
    check_int64(d, 0, gen, "n < 0");
    d.check(0, negative, "n < 0");
    d.check(1, outside_0_1, "p < 0, p > 1 or p is NaN");
    // n is read as an int64, truncating (NumPy's cast).
    return d.integers([](Source& s, const double* p) { return binomial(s, int64_t(p[0]), p[1]); });
}
Value gen_binomial(Interp& in, CallArgs& a) { return binomial_impl(in, a, true); }
Value legacy_binomial(Interp& in, CallArgs& a) { return binomial_impl(in, a, false); }

Value negative_binomial_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "negative_binomial", {{"n"}, {"p"}});
    d.check(0, not_positive_or_nan, "n <= 0");
    d.check(1, outside_gt0_1, "p <= 0, p > 1 or p contains NaNs");
    // A gamma-mixed Poisson.
    return d.integers([](Source& s, const double* p) {
        if (p[1] == 1.0) return int64_t(0);
        return poisson(s, standard_gamma(s, p[0]) * (1.0 - p[1]) / p[1]);
    });
}

Value geometric_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "geometric", {{"p"}});
    d.check(0, outside_gt0_1, "p <= 0, p > 1 or p contains NaNs");
    return d.integers([](Source& s, const double* p) { return geometric(s, p[0]); });
}

Value zipf_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "zipf", {{"a"}});
    d.check(0, not_above_1, "a <= 1 or a is NaN");
    return d.integers([](Source& s, const double* p) { return zipf(s, p[0]); });
}

Value logseries_fn(Interp& in, CallArgs& a) {
    Draw d(in, a, "logseries", {{"p"}});
    d.check(0, outside_0_lt1, "p < 0, p >= 1 or p is NaN");
    return d.integers([](Source& s, const double* p) { return p[0] == 0.0 ? int64_t(1) : logseries(s, p[0]); });
}

Value hypergeometric_impl(Interp& in, CallArgs& a, bool gen) {
    Draw d(in, a, "hypergeometric", {{"ngood"}, {"nbad"}, {"nsample"}});
    const char* negative_msgs[] = {"ngood < 0", "nbad < 0", "nsample < 0"};
    for (size_t i = 0; i < 3; ++i) check_int64(d, i, gen, negative_msgs[i]);
    std::vector<double> g = d.broadcast(0), b = d.broadcast(1), k = d.broadcast(2);
    size_t n = size_t(count(d.shape()));  // a scalar parameter has one value, an array one per output
    auto at = [&](const std::vector<double>& v, size_t i) { return std::trunc(v.size() == 1 ? v[0] : v[i]); };
    for (size_t i = 0; i < n; ++i)
        if (at(g, i) + at(b, i) < at(k, i)) raise(types::ValueError, "ngood + nbad < nsample");
    d.check(0, negative, "ngood < 0");
    d.check(1, negative, "nbad < 0");
    d.check(2, negative, "nsample < 0");
    if (gen) {
        auto big = [](double x) { return x >= 1e9; };
        if (std::ranges::any_of(g, big) || std::ranges::any_of(b, big))
            raise(types::ValueError, "both ngood and nbad must be less than 1000000000");
    }
    // The sampler draws item by item: refuse draws that would take seconds each.
    for (size_t i = 0; i < n; ++i) {
        double total = at(g, i) + at(b, i), sample = at(k, i);
        if (std::min(sample, total - sample) > 1e7)
            raise(types::NotImplementedError, "hypergeometric: nsample and ngood + nbad - nsample both above 10**7 are not supported yet");
    }
    return d.integers([](Source& s, const double* p) {
        return hypergeometric(s, int64_t(p[0]), int64_t(p[1]), int64_t(p[2]));
    });
}
Value gen_hypergeometric(Interp& in, CallArgs& a) { return hypergeometric_impl(in, a, true); }
Value legacy_hypergeometric(Interp& in, CallArgs& a) { return hypergeometric_impl(in, a, false); }

// ---- multivariate ----

// The leading shape of a multivariate draw (size=, else `fallback`), and a
// fresh int64/float64 array of that shape plus (k,).
dag::Shape with_last(dag::Shape s, int64_t k) {
    s.push_back(k);
    return s;
}

[[noreturn]] void too_few(const char* fname, size_t need, size_t given) {
    raise(types::TypeError, std::string(fname) + "() takes at least " + std::to_string(need) + " positional arguments (" +
                                std::to_string(given) + " given)");
}

// multinomial(n, pvals, size=None): counts per category; a category's count
// is binomial in what the earlier ones left.
Value multinomial_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    const Value* pv = arg(r, 1, "pvals");
    if (!arg(r, 0, "n") || !pv) too_few("multinomial", 2, r.npos);
    DrawParam n = param(in, r, 0, "n", 0.0);
    Value parr = as_array_value(in, *pv);
    if (as_array(parr)->ndim() > 1) raise(types::NotImplementedError, "multinomial: only 1-dimensional pvals are supported");
    std::vector<double> p = doubles_of(parr);
    if (as_array(parr)->ndim() == 0 || p.empty())
        raise(types::ValueError, "pvals must have at least 1 dimension and the last dimension of pvals must be greater than 0.");
    auto size = size_arg(in, r, 2);
    if (std::ranges::any_of(n.is_array ? doubles_of(n.value) : std::vector<double>{n.number}, negative))
        raise(types::ValueError, "n < 0");
    if (std::ranges::any_of(p, outside_0_1)) raise(types::ValueError, "pvals < 0, pvals > 1 or pvals contains NaNs");
    if (!p.empty() && std::accumulate(p.begin(), p.end() - 1, 0.0) > 1.0 + 1e-12)
        raise(types::ValueError, "sum(pvals[:-1]) > 1.0");
    dag::Shape lead = size ? *size : (n.is_array ? as_array(n.value)->shape : dag::Shape{});
    if (n.is_array) check_broadcasts_to(lead, as_array(n.value)->shape);
    std::vector<double> ns = n.is_array ? broadcast_values(n.value, lead) : std::vector<double>{};
    int64_t k = int64_t(p.size()), rows = count(lead);
    check_scratch(in, rows * std::max<int64_t>(k, 1));
    Value out = new_array(DType::Int64, with_last(lead, k));
    auto* data = reinterpret_cast<int64_t*>(as_array(out)->buffer.bytes() + as_array(out)->offset);
    for_each_output(g, rows, [&](Source& s, int64_t i) {
        double nd = ns.empty() ? n.number : ns[size_t(i)];
        // n arrives as a float64: 2**63 - 1 rounds up to 2**63, past int64 (saturate, not UB).
        int64_t left = nd >= 9.2233720368547758e18 ? std::numeric_limits<int64_t>::max() : int64_t(nd);
        double mass = 1.0;  // the probability not yet given out
        int64_t* row = data + i * k;
        for (int64_t j = 0; j + 1 < k; ++j) {
            double q = mass > 0 ? std::clamp(p[size_t(j)] / mass, 0.0, 1.0) : 0.0;
            row[j] = left > 0 ? binomial(s, left, q) : 0;
            left -= row[j];
            mass -= p[size_t(j)];
        }
        if (k > 0) row[k - 1] = left;
    });
    return out;
}

// dirichlet(alpha, size=None): normalised gammas; stick-breaking betas when
// every alpha is small (the gammas would all underflow).
Value dirichlet_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    const Value* av = arg(r, 0, "alpha");
    if (!av) too_few("dirichlet", 1, r.npos);
    Value arr = as_array_value(in, *av);
    if (as_array(arr)->ndim() > 1)
        raise(types::ValueError, "setting an array element with a sequence. The requested array would exceed the maximum number of dimension of 1.");
    std::vector<double> alpha = doubles_of(arr);
    auto size = size_arg(in, r, 1);
    if (std::ranges::any_of(alpha, negative)) raise(types::ValueError, "alpha < 0");
    dag::Shape lead = size.value_or(dag::Shape{});
    int64_t k = int64_t(alpha.size()), rows = count(lead);
    check_scratch(in, rows * std::max<int64_t>(k, 1));
    Value out = new_array(DType::Float64, with_last(lead, k));
    auto* data = reinterpret_cast<double*>(as_array(out)->buffer.bytes() + as_array(out)->offset);
    bool small = std::ranges::all_of(alpha, [](double x) { return x < 0.1; });
    std::vector<double> tail(alpha.size() + 1, 0.0);  // tail[j] = sum of alpha[j:]
    for (size_t j = alpha.size(); j-- > 0;) tail[j] = tail[j + 1] + alpha[j];
    for_each_output(g, rows, [&](Source& s, int64_t i) {
        double* row = data + i * k;
        if (small) {
            double left = 1.0;
            for (int64_t j = 0; j + 1 < k; ++j) {
                double v = tail[size_t(j + 1)] > 0 ? beta(s, alpha[size_t(j)], tail[size_t(j + 1)]) : 1.0;
                row[j] = left * v;
                left -= row[j];
            }
            if (k > 0) row[k - 1] = left;
            return;
        }
        double sum = 0;
        for (int64_t j = 0; j < k; ++j) sum += row[j] = standard_gamma(s, alpha[size_t(j)]);
        for (int64_t j = 0; j < k; ++j) row[j] /= sum;
    });
    return out;
}

// Generator.multivariate_hypergeometric(colors, nsample, size=None,
// method='marginals'): each color's count is hypergeometric in what is left.
Value multivariate_hypergeometric_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    const Value* cv = arg(r, 0, "colors");
    const Value* nv = arg(r, 1, "nsample");
    if (!cv || !nv) too_few("multivariate_hypergeometric", 2, r.npos);
    const Value* mv = arg(r, 3, "method");
    if (mv && !(is_kind(*mv, OK::Str) && (mv->as<StrObj>()->s == "marginals" || mv->as<StrObj>()->s == "count")))
        raise(types::ValueError, "method must be \"count\" or \"marginals\".");
    Value carr = as_array_value(in, *cv);
    ArrayObj* ca = as_array(carr);
    std::vector<double> colors = doubles_of(carr);
    if (ca->ndim() != 1 || !(is_integer(ca->dtype) || ca->dtype == DType::Bool) ||
        std::ranges::any_of(colors, negative))
        raise(types::ValueError, "colors must be a one-dimensional sequence of nonnegative integers not exceeding 9223372036854775807.");
    int64_t nsample = to_index(*nv, "nsample");
    auto size = size_arg(in, r, 2);
    double total = std::accumulate(colors.begin(), colors.end(), 0.0);
    if (nsample < 0) raise(types::ValueError, "nsample must be nonnegative.");
    if (double(nsample) > total) raise(types::ValueError, "nsample > sum(colors)");
    dag::Shape lead = size.value_or(dag::Shape{});
    int64_t k = int64_t(colors.size()), rows = count(lead);
    check_scratch(in, rows * std::max<int64_t>(k, 1));
    Value out = new_array(DType::Int64, with_last(lead, k));
    auto* data = reinterpret_cast<int64_t*>(as_array(out)->buffer.bytes() + as_array(out)->offset);
    for_each_output(g, rows, [&](Source& s, int64_t i) {
        int64_t left = nsample, pool = int64_t(total);
        int64_t* row = data + i * k;
        for (int64_t j = 0; j + 1 < k; ++j) {
            int64_t c = int64_t(colors[size_t(j)]);
            row[j] = left > 0 ? hypergeometric(s, c, pool - c, left) : 0;
            left -= row[j];
            pool -= c;
        }
        if (k > 0) row[k - 1] = left;
    });
    return out;
}

// multivariate_normal and permuted are written in the language
// (numpy/py/random_extra.py) on top of the native draws and np.linalg.
Value call_numpy_py(Interp& in, CallArgs& a, const char* fn) {
    const Value* f = in.import_module("numpy")->get(fn);
    if (!f) raise(types::RuntimeError, std::string("numpy.") + fn + " is missing");
    return in.call(*f, a);
}
Value multivariate_normal_fn(Interp& in, CallArgs& a) { return call_numpy_py(in, a, "_random_multivariate_normal"); }
Value permuted_fn(Interp& in, CallArgs& a) { return call_numpy_py(in, a, "_random_permuted"); }

// ---- generator state ----

// Generator.spawn(n_children): independent generators keyed from this one.
Value spawn_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    expect_args(a, "spawn", 2, 2);
    int64_t n = to_index(r.pos[0], "n_children");
    // NumPy's SeedSequence takes n_children as a C int.
    if (n > INT32_MAX) raise(types::OverflowError, "value too large to convert to int");
    if (n < 0) raise(types::ValueError, "n_children must be non-negative");
    std::vector<Value> kids;
    uint64_t base = g->base++;
    for (int64_t i = 0; i < n; ++i) kids.push_back(new_generator(chunk_key(g->seed, base, uint64_t(i)) ^ 0x5EEDull));
    return make_list(std::move(kids));
}

// get_state(legacy=True): gpy's state is (seed, next round), in NumPy's
// 5-tuple layout with Philox's name; set_state takes it back.
Value get_state_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    if (const Value* legacy = arg(r, 0, "legacy"); legacy && !truthy(*legacy)) {
        // legacy=False: NumPy's dict form.
        Value st = Value::object(new DictObj());
        set_item(in, st, make_str("seed"), Value::integer(int64_t(g->seed)));
        set_item(in, st, make_str("round"), Value::integer(int64_t(g->base)));
        Value d = Value::object(new DictObj());
        set_item(in, d, make_str("bit_generator"), make_str("Philox4x32-10"));
        set_item(in, d, make_str("state"), st);
        return d;
    }
    return make_tuple({make_str("Philox4x32-10"), Value::integer(int64_t(g->seed)), Value::integer(int64_t(g->base)),
                       Value::integer(0), Value::real(0.0)});
}
Value set_state_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    expect_args(a, "set_state", 2, 2);
    const Value& st = a.pos[1];
    auto* t = is_kind(st, OK::Tuple) ? st.as<TupleObj>() : nullptr;
    if (!t || t->items.size() < 3 || !is_kind(t->items[0], OK::Str) || !t->items[1].is_intlike() || !t->items[2].is_intlike())
        raise(types::TypeError, "state must be a tuple returned by get_state()");
    if (t->items[0].as<StrObj>()->s != "Philox4x32-10")
        raise(types::ValueError, "set_state can only be used with legacy MT19937 state instances.");
    g->seed = uint64_t(t->items[1].as_int());
    g->base = uint64_t(t->items[2].as_int());
    return Value::none();
}

}  // namespace

const std::vector<MethodSpec>& rng::distribution_methods() {
    static const std::vector<MethodSpec> methods = {
        {"standard_gamma", gen_standard_gamma, "standard_gamma(shape, size=None, dtype=np.float64, out=None)",
         "Samples of Gamma(shape, 1).", true, false},
        {"standard_gamma", legacy_standard_gamma, "standard_gamma(shape, size=None)", "Samples of Gamma(shape, 1).",
         false, true},
        {"standard_exponential", gen_standard_exponential,
         "standard_exponential(size=None, dtype=np.float64, method='zig', out=None)", "Samples of Exp(1).", true, false},
        {"standard_exponential", legacy_standard_exponential, "standard_exponential(size=None)", "Samples of Exp(1).",
         false, true},
        {"gamma", gamma_fn, "gamma(shape, scale=1.0, size=None)", "Gamma samples."},
        {"beta", beta_fn, "beta(a, b, size=None)", "Beta samples."},
        {"chisquare", chisquare_fn, "chisquare(df, size=None)", "Chi-square samples."},
        {"f", f_fn, "f(dfnum, dfden, size=None)", "F (Fisher-Snedecor) samples."},
        {"noncentral_chisquare", noncentral_chisquare_fn, "noncentral_chisquare(df, nonc, size=None)",
         "Noncentral chi-square samples."},
        {"noncentral_f", noncentral_f_fn, "noncentral_f(dfnum, dfden, nonc, size=None)", "Noncentral F samples."},
        {"standard_t", standard_t_fn, "standard_t(df, size=None)", "Student's t samples."},
        {"standard_cauchy", standard_cauchy_fn, "standard_cauchy(size=None)", "Standard Cauchy (Lorentz) samples."},
        {"lognormal", lognormal_fn, "lognormal(mean=0.0, sigma=1.0, size=None)", "Log-normal samples."},
        {"laplace", laplace_fn, "laplace(loc=0.0, scale=1.0, size=None)", "Laplace (double exponential) samples."},
        {"logistic", logistic_fn, "logistic(loc=0.0, scale=1.0, size=None)", "Logistic samples."},
        {"gumbel", gumbel_fn, "gumbel(loc=0.0, scale=1.0, size=None)", "Gumbel samples."},
        {"pareto", pareto_fn, "pareto(a, size=None)", "Pareto II (Lomax) samples."},
        {"power", power_fn, "power(a, size=None)", "Samples of the power distribution, in [0, 1]."},
        {"weibull", weibull_fn, "weibull(a, size=None)", "Weibull samples."},
        {"rayleigh", rayleigh_fn, "rayleigh(scale=1.0, size=None)", "Rayleigh samples."},
        {"wald", wald_fn, "wald(mean, scale, size=None)", "Wald (inverse Gaussian) samples."},
        {"vonmises", vonmises_fn, "vonmises(mu, kappa, size=None)", "Von Mises samples, in [-pi, pi]."},
        {"triangular", triangular_fn, "triangular(left, mode, right, size=None)", "Triangular samples."},
        {"poisson", poisson_fn, "poisson(lam=1.0, size=None)", "Poisson samples (int64)."},
        {"binomial", gen_binomial, "binomial(n, p, size=None)", "Binomial samples (int64).", true, false},
        {"binomial", legacy_binomial, "binomial(n, p, size=None)", "Binomial samples (int64).", false, true},
        {"negative_binomial", negative_binomial_fn, "negative_binomial(n, p, size=None)",
         "Negative binomial samples (int64)."},
        {"geometric", geometric_fn, "geometric(p, size=None)", "Geometric samples: trials to the first success."},
        {"zipf", zipf_fn, "zipf(a, size=None)", "Zipf samples (int64)."},
        {"logseries", logseries_fn, "logseries(p, size=None)", "Logarithmic series samples (int64)."},
        {"hypergeometric", gen_hypergeometric, "hypergeometric(ngood, nbad, nsample, size=None)",
         "Hypergeometric samples (int64).", true, false},
        {"hypergeometric", legacy_hypergeometric, "hypergeometric(ngood, nbad, nsample, size=None)",
         "Hypergeometric samples (int64).", false, true},
        {"multinomial", multinomial_fn, "multinomial(n, pvals, size=None)", "Multinomial counts (int64)."},
        {"dirichlet", dirichlet_fn, "dirichlet(alpha, size=None)", "Dirichlet samples."},
        {"multivariate_hypergeometric", multivariate_hypergeometric_fn,
         "multivariate_hypergeometric(colors, nsample, size=None, method='marginals')",
         "Multivariate hypergeometric counts (int64).", true, false},
        {"multivariate_normal", multivariate_normal_fn,
         "multivariate_normal(mean, cov, size=None, check_valid='warn', tol=1e-8, method='svd')",
         "Multivariate normal samples.", true, false},
        {"multivariate_normal", multivariate_normal_fn,
         "multivariate_normal(mean, cov, size=None, check_valid='warn', tol=1e-8)", "Multivariate normal samples.",
         false, true},
        {"permuted", permuted_fn, "permuted(x, axis=None, out=None)",
         "x with each slice along axis shuffled independently.", true, false},
        {"spawn", spawn_fn, "spawn(n_children)", "A list of n_children independent Generators.", true, false},
        {"get_state", get_state_fn, "get_state(legacy=True)", "The global generator's state.", false, true},
        {"set_state", set_state_fn, "set_state(state)", "Restores a state from get_state().", false, true},
    };
    return methods;
}

}  // namespace gpy
