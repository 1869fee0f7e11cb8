// Raw CUDA kernels on a GPU: NVRTC compiles the user's module with the
// user's options (runtime/nvrtc.h compile_user), the cubin and the lowered
// names of the name expressions are cached on disk next to generated
// kernels' cubins, and each device loads a module once.
#include <map>
#include <mutex>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc.h"
#include "runtime/raw_headers.h"
#include "runtime/raw_kernel.h"

namespace gpy {

namespace {

struct CudaRawFunction : RawFunction {
    cuda::CUfunction fn = nullptr;
    int device = 0;
    std::string name;
};

struct LoadedModule {
    std::unique_ptr<cuda::Module> module;
    std::vector<std::string> lowered;
};

// CuPy's attribute names, by CUfunction_attribute value.
const char* const kAttributeNames[] = {"max_threads_per_block", "shared_size_bytes", "const_size_bytes",
                                       "local_size_bytes",      "num_regs",          "ptx_version",
                                       "binary_version",        "cache_mode_ca",     "max_dynamic_shared_size_bytes",
                                       "preferred_shared_memory_carveout"};

// The cached entry: the lowered names, one per line, a NUL, then the cubin.
std::string encode(const nvrtc::UserModule& m) {
    std::string s;
    for (const std::string& n : m.lowered) s += n + '\n';
    return s + '\0' + m.cubin;
}
nvrtc::UserModule decode(const std::string& s) {
    nvrtc::UserModule m;
    size_t nul = s.find('\0');
    for (size_t p = 0; p < nul;) {
        size_t e = s.find('\n', p);
        m.lowered.push_back(s.substr(p, e - p));
        p = e + 1;
    }
    m.cubin = s.substr(nul + 1);
    return m;
}

nvrtc::UserModule compiled_module(const RawSource& s, const std::string& arch, const std::string& cache_dir) {
    std::string joined_options, joined_names;
    for (const std::string& o : s.options) joined_options += o + '\0';
    for (const std::string& n : s.name_expressions) joined_names += n + '\0';
    const std::string code = expand_bundled_headers(s.code, s.file);  // cupy/complex.cuh
    const std::string key = strong_hash_hex({"raw-module-v1", code, nvrtc::version(), arch, joined_options, joined_names});
    DiskCache& disk = shared_disk_cache(cache_dir, "cuda", ".cubin");
    std::string payload;
    if (disk.load(key, payload) == DiskCache::Load::Hit && payload.find('\0') != std::string::npos) return decode(payload);
    nvrtc::UserModule m;
    try {
        m = nvrtc::compile_user(code, s.file, arch, s.options, s.name_expressions);
    } catch (const nvrtc::CompileError& e) {
        throw RawCompileError(e.what(), e.log);
    }
    disk.store(key, encode(m));
    return m;
}

std::mutex g_modules_mu;

// The loaded module of `s` on `device` (compiled or from the disk cache on
// first use), live for the process as library kernels are. Under g_modules_mu.
LoadedModule& loaded_module(int device, const RawSource& s, const std::string& cache_dir) {
    static std::map<std::string, LoadedModule> modules;  // by device and module
    cuda::Device& d = cuda::device(device);
    d.make_current();
    std::string id = std::to_string(device) + '\0' + s.code + '\0';
    for (const std::string& o : s.options) id += o + '\1';
    for (const std::string& n : s.name_expressions) id += n + '\2';
    LoadedModule& m = modules[id];
    if (!m.module) {
        nvrtc::UserModule built = compiled_module(s, d.arch(), cache_dir);
        m.module = cuda::module_from_cubin(built.cubin);
        m.lowered = std::move(built.lowered);
    }
    return m;
}

}  // namespace

constexpr cuda::CUresult kNotFound = 500;  // CUDA_ERROR_NOT_FOUND

std::pair<uintptr_t, size_t> cuda_raw_global(int device, const RawSource& s, const std::string& name, const std::string& cache_dir) {
    std::lock_guard<std::mutex> lock(g_modules_mu);
    try {
        auto [ptr, bytes] = loaded_module(device, s, cache_dir).module->global(name.c_str());
        return {uintptr_t(ptr), bytes};
    } catch (const cuda::Error& e) {
        if (e.code != kNotFound) throw;
        throw RawLaunchError("CUDA_ERROR_NOT_FOUND: named symbol not found (no __device__ or __constant__ variable '" + name +
                             "' in the module)");
    }
}

std::shared_ptr<RawFunction> cuda_raw_function(int device, const RawSource& s, const std::string& expr, const std::string& cache_dir) {
    std::lock_guard<std::mutex> lock(g_modules_mu);
    LoadedModule& m = loaded_module(device, s, cache_dir);
    std::string symbol = expr;
    for (size_t i = 0; i < s.name_expressions.size() && i < m.lowered.size(); ++i)
        if (s.name_expressions[i] == expr) symbol = m.lowered[i];
    auto f = std::make_shared<CudaRawFunction>();
    try {
        f->fn = m.module->function(symbol.c_str());
    } catch (const cuda::Error& e) {
        if (e.code != kNotFound) throw;
        // (The CPU's words: runtime/raw_cpu.cpp.)
        throw RawLaunchError("CUDA_ERROR_NOT_FOUND: named symbol not found (no extern \"C\" __global__ kernel '" + expr +
                             "' in the module; C++ kernels and templates need name_expressions)");
    }
    f->device = device;
    f->name = expr;
    for (int a = 0; a < int(std::size(kAttributeNames)); ++a) {
        int v = 0;
        if (cuda::api().cuFuncGetAttribute(&v, a, f->fn) == cuda::CUDA_SUCCESS) f->attributes[kAttributeNames[a]] = v;
    }
    return f;
}

void cuda_raw_launch(RawFunction& fn, RawDims grid, RawDims block, size_t shared_bytes, std::span<void* const> args) {
    auto& f = static_cast<CudaRawFunction&>(fn);
    if (shared_bytes > UINT32_MAX) throw RawLaunchError("too much dynamic shared memory: " + std::to_string(shared_bytes) + " bytes");
    cuda::device(f.device).make_current();
    // The fault message's hint: set when this thread launches another kernel than last time.
    static thread_local const CudaRawFunction* last = nullptr;
    static thread_local const void* last_site = nullptr;
    if (last != &f || last_site != f.site_key) {
        cuda::set_fault_hint("the last user kernel launched was '" + f.name + "'" + (f.site.empty() ? "" : ", at " + f.site) +
                             " (CUDA reports a fault at a later call)");
        last = &f;
        last_site = f.site_key;
    }
    cuda::launch(f.fn, cuda::Dim3{grid.x, grid.y, grid.z}, cuda::Dim3{block.x, block.y, block.z}, unsigned(shared_bytes),
                 current_stream(), args);
    note_device_work(f.device);
}

void cuda_raw_set_attribute(RawFunction& fn, const std::string& name, int value) {
    auto& f = static_cast<CudaRawFunction&>(fn);
    for (int a = 0; a < int(std::size(kAttributeNames)); ++a)
        if (name == kAttributeNames[a]) {
            GPY_CU(cuFuncSetAttribute(f.fn, a, value));
            int v = 0;
            if (cuda::api().cuFuncGetAttribute(&v, a, f.fn) == cuda::CUDA_SUCCESS) f.attributes[name] = v;
            return;
        }
    throw std::invalid_argument("no function attribute " + name);
}

}  // namespace gpy
