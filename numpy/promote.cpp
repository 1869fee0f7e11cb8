// NumPy 2's dtype promotion and ufunc type resolution, for gpy's 14 dtypes.
//
// The ufunc part follows numpy/_core/src/umath/dispatching.c
// (promote_and_get_ufuncimpl) and ufunc_type_resolution.c:
//   1. an exact match of the operand dtypes with a registered loop wins
//      (Python int/float/complex scalars are "abstract" and match no loop);
//   2. comparisons of an integer array with a Python int use NumPy's special
//      loops (the array's dtype, or a constant result when out of range);
//      the logical ufuncs promote every operand to bool;
//   3. otherwise the ufunc's legacy resolver picks dtypes (result_type for the
//      "uniform" ones, a first-safe-cast search over ufunc.types for the rest)
//      and a loop with exactly those dtypes must exist;
//   4. weak Python ints are then stored into the loop's input dtype, which
//      raises OverflowError when the value does not fit an integer dtype.
#include "numpy/promote.h"

#include <algorithm>
#include <span>

#include "numpy/ufunc_table.h"

namespace gpy {

namespace {

// Candidate order for promote_types: the first dtype both sides can safely
// cast to is NumPy's answer for every pair of builtin numeric dtypes.
constexpr DType kPromotionOrder[kNumDTypes] = {
    DType::Bool,   DType::Int8,    DType::UInt8,   DType::Int16,   DType::UInt16,
    DType::Int32,  DType::UInt32,  DType::Int64,   DType::UInt64,  DType::Float16,
    DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

// Size of the smallest float that holds every value of an integer of `size` bytes.
size_t float_size_for_int(size_t size) { return size == 1 ? 2 : size == 2 ? 4 : 8; }

// Size of a float, or of a complex's components.
size_t component_size(DType t) { return is_complex(t) ? itemsize(t) / 2 : itemsize(t); }

bool safe_cast(DType from, DType to) {
    if (from == to || from == DType::Bool) return true;
    DKind fk = kind(from), tk = kind(to);
    size_t fs = itemsize(from), ts = itemsize(to);
    switch (fk) {
        case DKind::Bool: return true;
        case DKind::Int:
        case DKind::UInt:
            switch (tk) {
                case DKind::Bool: return false;
                case DKind::Int: return fk == DKind::Int ? ts >= fs : ts > fs;
                case DKind::UInt: return fk == DKind::UInt && ts >= fs;
                case DKind::Float:
                case DKind::Complex: return component_size(to) >= float_size_for_int(fs);
            }
            return false;
        case DKind::Float:
            return (tk == DKind::Float || tk == DKind::Complex) && component_size(to) >= fs;
        case DKind::Complex: return tk == DKind::Complex && ts >= fs;
    }
    return false;
}

// NumPy's kind ordering for same_kind casts: b < u < i < f < c.
int same_kind_order(DType t) {
    switch (kind(t)) {
        case DKind::Bool: return 0;
        case DKind::UInt: return 1;
        case DKind::Int: return 2;
        case DKind::Float: return 3;
        case DKind::Complex: return 4;
    }
    return 0;
}

bool is_weak(const Operand& op) {
    // A Python bool is a plain bool to NumPy: it is not an abstract scalar.
    return op.weak == WeakKind::Int || op.weak == WeakKind::Float || op.weak == WeakKind::Complex;
}

// The concrete dtype NumPy gives a Python scalar on its own.
DType default_dtype(WeakKind w) {
    switch (w) {
        case WeakKind::Int: return DType::Int64;
        case WeakKind::Float: return DType::Float64;
        case WeakKind::Complex: return DType::Complex128;
        default: return DType::Bool;
    }
}

// The dtype an operand is "as an array" (a weak scalar's default dtype).
DType descr_of(const Operand& op) { return is_weak(op) ? default_dtype(op.weak) : op.dtype; }

// can_cast_pyscalar_scalar_to (convert_datatype.c): may a weak Python scalar
// of kind w be cast to `to` under the safe rule?
bool weak_can_cast(WeakKind w, DType to) {
    if (is_complex(to)) return true;
    if (is_float(to)) return w != WeakKind::Complex;
    if (is_integer(to)) return w == WeakKind::Int;
    return safe_cast(default_dtype(w), to);
}

std::string int_to_string(int64_t v) { return std::to_string(v); }

[[noreturn]] void type_error(const std::string& msg) { throw PromotionError("TypeError", msg); }

// The class NumPy names in "did not contain a loop" messages.
std::string dtype_class_name(const Operand& op) {
    if (op.weak == WeakKind::Int) return "<class 'numpy.dtypes._PyLongDType'>";
    if (op.weak == WeakKind::Float) return "<class 'numpy.dtypes._PyFloatDType'>";
    if (op.weak == WeakKind::Complex) return "<class 'numpy.dtypes._PyComplexDType'>";
    static const char* const kNames[kNumDTypes] = {
        "BoolDType",    "Int8DType",    "Int16DType",   "Int32DType",     "Int64DType",
        "UInt8DType",   "UInt16DType",  "UInt32DType",  "UInt64DType",    "Float16DType",
        "Float32DType", "Float64DType", "Complex64DType", "Complex128DType"};
    return std::string("<class 'numpy.dtypes.") + kNames[int(op.dtype)] + "'>";
}

[[noreturn]] void no_loop_error(const UfuncDef& u, std::span<const Operand> ops) {
    std::string types;
    if (ops.size() == 1) {
        types = dtype_class_name(ops[0]);
    } else {
        types = "(";
        for (size_t i = 0; i < ops.size(); ++i) {
            if (i) types += ", ";
            types += dtype_class_name(ops[i]);
        }
        types += ")";
    }
    // NumPy raises its no-loop error as UFuncTypeError (a TypeError subclass).
    throw PromotionError("UFuncTypeError", "ufunc '" + std::string(u.numpy_name) +
                                               "' did not contain a loop with signature matching types " + types + " -> None");
}

[[noreturn]] void no_safe_loop_error(const UfuncDef& u) {
    type_error("ufunc '" + std::string(u.numpy_name) +
               "' not supported for the input types, and the inputs could not be safely coerced "
               "to any supported types according to the casting rule ''safe''");
}

UfuncLoop to_loop(const UfuncDef& u, const LoopSig& sig) {
    UfuncLoop loop;
    loop.in.assign(sig.t, sig.t + u.nin);
    loop.out.assign(sig.t + u.nin, sig.t + u.nargs());
    return loop;
}

// The first loop whose leading `n` dtypes are exactly `types`.
const LoopSig* find_exact(const UfuncDef& u, const DType* types, int n) {
    for (const LoopSig& sig : u.loops())
        if (std::equal(types, types + n, sig.t)) return &sig;
    return nullptr;
}

// should_use_min_scalar_weak_literals (convert_datatype.c): weak scalars are
// matched by kind only when some array operand is of at least their kind
// (bool < int < inexact, complex scalars counting as inexact).
bool use_weak_matching(std::span<const Operand> ops) {
    bool all_scalars = true;
    int max_scalar = -1, max_array = -1;
    for (const Operand& op : ops) {
        if (op.weak == WeakKind::Int) {
            max_scalar = std::max(max_scalar, 1);
        } else if (op.weak == WeakKind::Float || op.weak == WeakKind::Complex) {
            max_scalar = 2;  // NumPy assigns rather than maximises here; 2 is the top anyway
        } else {
            all_scalars = false;
            int k = kind(op.dtype) == DKind::Bool ? 0 : is_integer(op.dtype) ? 1 : 2;
            max_array = std::max(max_array, k);
        }
    }
    return !all_scalars && max_array >= max_scalar;
}

// PyUFunc_DefaultTypeResolver's linear search: the first loop every input can
// be safely cast to.
const LoopSig& linear_search(const UfuncDef& u, std::span<const Operand> ops) {
    bool weak_match = use_weak_matching(ops);
    for (const LoopSig& sig : u.loops()) {
        bool ok = true;
        for (int i = 0; i < u.nin && ok; ++i) {
            const Operand& op = ops[i];
            ok = (weak_match && is_weak(op)) ? weak_can_cast(op.weak, sig.t[i])
                                             : safe_cast(descr_of(op), sig.t[i]);
        }
        if (ok) return sig;
    }
    no_safe_loop_error(u);
}

// The uniform dtype of PyUFunc_SimpleUniformOperationTypeResolver.
DType uniform_dtype(const UfuncDef& u, std::span<const Operand> ops) {
    if (u.nin == 1) return descr_of(ops[0]);
    return result_type(ops);
}

// A loop with exactly the dtypes a legacy resolver chose, else NumPy's
// "did not contain a loop" error (reported with the original operand DTypes).
const LoopSig& require_loop(const UfuncDef& u, std::span<const Operand> ops, const DType* types) {
    const LoopSig* sig = find_exact(u, types, u.nargs());
    if (!sig) no_loop_error(u, ops);
    return *sig;
}

const LoopSig& legacy_resolve(const UfuncDef& u, std::span<const Operand> ops) {
    DType types[4];
    auto uniform = [&](DType t) -> const LoopSig& {
        std::fill(types, types + u.nargs(), t);
        return require_loop(u, ops, types);
    };
    switch (u.resolver) {
        case UfuncResolver::Default: return linear_search(u, ops);
        case UfuncResolver::SimpleUniform: return uniform(uniform_dtype(u, ops));
        case UfuncResolver::Subtraction: {
            DType t = uniform_dtype(u, ops);
            if (t == DType::Bool)
                type_error("numpy boolean subtract, the `-` operator, is not supported, use the "
                           "bitwise_xor, the `^` operator, or the logical_xor function instead.");
            return uniform(t);
        }
        case UfuncResolver::Negative: {
            DType t = uniform_dtype(u, ops);
            if (t == DType::Bool)
                type_error("The numpy boolean negative, the `-` operator, is not supported, use the "
                           "`~` operator or the logical_not function instead.");
            return uniform(t);
        }
        case UfuncResolver::Absolute:
            if (is_complex(descr_of(ops[0]))) return linear_search(u, ops);
            return uniform(uniform_dtype(u, ops));
        case UfuncResolver::TrueDivision: {
            bool all_int = std::all_of(ops.begin(), ops.end(), [](const Operand& op) {
                DType t = descr_of(op);
                return is_integer(t) || t == DType::Bool;
            });
            if (all_int) return uniform(DType::Float64);  // the type tuple 'dd->d'
            return linear_search(u, ops);
        }
        case UfuncResolver::Comparison:
        case UfuncResolver::Logical: {
            DType t = result_type(ops);
            std::fill(types, types + u.nin, t);
            types[u.nin] = DType::Bool;
            return require_loop(u, ops, types);
        }
    }
    no_safe_loop_error(u);
}

bool int_fits(int64_t v, DType t) { return int_range(t).contains(v); }

// The value of `arr OP value` when value lies outside arr's dtype range
// (value_above: the value exceeds the maximum; otherwise it is below the minimum).
bool out_of_range_comparison(std::string_view name, bool array_first, bool value_above) {
    // Normalise to "array OP value".
    if (!array_first) {
        if (name == "less") name = "greater";
        else if (name == "greater") name = "less";
        else if (name == "less_equal") name = "greater_equal";
        else if (name == "greater_equal") name = "less_equal";
    }
    if (name == "equal") return false;
    if (name == "not_equal") return true;
    if (name == "less" || name == "less_equal") return value_above;
    return !value_above;  // greater, greater_equal
}

// ---- PyArray_PromoteDTypeSequence (numpy/_core/src/multiarray/common_dtype.c) ----
// NumPy promotes DType classes, not dtypes: the 14 concrete ones and the
// abstract classes of Python int/float/complex. Each class's __common_dtype__
// answers only for classes it knows about, and promoting several at once
// first finds the "most knowledgeable" one, so the result is not a left fold
// of promote_types (result_type(int8, uint8, float16) is float16, not float32).
using Meta = int;  // 0..13: DType; kPyLong, kPyFloat, kPyComplex; kNotImpl
constexpr Meta kPyLong = 14, kPyFloat = 15, kPyComplex = 16, kNotImpl = -1;

bool is_abstract(Meta m) { return m >= kPyLong; }

Meta meta_of(const Operand& op) {
    switch (op.weak) {
        case WeakKind::Int: return kPyLong;
        case WeakKind::Float: return kPyFloat;
        case WeakKind::Complex: return kPyComplex;
        default: return Meta(op.dtype);
    }
}

DType concrete_of(Meta m) {
    switch (m) {
        case kPyLong: return DType::Int64;
        case kPyFloat: return DType::Float64;
        case kPyComplex: return DType::Complex128;
        default: return DType(m);
    }
}

// NumPy's type numbers order the builtin classes: a class leaves promotion
// with a higher-numbered one to that one (half comes after all others).
int type_num(DType t) {
    static const int kNum[kNumDTypes] = {0, 1, 3, 5, 7, 2, 4, 6, 8, 23, 11, 12, 14, 15};
    return kNum[int(t)];
}

// cls.__common_dtype__(other)
Meta common_dtype_slot(Meta cls, Meta other) {
    if (cls == other) return cls;
    if (!is_abstract(cls)) {
        DType c = DType(cls);
        if (is_abstract(other)) {  // default_builtin_common_dtype, Python scalar branch
            if (other == kPyComplex) {
                if (is_complex(c)) return cls;
                if (c == DType::Float16 || c == DType::Float32) return Meta(DType::Complex64);
                if (c == DType::Float64) return Meta(DType::Complex128);
            } else if (other == kPyFloat) {
                if (is_inexact(c)) return cls;
            } else if (c != DType::Bool) {  // kPyLong
                return cls;
            }
            return kNotImpl;
        }
        DType o = DType(other);
        if (type_num(o) > type_num(c)) return kNotImpl;
        return Meta(promote_types(c, o));
    }
    // Abstract Python scalar classes (abstractdtypes.c).
    if (!is_abstract(other)) {
        DType o = DType(other);
        if (cls == kPyLong) return o == DType::Bool ? Meta(DType::Int64) : kNotImpl;
        if (o == DType::Bool || is_integer(o))
            return cls == kPyFloat ? Meta(DType::Float64) : Meta(DType::Complex128);
        return kNotImpl;
    }
    if (cls == kPyFloat && other == kPyLong) return cls;
    if (cls == kPyComplex && (other == kPyLong || other == kPyFloat)) return cls;
    return kNotImpl;
}

// PyArray_CommonDType: ask both sides.
Meta common_dtype(Meta a, Meta b) {
    if (a == b) return a;
    Meta r = common_dtype_slot(a, b);
    if (r == kNotImpl) r = common_dtype_slot(b, a);
    return r;  // never kNotImpl among gpy's classes
}

// reduce_dtypes_to_most_knowledgeable: pairs the ends of the list towards
// the middle, moving the class that answered to the front; recurses on the
// front half. dtypes[0] ends up as the "main" class.
Meta reduce_to_most_knowledgeable(std::vector<Meta>& d, size_t length) {
    size_t half = length / 2;
    Meta res = kNotImpl;
    for (size_t low = 0; low < half; ++low) {
        size_t high = length - 1 - low;
        if (d[high] == d[low]) {
            res = d[low];
        } else {
            if (d[high] >= 0 && is_abstract(d[high])) std::swap(d[low], d[high]);
            res = (d[low] < 0) ? kNotImpl : common_dtype_slot(d[low], d[high]);
        }
        if (res == kNotImpl) std::swap(d[low], d[high]);
        else if (res == d[low]) d[high] = kNotImpl;  // cannot influence the result: cleared
    }
    if (length == 2) return res;
    return reduce_to_most_knowledgeable(d, length - half);
}

Meta promote_sequence(std::vector<Meta> d) {
    if (d.size() == 1) return d[0];
    Meta result = reduce_to_most_knowledgeable(d, d.size());
    Meta main = d[0];
    size_t start = 2;
    if (result == kNotImpl) start = 1;
    for (size_t i = start; i < d.size(); ++i) {
        if (d[i] == kNotImpl) continue;  // cleared: cannot change the result
        Meta promotion = common_dtype_slot(main, d[i]);
        if (promotion == kNotImpl) promotion = common_dtype(main, d[i]);  // NumPy: DTypePromotionError
        if (result == kNotImpl) {
            result = promotion;
            continue;
        }
        result = common_dtype(result, promotion);
    }
    return result;
}

}  // namespace

bool can_cast(DType from, DType to, Casting casting) {
    switch (casting) {
        case Casting::No:
        case Casting::Equiv: return from == to;
        case Casting::Safe: return safe_cast(from, to);
        case Casting::SameKind: return safe_cast(from, to) || same_kind_order(from) <= same_kind_order(to);
        case Casting::Unsafe: return true;
    }
    return false;
}

DType promote_types(DType a, DType b) {
    if (a == b) return a;
    for (DType t : kPromotionOrder)
        if (safe_cast(a, t) && safe_cast(b, t)) return t;
    return DType::Complex128;  // unreachable: everything casts safely to complex128
}

DType result_type(std::span<const Operand> ops) {
    std::vector<Meta> metas;
    metas.reserve(ops.size());
    for (const Operand& op : ops) metas.push_back(meta_of(op));
    return concrete_of(promote_sequence(metas));
}

const UfuncLoop& resolve_ufunc_memo(Ufunc f, std::span<const Operand> ops) {
    // Direct-mapped: a miss overwrites its slot. A loop's operations repeat
    // their operands exactly, so a few hundred slots hold any program's set.
    struct Slot {
        int ufunc = -1;
        std::vector<Operand> ops;
        UfuncLoop loop;
    };
    static constexpr size_t kSlots = 512;
    thread_local std::vector<Slot> slots(kSlots);
    auto same = [](const Operand& a, const Operand& b) {
        return a.dtype == b.dtype && a.weak == b.weak && a.int_value == b.int_value;  // float_value is never read
    };
    size_t h = size_t(f) * 0x9E3779B97F4A7C15ull;
    for (const Operand& o : ops) h = h * 1000003 ^ (size_t(o.dtype) | size_t(o.weak) << 8) ^ size_t(o.int_value) * 0x9E3779B97F4A7C15ull;
    Slot& slot = slots[h % kSlots];
    if (slot.ufunc == int(f) && slot.ops.size() == ops.size() && std::equal(ops.begin(), ops.end(), slot.ops.begin(), same))
        return slot.loop;
    UfuncLoop loop = resolve_ufunc(f, ops);  // throws before the slot changes
    slot.ufunc = int(f);
    slot.ops.assign(ops.begin(), ops.end());
    slot.loop = std::move(loop);
    return slot.loop;
}

bool is_known_ufunc(std::string_view name) { return find_ufunc(name) != nullptr; }
int ufunc_nin(std::string_view name) {
    const UfuncDef* u = find_ufunc(name);
    return u ? u->nin : -1;
}
int ufunc_nout(std::string_view name) {
    const UfuncDef* u = find_ufunc(name);
    return u ? u->nout : -1;
}

UfuncLoop resolve_ufunc_for_dtype(Ufunc f, std::span<const Operand> ops, DType want) {
    const UfuncDef& u = ufunc_def(f);
    if (int(ops.size()) != u.nin) return resolve_ufunc(f, ops);  // raises the arity error
    auto castable = [](const Operand& op, DType to, Casting c) {
        if (!is_weak(op)) return can_cast(op.dtype, to, c);
        return weak_can_cast(op.weak, to) || can_cast(default_dtype(op.weak), to, c);
    };
    const LoopSig* first = nullptr;
    const LoopSig* chosen = nullptr;
    for (const LoopSig& sig : u.loops()) {
        if (sig.t[u.nin] != want) continue;
        if (!first) first = &sig;
        bool safe = true;
        for (int i = 0; i < u.nin && safe; ++i) safe = is_weak(ops[size_t(i)]) ? weak_can_cast(ops[size_t(i)].weak, sig.t[i])
                                                                                 : can_cast(ops[size_t(i)].dtype, sig.t[i], Casting::Safe);
        if (safe) {
            chosen = &sig;
            break;
        }
    }
    if (!first) type_error("No loop matching the specified signature and casting was found for ufunc " + std::string(u.numpy_name));
    if (!chosen) {
        for (int i = 0; i < u.nin; ++i)
            if (!castable(ops[size_t(i)], first->t[i], Casting::SameKind))
                throw PromotionError("UFuncTypeError", "Cannot cast ufunc '" + std::string(u.numpy_name) + "' input " +
                                                           (u.nin == 1 ? std::string() : std::to_string(i) + " ") + "from dtype('" +
                                                           gpy::name(descr_of(ops[size_t(i)])) + "') to dtype('" + gpy::name(first->t[i]) +
                                                           "') with casting rule 'same_kind'");
        chosen = first;
    }
    UfuncLoop loop = to_loop(u, *chosen);
    for (int i = 0; i < u.nin; ++i) {
        const Operand& op = ops[size_t(i)];
        if (op.weak == WeakKind::Int && is_integer(loop.in[size_t(i)]) && !int_fits(op.int_value, loop.in[size_t(i)]))
            throw PromotionError("OverflowError", "Python integer " + int_to_string(op.int_value) + " out of bounds for " +
                                                      gpy::name(loop.in[size_t(i)]));
    }
    return loop;
}

UfuncLoop resolve_ufunc(std::string_view name, std::span<const Operand> ops) {
    const UfuncDef* u = find_ufunc(name);
    if (!u) type_error("unknown ufunc '" + std::string(name) + "'");
    return resolve_ufunc(ufunc_id(*u), ops);
}

UfuncLoop resolve_ufunc(Ufunc f, std::span<const Operand> ops) {
    const UfuncDef& u = ufunc_def(f);
    if (int(ops.size()) != u.nin) {
        std::string got = std::to_string(ops.size());
        std::string given = ops.size() == 1 ? " was given" : " were given";
        if (int(ops.size()) < u.nin || int(ops.size()) > u.nargs())  // NumPy's own wording
            type_error(std::string(u.numpy_name) + "() takes from " + std::to_string(u.nin) + " to " +
                       std::to_string(u.nargs()) + " positional arguments but " + got + given);
        // NumPy would take the extra ones as outputs; here operands are inputs only.
        type_error(std::string(u.numpy_name) + "() takes " + std::to_string(u.nin) + " input operands but " +
                   got + given);
    }

    // 1. An exact loop for concrete operand dtypes.
    bool any_weak = std::any_of(ops.begin(), ops.end(), is_weak);
    if (!any_weak) {
        DType types[4];
        for (int i = 0; i < u.nin; ++i) types[i] = ops[i].dtype;
        if (const LoopSig* sig = find_exact(u, types, u.nin)) return to_loop(u, *sig);
    }

    // 2a. Comparisons of an integer array with a Python int
    //     (numpy/_core/src/umath/special_integer_comparisons.cpp).
    if (u.resolver == UfuncResolver::Comparison && u.nin == 2) {
        for (int i = 0; i < 2; ++i) {
            const Operand& arr = ops[i];
            const Operand& scalar = ops[1 - i];
            if (is_weak(arr) || !is_integer(arr.dtype) || scalar.weak != WeakKind::Int) continue;
            UfuncLoop loop;
            loop.in = {arr.dtype, arr.dtype};
            loop.out = {DType::Bool};
            if (!int_fits(scalar.int_value, arr.dtype)) {
                bool above = scalar.int_value > 0;
                loop.constant_result = out_of_range_comparison(u.numpy_name, i == 0, above);
            }
            return loop;
        }
    }

    // 2b. Comparisons of a signed integer with uint64 use the 'qQ->?' / 'Qq->?'
    //     loops (promoted to int64 / uint64) instead of comparing in float64.
    if (u.resolver == UfuncResolver::Comparison && u.nin == 2 && !any_weak) {
        DType a = ops[0].dtype, b = ops[1].dtype;
        bool a_signed = kind(a) == DKind::Int, b_signed = kind(b) == DKind::Int;
        if ((a_signed && b == DType::UInt64) || (b_signed && a == DType::UInt64)) {
            UfuncLoop loop;
            loop.in = {a_signed ? DType::Int64 : DType::UInt64, b_signed ? DType::Int64 : DType::UInt64};
            loop.out = {DType::Bool};
            return loop;
        }
    }

    // 2c. The logical promoter: anything without an exact loop runs in bool.
    if (u.resolver == UfuncResolver::Logical) {
        UfuncLoop loop;
        loop.in.assign(u.nin, DType::Bool);
        loop.out.assign(u.nout, DType::Bool);
        return loop;
    }

    // 3. The legacy resolver.
    UfuncLoop loop = to_loop(u, legacy_resolve(u, ops));

    // 4. Python ints are stored into the loop's input dtype.
    for (int i = 0; i < u.nin; ++i) {
        const Operand& op = ops[i];
        if (op.weak == WeakKind::Int && is_integer(loop.in[i]) && !int_fits(op.int_value, loop.in[i]))
            throw PromotionError("OverflowError", "Python integer " + int_to_string(op.int_value) +
                                                      " out of bounds for " + gpy::name(loop.in[i]));
    }
    return loop;
}

}  // namespace gpy
