// Philox fills on a CUDA device, from the same core text as the host fills
// (runtime/philox_core.inc): uniform floats and doubles are the host fills'
// bits; normals go through CUDA's logf/sinf/... (not glibc's) and may differ
// from them in the last bits.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/philox.h"

namespace gpy::philox {

enum class DeviceFill {
    UniformFloat,       // curandGenerateUniform, then 1.0f -> 0.0f (NumPy's [0, 1))
    UniformDouble,      // curandGenerateUniformDouble
    NormalFloat,        // curandGenerateNormal(mean = a, stddev = b)
    NormalDouble,       // curandGenerateNormalDouble(mean = a, stddev = b)
};

// The CUDA translation unit of the fill kernels (the shadow-compile test
// compiles it for every architecture).
std::string cuda_fill_source();

// Queues outputs [0, n) of draw `s` into `out` (device-accessible) on the
// current stream of CUDA device `device`.
void fill_on_device(int device, DeviceFill kind, const Stream& s, uint64_t n, double a, double b, void* out);

}  // namespace gpy::philox
