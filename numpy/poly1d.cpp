// np.poly1d: NumPy's one-variable polynomial class, as a native type over
// numpy/py/poly1d.py. The object holds the coefficients (highest power
// first, leading zeros trimmed) and the variable name; construction,
// printing, calling, arithmetic, deriv and integ are the Python functions
// _poly1d_* there, so the rules are written once, in NumPy's own terms.
#include "lang/ast.h"
#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"

namespace gpy {

namespace {

struct Poly1dObj : Object {
    Value coeffs;  // 1-d ndarray
    std::string variable = "x";
    using Object::Object;
};

TypeObject* poly1d_type();

Poly1dObj* self_poly(const Value& v) { return v.as<Poly1dObj>(); }

// The numpy/py helper `name` (defined in the numpy module).
Value helper(Interp& in, const char* name) {
    const Value* f = in.import_module("numpy")->get(name);
    if (!f) raise(types::RuntimeError, std::string("numpy.") + name + " is missing");
    return *f;
}

Value call_helper(Interp& in, const char* name, std::vector<Value> args) {
    CallArgs a{args.data(), args.size(), nullptr};
    return in.call(helper(in, name), a);
}

// poly1d(c_or_r, r=False, variable=None)
Value poly1d_new(Interp& in, CallArgs& a) {
    const Value* c = arg(a, 0, "c_or_r");
    if (!c) raise(types::TypeError, "poly1d.__init__() missing 1 required positional argument: 'c_or_r'");
    const Value* r = arg(a, 1, "r");
    const Value* var = arg(a, 2, "variable");
    auto* p = new Poly1dObj(poly1d_type());
    Value out = Value::object(p);
    if (c->is_obj() && c->o->type == poly1d_type()) {
        p->coeffs = self_poly(*c)->coeffs;
        p->variable = self_poly(*c)->variable;
    } else {
        p->coeffs = call_helper(in, "_poly1d_init", {*c, Value::boolean(r && truthy(*r))});
    }
    if (var && !var->is_none()) p->variable = str_of(*var, "variable");
    return out;
}

Value poly1d_getattr(Interp& in, const Value& v, const std::string& name) {
    Poly1dObj* p = self_poly(v);
    if (name == "coeffs" || name == "c" || name == "coef" || name == "coefficients") return p->coeffs;
    if (name == "order" || name == "o") return Value::integer(as_array(p->coeffs)->size() - 1);
    if (name == "roots" || name == "r") return call_helper(in, "roots", {p->coeffs});
    if (name == "variable") return make_str(p->variable);
    return Value();
}

std::string poly1d_repr(Interp& in, const Value& v) { return str_of(call_helper(in, "_poly1d_repr", {v}), "repr"); }
std::string poly1d_str(Interp& in, const Value& v) { return str_of(call_helper(in, "_poly1d_str", {v}), "str"); }

Value poly1d_binary(Interp& in, BinOp op, const Value& a, const Value& b) {
    const char* name = nullptr;
    switch (op) {
        case BinOp::Add: name = "add"; break;
        case BinOp::Sub: name = "sub"; break;
        case BinOp::Mul: name = "mul"; break;
        case BinOp::Div: name = "truediv"; break;
        case BinOp::Pow: name = "pow"; break;
        default: return Value();
    }
    return call_helper(in, "_poly1d_binop", {make_str(name), a, b});
}

Value poly1d_unary(Interp& in, UnOp op, const Value& v) {
    if (op == UnOp::Pos) return v;
    if (op == UnOp::Neg) return call_helper(in, "_poly1d_binop", {make_str("mul"), v, Value::integer(-1)});
    return Value();
}

Value poly1d_compare(Interp& in, CmpOp op, const Value& a, const Value& b) {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return Value();
    // == is NumPy's (coeffs == other.coeffs).all() (an np.bool_), != its negation (a bool).
    Value eq = call_helper(in, "_poly1d_equal", {a, b});
    return op == CmpOp::Eq ? eq : Value::boolean(!truthy(eq));
}

int64_t poly1d_len(Interp&, const Value& v) { return as_array(self_poly(v)->coeffs)->size() - 1; }

Value poly1d_getitem(Interp& in, const Value& v, const Value& key) { return call_helper(in, "_poly1d_getitem", {v, key}); }

// Methods: the helper with self first and the call's arguments after.
template <const char* Name>
Value poly1d_method(Interp& in, CallArgs& a) {
    CallArgs rest = a;
    return in.call(helper(in, Name), rest);
}
Value poly1d_array(Interp&, CallArgs& a) { return self_poly(a.pos[0])->coeffs; }

constexpr char kCall[] = "_poly1d_call";
constexpr char kDeriv[] = "_poly1d_deriv";
constexpr char kInteg[] = "_poly1d_integ";

TypeObject* poly1d_type() {
    static TypeObject* type = [] {
        auto* t = new TypeObject("numpy.poly1d", nullptr, OK::Other);
        t->construct = poly1d_new;
        t->getattr = poly1d_getattr;
        t->repr = poly1d_repr;
        t->str = poly1d_str;
        t->binary = poly1d_binary;
        t->unary = poly1d_unary;
        t->compare = poly1d_compare;
        t->len = poly1d_len;
        t->getitem = poly1d_getitem;
        def_method(t, "__call__", poly1d_method<kCall>, "__call__(val)", "The polynomial's value at val (polyval).");
        def_method(t, "__array__", poly1d_array, "__array__(dtype=None, copy=None)", "The coefficients (np.asarray(p)).");
        def_method(t, "deriv", poly1d_method<kDeriv>, "deriv(m=1)", "The m-th derivative.");
        def_method(t, "integ", poly1d_method<kInteg>, "integ(m=1, k=0)", "The m-th antiderivative, constants k.");
        return t;
    }();
    return type;
}

}  // namespace

void add_poly1d(Interp&, ModuleObj* m) { m->set("poly1d", Value::object(poly1d_type())); }

}  // namespace gpy
