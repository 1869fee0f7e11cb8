// `import cupy`: NumPy's namespace (gpy's arrays are CuPy's arrays too, so
// the functions and types are the same objects) plus what CuPy has and
// NumPy lacks or spells differently: get_array_module, and cupy.random's
// float distributions taking dtype= (float32 or float64, as CuPy's).
#include "numpy/array.h"
#include "numpy/np_args.h"
#include "numpy/numpy_module.h"

namespace gpy {

TypeObject* scalar_type_object(DType t);  // numpy/array.cpp

namespace {

// cupy.get_array_module(*args): the module for these arrays. Every gpy array
// is a device array where a GPU is in use, so always cupy.
Value get_array_module(Interp& in, CallArgs&) { return Value::object(in.import_module("cupy")); }

// A cupy.random function: the numpy.random function bound as pos[0], called
// without dtype=, its samples then cast to dtype (CuPy draws float32 samples
// directly; gpy rounds float64 ones, so the values differ from CuPy's anyway).
Value random_with_dtype(Interp& in, CallArgs& a) {
    std::vector<std::pair<std::string, Value>> kw;
    std::optional<DType> dtype;
    for (auto& [k, v] : a.kw ? *a.kw : kw) {
        if (k != "dtype") {
            kw.emplace_back(k, v);
            continue;
        }
        const DType t = to_dtype(in, v);
        if (t != DType::Float32 && t != DType::Float64) raise(types::TypeError, "cupy.random only supports float32 and float64");
        dtype = t;
    }
    CallArgs inner{a.pos + 1, a.npos - 1, kw.empty() ? nullptr : &kw};
    Value r = in.call(a.pos[0], inner);
    if (!dtype || *dtype == DType::Float64) return r;
    if (ArrayObj* arr = as_array(r); arr && !arr->numpy_scalar) {
        Value astype = get_attr(in, r, "astype");
        Value t = dtype_value(*dtype);
        CallArgs c{&t, 1, nullptr};
        return in.call(astype, c);
    }
    Value type = Value::object(scalar_type_object(*dtype));
    CallArgs c{&r, 1, nullptr};
    return in.call(type, c);
}

ModuleObj* make_cupy_random(Interp& in, const ModuleObj& np_random) {
    auto* r = new ModuleObj("cupy.random");
    r->doc = np_random.doc;
    static const char* const float_samplers[] = {
        "beta", "chisquare", "exponential", "f", "gamma", "gumbel", "laplace", "logistic", "lognormal", "noncentral_chisquare",
        "noncentral_f", "normal", "pareto", "power", "rand", "randn", "random", "random_sample", "rayleigh", "standard_cauchy",
        "standard_exponential", "standard_gamma", "standard_normal", "standard_t", "triangular", "uniform", "vonmises", "wald",
        "weibull"};
    for (size_t k = 0; k < np_random.names.size(); ++k) {
        const Value& v = np_random.values[k];
        if (v.is_undef()) continue;
        const std::string& name = np_random.names[k];
        bool wrap = false;
        for (const char* f : float_samplers) wrap |= name == f;
        if (!wrap || !is_kind(v, OK::Builtin)) {
            r->set(name, v);
            continue;
        }
        const BuiltinObj* f = v.as<BuiltinObj>();
        std::string sig = f->signature;
        if (!sig.empty() && sig.back() == ')') sig.insert(sig.size() - 1, sig.find('(') + 1 == sig.size() - 1 ? "dtype=float" : ", dtype=float");
        auto* b = new BuiltinObj(name, random_with_dtype, sig, f->doc);
        b->bound = v;
        r->set(name, Value::object(b));
    }
    (void)in;
    return r;
}

}  // namespace

ModuleObj* make_cupy_module(Interp& in) {
    ModuleObj* np = in.import_module("numpy");
    auto* cp = new ModuleObj("cupy");
    cp->doc = "gpy's CuPy-compatible array module: NumPy's names with CuPy's additions.";
    for (size_t k = 0; k < np->names.size(); ++k)
        if (!np->values[k].is_undef()) cp->set(np->names[k], np->values[k]);
    if (const Value* r = np->get("random"); r && is_kind(*r, OK::Module)) cp->set("random", Value::object(make_cupy_random(in, *r->as<ModuleObj>())));
    cp->set("get_array_module", make_builtin("get_array_module", get_array_module, "get_array_module(*args)",
                                             "The array module for the arguments: cupy (every gpy array is one)."));
    return cp;
}

}  // namespace gpy
