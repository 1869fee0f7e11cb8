// Driver failures inside the language's CUDA objects (devices, streams,
// events, benchmark): raised as RuntimeError("CUDA error: ...") instead of
// escaping as internal errors.
#pragma once

#include <string>

#include "lang/interp.h"
#include "runtime/cuda_driver.h"

namespace gpy {

// Runs `f` (driver calls) and returns its result, raising its cuda::Error.
template <class F>
auto cuda_call(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const cuda::Error& e) {
        raise(types::RuntimeError, std::string("CUDA error: ") + e.what());
    }
}

}  // namespace gpy
