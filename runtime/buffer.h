// Reference-counted array memory: host memory (the CPU backend) or CUDA
// managed memory from the pooled, stream-aware device allocator
// (runtime/cuda_memory.h). Host code reaches the bytes through
// BufferRef::bytes(), which first waits for GPU work in flight; kernel
// launches take device_bytes(), which does not.
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
    // On the device new arrays live on (set_array_device): the host, or the
    // pool of a CUDA device (which throws cuda::OutOfMemory).
    static Buffer* allocate(size_t nbytes, bool zero = false);
    ~Buffer();
};

// The bound interpreter's cap on one array's bytes (ArrayContext::
// max_array_bytes, Config::max_array_bytes): past it, Buffer::allocate throws
// a std::bad_alloc whose what() says so (the interpreter's MemoryError).
// check_array_bytes throws that bad_alloc when `nbytes` is past the cap: for
// host scratch (std::vector) sized by a user's argument, e.g. a permutation's indices.
void check_array_bytes(size_t nbytes);

// Where Buffer::allocate puts the bound interpreter's new arrays (its
// backend at start-up, `with Device(i):` per block; the host when no
// interpreter is bound).
void set_array_device(DeviceKind kind, int index = 0);
DeviceKind array_device_kind();
int array_device_index();

// Waits until GPU work that may touch managed memory has finished, so the
// host can read or write it (a no-op when none is in flight).
void wait_for_device_work();

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
    // For host code: waits for in-flight GPU work first (managed memory).
    uint8_t* bytes() const {
        if (b_->device != DeviceKind::CPU) wait_for_device_work();
        return static_cast<uint8_t*>(b_->data);
    }
    // For kernel launches: the address as it is, without waiting.
    uint8_t* device_bytes() const { return static_cast<uint8_t*>(b_->data); }
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
