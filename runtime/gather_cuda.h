// Integer-array gathers on a CUDA device (issue 22): out[k] = src[idx[k]]
// over a 1-d source, the indices checked as NumPy checks them. The host
// loop over managed memory it replaces ran at 60x CuPy's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpy {

// The CUDA translation unit of the gather kernels (the shadow-compile test
// compiles it for every architecture).
std::string cuda_gather_source();

// dst[k] = the element of `elem` bytes at src + j * stride, j = idx[k] (+ n
// when negative), for k < count, on the current stream of `device`; waits
// for it. Returns the position of the first index outside [-n, n) (dst is
// then partly written), or count. Device-accessible pointers.
int64_t gather_on_device(int device, const int64_t* idx, int64_t count, const char* src, int64_t n, int64_t stride, size_t elem, char* dst);

}  // namespace gpy
