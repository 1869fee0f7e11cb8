#include "runtime/cuda_memory.h"

#include <atomic>
#include <cstdlib>
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

namespace {

// Which copy of a device buffer is current (Buffer::coherence). A new
// buffer is Fresh (no copy holds anything yet: the first access from either
// side copies nothing). Host access copies the device's bytes to the host
// mirror (Both, or Host when the host may write); device access copies them
// back when the host wrote (Both, or Device when a kernel may write).
enum Coherence : uint8_t { kDeviceCurrent = 0, kHostCurrent = 1, kBothCurrent = 2, kFresh = 3 };
constexpr uint8_t kStateMask = 0x3;
// Set while an upload from the mirror may be queued: the host must not write
// the mirror until the device has read it.
constexpr uint8_t kUploading = 0x40;
// Set once an upload from the mirror was queued on the legacy default
// stream: freeing the mirror then waits for that stream (without it, the
// mirror goes straight back to the host's free list).
constexpr uint8_t kEverUploaded = 0x20;
// Mirrors are pinned host memory (fast copies), or plain host memory when
// pinning fails.
constexpr uint8_t kPlainMirror = 0x80;

// Serialises coherence changes: a buffer may be shared by interpreters on
// several threads. Taken only when a copy is due, never on the fast path.
std::mutex& coherence_mu() {
    static auto* m = new std::mutex();  // never destroyed: buffers may die at exit
    return *m;
}

uint8_t state_of(const Buffer* b) { return b->coherence.load(std::memory_order_acquire) & kStateMask; }
void set_state(Buffer* b, uint8_t state, uint8_t clear = 0, uint8_t add = 0) {
    uint8_t keep = b->coherence.load(std::memory_order_relaxed) & uint8_t(~kStateMask) & uint8_t(~clear);
    b->coherence.store(uint8_t(state | keep | add), std::memory_order_release);
}

void allocate_mirror(Buffer* b) {
    size_t n = b->nbytes == 0 ? 1 : b->nbytes;
    try {
        b->host_mirror = reinterpret_cast<void*>(cuda::pinned_pool().allocate(n, cuda::kHostStream));
        return;
    } catch (const std::bad_alloc&) {  // no pinned memory left: pageable (slower copies)
    }
    void* p = std::aligned_alloc(64, (n + 63) / 64 * 64);
    if (!p) throw std::bad_alloc();
    b->host_mirror = p;
    b->coherence.fetch_or(kPlainMirror);
}

uint8_t* device_host_access(Buffer* b, bool write) {
    uint8_t bits = b->coherence.load(std::memory_order_acquire);
    const uint8_t want = write ? kHostCurrent : kBothCurrent;
    if (b->host_mirror && ((bits & kStateMask) == kHostCurrent || ((bits & kStateMask) == kBothCurrent && !write)))
        return static_cast<uint8_t*>(b->host_mirror);
    std::lock_guard<std::mutex> lock(coherence_mu());
    bits = b->coherence.load(std::memory_order_acquire);
    if (!b->host_mirror) allocate_mirror(b);
    switch (bits & kStateMask) {
        case kDeviceCurrent: {
            wait_for_device_work();  // the kernels that wrote the buffer
            phase::Scope timed(phase::Transfer);
            cuda::device(b->device_index).make_current();
            if (b->nbytes) GPY_CU(cuMemcpyDtoH(b->host_mirror, cuda::CUdeviceptr(b->data), b->nbytes));
            set_state(b, want, kUploading);
            break;
        }
        case kBothCurrent:
            if (!write) break;  // another thread got here first
            if (bits & kUploading) wait_for_device_work();
            set_state(b, kHostCurrent, kUploading);
            break;
        case kFresh:
            set_state(b, want);
            break;
        default:
            break;
    }
    return static_cast<uint8_t*>(b->host_mirror);
}

uint8_t* device_device_access(Buffer* b, bool write) {
    uint8_t state = state_of(b);
    if (state == kDeviceCurrent || (state == kBothCurrent && !write)) return static_cast<uint8_t*>(b->data);
    std::lock_guard<std::mutex> lock(coherence_mu());
    state = state_of(b);
    if (state == kHostCurrent) {
        phase::Scope timed(phase::Transfer);
        cuda::device(b->device_index).make_current();
        // Ordered before the kernels the caller launches next on its stream
        // and after those queued there that read the old bytes.
        cuda::CUstream stream = b->device_index == array_device_index() ? current_stream() : nullptr;
        if (b->nbytes) GPY_CU(cuMemcpyHtoDAsync(cuda::CUdeviceptr(b->data), b->host_mirror, b->nbytes, stream));
        if (stream) {
            // A stream of the user's (maybe non-blocking): later kernels on
            // other streams would not be ordered after the copy, nor would
            // the mirror's free. The copy completes here instead.
            GPY_CU(cuStreamSynchronize(stream));
            set_state(b, write ? kDeviceCurrent : kBothCurrent);
        } else {
            // The legacy default stream: every blocking stream's later work
            // is ordered after it.
            note_device_work(b->device_index);
            set_state(b, write ? kDeviceCurrent : kBothCurrent, 0, kUploading | kEverUploaded);
        }
    } else if (state == kFresh) {
        // Nothing to copy; the host has no mirror yet, so it reads the device's bytes.
        set_state(b, kDeviceCurrent);
    } else if (state != kDeviceCurrent) {
        set_state(b, write ? kDeviceCurrent : kBothCurrent);
    }
    return static_cast<uint8_t*>(b->data);
}

// Managed memory: one address for both; the host waits for the GPU's work.
uint8_t* managed_host_access(Buffer* b, bool) {
    wait_for_device_work();
    return static_cast<uint8_t*>(b->data);
}
uint8_t* managed_device_access(Buffer* b, bool) { return static_cast<uint8_t*>(b->data); }

}  // namespace

// How ~Buffer frees a CUDA buffer and how host and kernels reach it (base/buffer.h).
const DeviceMemoryOps kDeviceMemory{free_cuda_buffer, device_host_access, device_device_access};
const DeviceMemoryOps kManagedMemory{free_cuda_buffer, managed_host_access, managed_device_access};

Buffer* allocate_cuda_buffer(int device, size_t nbytes, bool zero) {
    phase::Scope timed(phase::Alloc);
    cuda::Device& d = cuda::device(device);
    d.make_current();
    cuda::CUstream stream = current_stream();
    ArrayContext* c = array_context();
    const bool managed = c && c->managed_memory;
    uintptr_t p = cuda::device_pool(device, managed).allocate(nbytes == 0 ? 1 : nbytes, stream);
    auto* b = new Buffer();
    b->data = reinterpret_cast<void*>(p);
    b->nbytes = nbytes;
    b->device = DeviceKind::CUDA;
    b->device_index = device;
    b->ops = managed ? &kManagedMemory : &kDeviceMemory;
    if (!zero) b->coherence.store(kFresh);
    if (zero && nbytes) {
        GPY_CU(cuMemsetD8Async(cuda::CUdeviceptr(p), 0, nbytes, stream));
        note_device_work(device);
    }
    return b;
}

bool is_managed_buffer(const Buffer* b) { return b->ops == &kManagedMemory; }

namespace {
// Gives a buffer's host mirror back (from ~Buffer). Never throws.
void free_mirror(Buffer* b) noexcept {
    if (!b->host_mirror) return;
    if (b->coherence.load() & kPlainMirror) {
        std::free(b->host_mirror);
        return;
    }
    // A copy from the mirror may still be queued: the pinned pool hands the
    // block to the host again only after the device's current stream passed it.
    try {
        // Uploads that may still be queued went to the legacy default stream.
        cuda::StreamKey stream = (b->coherence.load() & kEverUploaded) ? nullptr : cuda::kHostStream;
        cuda::pinned_pool().free(reinterpret_cast<uintptr_t>(b->host_mirror), stream);
    } catch (...) {
    }
}

// Device memory a host lent (a DLPack tensor, an embedder's pointer): the
// mirror is ours, the memory the lender's, held by its keep-alive handle.
void free_lent_cuda_buffer(Buffer* b) noexcept {
    if (cuda::try_api()) {
        // Kernels queued on gpy's streams may still read the memory: they
        // finish before the lender gets it back (and may reuse it).
        try {
            cuda::device(b->device_index).synchronize();
        } catch (...) {
        }
        free_mirror(b);
    }
    delete static_cast<std::shared_ptr<void>*>(b->external);
}
// Lent device memory (DLPack, UnownedMemory, RawModule.get_global): its
// owner, or a kernel reaching it through a pointer gpy does not see, may
// write the device bytes at any time, so a host copy is never trusted to be
// current: a read copies it again (host writes not yet uploaded are kept).
uint8_t* lent_host_access(Buffer* b, bool write) {
    {
        std::lock_guard<std::mutex> lock(coherence_mu());
        if (state_of(b) == kBothCurrent) set_state(b, kDeviceCurrent);
    }
    return device_host_access(b, write);
}

const DeviceMemoryOps kLentDeviceMemory{free_lent_cuda_buffer, lent_host_access, device_device_access};
}  // namespace

Buffer* lend_cuda_buffer(int device, void* data, size_t nbytes, std::shared_ptr<void> keep) {
    auto* b = new Buffer();
    b->data = data ? data : b;  // (an empty array: any non-null address; ~Buffer skips null)
    b->nbytes = nbytes;
    b->device = DeviceKind::CUDA;
    b->device_index = device;
    b->ops = &kLentDeviceMemory;
    b->external = new std::shared_ptr<void>(std::move(keep));
    b->coherence.store(kDeviceCurrent);  // the lender's bytes are the current ones
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
        cuda::device_pool(b->device_index, is_managed_buffer(b)).free(reinterpret_cast<uintptr_t>(b->data));
    } catch (...) {
    }
    free_mirror(b);
}

void copy_on_device(const BufferRef& dst, size_t dst_offset, const BufferRef& src, size_t src_offset, size_t n) {
    const uint8_t* from = src.device_read_bytes() + src_offset;
    uint8_t* to = dst.device_bytes() + dst_offset;
    cuda::device(dst->device_index).make_current();
    cuda::CUstream stream = dst->device_index == array_device_index() ? current_stream() : nullptr;
    GPY_CU(cuMemcpyDtoDAsync(cuda::CUdeviceptr(to), cuda::CUdeviceptr(from), n, stream));
    note_device_work(dst->device_index);
}


void retire_cuda_stream(int device, cuda::CUstream stream) noexcept {
    if (!cuda::try_api() || device < 0) return;
    try {
        cuda::device(device).make_current();
        cuda::device_pool(device).retire_stream(stream);
        cuda::device_pool(device, /*managed=*/true).retire_stream(stream);
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
