// Python's complex type: CPython's arithmetic (Objects/complexobject.c),
// repr, hash, constructor and string parsing, and the cmath module.
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "lang/format.h"
#include "lang/interp.h"

namespace gpy {

namespace {

struct C {
    double re, im;
};

C c_prod(C a, C b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

// CPython's _Py_c_quot: divides through by the larger component of b.
C c_quot(C a, C b, bool& by_zero) {
    double abr = std::fabs(b.re), abi = std::fabs(b.im);
    if (abr >= abi) {
        if (abr == 0.0) {
            by_zero = true;
            return {0.0, 0.0};
        }
        double ratio = b.im / b.re, denom = b.re + b.im * ratio;
        return {(a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom};
    }
    if (abi >= abr) {
        double ratio = b.re / b.im, denom = b.re * ratio + b.im;
        return {(a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom};
    }
    return {NAN, NAN};  // a component of b is NaN
}

// CPython's _Py_c_pow (polar form); `domain` for 0 ** negative-or-complex.
C c_pow(C a, C b, bool& domain) {
    if (b.re == 0.0 && b.im == 0.0) return {1.0, 0.0};
    if (a.re == 0.0 && a.im == 0.0) {
        if (b.im != 0.0 || b.re < 0.0) domain = true;
        return {0.0, 0.0};
    }
    double vabs = std::hypot(a.re, a.im), len = std::pow(vabs, b.re), at = std::atan2(a.im, a.re), phase = at * b.re;
    if (b.im != 0.0) {
        len /= std::exp(at * b.im);
        phase += b.im * std::log(vabs);
    }
    return {len * std::cos(phase), len * std::sin(phase)};
}

// Small integer exponents by repeated squaring, as CPython (more accurate).
C c_powi(C x, long n, bool& domain) {
    C r{1.0, 0.0}, p = x;
    unsigned long u = n < 0 ? (unsigned long)(-n) : (unsigned long)n;
    for (unsigned long mask = 1; mask > 0 && u >= mask; mask <<= 1) {
        if (u & mask) r = c_prod(r, p);
        p = c_prod(p, p);
    }
    if (n > 0) return r;
    return c_quot({1.0, 0.0}, r, domain);
}

C parts(const Value& v) {
    C c{0, 0};
    complex_parts(v, c.re, c.im);
    return c;
}

// A float's shortest repr without the ".0" Python adds to integral floats.
std::string part_repr(double x) {
    std::string s = fmt::float_repr(x);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

Value slot_binary(Interp&, BinOp op, const Value& a, const Value& b) {
    C x, y;
    if (!complex_parts(a, x.re, x.im) || !complex_parts(b, y.re, y.im)) return Value();
    switch (op) {
        case BinOp::Add: return make_complex(x.re + y.re, x.im + y.im);
        case BinOp::Sub: return make_complex(x.re - y.re, x.im - y.im);
        case BinOp::Mul: {
            C r = c_prod(x, y);
            return make_complex(r.re, r.im);
        }
        case BinOp::Div: {
            bool by_zero = false;
            C r = c_quot(x, y, by_zero);
            if (by_zero) raise(types::ZeroDivisionError, "complex division by zero");
            return make_complex(r.re, r.im);
        }
        case BinOp::Pow: return complex_power(x.re, x.im, y.re, y.im);
        default: return Value();  // //, %, bitwise: "unsupported operand type(s)"
    }
}

Value slot_unary(Interp&, UnOp op, const Value& v) {
    C x = parts(v);
    if (op == UnOp::Neg) return make_complex(-x.re, -x.im);
    if (op == UnOp::Pos) return make_complex(x.re, x.im);
    return Value();
}

bool slot_truth(const Value& v) {
    C x = parts(v);
    return x.re != 0.0 || x.im != 0.0;
}

std::string slot_repr(Interp&, const Value& v) {
    C x = parts(v);
    return complex_repr(x.re, x.im);
}

bool slot_equal(Interp&, const Value& a, const Value& b) {
    C x = parts(a), y;
    if (!complex_parts(b, y.re, y.im)) return false;
    return x.re == y.re && x.im == y.im;
}

uint64_t slot_hash(Interp&, const Value& v) {
    C x = parts(v);
    // hash(x + 0j) == hash(x): the imaginary hash is 0 then.
    uint64_t h = uint64_t(hash_double(x.re)) + 1000003ull * uint64_t(hash_double(x.im));
    return h == uint64_t(-1) ? uint64_t(-2) : h;
}

Value slot_getattr(Interp&, const Value& v, const std::string& name) {
    C x = parts(v);
    if (name == "real") return Value::real(x.re);
    if (name == "imag") return Value::real(x.im);
    return Value();
}

Value m_conjugate(Interp&, CallArgs& a) {
    expect_args(a, "conjugate", 1, 1);
    C x = parts(a[0]);
    return make_complex(x.re, -x.im);
}

// abs(): C99's hypot rules (an infinite part wins over a NaN).
double c_abs(C z) {
    if (std::isinf(z.re)) return std::fabs(z.re);
    if (std::isinf(z.im)) return std::fabs(z.im);
    if (std::isnan(z.re) || std::isnan(z.im)) return NAN;
    double r = std::hypot(z.re, z.im);
    if (std::isinf(r)) raise(types::OverflowError, "absolute value too large");
    return r;
}

Value m_abs(Interp&, CallArgs& a) { return Value::real(c_abs(parts(a[0]))); }

// CPython's float syntax at s[pos]: sign, digits with '_' between them, '.',
// exponent, inf/infinity/nan. Advances pos past it; false if there is none.
bool scan_float(const std::string& s, size_t& pos, double& out) {
    size_t k = pos;
    std::string text;
    if (k < s.size() && (s[k] == '+' || s[k] == '-')) text += s[k++];
    auto word = [&](const char* w) {
        size_t n = std::strlen(w);
        if (s.size() - k < n) return false;
        for (size_t j = 0; j < n; ++j)
            if (std::tolower(uint8_t(s[k + j])) != w[j]) return false;
        return true;
    };
    for (const char* w : {"infinity", "inf", "nan"}) {
        if (word(w)) {
            double v = w[0] == 'n' ? NAN : INFINITY;
            out = text == "-" ? -v : v;
            pos = k + std::strlen(w);
            return true;
        }
    }
    auto digits = [&]() {
        size_t start = k;
        while (k < s.size() && (std::isdigit(uint8_t(s[k])) ||
                                (s[k] == '_' && k > start && k + 1 < s.size() && std::isdigit(uint8_t(s[k + 1]))))) {
            if (s[k] != '_') text += s[k];
            ++k;
        }
        return k > start;
    };
    bool whole = digits(), frac = false;
    if (k < s.size() && s[k] == '.') {
        text += s[k++];
        frac = digits();
    }
    if (!whole && !frac) return false;
    if (k < s.size() && (s[k] == 'e' || s[k] == 'E')) {
        size_t save = k;
        std::string save_text = text;
        text += s[k++];
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) text += s[k++];
        if (!digits()) {
            k = save;
            text = save_text;
        }
    }
    out = std::strtod(text.c_str(), nullptr);
    pos = k;
    return true;
}

// complex("1+2j"): CPython's complex_from_string_inner.
C parse_complex(const std::string& s) {
    auto malformed = [] { raise(types::ValueError, "complex() arg is a malformed string"); };
    auto space = [&](size_t& k) { while (k < s.size() && std::isspace(uint8_t(s[k]))) ++k; };
    size_t k = 0;
    space(k);
    bool bracket = k < s.size() && s[k] == '(';
    if (bracket) {
        ++k;
        space(k);
    }
    auto is_j = [&](size_t at) { return at < s.size() && (s[at] == 'j' || s[at] == 'J'); };
    C r{0, 0};
    double z;
    if (scan_float(s, k, z)) {
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) {
            r.re = z;
            double y;
            if (scan_float(s, k, y)) {
                r.im = y;
            } else {
                r.im = s[k] == '+' ? 1.0 : -1.0;
                ++k;
            }
            if (!is_j(k)) malformed();
            ++k;
        } else if (is_j(k)) {
            r.im = z;
            ++k;
        } else {
            r.re = z;
        }
    } else {
        r.im = 1.0;
        if (k < s.size() && (s[k] == '+' || s[k] == '-')) r.im = s[k++] == '+' ? 1.0 : -1.0;
        if (!is_j(k)) malformed();
        ++k;
    }
    space(k);
    if (bracket) {
        if (k >= s.size() || s[k] != ')') malformed();
        ++k;
        space(k);
    }
    if (k != s.size()) malformed();
    return r;
}

// A constructor argument: int, float, complex, or a NumPy scalar (through its scalar slot).
bool ctor_arg(const Value& v, C& out, bool& is_cplx) {
    Value x = v.is_obj() && v.o->type->scalar && !as_complex(v) ? v.o->type->scalar(v) : v;
    is_cplx = as_complex(x) != nullptr;
    return complex_parts(x, out.re, out.im);
}

Value t_complex(Interp& in, CallArgs& a) {
    const Value* real = a.npos > 0 ? &a.pos[0] : nullptr;
    const Value* imag = a.npos > 1 ? &a.pos[1] : nullptr;
    if (a.npos > 2) raise(types::TypeError, "complex() takes at most 2 arguments (" + std::to_string(a.npos) + " given)");
    for (size_t k = 0; k < a.nkw(); ++k) {
        auto& [name, value] = (*a.kw)[k];
        const Value** slot = name == "real" ? &real : name == "imag" ? &imag : nullptr;
        if (!slot) raise(types::TypeError, "'" + name + "' is an invalid keyword argument for complex()");
        if (*slot) raise(types::TypeError, "argument for complex() given by name ('" + name + "') and position (" +
                                               (name == "real" ? "1" : "2") + ")");
        *slot = &value;
    }
    if (!real && !imag) return make_complex(0.0, 0.0);
    if (real && is_kind(*real, OK::Str)) {
        if (imag) raise(types::TypeError, "complex() can't take second arg if first is a string");
        C r = parse_complex(real->as<StrObj>()->s);
        return make_complex(r.re, r.im);
    }
    if (imag && is_kind(*imag, OK::Str)) raise(types::TypeError, "complex() second arg can't be a string");
    C r{0, 0}, i{0, 0};
    bool r_cplx = false, i_cplx = false;
    if (real && !ctor_arg(*real, r, r_cplx))
        raise(types::TypeError, std::string("complex() first argument must be a string or a number, not '") + type_name(*real) + "'");
    if (!imag) return make_complex(r.re, r.im);
    if (!ctor_arg(*imag, i, i_cplx))
        raise(types::TypeError, std::string("complex() second argument must be a number, not '") + type_name(*imag) + "'");
    (void)in;
    // complex(a, b) is a + b*1j, also when a or b is complex.
    double re = r.re, im = i.re;  // no `+ 0.0` where nothing is added: -0.0 stays -0.0
    if (i_cplx) re -= i.im;
    if (r_cplx) im += r.im;
    return make_complex(re, im);
}

// ---- cmath ----

C cmath_arg(CallArgs& a, size_t k) {
    C c;
    bool is_cplx;
    if (!ctor_arg(a[k], c, is_cplx))
        raise(types::TypeError, std::string("must be real number, not ") + type_name(a[k]));
    return c;
}

[[noreturn]] void math_domain() { raise(types::ValueError, "math domain error"); }

// CPython's c_sqrt: scaled so that hypot cannot overflow or lose subnormals.
C c_sqrt(C z) {
    if (!std::isfinite(z.re) || !std::isfinite(z.im)) {
        // C99 Annex G special values.
        if (std::isinf(z.im)) return {INFINITY, z.im};
        if (std::isnan(z.re)) return {NAN, NAN};
        if (std::isinf(z.re)) {
            if (z.re > 0) return {z.re, std::isnan(z.im) ? z.im : std::copysign(0.0, z.im)};
            return {std::isnan(z.im) ? NAN : 0.0, std::copysign(INFINITY, z.im)};
        }
        return {NAN, NAN};
    }
    if (z.re == 0.0 && z.im == 0.0) return {0.0, z.im};
    double ax = std::fabs(z.re), ay = std::fabs(z.im), s;
    if (ax < DBL_MIN && ay < DBL_MIN) {
        ax = std::ldexp(ax, 53);
        s = std::ldexp(std::sqrt(ax + std::hypot(ax, std::ldexp(ay, 53))), -27);
    } else {
        ax /= 8.0;
        s = 2.0 * std::sqrt(ax + std::hypot(ax, ay / 8.0));
    }
    double d = ay / (2.0 * s);
    if (z.re >= 0.0) return {s, std::copysign(d, z.im)};
    return {d, std::copysign(s, z.im)};
}

C c_log(C z) {
    if (!std::isfinite(z.re) || !std::isfinite(z.im)) {
        double re = (std::isinf(z.re) || std::isinf(z.im)) ? INFINITY : NAN;
        return {re, std::atan2(z.im, z.re)};
    }
    double ax = std::fabs(z.re), ay = std::fabs(z.im), re;
    if (ax > DBL_MAX / 4 || ay > DBL_MAX / 4) {
        re = std::log(std::hypot(ax / 2.0, ay / 2.0)) + M_LN2;
    } else if (ax < DBL_MIN && ay < DBL_MIN) {
        if (ax == 0.0 && ay == 0.0) math_domain();
        re = std::log(std::hypot(std::ldexp(ax, 53), std::ldexp(ay, 53))) - 53 * M_LN2;
    } else {
        double h = std::hypot(ax, ay);
        if (0.71 <= h && h <= 1.73) {
            double am = ax > ay ? ax : ay, an = ax > ay ? ay : ax;
            re = std::log1p((am - 1) * (am + 1) + an * an) / 2.0;
        } else {
            re = std::log(h);
        }
    }
    return {re, std::atan2(z.im, z.re)};
}

C c_exp(C z) {
    if (!std::isfinite(z.re) || !std::isfinite(z.im)) {
        if (std::isinf(z.re) && z.re < 0 && !std::isfinite(z.im)) return {0.0, 0.0};
        if (std::isinf(z.re) && z.re > 0 && std::isinf(z.im)) math_domain();
        if (z.im == 0.0) return {std::exp(z.re), z.im};
        if (std::isinf(z.im)) math_domain();
        double l = std::exp(z.re);
        return {l * std::cos(z.im), l * std::sin(z.im)};
    }
    double l;
    C r;
    if (z.re > 708.0) {  // CM_LOG_LARGE_DOUBLE: exp(x - 1) * e keeps the last bit
        l = std::exp(z.re - 1.0);
        r = {l * std::cos(z.im) * M_E, l * std::sin(z.im) * M_E};
    } else {
        l = std::exp(z.re);
        r = {l * std::cos(z.im), l * std::sin(z.im)};
    }
    if (std::isinf(r.re) || std::isinf(r.im)) raise(types::OverflowError, "math range error");
    return r;
}

Value cm_sqrt(Interp&, CallArgs& a) {
    expect_args(a, "sqrt", 1, 1);
    C r = c_sqrt(cmath_arg(a, 0));
    return make_complex(r.re, r.im);
}

Value cm_exp(Interp&, CallArgs& a) {
    expect_args(a, "exp", 1, 1);
    C r = c_exp(cmath_arg(a, 0));
    return make_complex(r.re, r.im);
}

Value cm_log(Interp&, CallArgs& a) {
    expect_args(a, "log", 1, 2);
    C r = c_log(cmath_arg(a, 0));
    if (a.npos == 2) {
        bool by_zero = false;
        r = c_quot(r, c_log(cmath_arg(a, 1)), by_zero);
        if (by_zero) math_domain();
    }
    return make_complex(r.re, r.im);
}

Value cm_log10(Interp&, CallArgs& a) {
    expect_args(a, "log10", 1, 1);
    C r = c_log(cmath_arg(a, 0));
    return make_complex(r.re / M_LN10, r.im / M_LN10);
}

Value cm_phase(Interp&, CallArgs& a) {
    expect_args(a, "phase", 1, 1);
    C z = cmath_arg(a, 0);
    return Value::real(std::atan2(z.im, z.re));
}

Value cm_polar(Interp&, CallArgs& a) {
    expect_args(a, "polar", 1, 1);
    C z = cmath_arg(a, 0);
    double r = c_abs(z);
    return make_tuple({Value::real(r), Value::real(std::atan2(z.im, z.re))});
}

Value cm_rect(Interp&, CallArgs& a) {
    expect_args(a, "rect", 2, 2);
    C r = cmath_arg(a, 0), phi = cmath_arg(a, 1);
    if (r.im != 0 || phi.im != 0) raise(types::TypeError, "must be real number, not complex");
    if (std::isfinite(r.re) && std::isinf(phi.re) && r.re != 0) math_domain();
    return make_complex(r.re * std::cos(phi.re), r.re * std::sin(phi.re));
}

template <int Which>
Value cm_classify(Interp&, CallArgs& a) {
    expect_args(a, Which == 0 ? "isnan" : Which == 1 ? "isinf" : "isfinite", 1, 1);
    C z = cmath_arg(a, 0);
    if (Which == 0) return Value::boolean(std::isnan(z.re) || std::isnan(z.im));
    if (Which == 1) return Value::boolean(std::isinf(z.re) || std::isinf(z.im));
    return Value::boolean(std::isfinite(z.re) && std::isfinite(z.im));
}

}  // namespace

Value make_complex(double re, double im) { return Value::object(new ComplexObj(re, im)); }

bool complex_parts(const Value& v, double& re, double& im) {
    if (v.is_number()) {
        re = v.as_float();
        im = 0.0;
        return true;
    }
    if (ComplexObj* c = as_complex(v)) {
        re = c->re;
        im = c->im;
        return true;
    }
    return false;
}

Value complex_power(double are, double aim, double bre, double bim) {
    bool domain = false;
    C a{are, aim}, b{bre, bim};
    C r = (bim == 0.0 && bre == std::floor(bre) && std::fabs(bre) <= 100.0) ? c_powi(a, long(bre), domain) : c_pow(a, b, domain);
    if (domain) raise(types::ZeroDivisionError, "0.0 to a negative or complex power");
    if (std::isinf(r.re) || std::isinf(r.im)) raise(types::OverflowError, "complex exponentiation");
    return make_complex(r.re, r.im);
}

std::string complex_repr(double re, double im) {
    if (re == 0.0 && !std::signbit(re)) return part_repr(im) + "j";
    std::string i = part_repr(im);
    if (i[0] != '-') i = "+" + i;
    return "(" + part_repr(re) + i + "j)";
}

void install_complex_type() {
    TypeObject* t = types::complex;
    t->binary = slot_binary;
    t->unary = slot_unary;
    t->truth = slot_truth;
    t->repr = slot_repr;
    t->equal = slot_equal;
    t->hash = slot_hash;
    t->getattr = slot_getattr;
    t->construct = t_complex;
    t->doc = "complex(real=0, imag=0): a complex number (two floats)";
    def_method(t, "conjugate", m_conjugate, "complex.conjugate()", "Return the complex conjugate of its argument. (3-4j).conjugate() == 3+4j.");
    def_method(t, "__abs__", m_abs, "complex.__abs__()", "abs(self)");
}

ModuleObj* make_cmath(Interp&) {
    auto* m = new ModuleObj("cmath");
    m->doc = "Mathematical functions for complex numbers, as Python's cmath module.";
    auto def = [m](const char* name, NativeFn fn, const char* sig, const char* doc) { m->set(name, make_builtin(name, fn, sig, doc)); };
    def("sqrt", cm_sqrt, "sqrt(z, /)", "Return the square root of z.");
    def("exp", cm_exp, "exp(z, /)", "Return the exponential value e**z.");
    def("log", cm_log, "log(z[, base])", "Return the logarithm of z to the given base (natural by default).");
    def("log10", cm_log10, "log10(z, /)", "Return the base-10 logarithm of z.");
    def("phase", cm_phase, "phase(z, /)", "Return argument, also known as the phase angle, of a complex.");
    def("polar", cm_polar, "polar(z, /)", "Convert a complex from rectangular coordinates to polar coordinates (r, phi).");
    def("rect", cm_rect, "rect(r, phi, /)", "Convert from polar coordinates to rectangular coordinates.");
    def("isnan", cm_classify<0>, "isnan(z, /)", "Checks if the real or imaginary part of z is not a number (NaN).");
    def("isinf", cm_classify<1>, "isinf(z, /)", "Checks if the real or imaginary part of z is infinite.");
    def("isfinite", cm_classify<2>, "isfinite(z, /)", "Return True if both the real and imaginary parts of z are finite.");
    m->set("pi", Value::real(M_PI));
    m->set("e", Value::real(M_E));
    m->set("tau", Value::real(2 * M_PI));
    m->set("inf", Value::real(INFINITY));
    m->set("nan", Value::real(NAN));
    m->set("infj", make_complex(0.0, INFINITY));
    m->set("nanj", make_complex(0.0, NAN));
    return m;
}

}  // namespace gpy
