#include "runtime/cuda_memory.h"

#include <atomic>
#include <mutex>

#include "runtime/device_pool.h"

namespace gpy {

namespace {
// Bit i: device i may have queued work the host has not waited for. Devices
// beyond 63 share the last bit (waiting for them all is merely slower).
std::atomic<uint64_t> g_busy_devices{0};
uint64_t device_bit(int device) { return uint64_t(1) << (device < 63 ? device : 63); }
}  // namespace

Buffer* allocate_cuda_buffer(int device, size_t nbytes, bool zero) {
    cuda::Device& d = cuda::device(device);
    d.make_current();
    cuda::CUstream stream = current_stream();
    uintptr_t p = cuda::device_pool(device).allocate(nbytes == 0 ? 1 : nbytes, stream);
    auto* b = new Buffer();
    b->data = reinterpret_cast<void*>(p);
    b->nbytes = nbytes;
    b->device = DeviceKind::CUDA;
    b->device_index = device;
    if (zero && nbytes) {
        GPY_CU(cuMemsetD8Async(cuda::CUdeviceptr(p), 0, nbytes, stream));
        note_device_work(device);
    }
    return b;
}

void free_cuda_buffer(Buffer* b) {
    // A block freed at process exit, after the driver shut down, is left to it.
    if (!cuda::try_api()) return;
    // The current stream is taken as the block's last user: other streams get
    // it only after an event recorded there completes.
    cuda::device_pool(b->device_index).free(reinterpret_cast<uintptr_t>(b->data), current_stream());
}

namespace {
thread_local cuda::CUstream t_current_stream = nullptr;
}  // namespace

cuda::CUstream current_stream() { return t_current_stream; }
void set_current_stream(cuda::CUstream stream) { t_current_stream = stream; }

void note_device_work(int device) { g_busy_devices.fetch_or(device_bit(device), std::memory_order_release); }

void wait_for_device_work() {
    if (g_busy_devices.load(std::memory_order_acquire) == 0) return;
    // Bits are cleared only after the wait: a second thread arriving meanwhile
    // blocks here instead of touching memory the GPU may still write.
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    uint64_t busy = g_busy_devices.load(std::memory_order_acquire);
    for (int i = 0; i < 64; ++i) {
        if (!(busy & device_bit(i))) continue;
        if (i == 63) {
            for (int j = 63; j < cuda::device_count(); ++j) cuda::device(j).synchronize();
        } else {
            cuda::device(i).synchronize();
        }
    }
    g_busy_devices.fetch_and(~busy, std::memory_order_acq_rel);
}

}  // namespace gpy
