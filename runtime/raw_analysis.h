// What Clang's AST says about a user's CUDA source before it is compiled for
// a device (runtime/llvm/raw_analysis_backend.cpp finds it, over the CPU
// emulation's text; runtime/raw_cpu.cpp asks for it): the kernels a GPU can
// launch by name, each one's parameters with the pointers it may write
// through, what its threads need from the CPU emulation (barriers, shared
// memory), where its parameter list and body are, and the module variables.
#pragma once

#include <string>
#include <vector>

#include "runtime/raw_kernel.h"

namespace gpy {

struct RawKernelInfo {
    std::string name;            // an extern "C" function's name, or its name expression
    bool extern_c = false;       // a GPU finds it by this name
    bool name_expression = false;  // RawModule(name_expressions=): found by its expression
    bool barriers = false;       // reaches __syncthreads, a warp shuffle or vote
    bool shared = false;         // reaches __shared__ variables or dynamic shared memory
    bool callee_state = false;   // a function it calls reads threadIdx, blockIdx, blockDim or gridDim
    // Offsets in the analysed code of the parameter list's brackets and the
    // body's braces; -1 where the text is a macro's.
    long params_open = -1, params_close = -1, body_open = -1, body_close = -1;
    std::vector<RawParam> params;
    std::vector<std::string> param_names;
};

struct RawModuleInfo {
    std::vector<RawKernelInfo> kernels;  // the source's __global__ definitions, then the name expressions' kernels
    std::vector<std::string> globals;    // module-scope __device__/__constant__ variables
    // The kernel a GPU would launch by `name` (a name expression, or an
    // extern "C" kernel's name), or nullptr.
    const RawKernelInfo* find(const std::string& name) const;
};

// Reads the back end's text form; "#k" labels become name_expressions[k].
RawModuleInfo parse_raw_analysis(const std::string& text, const std::vector<std::string>& name_expressions);

}  // namespace gpy
