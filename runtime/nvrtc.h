// NVRTC, the CUDA run-time compiler, loaded with dlopen on first use: no
// link-time dependency on the CUDA toolkit, so the gpy binary starts (and the
// CPU backend runs) where there is none.
//
// Looked for where dynlib::cuda_library_candidates says ($GPY_NVRTC_LIB
// first; runtime/dynamic_library.h).
//
// Thread-safe: compiles may run concurrently (NVRTC programs are independent).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace gpy::nvrtc {

// A translation unit NVRTC rejected (or NVRTC is missing). what() is a
// one-line summary; log holds NVRTC's full diagnostics.
struct CompileError : std::runtime_error {
    CompileError(const std::string& message, std::string log)
        : std::runtime_error(message), log(std::move(log)) {}
    std::string log;
};

// The error for generated code NVRTC rejected: an internal error (a gpy bug,
// never the user's), saying so and how to see the kernel's source.
std::string rejected_kernel_message(const std::string& kernel, const std::string& arch, const CompileError& e,
                                    const std::string& source = "");

// Whether libnvrtc could be loaded; when not, `why` says what was tried.
bool available(std::string* why = nullptr);
// "13.0" (the loaded library's version), or "" when unavailable.
std::string version();

// Compiles one CUDA C++ translation unit (no #include needed) to a cubin for
// `arch` ("sm_80", "sm_90"): options --gpu-architecture=ARCH -std=c++17
// -default-device and math_option(fast_math). `name` is the
// file name NVRTC's log uses. `fast_compile` adds --Ofast-compile=max (NVVM
// and ptxas barely optimise: a tiled reduction compiles in ~40 ms instead of
// ~6 s), for compiles that only check the source (the shadow compile).
// Returns the cubin's bytes; throws CompileError.
std::string compile(const std::string& source, const std::string& name, const std::string& arch, bool fast_math = false,
                    bool fast_compile = false);

// A user's module (np.RawModule): compiled with the user's options as CuPy
// passes them (plus the architecture, and -std=c++17 unless one is named;
// no gpy math options), each name expression lowered to its symbol.
struct UserModule {
    std::string cubin;
    std::vector<std::string> lowered;  // one per name expression
};
UserModule compile_user(const std::string& source, const std::string& name, const std::string& arch,
                        const std::vector<std::string>& options, const std::vector<std::string>& name_expressions);

// "--fmad=false": no FMA contraction, IEEE division and square root, so
// results match NumPy's unfused arithmetic (as the CPU backend's
// -ffp-contract=off). With Config::fast_math (gpy --fast-math, GPY_FAST_MATH=1),
// "--use_fast_math": approximate division, square root, exp/log/sin/cos,
// FMA contraction and denormals flushed to zero, as torch.compile's Triton
// kernels do (docs/differences.md). The interpreter's setting, passed by
// the runner with each compile; part of the disk cache key.
std::string math_option(bool fast_math);

// "--minimal" where NVRTC has it (12.4+; added by compile()), else "". Part
// of the disk cache key.
std::string minimal_option();

// Loads NVRTC and compiles an empty kernel for `arch` on a background thread
// (joined at exit), so that the REPL's first kernel does not pay NVRTC's
// start-up (~20 ms: the libraries' load and the first compile's set-up).
void warm_up_in_background(const std::string& arch);

// Extra options for launch compiles from GPY_EXPERIMENTS=nvrtc_fast=LEVEL
// (min | mid | max: --Ofast-compile=LEVEL; measured on this VM: an elementwise kernel 42 -> 33
// ms with min, a reduction 120 -> 74 ms), "" when unset. Part of the disk
// cache key; for A/B runs of compile time against kernel speed.
std::string launch_compile_level();

}  // namespace gpy::nvrtc
