// Scans on a CUDA device (issue 22): cumsum, cumprod and the maximum/minimum
// accumulate of a C-contiguous (outer, len, inner) block, along len, from
// src into dst (the same buffer or another). The host loop over managed
// memory it replaces ran at 50-60x CuPy's. Scans across rows (inner > 1)
// and short rows run a chain per thread, and float sums and products of rows
// up to 2^16 a warp per row, in NumPy's order; longer rows run a single-pass
// scan in tiles with decoupled look-back (one read and one write of each
// element), so float sums and products of rows over 2^16 may differ from
// NumPy's sequential ones in the last bits, as CuPy's do. Integers wrap as NumPy's; maximum and minimum
// propagate NaN.
#pragma once

#include <cstdint>
#include <string>

namespace gpy {

enum class DeviceScanOp : uint8_t { Sum, Prod, Max, Min };
enum class DeviceScanType : uint8_t { Int32, UInt32, Int64, UInt64, Float, Double };

// The CUDA translation unit of the scan kernels (the shadow-compile test
// compiles it for every architecture).
std::string cuda_scan_source();

// Queues the scan of `src` into `dst` (device memory, elements of `type`;
// dst may be src) on the current stream of `device`.
void scan_on_device(int device, DeviceScanOp op, DeviceScanType type, const void* src, void* dst, int64_t outer, int64_t len,
                    int64_t inner);

}  // namespace gpy
