#include "runtime/backend.h"

#include <dlfcn.h>

namespace gpy {

namespace {

// Counts CUDA devices through the driver API, loaded dynamically: no link-time
// dependency on libcuda, so the binary starts where there is no driver.
int cuda_device_count(std::string& why) {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        why = "no CUDA driver (libcuda.so.1 not found)";
        return 0;
    }
    using InitFn = int (*)(unsigned);
    using CountFn = int (*)(int*);
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
    auto count = reinterpret_cast<CountFn>(dlsym(lib, "cuDeviceGetCount"));
    int n = 0;
    if (!init || !count || init(0) != 0 || count(&n) != 0) {
        why = "the CUDA driver found no usable GPU";
        n = 0;
    } else if (n == 0) {
        why = "the CUDA driver reports no GPU";
    }
    // The library stays loaded: the CUDA backend (a later issue) uses it.
    return n;
}

}  // namespace

BackendChoice choose_backend(const std::string& requested, int device) {
    BackendChoice c;
    if (requested == "cpu") {
        c.name = "cpu";
        c.description = "cpu (requested with --backend cpu)";
        return c;
    }
    std::string why;
    int n = cuda_device_count(why);
    if (n > 0 && device >= n) {
        c.error = "--device " + std::to_string(device) + " is out of range: " + std::to_string(n) + " CUDA device(s) found";
        return c;
    }
    if (requested == "cuda") {
        if (n == 0) {
            c.error = "--backend cuda requested but " + why;
            return c;
        }
        c.name = "cuda";
        c.description = "cuda device " + std::to_string(device) + " (arrays on the GPU arrive with the CUDA backend issue)";
        return c;
    }
    if (n > 0) {
        c.name = "cuda";
        c.description = "cuda device " + std::to_string(device) + " of " + std::to_string(n);
        return c;
    }
    c.name = "cpu";
    c.note = why + ", running on the CPU";
    c.description = "cpu (" + why + ")";
    return c;
}

}  // namespace gpy
