#include "runtime/cuda_driver.h"

#include <mutex>

#include "base/python_error.h"
#include "base/phase_times.h"

#include <dlfcn.h>

#include <deque>
#include <mutex>

namespace gpy::cuda {

namespace {

struct Loaded {
    Api api{};
    bool ok = false;
    std::string why;  // when !ok
};

// Binds `fn` to the first of `names` the library exports.
template <class F> bool bind(void* lib, F& fn, std::initializer_list<const char*> names) {
    for (const char* n : names) {
        if (void* p = dlsym(lib, n)) {
            fn = reinterpret_cast<F>(p);
            return true;
        }
    }
    return false;
}

bool bind_all(void* lib, Api& a, std::string& missing) {
#define GPY_BIND(member, ...)                              \
    if (!bind(lib, a.member, {__VA_ARGS__})) {             \
        missing = #member;                                 \
        return false;                                      \
    }
    GPY_BIND(cuInit, "cuInit")
    GPY_BIND(cuDriverGetVersion, "cuDriverGetVersion")
    GPY_BIND(cuGetErrorName, "cuGetErrorName")
    GPY_BIND(cuGetErrorString, "cuGetErrorString")
    GPY_BIND(cuDeviceGet, "cuDeviceGet")
    GPY_BIND(cuDeviceGetCount, "cuDeviceGetCount")
    GPY_BIND(cuDeviceGetName, "cuDeviceGetName")
    GPY_BIND(cuDeviceGetAttribute, "cuDeviceGetAttribute")
    GPY_BIND(cuDeviceTotalMem, "cuDeviceTotalMem_v2")
    GPY_BIND(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
    GPY_BIND(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")
    GPY_BIND(cuCtxSetCurrent, "cuCtxSetCurrent")
    GPY_BIND(cuCtxGetCurrent, "cuCtxGetCurrent")
    GPY_BIND(cuCtxSynchronize, "cuCtxSynchronize")
    GPY_BIND(cuModuleLoadData, "cuModuleLoadData")
    GPY_BIND(cuModuleGetFunction, "cuModuleGetFunction")
    GPY_BIND(cuModuleGetGlobal, "cuModuleGetGlobal_v2")
    GPY_BIND(cuModuleUnload, "cuModuleUnload")
    GPY_BIND(cuFuncGetAttribute, "cuFuncGetAttribute")
    GPY_BIND(cuFuncSetAttribute, "cuFuncSetAttribute")
    GPY_BIND(cuLaunchKernel, "cuLaunchKernel")
    GPY_BIND(cuOccupancyMaxPotentialBlockSize, "cuOccupancyMaxPotentialBlockSize")
    GPY_BIND(cuMemAlloc, "cuMemAlloc_v2")
    GPY_BIND(cuMemFree, "cuMemFree_v2")
    GPY_BIND(cuMemAllocManaged, "cuMemAllocManaged")
    GPY_BIND(cuMemAllocHost, "cuMemAllocHost_v2")
    GPY_BIND(cuMemFreeHost, "cuMemFreeHost")
    GPY_BIND(cuMemGetInfo, "cuMemGetInfo_v2")
    GPY_BIND(cuMemcpyHtoD, "cuMemcpyHtoD_v2")
    GPY_BIND(cuMemcpyDtoH, "cuMemcpyDtoH_v2")
    GPY_BIND(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")
    GPY_BIND(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2")
    GPY_BIND(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")
    GPY_BIND(cuMemsetD8Async, "cuMemsetD8Async")
    GPY_BIND(cuStreamCreateWithPriority, "cuStreamCreateWithPriority")
    GPY_BIND(cuStreamDestroy, "cuStreamDestroy_v2")
    GPY_BIND(cuStreamSynchronize, "cuStreamSynchronize")
    GPY_BIND(cuStreamQuery, "cuStreamQuery")
    GPY_BIND(cuStreamWaitEvent, "cuStreamWaitEvent")
    GPY_BIND(cuEventCreate, "cuEventCreate")
    GPY_BIND(cuEventRecord, "cuEventRecord")
    GPY_BIND(cuEventSynchronize, "cuEventSynchronize")
    GPY_BIND(cuEventQuery, "cuEventQuery")
    GPY_BIND(cuEventElapsedTime, "cuEventElapsedTime")
    GPY_BIND(cuEventDestroy, "cuEventDestroy_v2")
#undef GPY_BIND
    return true;
}

const Loaded& loaded() {
    static const Loaded l = [] {
        Loaded r;
        // The library stays loaded for the life of the process.
        void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            r.why = "no CUDA driver (libcuda.so.1 not found)";
            return r;
        }
        std::string missing;
        if (!bind_all(lib, r.api, missing)) {
            r.why = "the CUDA driver lacks " + missing + " (too old?)";
            return r;
        }
        if (r.api.cuInit(0) != CUDA_SUCCESS) {
            r.why = "the CUDA driver found no usable GPU";
            return r;
        }
        r.ok = true;
        return r;
    }();
    return l;
}

}  // namespace

const Api* try_api(std::string* why) {
    const Loaded& l = loaded();
    if (!l.ok && why) *why = l.why;
    return l.ok ? &l.api : nullptr;
}

const Api& api() {
    const Loaded& l = loaded();
    if (!l.ok) throw Error(-1, l.why, "cuInit(0)");
    return l.api;
}

namespace {
std::mutex fault_hint_mu;
std::string fault_hint_text;
}  // namespace

void set_fault_hint(std::string hint) {
    std::lock_guard<std::mutex> lock(fault_hint_mu);
    fault_hint_text = std::move(hint);
}

void check(CUresult r, const char* call) {
    if (r == CUDA_SUCCESS) return;
    const Api& a = api();
    const char* name = nullptr;
    const char* text = nullptr;
    if (a.cuGetErrorName(r, &name) != CUDA_SUCCESS) name = nullptr;
    if (a.cuGetErrorString(r, &text) != CUDA_SUCCESS) text = nullptr;
    std::string msg = name ? name : "CUDA error " + std::to_string(r);
    if (text) msg += std::string(" (") + text + ")";
    // A kernel's fault (illegal or misaligned address, assert, illegal
    // instruction, launch failure) is sticky: every later call of the
    // context fails, so the script cannot go on.
    if (r == 700 || r == 702 || r == 710 || (r >= 714 && r <= 719)) {
        std::string hint;
        {
            std::lock_guard<std::mutex> lock(fault_hint_mu);
            hint = fault_hint_text;
        }
        throw FatalError("CUDA error: " + msg + " (reported by " + call + "): a kernel faulted on the GPU" +
                         (hint.empty() ? std::string() : "; " + hint) +
                         ". A fault leaves the GPU's context unusable for the rest of the process, so the script ends here.");
    }
    throw Error(r, msg + " in " + call, call);
}

int device_count(std::string* why) {
    const Api* a = try_api(why);
    if (!a) return 0;
    int n = 0;
    if (a->cuDeviceGetCount(&n) != CUDA_SUCCESS) {
        if (why) *why = "the CUDA driver found no usable GPU";
        return 0;
    }
    if (n == 0 && why) *why = "the CUDA driver reports no GPU";
    return n;
}

void Device::make_current() const {
    CUcontext cur = nullptr;
    GPY_CU(cuCtxGetCurrent(&cur));
    if (cur != context) GPY_CU(cuCtxSetCurrent(context));
}

void Device::synchronize() const {
    make_current();
    GPY_CU(cuCtxSynchronize());
}

Device& device(int index) {
    static std::mutex m;
    // A deque: Device references stay valid while later devices are added.
    static std::deque<Device> devices;
    std::lock_guard<std::mutex> lock(m);
    if (devices.empty()) {
        std::string why;
        int n = device_count(&why);
        if (n == 0) throw Error(-1, why, "cuDeviceGetCount");
        devices.resize(size_t(n));
        for (int i = 0; i < n; ++i) devices[size_t(i)].index = i;
    }
    if (index < 0 || size_t(index) >= devices.size())
        throw Error(-1, "CUDA device " + std::to_string(index) + " is out of range: " + std::to_string(devices.size()) +
                            " device(s) found", "cuDeviceGet");
    Device& d = devices[size_t(index)];
    if (!d.context) {
        GPY_CU(cuDeviceGet(&d.handle, index));
        char name[256] = {};
        GPY_CU(cuDeviceGetName(name, int(sizeof name), d.handle));
        d.name = name;
        GPY_CU(cuDeviceGetAttribute(&d.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d.handle));
        GPY_CU(cuDeviceGetAttribute(&d.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d.handle));
        GPY_CU(cuDeviceGetAttribute(&d.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d.handle));
        GPY_CU(cuDeviceTotalMem(&d.total_memory, d.handle));
        GPY_CU(cuDevicePrimaryCtxRetain(&d.context, d.handle));
    }
    return d;
}

Module::~Module() {
    // A destructor must not throw: an unload failure (a dead context at exit) is ignored.
    if (const Api* a = try_api()) a->cuModuleUnload(m_);
}

CUfunction Module::function(const char* name) const {
    CUfunction f = nullptr;
    GPY_CU(cuModuleGetFunction(&f, m_, name));
    return f;
}

std::pair<CUdeviceptr, size_t> Module::global(const char* name) const {
    CUdeviceptr p = 0;
    size_t bytes = 0;
    GPY_CU(cuModuleGetGlobal(&p, &bytes, m_, name));
    return {p, bytes};
}

std::unique_ptr<Module> module_from_cubin(const std::string& image) {
    CUmodule m = nullptr;
    GPY_CU(cuModuleLoadData(&m, image.c_str()));
    return std::make_unique<Module>(m);
}

void launch(CUfunction fn, Dim3 grid, Dim3 block, unsigned shared_bytes, CUstream stream, std::span<void* const> args) {
    phase::Scope timed(phase::DriverLaunch);
    // cuLaunchKernel only reads the array; its parameter is non-const for C's sake.
    GPY_CU(cuLaunchKernel(fn, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared_bytes, stream,
                          const_cast<void**>(args.data()), nullptr));
}

LaunchShape occupancy_shape(CUfunction fn, size_t dynamic_shared, int block_limit) {
    LaunchShape s;
    GPY_CU(cuOccupancyMaxPotentialBlockSize(&s.min_grid, &s.block, fn, nullptr, dynamic_shared, block_limit));
    return s;
}

Stream::Stream(bool non_blocking, int priority) {
    GPY_CU(cuStreamCreateWithPriority(&s_, non_blocking ? CU_STREAM_NON_BLOCKING : 0u, priority));
}

Stream::~Stream() {
    if (const Api* a = try_api()) a->cuStreamDestroy(s_);
}

void Stream::synchronize() const { GPY_CU(cuStreamSynchronize(s_)); }

bool Stream::done() const {
    CUresult r = api().cuStreamQuery(s_);
    if (r == CUDA_ERROR_NOT_READY) return false;
    check(r, "cuStreamQuery(s_)");
    return true;
}

void Stream::wait(CUevent e) const { GPY_CU(cuStreamWaitEvent(s_, e, 0)); }

Event::Event(bool blocking, bool disable_timing) {
    unsigned flags = (blocking ? CU_EVENT_BLOCKING_SYNC : 0u) | (disable_timing ? CU_EVENT_DISABLE_TIMING : 0u);
    GPY_CU(cuEventCreate(&e_, flags));
}

Event::~Event() {
    if (const Api* a = try_api()) a->cuEventDestroy(e_);
}

void Event::record(CUstream s) const { GPY_CU(cuEventRecord(e_, s)); }

void Event::synchronize() const { GPY_CU(cuEventSynchronize(e_)); }

bool Event::done() const {
    CUresult r = api().cuEventQuery(e_);
    if (r == CUDA_ERROR_NOT_READY) return false;
    check(r, "cuEventQuery(e_)");
    return true;
}

float elapsed_ms(const Event& start, const Event& end) {
    float ms = 0;
    GPY_CU(cuEventElapsedTime(&ms, start.handle(), end.handle()));
    return ms;
}

}  // namespace gpy::cuda
