// Devices and memory pools in the language, with CuPy's names: device_count(),
// Device(i) (use(), synchronize(), compute_capability, `with Device(i):`),
// get_device_properties(i), get_default_memory_pool() and
// get_default_pinned_memory_pool(). Also reachable as np.cuda.* (cupy.cuda).
//
// On the CPU backend device_count() is 0 and Device(i) raises; the default
// memory pool reports the host allocator's counters, so scripts that print
// them run on both backends.
#include <cstdio>
#include <string>

#include "codegen/plan.h"
#include "runtime/array_context.h"
#include "runtime/array_memory.h"
#include "runtime/cublas.h"
#include "runtime/cuda_driver.h"
#include "runtime/cuda_memory.h"
#include "runtime/device_pool.h"
#include "runtime/nvrtc.h"
#include "numpy/array.h"
#include "numpy/cuda_errors.h"
#include "numpy/array_interface.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/shape_funcs.h"

namespace gpy {

namespace {

bool cuda_backend_active() { return array_device_kind() == DeviceKind::CUDA; }

// The driver's view of device `id`, or a RuntimeError in CuPy's spirit.
cuda::Device& checked_device(int64_t id) {
    std::string why;
    int n = cuda::device_count(&why);
    if (n == 0) raise(types::RuntimeError, "CUDA device " + std::to_string(id) + " is not available: " + why);
    if (id < 0 || id >= n)
        raise(types::ValueError, "Invalid device ID: " + std::to_string(id) + " (" + std::to_string(n) + " CUDA device(s) found)");
    return cuda_call([&]() -> cuda::Device& { return cuda::device(int(id)); });
}

// ---- Device ----

TypeObject* g_device_type = nullptr;

struct DeviceObj : Object {
    int id;
    int previous = -1;  // the device a `with` block restores
    explicit DeviceObj(int i) : Object(g_device_type), id(i) {}
};

DeviceObj* self_device(CallArgs& a, const char* method) {
    if (a.npos < 1 || !a.pos[0].is_obj() || a.pos[0].o->type != g_device_type)
        raise(types::TypeError, std::string("Device.") + method + "() needs a Device");
    return static_cast<DeviceObj*>(a.pos[0].o);
}

// Makes device `id` the one new arrays live on. Pending arrays are computed
// first: they were planned for the previous device.
void switch_to(int id) {
    if (!cuda_backend_active())
        raise(types::RuntimeError, "cannot use a CUDA device: arrays run on the CPU backend (--backend cpu, or no usable GPU)");
    if (id == array_device_index()) return;
    MaterializeReason why("a device switch");
    materialize_all_pending();
    checked_device(id).make_current();
    set_array_device(DeviceKind::CUDA, id);
}

Value device_construct(Interp&, CallArgs& a) {
    if (a.npos > 1) raise(types::TypeError, "Device() takes at most 1 positional argument (" + std::to_string(a.npos) + " given)");
    const Value* v = a.npos > 0 ? &a.pos[0] : nullptr;
    if (a.nkw()) {
        for (auto& [k, val] : *a.kw) {
            if (k != "device") raise(types::TypeError, "Device() got an unexpected keyword argument '" + k + "'");
            v = &val;
        }
    }
    if (v && !v->is_none() && v->kind != VK::Int) raise(types::TypeError, "Device(): the device ID must be an int");
    int64_t id = v && !v->is_none() ? v->i : (cuda_backend_active() ? array_device_index() : 0);
    checked_device(id);
    return Value::object(new DeviceObj(int(id)));
}

Value device_use(Interp&, CallArgs& a) {
    switch_to(self_device(a, "use")->id);
    return Value::none();
}

Value device_synchronize(Interp&, CallArgs& a) {
    DeviceObj* d = self_device(a, "synchronize");
    materialize_all_pending();
    wait_for_device_work();
    checked_device(d->id).synchronize();
    return Value::none();
}

Value device_enter(Interp&, CallArgs& a) {
    DeviceObj* d = self_device(a, "__enter__");
    d->previous = cuda_backend_active() ? array_device_index() : -1;
    switch_to(d->id);
    return a.pos[0];
}

Value device_exit(Interp&, CallArgs& a) {
    DeviceObj* d = self_device(a, "__exit__");
    if (d->previous >= 0) switch_to(d->previous);
    d->previous = -1;
    return Value::boolean(false);
}

// (free, total) bytes of device `id` (cuMemGetInfo, asked in its context,
// the current device's made current again after).
Value mem_info_tuple(int64_t id) {
    cuda::Device& d = checked_device(id);
    size_t free_bytes = 0, total_bytes = 0;
    cuda_call([&] {
        d.make_current();
        GPY_CU(cuMemGetInfo(&free_bytes, &total_bytes));
        if (cuda_backend_active()) cuda::device(array_device_index()).make_current();
    });
    return make_tuple({Value::integer(int64_t(free_bytes)), Value::integer(int64_t(total_bytes))});
}

Value device_getattr(Interp&, const Value& v, const std::string& name) {
    auto* d = v.as<DeviceObj>();
    if (name == "id") return Value::integer(d->id);
    if (name == "mem_info") return mem_info_tuple(d->id);
    if (name == "compute_capability") {
        cuda::Device& dev = checked_device(d->id);
        return make_str(std::to_string(dev.cc_major) + std::to_string(dev.cc_minor));
    }
    return Value();
}

// ---- memory pools ----

TypeObject* g_pool_type = nullptr;

struct PoolObj : Object {
    int device;   // -1: the host allocator (CPU backend)
    bool pinned;  // the pinned host pool
    bool managed; // the device's managed-memory pool (an interpreter allocating managed memory)
    PoolObj(int d, bool p, bool m = false) : Object(g_pool_type), device(d), pinned(p), managed(m) {}
    cuda::BlockPool* pool() const {
        if (pinned) return &cuda::pinned_pool();
        return device >= 0 ? &cuda::device_pool(device, managed) : nullptr;
    }
};

PoolObj* self_pool(CallArgs& a, const char* method) {
    if (a.npos < 1 || !a.pos[0].is_obj() || a.pos[0].o->type != g_pool_type)
        raise(types::TypeError, std::string("MemoryPool.") + method + "() needs a MemoryPool");
    return static_cast<PoolObj*>(a.pos[0].o);
}

Value pool_used_bytes(Interp&, CallArgs& a) {
    PoolObj* p = self_pool(a, "used_bytes");
    return Value::integer(int64_t(p->pool() ? p->pool()->used_bytes() : host_bytes_in_use()));
}
Value pool_total_bytes(Interp&, CallArgs& a) {
    PoolObj* p = self_pool(a, "total_bytes");
    // CuPy's sense: bytes handed out plus bytes freed and cached (the pool's
    // 2 MiB segments hold more; runtime.memGetInfo shows the device's view).
    return Value::integer(int64_t(p->pool() ? p->pool()->used_bytes() + p->pool()->cached_bytes() : host_bytes_in_use()));
}
Value pool_free_bytes(Interp&, CallArgs& a) {
    PoolObj* p = self_pool(a, "free_bytes");
    return Value::integer(int64_t(p->pool() ? p->pool()->cached_bytes() : 0));
}
Value pool_n_free_blocks(Interp&, CallArgs& a) {
    PoolObj* p = self_pool(a, "n_free_blocks");
    return Value::integer(int64_t(p->pool() ? p->pool()->n_cached_blocks() : 0));
}
// free_all_blocks(stream=None): CuPy frees one stream's cached blocks when
// given one; gpy frees every fully free segment either way.
Value pool_free_all_blocks(Interp&, CallArgs& a) {
    PoolObj* p = self_pool(a, "free_all_blocks");
    if (a.npos > 2) raise(types::TypeError, "free_all_blocks() takes at most 1 argument");
    if (p->pool()) {
        wait_for_device_work();
        p->pool()->free_all_blocks();
    }
    return Value::none();
}
Value pool_get_limit(Interp&, CallArgs& a) {
    PoolObj* p = self_pool(a, "get_limit");
    return Value::integer(int64_t(p->pool() ? p->pool()->get_limit() : 0));
}
// set_limit(size=None, fraction=None): CuPy's; 0 or None removes the limit.
Value pool_set_limit(Interp& in, CallArgs& a) {
    PoolObj* p = self_pool(a, "set_limit");
    if (!p->pool() || p->pinned)
        raise(types::NotImplementedError, "set_limit() needs a CUDA device pool (the CPU backend's allocator has no limit)");
    const Value* size = nullptr;
    const Value* fraction = nullptr;
    if (a.npos > 1) size = &a.pos[1];
    if (a.npos > 2) fraction = &a.pos[2];
    for (auto& [k, v] : keywords(a)) {
        if (k == "size") size = &v;
        else if (k == "fraction") fraction = &v;
        else raise(types::TypeError, "set_limit() got an unexpected keyword argument '" + k + "'");
    }
    if (size && !size->is_none() && fraction && !fraction->is_none())
        raise(types::ValueError, "size and fraction cannot be specified at one time");
    size_t limit = 0;
    if (fraction && !fraction->is_none()) {
        double f = to_double(*fraction, "set_limit");
        if (!(f >= 0 && f <= 1)) raise(types::ValueError, "memory limit fraction out of range: " + repr(in, *fraction));
        limit = size_t(f * double(cuda::device(p->device).total_memory));
    } else if (size && !size->is_none()) {
        if (size->kind != VK::Int || size->i < 0) raise(types::ValueError, "memory limit size must be a non-negative int");
        limit = size_t(size->i);
    }
    p->pool()->set_limit(limit);
    return Value::none();
}

// ---- allocators (CuPy's set_allocator(MemoryPool(malloc_managed).malloc)) ----

// An allocator as a value: the device's pool of device memory or of managed
// memory. gpy allocates arrays, not raw pointers: an allocator selects where
// an interpreter's new arrays live (set_allocator); calling it is a
// TypeError (docs/differences.md).
TypeObject* g_allocator_type = nullptr;

struct AllocatorObj : Object {
    bool managed;
    explicit AllocatorObj(bool m) : Object(g_allocator_type), managed(m) {}
};

// MemoryPool(allocator=None): the current device's pool of device memory, or
// of managed memory for MemoryPool(malloc_managed). One pool per device and
// kind: two MemoryPool() objects share their counters (docs/differences.md).
Value pool_construct(Interp&, CallArgs& a) {
    if (a.npos > 1) raise(types::TypeError, "MemoryPool() takes at most 1 positional argument (" + std::to_string(a.npos) + " given)");
    const Value* v = a.npos > 0 ? &a.pos[0] : nullptr;
    if (a.nkw())
        for (auto& [k, val] : *a.kw) {
            if (k != "allocator") raise(types::TypeError, "MemoryPool() got an unexpected keyword argument '" + k + "'");
            v = &val;
        }
    bool managed = false;
    if (v && !v->is_none()) {
        if (!v->is_obj() || v->o->type != g_allocator_type)
            raise(types::TypeError, "MemoryPool(allocator): gpy takes None or np.cuda.malloc_managed");
        managed = static_cast<AllocatorObj*>(v->o)->managed;
    }
    return Value::object(new PoolObj(cuda_backend_active() ? array_device_index() : -1, false, managed));
}

Value pool_getattr(Interp&, const Value& v, const std::string& name) {
    if (name == "malloc") return Value::object(new AllocatorObj(v.as<PoolObj>()->managed));
    return Value();
}

// set_allocator(allocator=None): where this interpreter's new GPU arrays live
// (None: the default pool of device memory). Arrays made before keep theirs.
Value set_allocator_fn(Interp&, CallArgs& a) {
    const Value* v = arg(a, 0, "allocator");
    bool managed = false;
    if (v && !v->is_none()) {
        if (!v->is_obj() || v->o->type != g_allocator_type)
            raise(types::TypeError, "set_allocator(): gpy takes None, np.cuda.malloc_managed or a MemoryPool's malloc");
        managed = static_cast<AllocatorObj*>(v->o)->managed;
    }
    if (ArrayContext* c = array_context()) c->managed_memory = managed;
    return Value::none();
}

Value get_allocator_fn(Interp&, CallArgs&) {
    ArrayContext* c = array_context();
    return Value::object(new AllocatorObj(c && c->managed_memory));
}

// MemoryAsyncPool(pool_handles='current'): CuPy's pool over cudaMallocAsync.
// gpy's own pool is stream-ordered already: the device pool itself.
Value async_pool_construct(Interp&, CallArgs& a) {
    if (a.npos > 1) raise(types::TypeError, "MemoryAsyncPool() takes at most 1 positional argument");
    return Value::object(new PoolObj(cuda_backend_active() ? array_device_index() : -1, false, false));
}

Value pinned_pool_construct(Interp&, CallArgs& a) {
    if (a.npos > 1) raise(types::TypeError, "PinnedMemoryPool() takes at most 1 positional argument");
    if (!cuda_backend_active()) raise(types::RuntimeError, "the pinned memory pool needs the CUDA backend");
    return Value::object(new PoolObj(-1, true));
}

Value get_default_memory_pool(Interp&, CallArgs&) {
    ArrayContext* c = array_context();
    return Value::object(new PoolObj(cuda_backend_active() ? array_device_index() : -1, false, c && c->managed_memory));
}

Value get_default_pinned_memory_pool(Interp&, CallArgs&) {
    if (!cuda_backend_active()) raise(types::RuntimeError, "the pinned memory pool needs the CUDA backend");
    return Value::object(new PoolObj(-1, true));
}

// ---- functions ----

Value set_allow_tf32_fn(Interp&, CallArgs& a) {
    const Value* v = arg(a, 0, "allow");
    if (!v) raise(types::TypeError, "set_allow_tf32() missing required argument 'allow' (pos 1)");
    cublas::set_allow_tf32(truthy(*v));
    return Value::none();
}

Value get_allow_tf32_fn(Interp&, CallArgs&) { return Value::boolean(cublas::allow_tf32()); }

Value device_count_fn(Interp&, CallArgs& a) {
    expect_args(a, "device_count", 0, 0);
    return Value::integer(cuda::device_count());
}

// cupy.cuda.is_available(): whether a CUDA device can be used.
Value is_available_fn(Interp&, CallArgs& a) {
    expect_args(a, "is_available", 0, 0);
    return Value::boolean(cuda::device_count() > 0);
}

Value get_device_properties(Interp& in, CallArgs& a) {
    expect_args(a, "get_device_properties", 0, 1);
    const Value* v = arg(a, 0, "device");
    int64_t id = v && !v->is_none() ? index_arg(*v) : 0;  // an int, a NumPy integer; else TypeError
    cuda::Device& d = checked_device(id);
    auto* dict = new DictObj();
    Value r = Value::object(dict);
    dict->table.set(in, make_str("name"), make_str(d.name));
    dict->table.set(in, make_str("totalGlobalMem"), Value::integer(int64_t(d.total_memory)));
    dict->table.set(in, make_str("multiProcessorCount"), Value::integer(d.sm_count));
    dict->table.set(in, make_str("major"), Value::integer(d.cc_major));
    dict->table.set(in, make_str("minor"), Value::integer(d.cc_minor));
    return r;
}

// np.cuda.runtime: CuPy's cupy.cuda.runtime names scripts use most.
Value runtime_mem_get_info(Interp&, CallArgs& a) {
    expect_args(a, "memGetInfo", 0, 0);
    return mem_info_tuple(cuda_backend_active() ? array_device_index() : 0);
}
Value runtime_get_device(Interp&, CallArgs& a) {
    expect_args(a, "getDevice", 0, 0);
    if (!cuda_backend_active()) checked_device(0);  // raises without a device
    return Value::integer(cuda_backend_active() ? array_device_index() : 0);
}
Value runtime_device_synchronize(Interp&, CallArgs& a) {
    expect_args(a, "deviceSynchronize", 0, 0);
    materialize_all_pending();
    wait_for_device_work();
    if (cuda_backend_active()) checked_device(array_device_index()).synchronize();
    return Value::none();
}

// The CUDA version as CUDA's API numbers it (12080 for 12.8): the runtime's
// is the toolkit's NVRTC that gpy loads (gpy has no CUDA runtime library).
Value runtime_get_version(Interp&, CallArgs& a) {
    expect_args(a, "runtimeGetVersion", 0, 0);
    const std::string v = nvrtc::version();
    int major = 0, minor = 0;
    if (v.empty() || std::sscanf(v.c_str(), "%d.%d", &major, &minor) < 1)
        raise(types::RuntimeError, "runtimeGetVersion: the CUDA toolkit (NVRTC) is not available");
    return Value::integer(major * 1000 + minor * 10);
}
// 0 where no driver is installed (as cudaDriverGetVersion).
Value driver_get_version(Interp&, CallArgs& a) {
    expect_args(a, "driverGetVersion", 0, 0);
    int version = 0;
    if (const cuda::Api* api = cuda::try_api(); api && api->cuDriverGetVersion && api->cuDriverGetVersion(&version) != 0) version = 0;
    return Value::integer(version);
}

const FunctionSpec kRuntimeFunctions[] = {
    {"runtimeGetVersion", runtime_get_version, "runtimeGetVersion()", "The CUDA toolkit's version (major * 1000 + minor * 10)."},
    {"driverGetVersion", driver_get_version, "driverGetVersion()", "The CUDA driver's version (0 without a driver)."},
    {"getDeviceCount", device_count_fn, "getDeviceCount()", "Number of CUDA devices."},
    {"getDevice", runtime_get_device, "getDevice()", "The current device's id."},
    {"memGetInfo", runtime_mem_get_info, "memGetInfo()", "(free, total) bytes of the current device."},
    {"deviceSynchronize", runtime_device_synchronize, "deviceSynchronize()", "Waits until the current device has finished its work."},
    {"getDeviceProperties", get_device_properties, "getDeviceProperties(device)", "name, totalGlobalMem, multiProcessorCount, major, minor."},
};

void install_types() {
    if (g_device_type) return;
    g_device_type = new TypeObject("cupy.cuda.Device", nullptr, OK::Other);
    g_device_type->doc = "Device(device=None): a CUDA device (the current one by default).";
    g_device_type->construct = device_construct;
    g_device_type->getattr = device_getattr;
    g_device_type->repr = [](Interp&, const Value& v) { return "<CUDA Device " + std::to_string(v.as<DeviceObj>()->id) + ">"; };
    def_method(g_device_type, "use", device_use, "use()", "Makes this device the current one.");
    def_method(g_device_type, "synchronize", device_synchronize, "synchronize()", "Waits until the device has finished its work.");
    def_method(g_device_type, "__enter__", device_enter, "__enter__()", "Makes this device current for the block.");
    def_method(g_device_type, "__exit__", device_exit, "__exit__(*exc)", "Restores the previous device.");

    g_pool_type = new TypeObject("cupy.cuda.MemoryPool", nullptr, OK::Other);
    g_pool_type->doc = "MemoryPool(allocator=None): a device's memory pool (CuPy's API): counters, free_all_blocks, set_limit, malloc.";
    g_pool_type->construct = pool_construct;
    g_pool_type->getattr = pool_getattr;
    g_allocator_type = new TypeObject("cupy.cuda.memory.Allocator", nullptr, OK::Other);
    g_allocator_type->doc = "Where new arrays live: device memory, or managed memory (np.cuda.malloc_managed); for set_allocator().";
    g_allocator_type->repr = [](Interp&, const Value& v) {
        return std::string(v.as<AllocatorObj>()->managed ? "<allocator malloc_managed>" : "<allocator device memory pool>");
    };
    def_method(g_pool_type, "used_bytes", pool_used_bytes, "used_bytes()", "Bytes in blocks handed out.");
    def_method(g_pool_type, "total_bytes", pool_total_bytes, "total_bytes()", "Bytes handed out plus bytes freed and cached for reuse (CuPy's).");
    def_method(g_pool_type, "free_bytes", pool_free_bytes, "free_bytes()", "Bytes freed and cached for reuse.");
    def_method(g_pool_type, "n_free_blocks", pool_n_free_blocks, "n_free_blocks()", "Number of cached free blocks.");
    def_method(g_pool_type, "free_all_blocks", pool_free_all_blocks, "free_all_blocks(stream=None)", "Gives fully free segments back to the device.");
    def_method(g_pool_type, "set_limit", pool_set_limit, "set_limit(size=None, fraction=None)", "Caps the pool's total bytes (0: no limit).");
    def_method(g_pool_type, "get_limit", pool_get_limit, "get_limit()", "The limit in bytes (0: none).");
}

const FunctionSpec kFunctions[] = {
    {"device_count", device_count_fn, "device_count()", "Number of CUDA devices (0 without a GPU or driver)."},
    {"get_device_properties", get_device_properties, "get_device_properties(device=0)", "name, totalGlobalMem, multiProcessorCount, major, minor."},
    {"get_default_memory_pool", get_default_memory_pool, "get_default_memory_pool()", "The current device's memory pool."},
    {"get_default_pinned_memory_pool", get_default_pinned_memory_pool, "get_default_pinned_memory_pool()", "The pinned host memory pool."},
    {"set_allocator", set_allocator_fn, "set_allocator(allocator=None)", "Where this interpreter's new GPU arrays live: None (device memory), malloc_managed or a MemoryPool's malloc."},
    {"get_allocator", get_allocator_fn, "get_allocator()", "The allocator set_allocator() chose."},
    {"set_allow_tf32", set_allow_tf32_fn, "set_allow_tf32(allow)", "Whether float32 matrix products may use TF32 tensor cores (default False; GPY_TF32=1)."},
    {"get_allow_tf32", get_allow_tf32_fn, "get_allow_tf32()", "Whether float32 matrix products may use TF32 tensor cores."},
};

}  // namespace

Value cuda_device_object(int id) {
    if (!g_device_type) raise(types::RuntimeError, "the CUDA module is not initialised");
    return Value::object(new DeviceObj(id));
}

Value to_current_device(Interp& in, const Value& v) {
    ArrayObj* x = as_array(v);
    if (!x || !cuda_backend_active() || x->pending() || !x->buffer || x->buffer->device != DeviceKind::CUDA) return v;
    int from = x->buffer->device_index, to = array_device_index();
    if (from == to) return v;
    Value src = v;
    if (!is_c_contiguous(x)) {
        // Made contiguous where it lives, then copied whole.
        set_array_device(DeviceKind::CUDA, from);
        try {
            src = copy_order(in, v, x->dtype, 'C');
        } catch (...) {
            set_array_device(DeviceKind::CUDA, to);
            throw;
        }
        set_array_device(DeviceKind::CUDA, to);
    }
    ArrayObj* s = as_array(src);
    Value out = new_array(s->dtype, s->shape);
    ArrayObj* o = as_array(out);
    size_t nbytes = size_t(s->size()) * itemsize(s->dtype);
    if (nbytes) {
        cuda_call([&] {
            // Device addresses first: a source the host wrote is uploaded on its device.
            const uint8_t* from = s->buffer.device_read_bytes() + s->offset;
            uint8_t* dst = o->buffer.device_bytes();
            wait_for_device_work();  // the source device has written x
            cuda::device(to).make_current();
            // Unified addressing: a peer copy where the topology allows, staged by the driver otherwise.
            GPY_CU(cuMemcpyDtoDAsync(cuda::CUdeviceptr(dst), cuda::CUdeviceptr(from), nbytes, current_stream()));
        });
        note_device_work(to);
    }
    return out;
}

void add_cuda_functions(Interp&, ModuleObj* m) {
    install_types();
    add_functions(m, kFunctions);
    m->set("Device", Value::object(g_device_type));
    // np.cuda: CuPy's cupy.cuda namespace for the same objects.
    auto* cuda = new ModuleObj("numpy.cuda");
    cuda->doc = "CUDA devices and memory pools (CuPy's cupy.cuda).";
    add_functions(cuda, kFunctions);
    cuda->set("Device", Value::object(g_device_type));
    cuda->set("MemoryPool", Value::object(g_pool_type));
    cuda->set("malloc_managed", Value::object(new AllocatorObj(true)));
    cuda->set("malloc_async", Value::object(new AllocatorObj(false)));  // the device pool (stream-ordered)
    auto* async_pool = new TypeObject("cupy.cuda.MemoryAsyncPool", g_pool_type, OK::Other);
    async_pool->doc = "MemoryAsyncPool(pool_handles='current'): CuPy's stream-ordered pool; gpy's device pool, which is stream-ordered.";
    async_pool->construct = async_pool_construct;
    cuda->set("MemoryAsyncPool", Value::object(async_pool));
    auto* pinned = new TypeObject("cupy.cuda.PinnedMemoryPool", nullptr, OK::Other);
    pinned->doc = "PinnedMemoryPool(): the pinned host memory pool (the one the host mirrors of device arrays use).";
    pinned->construct = pinned_pool_construct;
    cuda->set("PinnedMemoryPool", Value::object(pinned));
    auto* runtime = new ModuleObj("numpy.cuda.runtime");
    runtime->doc = "CuPy's cupy.cuda.runtime: device count, current device, memory info.";
    add_functions(runtime, kRuntimeFunctions);
    cuda->set("runtime", Value::object(runtime));
    cuda->set("is_available", make_builtin("is_available", is_available_fn, "is_available()", "Whether a CUDA device can be used."));
    add_array_interface_names(cuda);
    m->set("cuda", Value::object(cuda));
}

}  // namespace gpy
