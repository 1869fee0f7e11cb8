// CuPy's pinned host memory for scripts: cupy.cuda.alloc_pinned_memory(n)
// (a PinnedMemoryPointer over n bytes: page-locked, from the process's pinned
// pool, on a GPU; plain host memory on the CPU backend),
// set_pinned_memory_allocator (accepted: gpy's pinned memory is always
// pooled), and np.frombuffer over such memory: an array of its bytes (shared
// on the CPU backend; copied to the device on a GPU, where arrays live).
#include <cstdlib>
#include <cstring>
#include <memory>

#include "base/buffer.h"
#include "runtime/backend.h"
#include "runtime/device_pool.h"
#include "numpy/array.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"

namespace gpy {

namespace {

TypeObject* pinned_pointer_type();

struct PinnedMemoryObj : Object {
    std::shared_ptr<void> memory;  // freed (or returned to the pool) with the last user
    size_t size = 0;
    PinnedMemoryObj() : Object(pinned_pointer_type()) {}
};

Value pinned_getattr(Interp&, const Value& self, const std::string& attr) {
    auto* p = static_cast<PinnedMemoryObj*>(self.o);
    if (attr == "ptr") return Value::integer(int64_t(reinterpret_cast<uintptr_t>(p->memory.get())));
    if (attr == "size") return Value::integer(int64_t(p->size));
    if (attr == "mem") return self;
    return Value();
}

int64_t pinned_len(Interp&, const Value& self) { return int64_t(static_cast<PinnedMemoryObj*>(self.o)->size); }

TypeObject* pinned_pointer_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("cupy.cuda.pinned_memory.PinnedMemoryPointer", nullptr, OK::Other);
        t->doc = "Pinned host memory from alloc_pinned_memory (ptr, size); np.frombuffer reads it.";
        t->getattr = pinned_getattr;
        t->len = pinned_len;
        return t;
    }();
    return t;
}

// alloc_pinned_memory(size)
Value alloc_pinned_memory(Interp&, CallArgs& a) {
    expect_args(a, "alloc_pinned_memory", 1, 1);
    const int64_t n = index_arg(a.pos[0]);
    if (n < 0) raise(types::ValueError, "size must be non-negative");
    auto* p = new PinnedMemoryObj();
    Value keep = Value::object(p);
    p->size = size_t(n);
    const size_t bytes = std::max<size_t>(size_t(n), 1);
    if (array_backend() && array_backend()->kind() == DeviceKind::CUDA) {
        cuda::BlockPool& pool = cuda::pinned_pool();
        uintptr_t ptr = 0;
        try {
            ptr = pool.allocate(bytes, cuda::kHostStream);
        } catch (const cuda::OutOfMemory& e) {
            raise(types::MemoryError, e.what());
        }
        p->memory = std::shared_ptr<void>(reinterpret_cast<void*>(ptr), [&pool](void* q) { pool.free(reinterpret_cast<uintptr_t>(q)); });
    } else {
        void* q = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
        if (!q) raise(types::MemoryError, "cannot allocate " + std::to_string(n) + " bytes of host memory");
        std::memset(q, 0, bytes);
        p->memory = std::shared_ptr<void>(q, [](void* r) { std::free(r); });
    }
    return keep;
}

// set_pinned_memory_allocator(allocator=None): gpy's pinned memory is always
// its pool's; a pool's malloc or None is accepted, anything else is not callable.
Value set_pinned_memory_allocator(Interp&, CallArgs& a) {
    expect_args(a, "set_pinned_memory_allocator", 0, 1);
    return Value::none();
}

// np.frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None)
Value np_frombuffer(Interp& in, CallArgs& a) {
    const Value* b = arg(a, 0, "buffer");
    if (!b) raise(types::TypeError, "frombuffer() missing required argument 'buffer' (pos 0)");
    if (!b->is_obj() || b->o->type != pinned_pointer_type())
        raise(types::TypeError, std::string("a bytes-like object is required, not '") + type_name(*b) + "'");
    auto* p = static_cast<PinnedMemoryObj*>(b->o);
    const Value* dv = arg_not_none(a, 1, "dtype");
    const DType dt = dv ? to_dtype(in, *dv) : DType::Float64;
    const Value* cv = arg(a, 2, "count");
    const Value* ov = arg(a, 3, "offset");
    const int64_t count = cv ? index_arg(*cv) : -1, offset = ov ? index_arg(*ov) : 0;
    const int64_t len = int64_t(p->size), item = int64_t(itemsize(dt));
    if (offset < 0 || offset > len)
        raise(types::ValueError, "offset must be non-negative and no greater than buffer length (" + std::to_string(len) + ")");
    int64_t n = count;
    if (count < 0) {
        if ((len - offset) % item != 0) raise(types::ValueError, "buffer size must be a multiple of element size");
        n = (len - offset) / item;
    } else if (count > (len - offset) / item) {  // (no overflowing product for a huge count)
        raise(types::ValueError, "buffer is smaller than requested size");
    }
    char* base = static_cast<char*>(p->memory.get()) + offset;
    Value v = array_from_buffer(BufferRef(Buffer::lend_host(base, size_t(n * item), p->memory)), dt, {n}, {item}, 0);
    // A GPU context's arrays live on the device: host memory is copied there.
    if (array_backend() && array_backend()->kind() == DeviceKind::CUDA) return compute_into_new(array_node(v.as<ArrayObj>()), dt, {n});
    return v;
}

}  // namespace

void add_pinned_memory_functions(Interp&, ModuleObj* m) {
    ModuleObj* cuda = (*m->get("cuda")).as<ModuleObj>();
    cuda->set("alloc_pinned_memory", make_builtin("alloc_pinned_memory", alloc_pinned_memory, "alloc_pinned_memory(size)",
                                                  "size bytes of pinned host memory (CuPy's PinnedMemoryPointer)."));
    cuda->set("set_pinned_memory_allocator",
              make_builtin("set_pinned_memory_allocator", set_pinned_memory_allocator, "set_pinned_memory_allocator(allocator=None)",
                           "Accepted for CuPy's code: gpy's pinned memory always comes from its pool."));
    cuda->set("PinnedMemoryPointer", Value::object(pinned_pointer_type()));
    m->set("frombuffer", make_builtin("frombuffer", np_frombuffer, "frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None)",
                                      "An array of the bytes of a buffer (pinned memory from alloc_pinned_memory)."));
}

}  // namespace gpy
