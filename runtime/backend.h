// An interpreter's backend, and choosing it. The CUDA driver is loaded at
// run time (dlopen), so one binary works on machines with and without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "runtime/array_context.h"
#include "runtime/philox.h"
#include "runtime/raw_kernel.h"
#include "runtime/philox_cuda.h"
#include "runtime/fill_cuda.h"
#include "runtime/scan_cuda.h"
#include "runtime/search_cuda.h"

namespace gpy {

// A failure on the device (a driver or library error), with its message
// ("CUDA error: ..."): the array module raises it as RuntimeError.
struct DeviceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An interpreter's backend (tinygrad's Compiled): its device and what runs
// there. Fused kernels (the runner and readiness check the planner calls
// through PlanContext), the device's own libraries (matrix products, random
// fills) and waiting for its queued work. The array module reaches the
// device only through it; device failures are DeviceErrors. Work goes to
// the interpreter's current device (array_device_index()).
class Backend {
public:
    virtual ~Backend() = default;
    virtual DeviceKind kind() const = 0;
    // Runs one kernel; whether it can run compiled now (codegen/plan.h).
    virtual void run(KernelPlan& plan) = 0;
    virtual bool ready(const KernelPlan& plan, bool ahead) = 0;
    // Waits for the work queued on the device (a no-op on the CPU).
    virtual void synchronize() {}
    // Whether gemm runs on the device's library; false: products use the
    // host BLAS (or kernels).
    virtual bool has_gemm() const { return false; }
    // Row-major C (n x m, leading dimension ldc) = op(A) op(B), op a
    // transpose where ta / tb, on device data.
    virtual void gemm(bool ta, bool tb, int n, int m, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc);
    virtual void gemm(bool ta, bool tb, int n, int m, int k, const double* a, int lda, const double* b, int ldb, double* c, int ldc);
    // Runs `batch` one-dimensional FFTs of length n on device data laid out
    // as cufft::execute says (kind 0 fft, 1 ifft, 2 rfft, 3 irfft;
    // unnormalised, double precision); false: the caller transforms on the host.
    virtual bool fft(int kind, int64_t n, int64_t batch, void* in, void* out) { return false; }
    // Writes n draws of `stream` at `out` (device memory) on the device, bit
    // for bit the host fill's; false: the caller fills on the host.
    virtual bool fill_random(philox::DeviceFill kind, const philox::Stream& stream, uint64_t n, double a, double b, void* out) {
        return false;
    }
    // np.arange's fill of out[0, n) on device data (runtime/fill_cuda.h):
    // `first` holds the first two elements as stored. False: the caller
    // fills on the host.
    virtual bool range_fill(RangeFill kind, const void* first, int64_t n, void* out) { return false; }
    // The running `op` of a C-contiguous (outer, len, inner) block along
    // len, from src into dst (dst may be src) on device data
    // (runtime/scan_cuda.h). False: the caller scans on the host.
    virtual bool scan(DeviceScanOp op, DeviceScanType type, const void* src, void* dst, int64_t outer, int64_t len, int64_t inner) {
        return false;
    }
    // np.histogram's counts for uniform bins on device data
    // (runtime/histogram_cuda.h); false: the caller counts on the host.
    virtual bool histogram(DeviceSearchType type, bool edges_double, const void* data, int64_t n, const void* edges, int64_t bins,
                           double first, double norm, int64_t* counts) {
        return false;
    }
    // np.searchsorted without a sorter on device data (runtime/search_cuda.h);
    // false: the caller searches on the host.
    virtual bool searchsorted(DeviceSearchType type, bool right, const void* a, int64_t n, const void* v, int64_t m, int64_t* out) {
        return false;
    }
    // The elements of ranks[i] (i < count) in NumPy's sort order of device
    // data x[0, n) (runtime/kth_cuda.h), to host memory `out`; zeros come
    // back as +0.0 and NaNs as the quiet NaN, with *negative_zero and *nan
    // telling whether the data holds either. False: the caller sorts.
    virtual bool kth(DeviceSearchType type, const void* x, int64_t n, const int64_t* ranks, int count, void* out, bool* negative_zero,
                     bool* nan) {
        return false;
    }
    // Sorts `rows` C-contiguous rows of `len` elements of device data
    // (runtime/sort_cuda.h): values to `out_values`, indices within rows to
    // `out_index` (either may be null). False: the caller sorts on the host.
    virtual bool sort(DeviceSearchType type, const void* x, int64_t rows, int64_t len, void* out_values, int64_t* out_index) {
        return false;
    }
    // LAPACK's gesv of device data (runtime/cusolver.h): A (n x n,
    // column-major, overwritten) X = B (n x nrhs, column-major, overwritten
    // by X), float64 when `dbl`, else float32; *info as LAPACK's. False: the
    // caller solves on the host (no cuSOLVER).
    virtual bool gesv(bool dbl, int64_t n, int64_t nrhs, void* a, void* b, int* info) { return false; }
    // cuSOLVER's getrf (pivots to the host array ipiv), potrf, syevd and
    // geqrf + ormqr (qr_apply) of
    // device data, as runtime/cusolver.h; false: the caller uses LAPACK.
    virtual bool getrf(bool dbl, int64_t n, void* a, int* ipiv, int* info) { return false; }
    virtual bool potrf(bool dbl, bool lower, int64_t n, void* a, int* info) { return false; }
    virtual bool syevd(bool dbl, bool vectors, bool lower, int64_t n, void* a, void* w, int* info) { return false; }
    virtual bool qr_apply(bool dbl, int64_t m, int64_t n, void* a, int64_t nrhs, void* b, int* info) { return false; }
    // cuSOLVER's geqrf + orgqr (np.linalg.qr) and gesvd (np.linalg.svd, m >= n)
    // of device data (runtime/cusolver.h); false: the caller runs LAPACK.
    virtual bool qr(bool dbl, int64_t m, int64_t n, void* a, int64_t qcols, void* q, int* info) { return false; }
    virtual bool gesvd(bool dbl, char jobu, char jobvt, int64_t m, int64_t n, void* a, void* s, void* u, int64_t ldu, void* vt,
                       int64_t ldvt, int* info) {
        return false;
    }
    // cuSOLVER's Xgeev (np.linalg.eig of a real matrix; runtime/cusolver.h);
    // false: the library lacks it, or the caller runs LAPACK.
    virtual bool geev(bool dbl, bool vectors, int64_t n, void* a, void* w, void* vr, int* info) { return false; }
    // np.unique's values of device data (runtime/sort_cuda.h), into
    // alloc(count); false: the caller finds them on the host.
    virtual bool unique(DeviceSearchType type, const void* x, int64_t n, bool equal_nan, const std::function<void*(int64_t)>& alloc) {
        return false;
    }
    // Stream compaction on device data (runtime/select_cuda.h): the indices
    // (src null) or elements of src where mask is nonzero, into alloc(count);
    // *count = how many. False: the caller selects on the host.
    virtual bool select(const void* mask, size_t mask_elem, bool mask_float, int64_t n, const void* src, size_t elem,
                        const std::function<void*(int64_t)>& alloc, int64_t* count) {
        return false;
    }
    // out[k] = flat[k] / inner % len on device data; false: the host does it.
    virtual bool unravel(const int64_t* flat, int64_t count, int64_t inner, int64_t len, int64_t* out) { return false; }
    // A user's raw CUDA kernel (runtime/raw_kernel.h): compiled for this
    // backend (the CPU's emulation by default), launched, an attribute set
    // by CuPy's name. Compile errors are RawCompileErrors; refused launches
    // RawLaunchErrors (CPU) or DeviceErrors.
    virtual std::shared_ptr<RawFunction> raw_function(const RawSource& source, const std::string& expr);
    virtual void raw_launch(RawFunction& f, RawDims grid, RawDims block, size_t shared_bytes, std::span<void* const> args,
                            std::span<const RawBounds> bounds = {}) {
        cpu_raw_launch(f, grid, block, shared_bytes, args, bounds);
    }
    virtual void raw_set_attribute(RawFunction& f, const std::string& name, int value);
    // The `elem`-byte element at dst + j * stride = src[k], j = idx[k] (+ n
    // when negative), k < count, the last k winning for repeated j (any, when
    // `uniform`), on device data (runtime/gather_cuda.h); writes nothing and
    // sets *first_bad to the first index outside [-n, n), else to count.
    // False: the caller scatters on the host.
    virtual bool scatter(const int64_t* idx, int64_t count, char* dst, int64_t n, int64_t stride, size_t elem, const char* src,
                         bool uniform, int64_t* first_bad) {
        return false;
    }
    // ufunc.at on a 1-d device array (runtime/gather_cuda.h:
    // ufunc_at_on_device's ops and types); *first_bad as scatter's. False:
    // the caller applies it on the host.
    virtual bool ufunc_at(int op, DeviceSearchType type, const int64_t* idx, int64_t count, char* dst, int64_t n, int64_t stride,
                          const void* values, bool uniform, int64_t* first_bad) {
        return false;
    }
    // dst[k] = the `elem`-byte element at src + j * stride, j = idx[k] (+ n
    // when negative), k < count, on device data (runtime/gather_cuda.h); sets
    // *first_bad to the first index outside [-n, n), or count. False: the
    // caller gathers on the host.
    virtual bool gather(const int64_t* idx, int64_t count, const char* src, int64_t n, int64_t stride, size_t elem, char* dst,
                        int64_t* first_bad) {
        return false;
    }
};

// The bound interpreter's backend, or nullptr when none is bound.
inline Backend* array_backend() {
    ArrayContext* c = array_context();
    return c ? c->backend.get() : nullptr;
}

struct BackendChoice {
    std::string name;         // "cpu" or "cuda"
    std::string description;  // for --verbose
    std::string note;         // for the REPL banner, e.g. "no GPU found, running on the CPU"
    std::string error;        // non-empty: the request cannot be met (e.g. --backend cuda without a GPU)
};

// `requested` is auto | cpu | cuda (Config::backend).
BackendChoice choose_backend(const std::string& requested, int device);

struct BackendOptions {
    std::string backend = "auto";  // as choose_backend's `requested`
    int device = 0;
    std::string cache_dir;         // "" = the default kernel cache folder
    size_t max_array_bytes = 0;
    size_t max_memory_bytes = 0;
    bool fast_math = false;
    int debug = 0;                 // Config::debug
    // CUDA arrays in managed memory instead of device memory (also
    // GPY_GPU_MEMORY=managed in the environment).
    bool managed_memory = false;
};

// Gives `ctx` its backend: chooses the device (a request that cannot be
// met runs on the CPU, as before), makes the Backend object, and sets where
// its arrays live, its limits and cache folder, the runner that launches its
// kernels and the readiness check its stand-ins ask. Errors of a launch
// (NVRTC, the driver) escape the runner as C++ exceptions: the array module
// translates them. Returns the choice.
BackendChoice install_backend(ArrayContext& ctx, const BackendOptions& options);

}  // namespace gpy
