// DLPack both ways (numpy/dlpack.h), and the language's side of it:
// np.from_dlpack(obj), x.__dlpack__(stream=None, max_version=None,
// dl_device=None, copy=None), x.__dlpack_device__() and the PyCapsule that
// carries a tensor between them, with the capsule protocol's names
// ("dltensor", "dltensor_versioned", renamed "used_..." once consumed).
#include "numpy/dlpack.h"

#include <cstring>

#include "numpy/array.h"
#include "numpy/cuda_errors.h"
#include "numpy/np_args.h"
#include "runtime/array_context.h"
#include "runtime/cuda_memory.h"

namespace gpy {

namespace {

// ---- types ----

std::optional<DType> dtype_of(DLDataType t) {
    if (t.lanes != 1) return std::nullopt;
    switch (t.code) {
    case kDLInt:
        return t.bits == 8 ? DType::Int8 : t.bits == 16 ? DType::Int16 : t.bits == 32 ? DType::Int32 : t.bits == 64 ? DType::Int64 : std::optional<DType>();
    case kDLUInt:
        // DLPack 0.x wrote bool as uint8 of 1 bit... and as 8 bits: both are NumPy's uint8 / bool.
        return t.bits == 8 ? DType::UInt8 : t.bits == 16 ? DType::UInt16 : t.bits == 32 ? DType::UInt32 : t.bits == 64 ? DType::UInt64 : std::optional<DType>();
    case kDLFloat:
        return t.bits == 16 ? DType::Float16 : t.bits == 32 ? DType::Float32 : t.bits == 64 ? DType::Float64 : std::optional<DType>();
    case kDLComplex:
        return t.bits == 64 ? DType::Complex64 : t.bits == 128 ? DType::Complex128 : std::optional<DType>();
    case GPY_DL_BOOL:
        return t.bits == 8 ? DType::Bool : std::optional<DType>();
    default:
        return std::nullopt;
    }
}

[[noreturn]] void buffer_error(const std::string& message) { raise(types::BufferError, message); }

// ---- in: a tensor's memory as a script array ----

// Calls a tensor's deleter when the last holder lets go.
template <class Tensor>
std::shared_ptr<void> keeper(Tensor* t) {
    return std::shared_ptr<void>(t, [](void* p) {
        auto* m = static_cast<Tensor*>(p);
        if (m->deleter) m->deleter(m);
    });
}

}  // namespace

Value array_from_dltensor(const DLTensor& t, std::shared_ptr<void> keep, bool readonly) {
    const std::optional<DType> dt = dtype_of(t.dtype);
    if (!dt)
        buffer_error("DLPack tensor of type code " + std::to_string(t.dtype.code) + ", " + std::to_string(t.dtype.bits) + " bits, " +
                     std::to_string(t.dtype.lanes) + " lanes has no NumPy dtype");
    if (t.ndim < 0 || t.ndim > 64) buffer_error("DLPack tensor with " + std::to_string(t.ndim) + " dimensions");
    const int64_t item = int64_t(itemsize(*dt));
    dag::Shape shape(t.shape, t.shape + t.ndim);
    int64_t count = 1;
    for (int64_t d : shape) {
        if (d < 0) buffer_error("DLPack tensor with a negative dimension");
        if (__builtin_mul_overflow(count, d, &count) || count > (int64_t(1) << 62) / item) buffer_error("DLPack tensor too large");
    }
    std::vector<int64_t> strides;
    if (t.strides && t.ndim > 0) {
        for (int k = 0; k < t.ndim; ++k) {
            int64_t s = 0;
            if (__builtin_mul_overflow(t.strides[k], item, &s)) buffer_error("DLPack tensor strides overflow");
            strides.push_back(s);
        }
    } else {
        strides = dag::contiguous_strides(shape, size_t(item));
    }
    char* data = static_cast<char*>(t.data);
    if (data) data += t.byte_offset;
    if (count > 0 && !data) buffer_error("DLPack tensor with a null data pointer");
    const auto [low, high] = count > 0 ? dag::byte_extent(shape, strides, size_t(item)) : std::pair<int64_t, int64_t>{0, 0};
    char* base = count > 0 ? data + low : nullptr;
    const size_t nbytes = size_t(high - low);
    const bool gpu_context = array_device_kind() == DeviceKind::CUDA;
    switch (int(t.device.device_type)) {
    case kDLCUDA:
    case kDLCUDAManaged: {
        if (!gpu_context)
            buffer_error("a CUDA tensor (device " + std::to_string(t.device.device_id) +
                         ") cannot be used by the CPU backend: run gpy with --backend cuda, or copy it to the host first");
        if (t.device.device_id != array_device_index())
            buffer_error("the tensor is on CUDA device " + std::to_string(t.device.device_id) + ", the current device is " +
                         std::to_string(array_device_index()) + " (use `with np.cuda.Device(" + std::to_string(t.device.device_id) + "):`)");
        Buffer* b = lend_cuda_buffer(t.device.device_id, base, nbytes, std::move(keep));
        Value v = array_from_buffer(BufferRef(b), *dt, shape, std::move(strides), -low);
        // gpy has no read-only arrays: a read-only tensor is copied.
        return readonly ? compute_into_new(array_node(v.as<ArrayObj>()), *dt, shape) : v;
    }
    case kDLCPU:
    case kDLCUDAHost: {
        Value v = array_from_buffer(BufferRef(Buffer::lend_host(base, nbytes, std::move(keep))), *dt, shape, std::move(strides), -low);
        // A GPU context's arrays live on the device: host memory is copied there.
        return readonly || gpu_context ? compute_into_new(array_node(v.as<ArrayObj>()), *dt, shape) : v;
    }
    default:
        buffer_error("DLPack tensor on device type " + std::to_string(int(t.device.device_type)) +
                     ": gpy takes CPU, CUDA, CUDA host and CUDA managed memory");
    }
}

namespace {

// ---- out: a script array's memory as a tensor ----

// What a tensor made here owns: the buffer and the shape and strides it points at.
struct Export {
    BufferRef buffer;
    std::vector<int64_t> shape, strides;  // strides in elements
};

template <class Tensor>
void delete_export(Tensor* t) {
    delete static_cast<Export*>(t->manager_ctx);
    delete t;
}

// Fills `t` over a's memory; returns the context it owns.
Export* export_array(ArrayObj* a, DLTensor& t) {
    materialize(a);
    const int64_t item = int64_t(itemsize(a->dtype));
    auto* e = new Export{a->buffer, std::vector<int64_t>(a->shape.begin(), a->shape.end()), {}};
    for (int64_t s : a->strides) {
        if (s % item != 0) {
            delete e;
            buffer_error("DLPack needs strides that are multiples of the element size (a view of " + std::to_string(s) + " bytes)");
        }
        e->strides.push_back(s / item);
    }
    Buffer* b = a->buffer.get();
    const bool on_gpu = b->device == DeviceKind::CUDA;
    // The receiver may write: the device's (or host's) copy becomes the current one.
    uint8_t* base = on_gpu ? a->buffer.device_bytes() : a->buffer.bytes();
    t.data = base + a->offset;
    t.device = on_gpu ? DLDevice{kDLCUDA, b->device_index} : DLDevice{kDLCPU, 0};
    t.ndim = a->ndim();
    t.dtype = dlpack_dtype(a->dtype);
    t.shape = e->shape.data();
    t.strides = e->strides.data();
    t.byte_offset = 0;
    return e;
}

// ---- the capsule ----

TypeObject* g_capsule_type = nullptr;

// CPython's PyCapsule as DLPack uses it: an unconsumed one calls its tensor's deleter when it dies.
struct CapsuleObj : Object {
    void* tensor;
    std::string name;  // "dltensor" / "dltensor_versioned"; "used_..." once consumed
    CapsuleObj(void* t, std::string n) : Object(g_capsule_type), tensor(t), name(std::move(n)) {}
    ~CapsuleObj() override {
        if (name == "dltensor_versioned") {
            auto* m = static_cast<DLManagedTensorVersioned*>(tensor);
            if (m->deleter) m->deleter(m);
        } else if (name == "dltensor") {
            auto* m = static_cast<DLManagedTensor*>(tensor);
            if (m->deleter) m->deleter(m);
        }
    }
};

ArrayObj* self_array(CallArgs& a, const char* method) {
    ArrayObj* x = a.npos ? as_array(a.pos[0]) : nullptr;
    if (!x) raise(types::TypeError, std::string("ndarray.") + method + "() needs an array");
    return x;
}

// x.__dlpack_device__(): (device type, device id), DLPack's enumeration.
Value m_dlpack_device(Interp&, CallArgs& a) {
    ArrayObj* x = self_array(a, "__dlpack_device__");
    bool on_gpu = array_device_kind() == DeviceKind::CUDA;
    int id = array_device_index();
    if (x->buffer) {
        on_gpu = x->buffer->device == DeviceKind::CUDA;
        id = on_gpu ? x->buffer->device_index : 0;
    }
    return make_tuple({Value::integer(on_gpu ? kDLCUDA : kDLCPU), Value::integer(on_gpu ? id : 0)});
}

// The (major, minor) of max_version=, or (0, 0) when absent: the legacy capsule.
std::pair<int64_t, int64_t> version_arg(const Value* v) {
    if (!v || v->is_none()) return {0, 0};
    if (!is_kind(*v, OK::Tuple) || v->as<TupleObj>()->items.size() != 2)
        raise(types::TypeError, "max_version must be None or a tuple of two integers");
    auto& items = v->as<TupleObj>()->items;
    return {to_index(items[0], "max_version"), to_index(items[1], "max_version")};
}

// x.__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None)
Value m_dlpack(Interp& in, CallArgs& a) {
    ArrayObj* x = self_array(a, "__dlpack__");
    if (a.npos > 1) raise(types::TypeError, "__dlpack__() takes 0 positional arguments but " + std::to_string(a.npos - 1) + (a.npos == 2 ? " was" : " were") + " given");
    for (size_t k = 0; k < a.nkw(); ++k) {
        const std::string& n = (*a.kw)[k].first;
        if (n != "stream" && n != "max_version" && n != "dl_device" && n != "copy")
            raise(types::TypeError, "__dlpack__() got an unexpected keyword argument '" + n + "'");
    }
    const auto [major, minor] = version_arg(kwarg(a, "max_version"));
    (void)minor;
    materialize(x);
    Value copy;  // copy=True: the tensor views a fresh copy
    if (const Value* c = kwarg(a, "copy"); c && !c->is_none() && truthy(*c)) {
        copy = compute_into_new(array_node(x), x->dtype, x->shape);
        x = copy.as<ArrayObj>();
    }
    if (x->buffer && x->buffer->device == DeviceKind::CPU) {
        if (const Value* s = kwarg(a, "stream"); s && !s->is_none()) raise(types::RuntimeError, "NumPy only supports stream=None.");
    }
    // The consumer reads on its stream: that stream waits for the work
    // queued on ours (an event, no host wait), as CuPy does; a consumer on
    // our own stream needs nothing. DLPack's 1 and 2 are the legacy and
    // per-thread default streams, which the driver takes as handles.
    if (x->buffer && x->buffer->device == DeviceKind::CUDA) {
        const Value* s = kwarg(a, "stream");
        const int64_t v = s && !s->is_none() ? to_index(*s, "stream") : 1;  // None: the legacy default stream
        if (v == 0) raise(types::ValueError, "stream=0 is ambiguous in DLPack: pass 1 (legacy default stream), 2 (per-thread) or a stream");
        if (v < -1) raise(types::ValueError, "stream must be -1 (no synchronisation), 1, 2 or a CUDA stream, not " + std::to_string(v));
        const uintptr_t theirs = uintptr_t(v), ours = reinterpret_cast<uintptr_t>(current_stream());
        // (-1: the consumer synchronises itself. Another value is trusted to
        // be a live stream of this device, as CuPy trusts it.)
        if (v != -1 && !(theirs == ours || (theirs == 1 && ours == 0))) {
            cuda_call([&] {
                cuda::Event done;
                done.record(current_stream());
                GPY_CU(cuStreamWaitEvent(reinterpret_cast<cuda::CUstream>(theirs), done.handle(), 0));
            });  // (the event's resources go once it has completed)
        }
    }
    if (major >= 1) return Value::object(new CapsuleObj(dlpack_versioned_from_array(x), "dltensor_versioned"));
    return Value::object(new CapsuleObj(dlpack_from_array(x), "dltensor"));
}

// np.from_dlpack(x, /, *, device=None, copy=None)
Value np_from_dlpack(Interp& in, CallArgs& a) {
    if (a.npos != 1) raise(types::TypeError, "from_dlpack() takes exactly 1 positional argument (" + std::to_string(a.npos) + " given)");
    for (size_t k = 0; k < a.nkw(); ++k) {
        const std::string& n = (*a.kw)[k].first;
        if (n != "device" && n != "copy") raise(types::TypeError, "from_dlpack() got an unexpected keyword argument '" + n + "'");
    }
    const Value* copy = kwarg(a, "copy");
    const bool copying = copy && !copy->is_none() && truthy(*copy);
    const Value& obj = a.pos[0];
    if (!has_attr(in, obj, "__dlpack__")) raise(types::AttributeError, std::string("'") + type_name(obj) + "' object has no attribute '__dlpack__'");
    Value method = get_attr(in, obj, "__dlpack__");
    std::vector<std::pair<std::string, Value>> kw{{"max_version", make_tuple({Value::integer(1), Value::integer(0)})}};
    if (array_device_kind() == DeviceKind::CUDA)
        kw.emplace_back("stream", Value::integer(current_stream() ? int64_t(reinterpret_cast<uintptr_t>(current_stream())) : 1));
    CallArgs ca{nullptr, 0, &kw};
    Value cap = in.call(method, ca);
    if (!cap.is_obj() || cap.o->type != g_capsule_type) raise(types::TypeError, "__dlpack__() did not return a DLPack capsule");
    auto* c = static_cast<CapsuleObj*>(cap.o);
    Value r;
    if (c->name == "dltensor_versioned") {
        c->name = "used_dltensor_versioned";
        r = array_from_dlpack(static_cast<DLManagedTensorVersioned*>(c->tensor));
    } else if (c->name == "dltensor") {
        c->name = "used_dltensor";
        r = array_from_dlpack(static_cast<DLManagedTensor*>(c->tensor));
    } else {
        // (CPython's words: NumPy reads the capsule with PyCapsule_GetPointer.)
        raise(types::ValueError, "PyCapsule_GetPointer called with incorrect name");
    }
    if (copying) r = compute_into_new(array_node(r.as<ArrayObj>()), r.as<ArrayObj>()->dtype, r.as<ArrayObj>()->shape);
    return r;
}

// A tensor made here over a gpy array (np.from_dlpack(x) of a gpy array):
// a view of the same buffer, so gpy's aliasing rules (in-place updates of
// overlapping views, pending readers) see one memory, not two.
template <class Tensor>
std::optional<Value> own_export(Tensor* t) {
    if (t->deleter != delete_export<Tensor>) return std::nullopt;
    const DLTensor& dl = t->dl_tensor;
    // (Another interpreter's array on another device, or with a device
    // array for a CPU one, takes the general path and its checks.)
    const bool gpu_context = array_device_kind() == DeviceKind::CUDA;
    if ((dl.device.device_type == kDLCUDA) != gpu_context || (gpu_context && dl.device.device_id != array_device_index()))
        return std::nullopt;
    BufferRef buf = static_cast<Export*>(t->manager_ctx)->buffer;
    const DType dt = *dtype_of(dl.dtype);
    const int64_t item = int64_t(itemsize(dt));
    dag::Shape shape(dl.shape, dl.shape + dl.ndim);
    std::vector<int64_t> strides;
    for (int k = 0; k < dl.ndim; ++k) strides.push_back(dl.strides[k] * item);
    const int64_t offset = static_cast<char*>(dl.data) - static_cast<char*>(buf->data);
    Value v = array_from_buffer(std::move(buf), dt, shape, std::move(strides), offset);
    t->deleter(t);
    return v;
}

}  // namespace

DLDataType dlpack_dtype(DType t) {
    const uint8_t bits = uint8_t(8 * itemsize(t));
    switch (kind(t)) {
    case DKind::Bool: return {uint8_t(GPY_DL_BOOL), 8, 1};
    case DKind::Int: return {kDLInt, bits, 1};
    case DKind::UInt: return {kDLUInt, bits, 1};
    case DKind::Float: return {kDLFloat, bits, 1};
    default: return {kDLComplex, bits, 1};
    }
}

Value array_from_dlpack(DLManagedTensorVersioned* t) {
    if (!t) raise(types::ValueError, "null DLPack tensor");
    if (std::optional<Value> v = own_export(t)) return *v;
    std::shared_ptr<void> keep = keeper(t);  // from here on the deleter runs exactly once
    if (t->version.major != DLPACK_MAJOR_VERSION)
        buffer_error("DLPack version " + std::to_string(t->version.major) + "." + std::to_string(t->version.minor) +
                     " is not supported (gpy reads 1.x)");
    const bool readonly = t->flags & DLPACK_FLAG_BITMASK_READ_ONLY;
    return array_from_dltensor(t->dl_tensor, std::move(keep), readonly);
}

Value array_from_dlpack(DLManagedTensor* t) {
    if (!t) raise(types::ValueError, "null DLPack tensor");
    if (std::optional<Value> v = own_export(t)) return *v;
    return array_from_dltensor(t->dl_tensor, keeper(t), false);
}

DLManagedTensorVersioned* dlpack_versioned_from_array(ArrayObj* a) {
    auto* t = new DLManagedTensorVersioned{};
    try {
        t->manager_ctx = export_array(a, t->dl_tensor);
    } catch (...) {
        delete t;
        throw;
    }
    t->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    t->deleter = delete_export<DLManagedTensorVersioned>;
    t->flags = 0;
    return t;
}

DLManagedTensor* dlpack_from_array(ArrayObj* a) {
    auto* t = new DLManagedTensor{};
    try {
        t->manager_ctx = export_array(a, t->dl_tensor);
    } catch (...) {
        delete t;
        throw;
    }
    t->deleter = delete_export<DLManagedTensor>;
    return t;
}

void install_dlpack_methods() {
    g_capsule_type = new TypeObject("PyCapsule", nullptr, OK::Other);
    g_capsule_type->doc = "A DLPack tensor in transit between two arrays (np.from_dlpack consumes it).";
    g_capsule_type->repr = [](Interp&, const Value& v) {
        auto* c = static_cast<CapsuleObj*>(v.o);
        return "<capsule object \"" + c->name + "\">";
    };
    def_method(types::ndarray, "__dlpack__", m_dlpack, "ndarray.__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None)",
               "A DLPack capsule over the array's memory (no copy).");
    def_method(types::ndarray, "__dlpack_device__", m_dlpack_device, "ndarray.__dlpack_device__()",
               "(device type, device id) of the array's memory in DLPack's terms: (1, 0) the host, (2, n) CUDA device n.");
}

void add_dlpack_functions(Interp&, ModuleObj* m) {
    static const FunctionSpec functions[] = {
        {"from_dlpack", np_from_dlpack, "from_dlpack(x, /, *, device=None, copy=None)",
         "An array over the memory of any object with __dlpack__ (no copy)."},
    };
    add_functions(m, functions);
}

}  // namespace gpy
