#include "runtime/cusolver.h"

#include <map>
#include <mutex>
#include <stdexcept>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/dynamic_library.h"

namespace gpy::cusolver {

namespace {

using Handle = struct cusolverDnContext*;
using Status = int;
constexpr int kOpN = 0;  // cublasOperation_t

struct Api {
    Status (*create)(Handle*);
    Status (*set_stream)(Handle, cuda::CUstream);
    Status (*sgetrf_size)(Handle, int, int, float*, int, int*);
    Status (*dgetrf_size)(Handle, int, int, double*, int, int*);
    Status (*sgetrf)(Handle, int, int, float*, int, float*, int*, int*);
    Status (*dgetrf)(Handle, int, int, double*, int, double*, int*, int*);
    Status (*sgetrs)(Handle, int, int, int, const float*, int, const int*, float*, int, int*);
    Status (*dgetrs)(Handle, int, int, int, const double*, int, const int*, double*, int, int*);
};

struct Loaded {
    Api api{};
    bool ok = false;
    std::string why;
};

using dynlib::bind;

const Loaded& loaded() {
    static const Loaded l = [] {
        Loaded r;
        std::string tried;
        void* lib = dynlib::open_first(dynlib::cuda_library_candidates("GPY_CUSOLVER_LIB", "libcusolver"), tried);
        if (!lib) {
            r.why = "libcusolver not found (tried " + tried + ")";
            return r;
        }
        Api& a = r.api;
        if (!(bind(lib, "cusolverDnCreate", a.create) && bind(lib, "cusolverDnSetStream", a.set_stream) &&
              bind(lib, "cusolverDnSgetrf_bufferSize", a.sgetrf_size) && bind(lib, "cusolverDnDgetrf_bufferSize", a.dgetrf_size) &&
              bind(lib, "cusolverDnSgetrf", a.sgetrf) && bind(lib, "cusolverDnDgetrf", a.dgetrf) &&
              bind(lib, "cusolverDnSgetrs", a.sgetrs) && bind(lib, "cusolverDnDgetrs", a.dgetrs))) {
            r.why = "libcusolver lacks an expected entry point";
            return r;
        }
        r.ok = true;  // stays loaded for the life of the process
        return r;
    }();
    return l;
}

const Api& api() {
    const Loaded& l = loaded();
    if (!l.ok) throw std::runtime_error("cuSOLVER unavailable: " + l.why);
    return l.api;
}

void check(Status s, const char* call) {
    if (s != 0) throw std::runtime_error(std::string("cuSOLVER error ") + std::to_string(s) + " in " + call);
}

// The handle of `device`, bound to the current stream; created in its context.
Handle handle_for(int device) {
    static std::mutex mu;
    static std::map<int, Handle> handles;
    cuda::device(device).make_current();
    Handle h;
    {
        std::lock_guard<std::mutex> lock(mu);
        Handle& slot = handles[device];
        if (!slot) check(api().create(&slot), "cusolverDnCreate");
        h = slot;
    }
    check(api().set_stream(h, current_stream()), "cusolverDnSetStream");
    return h;
}

template <class T, class Size, class Getrf, class Getrs>
int gesv_typed(int device, int n, int nrhs, T* a, T* b, Size size, Getrf getrf, Getrs getrs) {
    Handle h = handle_for(device);
    int lwork = 0;
    check(size(h, n, n, a, n, &lwork), "cusolverDn<t>getrf_bufferSize");
    // Workspace, then the pivots and info after it (ints).
    const size_t work_bytes = (size_t(lwork) * sizeof(T) + 15) / 16 * 16;
    BufferRef scratch(allocate_cuda_buffer(device, work_bytes + size_t(n + 1) * sizeof(int), false));
    T* work = reinterpret_cast<T*>(scratch.device_bytes());
    int* ipiv = reinterpret_cast<int*>(scratch.device_bytes() + work_bytes);
    int* info = ipiv + n;
    check(getrf(h, n, n, a, n, work, ipiv, info), "cusolverDn<t>getrf");
    cuda::CUstream stream = current_stream();
    int result = 0;
    cuda::check(cuda::api().cuMemcpyDtoHAsync(&result, cuda::CUdeviceptr(info), sizeof(int), stream), "cuMemcpyDtoHAsync(info)");
    cuda::check(cuda::api().cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
    if (result != 0) return result;
    check(getrs(h, kOpN, n, nrhs, a, n, ipiv, b, n, info), "cusolverDn<t>getrs");
    note_device_work(device);
    return 0;
}

}  // namespace

bool available(std::string* why) {
    const Loaded& l = loaded();
    if (!l.ok && why) *why = l.why;
    return l.ok;
}

int gesv(int device, bool dbl, int n, int nrhs, void* a, void* b) {
    const Api& f = api();
    if (dbl) return gesv_typed(device, n, nrhs, static_cast<double*>(a), static_cast<double*>(b), f.dgetrf_size, f.dgetrf, f.dgetrs);
    return gesv_typed(device, n, nrhs, static_cast<float*>(a), static_cast<float*>(b), f.sgetrf_size, f.sgetrf, f.sgetrs);
}

}  // namespace gpy::cusolver
