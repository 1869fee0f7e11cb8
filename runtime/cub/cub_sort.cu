// libgpy_cub.so: CUB's onesweep radix sort (CCCL, shipped with the CUDA
// toolkit) behind one C entry point, built by nvcc with the static CUDA
// runtime and loaded on the first device sort (runtime/cub_sort.h), so the
// interpreter itself links no CUDA library and runs where there is none.
// gpy's own radix sort (runtime/sort_cuda.cpp) ranks by warp ballots and is
// bound by instruction issue: 1.4x CUB's time for 2^24 float32 keys.
#include <cub/device/device_radix_sort.cuh>

namespace {

template <class K>
cudaError_t sort(bool pairs, void* temp, size_t* temp_bytes, void* keys0, void* keys1, unsigned* values0, unsigned* values1, int n,
                 int begin_bit, int end_bit, cudaStream_t stream, int* selector) {
    cub::DoubleBuffer<K> keys(static_cast<K*>(keys0), static_cast<K*>(keys1));
    cub::DoubleBuffer<unsigned> values(values0, values1);
    cudaError_t e = pairs ? cub::DeviceRadixSort::SortPairs(temp, *temp_bytes, keys, values, n, begin_bit, end_bit, stream)
                          : cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, keys, n, begin_bit, end_bit, stream);
    *selector = keys.selector;  // (the values' selector moves with the keys')
    return e;
}

// Values of their own type in CUB's order (which may put -0.0 before +0.0,
// and puts negative NaNs first: the caller sends no NaNs and, when a -0.0 is
// there, rewrites the zeros).
template <class K>
cudaError_t sort_values(void* temp, size_t* temp_bytes, const void* in, void* out, void* alt, int n, int begin_bit, int end_bit,
                        cudaStream_t stream, int* selector) {
    if (alt) {  // in place: out (== in) and alt as CUB's double buffer
        cub::DoubleBuffer<K> keys(static_cast<K*>(out), static_cast<K*>(alt));
        cudaError_t e = cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, keys, n, begin_bit, end_bit, stream);
        *selector = keys.selector;
        return e;
    }
    *selector = 0;
    return cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, static_cast<const K*>(in), static_cast<K*>(out), n, begin_bit, end_bit, stream);
}

}  // namespace

// Sorts n values of `type` (0 float, 1 double, 2 int32, 3 uint32, 4 int64,
// 5 uint64) on bits [begin_bit, end_bit) of CUB's keys: from `in` into
// `out`, or (alt not null) in place in `out` with `alt` as scratch, then
// *selector = 1 when the result is in alt. temp null: *temp_bytes = the
// scratch needed. Returns a cudaError_t (0: success).
extern "C" __attribute__((visibility("default"))) int gpy_cub_sort_values(int type, void* temp, size_t* temp_bytes, const void* in,
                                                                         void* out, void* alt, int n, int begin_bit, int end_bit,
                                                                         void* stream, int* selector) {
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    switch (type) {
        case 0: return sort_values<float>(temp, temp_bytes, in, out, alt, n, begin_bit, end_bit, s, selector);
        case 1: return sort_values<double>(temp, temp_bytes, in, out, alt, n, begin_bit, end_bit, s, selector);
        case 2: return sort_values<int>(temp, temp_bytes, in, out, alt, n, begin_bit, end_bit, s, selector);
        case 3: return sort_values<unsigned>(temp, temp_bytes, in, out, alt, n, begin_bit, end_bit, s, selector);
        case 4: return sort_values<long long>(temp, temp_bytes, in, out, alt, n, begin_bit, end_bit, s, selector);
        case 5: return sort_values<unsigned long long>(temp, temp_bytes, in, out, alt, n, begin_bit, end_bit, s, selector);
        default: return 1;  // cudaErrorInvalidValue
    }
}

// Sorts n unsigned keys of key_bytes (4 or 8) bytes on bits [begin_bit,
// end_bit), stably, with (pairs) unsigned values travelling with them,
// between keys0/keys1 (and values0/values1): *selector = 1 when the result
// is in the second buffers. temp null: *temp_bytes = the scratch needed.
// Returns a cudaError_t (0: success).
extern "C" __attribute__((visibility("default"))) int gpy_cub_radix_sort(int key_bytes, int pairs, void* temp, size_t* temp_bytes,
                                                                        void* keys0, void* keys1, unsigned* values0, unsigned* values1,
                                                                        int n, int begin_bit, int end_bit, void* stream, int* selector) {
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    if (key_bytes == 8)
        return sort<unsigned long long>(pairs, temp, temp_bytes, keys0, keys1, values0, values1, n, begin_bit, end_bit, s, selector);
    return sort<unsigned>(pairs, temp, temp_bytes, keys0, keys1, values0, values1, n, begin_bit, end_bit, s, selector);
}
