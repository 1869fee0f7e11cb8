// CUB's radix sort, from libgpy_cub.so (runtime/cub/cub_sort.cu, built by
// nvcc with the static CUDA runtime), loaded on first use like the CPU JIT's
// module: $GPY_CUB_LIB, next to the executable, <exe>/../lib/gpy/, the build
// tree. Absent (a build without nvcc, a copy without the module), the device
// sort keeps gpy's own radix passes (runtime/sort_cuda.cpp).
#pragma once

#include <cstddef>

namespace gpy {

// gpy_cub_radix_sort's signature (see runtime/cub/cub_sort.cu).
using CubRadixSort = int (*)(int key_bytes, int pairs, void* temp, size_t* temp_bytes, void* keys0, void* keys1, unsigned* values0,
                             unsigned* values1, int n, int begin_bit, int end_bit, void* stream, int* selector);

// gpy_cub_sort_values's signature: values sorted as their own type.
using CubSortValues = int (*)(int type, void* temp, size_t* temp_bytes, const void* in, void* out, void* alt, int n, int begin_bit,
                              int end_bit, void* stream, int* selector);

// The module's entry points, or null (not found; GPY_CUB=0 in the
// environment also says null, to measure or test gpy's own sort).
CubRadixSort cub_radix_sort();
CubSortValues cub_sort_values();
// After a failed sort (a GPU the module has no code for, a driver older
// than its runtime): both entry points say null from then on, so sorts
// take gpy's own passes.
void disable_cub();

}  // namespace gpy
