// The array module, bound by `import numpy as np`, `import cupy as cp` and
// `import gpy`. Arrays arrive in the next issue; for now it holds only the
// constants NumPy users reach for, so import lines run unchanged.
#include <cmath>

#include "lang/interp.h"

namespace gpy {

ModuleObj* make_numpy_module(Interp&) {
    auto* m = new ModuleObj("numpy");
    m->doc = "gpy's NumPy-compatible array module (arrays arrive in a later release).";
    m->set("pi", Value::real(M_PI));
    m->set("e", Value::real(M_E));
    m->set("inf", Value::real(INFINITY));
    m->set("nan", Value::real(NAN));
    m->set("newaxis", Value::none());
    m->set("__version__", make_str(std::string("gpy-") + version()));
    return m;
}

}  // namespace gpy
