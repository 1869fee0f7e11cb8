// NumPy's ufunc objects: np.add is an instance of numpy.ufunc, callable like
// a function and carrying reduce/accumulate/outer/at.
#pragma once

#include <string_view>

#include "lang/interp.h"

namespace gpy {

// np.<name>(*inputs, out=None, dtype=None, where=True), out also positional.
Value call_ufunc(Interp& in, std::string_view name, CallArgs& a);
// A ufunc object named `name`; `call` receives the call's arguments (a
// function that calls call_ufunc with that name).
Value make_ufunc(const char* name, NativeFn call);
// The numpy.ufunc type (np.ufunc).
TypeObject* ufunc_type();

}  // namespace gpy
