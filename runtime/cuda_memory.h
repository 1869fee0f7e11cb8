// Array buffers on CUDA devices: blocks of the device's pool (device memory
// with a host mirror kept coherent by BufferRef's accessors, or managed
// memory on request: runtime/device_pool.h), the stream a thread's kernels
// and copies go to, and the host's wait for GPU work.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/array_memory.h"
#include "runtime/cuda_driver.h"

namespace gpy {

// A buffer of `nbytes` on CUDA device `device`, zeroed on the current stream
// when `zero` is set. Throws cuda::OutOfMemory when the pool cannot serve it.
Buffer* allocate_cuda_buffer(int device, size_t nbytes, bool zero);
// Gives the block (and its host mirror) back to its pool (from ~Buffer), to
// the free list of the stream it was allocated on. Never throws.
void free_cuda_buffer(Buffer* b) noexcept;
// Device memory the caller owns, not copied (a DLPack tensor, an embedder's
// pointer): `keep` is held until the buffer dies, then released.
Buffer* lend_cuda_buffer(int device, void* data, size_t nbytes, std::shared_ptr<void> keep);
// Copies n bytes between two buffers of one device on the current stream.
void copy_on_device(const BufferRef& dst, size_t dst_offset, const BufferRef& src, size_t src_offset, size_t n);
// The buffer is CUDA managed memory (one address for host and device).
bool is_managed_buffer(const Buffer* b);

// The stream the bound interpreter's work goes to on its current array device:
// kernels, copies, cuBLAS and pool allocations (nullptr: the legacy default
// stream). Each device has its own current stream.
cuda::CUstream current_stream();
void set_current_stream(cuda::CUstream stream);

// Before stream `stream` of device `device` is destroyed: the pool stops
// recording events on it (runtime/device_pool.h). Never throws.
void retire_cuda_stream(int device, cuda::CUstream stream) noexcept;

// Marks device `device` as having queued work the host must wait for before
// it reads or writes managed memory.
void note_device_work(int device);

}  // namespace gpy
