// Argument helpers shared by the array module's native functions: NumPy's
// positional-or-keyword parameters, dtype= and shape arguments.
#pragma once

#include <optional>

#include "codegen/dag.h"
#include "lang/interp.h"
#include "numpy/promote.h"

namespace gpy {

// The argument at `pos`, else the keyword `name`, else null.
// The call's keyword arguments (an empty list when there are none), to
// iterate without copying them.
inline const std::vector<std::pair<std::string, Value>>& keywords(const CallArgs& a) {
    static const std::vector<std::pair<std::string, Value>> none;
    return a.kw ? *a.kw : none;
}

inline const Value* arg(CallArgs& a, size_t pos, const char* name) {
    if (a.npos > pos) return &a.pos[pos];
    return kwarg(a, name);
}
// Like arg(), but None counts as absent.
inline const Value* arg_not_none(CallArgs& a, size_t pos, const char* name) {
    const Value* v = arg(a, pos, name);
    return v && !v->is_none() ? v : nullptr;
}
// One native function of the module, registered by add_functions.
struct FunctionSpec {
    const char* name;
    NativeFn fn;
    const char* sig;
    const char* doc;
};
template <size_t N>
void add_functions(ModuleObj* m, const FunctionSpec (&fns)[N]) {
    for (const FunctionSpec& f : fns) m->set(f.name, make_builtin(f.name, f.fn, f.sig, f.doc));
}

// dtype= (positional at `pos`); nullopt when absent or None.
std::optional<DType> dtype_arg(Interp& in, CallArgs& a, size_t pos);
// An int or a sequence of ints; raises ValueError for negative dimensions.
dag::Shape shape_arg(Interp& in, const Value& v);

// How NumPy words its TypeError for an out= that is not an array: it depends
// on which layer of NumPy parses the argument.
enum class OutWording {
    Ufunc,      // ufunc calls and methods (clip, outer, matmul, add.reduce): "return arrays must be of ArrayType"
    Reduction,  // sum, mean, std, ptp, nan*, median...: the same words, and a tuple is refused too
    CApi,    // C methods (cumsum, argmax, take, trace, around): "output must be an array"
    Quoted,  // dot, concatenate: "'out' must be an array"
    Einsum,  // "keyword parameter out must be an array for einsum"
};
// The one checked path for out=: the argument at `pos` (or the keyword), null
// when absent or None; otherwise an ndarray, else NumPy's TypeError. With the
// Ufunc wording a tuple holding one array is accepted too (NumPy's general
// form, one entry per output); a tuple of another length is its ValueError.
const Value* out_arg(CallArgs& a, size_t pos, OutWording w = OutWording::Ufunc);
const Value* checked_out(const Value* out, OutWording w = OutWording::Ufunc);
// initial= of a reduction: null when absent or None; a Python number, a
// NumPy scalar or a 0-d array; a sequence or a larger array is NumPy's
// ValueError ("setting an array element with a sequence."), another object a
// TypeError (never broadcast into the result).
const Value* initial_arg(const Value* v);
// casting= ('no', 'equiv', 'safe', 'same_kind', 'unsafe'): `dflt` when
// absent; another string is NumPy's ValueError.
Casting casting_arg(const Value* v, Casting dflt, bool astype = false);
const char* casting_name(Casting c);

}  // namespace gpy
