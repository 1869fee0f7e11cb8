// CuPy's ElementwiseKernel definitions (numpy/user_kernels.cpp), shared
// with the standalone loop that runs what the fused path cannot
// (numpy/user_kernel_loop.cpp).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "numpy/array.h"

namespace gpy {

struct UserParam {
    std::string type;  // a dtype name, or a placeholder
    std::string name;
    std::optional<DType> fixed;  // the dtype when `type` names one
    bool raw = false;            // `raw T x`: the whole array, indexed by the operation
};

struct UserKernelDef {
    std::vector<UserParam> in, out;
    std::string operation, name, preamble, loop_prep, after_loop;
    bool no_return = false, return_tuple = false;
    // The standalone loop's kernels made so far, by generated source.
    std::map<std::string, Value> loops;
};

// A parameter's argument: an array, or a scalar input, and the dtype its
// parameter takes.
struct UserOperand {
    const UserParam* param;
    bool output;
    Value array;   // undefined for a scalar input (or an output not given)
    Value scalar;  // the scalar input
    DType dtype;
};

// CuPy's parameter list: "T x, float32 y, raw T z".
std::vector<UserParam> parse_user_params(const std::string& text, const char* what);
// A kernel object's in_params/out_params attributes: ("T x", "raw T y", ...).
Value user_param_texts(const std::vector<UserParam>& params);
// A tuple of strings (a kernel's options).
Value user_kernel_strings(const std::vector<std::string>& v);
// The operands of `in` then `out` over `args` (the inputs, then optionally
// the outputs), placeholders bound into `bound`: arrays first (inputs, then
// outputs), scalars last (a Python int as int64, float as float64).
std::vector<UserOperand> bind_user_operands(const std::vector<UserParam>& in, const std::vector<UserParam>& out, const std::string& name,
                                            const Value* args, size_t nargs, std::map<std::string, DType>& bound);
// A scalar operand's value in its dtype (8 bytes, the value's first).
std::vector<uint8_t> scalar_operand_bytes(const UserOperand& o);
// The placeholders' typedefs and the helper types generated kernels use
// (gpy_shape, gpy_arg, gpy_raw, gpy_indexer).
std::string user_kernel_header(const std::map<std::string, DType>& bound, const std::string& name, bool complex = false);

// The outputs of `k` over `args` (the inputs, then optionally every
// output), computed CuPy's way: one generated CUDA C++ kernel with a loop
// over the broadcast shape, `i` and `_ind` its index, raw parameters
// indexed by the operation, several outputs, loop_prep and after_loop.
// `size`: CuPy's size= (the loop's length when every array is raw).
std::vector<Value> run_loop_kernel(Interp& in, UserKernelDef& k, const Value* args, size_t nargs, std::optional<int64_t> size);

}  // namespace gpy
