// TEMPORARY: compiles kernels with the clang++-16 command and dlopen until the
// in-process Clang/ORC JIT (runtime/cpu_jit) is wired in.
#pragma once
#include <string>
namespace gpy {
void* jit_lookup(const std::string& source, const std::string& symbol);
}
