// Argument helpers shared by the array module's native functions: NumPy's
// positional-or-keyword parameters, dtype= and shape arguments.
#pragma once

#include <optional>

#include "codegen/dag.h"
#include "lang/interp.h"

namespace gpy {

// The argument at `pos`, else the keyword `name`, else null.
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

}  // namespace gpy
