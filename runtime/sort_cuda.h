// np.sort / np.argsort on a CUDA device (issue 22): a stable LSD radix sort
// over NumPy's order as unsigned keys (numpy/sort_keys.h's mapping: NaNs
// last and alike, -0.0 == 0.0), rows sorted together by taking the row as
// the most significant digits. The host sort over managed memory it
// replaces ran at 250-340x CuPy's time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "runtime/search_cuda.h"  // DeviceSearchType: the real element types

namespace gpy {

// The CUDA translation unit of the sort kernels (the shadow-compile test
// compiles it for every architecture).
std::string cuda_sort_source();
// Its first part: NumPy's order as unsigned keys (gpy_key<T>::key/value).
std::string cuda_sort_keys_source();

// Sorts each of `rows` C-contiguous rows of `len` elements of `type` at `x`
// (rows * len < 2^32), stably in NumPy's order, on the current stream of
// `device`: the sorted values to `out_values` and/or each element's index
// within its row to `out_index` (either may be null; `out_values` may be x).
// Device-accessible pointers. Waits for the device once (which radix digits
// vary, and whether the data holds NaNs or zeros).
void sort_on_device(int device, DeviceSearchType type, const void* x, int64_t rows, int64_t len, void* out_values,
                    int64_t* out_index);

// np.unique's values of x[0, n) (1 <= n < 2^32): sorted, then the first of
// each run of equal elements (NaNs one run with equal_nan) compacted into
// the output alloc(count) returns (runtime/select_cuda.h). Returns the count.
int64_t unique_on_device(int device, DeviceSearchType type, const void* x, int64_t n, bool equal_nan,
                         const std::function<void*(int64_t)>& alloc);

}  // namespace gpy
