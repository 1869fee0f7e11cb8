#include "runtime/cub_sort.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

namespace gpy {

namespace {

void* load() {
    if (const char* off = std::getenv("GPY_CUB"); off && std::string(off) == "0") return nullptr;
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("GPY_CUB_LIB"); env && *env) candidates.push_back(env);
    char exe[4096];
    if (ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1); n > 0) {
        exe[n] = '\0';
        std::string path = exe;
        std::string dir = path.substr(0, path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
        candidates.push_back(dir + "/libgpy_cub.so");
        candidates.push_back(dir + "/../lib/gpy/libgpy_cub.so");
    }
#ifdef GPY_CUB_BUILD_PATH
    candidates.push_back(GPY_CUB_BUILD_PATH);
#endif
    for (const std::string& path : candidates) {
        struct stat st;
        if (::stat(path.c_str(), &st) != 0) continue;
        if (void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
    }
    return nullptr;
}

std::atomic<bool> disabled{false};

// The module's symbol, looked up once (null without the module).
void* symbol(const char* name) {
    static void* const lib = load();  // stays loaded for the process
    return lib ? ::dlsym(lib, name) : nullptr;
}

}  // namespace

CubRadixSort cub_radix_sort() {
    static const auto f = reinterpret_cast<CubRadixSort>(symbol("gpy_cub_radix_sort"));
    return disabled.load(std::memory_order_relaxed) ? nullptr : f;
}

CubSortValues cub_sort_values() {
    static const auto f = reinterpret_cast<CubSortValues>(symbol("gpy_cub_sort_values"));
    return disabled.load(std::memory_order_relaxed) ? nullptr : f;
}

void disable_cub() { disabled.store(true, std::memory_order_relaxed); }

}  // namespace gpy
