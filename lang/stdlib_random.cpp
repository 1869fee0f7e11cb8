// Python's random module, natively, with CPython 3.11's generator and
// algorithms: MT19937 seeded by init_by_array from the seed's 32-bit words,
// random() from 53 bits, _randbelow by rejection over getrandbits, and
// shuffle/sample/choices/gauss/... as random.py computes them, so a seeded
// script prints what CPython prints. Random(seed) objects and the module's
// functions (one hidden instance) share the code.
#include <chrono>
#include <cmath>
#include <random>
#include <unordered_set>

#include "lang/stdlib_modules.h"

namespace gpy {

namespace {

TypeObject* random_type();

struct RandomObj : Object {
    uint32_t mt[624];
    int mti = 625;
    bool has_gauss = false;
    double gauss_next = 0;
    RandomObj() : Object(random_type()) {}

    void init_genrand(uint32_t s) {
        mt[0] = s;
        for (mti = 1; mti < 624; ++mti) mt[mti] = 1812433253u * (mt[mti - 1] ^ (mt[mti - 1] >> 30)) + uint32_t(mti);
    }
    void init_by_array(const std::vector<uint32_t>& key) {
        init_genrand(19650218u);
        size_t i = 1, j = 0;
        const size_t n = key.size();
        for (size_t k = std::max<size_t>(624, n); k; --k) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + uint32_t(j);
            ++i;
            ++j;
            if (i >= 624) {
                mt[0] = mt[623];
                i = 1;
            }
            if (j >= n) j = 0;
        }
        for (size_t k = 623; k; --k) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - uint32_t(i);
            ++i;
            if (i >= 624) {
                mt[0] = mt[623];
                i = 1;
            }
        }
        mt[0] = 0x80000000u;
        mti = 624;
    }
    uint32_t next32() {
        static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
        if (mti >= 624) {
            int kk = 0;
            for (; kk < 624 - 397; ++kk) {
                const uint32_t y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
                mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1u];
            }
            for (; kk < 623; ++kk) {
                const uint32_t y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
                mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1u];
            }
            const uint32_t y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
            mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1u];
            mti = 0;
        }
        uint32_t y = mt[mti++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        return y;
    }
    double random() {
        const uint32_t a = next32() >> 5, b = next32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }
    // getrandbits(k) for k <= 64 (gpy's ints are 64-bit).
    uint64_t bits(int k) {
        if (k <= 32) return k == 0 ? 0 : next32() >> (32 - k);
        const uint64_t lo = next32();
        const uint64_t hi = next32() >> (64 - k);
        return lo | (hi << 32);
    }
    // CPython's _randbelow_with_getrandbits(n), n > 0.
    uint64_t below(uint64_t n) {
        const int k = 64 - __builtin_clzll(n);
        uint64_t r = bits(k);
        while (r >= n) r = bits(k);
        return r;
    }
    void seed_value(Interp& in, const Value* a) {
        std::vector<uint32_t> key;
        uint64_t x = 0;
        if (!a || a->is_none()) {
            // Fresh entropy (CPython: os.urandom): 624 words' worth is more than needed.
            std::random_device rd;
            for (int k = 0; k < 8; ++k) key.push_back(rd());
            init_by_array(key);
            has_gauss = false;
            return;
        }
        if (a->kind == VK::Int || a->kind == VK::Bool) {
            const int64_t v = a->as_int();
            x = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
        } else if (a->kind == VK::Float) {
            x = uint64_t(hash_double(a->f));  // CPython seeds a float by its hash, as a size_t
        } else {
            raise(types::TypeError, std::string("The only supported seed types are: None, int, float (gpy; CPython also takes str, bytes and bytearray), not ") +
                                        type_name(*a));
        }
        (void)in;
        key.push_back(uint32_t(x));
        if (x >> 32) key.push_back(uint32_t(x >> 32));
        init_by_array(key);
        has_gauss = false;
    }
};

RandomObj* self_random(CallArgs& a) { return static_cast<RandomObj*>(a.pos[0].o); }
CallArgs rest_args(CallArgs& a) { return CallArgs{a.pos + 1, a.npos - 1, a.kw}; }

int64_t int_arg(const Value& v, const char* what) {
    int64_t x = 0;
    if (v.kind == VK::Float) {
        if (v.f != std::floor(v.f)) raise(types::TypeError, std::string("'float' object cannot be interpreted as an integer"));
        return int64_t(v.f);
    }
    if (!index_value(v, x)) raise(types::TypeError, std::string("'") + type_name(v) + "' object cannot be interpreted as an integer");
    (void)what;
    return x;
}

Value r_seed(Interp& in, CallArgs& a) {
    CallArgs r = rest_args(a);
    self_random(a)->seed_value(in, stdlib_arg(r, 0, "a"));
    return Value::none();
}
Value r_random(Interp&, CallArgs& a) { return Value::real(self_random(a)->random()); }
Value r_getrandbits(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    const int64_t k = index_arg(stdlib_need(r, 0, "k", "getrandbits"));
    if (k < 0) raise(types::ValueError, "number of bits must be non-negative");
    if (k > 63) raise(types::OverflowError, "getrandbits(k) above 63 bits needs integers of any size (not in gpy yet)");
    return Value::integer(int64_t(self_random(a)->bits(int(k))));
}

// randrange(start, stop=None, step=1), as random.py 3.11.
int64_t randrange(RandomObj* g, CallArgs& r) {
    const Value& start_v = stdlib_need(r, 0, "start", "randrange");
    const int64_t istart = int_arg(start_v, "start");
    const Value* stop_v = stdlib_arg(r, 1, "stop");
    const Value* step_v = stdlib_arg(r, 2, "step");
    if (!stop_v || stop_v->is_none()) {
        if (step_v && !(step_v->kind == VK::Int && step_v->i == 1)) raise(types::TypeError, "Missing a non-None stop argument");
        if (istart > 0) return int64_t(g->below(uint64_t(istart)));
        raise(types::ValueError, "empty range for randrange()");
    }
    const int64_t istop = int_arg(*stop_v, "stop");
    const int64_t width = istop - istart;
    const int64_t istep = step_v ? int_arg(*step_v, "step") : 1;
    if (istep == 1) {
        if (width > 0) return istart + int64_t(g->below(uint64_t(width)));
        raise(types::ValueError, "empty range for randrange() (" + std::to_string(istart) + ", " + std::to_string(istop) + ", " +
                                     std::to_string(width) + ")");
    }
    int64_t n;
    if (istep > 0) n = (width + istep - 1) / istep;
    else if (istep < 0) n = (width + istep + 1) / istep;
    else raise(types::ValueError, "zero step for randrange()");
    if (n <= 0) raise(types::ValueError, "empty range for randrange()");
    return istart + istep * int64_t(g->below(uint64_t(n)));
}

Value r_randrange(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    return Value::integer(randrange(self_random(a), r));
}

Value r_randint(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    if (r.npos != 2) raise(types::TypeError, "randint() missing required arguments 'a' and 'b'");
    Value args[2] = {r[0], Value::integer(int_arg(r[1], "b") + 1)};
    CallArgs c{args, 2, nullptr};
    return Value::integer(randrange(self_random(a), c));
}

Value r_choice(Interp& in, CallArgs& a) {
    CallArgs r = rest_args(a);
    const Value& seq = stdlib_need(r, 0, "seq", "choice");
    const int64_t n = length(in, seq);
    if (n == 0) raise(types::IndexError, "Cannot choose from an empty sequence");
    return get_item(in, seq, Value::integer(int64_t(self_random(a)->below(uint64_t(n)))));
}

Value r_shuffle(Interp& in, CallArgs& a) {
    CallArgs r = rest_args(a);
    const Value& x = stdlib_need(r, 0, "x", "shuffle");
    RandomObj* g = self_random(a);
    const int64_t n = length(in, x);
    for (int64_t i = n - 1; i > 0; --i) {
        const int64_t j = int64_t(g->below(uint64_t(i + 1)));
        Value xi = get_item(in, x, Value::integer(i)), xj = get_item(in, x, Value::integer(j));
        set_item(in, x, Value::integer(i), xj);
        set_item(in, x, Value::integer(j), xi);
    }
    return Value::none();
}

Value r_sample(Interp& in, CallArgs& a) {
    CallArgs r = rest_args(a);
    const Value& pop = stdlib_need(r, 0, "population", "sample");
    if (is_kind(pop, OK::Set) || is_kind(pop, OK::Dict))
        raise(types::TypeError, "Population must be a sequence.  For dicts or sets, use sorted(d).");
    const int64_t k = index_arg(stdlib_need(r, 1, "k", "sample"));
    if (kwarg(r, "counts")) raise(types::NotImplementedError, "sample(counts=) is not supported yet");
    RandomObj* g = self_random(a);
    const int64_t n = length(in, pop);
    if (k < 0 || k > n) raise(types::ValueError, "Sample larger than population or is negative");
    std::vector<Value> result(static_cast<size_t>(k));
    int64_t setsize = 21;
    if (k > 5) setsize += int64_t(std::pow(4.0, std::ceil(std::log(double(k) * 3) / std::log(4.0))));
    if (n <= setsize) {
        std::vector<Value> pool = to_vector(in, pop);
        for (int64_t i = 0; i < k; ++i) {
            const int64_t j = int64_t(g->below(uint64_t(n - i)));
            result[size_t(i)] = pool[size_t(j)];
            pool[size_t(j)] = pool[size_t(n - i - 1)];
        }
    } else {
        std::unordered_set<int64_t> selected;  // a set, as CPython's (n may be huge)
        for (int64_t i = 0; i < k; ++i) {
            int64_t j = int64_t(g->below(uint64_t(n)));
            while (selected.count(j)) j = int64_t(g->below(uint64_t(n)));
            selected.insert(j);
            result[size_t(i)] = get_item(in, pop, Value::integer(j));
        }
    }
    return make_list(std::move(result));
}

Value r_choices(Interp& in, CallArgs& a) {
    CallArgs r = rest_args(a);
    const Value& pop = stdlib_need(r, 0, "population", "choices");
    const Value* weights = stdlib_arg(r, 1, "weights");
    const Value* cum = kwarg(r, "cum_weights");
    const Value* kv = kwarg(r, "k");
    const int64_t k = kv ? index_arg(*kv) : 1;
    RandomObj* g = self_random(a);
    const int64_t n = length(in, pop);
    std::vector<Value> out;
    if ((!weights || weights->is_none()) && (!cum || cum->is_none())) {
        for (int64_t i = 0; i < k; ++i) out.push_back(get_item(in, pop, Value::integer(int64_t(std::floor(g->random() * double(n))))));
        return make_list(std::move(out));
    }
    if (weights && !weights->is_none() && cum && !cum->is_none()) raise(types::TypeError, "Cannot specify both weights and cumulative weights");
    std::vector<double> c;
    if (cum && !cum->is_none()) {
        for (const Value& w : to_vector(in, *cum)) c.push_back(to_double(w, "choices"));
    } else {
        double acc = 0;
        for (const Value& w : to_vector(in, *weights)) c.push_back(acc += to_double(w, "choices"));
    }
    if (int64_t(c.size()) != n) raise(types::ValueError, "The number of weights does not match the population");
    if (n == 0) raise(types::IndexError, "Cannot choose from an empty population");
    const double total = c.back() + 0.0;
    if (total <= 0.0) raise(types::ValueError, "Total of weights must be greater than zero");
    if (!std::isfinite(total)) raise(types::ValueError, "Total of weights must be finite");
    for (int64_t i = 0; i < k; ++i) {
        const double x = g->random() * total;
        // bisect_right(cum_weights, x, 0, n - 1)
        int64_t lo = 0, hi = n - 1;
        while (lo < hi) {
            const int64_t mid = (lo + hi) / 2;
            if (x < c[size_t(mid)]) hi = mid;
            else lo = mid + 1;
        }
        out.push_back(get_item(in, pop, Value::integer(lo)));
    }
    return make_list(std::move(out));
}

double num(CallArgs& r, size_t pos, const char* name, double dflt, const char* fname) {
    const Value* v = stdlib_arg(r, pos, name);
    return v ? to_double(*v, fname) : dflt;
}

Value r_uniform(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    const double lo = to_double(stdlib_need(r, 0, "a", "uniform"), "uniform"), hi = to_double(stdlib_need(r, 1, "b", "uniform"), "uniform");
    return Value::real(lo + (hi - lo) * self_random(a)->random());
}

Value r_gauss(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    RandomObj* g = self_random(a);
    const double mu = num(r, 0, "mu", 0.0, "gauss"), sigma = num(r, 1, "sigma", 1.0, "gauss");
    double z;
    if (g->has_gauss) {
        z = g->gauss_next;
        g->has_gauss = false;
    } else {
        const double x2pi = g->random() * 2.0 * M_PI;
        const double g2rad = std::sqrt(-2.0 * std::log(1.0 - g->random()));
        z = std::cos(x2pi) * g2rad;
        g->gauss_next = std::sin(x2pi) * g2rad;
        g->has_gauss = true;
    }
    return Value::real(mu + z * sigma);
}

double normal(RandomObj* g, double mu, double sigma) {
    static const double magic = 4 * std::exp(-0.5) / std::sqrt(2.0);
    double z;
    for (;;) {
        const double u1 = g->random(), u2 = 1.0 - g->random();
        z = magic * (u1 - 0.5) / u2;
        if (z * z / 4.0 <= -std::log(u2)) break;
    }
    return mu + z * sigma;
}

Value r_normalvariate(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    return Value::real(normal(self_random(a), num(r, 0, "mu", 0.0, "normalvariate"), num(r, 1, "sigma", 1.0, "normalvariate")));
}
Value r_lognormvariate(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    return Value::real(std::exp(normal(self_random(a), to_double(stdlib_need(r, 0, "mu", "lognormvariate"), "lognormvariate"),
                                       to_double(stdlib_need(r, 1, "sigma", "lognormvariate"), "lognormvariate"))));
}
Value r_expovariate(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    const double lambd = num(r, 0, "lambd", 1.0, "expovariate");
    if (lambd == 0) raise(types::ZeroDivisionError, "float division by zero");
    return Value::real(-std::log(1.0 - self_random(a)->random()) / lambd);
}
Value r_triangular(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    RandomObj* g = self_random(a);
    double low = num(r, 0, "low", 0.0, "triangular"), high = num(r, 1, "high", 1.0, "triangular");
    const Value* mode = stdlib_arg(r, 2, "mode");
    double u = g->random(), c;
    if (!mode || mode->is_none()) c = 0.5;
    else {
        if (high == low) return Value::real(low);
        c = (to_double(*mode, "triangular") - low) / (high - low);
    }
    if (u > c) {
        u = 1.0 - u;
        c = 1.0 - c;
        std::swap(low, high);
    }
    return Value::real(low + (high - low) * std::sqrt(u * c));
}
Value r_paretovariate(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    const double alpha = to_double(stdlib_need(r, 0, "alpha", "paretovariate"), "paretovariate");
    return Value::real(std::pow(1.0 - self_random(a)->random(), -1.0 / alpha));
}
Value r_weibullvariate(Interp&, CallArgs& a) {
    CallArgs r = rest_args(a);
    const double alpha = to_double(stdlib_need(r, 0, "alpha", "weibullvariate"), "weibullvariate");
    const double beta = to_double(stdlib_need(r, 1, "beta", "weibullvariate"), "weibullvariate");
    return Value::real(alpha * std::pow(-std::log(1.0 - self_random(a)->random()), 1.0 / beta));
}

Value r_getstate(Interp&, CallArgs& a) {
    RandomObj* g = self_random(a);
    std::vector<Value> words;
    for (uint32_t w : g->mt) words.push_back(Value::integer(w));
    words.push_back(Value::integer(g->mti));
    return make_tuple({Value::integer(3), make_tuple(std::move(words)), g->has_gauss ? Value::real(g->gauss_next) : Value::none()});
}
Value r_setstate(Interp& in, CallArgs& a) {
    CallArgs r = rest_args(a);
    const Value& st = stdlib_need(r, 0, "state", "setstate");
    std::vector<Value> parts = to_vector(in, st);
    if (parts.size() != 3 || !parts[0].is_intlike() || parts[0].as_int() != 3)
        raise(types::ValueError, "state with version " + (parts.empty() ? std::string("?") : repr(in, parts[0])) +
                                     " passed to Random.setstate() of version 3");
    std::vector<Value> words = to_vector(in, parts[1]);
    if (words.size() != 625) raise(types::ValueError, "state vector is the wrong size");
    RandomObj* g = self_random(a);
    for (int k = 0; k < 624; ++k) g->mt[k] = uint32_t(index_arg(words[size_t(k)]));
    const int64_t pos = index_arg(words[624]);
    if (pos < 0 || pos > 624) raise(types::ValueError, "invalid state");
    g->mti = int(pos);
    g->has_gauss = !parts[2].is_none();
    if (g->has_gauss) g->gauss_next = to_double(parts[2], "setstate");
    return Value::none();
}

// copy.copy / deepcopy of a Random: an independent generator in the same state.
Value r_copy(Interp&, CallArgs& a) {
    auto* g = new RandomObj();
    Value keep = Value::object(g);
    RandomObj* src = self_random(a);
    std::copy(std::begin(src->mt), std::end(src->mt), std::begin(g->mt));
    g->mti = src->mti;
    g->has_gauss = src->has_gauss;
    g->gauss_next = src->gauss_next;
    return keep;
}

Value random_construct(Interp& in, CallArgs& a) {
    auto* g = new RandomObj();
    Value keep = Value::object(g);
    g->seed_value(in, a.npos ? &a.pos[0] : kwarg(a, "x"));
    return keep;
}

struct Method {
    const char* name;
    NativeFn fn;
    const char* sig;
    const char* doc;
};
const Method kMethods[] = {
    {"seed", r_seed, "seed(a=None, version=2)", "Initialize internal state from a seed."},
    {"random", r_random, "random()", "x in the interval [0, 1)."},
    {"getrandbits", r_getrandbits, "getrandbits(k, /)", "getrandbits(k) -> x.  Generates an int with k random bits."},
    {"randrange", r_randrange, "randrange(start, stop=None, step=1)", "Choose a random item from range(stop) or range(start, stop[, step])."},
    {"randint", r_randint, "randint(a, b)", "Return random integer in range [a, b], including both end points."},
    {"choice", r_choice, "choice(seq)", "Choose a random element from a non-empty sequence."},
    {"shuffle", r_shuffle, "shuffle(x)", "Shuffle list x in place, and return None."},
    {"sample", r_sample, "sample(population, k, *, counts=None)", "Chooses k unique random elements from a population sequence."},
    {"choices", r_choices, "choices(population, weights=None, *, cum_weights=None, k=1)", "Return a k sized list of population elements chosen with replacement."},
    {"uniform", r_uniform, "uniform(a, b)", "Get a random number in the range [a, b) or [a, b] depending on rounding."},
    {"gauss", r_gauss, "gauss(mu=0.0, sigma=1.0)", "Gaussian distribution."},
    {"normalvariate", r_normalvariate, "normalvariate(mu=0.0, sigma=1.0)", "Normal distribution."},
    {"lognormvariate", r_lognormvariate, "lognormvariate(mu, sigma)", "Log normal distribution."},
    {"expovariate", r_expovariate, "expovariate(lambd=1.0)", "Exponential distribution."},
    {"triangular", r_triangular, "triangular(low=0.0, high=1.0, mode=None)", "Triangular distribution."},
    {"paretovariate", r_paretovariate, "paretovariate(alpha)", "Pareto distribution."},
    {"weibullvariate", r_weibullvariate, "weibullvariate(alpha, beta)", "Weibull distribution."},
    {"getstate", r_getstate, "getstate()", "Return internal state; can be passed to setstate() later."},
    {"setstate", r_setstate, "setstate(state)", "Restore internal state from object returned by getstate()."},
};

TypeObject* random_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("random.Random", nullptr, OK::Other);
        t->construct = random_construct;
        for (const Method& m : kMethods) def_method(t, m.name, m.fn, m.sig, m.doc);
        def_method(t, "__copy__", r_copy, "__copy__()", "An independent generator in the same state.");
        return t;
    }();
    return t;
}

}  // namespace

ModuleObj* make_random(Interp& in) {
    auto* m = new ModuleObj("random");
    m->doc = "Random variable generators (Python's random: MT19937, CPython's algorithms).";
    m->set("Random", Value::object(random_type()));
    // The module's functions are methods of one hidden instance (as random.py's _inst).
    CallArgs none{nullptr, 0, nullptr};
    Value inst = random_construct(in, none);
    for (const Method& f : kMethods) {
        auto* b = new BuiltinObj(f.name, f.fn, f.sig, f.doc);
        b->bound = inst;
        m->set(f.name, Value::object(b));
    }
    return m;
}

}  // namespace gpy
