// The array module's part of an interpreter's context (base/context.h): the
// runtime's ArrayContext (backend, device, limits, streams) plus the state
// only the module knows — print options, the arrays still pending, and the
// stream objects `with stream:` made current.
#pragma once

#include <memory>
#include <vector>

#include "lang/interp.h"
#include "runtime/array_context.h"
#include "numpy/array_print.h"

namespace gpy {

struct ArrayObj;

struct ArrayState : ArrayContext {
    PrintOptions print;
    // Arrays whose node is pending, each with its slot kept in the array
    // (ArrayObj::pending_slot): tracking is two stores, not a hash-set node
    // per array operation.
    std::vector<ArrayObj*> pending;
    // The object of each device's current stream (kept alive while
    // current); Undef: the null stream.
    Value current_streams[64];
    bool lazy = true;  // Config::lazy: false computes an array when it is bound to a name
    // np.seterr's modes for divide, over, under, invalid (numpy/error_state.cpp).
    std::string errstate[4] = {"warn", "warn", "ignore", "warn"};
    // Some mode is 'raise' (set with the modes: apply_ufunc reads it first).
    bool fp_raise = false;
    void set_errstate(int k, const std::string& mode) {
        errstate[k] = mode;
        fp_raise = false;
        for (const std::string& m : errstate) fp_raise = fp_raise || m == "raise";
    }
    ~ArrayState() override;  // arrays that outlive it forget their slot
};

// The interpreter's state, made on first need (the first `import numpy`).
inline ArrayState& array_state(Interp& in) {
    if (!in.array_context) in.array_context = std::make_unique<ArrayState>();
    return static_cast<ArrayState&>(*in.array_context);
}

// The state of the interpreter running on this thread (the one that made
// the array being worked on); throws std::logic_error when none is bound.
ArrayState& bound_array_state();

// Makes the interpreter's array context at its `import numpy`: its backend,
// launch errors as Python exceptions, the kernel observer (array_context_setup.cpp).
void make_array_context(Interp& in);

void install_array_methods();  // numpy/array_methods.cpp

}  // namespace gpy
