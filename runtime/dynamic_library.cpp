#include "runtime/dynamic_library.h"

#include <glob.h>

#include <cstdlib>

namespace gpy::dynlib {

std::vector<std::string> cuda_library_candidates(const char* env_var, const char* stem) {
    std::vector<std::string> c;
    std::string s = stem;
    if (const char* p = std::getenv(env_var); p && *p) c.push_back(p);
    if (const char* h = std::getenv("CUDA_HOME"); h && *h) c.push_back(std::string(h) + "/lib64/" + s + ".so");
    c.push_back("/usr/local/cuda/lib64/" + s + ".so");
    c.push_back("/usr/local/cuda/targets/x86_64-linux/lib/" + s + ".so");
    for (const char* suffix : {".so.13", ".so.12", ".so"}) c.push_back(s + suffix);
    for (const char* site : {"/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
                             "/usr/lib/python3*/dist-packages", "/opt/*/lib/python3*/site-packages"}) {
        std::string pattern = std::string(site) + "/nvidia/*/lib/" + s + ".so.1*";
        glob_t g{};
        if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
            for (size_t i = 0; i < g.gl_pathc; ++i) c.push_back(g.gl_pathv[i]);
        globfree(&g);
    }
    return c;
}

void* open_first(const std::vector<std::string>& candidates, std::string& tried) {
    for (const std::string& path : candidates) {
        if (void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
        tried += (tried.empty() ? "" : ", ") + path;
    }
    return nullptr;
}

}  // namespace gpy::dynlib
