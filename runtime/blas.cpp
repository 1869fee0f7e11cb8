#include "runtime/blas.h"

#include <dlfcn.h>

#include <mutex>

#include "runtime/dynamic_library.h"
#include "runtime/thread_pool.h"

namespace gpy::blas {

namespace {

using dynlib::bind;

// Binds every routine: CBLAS from `blas_lib`, LAPACK from `lapack_lib` (the
// same handle for OpenBLAS, which exports both).
bool bind_all(void* blas_lib, void* lapack_lib, Library& L) {
    return bind(blas_lib, "cblas_sgemm", L.sgemm) && bind(blas_lib, "cblas_dgemm", L.dgemm) &&
           bind(blas_lib, "cblas_sgemv", L.sgemv) && bind(blas_lib, "cblas_dgemv", L.dgemv) &&
           bind(blas_lib, "cblas_sdot", L.sdot) && bind(blas_lib, "cblas_ddot", L.ddot) &&
           bind(lapack_lib, "sgesv_", L.sgesv) && bind(lapack_lib, "dgesv_", L.dgesv) &&
           bind(lapack_lib, "sgetrf_", L.sgetrf) && bind(lapack_lib, "dgetrf_", L.dgetrf) &&
           bind(lapack_lib, "cgesv_", L.cgesv) && bind(lapack_lib, "zgesv_", L.zgesv) &&
           bind(lapack_lib, "cgetrf_", L.cgetrf) && bind(lapack_lib, "zgetrf_", L.zgetrf) &&
           bind(lapack_lib, "sgesdd_", L.sgesdd) && bind(lapack_lib, "dgesdd_", L.dgesdd) &&
           bind(lapack_lib, "sgeqrf_", L.sgeqrf) && bind(lapack_lib, "dgeqrf_", L.dgeqrf) &&
           bind(lapack_lib, "sorgqr_", L.sorgqr) && bind(lapack_lib, "dorgqr_", L.dorgqr) &&
           bind(lapack_lib, "ssyevd_", L.ssyevd) && bind(lapack_lib, "dsyevd_", L.dsyevd) &&
           bind(lapack_lib, "sgelsd_", L.sgelsd) && bind(lapack_lib, "dgelsd_", L.dgelsd) &&
           bind(lapack_lib, "spotrf_", L.spotrf) && bind(lapack_lib, "dpotrf_", L.dpotrf) &&
           bind(lapack_lib, "sgeev_", L.sgeev) && bind(lapack_lib, "dgeev_", L.dgeev) &&
           bind(lapack_lib, "cgesdd_", L.cgesdd) && bind(lapack_lib, "zgesdd_", L.zgesdd) &&
           bind(lapack_lib, "cheevd_", L.cheevd) && bind(lapack_lib, "zheevd_", L.zheevd) &&
           bind(lapack_lib, "cgeev_", L.cgeev) && bind(lapack_lib, "zgeev_", L.zgeev) &&
           bind(lapack_lib, "cgeqrf_", L.cgeqrf) && bind(lapack_lib, "zgeqrf_", L.zgeqrf) &&
           bind(lapack_lib, "cungqr_", L.cungqr) && bind(lapack_lib, "zungqr_", L.zungqr) &&
           bind(lapack_lib, "cpotrf_", L.cpotrf) && bind(lapack_lib, "zpotrf_", L.zpotrf) &&
           bind(lapack_lib, "cgelsd_", L.cgelsd) && bind(lapack_lib, "zgelsd_", L.zgelsd);
}

bool load(Library& L) {
    for (const char* name : {"libopenblas.so.0", "libopenblas.so"}) {
        void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (!lib) continue;
        if (bind_all(lib, lib, L)) {
            L.name = name;
            // OpenBLAS's own threads follow gpy's thread count ($GPY_NUM_THREADS).
            using SetThreads = void (*)(int);
            if (auto set = reinterpret_cast<SetThreads>(dlsym(lib, "openblas_set_num_threads"))) set(num_threads());
            return true;
        }
        dlclose(lib);
    }
    void* b = dlopen("libblas.so.3", RTLD_NOW | RTLD_LOCAL);
    void* l = b ? dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL) : nullptr;
    if (b && l && bind_all(b, l, L)) {
        L.name = "libblas.so.3 + liblapack.so.3";
        return true;
    }
    if (l) dlclose(l);
    if (b) dlclose(b);
    return false;
}

}  // namespace

const Library* library(std::string* why) {
    static Library lib;
    static bool ok = false;
    static std::once_flag once;
    std::call_once(once, [] { ok = load(lib); });
    if (!ok && why)
        *why = "linear algebra needs OpenBLAS, which could not be loaded (tried libopenblas.so.0, libopenblas.so, "
               "libblas.so.3 + liblapack.so.3): apt-get install libopenblas0";
    return ok ? &lib : nullptr;
}

}  // namespace gpy::blas
