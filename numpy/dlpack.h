// DLPack, both ways, without copying: a script array over another
// framework's tensor, and a tensor over a script array's memory. The
// language's np.from_dlpack / x.__dlpack__ / x.__dlpack_device__ and the C
// ABI's gpy_set_dlpack / gpy_get_dlpack (include/gpy/gpy_c.h) are built on it.
#pragma once

#include "base/dtype.h"
#include "gpy/dlpack.h"
#include "lang/interp.h"

namespace gpy {

struct ArrayObj;

// A script array over the tensor's memory; the tensor's deleter runs once,
// when the last array viewing the memory is gone (or at once, for a tensor
// that must be copied: a read-only one, or host memory on a GPU context).
// Raises BufferError for a tensor gpy cannot take (device memory on the CPU
// backend, a type NumPy lacks, vector lanes, strides off the element size);
// the deleter then runs before the raise.
Value array_from_dlpack(DLManagedTensorVersioned* t);
Value array_from_dlpack(DLManagedTensor* t);

// A tensor over `a`'s memory (computed first: device memory on a GPU
// context, host memory otherwise). The tensor holds the memory until its
// deleter is called, which the receiver must do exactly once.
// DLPack's type for a dtype (bool as DLPack 1.0's kDLBool).
DLDataType dlpack_dtype(DType t);

// The same over a bare DLTensor whose memory `keep` holds (an embedder's
// ArrayRef: include/gpy/gpy.h).
Value array_from_dltensor(const DLTensor& t, std::shared_ptr<void> keep, bool readonly);

DLManagedTensorVersioned* dlpack_versioned_from_array(ArrayObj* a);
DLManagedTensor* dlpack_from_array(ArrayObj* a);

// np.from_dlpack, x.__dlpack__, x.__dlpack_device__ and the capsule type.
void add_dlpack_functions(Interp& in, ModuleObj* m);
void install_dlpack_methods();

}  // namespace gpy
