// Elementwise operations (NumPy ufuncs): operand conversion with NEP 50 weak
// Python scalars, broadcasting, type resolution, and the lazy node they build.
#include <cfenv>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <unordered_map>

#include "codegen/kernel.h"
#include "codegen/plan.h"
#include "runtime/array_context.h"
#include "runtime/backend.h"
#include "numpy/promote.h"
#include "numpy/array.h"
#include "numpy/array_state.h"
#include "numpy/scalar_types.h"
#include "numpy/shape_funcs.h"
#include "numpy/ufuncs.h"

namespace gpy {

using namespace dag;

dag::Shape broadcast_shapes(std::span<const dag::Shape* const> shapes) {
    size_t nd = 0;
    for (auto* s : shapes) nd = std::max(nd, s->size());
    dag::Shape out(nd, 1);
    for (auto* s : shapes) {
        for (size_t k = 0; k < s->size(); ++k) {
            int64_t d = (*s)[k];
            int64_t& o = out[nd - s->size() + k];
            if (d == o || d == 1) continue;
            if (o == 1) { o = d; continue; }
            std::string msg = "operands could not be broadcast together with shapes ";
            for (auto* t : shapes) msg += compact_shape_text(*t) + " ";
            raise(types::ValueError, msg);
        }
    }
    return out;
}

ScalarValue convert_scalar(const Value& v, DType t) {
    ScalarValue s;
    if (ComplexObj* c = as_complex(v)) {
        // Into a real dtype: the real part, as NumPy's complex -> real cast.
        if (!is_complex(t)) return convert_scalar(Value::real(c->re), t);
        if (t == DType::Complex64) {
            float parts[2] = {float(c->re), float(c->im)};
            std::memcpy(s.raw, parts, 8);
        } else {
            s.f = c->re;
            s.imag = c->im;
        }
        return s;
    }
    if (!v.is_number()) {
        // The checked path for anything but a Python number: a NumPy scalar or
        // a one-element array gives its value, anything else is a TypeError
        // (never the bits of a pointer).
        if (v.is_obj() && v.o->type->scalar) return convert_scalar(v.o->type->scalar(v), t);
        raise(types::TypeError, std::string("expected a number, not '") + type_name(v) + "'");
    }
    double f = v.as_float();
    int64_t i = v.is_float() ? (std::fabs(v.f) < 9223372036854775808.0 ? int64_t(v.f) : 0) : v.as_int();
    switch (t) {
        case DType::Bool: s.b = v.is_float() ? f != 0 : i != 0; break;
        case DType::Int8: { int8_t x = int8_t(i); std::memcpy(s.raw, &x, 1); break; }
        case DType::Int16: { int16_t x = int16_t(i); std::memcpy(s.raw, &x, 2); break; }
        case DType::Int32: { int32_t x = int32_t(i); std::memcpy(s.raw, &x, 4); break; }
        case DType::Int64: s.i = i; break;
        case DType::UInt8: { uint8_t x = uint8_t(i); std::memcpy(s.raw, &x, 1); break; }
        case DType::UInt16: { uint16_t x = uint16_t(i); std::memcpy(s.raw, &x, 2); break; }
        case DType::UInt32: { uint32_t x = uint32_t(i); std::memcpy(s.raw, &x, 4); break; }
        case DType::UInt64: s.u = uint64_t(i); break;
        case DType::Float16: { _Float16 x = _Float16(f); std::memcpy(s.raw, &x, 2); break; }
        case DType::Float32: s.f32 = float(f); break;
        case DType::Float64: s.f = f; break;
        case DType::Complex64: { float parts[2] = {float(f), 0.0f}; std::memcpy(s.raw, parts, 8); break; }
        case DType::Complex128: s.f = f; break;
    }
    return s;
}

Operand operand_of(const Value& v) {
    if (ArrayObj* arr = as_array(v)) return Operand::array(arr->dtype);
    if (v.is_bool()) return Operand::py_bool(v.b);
    if (v.is_int()) return Operand::py_int(v.i);
    if (as_complex(v)) return Operand::py_complex();
    return Operand::py_float(v.as_float());
}

namespace {

struct Arg {
    Value array;   // set for array operands
    Value python;  // set for Python scalars
    Operand op{DType::Float64};
};

Arg to_arg(Interp& in, const Value& v) {
    Arg a;
    if (as_array(v) || v.is_number() || as_complex(v)) {
        (as_array(v) ? a.array : a.python) = v;
        a.op = operand_of(v);
        return a;
    }
    if (is_kind(v, OK::List) || is_kind(v, OK::Tuple)) {
        a.array = as_array_value(in, v);
        a.op = Operand::array(a.array.as<ArrayObj>()->dtype);
        return a;
    }
    raise(types::TypeError, std::string("unsupported operand type for a NumPy operation: '") + type_name(v) + "'");
}

// The Scalar node of a Python operand, shared: a statement's literals repeat
// (Black-Scholes builds ~30, the same ones at every call; a loop body's at
// every iteration), and a Scalar node is never computed or changed once
// built, so one node per (dtype, bits) serves every graph on this thread.
// A statement then allocates and frees fewer nodes, and the kernel memo's
// key walk meets a shared scalar once instead of comparing each new one
// with all the scalars before it.
NodeP python_scalar_node(DType t, const Value& v) {
    const ScalarValue s = convert_scalar(v, t);
    uint64_t bits, imag;
    std::memcpy(&bits, s.raw, sizeof bits);
    std::memcpy(&imag, &s.imag, sizeof imag);
    thread_local NodeP cache[64];
    uint64_t h = (bits ^ imag ^ uint64_t(t) << 56) * 0x9E3779B97F4A7C15ull;
    NodeP& slot = cache[h >> 58];
    if (slot && slot->dtype == t && std::memcmp(slot->value.raw, s.raw, sizeof bits) == 0 &&
        std::memcmp(&slot->value.imag, &imag, sizeof imag) == 0)
        return slot;
    slot = make_scalar(t, s);
    return slot;
}

}  // namespace

// where=mask: mask ? result : out (NumPy leaves the False elements of a new
// result uninitialised; gpy makes them 0). One fused node.
static Value mask_result(Interp& in, const Value& result, const Value& where, const Value* out) {
    ArrayObj* r = result.as<ArrayObj>();
    Value mask = as_array_value(in, where);
    ArrayObj* m = mask.as<ArrayObj>();
    ArrayObj* o = out ? as_array(*out) : nullptr;
    Shape shape = broadcast_shapes({&r->shape, &m->shape, o ? &o->shape : &r->shape});
    NodeP cond = make_cast(array_node(m), DType::Bool);
    // With out=, the masked-out elements keep out's values exactly: the
    // select runs in out's dtype (a round trip through a bool result would
    // turn 7 into 1).
    if (o) return array_from_node(make_where(cond, make_cast(array_node(r), o->dtype), array_node(o), shape));
    NodeP keep = make_scalar(r->dtype, ScalarValue());
    return array_from_node(make_where(cond, array_node(r), keep, shape), r->numpy_scalar && m->numpy_scalar);
}

// NumPy's float32/float64 power loop takes a fast path when the exponent's
// stride is zero (a scalar, or a size-1 array broadcast against the base):
// an exponent of 0.5 is then sqrt, so (-0.0) ** 0.5 is -0.0 and
// (-inf) ** 0.5 NaN, where pow gives +0.0 and inf. (Its other fast paths,
// -1, 0, 1 and 2, give pow's own results.)
static bool is_sqrt_power(Interp& in, const Arg& exponent, DType base_loop, const Shape& shape) {
    if (base_loop != DType::Float32 && base_loop != DType::Float64) return false;
    if (exponent.array.is_undef()) return exponent.python.is_number() && exponent.python.as_float() == 0.5;
    ArrayObj* e = exponent.array.as<ArrayObj>();
    if (e->size() != 1 || (e->ndim() > 0 && e->shape == shape) || is_complex(e->dtype)) return false;
    (void)in;
    HostArrayView h = host_view(e);
    Value v = element_to_python(e, h.data);
    return v.is_number() && v.as_float() == 0.5;
}

// np.errstate(...='raise'): the ufunc computes now, on the host and on one
// thread (runtime/cpu_backend.cpp under ArrayContext::fp_watch), and the
// floating-point flags it raised give NumPy's FloatingPointError, checked in
// NumPy's order (divide, over, under, invalid). A GPU context's arrays are
// read from managed memory once the device is idle; the result is a host
// array (GPU kernels read a copy).
static Value computed_raising_fp_errors(Interp& in, const std::string& name, const NodeP& node, bool all_scalars) {
    ArrayContext* c = array_context();
    if (c && c->backend) c->backend->synchronize();
    HostArraysScope host;
    Value r = array_from_node(node, all_scalars);
    if (c) {
        c->fp_watch = true;
        c->fp_flags = 0;
    }
    try {
        materialize(r.as<ArrayObj>());
    } catch (...) {
        if (c) c->fp_watch = false;
        throw;
    }
    if (!c) return r;
    c->fp_watch = false;
    static const int kFlag[4] = {FE_DIVBYZERO, FE_OVERFLOW, FE_UNDERFLOW, FE_INVALID};
    static const char* kText[4] = {"divide by zero", "overflow", "underflow", "invalid value"};
    for (int k = 0; k < 4; ++k)
        if ((c->fp_flags & kFlag[k]) && array_state(in).errstate[k] == "raise")
            raise(types::FloatingPointError, std::string(kText[k]) + " encountered in " + name);
    return r;
}

Value apply_ufunc(Interp& in, Ufunc f, std::span<const Value> values, const UfuncOptions& opts) {
    const UfuncDef& def = ufunc_def(f);
    // Fixed-size operand arrays: this runs once per array operation, and its
    // allocations were most of a graph's build time (Black-Scholes, 2026-11-25).
    constexpr size_t kMaxOperands = 4;
    if (values.size() > kMaxOperands) {
        std::vector<Operand> all;
        for (const Value& v : values) all.push_back(operand_of(v));
        try {
            resolve_ufunc(f, all);  // raises NumPy's arity error
        } catch (const PromotionError& e) {
            raise(types::TypeError, e.what());
        }
        raise(types::TypeError, "np." + std::string(def.name) + " takes at most " + std::to_string(kMaxOperands) + " operands");
    }
    const size_t nargs = values.size();
    // The fixed arrays are built from prvalues (copy elision), not assigned
    // in a loop: each assignment moved a returned temporary with a 16-byte
    // load that the processor could not forward from the callee's two 8-byte
    // stores, stalling on the store buffer (perf: ~30% of this function).
    auto arg_at = [&](size_t k) { return k < nargs ? to_arg(in, values[k]) : Arg(); };
    Arg args[kMaxOperands] = {arg_at(0), arg_at(1), arg_at(2), arg_at(3)};
    static_assert(kMaxOperands == 4);
    Operand ops[kMaxOperands] = {args[0].op, args[1].op, args[2].op, args[3].op};
    DType loop_in[kMaxOperands];
    DType out_dtype;
    std::optional<bool> constant_result;
    try {
        auto take = [&](const UfuncLoop& loop) {
            std::copy(loop.in.begin(), loop.in.end(), loop_in);
            out_dtype = loop.out[0];
            constant_result = loop.constant_result;
        };
        // dtype= fixes the output dtype and picks the loop from it (NumPy's
        // type-tuple resolver); it is rare, so not memoised.
        std::span<const Operand> operands(ops, nargs);
        if (opts.dtype) take(resolve_ufunc_for_dtype(f, operands, *opts.dtype));
        else take(resolve_ufunc_memo(f, operands));
    } catch (const PromotionError& e) {
        raise(e.kind == "OverflowError" ? types::OverflowError : e.kind == "UFuncTypeError" ? types::UFuncTypeError : types::TypeError,
              e.what());
    }
    // out= (also `a op= b`): NumPy checks the cast back (same_kind) before
    // the shapes, and out's shape takes part in the broadcast.
    ArrayObj* out = nullptr;
    if (opts.out) {
        out = as_array(*opts.out);
        if (!out) raise(types::TypeError, "return arrays must be of ArrayType");
        if (out_dtype != out->dtype && !can_cast(out_dtype, out->dtype, Casting::SameKind))
            raise(types::UFuncTypeError, "Cannot cast ufunc '" + std::string(def.numpy_name) + "' output from dtype('" + gpy::name(out_dtype) +
                                             "') to dtype('" + gpy::name(out->dtype) + "') with casting rule 'same_kind'");
    }
    static const Shape kScalarShape;
    const Shape* shapes[kMaxOperands + 1];
    size_t nshapes = 0;
    for (size_t k = 0; k < nargs; ++k) shapes[nshapes++] = args[k].array.is_undef() ? &kScalarShape : &args[k].array.as<ArrayObj>()->shape;
    if (out) shapes[nshapes++] = &out->shape;
    Shape shape = broadcast_shapes(std::span<const Shape* const>(shapes, nshapes));
    if (out && shape != out->shape)
        raise(types::ValueError, "non-broadcastable output operand with shape " + compact_shape_text(out->shape) +
                                     " doesn't match the broadcast shape " + compact_shape_text(shape));
    bool all_scalars = true;  // every operand a scalar (Python, NumPy or 0-d): NumPy returns a scalar
    for (size_t k = 0; k < nargs; ++k)
        if (!args[k].array.is_undef() && args[k].array.as<ArrayObj>()->ndim() != 0) all_scalars = false;
    NodeP node;
    const bool node_was_constant = constant_result.has_value();
    if (constant_result) {
        // NumPy answers e.g. uint8_array < 300 without computing: all True.
        ScalarValue v;
        v.b = *constant_result;
        node = make_scalar(DType::Bool, v);
    } else {
        const UfuncOp code = ufunc_op(f);
        if (code.kind == UfuncOp::None) raise(types::NotImplementedError, "ufunc '" + std::string(def.name) + "' is not implemented yet");
        const bool unary = code.kind == UfuncOp::Unary;
        auto node_at = [&](size_t k) -> NodeP {
            if (k >= nargs) return nullptr;
            DType want = loop_in[k];
            if (!args[k].array.is_undef()) return make_cast(array_node(args[k].array.as<ArrayObj>()), want);
            return python_scalar_node(want, args[k].python);
        };
        NodeP inputs[kMaxOperands] = {node_at(0), node_at(1), node_at(2), node_at(3)};
        // Complex loops the emitter lacks raise here rather than compute something wrong.
        bool complex_in = false;
        for (size_t k = 0; k < nargs; ++k) complex_in = complex_in || is_complex(loop_in[k]);
        if (complex_in && (f == Ufunc::fmax || f == Ufunc::fmin)) {
            // NumPy's complex fmax/fmin: maximum/minimum where neither holds a NaN, else the one without.
            NodeP a = std::move(inputs[0]), b = std::move(inputs[1]);
            NodeP m = make_binary(f == Ufunc::fmax ? BinaryOp::Max : BinaryOp::Min, a, b, out_dtype, Shape(shape));
            node = make_where(make_unary(UnaryOp::IsNan, b, DType::Bool), make_cast(a, out_dtype),
                              make_where(make_unary(UnaryOp::IsNan, a, DType::Bool), make_cast(b, out_dtype), m, shape), shape);
        } else if (complex_in && !(unary ? complex_unary_supported(code.unary) : complex_binary_supported(code.binary))) {
            raise(types::NotImplementedError, "np." + std::string(def.name) + " of complex values is not supported yet");
        } else if (unary) {
            node = make_unary(code.unary, std::move(inputs[0]), out_dtype);
            if (node->shape != shape) node->shape = shape;  // a Python scalar operand: shape ()
        } else {
            // (power's own loop: float_power, the same op, has no such path)
            if (f == Ufunc::power && !opts.scalar_power && is_sqrt_power(in, args[1], loop_in[0], shape)) {
                NodeP base = std::move(inputs[0]);
                // A size-1 exponent of more dimensions broadcasts the base.
                if (ArrayObj* b = as_array(args[0].array); b && b->shape != shape)
                    base = make_cast(array_node(broadcast_view(b, shape).as<ArrayObj>()), loop_in[0]);
                node = make_unary(UnaryOp::Sqrt, std::move(base), out_dtype);
                if (node->shape != shape) node->shape = shape;  // a Python scalar base: shape ()
            } else
                node = make_binary(code.binary, std::move(inputs[0]), std::move(inputs[1]), out_dtype, Shape(shape));
        }
        // NumPy: integer ** negative integer is an error, checked here for
        // scalar exponents (array exponents report from the kernel); an empty
        // result computes nothing, so raises nothing.
        if (node->size() > 0 && !unary && code.binary == BinaryOp::Pow && is_integer(loop_in[1]) && !args[1].python.is_undef() &&
            args[1].python.is_int() && args[1].python.i < 0)
            raise(types::ValueError, "Integers to negative integer powers are not allowed.");
    }
    if (!constant_result && array_state(in).fp_raise) {
        if (opts.where) {
            // NumPy computes only where the mask is True: those elements are
            // checked (computed once more, selected), then the result is
            // computed as without 'raise'.
            Value m = as_array_value(in, *opts.where);
            Value mask = broadcast_view(m.as<ArrayObj>(), shape);
            std::vector<Value> picked;
            for (size_t k = 0; k < nargs; ++k)
                picked.push_back(args[k].array.is_undef() ? values[k]
                                                          : get_item(in, broadcast_view(args[k].array.as<ArrayObj>(), shape), mask));
            UfuncOptions checked;
            checked.dtype = opts.dtype;
            apply_ufunc(in, f, picked, checked);
        } else {
            // NumPy's scalar math names its operations "scalar multiply".
            bool numpy_scalar = false, scalars_only = true;
            for (size_t k = 0; k < nargs; ++k) {
                ArrayObj* a = args[k].array.is_undef() ? nullptr : args[k].array.as<ArrayObj>();
                if (a && a->numpy_scalar) numpy_scalar = true;
                else if (a) scalars_only = false;
            }
            std::string name = std::string(opts.operator_call && numpy_scalar && scalars_only ? "scalar " : "") + std::string(def.numpy_name);
            Value r = computed_raising_fp_errors(in, name, node, all_scalars);
            if (opts.out) {
                assign_array(in, *opts.out, r, /*value_is_temporary=*/true);
                return *opts.out;
            }
            return r;
        }
    }
    // Scalars only, each a Python number or a host NumPy scalar, on a GPU
    // context: computed now on the host, as NumPy computes its scalars (the
    // host's libm, no launch); the result is a host scalar too.
    std::optional<HostArraysScope> host;
    if (all_scalars && !opts.out && !opts.where && HostArraysScope::active()) {
        bool on_host = true;
        for (size_t k = 0; k < nargs && on_host; ++k) {
            ArrayObj* a = args[k].array.is_undef() ? nullptr : args[k].array.as<ArrayObj>();
            on_host = !a || (a->buffer && a->buffer->device == DeviceKind::CPU && !(a->node && !a->node->result));
        }
        if (on_host) host.emplace();
    }
    Value result = node->op == Op::Scalar ? compute_into_new(node, DType::Bool, shape) : array_from_node(std::move(node), all_scalars);
    if (node_was_constant && all_scalars) set_numpy_scalar(result.as<ArrayObj>(), true);  // np.uint32(5) > -3 is np.True_
    if (host) materialize(result.as<ArrayObj>());
    if (opts.where) result = mask_result(in, result, *opts.where, opts.out);
    if (opts.out) {
        assign_array(in, *opts.out, result, /*value_is_temporary=*/true);
        return *opts.out;
    }
    return result;
}

// ---- operator slots ----

// The ufunc of a Python operator (@ is matmul, not a ufunc: handled first).
static Ufunc binop_ufunc(BinOp op) {
    switch (op) {
        case BinOp::Add: return Ufunc::add;
        case BinOp::Sub: return Ufunc::subtract;
        case BinOp::Mul: return Ufunc::multiply;
        case BinOp::Div: return Ufunc::divide;
        case BinOp::FloorDiv: return Ufunc::floor_divide;
        case BinOp::Mod: return Ufunc::remainder;
        case BinOp::Pow: return Ufunc::power;
        case BinOp::BitAnd: return Ufunc::bitwise_and;
        case BinOp::BitOr: return Ufunc::bitwise_or;
        case BinOp::BitXor: return Ufunc::bitwise_xor;
        case BinOp::LShift: return Ufunc::left_shift;
        case BinOp::RShift: return Ufunc::right_shift;
        case BinOp::MatMul: break;
    }
    throw std::logic_error("binop_ufunc: @ is not a ufunc");
}

static bool array_operand(const Value& v) {
    return as_array(v) || v.is_number() || as_complex(v) || is_kind(v, OK::List) || is_kind(v, OK::Tuple);
}

Value slot_binary(Interp& in, BinOp op, const Value& a, const Value& b) {
    if (!array_operand(a) || !array_operand(b)) return Value();
    // A NumPy scalar leaves `*` with a list or tuple to the sequence, as
    // NumPy's scalars do: [0] * np.int64(3) repeats the list (a float
    // scalar: "can't multiply sequence by non-int").
    if (op == BinOp::Mul) {
        auto scalar = [](const Value& v) { ArrayObj* x = as_array(v); return x && x->numpy_scalar; };
        auto sequence = [](const Value& v) { return is_kind(v, OK::List) || is_kind(v, OK::Tuple); };
        if ((scalar(a) && sequence(b)) || (scalar(b) && sequence(a))) return Value();
    }
    if (op == BinOp::MatMul) return matmul(in, a, b);
    // array ** scalar: NumPy's operator fast paths (np.power itself has none):
    // ** 2 is square for every dtype (bool ** 2 is int8), and for inexact
    // arrays ** 0.5, ** 1, ** -1 are sqrt, positive, reciprocal.
    // A NumPy scalar base with a scalar exponent is NumPy's scalar math: pow
    // ((-0.0) ** 0.5 is 0.0, not sqrt's -0.0).
    ArrayObj* base = op == BinOp::Pow ? as_array(a) : nullptr;  // only ** looks (every operator passes here)
    ArrayObj* ex = base ? as_array(b) : nullptr;
    if (base && base->numpy_scalar && (b.is_number() || (ex && ex->numpy_scalar))) {
        UfuncOptions o;
        o.scalar_power = true;
        o.operator_call = true;
        return apply_ufunc(in, Ufunc::power, {a, b}, o);
    }
    if (op == BinOp::Pow && as_array(a) && (b.is_int() || b.is_float())) {
        double e = b.as_float();
        bool inexact = is_inexact(as_array(a)->dtype);
        if (e == 2 && (inexact || b.is_int())) return apply_ufunc(in, Ufunc::square, {a});
        if (inexact && e == 0.5) return apply_ufunc(in, Ufunc::sqrt, {a});
        if (inexact && e == 1) return apply_ufunc(in, Ufunc::positive, {a});
        if (inexact && e == -1) return apply_ufunc(in, Ufunc::reciprocal, {a});
    }
    UfuncOptions by_operator;
    by_operator.operator_call = true;
    return apply_ufunc(in, binop_ufunc(op), {a, b}, by_operator);
}

Value slot_inplace(Interp& in, BinOp op, const Value& a, const Value& b) {
    if (!array_operand(b) || op == BinOp::MatMul) return Value();
    // NumPy scalars are immutable: `x[i] += v` computes x[i] + v and stores
    // it back with setitem's unsafe cast.
    if (a.as<ArrayObj>()->numpy_scalar) return slot_binary(in, op, a, b);
    // `a += b` is np.add(a, b, out=a): same_kind cast back, out's shape.
    UfuncOptions o;
    o.out = &a;
    return apply_ufunc(in, binop_ufunc(op), {a, b}, o);
}

Value slot_unary(Interp& in, UnOp op, const Value& v) {
    switch (op) {
        case UnOp::Neg: return apply_ufunc(in, Ufunc::negative, {v});
        case UnOp::Pos: return apply_ufunc(in, Ufunc::positive, {v});
        case UnOp::Invert: return apply_ufunc(in, Ufunc::invert, {v});
        case UnOp::Not: return Value();
    }
    return Value();
}

Value slot_compare(Interp& in, CmpOp op, const Value& a, const Value& b) {
    if (!array_operand(a) || !array_operand(b)) {
        // NumPy 2 compares an array with an object it cannot convert (None, a
        // string) elementwise, as Python objects: == is all False and != all
        // True, in the array's shape; an ordering raises Python's TypeError
        // for the first element (operator mirrored when the array is right).
        ArrayObj* arr = as_array(a) ? as_array(a) : as_array(b);
        if (!arr) return Value();
        if (op == CmpOp::Eq || op == CmpOp::Ne) {
            Value all_false = new_array(DType::Bool, arr->shape, true);
            Value r = op == CmpOp::Eq ? all_false : apply_ufunc(in, Ufunc::logical_not, {all_false});
            // NumPy scalars: a Python bool against None (np.float32(1) == None
            // is False), a NumPy bool against anything else (np.True_).
            if (arr->numpy_scalar) {
                const Value& other = arr == as_array(a) ? b : a;
                if (other.is_none()) return Value::boolean(op == CmpOp::Ne);
                r = array_from_node(array_node(as_array(r)), true);
            }
            return r;
        }
        if (arr->size() == 0) return new_array(DType::Bool, arr->shape, true);
        DType t = arr->dtype;
        const char* element = t == DType::Bool ? "bool" : is_integer(t) ? "int" : is_float(t) ? "float" : "complex";
        bool mirrored = arr != as_array(a);
        static const char* const text[] = {"<", "<=", ">", ">="};
        int i = op == CmpOp::Lt ? 0 : op == CmpOp::Le ? 1 : op == CmpOp::Gt ? 2 : 3;
        if (mirrored) i = (i + 2) % 4;
        const Value& other = mirrored ? a : b;
        raise(types::TypeError, std::string("'") + text[i] + "' not supported between instances of '" + element + "' and '" +
                                    type_name(other) + "'");
    }
    Ufunc f;
    switch (op) {
        case CmpOp::Lt: f = Ufunc::less; break;
        case CmpOp::Le: f = Ufunc::less_equal; break;
        case CmpOp::Gt: f = Ufunc::greater; break;
        case CmpOp::Ge: f = Ufunc::greater_equal; break;
        case CmpOp::Eq: f = Ufunc::equal; break;
        case CmpOp::Ne: f = Ufunc::not_equal; break;
        default: return Value();
    }
    return apply_ufunc(in, f, {a, b});
}

// ---- clip ----

namespace {
// NumPy 2 (numpy/_core/_methods.py _clip): on integer arrays a Python-int
// lower bound at or below the dtype's minimum, or upper bound at or above its
// maximum, is dropped; other out-of-range bounds raise OverflowError as usual.
bool useless_int_bound(const Value* bound, DType t, bool lower) {
    if (!bound || !bound->is_int() || !is_integer(t)) return false;
    IntRange r = int_range(t);
    if (lower) return bound->i <= r.lo;
    return t != DType::UInt64 && bound->i >= r.hi;  // uint64's maximum is beyond gpy's ints
}
}  // namespace

Value clip(Interp& in, const Value& x, const Value* lo, const Value* hi, const UfuncOptions& opts) {
    Value r = as_array(x) ? x : as_array_value(in, x);
    DType t = r.as<ArrayObj>()->dtype;
    UfuncOptions inner;
    inner.dtype = opts.dtype;
    // np.clip is one ufunc of three operands: its loop comes from all three
    // at once (bool.clip(1, np.uint8(200)) is uint8: the weak 1 meets uint8,
    // not bool first), then maximum and minimum run in it.
    if (!inner.dtype) {
        auto bound = [&](const Value* b) -> std::optional<Operand> {
            if (!b || b->is_none()) return std::nullopt;
            if (b->is_number() || as_complex(*b)) return operand_of(*b);
            return operand_of(as_array_value(in, *b));
        };
        std::vector<Operand> ops{operand_of(r)};
        for (const Value* b : {lo, hi})
            if (auto o = bound(b)) ops.push_back(*o);
        if (ops.size() == 3) inner.dtype = result_type(std::span<const Operand>(ops.data(), ops.size()));
    }
    if (lo && !lo->is_none() && !useless_int_bound(lo, t, true)) r = apply_ufunc(in, Ufunc::maximum, {r, *lo}, inner);
    if (hi && !hi->is_none() && !useless_int_bound(hi, t, false)) r = apply_ufunc(in, Ufunc::minimum, {r, *hi}, inner);
    if (opts.out) {
        // As a ufunc's out=: the result broadcast with out must be out's shape.
        ArrayObj* o = as_array(*opts.out);
        const Shape* both[] = {&r.as<ArrayObj>()->shape, &o->shape};
        if (broadcast_shapes(std::span<const Shape* const>(both, 2)) != o->shape)
            raise(types::ValueError, "non-broadcastable output operand with shape " + compact_shape_text(o->shape) +
                                         " doesn't match the broadcast shape " +
                                         compact_shape_text(broadcast_shapes(std::span<const Shape* const>(both, 2))));
        assign_array(in, *opts.out, r);
        return *opts.out;
    }
    if (r.as<ArrayObj>() == as_array(x)) r = apply_ufunc(in, Ufunc::positive, {r});  // a copy, as NumPy
    return r;
}

// ---- assignment into views ----

void assign_array(Interp& in, const Value& target, const Value& value, bool value_is_temporary) {
    ArrayObj* t = as_array(target);
    // Callers pass out= through out_arg(); this is the backstop for any that do not.
    if (!t) raise(types::TypeError, "return arrays must be of ArrayType");
    materialize(t);
    check_python_store(value, t->dtype);
    if (value.kind == VK::Int || value.kind == VK::Float || value.kind == VK::Bool) {
        // A Python number is the kernel's parameter, not a 0-d array: on a
        // GPU an array would be uploaded at each store (`out[0] = 0` in a
        // loop of launches cost 70 us a store, 2026-11-28).
        flush_readers(t->buffer.get(), nullptr);
        materialize_into(make_scalar(t->dtype, convert_scalar(value, t->dtype)), Target{t->buffer, t->offset, t->shape, t->strides});
        return;
    }
    // Nested lists convert straight to the target's dtype, with the same checks.
    bool seq = is_kind(value, OK::List) || is_kind(value, OK::Tuple);
    Value src = seq ? as_array_value(in, value, t->dtype) : as_array_value(in, value);
    ArrayObj* s = src.as<ArrayObj>();
    // The value must broadcast into the target's shape (NumPy's words).
    // (Leading size-1 dims beyond the target's rank are dropped, as NumPy does.)
    bool fits = true;
    for (size_t k = 1; fits && k <= s->shape.size(); ++k) {
        int64_t d = s->shape[s->shape.size() - k];
        fits = d == 1 || (k <= t->shape.size() && d == t->shape[t->shape.size() - k]);
    }
    if (!fits)
        raise(types::ValueError, "could not broadcast input array from shape " + compact_shape_text(s->shape) + " into shape " +
                                     compact_shape_text(t->shape));
    if (s->shape.size() > t->shape.size()) {  // drop the leading size-1 dims: a view of the computed value
        materialize(s);
        size_t extra = s->shape.size() - t->shape.size();
        Shape shape(s->shape.begin() + extra, s->shape.end());
        std::vector<int64_t> strides(s->strides.begin() + ptrdiff_t(extra), s->strides.end());
        src = array_from_buffer(s->buffer, s->dtype, shape, strides, s->offset);
        s = src.as<ArrayObj>();
    }
    NodeP n = make_cast(array_node(s), t->dtype);
    // A source that reads the target's memory at other positions (a[1:] = a[:-1])
    // is computed into a fresh buffer first.
    bool overlap = false;
    std::function<void(const dag::Node*)> check = [&](const dag::Node* x) {
        if (x->result) x = x->result.get();
        if (x->op == Op::Input && x->buffer.get() == t->buffer.get() &&
            (x->offset != t->offset || x->strides != t->strides || x->shape != t->shape))
            overlap = true;
        for (auto& c : x->in) check(c.get());
    };
    check(n.get());
    if (overlap) {
        // Copy the source out first (it may be a plain view: no node to compute).
        Value tmp = compute_into_new(n, n->dtype, n->shape);
        n = array_node(tmp.as<ArrayObj>());
    }
    // `a[1:] = a[1:]` (the store of `a[1:] -= b`): the memory already holds it.
    const dag::Node* e = n->result ? n->result.get() : n.get();
    if (e->op == Op::Input && e->buffer.get() == t->buffer.get() && e->offset == t->offset && e->shape == t->shape &&
        e->strides == t->strides && e->dtype == t->dtype)
        return;
    // Pending values that read the target's memory are computed before it
    // changes; a temporary source reads it only where it writes (no overlap).
    // A kernel that can fail (integer ** negative) must not have written half
    // the target when it raises: such a value goes through a buffer.
    bool direct = value_is_temporary && !overlap && !n->result && !n->may_fail;
    flush_readers(t->buffer.get(), direct ? s : nullptr);
    Target tg{t->buffer, t->offset, t->shape, t->strides};
    materialize_into(n, tg);
}

}  // namespace gpy
