// Values crossing the embedding boundary (include/gpy/gpy.h HostValue):
// the script's values made from the host's and back, arrays shared without
// copying, and host functions as script callables.
#pragma once

#include "gpy/gpy.h"
#include "lang/interp.h"

namespace gpy {

// The script value for `v`: None, bool, int, float, str, or an ndarray over
// the host's memory (on a GPU context, a device copy). Raises TypeError /
// ValueError (GpyError) for an array it cannot take.
Value script_value(Interp& in, const HostValue& v);

// The host value for `v`: NumPy scalars become bool/int/float, an ndarray
// an ArrayRef into its (computed) memory. Raises TypeError (GpyError) for
// any other type.
HostValue host_value(Interp& in, const Value& v);

// A builtin named `name` that converts its arguments, calls `fn` and maps
// its C++ exceptions to the script's (gpy.h, HostFunction).
Value host_function(std::string name, HostFunction fn);

}  // namespace gpy
