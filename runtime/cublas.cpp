#include "runtime/cublas.h"

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/dynamic_library.h"

namespace gpy::cublas {

namespace {

using Handle = struct cublasContext*;
using Status = int;
constexpr int kOpN = 0, kOpT = 1;
constexpr int kDefaultMath = 0, kTf32TensorOpMath = 3;  // cublasMath_t

std::atomic<int> g_tf32{-1};  // -1: not decided yet (GPY_TF32 decides)

struct Api {
    Status (*create)(Handle*);
    Status (*set_stream)(Handle, cuda::CUstream);
    Status (*set_math_mode)(Handle, int);
    Status (*sgemm)(Handle, int, int, int, int, int, const float*, const float*, int, const float*, int, const float*,
                    float*, int);
    Status (*dgemm)(Handle, int, int, int, int, int, const double*, const double*, int, const double*, int,
                    const double*, double*, int);
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
        void* lib = dynlib::open_first(dynlib::cuda_library_candidates("GPY_CUBLAS_LIB", "libcublas"), tried);
        if (!lib) {
            r.why = "libcublas not found (tried " + tried + ")";
            return r;
        }
        Api& a = r.api;
        if (!(bind(lib, "cublasCreate_v2", a.create) && bind(lib, "cublasSetStream_v2", a.set_stream) &&
              bind(lib, "cublasSetMathMode", a.set_math_mode) &&
              bind(lib, "cublasSgemm_v2", a.sgemm) && bind(lib, "cublasDgemm_v2", a.dgemm))) {
            r.why = "libcublas lacks an expected entry point";
            return r;
        }
        r.ok = true;  // stays loaded for the life of the process
        return r;
    }();
    return l;
}

const Api& api() {
    const Loaded& l = loaded();
    if (!l.ok) throw std::runtime_error("cuBLAS unavailable: " + l.why);
    return l.api;
}

void check(Status s, const char* call) {
    if (s != 0) throw std::runtime_error(std::string("cuBLAS error ") + std::to_string(s) + " in " + call);
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
        if (!slot) check(api().create(&slot), "cublasCreate");
        h = slot;
    }
    check(api().set_stream(h, current_stream()), "cublasSetStream");
    check(api().set_math_mode(h, allow_tf32() ? kTf32TensorOpMath : kDefaultMath), "cublasSetMathMode");
    return h;
}

}  // namespace

void set_allow_tf32(bool allow) { g_tf32 = allow ? 1 : 0; }

bool allow_tf32() {
    int v = g_tf32.load();
    if (v < 0) {
        const char* env = std::getenv("GPY_TF32");
        v = env && std::string(env) == "1" ? 1 : 0;
        g_tf32 = v;
    }
    return v == 1;
}

bool available(std::string* why) {
    const Loaded& l = loaded();
    if (!l.ok && why) *why = l.why;
    return l.ok;
}

// Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: the same
// buffers with the operands swapped (a row-major matrix with row stride ld is
// the column-major transpose with leading dimension ld).
template <class T, class Gemm>
void gemm(Gemm fn, const char* call, int device, bool trans_a, bool trans_b, int m, int n, int k, const T* a, int lda,
          const T* b, int ldb, T* c, int ldc) {
    const T one = 1, zero = 0;
    check(fn(handle_for(device), trans_b ? kOpT : kOpN, trans_a ? kOpT : kOpN, n, m, k, &one, b, ldb, a, lda, &zero, c, ldc),
          call);
    note_device_work(device);
}

void sgemm(int device, bool trans_a, bool trans_b, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
           float* c, int ldc) {
    gemm(api().sgemm, "cublasSgemm", device, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
}

void dgemm(int device, bool trans_a, bool trans_b, int m, int n, int k, const double* a, int lda, const double* b, int ldb,
           double* c, int ldc) {
    gemm(api().dgemm, "cublasDgemm", device, trans_a, trans_b, m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace gpy::cublas
