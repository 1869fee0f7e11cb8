// The k-th smallest elements of device data (np.median, percentile and
// quantile of a long row; issue 22): a radix select on the sort's keys
// (NumPy's order: NaN last, -0.0 == 0.0). Each pass counts, among the
// elements whose key matches the prefix found so far, the next digit's
// values in a block's shared-memory histogram (up to 12 ranks at once); a
// one-block kernel per rank then picks the digit holding the rank. Three
// passes over float32 data (digits of 12, 10 and 10 bits; the first, with
// no prefix yet, counted once for all ranks), six over 64-bit keys, and no
// host round trip between them, where sorting the whole row to read one or
// two of its elements took 1.5x CuPy's time.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/search_cuda.h"  // DeviceSearchType: the element types

namespace gpy {

// The CUDA translation unit of the selection kernels (the shadow-compile
// test compiles it for every architecture).
std::string cuda_kth_source();

// What kth_on_device found.
struct KthResult {
    bool negative_zero = false;  // the row holds a -0.0 (whose sign the keys forget)
    bool nan = false;            // the row holds a NaN
};

// out[i] = the element of rank ranks[i] (0 <= ranks[i] < n) in NumPy's sort
// order of x[0, n) of `type`, i < count. A zero comes back as +0.0 and a
// NaN as the default quiet NaN (see KthResult). Waits for the device once.
KthResult kth_on_device(int device, DeviceSearchType type, const void* x, int64_t n, const int64_t* ranks, int count, void* out);

}  // namespace gpy
