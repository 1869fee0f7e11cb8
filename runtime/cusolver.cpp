#include "runtime/cusolver.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/dynamic_library.h"

namespace gpy::cusolver {

namespace {

using Handle = struct cusolverDnContext*;
using Params = struct cusolverDnParams*;
using Status = int;
constexpr int kR32F = 0, kR64F = 1;    // cudaDataType
constexpr int kEigNoVector = 0, kEigVector = 1;  // cusolverEigMode_t
constexpr int kOpN = 0;  // cublasOperation_t
constexpr int kFillLower = 0, kFillUpper = 1;  // cublasFillMode_t
constexpr int kSideLeft = 0;                    // cublasSideMode_t
constexpr int kOpT = 1;                         // cublasOperation_t

struct Api {
    Status (*create)(Handle*);
    Status (*set_stream)(Handle, cuda::CUstream);
    Status (*sgetrf_size)(Handle, int, int, float*, int, int*);
    Status (*dgetrf_size)(Handle, int, int, double*, int, int*);
    Status (*sgetrf)(Handle, int, int, float*, int, float*, int*, int*);
    Status (*dgetrf)(Handle, int, int, double*, int, double*, int*, int*);
    Status (*sgetrs)(Handle, int, int, int, const float*, int, const int*, float*, int, int*);
    Status (*dgetrs)(Handle, int, int, int, const double*, int, const int*, double*, int, int*);
    Status (*spotrf_size)(Handle, int, int, float*, int, int*);
    Status (*dpotrf_size)(Handle, int, int, double*, int, int*);
    Status (*spotrf)(Handle, int, int, float*, int, float*, int, int*);
    Status (*dpotrf)(Handle, int, int, double*, int, double*, int, int*);
    Status (*ssyevd_size)(Handle, int, int, int, const float*, int, const float*, int*);
    Status (*dsyevd_size)(Handle, int, int, int, const double*, int, const double*, int*);
    Status (*ssyevd)(Handle, int, int, int, float*, int, float*, float*, int, int*);
    Status (*dsyevd)(Handle, int, int, int, double*, int, double*, double*, int, int*);
    Status (*sgeqrf_size)(Handle, int, int, float*, int, int*);
    Status (*dgeqrf_size)(Handle, int, int, double*, int, int*);
    Status (*sgeqrf)(Handle, int, int, float*, int, float*, float*, int, int*);
    Status (*dgeqrf)(Handle, int, int, double*, int, double*, double*, int, int*);
    Status (*sormqr_size)(Handle, int, int, int, int, int, const float*, int, const float*, const float*, int, int*);
    Status (*dormqr_size)(Handle, int, int, int, int, int, const double*, int, const double*, const double*, int, int*);
    Status (*sormqr)(Handle, int, int, int, int, int, const float*, int, const float*, float*, int, float*, int, int*);
    Status (*dormqr)(Handle, int, int, int, int, int, const double*, int, const double*, double*, int, double*, int, int*);
    Status (*sorgqr_size)(Handle, int, int, int, const float*, int, const float*, int*);
    Status (*dorgqr_size)(Handle, int, int, int, const double*, int, const double*, int*);
    Status (*sorgqr)(Handle, int, int, int, float*, int, const float*, float*, int, int*);
    Status (*dorgqr)(Handle, int, int, int, double*, int, const double*, double*, int, int*);
    Status (*sgesvd_size)(Handle, int, int, int*);
    Status (*dgesvd_size)(Handle, int, int, int*);
    Status (*sgesvd)(Handle, signed char, signed char, int, int, float*, int, float*, float*, int, float*, int, float*, int, float*, int*);
    Status (*dgesvd)(Handle, signed char, signed char, int, int, double*, int, double*, double*, int, double*, int, double*, int, double*,
                     int*);
    // The 64-bit API's geev (cuSOLVER 11.7, CUDA 12.6, on): null when older.
    Status (*create_params)(Params*) = nullptr;
    Status (*xgeev_size)(Handle, Params, int, int, int64_t, int, const void*, int64_t, int, const void*, int, const void*, int64_t, int,
                         const void*, int64_t, int, size_t*, size_t*) = nullptr;
    Status (*xgeev)(Handle, Params, int, int, int64_t, int, void*, int64_t, int, void*, int, void*, int64_t, int, void*, int64_t, int,
                    void*, size_t, void*, size_t, int*) = nullptr;
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
              bind(lib, "cusolverDnSgetrs", a.sgetrs) && bind(lib, "cusolverDnDgetrs", a.dgetrs) &&
              bind(lib, "cusolverDnSpotrf_bufferSize", a.spotrf_size) && bind(lib, "cusolverDnDpotrf_bufferSize", a.dpotrf_size) &&
              bind(lib, "cusolverDnSpotrf", a.spotrf) && bind(lib, "cusolverDnDpotrf", a.dpotrf) &&
              bind(lib, "cusolverDnSsyevd_bufferSize", a.ssyevd_size) && bind(lib, "cusolverDnDsyevd_bufferSize", a.dsyevd_size) &&
              bind(lib, "cusolverDnSsyevd", a.ssyevd) && bind(lib, "cusolverDnDsyevd", a.dsyevd) &&
              bind(lib, "cusolverDnSgeqrf_bufferSize", a.sgeqrf_size) && bind(lib, "cusolverDnDgeqrf_bufferSize", a.dgeqrf_size) &&
              bind(lib, "cusolverDnSgeqrf", a.sgeqrf) && bind(lib, "cusolverDnDgeqrf", a.dgeqrf) &&
              bind(lib, "cusolverDnSormqr_bufferSize", a.sormqr_size) && bind(lib, "cusolverDnDormqr_bufferSize", a.dormqr_size) &&
              bind(lib, "cusolverDnSormqr", a.sormqr) && bind(lib, "cusolverDnDormqr", a.dormqr) &&
              bind(lib, "cusolverDnSorgqr_bufferSize", a.sorgqr_size) && bind(lib, "cusolverDnDorgqr_bufferSize", a.dorgqr_size) &&
              bind(lib, "cusolverDnSorgqr", a.sorgqr) && bind(lib, "cusolverDnDorgqr", a.dorgqr) &&
              bind(lib, "cusolverDnSgesvd_bufferSize", a.sgesvd_size) && bind(lib, "cusolverDnDgesvd_bufferSize", a.dgesvd_size) &&
              bind(lib, "cusolverDnSgesvd", a.sgesvd) && bind(lib, "cusolverDnDgesvd", a.dgesvd))) {
            r.why = "libcusolver lacks an expected entry point";
            return r;
        }
        if (!(bind(lib, "cusolverDnCreateParams", a.create_params) && bind(lib, "cusolverDnXgeev_bufferSize", a.xgeev_size) &&
              bind(lib, "cusolverDnXgeev", a.xgeev)))
            a.create_params = nullptr, a.xgeev_size = nullptr, a.xgeev = nullptr;  // np.linalg.eig stays on the host
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

// Device scratch: `work` elements of T, then `ints` ints (pivots, info).
struct Scratch {
    BufferRef buf;
    size_t work_bytes = 0;
    template <class T>
    Scratch(int device, int work, int ints, T*) {
        work_bytes = (size_t(std::max(work, 1)) * sizeof(T) + 15) / 16 * 16;
        buf = BufferRef(allocate_cuda_buffer(device, work_bytes + size_t(ints) * sizeof(int), false));
    }
    template <class T>
    T* work() const { return reinterpret_cast<T*>(buf.device_bytes()); }
    int* ints() const { return reinterpret_cast<int*>(buf.device_bytes() + work_bytes); }
};

// Copies `count` ints from the device and waits for them (and the work before).
void read_ints(const int* from, int* to, int count) {
    cuda::CUstream stream = current_stream();
    cuda::check(cuda::api().cuMemcpyDtoHAsync(to, cuda::CUdeviceptr(from), sizeof(int) * size_t(count), stream), "cuMemcpyDtoHAsync(info)");
    cuda::check(cuda::api().cuStreamSynchronize(stream), "cuStreamSynchronize(stream)");
}

template <class T, class Size, class Getrf, class Getrs>
int gesv_typed(int device, int n, int nrhs, T* a, T* b, Size size, Getrf getrf, Getrs getrs) {
    Handle h = handle_for(device);
    int lwork = 0;
    check(size(h, n, n, a, n, &lwork), "cusolverDn<t>getrf_bufferSize");
    Scratch s(device, lwork, n + 1, a);
    int* ipiv = s.ints();
    int* info = ipiv + n;
    check(getrf(h, n, n, a, n, s.work<T>(), ipiv, info), "cusolverDn<t>getrf");
    int result = 0;
    read_ints(info, &result, 1);
    if (result != 0) return result;
    check(getrs(h, kOpN, n, nrhs, a, n, ipiv, b, n, info), "cusolverDn<t>getrs");
    note_device_work(device);
    return 0;
}

template <class T, class Size, class Getrf>
int getrf_typed(int device, int n, T* a, int* ipiv_host, Size size, Getrf getrf) {
    Handle h = handle_for(device);
    int lwork = 0;
    check(size(h, n, n, a, n, &lwork), "cusolverDn<t>getrf_bufferSize");
    Scratch s(device, lwork, n + 1, a);
    check(getrf(h, n, n, a, n, s.work<T>(), s.ints(), s.ints() + n), "cusolverDn<t>getrf");
    std::vector<int> out(size_t(n) + 1);
    read_ints(s.ints(), out.data(), n + 1);
    std::copy(out.begin(), out.end() - 1, ipiv_host);
    return out.back();
}

template <class T, class Size, class Potrf>
int potrf_typed(int device, bool lower, int n, T* a, Size size, Potrf potrf) {
    Handle h = handle_for(device);
    const int uplo = lower ? kFillLower : kFillUpper;
    int lwork = 0;
    check(size(h, uplo, n, a, n, &lwork), "cusolverDn<t>potrf_bufferSize");
    Scratch s(device, lwork, 1, a);
    check(potrf(h, uplo, n, a, n, s.work<T>(), lwork, s.ints()), "cusolverDn<t>potrf");
    int info = 0;
    read_ints(s.ints(), &info, 1);
    return info;
}

template <class T, class Size, class Syevd>
int syevd_typed(int device, bool vectors, bool lower, int n, T* a, T* w, Size size, Syevd syevd) {
    Handle h = handle_for(device);
    const int uplo = lower ? kFillLower : kFillUpper, jobz = vectors ? 1 : 0;  // CUSOLVER_EIG_MODE_VECTOR: 1
    int lwork = 0;
    check(size(h, jobz, uplo, n, a, n, w, &lwork), "cusolverDn<t>syevd_bufferSize");
    Scratch s(device, lwork, 1, a);
    check(syevd(h, jobz, uplo, n, a, n, w, s.work<T>(), lwork, s.ints()), "cusolverDn<t>syevd");
    int info = 0;
    read_ints(s.ints(), &info, 1);
    return info;
}

// geqrf of A (m x n, tau on the device), then `then`, a second routine over
// the reflectors, with one workspace as large as both calls ask
// (`then_size`: the second's size). Returns LAPACK's info.
template <class T, class GeqrfSize, class Geqrf, class ThenSize, class Then>
int geqrf_then(int device, int m, int n, T* a, GeqrfSize geqrf_size, Geqrf geqrf, ThenSize then_size, Then then) {
    Handle h = handle_for(device);
    const int k = std::min(m, n);
    int lq = 0;
    check(geqrf_size(h, m, n, a, m, &lq), "cusolverDn<t>geqrf_bufferSize");
    BufferRef tau_buf(allocate_cuda_buffer(device, size_t(std::max(k, 1)) * sizeof(T), false));
    T* tau = reinterpret_cast<T*>(tau_buf.device_bytes());
    const int lwork = std::max(lq, then_size(h, k, tau));
    Scratch s(device, lwork, 1, a);
    check(geqrf(h, m, n, a, m, tau, s.work<T>(), lwork, s.ints()), "cusolverDn<t>geqrf");
    then(h, k, tau, s.work<T>(), lwork, s.ints());
    int info = 0;
    read_ints(s.ints(), &info, 1);
    return info;
}

// lstsq's reduction: A's QR factors, and B (m x nrhs) becomes Q^T B.
template <class T, class GeqrfSize, class Geqrf, class OrmqrSize, class Ormqr>
int qr_apply_typed(int device, int m, int n, T* a, int nrhs, T* b, GeqrfSize geqrf_size, Geqrf geqrf, OrmqrSize ormqr_size,
                   Ormqr ormqr) {
    return geqrf_then(
        device, m, n, a, geqrf_size, geqrf,
        [&](Handle h, int k, T* tau) {
            int lo = 0;
            check(ormqr_size(h, kSideLeft, kOpT, m, nrhs, k, a, m, tau, b, m, &lo), "cusolverDn<t>ormqr_bufferSize");
            return lo;
        },
        [&](Handle h, int k, T* tau, T* work, int lwork, int* info) {
            check(ormqr(h, kSideLeft, kOpT, m, nrhs, k, a, m, tau, b, m, work, lwork, info), "cusolverDn<t>ormqr");
        });
}

// qr's: A's QR factors, and (q not null) Q's first qcols columns by orgqr
// over a copy of the reflectors (the columns past them are overwritten).
template <class T, class GeqrfSize, class Geqrf, class OrgqrSize, class Orgqr>
int qr_typed(int device, int m, int n, T* a, int qcols, T* q, GeqrfSize geqrf_size, Geqrf geqrf, OrgqrSize orgqr_size, Orgqr orgqr) {
    return geqrf_then(
        device, m, n, a, geqrf_size, geqrf,
        [&](Handle h, int k, T* tau) {
            int lo = 0;
            if (q) check(orgqr_size(h, m, qcols, k, q, m, tau, &lo), "cusolverDn<t>orgqr_bufferSize");
            return lo;
        },
        [&](Handle h, int k, T* tau, T* work, int lwork, int* info) {
            if (!q) return;
            const size_t bytes = size_t(m) * size_t(std::min(n, qcols)) * sizeof(T);
            cuda::check(cuda::api().cuMemcpyDtoDAsync(cuda::CUdeviceptr(q), cuda::CUdeviceptr(a), bytes, current_stream()),
                        "cuMemcpyDtoDAsync(qr)");
            check(orgqr(h, m, qcols, k, q, m, tau, work, lwork, info), "cusolverDn<t>orgqr");
        });
}

template <class T, class Size, class Gesvd>
int gesvd_typed(int device, char jobu, char jobvt, int m, int n, T* a, T* s, T* u, int ldu, T* vt, int ldvt, Size size, Gesvd gesvd) {
    Handle h = handle_for(device);
    int lwork = 0;
    check(size(h, m, n, &lwork), "cusolverDn<t>gesvd_bufferSize");
    // work, then rwork (min(m, n) - 1 unconverged superdiagonal elements)
    Scratch sc(device, lwork + std::min(m, n), 1, a);
    check(gesvd(h, (signed char)jobu, (signed char)jobvt, m, n, a, m, s, u, ldu, vt, ldvt, sc.work<T>(), lwork, sc.work<T>() + lwork,
                sc.ints()),
          "cusolverDn<t>gesvd");
    int info = 0;
    read_ints(sc.ints(), &info, 1);
    return info;
}

}  // namespace

bool geev_available() { return available() && loaded().api.xgeev; }

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

int getrf(int device, bool dbl, int n, void* a, int* ipiv) {
    const Api& f = api();
    if (dbl) return getrf_typed(device, n, static_cast<double*>(a), ipiv, f.dgetrf_size, f.dgetrf);
    return getrf_typed(device, n, static_cast<float*>(a), ipiv, f.sgetrf_size, f.sgetrf);
}

int potrf(int device, bool dbl, bool lower, int n, void* a) {
    const Api& f = api();
    if (dbl) return potrf_typed(device, lower, n, static_cast<double*>(a), f.dpotrf_size, f.dpotrf);
    return potrf_typed(device, lower, n, static_cast<float*>(a), f.spotrf_size, f.spotrf);
}

int syevd(int device, bool dbl, bool vectors, bool lower, int n, void* a, void* w) {
    const Api& f = api();
    if (dbl) return syevd_typed(device, vectors, lower, n, static_cast<double*>(a), static_cast<double*>(w), f.dsyevd_size, f.dsyevd);
    return syevd_typed(device, vectors, lower, n, static_cast<float*>(a), static_cast<float*>(w), f.ssyevd_size, f.ssyevd);
}

int qr_apply(int device, bool dbl, int m, int n, void* a, int nrhs, void* b) {
    const Api& f = api();
    if (dbl)
        return qr_apply_typed(device, m, n, static_cast<double*>(a), nrhs, static_cast<double*>(b), f.dgeqrf_size, f.dgeqrf,
                              f.dormqr_size, f.dormqr);
    return qr_apply_typed(device, m, n, static_cast<float*>(a), nrhs, static_cast<float*>(b), f.sgeqrf_size, f.sgeqrf, f.sormqr_size,
                          f.sormqr);
}

int qr(int device, bool dbl, int m, int n, void* a, int qcols, void* q) {
    const Api& f = api();
    if (dbl)
        return qr_typed(device, m, n, static_cast<double*>(a), qcols, static_cast<double*>(q), f.dgeqrf_size, f.dgeqrf, f.dorgqr_size,
                        f.dorgqr);
    return qr_typed(device, m, n, static_cast<float*>(a), qcols, static_cast<float*>(q), f.sgeqrf_size, f.sgeqrf, f.sorgqr_size, f.sorgqr);
}

int gesvd(int device, bool dbl, char jobu, char jobvt, int m, int n, void* a, void* s, void* u, int ldu, void* vt, int ldvt) {
    const Api& f = api();
    if (dbl)
        return gesvd_typed(device, jobu, jobvt, m, n, static_cast<double*>(a), static_cast<double*>(s), static_cast<double*>(u), ldu,
                           static_cast<double*>(vt), ldvt, f.dgesvd_size, f.dgesvd);
    return gesvd_typed(device, jobu, jobvt, m, n, static_cast<float*>(a), static_cast<float*>(s), static_cast<float*>(u), ldu,
                       static_cast<float*>(vt), ldvt, f.sgesvd_size, f.sgesvd);
}

int geev(int device, bool dbl, bool vectors, int64_t n, void* a, void* w, void* vr) {
    const Api& f = api();
    Handle h = handle_for(device);
    static Params params = [&] {  // default options: one for the process is enough
        Params p = nullptr;
        check(f.create_params(&p), "cusolverDnCreateParams");
        return p;
    }();
    const int t = dbl ? kR64F : kR32F, job = vectors ? kEigVector : kEigNoVector;
    size_t device_bytes = 0, host_bytes = 0;
    check(f.xgeev_size(h, params, kEigNoVector, job, n, t, a, n, t, w, t, nullptr, 1, t, vr, n, t, &device_bytes, &host_bytes),
          "cusolverDnXgeev_bufferSize");
    BufferRef work(allocate_cuda_buffer(device, device_bytes + 16, false));
    std::vector<unsigned char> host(std::max<size_t>(host_bytes, 1));
    int* info = reinterpret_cast<int*>(work.device_bytes() + (device_bytes + 3) / 4 * 4);
    check(f.xgeev(h, params, kEigNoVector, job, n, t, a, n, t, w, t, nullptr, 1, t, vectors ? vr : nullptr, n, t, work.device_bytes(),
                  device_bytes, host.data(), host_bytes, info),
          "cusolverDnXgeev");
    int result = 0;
    read_ints(info, &result, 1);  // (waits: the host workspace must outlive the call)
    return result;
}

}  // namespace gpy::cusolver
