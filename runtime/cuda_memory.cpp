#include "runtime/cuda_memory.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "base/interrupt.h"

#include "runtime/array_context.h"
#include "runtime/device_pool.h"
#include "base/phase_times.h"

namespace gpy {

namespace {
// Bit i: device i may have queued work the host has not waited for. Devices
// beyond 63 share the last bit (waiting for them all is merely slower).
std::atomic<uint64_t> g_busy_devices{0};
uint64_t device_bit(int device) { return uint64_t(1) << (device < 63 ? device : 63); }
}  // namespace

// How ~Buffer frees a CUDA buffer and how host access waits for it (base/buffer.h).
const DeviceMemoryOps kCudaMemory{free_cuda_buffer, wait_for_device_work};

Buffer* allocate_cuda_buffer(int device, size_t nbytes, bool zero) {
    phase::Scope timed(phase::Alloc);
    cuda::Device& d = cuda::device(device);
    d.make_current();
    cuda::CUstream stream = current_stream();
    uintptr_t p = cuda::device_pool(device).allocate(nbytes == 0 ? 1 : nbytes, stream);
    auto* b = new Buffer();
    b->data = reinterpret_cast<void*>(p);
    b->nbytes = nbytes;
    b->device = DeviceKind::CUDA;
    b->device_index = device;
    b->ops = &kCudaMemory;
    if (zero && nbytes) {
        GPY_CU(cuMemsetD8Async(cuda::CUdeviceptr(p), 0, nbytes, stream));
        note_device_work(device);
    }
    return b;
}

void free_cuda_buffer(Buffer* b) noexcept {
    // A block freed at process exit, after the driver shut down, is left to it.
    if (!cuda::try_api()) return;
    phase::Scope timed(phase::Free);
    // Back to the free list of the stream it was allocated on (the pool's
    // default): other streams get it only after an event recorded there.
    // Freeing runs in ~Buffer: a driver error here cannot be raised, and the
    // block is then left to the driver.
    try {
        cuda::device(b->device_index).make_current();
        cuda::device_pool(b->device_index).free(reinterpret_cast<uintptr_t>(b->data));
    } catch (...) {
    }
}

void retire_cuda_stream(int device, cuda::CUstream stream) noexcept {
    if (!cuda::try_api() || device < 0) return;
    try {
        cuda::device(device).make_current();
        cuda::device_pool(device).retire_stream(stream);
    } catch (...) {
    }
}

namespace {
int stream_slot(int device) { return device < 63 ? device : 63; }
}  // namespace

// The bound interpreter's current stream of each device (runtime/array_context.h).
cuda::CUstream current_stream() {
    ArrayContext* c = array_context();
    return c ? static_cast<cuda::CUstream>(c->streams[stream_slot(c->array_device)]) : nullptr;
}
void set_current_stream(cuda::CUstream stream) {
    if (ArrayContext* c = array_context()) c->streams[stream_slot(c->array_device)] = stream;
}

void note_device_work(int device) { g_busy_devices.fetch_or(device_bit(device), std::memory_order_release); }

namespace {
// An interpreter's thread polls its current stream before the blocking
// context sync: a long kernel there is the usual wait, and Ctrl-C must stop
// it (the kernel runs on; the next wait waits for it).
void wait_current_stream_interruptibly(int device) {
    if (!t_interrupt_flag || device != array_device_index()) return;
    cuda::device(device).make_current();
    const cuda::Api& api = cuda::api();
    // Spin for the first 10 ms (most waits are shorter: a sleep's wake-up
    // would add ~0.1-0.2 ms to each, the whole time of a small workload),
    // then poll every 100 us (at most ~1% of a wait that long).
    auto start = std::chrono::steady_clock::now();
    bool spinning = true;
    for (unsigned polls = 0;; ++polls) {
        if (api.cuStreamQuery(current_stream()) != cuda::CUDA_ERROR_NOT_READY) return;  // done, or an error the sync reports
        if (interrupt_requested()) throw Interrupted();
        if (spinning && (polls & 255) == 255) spinning = std::chrono::steady_clock::now() - start < std::chrono::milliseconds(10);
        if (!spinning) std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}
}  // namespace

void wait_for_device_work() {
    // A thread that finds nothing busy and no wait in progress may touch
    // memory at once; otherwise it queues behind the wait. Bits set while a
    // wait runs (new work) stay set for the next one.
    static std::atomic<bool> waiting{false};
    if (g_busy_devices.load() == 0 && !waiting.load()) return;
    static std::mutex mu;
    std::lock_guard<std::mutex> lock(mu);
    waiting.store(true);
    struct Done {
        ~Done() { waiting.store(false); }  // also when a sync throws
    } done;
    uint64_t busy = g_busy_devices.exchange(0);
    try {
        for (int i = 0; i < 64; ++i)
            if (busy & device_bit(i)) wait_current_stream_interruptibly(i);
    } catch (const Interrupted&) {
        g_busy_devices.fetch_or(busy);  // still in flight: the next wait waits for it
        throw;
    }
    for (int i = 0; i < 64; ++i) {
        if (!(busy & device_bit(i))) continue;
        if (i == 63) {
            for (int j = 63; j < cuda::device_count(); ++j) cuda::device(j).synchronize();
        } else {
            cuda::device(i).synchronize();
        }
    }
}

}  // namespace gpy
