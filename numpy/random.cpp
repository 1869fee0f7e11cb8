// np.random: NumPy's legacy functions on a per-interpreter global generator
// and default_rng()'s Generator, both drawing from Philox4x32-10 laid out as
// cuRAND's generator (runtime/philox.h). A generator is (seed, base): each
// draw takes whole rounds of counters from `base`, so output i of a draw is a
// function of (seed, base, i) and chunks fill in parallel.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "runtime/array_memory.h"
#include "runtime/backend.h"
#include "runtime/philox.h"
#include "runtime/philox_cuda.h"
#include "runtime/thread_pool.h"
#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/random_generator.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace rng;

namespace {

constexpr int64_t kGrain = 1 << 16;  // outputs per parallel chunk

uint64_t entropy_seed() {
    std::random_device rd;
    return uint64_t(rd()) << 32 | rd();
}

// ---- filling arrays ----

// The same draw as a host fill, made by the GPU's fill kernel when arrays
// live on a CUDA device (runtime/philox_cuda.h).
struct DeviceDraw {
    philox::DeviceFill kind;
    philox::Stream stream;
    double a = 0, b = 0;  // normals: mean, stddev
};

// A fresh C-contiguous array of `shape` whose chunks fill(begin, end, T* out)
// writes, or the GPU fills with `gpu`.
template <class T, class Fill>
Value generate(DType dt, const dag::Shape& shape, Fill fill, const DeviceDraw* gpu = nullptr) {
    Value out = new_array(dt, shape);
    auto* arr = out.as<ArrayObj>();
    if (Backend* device = array_backend(); gpu && device && arr->size() > 0) {
        try {
            if (device->fill_random(gpu->kind, gpu->stream, uint64_t(arr->size()), gpu->a, gpu->b, arr->buffer.device_bytes() + arr->offset))
                return out;
        } catch (const std::runtime_error& e) {  // driver errors, or NVRTC rejecting the fill kernels
            raise(types::RuntimeError, e.what());
        }
    }
    T* data = reinterpret_cast<T*>(arr->buffer.bytes() + arr->offset);
    parallel_for(arr->size(), kGrain, [&](int64_t b, int64_t e) { fill(uint64_t(b), uint64_t(e), data + b); });
    return out;
}

int64_t count(const dag::Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

Value uniform_doubles(GeneratorObj* g, const dag::Shape& shape) {
    philox::Stream s = g->take(uint64_t(count(shape)), 2);
    DeviceDraw gpu{philox::DeviceFill::UniformDouble, s};
    return generate<double>(DType::Float64, shape, [&](uint64_t b, uint64_t e, double* o) {
        philox::fill_uniform_double(s, b, e, o);
    }, &gpu);
}
double uniform_double(GeneratorObj* g) {
    double u;
    philox::fill_uniform_double(g->take(1, 2), 0, 1, &u);
    return u;
}
double normal_double(GeneratorObj* g, double loc, double scale) {
    double z;
    philox::fill_normal_double(g->take(1, 2), 0, 1, loc, scale, &z);
    return z;
}
// Unbiased integers in [0, max]; output i of the draw is offsets[i].
void bounded(GeneratorObj* g, uint64_t n, uint64_t max, uint64_t* out) {
    philox::Stream s = g->take(n, max > 0xFFFFFFFFull ? 2 : 1);
    parallel_for(int64_t(n), kGrain, [&](int64_t b, int64_t e) { philox::fill_bounded(s, b, e, max, out + b); });
}

}  // namespace

namespace rng {

Value normal_doubles(GeneratorObj* g, const dag::Shape& shape, double loc, double scale) {
    philox::Stream s = g->take(uint64_t(count(shape)), 2);
    DeviceDraw gpu{philox::DeviceFill::NormalDouble, s, loc, scale};
    return generate<double>(DType::Float64, shape, [&](uint64_t b, uint64_t e, double* o) {
        philox::fill_normal_double(s, b, e, loc, scale, o);
    }, &gpu);
}
// ---- arguments ----

// Host scratch of n 8-byte values: NumPy's ValueError past int64, the
// interpreter's array limit, then the allocator.
void check_scratch(Interp& in, int64_t n) {
    checked_size(dag::Shape{n}, DType::Int64);
    check_array_bytes(size_t(std::max<int64_t>(n, 0)) * 8);
    check_host_bytes(in, uint64_t(std::max<int64_t>(n, 0)) * 8);  // past the machine's memory: MemoryError first
}

// size=: a shape whose samples (8 bytes at most) fit, checked before any
// scratch vector is sized by it.
std::optional<dag::Shape> size_arg(Interp& in, CallArgs& a, size_t pos) {
    const Value* v = arg_not_none(a, pos, "size");
    if (!v) return std::nullopt;
    dag::Shape s = shape_arg(in, *v);
    check_scratch(in, checked_size(s, DType::Int64));
    return s;
}

DrawParam param(Interp& in, CallArgs& a, size_t pos, const char* name, double dflt) {
    const Value* v = arg(a, pos, name);
    if (!v) return DrawParam{Value::real(dflt), false, dflt};
    if (v->is_none()) raise(types::TypeError, "must be real number, not NoneType");
    if (as_complex(*v)) raise(types::TypeError, "float() argument must be a string or a real number, not 'complex'");
    if (v->is_number()) return DrawParam{*v, false, v->as_float()};
    // NumPy reads every parameter as float64 under the 'safe' rule, except
    // that a complex64 scalar goes through float() (losing its imaginary part).
    Value x = as_array_value(in, *v);
    ArrayObj* xa = x.as<ArrayObj>();
    if (is_complex(xa->dtype) && !(xa->numpy_scalar && xa->dtype == DType::Complex64))
        raise(types::TypeError, std::string("Cannot cast ") + (xa->ndim() == 0 ? "scalar" : "array data") + " from dtype('" +
                                    gpy::name(xa->dtype) + "') to dtype('float64') according to the rule 'safe'");
    if (xa->dtype != DType::Float64) x = array_from_node(dag::make_cast(array_node(xa), DType::Float64), xa->numpy_scalar);
    return DrawParam{x, true, 0.0};
}

// The values of an array as float64, C order.
std::vector<double> doubles_of(const Value& v) {
    ArrayObj* a = as_array(v);
    dag::NodeP n = array_node(a);
    if (a->dtype != DType::Float64) n = dag::make_cast(n, DType::Float64);
    Value c = compute_into_new(n, DType::Float64, a->shape);
    auto* ca = c.as<ArrayObj>();
    const double* p = reinterpret_cast<const double*>(ca->buffer.bytes() + ca->offset);
    return std::vector<double>(p, p + ca->size());
}

void check_scale(const DrawParam& scale) {
    bool negative = scale.is_array ? std::ranges::any_of(doubles_of(scale.value), [](double x) { return x < 0; })
                                   : scale.number < 0;
    if (negative) raise(types::ValueError, "scale < 0");
}

// The output shape of a draw with array parameters: size, or their broadcast shape.
dag::Shape draw_shape(const std::optional<dag::Shape>& size, std::initializer_list<const DrawParam*> params) {
    if (size) return *size;
    std::vector<const dag::Shape*> shapes;
    for (const DrawParam* p : params)
        if (p->is_array) shapes.push_back(&as_array(p->value)->shape);
    return broadcast_shapes(shapes);
}

// `loc + scale * x` for array parameters; raises if the parameters do not
// broadcast to size.
Value affine(Interp& in, const DrawParam& loc, const DrawParam& scale, Value x) {
    Value out = apply_ufunc(in, Ufunc::add, {loc.value, apply_ufunc(in, Ufunc::multiply, {scale.value, x})});
    if (as_array(out)->shape != as_array(x)->shape)
        raise(types::ValueError, "shape mismatch: objects cannot be broadcast to a single shape");
    return out;
}

}  // namespace rng

namespace {

// ---- float draws ----

// dtype= (argument 1) of a float draw: float64 or float32, for the Generator
// methods (`with_dtype`); the legacy functions draw float64.
DType float_draw_dtype(Interp& in, CallArgs& r, bool with_dtype, const char* fname) {
    DType dt = with_dtype ? dtype_arg(in, r, 1).value_or(DType::Float64) : DType::Float64;
    if (dt != DType::Float64 && dt != DType::Float32)
        raise(types::TypeError, std::string("Unsupported dtype dtype('") + name(dt) + "') for " + fname);
    return dt;
}

// random(size=None) / random_sample / Generator.random(size=None, dtype=float64)
Value random_impl(Interp& in, CallArgs& a, bool with_dtype) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    auto size = size_arg(in, r, 0);
    DType dt = float_draw_dtype(in, r, with_dtype, "random");
    if (dt == DType::Float64) return size ? uniform_doubles(g, *size) : Value::real(uniform_double(g));
    // cuRAND's float uniforms lie in (0, 1]; NumPy promises [0, 1), so 1.0f wraps to 0.
    auto fix = [](float u) { return u == 1.0f ? 0.0f : u; };
    dag::Shape shape = size.value_or(dag::Shape{});
    philox::Stream s = g->take(uint64_t(count(shape)), 1);
    DeviceDraw gpu{philox::DeviceFill::UniformFloat, s};  // the kernel applies the same fix
    Value out = generate<float>(DType::Float32, shape, [&](uint64_t b, uint64_t e, float* o) {
        philox::fill_uniform_float(s, b, e, o);
        for (uint64_t i = 0; i < e - b; ++i) o[i] = fix(o[i]);
    }, &gpu);
    if (!size) return Value::real(*reinterpret_cast<float*>(as_array(out)->buffer.bytes()));
    return out;
}
Value legacy_random(Interp& in, CallArgs& a) { return random_impl(in, a, false); }
Value gen_random(Interp& in, CallArgs& a) { return random_impl(in, a, true); }

// rand(d0, d1, ...) / randn(d0, d1, ...): the shape as positional arguments.
dag::Shape dims_args(CallArgs& r) {
    dag::Shape shape;
    for (size_t k = 0; k < r.npos; ++k) shape.push_back(to_index(r.pos[k], "dimensions"));
    return shape;
}
// rand/randn take dimensions only (NumPy's TypeError for any keyword).
void no_keywords(const CallArgs& a, const char* fname) {
    if (a.nkw()) raise(types::TypeError, std::string(fname) + "() got an unexpected keyword argument '" + (*a.kw)[0].first + "'");
}

Value rand_fn(Interp& in, CallArgs& a) {
    no_keywords(a, "rand");
    CallArgs r = rest(a);
    if (r.npos == 0) return Value::real(uniform_double(self_of(a)));
    return uniform_doubles(self_of(a), dims_args(r));
}
Value randn_fn(Interp& in, CallArgs& a) {
    no_keywords(a, "randn");
    CallArgs r = rest(a);
    if (r.npos == 0) return Value::real(normal_double(self_of(a), 0.0, 1.0));
    return normal_doubles(self_of(a), dims_args(r), 0.0, 1.0);
}

// uniform(low=0.0, high=1.0, size=None): low + (high - low) * U.
Value uniform_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    DrawParam low = param(in, r, 0, "low", 0.0), high = param(in, r, 1, "high", 1.0);
    auto size = size_arg(in, r, 2);
    if (!low.is_array && !high.is_array) {
        double lo = low.number, span = high.number - low.number;
        if (!size) return Value::real(lo + span * uniform_double(g));
        philox::Stream s = g->take(uint64_t(count(*size)), 2);
        return generate<double>(DType::Float64, *size, [&](uint64_t b, uint64_t e, double* o) {
            philox::fill_uniform_double(s, b, e, o);
            for (uint64_t i = 0; i < e - b; ++i) o[i] = lo + span * o[i];
        });
    }
    Value u = uniform_doubles(g, draw_shape(size, {&low, &high}));
    DrawParam span{apply_ufunc(in, Ufunc::subtract, {high.value, low.value}), true, 0.0};
    return affine(in, low, span, u);
}

// normal(loc=0.0, scale=1.0, size=None); with number parameters the values
// are curandGenerateNormalDouble(loc, scale)'s.
Value normal_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    DrawParam loc = param(in, r, 0, "loc", 0.0), scale = param(in, r, 1, "scale", 1.0);
    auto size = size_arg(in, r, 2);
    check_scale(scale);
    if (!loc.is_array && !scale.is_array) {
        if (!size) return Value::real(normal_double(g, loc.number, scale.number));
        return normal_doubles(g, *size, loc.number, scale.number);
    }
    return affine(in, loc, scale, normal_doubles(g, draw_shape(size, {&loc, &scale}), 0.0, 1.0));
}

// standard_normal(size=None) (Generator: dtype=float64 | float32).
Value standard_normal_impl(Interp& in, CallArgs& a, bool with_dtype) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    auto size = size_arg(in, r, 0);
    DType dt = float_draw_dtype(in, r, with_dtype, "standard_normal");
    if (dt == DType::Float64) return size ? normal_doubles(g, *size, 0.0, 1.0) : Value::real(normal_double(g, 0.0, 1.0));
    dag::Shape shape = size.value_or(dag::Shape{});
    philox::Stream s = g->take(uint64_t(count(shape)), 1);
    DeviceDraw gpu{philox::DeviceFill::NormalFloat, s, 0.0, 1.0};
    Value out = generate<float>(DType::Float32, shape, [&](uint64_t b, uint64_t e, float* o) {
        philox::fill_normal_float(s, b, e, 0.0f, 1.0f, o);
    }, &gpu);
    if (!size) return Value::real(*reinterpret_cast<float*>(as_array(out)->buffer.bytes()));
    return out;
}
Value legacy_standard_normal(Interp& in, CallArgs& a) { return standard_normal_impl(in, a, false); }
Value gen_standard_normal(Interp& in, CallArgs& a) { return standard_normal_impl(in, a, true); }

// exponential(scale=1.0, size=None): -log(U) * scale, U in (0, 1).
Value exponential_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    DrawParam scale = param(in, r, 0, "scale", 1.0);
    auto size = size_arg(in, r, 1);
    check_scale(scale);
    double k = scale.is_array ? 1.0 : scale.number;
    if (!size && !scale.is_array) return Value::real(-std::log(uniform_double(g)) * k);
    dag::Shape shape = draw_shape(size, {&scale});
    philox::Stream s = g->take(uint64_t(count(shape)), 2);
    Value e = generate<double>(DType::Float64, shape, [&](uint64_t b, uint64_t end, double* o) {
        philox::fill_uniform_double(s, b, end, o);
        for (uint64_t i = 0; i < end - b; ++i) o[i] = -std::log(o[i]) * k;
    });
    if (!scale.is_array) return e;
    return affine(in, DrawParam{Value::real(0.0), false, 0.0}, scale, e);
}

// ---- integers ----

// The range of an integer dtype as [lo, hi] in 128 bits.
void dtype_bounds(DType dt, __int128& lo, __int128& hi) {
    int bits = int(itemsize(dt)) * 8;
    if (dt == DType::Bool) lo = 0, hi = 1;
    else if (kind(dt) == DKind::UInt) lo = 0, hi = (__int128(1) << bits) - 1;
    else lo = -(__int128(1) << (bits - 1)), hi = (__int128(1) << (bits - 1)) - 1;
}

void store_int(DType dt, uint8_t* p, __int128 v) {
    switch (itemsize(dt)) {
        case 1: *p = uint8_t(v); break;
        case 2: *reinterpret_cast<uint16_t*>(p) = uint16_t(v); break;
        case 4: *reinterpret_cast<uint32_t*>(p) = uint32_t(v); break;
        default: *reinterpret_cast<uint64_t*>(p) = uint64_t(v); break;
    }
}

// Integers in [low, high) (high inclusive when `endpoint`) of dtype `dt`,
// with NumPy's checks; `who` names the function in dtype errors.
Value integers_impl(GeneratorObj* g, Interp& in, CallArgs& r, bool endpoint, DType dt, bool python_scalar,
                    const char* who) {
    if (!is_integer(dt) && dt != DType::Bool)
        raise(types::TypeError, std::string("Unsupported dtype dtype('") + name(dt) + "') for " + who);
    const Value* lv = arg(r, 0, "low");
    const Value* hv = arg_not_none(r, 1, "high");
    if (!lv) raise(types::TypeError, std::string(who) + "() missing 1 required positional argument: 'low'");
    for (const Value* v : {lv, hv})
        if (v && !v->is_intlike())
            raise(types::NotImplementedError, std::string("np.random.") + who + ": only int low and high are supported");
    __int128 low = lv->as_int(), high = hv ? __int128(hv->as_int()) : low;
    if (!hv) {
        low = 0;
        if (endpoint ? high < 0 : high <= 0) raise(types::ValueError, endpoint ? "high < 0" : "high <= 0");
    }
    __int128 lo, hi;
    dtype_bounds(dt, lo, hi);
    std::string tname = name(dt);
    if (low < lo) raise(types::ValueError, "low is out of bounds for " + tname);
    if ((endpoint ? high : high - 1) > hi) raise(types::ValueError, "high is out of bounds for " + tname);
    if (endpoint ? low > high : low >= high) raise(types::ValueError, endpoint ? "low > high" : "low >= high");
    uint64_t max = uint64_t(endpoint ? high - low : high - 1 - low);
    auto size = size_arg(in, r, 2);
    dag::Shape shape = size.value_or(dag::Shape{});
    int64_t n = count(shape);
    std::vector<uint64_t> offsets(size_t(n > 0 ? n : 0));
    bounded(g, uint64_t(n), max, offsets.data());
    if (!size && python_scalar) return Value::integer(int64_t(low + offsets[0]));
    Value out = new_array(dt, shape);
    auto* arr = out.as<ArrayObj>();
    auto* data = arr->buffer.bytes() + arr->offset;
    size_t item = itemsize(dt);
    for (int64_t i = 0; i < n; ++i) store_int(dt, data + size_t(i) * item, low + offsets[size_t(i)]);
    set_numpy_scalar(arr, !size);
    return out;
}

// randint(low, high=None, size=None, dtype=int)
Value randint_fn(Interp& in, CallArgs& a) {
    CallArgs r = rest(a);
    auto dt = dtype_arg(in, r, 3);
    return integers_impl(self_of(a), in, r, false, dt.value_or(DType::Int64), !dt, "randint");
}
// Generator.integers(low, high=None, size=None, dtype=np.int64, endpoint=False)
Value integers_fn(Interp& in, CallArgs& a) {
    CallArgs r = rest(a);
    const Value* ep = arg(r, 4, "endpoint");
    return integers_impl(self_of(a), in, r, ep && truthy(*ep), dtype_arg(in, r, 3).value_or(DType::Int64), false,
                         "integers");
}

// ---- permutations ----

// A uniformly random permutation of 0..n-1 (Fisher-Yates; step i draws its
// swap partner as output i of one draw, so the draw is one counter range).
std::vector<int64_t> random_permutation(Interp& in, GeneratorObj* g, int64_t n) {
    check_scratch(in, n);
    std::vector<int64_t> perm(size_t(std::max<int64_t>(n, 0)));
    for (int64_t i = 0; i < n; ++i) perm[size_t(i)] = i;
    philox::Stream s = g->take(uint64_t(n), n - 1 > 0xFFFFFFFFll ? 2 : 1);
    for (int64_t i = n - 1; i > 0; --i) {
        uint64_t j;
        philox::fill_bounded(s, uint64_t(i), uint64_t(i) + 1, uint64_t(i), &j);
        std::swap(perm[size_t(i)], perm[size_t(j)]);
    }
    return perm;
}

// x[perm] along axis 0, computed now (so that it no longer reads x).
Value take_rows(Interp& in, const Value& x, const std::vector<int64_t>& perm) {
    Value out = get_item(in, x, int64_array(perm));
    if (ArrayObj* o = as_array(out)) materialize(o);
    return out;
}

// permutation(x): a shuffled arange(x) for an int, else a shuffled copy along
// axis 0 (NumPy's legacy and Generator errors for 0-d x differ).
Value permutation_impl(Interp& in, CallArgs& a, bool legacy) {
    GeneratorObj* g = self_of(a);
    expect_args(a, "permutation", 2, 2);
    const Value& x = a.pos[1];
    if (x.is_intlike()) {
        std::vector<int64_t> perm = random_permutation(in, g, x.as_int());
        return int64_array(perm);
    }
    Value arr = as_array_value(in, x);
    if (as_array(arr)->ndim() == 0) {
        if (legacy) raise(types::IndexError, "x must be an integer or at least 1-dimensional");
        normalize_axis(0, 0);
    }
    return take_rows(in, arr, random_permutation(in, g, as_array(arr)->shape[0]));
}
Value legacy_permutation(Interp& in, CallArgs& a) { return permutation_impl(in, a, true); }
Value gen_permutation(Interp& in, CallArgs& a) { return permutation_impl(in, a, false); }

// shuffle(x): in place along axis 0 (arrays and lists).
Value shuffle_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    expect_args(a, "shuffle", 2, 2);
    const Value& x = a.pos[1];
    if (is_kind(x, OK::List)) {
        auto& items = x.as<ListObj>()->items;
        std::vector<Value> old = items;
        std::vector<int64_t> perm = random_permutation(in, g, int64_t(items.size()));
        for (size_t i = 0; i < perm.size(); ++i) items[i] = old[size_t(perm[i])];
        return Value::none();
    }
    ArrayObj* arr = as_array(x);
    if (!arr) raise(types::TypeError, std::string("object of type '") + type_name(x) + "' has no len()");
    if (arr->ndim() == 0) raise(types::TypeError, "len() of unsized object");
    Value shuffled = take_rows(in, x, random_permutation(in, g, arr->shape[0]));
    materialize(arr);
    flush_readers(arr->buffer.get());
    assign_array(in, x, shuffled);
    return Value::none();
}

// choice(a, size=None, replace=True, p=None); NumPy's legacy and Generator
// wordings differ, `legacy` picks.
Value choice_impl(Interp& in, CallArgs& a, bool legacy) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    const Value* av = arg(r, 0, "a");
    if (!av) raise(types::TypeError, "choice() missing 1 required positional argument: 'a'");
    auto size = size_arg(in, r, 1);
    const Value* rv = arg(r, 2, "replace");
    bool replace = !rv || truthy(*rv);
    const Value* pv = arg_not_none(r, 3, "p");
    dag::Shape shape = size.value_or(dag::Shape{});
    int64_t k = count(shape);

    Value pool;  // the array to pick from; None for an int `a`
    int64_t n;
    if (av->is_intlike()) {
        n = av->as_int();
        if (n < 0 || (n == 0 && k != 0))
            raise(types::ValueError, legacy ? "a must be greater than 0 unless no samples are taken"
                                            : "a must be a positive integer unless no samples are taken");
    } else {
        pool = as_array_value(in, *av);
        if (as_array(pool)->ndim() != 1) {
            if (legacy) raise(types::ValueError, "a must be 1-dimensional");
            raise(types::NotImplementedError, "Generator.choice: only 1-dimensional a is supported");
        }
        n = as_array(pool)->shape[0];
        if (n == 0 && k != 0) raise(types::ValueError, "'a' cannot be empty unless no samples are taken");
    }

    std::vector<int64_t> picks(static_cast<size_t>(k));
    if (pv) {
        Value parr = as_array_value(in, *pv);
        if (as_array(parr)->ndim() != 1) raise(types::ValueError, "'p' must be 1-dimensional");
        std::vector<double> p = doubles_of(parr);
        if (int64_t(p.size()) != n) raise(types::ValueError, "'a' and 'p' must have same size");
        double sum = 0;
        for (double x : p) {
            if (!(x >= 0)) raise(types::ValueError, "probabilities are not non-negative");
            sum += x;
        }
        // NumPy's tolerance: sqrt of float64's epsilon.
        if (std::abs(sum - 1.0) > std::sqrt(2.220446049250313e-16))
            raise(types::ValueError, legacy ? "probabilities do not sum to 1"
                                            : "Probabilities do not sum to 1. See Notes section of docstring for more information.");
        if (!replace) raise(types::NotImplementedError, "choice: replace=False with p is not supported");
        std::vector<double> cdf(p.size());
        std::partial_sum(p.begin(), p.end(), cdf.begin());
        for (double& c : cdf) c /= cdf.back();
        Value u = uniform_doubles(g, {k});
        const double* ud = reinterpret_cast<const double*>(as_array(u)->buffer.bytes());
        for (int64_t i = 0; i < k; ++i) {
            auto it = std::upper_bound(cdf.begin(), cdf.end(), ud[i]);
            picks[size_t(i)] = std::min<int64_t>(it - cdf.begin(), n - 1);
        }
    } else if (replace) {
        if (k > 0) {
            std::vector<uint64_t> off(static_cast<size_t>(k));
            bounded(g, uint64_t(k), uint64_t(n - 1), off.data());
            std::copy(off.begin(), off.end(), picks.begin());
        }
    } else {
        if (k > n)
            raise(types::ValueError, legacy ? "Cannot take a larger sample than population when 'replace=False'"
                                            : "Cannot take a larger sample than population when replace is False");
        std::vector<int64_t> perm = random_permutation(in, g, n);
        std::copy(perm.begin(), perm.begin() + k, picks.begin());
    }

    Value idx = int64_array(picks, shape);
    if (!size) set_numpy_scalar(as_array(idx), true);
    if (pool.is_undef()) return idx;
    if (!size) return get_item(in, pool, Value::integer(picks[0]));
    return get_item(in, pool, idx);
}
Value legacy_choice(Interp& in, CallArgs& a) { return choice_impl(in, a, true); }
Value gen_choice(Interp& in, CallArgs& a) { return choice_impl(in, a, false); }

// ---- seeding ----

}  // namespace

// A legacy seed (seed(), RandomState()): fresh entropy for None, an int in
// [0, 2**32), or a non-empty sequence or array of such ints, folded into one
// key (NumPy's MT19937 takes the sequence as its init array).
uint64_t rng::legacy_seed(Interp& in, const Value* s) {
    if (!s || s->is_none()) return entropy_seed();
    if (s->is_intlike()) {
        if (s->as_int() < 0 || s->as_int() > 0xFFFFFFFFll) raise(types::ValueError, "Seed must be between 0 and 2**32 - 1");
        return uint64_t(s->as_int());
    }
    if (int64_t x = 0; as_array(*s) && as_array(*s)->numpy_scalar && index_value(*s, x)) {
        if (x < 0 || x > 0xFFFFFFFFll) raise(types::ValueError, "Seed must be between 0 and 2**32 - 1");
        return uint64_t(x);
    }
    if (s->kind == VK::Float || (as_array(*s) && as_array(*s)->numpy_scalar))
        raise(types::TypeError, "Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule 'safe'");
    if (ArrayObj* arr = as_array(*s); arr && !is_integer(arr->dtype) && arr->dtype != DType::Bool)
        raise(types::TypeError, std::string("Cannot cast array data from dtype('") + name(arr->dtype) + "') to dtype('int64') according to the rule 'safe'");
    std::vector<Value> items = to_vector(in, *s);
    if (items.empty()) raise(types::ValueError, "Seed must be non-empty");
    uint64_t key = 0x243F6A8885A308D3ull ^ items.size();
    for (const Value& v : items) {
        int64_t x = 0;
        if (!index_value(v, x)) raise(types::TypeError, "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
        if (x < 0 || x > 0xFFFFFFFFll) raise(types::ValueError, "Seed must be between 0 and 2**32 - 1");
        // splitmix64 of the running key and the value: every element counts, in order.
        uint64_t z = (key ^ uint64_t(x)) + 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        key = z ^ (z >> 31);
    }
    return key;
}

namespace {

// seed(seed=None): NumPy's legacy range check.
Value seed_fn(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_of(a);
    CallArgs r = rest(a);
    g->seed = legacy_seed(in, arg(r, 0, "seed"));
    g->base = 0;
    return Value::none();
}

}  // namespace

Value rng::new_generator(uint64_t seed) { return Value::object(new GeneratorObj(generator_type(), seed)); }

namespace {

// default_rng(seed=None): a Generator (a Generator argument is returned as is).
Value default_rng_fn(Interp& in, CallArgs& a) {
    const Value* s = arg_not_none(a, 0, "seed");
    if (!s) return new_generator(entropy_seed());
    if (s->is_obj() && s->o->type == generator_type()) return *s;
    if (!s->is_intlike()) raise(types::TypeError, std::string("SeedSequence expects int or sequence of ints for entropy not ") + repr(in, *s));
    if (s->as_int() < 0) raise(types::ValueError, "expected non-negative integer");
    return new_generator(uint64_t(s->as_int()));
}

std::string generator_repr(Interp&, const Value& v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "Generator(Philox) at 0x%llX", (unsigned long long)(uintptr_t)v.o);
    return buf;
}

Value generator_construct(Interp& in, CallArgs& a) {
    raise(types::TypeError, "Generator() is not supported: use np.random.default_rng(seed)");
}

}  // namespace

// The Generator type (process-wide, immutable once built).
TypeObject* rng::generator_type() {
    static TypeObject* type = [] {
        auto* t = new TypeObject("numpy.random._generator.Generator", nullptr, OK::Other);
        t->repr = generator_repr;
        t->construct = generator_construct;
        def_method(t, "random", gen_random, "random(size=None, dtype=np.float64)", "Floats in [0.0, 1.0).");
        def_method(t, "uniform", uniform_fn, "uniform(low=0.0, high=1.0, size=None)", "Uniform floats in [low, high).");
        def_method(t, "normal", normal_fn, "normal(loc=0.0, scale=1.0, size=None)", "Normal (Gaussian) samples.");
        def_method(t, "standard_normal", gen_standard_normal, "standard_normal(size=None, dtype=np.float64)",
                   "Samples of N(0, 1).");
        def_method(t, "exponential", exponential_fn, "exponential(scale=1.0, size=None)", "Exponential samples.");
        def_method(t, "integers", integers_fn, "integers(low, high=None, size=None, dtype=np.int64, endpoint=False)",
                   "Uniform integers in [low, high) ([low, high] with endpoint=True).");
        def_method(t, "choice", gen_choice, "choice(a, size=None, replace=True, p=None)",
                   "A random sample from a 1-D array or arange(a).");
        def_method(t, "permutation", gen_permutation, "permutation(x)", "A shuffled copy (or a shuffled arange(x)).");
        def_method(t, "shuffle", shuffle_fn, "shuffle(x)", "Shuffles x in place along axis 0.");
        for (const MethodSpec& d : distribution_methods())
            if (d.generator) def_method(t, d.name, d.fn, d.sig, d.doc);
        return t;
    }();
    return type;
}

namespace {

// RandomState(seed=None): a legacy generator of its own, with the np.random
// functions as methods (gpy's Philox stream, as the global one).
Value random_state_construct(Interp& in, CallArgs& a) {
    expect_args(a, "RandomState", 0, 1);
    return Value::object(new GeneratorObj(random_state_type(), legacy_seed(in, arg(a, 0, "seed"))));
}

std::string random_state_repr(Interp&, const Value& v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "RandomState(Philox) at 0x%llX", (unsigned long long)(uintptr_t)v.o);
    return buf;
}

// The legacy functions: np.random's (bound to the global generator) and
// RandomState's methods.
const std::vector<MethodSpec>& legacy_functions() {
    static const std::vector<MethodSpec> fns = [] {
        std::vector<MethodSpec> v = {
            {"seed", seed_fn, "seed(seed=None)", "Reseeds the generator."},
            {"rand", rand_fn, "rand(d0, d1, ..., dn)", "Uniform floats in [0.0, 1.0) of shape (d0, ..., dn)."},
            {"randn", randn_fn, "randn(d0, d1, ..., dn)", "Standard normal floats of shape (d0, ..., dn)."},
            {"random", legacy_random, "random(size=None)", "Floats in [0.0, 1.0)."},
            {"random_sample", legacy_random, "random_sample(size=None)", "Floats in [0.0, 1.0)."},
            {"uniform", uniform_fn, "uniform(low=0.0, high=1.0, size=None)", "Uniform floats in [low, high)."},
            {"normal", normal_fn, "normal(loc=0.0, scale=1.0, size=None)", "Normal (Gaussian) samples."},
            {"standard_normal", legacy_standard_normal, "standard_normal(size=None)", "Samples of N(0, 1)."},
            {"exponential", exponential_fn, "exponential(scale=1.0, size=None)", "Exponential samples."},
            {"randint", randint_fn, "randint(low, high=None, size=None, dtype=int)", "Uniform integers in [low, high)."},
            {"choice", legacy_choice, "choice(a, size=None, replace=True, p=None)", "A random sample from a 1-D array or arange(a)."},
            {"permutation", legacy_permutation, "permutation(x)", "A shuffled copy (or a shuffled arange(x))."},
            {"shuffle", shuffle_fn, "shuffle(x)", "Shuffles x in place along axis 0."},
        };
        for (const MethodSpec& d : distribution_methods())
            if (d.legacy) v.push_back(d);
        return v;
    }();
    return fns;
}

}  // namespace

TypeObject* rng::random_state_type() {
    static TypeObject* type = [] {
        auto* t = new TypeObject("numpy.random.mtrand.RandomState", nullptr, OK::Other);
        t->repr = random_state_repr;
        t->construct = random_state_construct;
        for (const MethodSpec& d : legacy_functions()) def_method(t, d.name, d.fn, d.sig, d.doc);
        return t;
    }();
    return type;
}

void add_random_module(Interp& in, ModuleObj* m) {
    Value module = Value::object(new ModuleObj("numpy.random"));
    auto* r = module.as<ModuleObj>();
    r->doc = "Random numbers: Philox4x32-10 in cuRAND's layout (not NumPy's PCG64/MT19937 streams).";
    // The legacy functions are methods of this interpreter's global generator.
    Value global = new_generator(entropy_seed());
    auto def = [&](const char* name, NativeFn fn, const char* sig, const char* doc) {
        Value f = make_builtin(name, fn, sig, doc);
        f.as<BuiltinObj>()->bound = global;
        r->set(name, f);
    };
    for (const MethodSpec& d : legacy_functions()) def(d.name, d.fn, d.sig, d.doc);
    r->set("RandomState", Value::object(random_state_type()));
    r->set("default_rng", make_builtin("default_rng", default_rng_fn, "default_rng(seed=None)",
                                       "A new Generator seeded with seed (fresh entropy when None)."));
    r->set("Generator", Value::object(generator_type()));
    m->set("random", module);
}

}  // namespace gpy
