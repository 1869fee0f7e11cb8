// The CPU kernel JIT: clang (in-process) -> object code in memory -> ORC.
// See cpu_jit.h for the options and the threading rules.
#include "runtime/cpu_jit.h"

#include <algorithm>
#include <atomic>
#include <chrono>
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

#include "runtime/kernel_cache.h"

namespace gpy {

namespace {

// Bumped whenever the way a kernel is compiled or loaded changes in a way the
// options string does not show: old disk entries then simply stop matching.
constexpr const char* kJitFormat = "gpy-cpu-jit/1";
constexpr const char* kSourceName = "kernel.cpp";

std::string llvm_error_text(llvm::Error err) {
    std::string s = llvm::toString(std::move(err));
    return s;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// First "error:" line of a clang log, for JitError::what().
std::string first_error_line(const std::string& log) {
    size_t pos = log.find("error:");
    if (pos == std::string::npos) return log.substr(0, log.find('\n'));
    size_t start = log.rfind('\n', pos);
    start = start == std::string::npos ? 0 : start + 1;
    size_t end = log.find('\n', pos);
    return log.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

enum class Emit { Object, Assembly, IR };

}  // namespace

struct CpuJit::Impl {
    // ---- fixed after init() ----
    std::once_flag init_once;
    std::string init_error;  // non-empty: the JIT could not start
    std::string triple, cpu;
    std::vector<std::string> features;  // "+avx2", "-avx512f", ... sorted
    bool have_libmvec = false;
    std::vector<std::string> cc1_args;
    std::string options_string;  // cc1_args joined, part of the key
    std::string key_prefix;      // format + clang version + options + target
    std::shared_ptr<clang::CompilerInvocation> base_invocation;
    std::unique_ptr<llvm::orc::LLJIT> jit;
    llvm::orc::JITDylib* runtime_jd = nullptr;
    double jit_startup_ms = 0;

    // ---- caches ----
    KernelMemoryCache memory;
    DiskCache disk{"cpu", ".o"};
    std::atomic<uint64_t> dylib_counter{0};
    std::mutex jit_mutex;  // guards JITDylib creation (ORC's session lock covers the rest)

    // ---- stats ----
    std::atomic<uint64_t> compiles{0}, memory_hits{0}, disk_hits{0}, disk_writes{0};
    mutable std::mutex stats_mutex;
    double last_compile_ms = 0, total_compile_ms = 0;

    void init();
    void ensure_init() {
        std::call_once(init_once, [this] { init(); });
        if (!init_error.empty()) throw JitError("CPU JIT unavailable: " + init_error, "");
    }
    std::string compile(const std::string& source, Emit emit, std::string& log);
    void* load_object(const std::string& object, const std::string& symbol, llvm::orc::JITDylib*& jd_out);
    void* resolve(llvm::orc::JITDylib* jd, const std::string& symbol);
    std::string key_for(const std::string& source) const {
        return strong_hash_hex({key_prefix, source});
    }
};

void CpuJit::Impl::init() {
    auto t0 = std::chrono::steady_clock::now();
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();

    triple = llvm::sys::getProcessTriple();
    cpu = llvm::sys::getHostCPUName().str();
    // An unrecognised CPU (common in VMs) reads "generic"; like clang's
    // -march=native, fall back to the baseline name: the features below
    // still describe what the CPU can do.
    if (cpu.empty() || cpu == "generic") {
        llvm::Triple t(triple);
        cpu = t.getArch() == llvm::Triple::x86_64 ? "x86-64" : t.getArch() == llvm::Triple::x86 ? "pentium4" : "generic";
    }
    llvm::StringMap<bool> feature_map;
    if (llvm::sys::getHostCPUFeatures(feature_map)) {
        for (const auto& f : feature_map) features.push_back((f.second ? "+" : "-") + f.getKey().str());
        std::sort(features.begin(), features.end(), [](const std::string& a, const std::string& b) {
            return a.substr(1) < b.substr(1);
        });
    }

    // The math libraries kernels may call into. libmvec is part of glibc;
    // without it, loops stay scalar rather than failing to link.
    std::string err;
    llvm::sys::DynamicLibrary::getPermanentLibrary("libm.so.6", &err);
    err.clear();
    have_libmvec = llvm::sys::DynamicLibrary::getPermanentLibrary("libmvec.so.1", &err).isValid();

    cc1_args = {"-triple", triple, "-target-cpu", cpu};
    for (const auto& f : features) {
        cc1_args.push_back("-target-feature");
        cc1_args.push_back(f);
    }
    for (const char* a : {"-x", "c++", "-std=c++17", "-O3", "-vectorize-loops", "-vectorize-slp", "-mrelocation-model", "pic",
                          "-pic-level", "2", "-mframe-pointer=none", "-ffp-contract=off", "-fno-rounding-math",
                          "-nostdsysteminc", "-nobuiltininc", "-discard-value-names", "-disable-llvm-verifier",
                          "-ferror-limit", "19"})
        cc1_args.push_back(a);
    if (have_libmvec) cc1_args.push_back("-fveclib=libmvec");
    for (const auto& a : cc1_args) {
        if (!options_string.empty()) options_string += ' ';
        options_string += a;
    }
    key_prefix = std::string(kJitFormat) + "\n" + clang::getClangFullVersion() + "\n" + options_string;

    // Parse the options once; each compile copies the parsed invocation.
    {
        std::vector<const char*> argv;
        for (const auto& a : cc1_args) argv.push_back(a.c_str());
        std::string log;
        llvm::raw_string_ostream os(log);
        auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
        clang::TextDiagnosticPrinter printer(os, diag_opts.get());
        clang::DiagnosticsEngine diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), diag_opts, &printer,
                                       /*ShouldOwnClient=*/false);
        base_invocation = std::make_shared<clang::CompilerInvocation>();
        if (!clang::CompilerInvocation::CreateFromArgs(*base_invocation, argv, diags) || diags.hasErrorOccurred()) {
            os.flush();
            init_error = "bad compiler options: " + log;
            return;
        }
        auto& fe = base_invocation->getFrontendOpts();
        fe.Inputs.clear();
        fe.Inputs.emplace_back(kSourceName, clang::InputKind(clang::Language::CXX));
        fe.OutputFile = "-";
    }

    auto jit_or = llvm::orc::LLJITBuilder().create();
    if (!jit_or) {
        init_error = "cannot create the ORC JIT: " + llvm_error_text(jit_or.takeError());
        return;
    }
    jit = std::move(*jit_or);
    auto jd_or = jit->createJITDylib("gpy_runtime");
    if (!jd_or) {
        init_error = llvm_error_text(jd_or.takeError());
        return;
    }
    runtime_jd = &*jd_or;
    char prefix = jit->getDataLayout().getGlobalPrefix();
    auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
    if (!process) {
        init_error = llvm_error_text(process.takeError());
        return;
    }
    runtime_jd->addGenerator(std::move(*process));
    for (const char* lib : {"libm.so.6", "libmvec.so.1"}) {
        auto gen = llvm::orc::DynamicLibrarySearchGenerator::Load(lib, prefix);
        if (gen) runtime_jd->addGenerator(std::move(*gen));
        else llvm::consumeError(gen.takeError());
    }
    jit_startup_ms = ms_since(t0);
}

std::string CpuJit::Impl::compile(const std::string& source, Emit emit, std::string& log) {
    auto invocation = std::make_shared<clang::CompilerInvocation>(*base_invocation);

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

    llvm::SmallString<0> out;
    ci.setOutputStream(std::make_unique<llvm::raw_svector_ostream>(out));

    bool ok;
    switch (emit) {
        case Emit::Object: {
            clang::EmitObjAction action;
            ok = ci.ExecuteAction(action);
            break;
        }
        case Emit::Assembly: {
            clang::EmitAssemblyAction action;
            ok = ci.ExecuteAction(action);
            break;
        }
        default: {
            clang::EmitLLVMAction action;
            ok = ci.ExecuteAction(action);
            break;
        }
    }
    log_os.flush();
    if (!ok || ci.getDiagnostics().hasErrorOccurred()) {
        throw JitError("CPU kernel failed to compile: " + first_error_line(log), log);
    }
    return std::string(out.data(), out.size());
}

void* CpuJit::Impl::resolve(llvm::orc::JITDylib* jd, const std::string& symbol) {
    auto addr = jit->lookup(*jd, symbol);
    if (!addr) {
        std::string text = llvm_error_text(addr.takeError());
        throw JitError("CPU kernel symbol '" + symbol + "' could not be loaded: " + text, text);
    }
    return addr->toPtr<void*>();
}

void* CpuJit::Impl::load_object(const std::string& object, const std::string& symbol,
                                llvm::orc::JITDylib*& jd_out) {
    llvm::orc::JITDylib* jd;
    {
        std::lock_guard<std::mutex> lock(jit_mutex);
        auto jd_or = jit->createJITDylib("gpy_kernel_" + std::to_string(dylib_counter++));
        if (!jd_or) {
            std::string text = llvm_error_text(jd_or.takeError());
            throw JitError("CPU JIT: " + text, text);
        }
        jd = &*jd_or;
        jd->addToLinkOrder(*runtime_jd);
    }
    if (auto err = jit->addObjectFile(*jd, llvm::MemoryBuffer::getMemBufferCopy(object, "gpy_kernel.o"))) {
        std::string text = llvm_error_text(std::move(err));
        throw JitError("CPU JIT: cannot load kernel object: " + text, text);
    }
    jd_out = jd;
    return resolve(jd, symbol);
}

// ------------------------------------------------------------------------

CpuJit::CpuJit() : impl_(std::make_unique<Impl>()) {}
CpuJit::~CpuJit() = default;

CpuJit& CpuJit::instance() {
    // Never destroyed: kernels may run on other threads during exit, and
    // LLVM's own statics may already be gone by then.
    static CpuJit* jit = new CpuJit();
    return *jit;
}

void* CpuJit::lookup(const std::string& source, const std::string& symbol) {
    Impl& m = *impl_;
    if (void* p = m.memory.find_symbol(source, symbol)) {
        m.memory_hits.fetch_add(1, std::memory_order_relaxed);
        return p;
    }
    m.ensure_init();

    auto [entry, builder] = m.memory.acquire(source);
    if (!builder) {
        auto* jd = static_cast<llvm::orc::JITDylib*>(m.memory.wait(entry));
        m.memory_hits.fetch_add(1, std::memory_order_relaxed);
        void* p = m.resolve(jd, symbol);
        m.memory.add_symbol(entry, symbol, p);
        return p;
    }

    try {
        std::string key = m.key_for(source);
        std::string object;
        llvm::orc::JITDylib* jd = nullptr;
        void* p = nullptr;
        bool from_disk = false;
        if (m.disk.load(key, object) == DiskCache::Load::Hit) {
            try {
                p = m.load_object(object, symbol, jd);
                from_disk = true;
                m.disk_hits.fetch_add(1, std::memory_order_relaxed);
            } catch (const JitError&) {
                // A verified entry that does not load (e.g. written by a
                // different build with the same key): recompile below.
                jd = nullptr;
            }
        }
        if (!from_disk) {
            std::string log;
            auto t0 = std::chrono::steady_clock::now();
            m.compiles.fetch_add(1, std::memory_order_relaxed);
            try {
                object = m.compile(source, Emit::Object, log);
            } catch (...) {
                double ms = ms_since(t0);
                std::lock_guard<std::mutex> lock(m.stats_mutex);
                m.last_compile_ms = ms;
                m.total_compile_ms += ms;
                throw;
            }
            double ms = ms_since(t0);
            {
                std::lock_guard<std::mutex> lock(m.stats_mutex);
                m.last_compile_ms = ms;
                m.total_compile_ms += ms;
            }
            p = m.load_object(object, symbol, jd);
            if (m.disk.store(key, object)) m.disk_writes.fetch_add(1, std::memory_order_relaxed);
        }
        m.memory.add_symbol(entry, symbol, p);
        m.memory.publish(entry, jd);
        return p;
    } catch (...) {
        m.memory.fail(entry, std::current_exception());
        throw;
    }
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
    return s;
}

void CpuJit::clear_memory_cache_for_testing() { impl_->memory.clear(); }

std::string CpuJit::target_description() const {
    impl_->ensure_init();
    const Impl& m = *impl_;
    std::string s = "triple=" + m.triple + " cpu=" + m.cpu + " libmvec=" + (m.have_libmvec ? "yes" : "no") +
                    " features=";
    bool first = true;
    for (const auto& f : m.features) {
        if (f[0] != '+') continue;
        if (!first) s += ',';
        s += f.substr(1);
        first = false;
    }
    return s;
}

std::string CpuJit::compile_options() const {
    impl_->ensure_init();
    return impl_->options_string;
}

std::string CpuJit::emit_for_inspection(const std::string& source, bool assembly) {
    impl_->ensure_init();
    std::string log;
    return impl_->compile(source, assembly ? Emit::Assembly : Emit::IR, log);
}

}  // namespace gpy
