// Raw memory of arrays, as NumPy and CuPy expose it: x.__array_interface__
// (host memory), x.__cuda_array_interface__ (device memory, version 3 with
// CuPy's "stream"), x.data (CuPy's MemoryPointer on both backends:
// .ptr, .device_id, .mem), np.cuda.UnownedMemory(ptr, size, owner,
// device_id=None), np.cuda.MemoryPointer(mem, offset), and
// np.ndarray(shape, dtype=float, memptr=None, strides=None): an array over
// memory another library owns (held through `owner`), or a new one.
#include "numpy/array_interface.h"

#include <cstdio>

#include "numpy/array.h"
#include "numpy/np_args.h"
#include "runtime/array_context.h"
#include "runtime/cuda_memory.h"

namespace gpy {

namespace {

TypeObject* g_unowned_type = nullptr;
TypeObject* g_pointer_type = nullptr;

// np.cuda.UnownedMemory: memory of another library, kept alive by `owner`.
struct UnownedObj : Object {
    uintptr_t ptr = 0;
    int64_t size = 0;
    int device = 0;
    Value owner;
    UnownedObj() : Object(g_unowned_type) {}
};

// CuPy's MemoryPointer: an address in some memory (`mem`: the memory object,
// or the array whose buffer it is).
struct PointerObj : Object {
    uintptr_t ptr = 0;
    int device = 0;
    Value mem;
    PointerObj() : Object(g_pointer_type) {}
};

bool on_device(const ArrayObj* a) { return a->buffer && a->buffer->device == DeviceKind::CUDA; }

TypeObject* g_buffer_memory_type = nullptr;

// x.data.mem of a gpy array: its buffer as CuPy's memory object (CuPy's
// PooledMemory: .ptr, .size in bytes, .device_id), holding the array.
struct BufferMemoryObj : Object {
    Value array;
    BufferMemoryObj() : Object(g_buffer_memory_type) {}
};

Value buffer_memory_getattr(Interp&, const Value& v, const std::string& name) {
    ArrayObj* a = static_cast<BufferMemoryObj*>(v.o)->array.as<ArrayObj>();
    materialize(a);
    if (name == "ptr") {
        const uint8_t* base = on_device(a) ? a->buffer.device_bytes() : a->buffer.bytes();
        return Value::integer(int64_t(reinterpret_cast<uintptr_t>(base)));
    }
    if (name == "size") return Value::integer(int64_t(a->buffer->nbytes));
    if (name == "device_id") return Value::integer(on_device(a) ? a->buffer->device_index : 0);
    return Value();
}

// NumPy's typestr: byte order, kind, item size ('<f8', '|b1').
std::string typestr(DType t) {
    const size_t n = itemsize(t);
    const char kind_char = kind(t) == DKind::Bool ? 'b' : kind(t) == DKind::Int ? 'i' : kind(t) == DKind::UInt ? 'u' : kind(t) == DKind::Float ? 'f' : 'c';
    return std::string(n == 1 ? "|" : "<") + kind_char + std::to_string(n);
}

Value int_tuple(const std::vector<int64_t>& xs) {
    std::vector<Value> v;
    for (int64_t x : xs) v.push_back(Value::integer(x));
    return make_tuple(std::move(v));
}

bool c_contiguous(const ArrayObj* a) {
    return a->strides == dag::contiguous_strides(a->shape, itemsize(a->dtype));
}

// The first element's address: device memory for a device array (the
// consumer may write it: the device's copy becomes the current one).
uintptr_t data_address(ArrayObj* a) {
    materialize(a);
    uint8_t* base = on_device(a) ? a->buffer.device_bytes() : a->buffer.bytes();
    return reinterpret_cast<uintptr_t>(base + a->offset);
}

// The interface dictionary; `cuda`: CUDA's form (with "stream").
Value interface_dict(Interp& in, ArrayObj* a, bool cuda) {
    const uintptr_t ptr = data_address(a);
    auto* d = new DictObj();
    Value r = Value::object(d);
    auto set = [&](const char* k, Value v) { d->table.set(in, make_str(k), std::move(v)); };
    const std::string ts = typestr(a->dtype);
    if (cuda) {
        set("shape", int_tuple(std::vector<int64_t>(a->shape.begin(), a->shape.end())));
        set("typestr", make_str(ts));
        set("descr", make_list({make_tuple({make_str(""), make_str(ts)})}));
        set("stream", Value::integer(current_stream() ? int64_t(reinterpret_cast<uintptr_t>(current_stream())) : 1));
        set("data", make_tuple({Value::integer(int64_t(ptr)), Value::boolean(false)}));
        set("version", Value::integer(3));
        set("strides", c_contiguous(a) ? Value::none() : int_tuple(a->strides));
    } else {
        set("data", make_tuple({Value::integer(int64_t(ptr)), Value::boolean(false)}));
        set("strides", c_contiguous(a) ? Value::none() : int_tuple(a->strides));
        set("descr", make_list({make_tuple({make_str(""), make_str(ts)})}));
        set("typestr", make_str(ts));
        set("shape", int_tuple(std::vector<int64_t>(a->shape.begin(), a->shape.end())));
        set("version", Value::integer(3));
    }
    return r;
}

Value pointer_object(uintptr_t ptr, int device, Value mem) {
    auto* p = new PointerObj();
    p->ptr = ptr;
    p->device = device;
    p->mem = std::move(mem);
    return Value::object(p);
}

Value unowned_construct(Interp&, CallArgs& a) {
    const Value* ptr = arg(a, 0, "ptr");
    const Value* size = arg(a, 1, "size");
    const Value* owner = arg(a, 2, "owner");
    if (!ptr || !size || !owner) raise(types::TypeError, "UnownedMemory() takes ptr, size and owner");
    const Value* dev = arg(a, 3, "device_id");
    auto* u = new UnownedObj();
    Value r = Value::object(u);
    u->ptr = uintptr_t(to_index(*ptr, "ptr"));
    u->size = to_index(*size, "size");
    if (u->size < 0) raise(types::ValueError, "UnownedMemory: size must be >= 0");
    u->device = dev && !dev->is_none() ? int(to_index(*dev, "device_id")) : array_device_index();
    u->owner = *owner;
    return r;
}

Value pointer_construct(Interp&, CallArgs& a) {
    const Value* mem = arg(a, 0, "mem");
    const Value* off = arg(a, 1, "offset");
    if (mem && mem->is_obj() && mem->o->type == g_buffer_memory_type) {  // x.data.mem: a pointer into x's buffer
        ArrayObj* x = static_cast<BufferMemoryObj*>(mem->o)->array.as<ArrayObj>();
        materialize(x);
        const int64_t offset = off ? to_index(*off, "offset") : 0;
        if (offset < 0 || offset > int64_t(x->buffer->nbytes)) raise(types::ValueError, "MemoryPointer: offset outside the memory");
        const uint8_t* base = on_device(x) ? x->buffer.device_bytes() : x->buffer.bytes();
        return pointer_object(reinterpret_cast<uintptr_t>(base) + uintptr_t(offset), on_device(x) ? x->buffer->device_index : 0,
                              static_cast<BufferMemoryObj*>(mem->o)->array);
    }
    if (!mem || !mem->is_obj() || mem->o->type != g_unowned_type) raise(types::TypeError, "MemoryPointer(mem, offset): mem must be an UnownedMemory");
    auto* u = static_cast<UnownedObj*>(mem->o);
    const int64_t offset = off ? to_index(*off, "offset") : 0;
    if (offset < 0 || offset > u->size) raise(types::ValueError, "MemoryPointer: offset outside the memory");
    return pointer_object(u->ptr + uintptr_t(offset), u->device, *mem);
}

Value pointer_getattr(Interp&, const Value& v, const std::string& name) {
    auto* p = static_cast<PointerObj*>(v.o);
    if (name == "ptr") return Value::integer(int64_t(p->ptr));
    if (name == "device_id") return Value::integer(p->device);
    if (name == "mem") {
        if (!as_array(p->mem)) return p->mem;
        auto* m = new BufferMemoryObj();
        m->array = p->mem;
        return Value::object(m);
    }
    return Value();
}

Value unowned_getattr(Interp&, const Value& v, const std::string& name) {
    auto* u = static_cast<UnownedObj*>(v.o);
    if (name == "ptr") return Value::integer(int64_t(u->ptr));
    if (name == "size") return Value::integer(u->size);
    if (name == "device_id") return Value::integer(u->device);
    return Value();
}

// np.ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None, memptr=None)
Value ndarray_construct(Interp& in, CallArgs& a) {
    const Value* shape_v = arg(a, 0, "shape");
    if (!shape_v) raise(types::TypeError, "ndarray() missing required argument 'shape' (pos 0)");
    const dag::Shape shape = shape_arg(in, *shape_v);
    const DType t = dtype_arg(in, a, 1).value_or(DType::Float64);
    // CuPy's third positional parameter is memptr (NumPy's is buffer), and its fourth strides.
    const Value* third = a.npos > 2 ? &a.pos[2] : nullptr;
    const bool cupy_order = third && third->is_obj() && third->o->type == g_pointer_type;
    if (!cupy_order && arg_not_none(a, 2, "buffer"))
        raise(types::NotImplementedError, "ndarray(buffer=...) is not supported: use np.frombuffer");
    const Value* memptr = cupy_order ? third : kwarg(a, "memptr");
    const Value* strides_v = cupy_order ? arg_not_none(a, 3, "strides") : arg_not_none(a, 4, "strides");
    const size_t item = itemsize(t);
    std::vector<int64_t> strides = dag::contiguous_strides(shape, item);
    if (strides_v) {
        strides.clear();
        for (const Value& s : to_vector(in, *strides_v)) strides.push_back(to_index(s, "strides"));
        if (strides.size() != shape.size()) raise(types::ValueError, "strides, if given, must be the same length as shape");
    }
    if (!memptr || memptr->is_none()) {
        if (strides_v) raise(types::NotImplementedError, "ndarray(strides=...) needs memptr= in gpy");
        return new_array(t, shape, /*zero=*/true);
    }
    if (!memptr->is_obj() || memptr->o->type != g_pointer_type) raise(types::TypeError, "memptr must be a MemoryPointer");
    auto* p = static_cast<PointerObj*>(memptr->o);
    // The bytes the view reaches, [low, high) from the pointer, with
    // checked arithmetic (hostile shapes and strides raise, never wrap).
    int64_t count = 1, low = 0, high = 0;
    for (size_t k = 0; k < shape.size(); ++k)
        if (__builtin_mul_overflow(count, shape[k], &count)) raise(types::ValueError, "ndarray: the array is too big");
    if (count > 0) {
        high = int64_t(item);
        for (size_t k = 0; k < shape.size(); ++k) {
            int64_t span = 0;
            int64_t& end = strides[k] < 0 ? low : high;
            if (__builtin_mul_overflow(shape[k] - 1, strides[k], &span) || __builtin_add_overflow(end, span, &end))
                raise(types::ValueError, "ndarray: the array's strides overflow");
        }
    }
    // The memory the pointer is in: the view must stay inside it.
    int64_t start = 0, size = 0;
    ArrayObj* x = as_array(p->mem);  // x.data: a pointer into x's buffer
    if (p->mem.is_obj() && p->mem.o->type == g_unowned_type) {
        auto* u = static_cast<UnownedObj*>(p->mem.o);
        start = int64_t(p->ptr - u->ptr);
        size = u->size;
    } else if (x && x->buffer) {
        start = int64_t(p->ptr - reinterpret_cast<uintptr_t>(x->buffer->data));
        size = int64_t(x->buffer->nbytes);
    } else {
        raise(types::ValueError, "ndarray: a MemoryPointer into unknown memory");
    }
    if (count > 0 && (start + low < 0 || start + high > size))
        raise(types::ValueError, "ndarray: the array (" + std::to_string(high - low) + " bytes) reaches outside its memory of " +
                                     std::to_string(size) + " bytes");
    // Into a gpy array: a view of its buffer, so gpy's aliasing and
    // host/device coherence see one memory.
    if (x) return array_from_buffer(x->buffer, t, shape, std::move(strides), start);
    if (count == 0) low = high = 0;
    auto keep = std::make_shared<Value>(*memptr);  // the pointer, its UnownedMemory and that one's owner
    char* base = reinterpret_cast<char*>(p->ptr) + low;
    Buffer* b = array_device_kind() == DeviceKind::CUDA ? lend_cuda_buffer(p->device, base, size_t(high - low), keep)
                                                        : Buffer::lend_host(base, size_t(high - low), keep);
    return array_from_buffer(BufferRef(b), t, shape, std::move(strides), -low);
}

}  // namespace

Value array_interface_attr(Interp& in, const Value& v, const std::string& name) {
    ArrayObj* a = v.as<ArrayObj>();
    if (name == "data") {
        materialize(a);
        return pointer_object(data_address(a), on_device(a) ? a->buffer->device_index : 0, v);
    }
    if (name == "__array_interface__" || name == "__cuda_array_interface__") {
        const bool cuda = name == "__cuda_array_interface__";
        materialize(a);
        if (cuda != on_device(a)) return Value();  // NumPy's arrays have no CUDA interface, CuPy's no host one
        return interface_dict(in, a, cuda);
    }
    return Value();
}

void install_array_interface() {
    g_unowned_type = new TypeObject("cupy.cuda.UnownedMemory", nullptr, OK::Other);
    g_unowned_type->doc = "UnownedMemory(ptr, size, owner, device_id=None): memory another library allocated, kept alive by owner.";
    g_unowned_type->construct = unowned_construct;
    g_unowned_type->getattr = unowned_getattr;
    g_buffer_memory_type = new TypeObject("cupy.cuda.memory.PooledMemory", nullptr, OK::Other);
    g_buffer_memory_type->doc = "The memory of a gpy array (x.data.mem): ptr, size in bytes, device_id.";
    g_buffer_memory_type->getattr = buffer_memory_getattr;
    g_pointer_type = new TypeObject("cupy.cuda.MemoryPointer", nullptr, OK::Other);
    g_pointer_type->doc = "MemoryPointer(mem, offset): an address in a memory object (x.data of an array).";
    g_pointer_type->construct = pointer_construct;
    g_pointer_type->getattr = pointer_getattr;
    g_pointer_type->repr = [](Interp&, const Value& v) {
        auto* p = static_cast<PointerObj*>(v.o);
        char buf[64];
        std::snprintf(buf, sizeof buf, "<MemoryPointer 0x%llx device=%d>", static_cast<unsigned long long>(p->ptr), p->device);
        return std::string(buf);
    };
    types::ndarray->construct = ndarray_construct;
}

Value unowned_memory_pointer(uintptr_t ptr, int64_t size, int device, Value owner) {
    auto* u = new UnownedObj();
    Value mem = Value::object(u);
    u->ptr = ptr;
    u->size = size;
    u->device = device;
    u->owner = std::move(owner);
    return pointer_object(ptr, device, mem);
}

void add_array_interface_names(ModuleObj* cuda) {
    cuda->set("UnownedMemory", Value::object(g_unowned_type));
    cuda->set("MemoryPointer", Value::object(g_pointer_type));
}

}  // namespace gpy
