// Module search paths (base/module_path.h).
#include "base/module_path.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

namespace gpy {

namespace {
std::string dir_of(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

void add_beside(std::vector<std::string>& out, const std::string& dir, const std::string& file) {
    for (const char* sub : {"/", "/gpy/", "/../lib/gpy/"}) {
        std::string p = dir + sub + file;
        bool seen = false;
        for (const std::string& q : out) seen = seen || q == p;
        if (!seen) out.push_back(p);
    }
}
}  // namespace

std::vector<std::string> module_search_paths(const std::string& file, const char* env_var) {
    std::vector<std::string> out;
    if (const char* env = std::getenv(env_var); env && *env) out.push_back(env);
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&module_search_paths), &info) && info.dli_fname && info.dli_fname[0] == '/')
        add_beside(out, dir_of(info.dli_fname), file);
    char exe[4096];
    if (ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1); n > 0) {
        exe[n] = '\0';
        add_beside(out, dir_of(exe), file);
    }
    return out;
}

}  // namespace gpy
