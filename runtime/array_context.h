// The runtime's part of an interpreter's context (base/context.h, which
// holds where its new arrays live): how large one may be, the stream its work goes to on each
// device, and the compile settings of its kernels. Filled by
// install_backend (runtime/backend.h) from the interpreter's configuration;
// `with Device(i):` and `with stream:` change it for a block.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "codegen/plan.h"
#include "base/buffer.h"

namespace gpy {

class Backend;  // runtime/backend.h

class ArrayContext : public PlanContext {
public:
    std::shared_ptr<Backend> backend;         // install_backend (runtime/backend.h)
    size_t max_array_bytes = 0;               // 0: no cap (Config::max_array_bytes)
    std::string cache_dir;                    // "" = the default kernel cache folder
    bool fast_math = false;                   // NVRTC --use_fast_math (gpy --fast-math)
    int debug = 0;                            // Config::debug: runtime diagnostics on stderr when > 0
    // The current stream of each device (devices past 63 share the last
    // slot); nullptr is the legacy default stream. A CUstream, kept as void*
    // so that this header does not need the driver's.
    void* streams[64] = {};

    Buffer* allocate_array(size_t nbytes, bool zero) override;  // runtime/array_memory.cpp
};

// The bound interpreter's runtime context, or nullptr when none is bound
// (a unit test driving the runtime directly, a background thread): callers
// then use the defaults (host arrays, no cap, the default stream).
inline ArrayContext* array_context() { return static_cast<ArrayContext*>(bound_context()); }

}  // namespace gpy
