// The CPU kernel JIT: clang (in-process) -> object code in memory -> ORC.
// See cpu_jit.h for the options and the threading rules.
//
// This file builds two ways:
//  - the front (CpuJit: caches, stats, the disk format), compiled into
//    gpy_core. It needs no LLVM header;
//  - the back end (clang + ORC), compiled with GPY_CPUJIT_BACKEND_ONLY into
//    the module libgpy_cpujit.so, which links libclang-cpp.so.16 and
//    libLLVM-16.so. The front dlopen()s it on the first kernel that is not in
//    memory: loading those two libraries costs ~18 ms (mostly their static
//    constructors), which scripts without arrays should not pay.
// With GPY_CPUJIT_LINKED both halves are compiled into this one object and
// gpy_core links the LLVM libraries directly (no dlopen).
#include "runtime/cpu_jit.h"

#include <chrono>
#include <string>

namespace gpy::cpujit_abi {

// The table the back end hands to the front. Both halves come from the same
// build (same compiler, same standard library), so std::string crosses.
constexpr int kVersion = 1;
struct Backend {
    int version;
    size_t string_size;  // sizeof(std::string), a cheap same-build check
    // Starts LLVM and the ORC JIT; "" or an error.
    std::string (*init)();
    // Valid after init():
    std::string (*key_prefix)();  // format + compiler version + options + target
    std::string (*target_description)();
    std::string (*options)();
    double (*startup_ms)();
    // emit: 0 object, 1 assembly, 2 LLVM IR. True: `out` holds it; false:
    // the compile failed and `log` holds clang's diagnostics.
    bool (*compile)(const std::string& source, int emit, std::string& out, std::string& log);
    // Adds an object file to a fresh JITDylib: a handle, or nullptr + error.
    void* (*load)(const std::string& object, std::string& error);
    // The address of `symbol` in a loaded object: the address, or nullptr + error.
    void* (*resolve)(void* handle, const std::string& symbol, std::string& error);
};

}  // namespace gpy::cpujit_abi

namespace {
[[maybe_unused]] double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

// =========================================================== back end ====
#if defined(GPY_CPUJIT_BACKEND_ONLY) || defined(GPY_CPUJIT_LINKED)

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

namespace gpy::cpujit_backend {
namespace {

// Bumped whenever the way a kernel is compiled or loaded changes in a way the
// options string does not show: old disk entries then simply stop matching.
constexpr const char* kJitFormat = "gpy-cpu-jit/1";
constexpr const char* kSourceName = "kernel.cpp";

struct State {
    std::string triple, cpu;
    std::vector<std::string> features;  // "+avx2", "-avx512f", ... sorted by name
    bool have_libmvec = false;
    std::string options;     // the cc1 arguments, space-separated
    std::string key_prefix;  // format + clang version + options + target
    std::shared_ptr<clang::CompilerInvocation> base_invocation;
    std::unique_ptr<llvm::orc::LLJIT> jit;
    llvm::orc::JITDylib* runtime_jd = nullptr;
    std::mutex jd_mutex;  // serialises JITDylib creation (and its name counter)
    // Serialises compile, load and resolve: two threads compiling at once
    // corrupted the heap now and then (unit test "two threads compile
    // different kernels concurrently", about 1 run in 8 under MALLOC_CHECK_=3).
    std::mutex jit_mutex;
    uint64_t jd_counter = 0;
    double startup_ms = 0;
};

State& state() {
    static State* s = new State();  // never destroyed (see CpuJit::instance)
    return *s;
}

std::string error_text(llvm::Error err) { return llvm::toString(std::move(err)); }

std::string init_impl() {
    State& s = state();
    auto t0 = std::chrono::steady_clock::now();
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();

    s.triple = llvm::sys::getProcessTriple();
    s.cpu = llvm::sys::getHostCPUName().str();
    // An unrecognised CPU (common in VMs) reads "generic"; like clang's
    // -march=native, fall back to the baseline name: the features below
    // still say what the CPU can do.
    if (s.cpu.empty() || s.cpu == "generic") {
        llvm::Triple t(s.triple);
        s.cpu = t.getArch() == llvm::Triple::x86_64 ? "x86-64" : "generic";
    }
    llvm::StringMap<bool> feature_map;
    if (llvm::sys::getHostCPUFeatures(feature_map)) {
        for (const auto& f : feature_map) s.features.push_back((f.second ? "+" : "-") + f.getKey().str());
        std::sort(s.features.begin(), s.features.end(),
                  [](const std::string& a, const std::string& b) { return a.substr(1) < b.substr(1); });
    }

    // The math libraries kernels call into. libmvec is part of glibc; without
    // it loops stay scalar instead of failing to link.
    std::string err;
    llvm::sys::DynamicLibrary::getPermanentLibrary("libm.so.6", &err);
    s.have_libmvec = llvm::sys::DynamicLibrary::getPermanentLibrary("libmvec.so.1", &err).isValid();

    std::vector<std::string> args = {"-triple", s.triple, "-target-cpu", s.cpu};
    for (const auto& f : s.features) {
        args.push_back("-target-feature");
        args.push_back(f);
    }
    // cc1 defaults already give: no math errno, no exceptions, IEEE NaN/Inf
    // handling (no fast-math flag is passed).
    for (const char* a : {"-x", "c++", "-std=c++17", "-O3", "-vectorize-loops", "-vectorize-slp",
                          "-mrelocation-model", "pic", "-pic-level", "2", "-mframe-pointer=none",
                          "-ffp-contract=off", "-fno-rounding-math", "-nostdsysteminc", "-nobuiltininc",
                          "-discard-value-names", "-disable-llvm-verifier", "-ferror-limit", "19"})
        args.push_back(a);
    if (s.have_libmvec) args.push_back("-fveclib=libmvec");
    for (const auto& a : args) {
        if (!s.options.empty()) s.options += ' ';
        s.options += a;
    }
    s.key_prefix = std::string(kJitFormat) + "\n" + clang::getClangFullVersion() + "\n" + s.options;

    // Parse the options once; each compile copies the parsed invocation.
    {
        std::vector<const char*> argv;
        for (const auto& a : args) argv.push_back(a.c_str());
        std::string log;
        llvm::raw_string_ostream os(log);
        auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
        clang::TextDiagnosticPrinter printer(os, diag_opts.get());
        clang::DiagnosticsEngine diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), diag_opts, &printer,
                                       /*ShouldOwnClient=*/false);
        s.base_invocation = std::make_shared<clang::CompilerInvocation>();
        if (!clang::CompilerInvocation::CreateFromArgs(*s.base_invocation, argv, diags) ||
            diags.hasErrorOccurred()) {
            os.flush();
            return "bad compiler options: " + log;
        }
        auto& fe = s.base_invocation->getFrontendOpts();
        fe.Inputs.clear();
        fe.Inputs.emplace_back(kSourceName, clang::InputKind(clang::Language::CXX));
        fe.OutputFile = "-";
    }

    auto jit = llvm::orc::LLJITBuilder().create();
    if (!jit) return "cannot create the ORC JIT: " + error_text(jit.takeError());
    s.jit = std::move(*jit);
    auto jd = s.jit->createJITDylib("gpy_runtime");
    if (!jd) return error_text(jd.takeError());
    s.runtime_jd = &*jd;
    char prefix = s.jit->getDataLayout().getGlobalPrefix();
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
    if (!process) return error_text(process.takeError());
    s.runtime_jd->addGenerator(std::move(*process));
    for (const char* lib : {"libm.so.6", "libmvec.so.1"}) {
        auto gen = llvm::orc::DynamicLibrarySearchGenerator::Load(lib, prefix);
        if (gen) s.runtime_jd->addGenerator(std::move(*gen));
        else llvm::consumeError(gen.takeError());
    }
    s.startup_ms = ms_since(t0);
    return "";
}

std::string init() {
    static std::once_flag once;
    static std::string result;
    std::call_once(once, [] { result = init_impl(); });
    return result;
}

bool compile(const std::string& source, int emit, std::string& out, std::string& log) {
    std::lock_guard<std::mutex> serial(state().jit_mutex);
    State& s = state();
    auto invocation = std::make_shared<clang::CompilerInvocation>(*s.base_invocation);

    llvm::raw_string_ostream log_os(log);
    clang::CompilerInstance ci;
    ci.setInvocation(invocation);
    ci.createDiagnostics(new clang::TextDiagnosticPrinter(log_os, &ci.getDiagnosticOpts()), /*ShouldOwnClient=*/true);
    ci.setVerboseOutputStream(log_os);  // "1 error generated." goes to the log, not stderr

    // The only file the compiler can see: the kernel, in memory.
    auto fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    fs->setCurrentWorkingDirectory("/");
    fs->addFile(std::string("/") + kSourceName, 0, llvm::MemoryBuffer::getMemBuffer(source, kSourceName, false));
    ci.createFileManager(fs);

    llvm::SmallString<0> buffer;
    ci.setOutputStream(std::make_unique<llvm::raw_svector_ostream>(buffer));

    bool ok;
    if (emit == 0) {
        clang::EmitObjAction action;
        ok = ci.ExecuteAction(action);
    } else if (emit == 1) {
        clang::EmitAssemblyAction action;
        ok = ci.ExecuteAction(action);
    } else {
        clang::EmitLLVMAction action;
        ok = ci.ExecuteAction(action);
    }
    log_os.flush();
    ok = ok && !ci.getDiagnostics().hasErrorOccurred();
    if (ok) out.assign(buffer.data(), buffer.size());
    return ok;
}

void* load(const std::string& object, std::string& error) {
    State& s = state();
    std::lock_guard<std::mutex> serial(s.jit_mutex);
    llvm::orc::JITDylib* jd;
    {
        // Each kernel gets its own JITDylib: kernels may reuse symbol names.
        std::lock_guard<std::mutex> lock(s.jd_mutex);
        auto created = s.jit->createJITDylib("gpy_kernel_" + std::to_string(s.jd_counter++));
        if (!created) {
            error = error_text(created.takeError());
            return nullptr;
        }
        jd = &*created;
        jd->addToLinkOrder(*s.runtime_jd);
    }
    if (auto err = s.jit->addObjectFile(*jd, llvm::MemoryBuffer::getMemBufferCopy(object, "gpy_kernel.o"))) {
        error = error_text(std::move(err));
        return nullptr;
    }
    return jd;
}

void* resolve(void* handle, const std::string& symbol, std::string& error) {
    std::lock_guard<std::mutex> serial(state().jit_mutex);
    auto addr = state().jit->lookup(*static_cast<llvm::orc::JITDylib*>(handle), symbol);
    if (!addr) {
        error = error_text(addr.takeError());
        return nullptr;
    }
    return addr->toPtr<void*>();
}

std::string target_description() {
    const State& s = state();
    std::string d = "triple=" + s.triple + " cpu=" + s.cpu + " libmvec=" + (s.have_libmvec ? "yes" : "no") +
                    " features=";
    bool first = true;
    for (const auto& f : s.features) {
        if (f[0] != '+') continue;
        if (!first) d += ',';
        d += f.substr(1);
        first = false;
    }
    return d;
}

const cpujit_abi::Backend kBackend = {
    cpujit_abi::kVersion,
    sizeof(std::string),
    &init,
    [] { return state().key_prefix; },
    &target_description,
    [] { return state().options; },
    [] { return state().startup_ms; },
    &compile,
    &load,
    &resolve,
};

}  // namespace
}  // namespace gpy::cpujit_backend

extern "C" __attribute__((visibility("default"))) const gpy::cpujit_abi::Backend* gpy_cpujit_backend() {
    return &gpy::cpujit_backend::kBackend;
}

#endif  // back end

// ============================================================== front ====
#if !defined(GPY_CPUJIT_BACKEND_ONLY)

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

#include "runtime/kernel_cache.h"

#if !defined(GPY_CPUJIT_LINKED)
#include <sys/stat.h>
#endif

namespace gpy {

namespace {

// First "error:" line of a clang log, for JitError::what().
std::string first_error_line(const std::string& log) {
    size_t pos = log.find("error:");
    if (pos == std::string::npos) return log.substr(0, log.find('\n'));
    size_t start = log.rfind('\n', pos);
    start = start == std::string::npos ? 0 : start + 1;
    size_t end = log.find('\n', pos);
    return log.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

#if defined(GPY_CPUJIT_LINKED)
const cpujit_abi::Backend* find_backend(std::string&) { return ::gpy_cpujit_backend(); }
#else
std::string dir_of(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

// Finds and loads libgpy_cpujit.so: $GPY_CPUJIT_LIB, next to the executable,
// <exe>/../lib/gpy/, the build tree it was built in, then the loader's path.
const cpujit_abi::Backend* find_backend(std::string& error) {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("GPY_CPUJIT_LIB"); env && *env) candidates.push_back(env);
    char exe[4096];
    ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        std::string dir = dir_of(exe);
        candidates.push_back(dir + "/libgpy_cpujit.so");
        candidates.push_back(dir + "/../lib/gpy/libgpy_cpujit.so");
    }
#ifdef GPY_CPUJIT_BUILD_PATH
    candidates.push_back(GPY_CPUJIT_BUILD_PATH);
#endif
    std::string tried;
    for (const auto& path : candidates) {
        struct stat st;
        if (::stat(path.c_str(), &st) != 0) continue;
        void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char* e = ::dlerror();
            tried += "\n  " + path + ": " + (e ? e : "dlopen failed");
            continue;
        }
        auto entry = reinterpret_cast<const cpujit_abi::Backend* (*)()>(::dlsym(lib, "gpy_cpujit_backend"));
        if (!entry) {
            tried += "\n  " + path + ": no gpy_cpujit_backend symbol";
            continue;
        }
        return entry();
    }
    if (void* lib = ::dlopen("libgpy_cpujit.so", RTLD_NOW | RTLD_LOCAL)) {
        if (auto entry = reinterpret_cast<const cpujit_abi::Backend* (*)()>(::dlsym(lib, "gpy_cpujit_backend")))
            return entry();
    }
    error = "cannot load libgpy_cpujit.so (set GPY_CPUJIT_LIB to its path)";
    if (!tried.empty()) error += ":" + tried;
    return nullptr;
}
#endif

}  // namespace

struct CpuJit::Impl {
    std::once_flag init_once;
    std::string init_error;  // non-empty: the JIT could not start
    const cpujit_abi::Backend* be = nullptr;
    std::string key_prefix;
    double startup_ms = 0;

    KernelMemoryCache memory;
    DiskCache disk{"cpu", ".o"};

    std::atomic<uint64_t> compiles{0}, memory_hits{0}, disk_hits{0}, disk_writes{0};
    mutable std::mutex stats_mutex;
    double last_compile_ms = 0, total_compile_ms = 0;

    void init() {
        auto t0 = std::chrono::steady_clock::now();
        std::string err;
        be = find_backend(err);
        if (!be) {
            init_error = err;
            return;
        }
        if (be->version != cpujit_abi::kVersion || be->string_size != sizeof(std::string)) {
            init_error = "libgpy_cpujit.so is from a different build";
            be = nullptr;
            return;
        }
        init_error = be->init();
        if (!init_error.empty()) return;
        key_prefix = be->key_prefix();
        startup_ms = ms_since(t0);
    }
    void ensure_init() {
        std::call_once(init_once, [this] { init(); });
        if (!init_error.empty()) throw JitError("CPU JIT unavailable: " + init_error, init_error);
    }
    std::string key_for(const std::string& source) const { return strong_hash_hex({key_prefix, source}); }

    void record_compile(double ms) {
        std::lock_guard<std::mutex> lock(stats_mutex);
        last_compile_ms = ms;
        total_compile_ms += ms;
    }
    std::string compile(const std::string& source, int emit) {
        std::string out, log;
        if (!be->compile(source, emit, out, log))
            throw JitError("CPU kernel failed to compile: " + first_error_line(log), log);
        return out;
    }
    void* load(const std::string& object) {
        std::string error;
        void* handle = be->load(object, error);
        if (!handle) throw JitError("CPU kernel object could not be loaded: " + error, error);
        return handle;
    }
    void* resolve(void* handle, const std::string& symbol) {
        std::string error;
        void* p = be->resolve(handle, symbol, error);
        if (!p) throw JitError("CPU kernel symbol '" + symbol + "' could not be resolved: " + error, error);
        return p;
    }
};

CpuJit::CpuJit() : impl_(std::make_unique<Impl>()) {}
CpuJit::~CpuJit() = default;

CpuJit& CpuJit::instance() {
    // Never destroyed: kernels may still run on other threads during exit,
    // and LLVM's own statics may be gone by then.
    static CpuJit* jit = new CpuJit();
    return *jit;
}

void* CpuJit::lookup(const std::string& source, const std::string& symbol, const std::string& cache_dir) {
    Impl& m = *impl_;
    if (void* p = m.memory.find_symbol(source, symbol)) {
        m.memory_hits.fetch_add(1, std::memory_order_relaxed);
        return p;
    }
    m.ensure_init();

    auto [entry, builder] = m.memory.acquire(source);
    if (!builder) {
        // In memory (or being built by another thread): a new symbol of it.
        void* handle = m.memory.wait(entry);
        m.memory_hits.fetch_add(1, std::memory_order_relaxed);
        void* p = m.resolve(handle, symbol);
        m.memory.add_symbol(entry, symbol, p);
        return p;
    }

    void* handle = nullptr;
    try {
        std::string key = m.key_for(source);
        std::string object;
        DiskCache& disk = cache_dir.empty() ? m.disk : shared_disk_cache(cache_dir, "cpu", ".o");
        if (disk.load(key, object) == DiskCache::Load::Hit) {
            try {
                handle = m.load(object);
                m.disk_hits.fetch_add(1, std::memory_order_relaxed);
            } catch (const JitError&) {
                handle = nullptr;  // verified but unloadable: compile from source instead
            }
        }
        if (!handle) {
            auto t0 = std::chrono::steady_clock::now();
            m.compiles.fetch_add(1, std::memory_order_relaxed);
            try {
                object = m.compile(source, 0);
            } catch (...) {
                m.record_compile(ms_since(t0));
                throw;
            }
            m.record_compile(ms_since(t0));
            handle = m.load(object);
            if (disk.store(key, object)) m.disk_writes.fetch_add(1, std::memory_order_relaxed);
        }
        m.memory.publish(entry, handle);
    } catch (...) {
        m.memory.fail(entry, std::current_exception());
        throw;
    }
    // ORC links the object on its first symbol lookup: an unknown symbol or an
    // unresolved external reference throws here (and the kernel stays cached).
    void* p = m.resolve(handle, symbol);
    m.memory.add_symbol(entry, symbol, p);
    return p;
}

void CpuJit::set_cache_dir(const std::string& dir) { impl_->disk.set_dir(dir); }

std::string CpuJit::cache_entry_dir() const { return impl_->disk.entry_dir(); }

std::string CpuJit::cache_path_for(const std::string& source) const {
    impl_->ensure_init();
    return impl_->disk.path_for(impl_->key_for(source));
}

CpuJit::Stats CpuJit::stats() const {
    const Impl& m = *impl_;
    Stats s;
    s.compiles = m.compiles.load();
    s.memory_hits = m.memory_hits.load();
    s.disk_hits = m.disk_hits.load();
    s.disk_writes = m.disk_writes.load();
    std::lock_guard<std::mutex> lock(m.stats_mutex);
    s.last_compile_ms = m.last_compile_ms;
    s.total_compile_ms = m.total_compile_ms;
    s.startup_ms = m.startup_ms;
    return s;
}

void CpuJit::clear_memory_cache_for_testing() { impl_->memory.clear(); }

std::string CpuJit::target_description() const {
    impl_->ensure_init();
    return impl_->be->target_description();
}

std::string CpuJit::compile_options() const {
    impl_->ensure_init();
    return impl_->be->options();
}

std::string CpuJit::emit_for_inspection(const std::string& source, bool assembly) {
    impl_->ensure_init();
    return impl_->compile(source, assembly ? 1 : 2);
}

}  // namespace gpy

#endif  // front
