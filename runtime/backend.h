// Choosing where arrays run. The CUDA driver is loaded at run time (dlopen),
// so one binary works on machines with and without a GPU.
#pragma once

#include <string>

namespace gpy {

struct BackendChoice {
    std::string name;         // "cpu" or "cuda"
    std::string description;  // for --verbose
    std::string note;         // for the REPL banner, e.g. "no GPU found, running on the CPU"
    std::string error;        // non-empty: the request cannot be met (e.g. --backend cuda without a GPU)
};

// `requested` is auto | cpu | cuda; $GPY_BACKEND (cpu | cuda) replaces auto.
BackendChoice choose_backend(const std::string& requested, int device);

}  // namespace gpy
