// Arrays' raw memory for other libraries (numpy/array_interface.cpp):
// __array_interface__, __cuda_array_interface__, x.data (a MemoryPointer),
// np.cuda.UnownedMemory / MemoryPointer and np.ndarray(..., memptr=).
#pragma once

#include "lang/interp.h"

namespace gpy {

// x.data, x.__array_interface__, x.__cuda_array_interface__; an undefined
// Value for another name (or the interface of the other kind of memory).
Value array_interface_attr(Interp& in, const Value& array, const std::string& name);
void install_array_interface();              // once per process
void add_array_interface_names(ModuleObj* cuda);  // np.cuda.UnownedMemory, MemoryPointer
// A MemoryPointer to the start of an UnownedMemory(ptr, size, owner, device).
Value unowned_memory_pointer(uintptr_t ptr, int64_t size, int device, Value owner);
}  // namespace gpy
