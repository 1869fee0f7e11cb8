// The addresses a kernel being emitted reads and writes: device addresses
// when it runs on a GPU, host bytes when the host backend runs it (arrays of
// the CPU backend, or a GPU context's HostArraysScope: NumPy scalars,
// np.errstate 'raise'), whose inputs may still be device buffers (read
// through their host mirror, base/buffer.h).
#pragma once

#include "base/buffer.h"
#include "base/context.h"

namespace gpy {

inline char* kernel_input(const BufferRef& b) {
    const uint8_t* p = array_device_kind() == DeviceKind::CPU ? b.host_read_bytes() : b.device_read_bytes();
    return reinterpret_cast<char*>(const_cast<uint8_t*>(p));
}

inline char* kernel_output(const BufferRef& b) {
    return reinterpret_cast<char*>(array_device_kind() == DeviceKind::CPU ? b.bytes() : b.device_bytes());
}

}  // namespace gpy
