// Integer-array gathers and scatters on a CUDA device (issue 22): out[k] =
// src[idx[k]] and dst[idx[k]] = src[k] over a 1-d array, the indices checked
// as NumPy checks them. The host loops over managed memory they replace ran
// at 60x (gather) and 359x (scatter) CuPy's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/search_cuda.h"  // DeviceSearchType

namespace gpy {

// The CUDA translation unit of the gather kernels (the shadow-compile test
// compiles it for every architecture).
std::string cuda_gather_source();

// dst[k] = the element of `elem` bytes at src + j * stride, j = idx[k] (+ n
// when negative), for k < count, on the current stream of `device`; waits
// for it. Returns the position of the first index outside [-n, n) (dst is
// then partly written), or count. Device-accessible pointers.
int64_t gather_on_device(int device, const int64_t* idx, int64_t count, const char* src, int64_t n, int64_t stride, size_t elem, char* dst);

// dst[j * stride] = src[k] (the `elem`-byte element), j = idx[k] (+ n when
// negative), for k < count, on the current stream of `device`; of repeated
// indices the last k wins, as in NumPy's in-order assignment (`uniform`: all
// of src's elements are the same, src[0], and any may win). Checks every
// index first (waiting for the device) and writes nothing when one is
// outside [-n, n): returns the first such position, or count.
int64_t scatter_on_device(int device, const int64_t* idx, int64_t count, char* dst, int64_t n, int64_t stride, size_t elem,
                          const char* src, bool uniform);

// ufunc.at(x, idx, values) on the device for a 1-d x (element j at dst + j
// * stride): x[j] = x[j] OP values[k] (values[0] for all when `uniform`),
// j = idx[k] (+ n when negative), with NumPy's results: op 0 add, 1 maximum,
// 2 minimum of int32/uint32/int64/uint64 (atomics), or op 0 of float32/
// float64 (each index's run added in order; count < 2^32). Checks every
// index first (waiting for the device) and changes nothing when one is
// outside [-n, n): returns the first such position, or count.
int64_t ufunc_at_on_device(int device, int op, DeviceSearchType type, const int64_t* idx, int64_t count, char* dst, int64_t n,
                           int64_t stride, const void* values, bool uniform);

}  // namespace gpy
