// Choosing where arrays run. The CUDA driver is loaded at run time (dlopen),
// so one binary works on machines with and without a GPU.
#pragma once

#include <cstddef>
#include <string>

#include "runtime/array_context.h"

namespace gpy {

struct BackendChoice {
    std::string name;         // "cpu" or "cuda"
    std::string description;  // for --verbose
    std::string note;         // for the REPL banner, e.g. "no GPU found, running on the CPU"
    std::string error;        // non-empty: the request cannot be met (e.g. --backend cuda without a GPU)
};

// `requested` is auto | cpu | cuda; $GPY_BACKEND (cpu | cuda) replaces auto.
BackendChoice choose_backend(const std::string& requested, int device);

struct BackendOptions {
    std::string backend = "auto";  // as choose_backend's `requested`
    int device = 0;
    std::string cache_dir;         // "" = the default kernel cache folder
    size_t max_array_bytes = 0;
    bool fast_math = false;
    int debug = 0;                 // Config::debug
};

// Makes `ctx` an interpreter's backend: chooses the device (a request that
// cannot be met runs on the CPU, as before), and sets where its arrays live,
// its limits and cache folder, the runner that launches its kernels and the
// readiness check its stand-ins ask. Errors of a launch (NVRTC, the driver)
// escape the runner as C++ exceptions: the array module translates them.
// Returns the choice.
BackendChoice install_backend(ArrayContext& ctx, const BackendOptions& options);

}  // namespace gpy
