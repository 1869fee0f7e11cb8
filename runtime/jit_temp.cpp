#include "runtime/jit_temp.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace gpy {

void* jit_lookup(const std::string& source, const std::string& symbol) {
    static std::mutex mu;
    static std::unordered_map<std::string, void*> libs;
    std::lock_guard<std::mutex> lock(mu);
    void*& lib = libs[source];
    if (!lib) {
        std::string base = "/tmp/gpy_jit_" + std::to_string(getpid()) + "_" + std::to_string(libs.size());
        std::ofstream(base + ".cpp") << source;
        std::string cmd = "clang++-16 -std=c++17 -O3 -march=native -fno-math-errno -ffp-contract=off -shared -fPIC -o " +
                          base + ".so " + base + ".cpp 2>" + base + ".log";
        if (std::system(cmd.c_str()) != 0) {
            std::ifstream log(base + ".log");
            std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
            throw std::runtime_error("kernel failed to compile:\n" + text + "\n" + source);
        }
        lib = dlopen((base + ".so").c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) throw std::runtime_error(dlerror());
    }
    void* f = dlsym(lib, symbol.c_str());
    if (!f) throw std::runtime_error("kernel symbol not found: " + symbol);
    return f;
}

}  // namespace gpy
