// How large the bound interpreter's arrays may be (runtime/array_context.h;
// where they live: base/context.h), and the host's wait for GPU work.
#pragma once

#include <cstddef>

#include "base/buffer.h"
#include "base/context.h"

namespace gpy {

// The bound interpreter's cap on one array's bytes (ArrayContext::
// max_array_bytes, Config::max_array_bytes): past it, Buffer::allocate throws
// a std::bad_alloc whose what() says so (the interpreter's MemoryError).
// check_array_bytes throws that bad_alloc when `nbytes` is past the cap: for
// host scratch (std::vector) sized by a user's argument, e.g. a permutation's indices.
void check_array_bytes(size_t nbytes);

// Copies n bytes between two buffers (from src_offset of src to dst_offset
// of dst): on the device when both are on the same GPU (stream-ordered),
// through host memory otherwise.
void copy_buffer_bytes(const BufferRef& dst, size_t dst_offset, const BufferRef& src, size_t src_offset, size_t n);

// Waits until GPU work that may touch managed memory has finished, so the
// host can read or write it (a no-op when none is in flight).
void wait_for_device_work();

}  // namespace gpy
