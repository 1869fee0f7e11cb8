#include "runtime/array_memory.h"

#include <cstring>
#include <new>
#include <string>

#include "runtime/array_context.h"
#include "runtime/cuda_memory.h"

namespace gpy {

namespace {
struct ArrayTooLarge : std::bad_alloc {
    std::string text;
    ArrayTooLarge(size_t nbytes, size_t cap)
        : text("an array of " + std::to_string(nbytes) + " bytes is over the limit of " + std::to_string(cap) +
               " bytes (max_array_bytes)") {}
    const char* what() const noexcept override { return text.c_str(); }
};
struct OverBudget : std::bad_alloc {
    std::string text;
    OverBudget(size_t nbytes, int64_t live, size_t budget)
        : text("an array of " + std::to_string(nbytes) + " bytes would take this interpreter's arrays to " +
               std::to_string(live + int64_t(nbytes)) + " bytes, over its budget of " + std::to_string(budget) +
               " bytes (max_memory_bytes)") {}
    const char* what() const noexcept override { return text.c_str(); }
};
}  // namespace

void check_array_bytes(size_t nbytes) {
    ArrayContext* c = array_context();
    if (c && c->max_array_bytes && nbytes > c->max_array_bytes) throw ArrayTooLarge(nbytes, c->max_array_bytes);
}

Buffer* ArrayContext::allocate_array(size_t nbytes, bool zero) {
    if (max_array_bytes && nbytes > max_array_bytes) throw ArrayTooLarge(nbytes, max_array_bytes);
    if (!max_memory_bytes) {
        if (array_kind == DeviceKind::CUDA) return allocate_cuda_buffer(array_device, nbytes, zero);
        return Buffer::allocate_host(nbytes, zero);
    }
    // Claimed first, so two threads' arrays cannot both slip under the budget.
    const int64_t before = live_bytes->fetch_add(int64_t(nbytes), std::memory_order_relaxed);
    if (before + int64_t(nbytes) > int64_t(max_memory_bytes)) {
        live_bytes->fetch_sub(int64_t(nbytes), std::memory_order_relaxed);
        throw OverBudget(nbytes, before, max_memory_bytes);
    }
    Buffer* b = nullptr;
    try {
        b = array_kind == DeviceKind::CUDA ? allocate_cuda_buffer(array_device, nbytes, zero) : Buffer::allocate_host(nbytes, zero);
    } catch (...) {
        live_bytes->fetch_sub(int64_t(nbytes), std::memory_order_relaxed);
        throw;
    }
    b->budget = live_bytes;  // ~Buffer gives the bytes back
    return b;
}

void copy_buffer_bytes(const BufferRef& dst, size_t dst_offset, const BufferRef& src, size_t src_offset, size_t n) {
    if (n == 0) return;
    if (dst->device == DeviceKind::CUDA && src->device == DeviceKind::CUDA && dst->device_index == src->device_index) {
        copy_on_device(dst, dst_offset, src, src_offset, n);
        return;
    }
    std::memcpy(dst.bytes() + dst_offset, src.host_read_bytes() + src_offset, n);
}

}  // namespace gpy
