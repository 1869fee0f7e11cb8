// np.searchsorted on a CUDA device (issue 22): a binary search per query,
// with NumPy's comparison (NaN sorts last). The host loop over managed
// memory it replaces ran at 300-400x CuPy's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpy {

enum class DeviceSearchType : uint8_t { Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float, Double };

// The suffix of a library kernel's name for an element type ("i8" ... "f64"),
// and the type's size in bytes.
inline const char* device_type_suffix(DeviceSearchType t) {
    static constexpr const char* kNames[] = {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"};
    return kNames[size_t(t)];
}
inline size_t device_type_size(DeviceSearchType t) {
    static constexpr size_t kSizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
    return kSizes[size_t(t)];
}

// The CUDA translation unit of the search kernels (the shadow-compile test
// compiles it for every architecture).
std::string cuda_search_source();

// out[i] = the insertion point of v[i] in a[0, n) (the first position whose
// element is not less than v[i]; with `right`, the first greater), i < m,
// queued on the current stream of `device`. Device-accessible pointers to
// contiguous elements of `type`.
void searchsorted_on_device(int device, DeviceSearchType type, bool right, const void* a, int64_t n, const void* v, int64_t m, int64_t* out);

}  // namespace gpy
