// Per-interpreter state of the array library.
#pragma once

#include <memory>

#include "lang/interp.h"
#include "stdlib/array_print.h"

namespace gpy {

struct ArrayState {
    PrintOptions print;
};

inline ArrayState& array_state(Interp& in) {
    if (!in.array_state) in.array_state = std::make_shared<ArrayState>();
    return *static_cast<ArrayState*>(in.array_state.get());
}

void install_array_methods();  // stdlib/array_methods.cpp

}  // namespace gpy
