// The CPU JIT's back end: clang compiles a kernel's C++ in-process to object
// code in memory, ORC loads it. The only code that includes LLVM and Clang:
// CMake builds it into the module libgpy_cpujit.so (linking libclang-cpp.so.16
// and libLLVM-16.so), which the front (runtime/cpu_jit.cpp) dlopen()s on the
// first kernel that is not in memory, or, with -DGPY_CPUJIT_DLOPEN=OFF, into
// gpy_runtime. See runtime/cpu_jit.h for the options and threading rules.
#include "runtime/cpu_jit_abi.h"
#include "runtime/llvm/cpu_jit_backend.h"
#include "runtime/llvm/vector_math.h"

#include <chrono>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/BackendUtil.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

namespace gpy::cpujit_backend {
namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Bumped whenever the way a kernel is compiled or loaded changes in a way the
// options string does not show: old disk entries then simply stop matching.
constexpr const char* kJitFormat = "gpy-cpu-jit/2";  // 2: libmvec vector variants (vector_math.h)
constexpr const char* kSourceName = "kernel.cpp";

struct State {
    std::string triple, cpu;
    std::vector<std::string> features;  // "+avx2", "-avx512f", ... sorted by name
    bool have_libmvec = false;
    std::vector<VectorVariant> vector_variants;  // libmvec beyond clang's table
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
    // The large code model with static relocation: every reference to a
    // constant or a function is a 64-bit absolute address. The ORC JIT's
    // memory manager maps each section separately, and on a GPU context
    // (the CUDA driver reserves large ranges of address space) the read-only
    // data could land more than 2 GiB from the code: the small model's
    // 32-bit PC-relative displacements then pointed at unmapped memory
    // (SIGSEGV in 2-5% of runs of a scalar-heavy program, 2026-11-27).
    for (const char* a : {"-x", "c++", "-std=c++17", "-O3", "-vectorize-loops", "-vectorize-slp",
                          "-mrelocation-model", "static", "-mcmodel=large", "-mframe-pointer=none",
                          "-ffp-contract=off", "-fno-rounding-math", "-nostdsysteminc", "-nobuiltininc",
                          "-discard-value-names", "-disable-llvm-verifier", "-ferror-limit", "19"})
        args.push_back(a);
    if (s.have_libmvec) args.push_back("-fveclib=libmvec");
    for (const auto& a : args) {
        if (!s.options.empty()) s.options += ' ';
        s.options += a;
    }
    if (s.have_libmvec) s.vector_variants = available_vector_variants(s.features);
    s.key_prefix = std::string(kJitFormat) + "\n" + clang::getClangFullVersion() + "\n" + s.options + "\n" +
                   describe(s.vector_variants);

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

}  // namespace

std::mutex& jit_mutex() { return state().jit_mutex; }

// A compiler instance for `source`, in memory, its diagnostics into `log_os`.
void set_up(clang::CompilerInstance& ci, const std::string& source, bool optimise, llvm::raw_string_ostream& log_os) {
    auto invocation = std::make_shared<clang::CompilerInvocation>(*state().base_invocation);
    invocation->getCodeGenOpts().DisableLLVMPasses = !optimise;
    ci.setInvocation(invocation);
    ci.createDiagnostics(new clang::TextDiagnosticPrinter(log_os, &ci.getDiagnosticOpts()), /*ShouldOwnClient=*/true);
    ci.setVerboseOutputStream(log_os);  // "1 error generated." goes to the log, not stderr

    // The only file the compiler can see: the kernel, in memory.
    auto fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    fs->setCurrentWorkingDirectory("/");
    fs->addFile(std::string("/") + kSourceName, 0, llvm::MemoryBuffer::getMemBuffer(source, kSourceName, false));
    ci.createFileManager(fs);
}

namespace {

clang::BackendAction backend_action(int emit) {
    return emit == 0 ? clang::Backend_EmitObj : emit == 1 ? clang::Backend_EmitAssembly : clang::Backend_EmitLL;
}

// With libmvec variants beyond clang's table the source is compiled in two
// steps: to unoptimised IR, whose calls then get their vector variants
// (vector_math.h), and that IR through clang's -O3 pipeline and back end.
bool compile(const std::string& source, int emit, std::string& out, std::string& log) {
    std::lock_guard<std::mutex> serial(state().jit_mutex);
    const State& s = state();
    llvm::raw_string_ostream log_os(log);
    clang::CompilerInstance ci;
    bool two_steps = !s.vector_variants.empty();
    set_up(ci, source, !two_steps, log_os);
    llvm::SmallString<0> buffer;
    bool ok;
    if (two_steps) {
        clang::EmitLLVMOnlyAction to_ir;  // owns the module's LLVMContext: outlives `m`
        ok = ci.ExecuteAction(to_ir) && !ci.getDiagnostics().hasErrorOccurred();
        if (ok) {
            std::unique_ptr<llvm::Module> m = to_ir.takeModule();
            add_vector_variants(*m, s.vector_variants);
            clang::CodeGenOptions opts = ci.getCodeGenOpts();
            opts.DisableLLVMPasses = false;
            clang::EmitBackendOutput(ci.getDiagnostics(), ci.getHeaderSearchOpts(), opts, ci.getTargetOpts(),
                                     ci.getLangOpts(), m->getDataLayoutStr(), m.get(), backend_action(emit),
                                     std::make_unique<llvm::raw_svector_ostream>(buffer));
        }
    } else {
        ci.setOutputStream(std::make_unique<llvm::raw_svector_ostream>(buffer));
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
    &analyse,
};

}  // namespace
}  // namespace gpy::cpujit_backend

extern "C" __attribute__((visibility("default"))) const gpy::cpujit_abi::Backend* gpy_cpujit_backend() {
    return &gpy::cpujit_backend::kBackend;
}

