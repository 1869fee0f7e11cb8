// np.histogram's uniform bins on a CUDA device (issue 22): one pass over the
// data computes each element's bin as NumPy does (an estimate from
// (x - first) * norm in the edges' type, then corrected against the edges
// themselves) and counts it in a block's shared-memory histogram; the
// blocks then add theirs to the result. The module's Python fallback took
// seven kernels and two index arrays of int64.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/search_cuda.h"  // DeviceSearchType: the data's element type

namespace gpy {

// The CUDA translation unit of the histogram kernels (the shadow-compile
// test compiles it for every architecture).
std::string cuda_histogram_source();

// counts[b] (int64, `bins` of them, zeroed here) = how many of data[0, n)
// fall in bin b of the uniform `edges` (bins + 1 values, float64 when
// `edges_double`, else float32; every element within [edges[0],
// edges[bins]]); `first` and `norm` are edges[0] and bins / (last - first)
// in the edges' type. Queued on the current stream of `device`.
void histogram_on_device(int device, DeviceSearchType type, bool edges_double, const void* data, int64_t n, const void* edges,
                         int64_t bins, double first, double norm, int64_t* counts);

}  // namespace gpy
