// Complex parts of arrays: x.real / x.imag (views into the interleaved data,
// as NumPy), np.real, np.imag, np.angle, np.conj, x.conj(), iscomplex & co.
#include <cmath>

#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/ufuncs.h"

namespace gpy {

Value complex_part(const Value& x, bool imag) {
    ArrayObj* a = as_array(x);
    if (!is_complex(a->dtype)) {
        if (!imag) return x;
        // A real array's imaginary part: zeros of its dtype (read-only in NumPy).
        Value z = new_array(a->dtype, a->shape, true);
        set_numpy_scalar(z.as<ArrayObj>(), a->numpy_scalar);
        return z;
    }
    materialize(a);
    DType part = a->dtype == DType::Complex64 ? DType::Float32 : DType::Float64;
    Value v = array_from_buffer(a->buffer, part, a->shape, a->strides, a->offset + (imag ? int64_t(itemsize(part)) : 0));
    set_numpy_scalar(v.as<ArrayObj>(), a->numpy_scalar);
    return v;
}

namespace {

// np.real(val) is val.real when val has one: a Python number's own part
// (np.real(True) is 1, np.imag(2.5) is 0.0), else the array's.
Value python_part(const Value& v, bool imag) {
    if (ComplexObj* c = as_complex(v)) return Value::real(imag ? c->im : c->re);
    if (v.is_float()) return Value::real(imag ? 0.0 : v.f);
    return Value::integer(imag ? 0 : v.as_int());
}

Value np_real(Interp& in, CallArgs& a) {
    expect_args(a, "real", 1, 1);
    if (a.pos[0].is_number() || as_complex(a.pos[0])) return python_part(a.pos[0], false);
    return complex_part(as_array_value(in, a.pos[0]), false);
}

Value np_imag(Interp& in, CallArgs& a) {
    expect_args(a, "imag", 1, 1);
    if (a.pos[0].is_number() || as_complex(a.pos[0])) return python_part(a.pos[0], true);
    return complex_part(as_array_value(in, a.pos[0]), true);
}

// NumPy's angle: arctan2(z.imag, z.real), or arctan2(0, z) for real z.
Value np_angle(Interp& in, CallArgs& a) {
    const Value* deg = a.npos > 1 ? &a.pos[1] : kwarg(a, "deg");
    if (a.npos < 1 || a.npos > 2) raise(types::TypeError, "angle() takes from 1 to 2 positional arguments but " + std::to_string(a.npos) + " were given");
    Value z = as_array_value(in, a.pos[0]);
    bool cplx = is_complex(z.as<ArrayObj>()->dtype);
    Value r = apply_ufunc(in, Ufunc::arctan2, {cplx ? complex_part(z, true) : Value::integer(0), cplx ? complex_part(z, false) : z});
    if (deg && truthy(*deg)) r = apply_ufunc(in, Ufunc::multiply, {r, Value::real(180 / M_PI)});
    return r;
}

bool complex_dtype_of(Interp& in, const Value& x) {
    if (as_complex(x)) return true;
    return is_complex(as_array_value(in, x).as<ArrayObj>()->dtype);
}

Value np_iscomplexobj(Interp& in, CallArgs& a) {
    expect_args(a, "iscomplexobj", 1, 1);
    return Value::boolean(complex_dtype_of(in, a.pos[0]));
}

Value np_isrealobj(Interp& in, CallArgs& a) {
    expect_args(a, "isrealobj", 1, 1);
    return Value::boolean(!complex_dtype_of(in, a.pos[0]));
}

// iscomplex: imag != 0 elementwise; isreal: imag == 0.
Value imag_test(Interp& in, CallArgs& a, const char* fname, Ufunc ufunc) {
    expect_args(a, fname, 1, 1);
    Value x = as_array_value(in, a.pos[0]);
    return apply_ufunc(in, ufunc, {complex_part(x, true), Value::integer(0)});
}
Value np_iscomplex(Interp& in, CallArgs& a) { return imag_test(in, a, "iscomplex", Ufunc::not_equal); }
Value np_isreal(Interp& in, CallArgs& a) { return imag_test(in, a, "isreal", Ufunc::equal); }

// x.conj(): the conjugate ufunc for complex x; a real x is returned itself
// (NumPy's PyArray_Conjugate: a bool array stays bool, where np.conj gives int8).
Value m_conj(Interp& in, CallArgs& a) {
    expect_args(a, "conj", 1, 1);
    if (ArrayObj* x = as_array(a.pos[0]); x && !is_complex(x->dtype)) return a.pos[0];
    return apply_ufunc(in, Ufunc::conjugate, {a.pos[0]});
}

}  // namespace

void add_complex_functions(Interp&, ModuleObj* m) {
    m->set("real", make_builtin("real", np_real, "real(val)", "The real part of the elements (a view for complex arrays)."));
    m->set("imag", make_builtin("imag", np_imag, "imag(val)", "The imaginary part of the elements (a view for complex arrays)."));
    m->set("angle", make_builtin("angle", np_angle, "angle(z, deg=False)", "The counterclockwise angle from the positive real axis."));
    m->set("iscomplexobj", make_builtin("iscomplexobj", np_iscomplexobj, "iscomplexobj(x)", "True if x has a complex dtype."));
    m->set("isrealobj", make_builtin("isrealobj", np_isrealobj, "isrealobj(x)", "True if x does not have a complex dtype."));
    m->set("iscomplex", make_builtin("iscomplex", np_iscomplex, "iscomplex(x)", "Elementwise: the imaginary part is not zero."));
    m->set("isreal", make_builtin("isreal", np_isreal, "isreal(x)", "Elementwise: the imaginary part is zero."));
    m->set("conj", *m->get("conjugate"));  // the same ufunc object, as NumPy
}

void install_complex_methods() {
    def_method(types::ndarray, "conj", m_conj, "ndarray.conj()", "Complex-conjugate all elements.");
    def_method(types::ndarray, "conjugate", m_conj, "ndarray.conjugate()", "Complex-conjugate all elements.");
}

}  // namespace gpy
