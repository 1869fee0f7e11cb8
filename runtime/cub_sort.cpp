#include "runtime/cub_sort.h"
#include "base/module_path.h"

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
    const std::vector<std::string> candidates = module_search_paths("libgpy_cub.so", "GPY_CUB_LIB");
    for (const std::string& path : candidates) {
        struct stat st;
        if (::stat(path.c_str(), &st) != 0) continue;
        if (void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
    }
    return ::dlopen("libgpy_cub.so", RTLD_NOW | RTLD_LOCAL);  // the loader's path
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
