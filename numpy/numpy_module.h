// The array module (NumPy's names, CuPy's under cupy): what a host registers
// in an interpreter (embed/interpreter.cpp) to make `import numpy` work.
#pragma once

#include "lang/interp.h"

namespace gpy {

// The module object; makes the interpreter's array context (numpy/array_state.h).
ModuleObj* make_numpy_module(Interp& in);
// `cupy`: numpy's names (the same objects) with CuPy's additions (numpy/cupy_module.cpp).
ModuleObj* make_cupy_module(Interp& in);
// `cupyx` (numpy/cupyx_module.cpp): cupyx.jit and cupyx.profiler.
ModuleObj* make_cupyx_module(Interp& in);
// `cupyx.jit` (numpy/jit_kernel.cpp: kernels in the language's own syntax).
ModuleObj* make_cupyx_jit_module(Interp& in);

}  // namespace gpy
