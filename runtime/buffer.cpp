#include "runtime/buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace gpy {

static std::atomic<size_t> g_bytes{0};
static std::atomic<size_t> g_allocs{0};

Buffer* Buffer::allocate_host(size_t nbytes, bool zero) {
    size_t rounded = (nbytes + 63) / 64 * 64;
    if (rounded == 0) rounded = 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p) throw std::bad_alloc();
    if (zero) std::memset(p, 0, rounded);
    auto* b = new Buffer();
    b->data = p;
    b->nbytes = nbytes;
    g_bytes += rounded;
    ++g_allocs;
    return b;
}

Buffer::~Buffer() {
    if (device == DeviceKind::CPU && data) {
        g_bytes -= (nbytes + 63) / 64 * 64 == 0 ? 64 : (nbytes + 63) / 64 * 64;
        std::free(data);
    }
}

size_t host_bytes_in_use() { return g_bytes.load(); }
size_t host_allocations() { return g_allocs.load(); }

}  // namespace gpy
