// Reference-counted device memory. Today every buffer lives in host memory
// (the CPU backend); the CUDA backend (issue 4) adds device buffers from a
// pooled, stream-aware allocator behind the same type.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gpy {

enum class DeviceKind : uint8_t { CPU, CUDA };

struct Buffer {
    std::atomic<int32_t> refcount{0};
    void* data = nullptr;
    size_t nbytes = 0;
    DeviceKind device = DeviceKind::CPU;
    int device_index = 0;

    // 64-byte aligned, zero-initialised when `zero` is set. Throws std::bad_alloc.
    static Buffer* allocate_host(size_t nbytes, bool zero = false);
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
    uint8_t* bytes() const { return static_cast<uint8_t*>(b_->data); }
private:
    Buffer* b_ = nullptr;
};

// Bytes of host memory held by live buffers (tests check that fused kernels
// allocate nothing but their outputs).
size_t host_bytes_in_use();
size_t host_allocations();

}  // namespace gpy
