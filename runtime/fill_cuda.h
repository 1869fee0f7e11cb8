// np.arange's fill on a CUDA device (issue 22): out[i] = out[0] + i * (out[1]
// - out[0]) in the element type, bit for bit the host fill's (numpy/arange.cpp:
// integers wrap in 64-bit unsigned arithmetic, float16 computes in float,
// no fused multiply-add). The host loop over managed memory it replaces took
// 60 ms for 2^24 int64 (the pages then migrate to the GPU).
#pragma once

#include <cstdint>
#include <string>

namespace gpy {

// How the element type fills (one entry point each).
enum class RangeFill : uint8_t { Int8, Int16, Int32, Int64, Half, Float, Double, ComplexFloat, ComplexDouble };

// The CUDA translation unit of the fill kernels (the shadow-compile test
// compiles it for every architecture).
std::string cuda_range_fill_source();

// Queues the fill of out[0, n) on the current stream of `device`: `first`
// holds out[0] and out[1] as stored (2 elements of the type's size).
void range_fill_on_device(int device, RangeFill kind, const void* first, int64_t n, void* out);

}  // namespace gpy
