#include "runtime/nvrtc.h"

#include "codegen/kernel.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/experiments.h"
#include "runtime/dynamic_library.h"

namespace gpy::nvrtc {

namespace {

// The few entry points used, declared as in nvrtc.h (not included: the
// build must not need the toolkit's headers either).
using Program = struct _nvrtcProgram*;
using Result = int;  // nvrtcResult; 0 is NVRTC_SUCCESS
struct Api {
    const char* (*get_error_string)(Result);
    Result (*version)(int*, int*);
    Result (*create_program)(Program*, const char*, const char*, int, const char* const*, const char* const*);
    Result (*destroy_program)(Program*);
    Result (*compile_program)(Program, int, const char* const*);
    Result (*get_program_log_size)(Program, size_t*);
    Result (*get_program_log)(Program, char*);
    Result (*get_cubin_size)(Program, size_t*);
    Result (*get_cubin)(Program, char*);
    Result (*add_name_expression)(Program, const char*);
    Result (*get_lowered_name)(Program, const char*, const char**);
};

struct Loaded {
    Api api{};
    bool ok = false;
    std::string why;  // when !ok
};

using dynlib::bind;

const Loaded& loaded() {
    static const Loaded l = [] {
        Loaded r;
        std::string tried;
        void* lib = dynlib::open_first(dynlib::cuda_library_candidates("GPY_NVRTC_LIB", "libnvrtc"), tried);
        if (!lib) {
            r.why = "libnvrtc not found (tried " + tried + ")";
            return r;
        }
        Api& a = r.api;
        bool all = bind(lib, "nvrtcGetErrorString", a.get_error_string) && bind(lib, "nvrtcVersion", a.version) &&
                   bind(lib, "nvrtcCreateProgram", a.create_program) && bind(lib, "nvrtcDestroyProgram", a.destroy_program) &&
                   bind(lib, "nvrtcCompileProgram", a.compile_program) &&
                   bind(lib, "nvrtcGetProgramLogSize", a.get_program_log_size) &&
                   bind(lib, "nvrtcGetProgramLog", a.get_program_log) && bind(lib, "nvrtcGetCUBINSize", a.get_cubin_size) &&
                   bind(lib, "nvrtcGetCUBIN", a.get_cubin) && bind(lib, "nvrtcAddNameExpression", a.add_name_expression) &&
                   bind(lib, "nvrtcGetLoweredName", a.get_lowered_name);
        if (!all) {
            r.why = "libnvrtc lacks an expected entry point (too old?)";
            return r;
        }
        r.ok = true;  // the library stays loaded for the life of the process
        return r;
    }();
    return l;
}

// Destroys the program on every path out of compile().
struct ProgramGuard {
    const Api& api;
    Program prog = nullptr;
    ~ProgramGuard() { if (prog) api.destroy_program(&prog); }
};

// A program's compile log ("" when empty).
std::string program_log(const Api& api, Program prog) {
    size_t size = 0;
    std::string log;
    if (api.get_program_log_size(prog, &size) == 0 && size > 1) {
        log.resize(size);
        api.get_program_log(prog, log.data());
        log.resize(size - 1);  // the size counts the terminating NUL
    }
    return log;
}

}  // namespace

bool available(std::string* why) {
    const Loaded& l = loaded();
    if (!l.ok && why) *why = l.why;
    return l.ok;
}

std::string version() {
    const Loaded& l = loaded();
    int major = 0, minor = 0;
    if (!l.ok || l.api.version(&major, &minor) != 0) return "";
    return std::to_string(major) + "." + std::to_string(minor);
}

// --minimal (NVRTC 12.4+) leaves out texture, surface and device-runtime
// declarations the kernels never use: ~4 ms less front end per compile.
std::string minimal_option() {
    static const std::string opt = [] {
        const Loaded& l = loaded();
        int major = 0, minor = 0;
        if (!l.ok || l.api.version(&major, &minor) != 0) return std::string();
        return major > 12 || (major == 12 && minor >= 4) ? std::string("--minimal") : std::string();
    }();
    return opt;
}

std::string rejected_kernel_message(const std::string& kernel, const std::string& arch, const CompileError& e,
                                    const std::string& source) {
    if (std::string users = user_kernel_names(source); !users.empty())
        return "ElementwiseKernel " + users + " does not compile (NVRTC, " + arch + "):\n" + (e.log.empty() ? std::string(e.what()) : e.log);
    return "internal error (a bug in gpy; please report it): NVRTC rejected the generated kernel " + kernel + " for " + arch +
           "; run with --dump-kernels DIR to write its source to DIR/" + kernel + ".cu. NVRTC's log:\n" +
           (e.log.empty() ? std::string(e.what()) : e.log);
}

std::string launch_compile_level() {
    const std::string& level = experiments().nvrtc_fast;
    return level.empty() ? std::string() : "--Ofast-compile=" + level;
}

std::string math_option(bool fast_math) {
    std::string opt = fast_math ? "--use_fast_math" : "--fmad=false";
    // Experiments only (base/experiments.h): options NVRTC takes after
    // these, space-separated, such as "--fmad=true".
    if (!experiments().nvrtc_extra.empty()) opt += " " + experiments().nvrtc_extra;
    return opt;
}

std::string compile(const std::string& source, const std::string& name, const std::string& arch, bool fast_math, bool fast_compile) {
    const Loaded& l = loaded();
    if (!l.ok) throw CompileError("NVRTC unavailable: " + l.why, l.why);
    const Api& api = l.api;
    ProgramGuard g{api};
    auto check = [&](Result r, const char* what) {
        if (r != 0) throw CompileError(std::string(what) + " failed: " + api.get_error_string(r), "");
    };
    check(api.create_program(&g.prog, source.c_str(), name.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
    std::string arch_opt = "--gpu-architecture=" + arch;
    // math_option() may hold several space-separated options.
    std::vector<std::string> math;
    std::istringstream words(math_option(fast_math));
    for (std::string w; words >> w;) math.push_back(w);
    std::vector<const char*> opts = {arch_opt.c_str(), "-std=c++17", "-default-device"};
    for (const std::string& w : math) opts.push_back(w.c_str());
    const std::string& minimal = minimal_option();
    if (!minimal.empty()) opts.push_back(minimal.c_str());
    std::string level = fast_compile ? "--Ofast-compile=max" : launch_compile_level();
    if (!level.empty()) opts.push_back(level.c_str());
    Result compiled = api.compile_program(g.prog, int(opts.size()), opts.data());
    const std::string log = program_log(api, g.prog);
    if (compiled != 0) throw CompileError(std::string("NVRTC: ") + api.get_error_string(compiled), log);
    size_t size = 0;
    check(api.get_cubin_size(g.prog, &size), "nvrtcGetCUBINSize");
    std::string cubin(size, '\0');
    check(api.get_cubin(g.prog, cubin.data()), "nvrtcGetCUBIN");
    return cubin;
}

UserModule compile_user(const std::string& source, const std::string& name, const std::string& arch,
                        const std::vector<std::string>& options, const std::vector<std::string>& name_expressions) {
    const Loaded& l = loaded();
    if (!l.ok) throw CompileError("NVRTC unavailable: " + l.why, l.why);
    const Api& api = l.api;
    ProgramGuard g{api};
    auto check = [&](Result r, const char* what) {
        if (r != 0) throw CompileError(std::string(what) + " failed: " + api.get_error_string(r), "");
    };
    check(api.create_program(&g.prog, source.c_str(), name.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
    for (const std::string& e : name_expressions) check(api.add_name_expression(g.prog, e.c_str()), "nvrtcAddNameExpression");
    // The user's options as given (CuPy's), the device's architecture, and
    // C++17 unless they name a standard.
    std::string arch_opt = "--gpu-architecture=" + arch;
    std::vector<const char*> opts = {arch_opt.c_str()};
    bool has_std = false;
    for (const std::string& o : options) {
        opts.push_back(o.c_str());
        has_std |= o.rfind("-std", 0) == 0 || o.rfind("--std", 0) == 0;
    }
    if (!has_std) opts.push_back("-std=c++17");
    Result compiled = api.compile_program(g.prog, int(opts.size()), opts.data());
    const std::string log = program_log(api, g.prog);
    if (compiled != 0) throw CompileError(std::string("NVRTC: ") + api.get_error_string(compiled), log);
    UserModule m;
    size_t size = 0;
    check(api.get_cubin_size(g.prog, &size), "nvrtcGetCUBINSize");
    m.cubin.assign(size, '\0');
    check(api.get_cubin(g.prog, m.cubin.data()), "nvrtcGetCUBIN");
    for (const std::string& e : name_expressions) {
        const char* lowered = nullptr;
        check(api.get_lowered_name(g.prog, e.c_str(), &lowered), "nvrtcGetLoweredName");
        m.lowered.push_back(lowered);
    }
    return m;
}

namespace {
// Joined at exit: the thread must not be inside NVRTC while the library's
// statics are destroyed.
struct WarmUpThread {
    std::thread thread;
    ~WarmUpThread() {
        if (thread.joinable()) thread.join();
    }
};
}  // namespace

void warm_up_in_background(const std::string& arch) {
    if (!available()) return;
    static WarmUpThread warm;  // after NVRTC's load: destroyed, so joined, before its statics
    if (warm.thread.joinable()) return;
    warm.thread = std::thread([arch] {
        try {
            compile("extern \"C\" __global__ void gpy_warm_up() {}", "gpy_warm_up.cu", arch);
        } catch (const CompileError&) {
            // The first real compile reports what is wrong.
        }
    });
}

}  // namespace gpy::nvrtc
