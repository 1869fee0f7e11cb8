// Stream compaction on a CUDA device (issue 22): the nonzero positions of an
// array (np.nonzero, flatnonzero, argwhere) or the elements a boolean mask
// selects (x[mask]), in order. The host loops over managed memory they
// replace ran at 9-96x CuPy's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace gpy {

// The CUDA translation unit of the compaction kernels (the shadow-compile
// test compiles it for every architecture).
std::string cuda_select_source();

// Which elements of the mask select: nonzero ones; for a float mask also
// its zeros (+-0.0) or its NaNs.
enum class MaskTest : uint8_t { NonZero, Zero, NaN };

// For each i < n, in order, where the `mask_elem`-byte element mask[i] is
// nonzero (for a float mask, `mask_float`: other than +-0.0; `test` picks
// zeros or NaNs instead), writes either i
// (int64; `src` null) or the `elem`-byte element src[i] (elem 1, 2, 4, 8 or
// 16) to the output that alloc(count) returns once the count is known (the
// one wait for the device). Returns the count. Device-accessible pointers,
// C-contiguous; the current stream of `device`.
int64_t select_on_device(int device, const void* mask, size_t mask_elem, bool mask_float, int64_t n, const void* src, size_t elem,
                         const std::function<void*(int64_t)>& alloc, MaskTest test = MaskTest::NonZero);

// out[k] = flat[k] / inner % len, k < count: one coordinate of flat indices.
void unravel_on_device(int device, const int64_t* flat, int64_t count, int64_t inner, int64_t len, int64_t* out);

}  // namespace gpy
