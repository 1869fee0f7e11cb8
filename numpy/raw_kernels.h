// What the array module's other kernels built from user code (an
// ElementwiseKernel's standalone loop, a ReductionKernel) share with
// np.RawKernel (numpy/raw_kernels.cpp): a kernel object over generated CUDA
// C++, launched with arguments packed by the caller.
#pragma once

#include <functional>

#include <memory>
#include <span>
#include <string>

#include "numpy/array.h"
#include "runtime/raw_kernel.h"

namespace gpy {

// A RawKernel object for kernel `name` of `source`; `kind` names it in
// messages ("ElementwiseKernel"). Compiled on first launch, per backend and device.
Value make_raw_kernel_object(std::shared_ptr<RawSource> source, std::string name, std::string kind);
// Launches it: `args` holds one pointer per parameter, to its value's bytes.
void launch_packed(const Value& kernel, RawDims grid, RawDims block, size_t shared_bytes, std::span<void* const> args);
// The address a kernel gets for `a`'s first element, on the backend's side
// (device or host), materialised; when the kernel may write it, pending
// results that read it are computed first.
// `what` names the argument in an error, made only then (a launch is hot).
void* kernel_pointer(ArrayObj* a, bool writes, const std::function<std::string()>& what);
// A launch's grid or block: an int or a tuple of 1 to 3 ints (`what` names it in errors).
RawDims launch_dims(const Value& v, const char* what);
// The C type a kernel declares for elements of `t` ("float", "long long",
// "complex<float>"); throws NotImplementedError for float16.
std::string kernel_ctype(DType t, const std::string& what);

}  // namespace gpy
