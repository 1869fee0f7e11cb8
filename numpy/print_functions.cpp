// NumPy's printing functions over numpy/array_print: np.set_printoptions and
// np.get_printoptions (formatter= included), np.array2string, np.array_str,
// np.array_repr, np.format_float_positional and np.format_float_scientific.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "numpy/array.h"
#include "numpy/array_state.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/scalar_types.h"

namespace gpy {

namespace {

// The callable a formatter dict gives elements of dtype t: the key of t's
// type, else of its kind, else 'all' (NumPy's _get_format_function).
Value formatter_for(Interp& in, const Value& dict, DType t) {
    const char* type_key = "bool";
    const char* kind_key = nullptr;
    switch (kind(t)) {
        case DKind::Bool: break;
        case DKind::Int: case DKind::UInt: type_key = "int", kind_key = "int_kind"; break;
        case DKind::Float: type_key = "float", kind_key = "float_kind"; break;
        case DKind::Complex: type_key = "complexfloat", kind_key = "complex_kind"; break;
    }
    const HashTable& table = dict.as<DictObj>()->table;
    for (const char* key : {type_key, kind_key, "all"}) {
        if (!key) continue;
        long i = table.find(in, make_str(key));
        if (i >= 0 && !table.entries[size_t(i)].value.is_none()) return table.entries[size_t(i)].value;
    }
    return Value();
}

// PrintOptions' element hook for a formatter dict: the callable gets the
// element as a NumPy scalar and its str() is the element's text.
PrintOptions::Formatter formatter_hook(Interp& in, const Value& dict) {
    return [&in, dict](DType t, const uint8_t* p, std::string& out) {
        Value f = formatter_for(in, dict, t);
        if (f.is_undef()) return false;
        Value s = new_array(t, {});
        std::memcpy(s.as<ArrayObj>()->buffer.bytes(), p, itemsize(t));
        set_numpy_scalar(s.as<ArrayObj>(), true);
        out = to_str(in, in.call1(f, s));
        return true;
    };
}

void set_formatter(Interp& in, PrintOptions& o, const Value* v) {
    if (!v || v->is_none()) {
        o.formatter = nullptr;
        o.formatter_source.reset();
        return;
    }
    if (!is_kind(*v, OK::Dict)) raise(types::TypeError, "formatter must be a dict of callables");
    o.formatter = formatter_hook(in, *v);
    o.formatter_source = std::make_shared<Value>(*v);
}

// The checks NumPy's _make_options_dict makes (array_print's, its messages).
void check_options(const PrintOptions& o) {
    if (std::string problem = print_options_problem(o); !problem.empty()) raise(types::ValueError, problem);
}

// The options a call overrides (None leaves one as it is).
void override(PrintOptions& o, const Value* precision, const Value* threshold, const Value* edgeitems, const Value* linewidth,
              const Value* suppress, const Value* sign, const Value* floatmode) {
    auto given = [](const Value* v) { return v && !v->is_none(); };
    if (given(precision)) {
        if (!precision->is_intlike()) raise(types::TypeError, "precision must be an integer");
        o.precision = int(to_index(*precision));
    }
    if (given(threshold)) {
        // Any real number (np.inf: never summarise); NumPy compares the size with it.
        if (threshold->is_intlike()) {
            o.threshold = to_index(*threshold);
        } else {
            double t;
            try {
                t = to_double(*threshold, "threshold");
            } catch (const GpyError&) {
                raise(types::TypeError, "threshold must be numeric");
            }
            if (std::isnan(t)) raise(types::ValueError, "threshold must be non-NAN, try sys.maxsize for untruncated representation");
            o.threshold = t >= 9.2e18 ? INT64_MAX : t < -9.2e18 ? -1 : int64_t(std::floor(t));
        }
    }
    if (given(edgeitems)) o.edgeitems = int(to_index(*edgeitems));
    if (given(linewidth)) o.linewidth = int(to_index(*linewidth));
    if (given(suppress)) o.suppress = truthy(*suppress);
    if (given(sign)) {
        const std::string& s = str_of(*sign, "sign");
        o.sign = s.size() == 1 ? s[0] : '?';
    }
    if (given(floatmode)) o.floatmode = str_of(*floatmode, "floatmode");
    check_options(o);
}

Value np_set_printoptions(Interp& in, CallArgs& a) {
    PrintOptions o = array_state(in).print;
    override(o, arg(a, 0, "precision"), arg(a, 1, "threshold"), arg(a, 2, "edgeitems"), arg(a, 3, "linewidth"),
             arg(a, 4, "suppress"), kwarg(a, "sign"), kwarg(a, "floatmode"));
    if (const Value* v = arg(a, 5, "nanstr"); v && !v->is_none()) o.nanstr = str_of(*v, "nanstr");
    if (const Value* v = arg(a, 6, "infstr"); v && !v->is_none()) o.infstr = str_of(*v, "infstr");
    // NumPy resets the formatter on every call that does not pass one.
    set_formatter(in, o, arg(a, 7, "formatter"));
    if (const Value* v = kwarg(a, "legacy"); v && !v->is_none() && !(v->is_bool() && !v->b))
        raise(types::NotImplementedError, "set_printoptions(legacy=...): gpy prints as NumPy 2 only");
    array_state(in).print = o;
    return Value::none();
}

// np.array2string(a, max_line_width=None, precision=None, suppress_small=None,
// separator=' ', prefix='', style=<no value>, formatter=None, threshold=None,
// edgeitems=None, sign=None, floatmode=None, suffix='', *, legacy=None)
Value np_array2string(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "a");
    if (!x) raise(types::TypeError, "array2string() missing required argument 'a' (pos 0)");
    // NumPy reads a.size first: a list is its AttributeError.
    if (!as_array(*x)) raise(types::AttributeError, std::string("'") + type_name(*x) + "' object has no attribute 'size'");
    Value arr = *x;
    PrintOptions o = array_state(in).print;
    override(o, arg(a, 2, "precision"), arg(a, 8, "threshold"), arg(a, 9, "edgeitems"), arg(a, 1, "max_line_width"),
             arg(a, 3, "suppress_small"), arg(a, 10, "sign"), arg(a, 11, "floatmode"));
    if (const Value* f = arg(a, 7, "formatter"); f && !f->is_none()) set_formatter(in, o, f);
    // NumPy reads the strings only when it lays out elements: an empty
    // array is "[]" whatever they are, otherwise a non-str fails in rstrip.
    if (arr.as<ArrayObj>()->size() == 0) return make_str("[]");
    auto text = [](const Value* v, const char* dflt) {
        if (!v) return std::string(dflt);
        if (!is_kind(*v, OK::Str)) raise(types::AttributeError, std::string("'") + type_name(*v) + "' object has no attribute 'rstrip'");
        return str_of(*v, "separator");
    };
    return make_str(array_to_string(host_view(arr.as<ArrayObj>()), o, text(arg(a, 4, "separator"), " "), text(arg(a, 5, "prefix"), ""),
                                    text(arg(a, 12, "suffix"), "")));
}

// np.array_str / np.array_repr(a, max_line_width=None, precision=None, suppress_small=None)
template <bool Repr>
Value np_array_text(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, Repr ? "arr" : "a");
    if (!x) raise(types::TypeError, std::string(Repr ? "array_repr" : "array_str") + "() missing required argument");
    // NumPy reads arr.shape (array_str) or arr.size (array_repr) first.
    if (!as_array(*x))
        raise(types::AttributeError, std::string("'") + type_name(*x) + "' object has no attribute '" + (Repr ? "size" : "shape") + "'");
    Value arr = *x;
    PrintOptions o = array_state(in).print;
    override(o, arg(a, 2, "precision"), nullptr, nullptr, arg(a, 1, "max_line_width"), arg(a, 3, "suppress_small"), nullptr, nullptr);
    ArrayObj* ao = arr.as<ArrayObj>();
    HostArrayView hv = host_view(ao);
    if (Repr) return make_str(array_repr(hv, o));
    // array_str of a 0-d array prints its element as the scalar would.
    return make_str(ao->ndim() == 0 ? scalar_str(ao->dtype, hv.data, o) : array_str(hv, o));
}

// The float a format_float_* call formats: NumPy floats keep their type,
// Python numbers are float64; anything else is NumPy's TypeError.
Value float_operand(Interp& in, const Value& x, const char* fname) {
    ArrayObj* xa = as_array(x);
    if (xa && is_float(xa->dtype) && xa->ndim() == 0) return x;
    if (x.is_intlike() || x.is_float() || (xa && xa->ndim() == 0 && !is_complex(xa->dtype))) {
        Value v = as_array_value(in, x, DType::Float64);
        return v;
    }
    if (as_complex(x) || (xa && is_complex(xa->dtype))) raise(types::TypeError, "must be real number, not complex");
    (void)fname;
    raise(types::TypeError, std::string("must be real number, not ") + type_name(x));
}

// A count argument of format_float_*: -1 for None, else >= 0 (NumPy's
// "pad_left must be >= 0") and within int.
int optional_int(const Value* v, const char* name) {
    if (!v || v->is_none()) return -1;
    int64_t n = to_index(*v, name);
    if (n < 0) raise(types::ValueError, std::string(name) + " must be >= 0");
    if (n > INT32_MAX) raise(types::OverflowError, "Python int too large to convert to C int");
    return int(n);
}

void require_precision(bool unique, int precision) {
    if (!unique && precision < 0) raise(types::TypeError, "in non-unique mode `precision` must be supplied");
}

char trim_arg(const Value* v) {
    std::string t = v ? str_of(*v, "trim") : "k";
    if (t != "k" && t != "." && t != "0" && t != "-")
        raise(types::ValueError, "Trim mode must be one of 'k', '.', '0', or '-'");  // NumPy's Dragon4 text
    return t[0];
}

// np.format_float_positional(x, precision=None, unique=True, fractional=True,
// trim='k', sign=False, pad_left=None, pad_right=None, min_digits=None)
Value np_format_float_positional(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "x");
    if (!x) raise(types::TypeError, "format_float_positional() missing required argument 'x' (pos 0)");
    Value v = float_operand(in, *x, "format_float_positional");
    ArrayObj* va = v.as<ArrayObj>();
    const Value* unique = arg(a, 2, "unique");
    const Value* fractional = arg(a, 3, "fractional");
    const Value* sign = arg(a, 5, "sign");
    const int precision = optional_int(arg(a, 1, "precision"), "precision");
    require_precision(!unique || truthy(*unique), precision);
    try {
        return make_str(format_float_positional(va->dtype, host_view(va).data, precision, !unique || truthy(*unique), !fractional || truthy(*fractional),
                                                trim_arg(arg(a, 4, "trim")), sign && truthy(*sign), optional_int(arg(a, 6, "pad_left"), "pad_left"),
                                                optional_int(arg(a, 7, "pad_right"), "pad_right"), optional_int(arg(a, 8, "min_digits"), "min_digits")));
    } catch (const std::invalid_argument& e) {
        raise(types::ValueError, e.what());
    }
}

// np.format_float_scientific(x, precision=None, unique=True, trim='k',
// sign=False, pad_left=None, exp_digits=None, min_digits=None)
Value np_format_float_scientific(Interp& in, CallArgs& a) {
    const Value* x = arg(a, 0, "x");
    if (!x) raise(types::TypeError, "format_float_scientific() missing required argument 'x' (pos 0)");
    Value v = float_operand(in, *x, "format_float_scientific");
    ArrayObj* va = v.as<ArrayObj>();
    const Value* unique = arg(a, 2, "unique");
    const Value* sign = arg(a, 4, "sign");
    const int precision = optional_int(arg(a, 1, "precision"), "precision");
    require_precision(!unique || truthy(*unique), precision);
    try {
        return make_str(format_float_scientific(va->dtype, host_view(va).data, precision, !unique || truthy(*unique), trim_arg(arg(a, 3, "trim")), sign && truthy(*sign),
                                                optional_int(arg(a, 5, "pad_left"), "pad_left"), optional_int(arg(a, 6, "exp_digits"), "exp_digits"),
                                                optional_int(arg(a, 7, "min_digits"), "min_digits")));
    } catch (const std::invalid_argument& e) {
        raise(types::ValueError, e.what());
    }
}

}  // namespace

Value np_get_printoptions(Interp& in, CallArgs& a) {
    expect_args(a, "get_printoptions", 0, 0);
    const PrintOptions& p = array_state(in).print;
    Value d = Value::object(new DictObj());
    auto put = [&](const char* k, Value v) { set_item(in, d, make_str(k), std::move(v)); };
    put("edgeitems", Value::integer(p.edgeitems));
    put("threshold", Value::integer(p.threshold));
    put("floatmode", make_str(p.floatmode));
    put("precision", Value::integer(p.precision));
    put("suppress", Value::boolean(p.suppress));
    put("linewidth", Value::integer(p.linewidth));
    put("nanstr", make_str(p.nanstr));
    put("infstr", make_str(p.infstr));
    put("sign", make_str(std::string(1, p.sign)));
    put("formatter", p.formatter_source ? *std::static_pointer_cast<const Value>(p.formatter_source) : Value::none());
    put("legacy", Value::boolean(false));
    put("override_repr", Value::none());
    return d;
}

void add_print_functions(Interp&, ModuleObj* m) {
    m->set("set_printoptions",
           make_builtin("set_printoptions", np_set_printoptions,
                        "set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, nanstr=None, "
                        "infstr=None, formatter=None, sign=None, floatmode=None, *, legacy=None, override_repr=None)",
                        "Set printing options."));
    m->set("get_printoptions", make_builtin("get_printoptions", np_get_printoptions, "get_printoptions()", "The current print options."));
    m->set("array2string",
           make_builtin("array2string", np_array2string,
                        "array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=' ', prefix='', "
                        "style=None, formatter=None, threshold=None, edgeitems=None, sign=None, floatmode=None, suffix='', *, legacy=None)",
                        "Return a string representation of an array."));
    m->set("array_str", make_builtin("array_str", np_array_text<false>, "array_str(a, max_line_width=None, precision=None, suppress_small=None)",
                                     "Return a string representation of the data in an array."));
    m->set("array_repr", make_builtin("array_repr", np_array_text<true>, "array_repr(arr, max_line_width=None, precision=None, suppress_small=None)",
                                      "Return the string representation of an array."));
    m->set("format_float_positional",
           make_builtin("format_float_positional", np_format_float_positional,
                        "format_float_positional(x, precision=None, unique=True, fractional=True, trim='k', sign=False, pad_left=None, "
                        "pad_right=None, min_digits=None)",
                        "Format a floating-point scalar as a decimal string in positional notation."));
    m->set("format_float_scientific",
           make_builtin("format_float_scientific", np_format_float_scientific,
                        "format_float_scientific(x, precision=None, unique=True, trim='k', sign=False, pad_left=None, exp_digits=None, "
                        "min_digits=None)",
                        "Format a floating-point scalar as a decimal string in scientific notation."));
}

}  // namespace gpy
