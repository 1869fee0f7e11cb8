// What the CPU JIT back end's files share (runtime/llvm/: the only code that
// includes Clang and LLVM).
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

namespace clang {
class CompilerInstance;
}
namespace llvm {
class raw_string_ostream;
}

namespace gpy::cpujit_backend {

// A compiler instance for `source` (C++17, the JIT's options), in memory,
// its diagnostics into `log_os` (runtime/llvm/cpu_jit_backend.cpp).
void set_up(clang::CompilerInstance& ci, const std::string& source, bool optimise, llvm::raw_string_ostream& log_os);

// Held by every Clang run and ORC operation: they run one at a time
// (concurrent Clang compiles corrupted the heap).
std::mutex& jit_mutex();

// cpujit_abi::Backend::analyse (runtime/llvm/raw_analysis_backend.cpp).
bool analyse(const std::string& source, size_t user_begin, size_t user_end, std::string& out, std::string& log);

}  // namespace gpy::cpujit_backend
