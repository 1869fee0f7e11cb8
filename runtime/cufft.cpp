#include "runtime/cufft.h"

#include <list>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/dynamic_library.h"

namespace gpy::cufft {

namespace {

using Handle = int;  // cufftHandle
using Result = int;
constexpr int kZ2Z = 0x69, kD2Z = 0x6a, kZ2D = 0x6c;  // cufftType
constexpr int kForward = -1, kInverse = 1;

struct Api {
    Result (*plan_many)(Handle*, int, int*, int*, int, int, int*, int, int, int, int);
    Result (*set_stream)(Handle, cuda::CUstream);
    Result (*exec_z2z)(Handle, void*, void*, int);
    Result (*exec_d2z)(Handle, void*, void*);
    Result (*exec_z2d)(Handle, void*, void*);
    Result (*destroy)(Handle);
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
        void* lib = dynlib::open_first(dynlib::cuda_library_candidates("GPY_CUFFT_LIB", "libcufft"), tried);
        if (!lib) {
            r.why = "libcufft not found (tried " + tried + ")";
            return r;
        }
        Api& a = r.api;
        if (!(bind(lib, "cufftPlanMany", a.plan_many) && bind(lib, "cufftSetStream", a.set_stream) &&
              bind(lib, "cufftExecZ2Z", a.exec_z2z) && bind(lib, "cufftExecD2Z", a.exec_d2z) &&
              bind(lib, "cufftExecZ2D", a.exec_z2d) && bind(lib, "cufftDestroy", a.destroy))) {
            r.why = "libcufft lacks an expected entry point";
            return r;
        }
        r.ok = true;  // stays loaded for the life of the process
        return r;
    }();
    return l;
}

const Api& api() {
    const Loaded& l = loaded();
    if (!l.ok) throw std::runtime_error("cuFFT unavailable: " + l.why);
    return l.api;
}

void check(Result r, const char* call) {
    if (r != 0) throw std::runtime_error(std::string("cuFFT error ") + std::to_string(r) + " in " + call);
}

// Plans by (device, type, n, batch), most recent first: building one costs
// far more than running it. A few are kept (each holds device work space).
Handle plan_for(int device, int type, int64_t n, int64_t batch) {
    static std::mutex mu;
    static std::list<std::tuple<int, int, int64_t, int64_t, Handle>> recent;
    constexpr size_t kKeep = 8;
    std::lock_guard<std::mutex> lock(mu);
    for (auto it = recent.begin(); it != recent.end(); ++it)
        if (std::get<0>(*it) == device && std::get<1>(*it) == type && std::get<2>(*it) == n && std::get<3>(*it) == batch) {
            recent.splice(recent.begin(), recent, it);
            return std::get<4>(recent.front());
        }
    if (n > INT32_MAX || batch > INT32_MAX) throw std::runtime_error("cuFFT: transform too large (32-bit sizes)");
    int len = int(n);
    int in_dist = type == kZ2D ? int(n / 2 + 1) : len, out_dist = type == kD2Z ? int(n / 2 + 1) : len;
    Handle h = 0;
    check(api().plan_many(&h, 1, &len, nullptr, 1, in_dist, nullptr, 1, out_dist, type, int(batch)), "cufftPlanMany");
    recent.emplace_front(device, type, n, batch, h);
    if (recent.size() > kKeep) {
        api().destroy(std::get<4>(recent.back()));
        recent.pop_back();
    }
    return h;
}

}  // namespace

bool available(std::string* why) {
    const Loaded& l = loaded();
    if (!l.ok && why) *why = l.why;
    return l.ok;
}

void execute(int device, Kind kind, int64_t n, int64_t batch, void* in, void* out) {
    if (batch == 0) return;
    cuda::device(device).make_current();
    int type = kind == Kind::RealForward ? kD2Z : kind == Kind::RealBackward ? kZ2D : kZ2Z;
    Handle h = plan_for(device, type, n, batch);
    check(api().set_stream(h, current_stream()), "cufftSetStream");
    switch (kind) {
        case Kind::Forward: check(api().exec_z2z(h, in, out, kForward), "cufftExecZ2Z"); break;
        case Kind::Backward: check(api().exec_z2z(h, in, out, kInverse), "cufftExecZ2Z"); break;
        case Kind::RealForward: check(api().exec_d2z(h, in, out), "cufftExecD2Z"); break;
        case Kind::RealBackward: check(api().exec_z2d(h, in, out), "cufftExecZ2D"); break;
    }
    note_device_work(device);
}

}  // namespace gpy::cufft
