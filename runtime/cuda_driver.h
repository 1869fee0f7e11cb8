// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"): no
// link-time dependency on libcuda or the toolkit's headers, so the same binary
// runs (on the CPU backend) where there is no GPU or no driver.
//
// Layers, bottom up: the typed function table (`api()`), `check()` turning a
// CUresult into a `cuda::Error`, one lazily retained primary context per
// device (`device(i)`), and small RAII wrappers for modules, streams and
// events plus `launch()`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

namespace gpy::cuda {

// The driver's types, declared here instead of including cuda.h.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUoccupancyB2DSize = size_t (*)(int block_size);

// The few enum values used (values from cuda.h, stable across releases).
inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
inline constexpr unsigned CU_EVENT_BLOCKING_SYNC = 0x1;
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;

// The driver entry points gpy uses. Where the driver exports a _v2 symbol the
// member is bound to it (the unsuffixed names are the CUDA 3.x ABI).
struct Api {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int* version);
    CUresult (*cuGetErrorName)(CUresult, const char** name);
    CUresult (*cuGetErrorString)(CUresult, const char** text);
    CUresult (*cuDeviceGet)(CUdevice*, int ordinal);
    CUresult (*cuDeviceGetCount)(int*);
    CUresult (*cuDeviceGetName)(char*, int len, CUdevice);
    CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice);
    CUresult (*cuDeviceTotalMem)(size_t*, CUdevice);                    // _v2
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);                    // _v2
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxGetCurrent)(CUcontext*);
    CUresult (*cuCtxSynchronize)();
    CUresult (*cuModuleLoadData)(CUmodule*, const void* image);
    CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char* name);
    CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char* name);  // _v2
    CUresult (*cuModuleUnload)(CUmodule);
    CUresult (*cuFuncGetAttribute)(int* value, int attribute, CUfunction);
    CUresult (*cuFuncSetAttribute)(CUfunction, int attribute, int value);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared_bytes, CUstream, void** params, void** extra);
    CUresult (*cuOccupancyMaxPotentialBlockSize)(int* min_grid, int* block, CUfunction, CUoccupancyB2DSize,
                                                 size_t dynamic_shared, int block_limit);
    CUresult (*cuMemAlloc)(CUdeviceptr*, size_t);                       // _v2
    CUresult (*cuMemFree)(CUdeviceptr);                                 // _v2
    CUresult (*cuMemAllocManaged)(CUdeviceptr*, size_t, unsigned flags);
    CUresult (*cuMemAllocHost)(void**, size_t);                         // _v2
    CUresult (*cuMemFreeHost)(void*);
    CUresult (*cuMemGetInfo)(size_t* free, size_t* total);              // _v2
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t);                    // _v2
    CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t);                          // _v2
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream);     // _v2
    CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream);           // _v2
    CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);     // _v2
    CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
    CUresult (*cuStreamCreateWithPriority)(CUstream*, unsigned flags, int priority);
    CUresult (*cuStreamDestroy)(CUstream);                              // _v2
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuStreamQuery)(CUstream);
    CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned flags);
    CUresult (*cuEventCreate)(CUevent*, unsigned flags);
    CUresult (*cuEventRecord)(CUevent, CUstream);
    CUresult (*cuEventSynchronize)(CUevent);
    CUresult (*cuEventQuery)(CUevent);
    CUresult (*cuEventElapsedTime)(float* ms, CUevent start, CUevent end);
    CUresult (*cuEventDestroy)(CUevent);                                // _v2
};

// Loads libcuda.so.1 and calls cuInit(0), once per process. nullptr when the
// library is missing, lacks an entry point or cuInit fails; `why` then says
// which, in words for the REPL banner and --verbose.
const Api* try_api(std::string* why = nullptr);
// As try_api, but throws cuda::Error when the driver is unusable.
const Api& api();

// A failed driver call. what() reads
// "CUDA_ERROR_OUT_OF_MEMORY (out of memory) in cuMemAlloc(&p, 1 << 40)".
struct Error : std::runtime_error {
    Error(CUresult code, const std::string& message, std::string call)
        : std::runtime_error(message), code(code), call(std::move(call)) {}
    CUresult code;     // the CUresult; -1 when the driver itself is missing
    std::string call;  // the call as written in the source
};

// Throws cuda::Error for anything but CUDA_SUCCESS; `call` names the call.
// A kernel's fault (sticky: the context is unusable after it) throws
// FatalError (base/python_error.h) instead, naming set_fault_hint's text.
void check(CUresult r, const char* call);
// What a fault's message adds ("the last user kernel launched was 'k'").
void set_fault_hint(std::string hint);
// The usual way to call the driver: GPY_CU(cuMemFree(p)).
#define GPY_CU(expr) ::gpy::cuda::check(::gpy::cuda::api().expr, #expr)

// Number of CUDA devices; 0 (and `why`) when the driver is missing or sees none.
int device_count(std::string* why = nullptr);

// One GPU with its primary context, retained on first use and kept for the
// life of the process (releasing it at exit would race the driver's own
// teardown).
struct Device {
    int index = 0;
    CUdevice handle = 0;
    CUcontext context = nullptr;
    std::string name;             // "NVIDIA H100 80GB HBM3"
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    size_t total_memory = 0;      // bytes

    std::string arch() const { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }
    // Binds this device's context to the calling thread (cheap when it is already bound).
    void make_current() const;
    void synchronize() const;
};

// The device with this index, its context created on first use; throws
// cuda::Error when there is no such device.
Device& device(int index);

// A loaded module (cubin, fatbin or PTX, which the driver JIT-compiles);
// unloaded on destruction. Loaded into the context current on the thread.
class Module {
public:
    explicit Module(CUmodule m) : m_(m) {}
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;
    ~Module();
    CUfunction function(const char* name) const;
    // A __device__ or __constant__ variable's address and size (CUDA_ERROR_NOT_FOUND: cuda::Error).
    std::pair<CUdeviceptr, size_t> global(const char* name) const;
    CUmodule handle() const { return m_; }
private:
    CUmodule m_;
};
// `image` is a cubin or a PTX text (NUL-terminated by std::string).
std::unique_ptr<Module> module_from_cubin(const std::string& image);

struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
};
// `args` holds one pointer per kernel parameter, to that parameter's value.
void launch(CUfunction fn, Dim3 grid, Dim3 block, unsigned shared_bytes, CUstream stream, std::span<void* const> args);

// The block size giving the best occupancy for `fn`, and the smallest grid
// that reaches it.
struct LaunchShape {
    int min_grid = 0, block = 0;
};
LaunchShape occupancy_shape(CUfunction fn, size_t dynamic_shared = 0, int block_limit = 0);

// A stream of the current context; destroyed with its object.
class Stream {
public:
    explicit Stream(bool non_blocking = false, int priority = 0);
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream();
    CUstream handle() const { return s_; }
    void synchronize() const;
    bool done() const;  // cuStreamQuery: all work finished
    void wait(CUevent e) const;
private:
    CUstream s_ = nullptr;
};

// An event of the current context; destroyed with its object.
class Event {
public:
    explicit Event(bool blocking = false, bool disable_timing = false);
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event();
    CUevent handle() const { return e_; }
    void record(CUstream s) const;
    void synchronize() const;
    bool done() const;
private:
    CUevent e_ = nullptr;
};
// Milliseconds between two recorded (timing) events.
float elapsed_ms(const Event& start, const Event& end);

}  // namespace gpy::cuda
