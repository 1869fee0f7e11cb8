// The CPU kernel JIT's front: the caches (memory, then disk), stats and the
// disk format, in gpy_runtime; it needs no LLVM header. The compiler itself,
// clang + ORC, is the back end (runtime/llvm/cpu_jit_backend.cpp, built into
// libgpy_cpujit.so), loaded on the first kernel that is not in memory:
// loading its two libraries costs ~18 ms (mostly their static constructors),
// which scripts without arrays should not pay. With GPY_CPUJIT_LINKED
// (-DGPY_CPUJIT_DLOPEN=OFF) the back end is linked in instead.
// See cpu_jit.h for the options and the threading rules.
#include "runtime/cpu_jit.h"
#include "base/module_path.h"

#include "codegen/kernel.h"

#include <chrono>
#include <string>

#include "runtime/cpu_jit_abi.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

#include "runtime/kernel_cache.h"

#if !defined(GPY_CPUJIT_LINKED)
#include <sys/stat.h>
#endif

namespace gpy {

namespace {

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

#if defined(GPY_CPUJIT_LINKED)
const cpujit_abi::Backend* find_backend(std::string&) { return ::gpy_cpujit_backend(); }
#else
// Finds and loads libgpy_cpujit.so (base/module_path.h).
const cpujit_abi::Backend* find_backend(std::string& error) {
    const std::vector<std::string> candidates = module_search_paths("libgpy_cpujit.so", "GPY_CPUJIT_LIB");
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
    DiskCache analysis_disk{"cpu", ".analysis"};  // CpuJit::analyse's results
    std::mutex analyses_mutex;
    std::unordered_map<std::string, std::string> analyses;  // "begin:end\nsource" -> result

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
        if (!be->compile(source, emit, out, log)) {
            if (std::string users = user_kernel_names(source); !users.empty())
                throw JitError("ElementwiseKernel " + users + " does not compile: " + first_error_line(log), log);
            throw JitError("CPU kernel failed to compile: " + first_error_line(log), log);
        }
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

std::string CpuJit::analyse(const std::string& source, size_t user_begin, size_t user_end, const std::string& cache_dir) {
    Impl& m = *impl_;
    const std::string id = std::to_string(user_begin) + ":" + std::to_string(user_end) + "\n" + source;
    {
        std::lock_guard<std::mutex> lock(m.analyses_mutex);
        if (auto it = m.analyses.find(id); it != m.analyses.end()) return it->second;
    }
    m.ensure_init();
    const std::string key = strong_hash_hex({m.key_prefix, "analysis", id});
    DiskCache& disk = cache_dir.empty() ? m.analysis_disk : shared_disk_cache(cache_dir, "cpu", ".analysis");
    std::string out;
    if (disk.load(key, out) != DiskCache::Load::Hit) {
        std::string log;
        if (!m.be->analyse(source, user_begin, user_end, out, log)) throw JitError("CUDA source does not compile: " + first_error_line(log), log);
        disk.store(key, out);
    }
    std::lock_guard<std::mutex> lock(m.analyses_mutex);
    m.analyses.emplace(id, out);
    return out;
}

void CpuJit::set_cache_dir(const std::string& dir) {
    impl_->disk.set_dir(dir);
    impl_->analysis_disk.set_dir(dir);
}

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

