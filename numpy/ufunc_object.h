// NumPy's ufunc objects: np.add is an instance of numpy.ufunc, callable like
// a function and carrying reduce/accumulate/outer/at.
#pragma once

#include <string_view>

#include "lang/interp.h"
#include "numpy/ufunc_table.h"

namespace gpy {

// np.<f>(*inputs, out=None, dtype=None, where=True), out also positional.
Value call_ufunc(Interp& in, Ufunc f, CallArgs& a);
// The ufunc object of `f`; `call` receives the call's arguments (a function
// that calls call_ufunc with f).
Value make_ufunc(Ufunc f, NativeFn call);
// The numpy.ufunc type (np.ufunc).
TypeObject* ufunc_type();
// np.add, np.exp, ...: a ufunc object for every ufunc of GPY_UFUNCS that has
// an operation, NumPy's aliases (np.true_divide is np.divide) and np.ufunc.
void add_ufuncs(ModuleObj* m);

}  // namespace gpy
