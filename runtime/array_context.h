// The runtime's part of an interpreter's context (base/context.h, which
// holds where its new arrays live): how large one may be, the stream its work goes to on each
// device, and the compile settings of its kernels. Filled by
// install_backend (runtime/backend.h) from the interpreter's configuration;
// `with Device(i):` and `with stream:` change it for a block.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "codegen/plan.h"
#include "base/buffer.h"

namespace gpy {

class Backend;  // runtime/backend.h

class ArrayContext : public PlanContext {
public:
    std::shared_ptr<Backend> backend;         // install_backend (runtime/backend.h)
    // A GPU context's host backend: NumPy scalars live and compute on the
    // host (HostArraysScope), as NumPy's do; null on the CPU.
    std::shared_ptr<Backend> host_backend;
    size_t max_array_bytes = 0;               // 0: no cap (Config::max_array_bytes)
    size_t max_memory_bytes = 0;              // 0: no budget (Config::max_memory_bytes)
    // The bytes of this interpreter's live arrays, while it has a budget
    // (shared with its buffers, which may outlive it).
    std::shared_ptr<std::atomic<int64_t>> live_bytes = std::make_shared<std::atomic<int64_t>>(0);
    std::string cache_dir;                    // "" = the default kernel cache folder
    bool fast_math = false;                   // NVRTC --use_fast_math (gpy --fast-math)
    bool check_kernels = false;               // gpy --check-kernels: raw kernels' pointer accesses checked (CPU)
    // New CUDA arrays in managed memory (np.cuda.set_allocator(np.cuda.
    // malloc_managed), GPY_GPU_MEMORY=managed) instead of device memory.
    bool managed_memory = false;
    int debug = 0;                            // Config::debug: runtime diagnostics on stderr when > 0
    // The current stream of each device (devices past 63 share the last
    // slot); nullptr is the legacy default stream. A CUstream, kept as void*
    // so that this header does not need the driver's.
    void* streams[64] = {};
    // np.errstate 'raise' (numpy/ufuncs.cpp): while fp_watch, the host
    // backend runs elementwise kernels on the calling thread and ORs the
    // FE_* flags they raise into fp_flags.
    bool fp_watch = false;
    int fp_flags = 0;

    Buffer* allocate_array(size_t nbytes, bool zero) override;  // runtime/array_memory.cpp
};

// While one lives, new arrays are host arrays and kernels run on the host
// backend, on a context whose arrays live on a GPU: NumPy scalars made from
// Python numbers and scalar-only ufuncs (numpy/ufuncs.cpp) compute as NumPy
// does, with the host's libm, and without a launch. No-op elsewhere.
class HostArraysScope {
public:
    HostArraysScope() : c_(active()), saved_(c_ ? c_->array_kind : DeviceKind::CPU) {
        if (c_) c_->array_kind = DeviceKind::CPU;
    }
    ~HostArraysScope() {
        if (c_) c_->array_kind = saved_;
    }
    HostArraysScope(const HostArraysScope&) = delete;
    HostArraysScope& operator=(const HostArraysScope&) = delete;
    // A GPU context with a host backend: the scope applies.
    static ArrayContext* active();

private:
    ArrayContext* c_;
    DeviceKind saved_;
};

// The bound interpreter's runtime context, or nullptr when none is bound
// (a unit test driving the runtime directly, a background thread): callers
// then use the defaults (host arrays, no cap, the default stream).
inline ArrayContext* array_context() { return static_cast<ArrayContext*>(bound_context()); }

inline ArrayContext* HostArraysScope::active() {
    ArrayContext* c = array_context();
    return c && c->host_backend && c->array_kind == DeviceKind::CUDA ? c : nullptr;
}

}  // namespace gpy
