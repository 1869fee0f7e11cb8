// Reference-counted array memory: host memory from a pool, or device memory
// whose allocator (runtime/cuda_memory.h) says how to free it and how host
// and device code reach it (DeviceMemoryOps). Host code reaches the bytes
// through BufferRef::bytes() (or host_read_bytes() when it only reads);
// kernel launches take device_bytes() (device_read_bytes() for inputs). For
// device memory the host bytes are a mirror kept coherent by these calls: a
// pointer from one side is never used on the other.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace gpy {

enum class DeviceKind : uint8_t { CPU, CUDA };

struct Buffer;

// What a device allocator provides for its buffers.
struct DeviceMemoryOps {
    void (*free)(Buffer* b) noexcept;  // gives the block back (from ~Buffer)
    // The bytes as host code may read them (and write them when `write`),
    // current with the device's work so far.
    uint8_t* (*host_access)(Buffer* b, bool write);
    // The device address kernels use, current with the host's writes so
    // far; `write`: the next kernels may change the bytes.
    uint8_t* (*device_access)(Buffer* b, bool write);
};

struct Buffer {
    std::atomic<int32_t> refcount{0};
    void* data = nullptr;
    size_t nbytes = 0;
    DeviceKind device = DeviceKind::CPU;
    int device_index = 0;
    const DeviceMemoryOps* ops = nullptr;  // set for device memory
    // Device memory's host copy and which side is current: owned by `ops`
    // (runtime/cuda_memory.cpp); unused for host memory.
    void* host_mirror = nullptr;
    std::atomic<uint8_t> coherence{0};
    // The array object the memory was allocated for (NumPy's x.base of a
    // view), cleared when that object dies; an opaque pointer at this layer.
    const void* owner = nullptr;
    // Memory an embedder lent (include/gpy/gpy.h ArrayRef, a DLPack
    // tensor): its keep-alive handle, a std::shared_ptr<void>* that
    // `ops->free` deletes; null otherwise.
    void* external = nullptr;
    // The live-bytes counter of the interpreter whose budget this array
    // counts against (Config::max_memory_bytes); ~Buffer gives the bytes back.
    std::shared_ptr<std::atomic<int64_t>> budget;

    // 64-byte aligned, zero-initialised when `zero` is set. Throws std::bad_alloc.
    static Buffer* allocate_host(size_t nbytes, bool zero = false);
    // A new array's memory where the bound interpreter puts arrays (its
    // context, base/context.h: host or device, within its limit); host
    // memory when no interpreter is bound.
    static Buffer* allocate(size_t nbytes, bool zero = false);
    // Host memory the caller owns, not copied: `keep` is held until the
    // buffer dies (the last array viewing it), then released.
    static Buffer* lend_host(void* data, size_t nbytes, std::shared_ptr<void> keep);
    ~Buffer();
};

inline void retain(Buffer* b) { b->refcount.fetch_add(1, std::memory_order_relaxed); }
inline void release(Buffer* b) {
    if (b->refcount.fetch_sub(1, std::memory_order_acq_rel) == 1) delete b;
}

// Owning handle.
class BufferRef {
public:
    BufferRef() = default;
    explicit BufferRef(Buffer* b) : b_(b) { if (b_) retain(b_); }
    BufferRef(const BufferRef& o) : b_(o.b_) { if (b_) retain(b_); }
    BufferRef(BufferRef&& o) noexcept : b_(o.b_) { o.b_ = nullptr; }
    BufferRef& operator=(BufferRef o) { std::swap(b_, o.b_); return *this; }
    ~BufferRef() { if (b_) release(b_); }
    Buffer* get() const { return b_; }
    Buffer* operator->() const { return b_; }
    explicit operator bool() const { return b_ != nullptr; }
    // For host code that may write the bytes (device memory: its host mirror,
    // brought up to date; the device's copy is refreshed before its next use).
    uint8_t* bytes() const { return b_->ops ? b_->ops->host_access(b_, true) : static_cast<uint8_t*>(b_->data); }
    // For host code that only reads (the device's copy stays current).
    const uint8_t* host_read_bytes() const {
        return b_->ops ? b_->ops->host_access(b_, false) : static_cast<uint8_t*>(b_->data);
    }
    // For kernel launches that may write: the device address, without waiting.
    uint8_t* device_bytes() const {
        return b_->ops ? b_->ops->device_access(b_, true) : static_cast<uint8_t*>(b_->data);
    }
    // For kernel launches that only read.
    const uint8_t* device_read_bytes() const {
        return b_->ops ? b_->ops->device_access(b_, false) : static_cast<uint8_t*>(b_->data);
    }
private:
    Buffer* b_ = nullptr;
};

// Bytes of host memory held by live buffers (tests check that fused kernels
// allocate nothing but their outputs).
size_t host_bytes_in_use();
size_t host_allocations();
// Buffer::allocate calls (arrays on whichever device: host or CUDA pool).
size_t array_allocations();

}  // namespace gpy
