// One interpreter's array state, bound to the thread that runs it. As
// CPython finds its interpreter through the thread state, the array library
// finds its interpreter's context through bound_context(): the interpreter
// binds its context for the duration of each call into it (a script, a REPL
// input, a completion), so two interpreters in one process, on one thread or
// several, never see each other's kernels, limits, devices or streams.
//
// Each layer extends the one below it (codegen's PlanContext: the kernel
// runner and launch record; runtime's ArrayContext: device, allocation
// limits, streams, cache folder; the numpy module's NumpyContext: pending
// arrays) and reaches its own part with a static_cast: the object bound is
// always the most-derived one its interpreter created. Header-only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/buffer.h"

namespace gpy {

// One kernel launch, as %kernels and Interpreter::kernels_since show it.
struct KernelRecord {
    uint64_t number;
    std::string name, summary;
};

class Context {
public:
    virtual ~Context() = default;
    // Where Buffer::allocate puts new arrays: the backend's device at
    // start-up, `with Device(i):` for a block.
    DeviceKind array_kind = DeviceKind::CPU;
    int array_device = 0;
    // What the interpreter reports of its kernels (codegen/plan.h keeps them).
    virtual uint64_t kernels_launched() const = 0;
    virtual std::vector<KernelRecord> kernels_since(uint64_t first) const = 0;
    // --profile's per-kernel table ("" when not profiling or nothing ran).
    virtual std::string profile_report() const { return ""; }
    // A new array's memory (Buffer::allocate): the runtime's ArrayContext
    // puts it on the interpreter's device within its limit.
    virtual Buffer* allocate_array(size_t nbytes, bool zero) = 0;
};

inline thread_local Context* t_bound_context = nullptr;

// The context of the interpreter running on this thread, or nullptr.
inline Context* bound_context() { return t_bound_context; }

// Where the bound interpreter's new arrays live (the host when none is bound).
inline DeviceKind array_device_kind() { return t_bound_context ? t_bound_context->array_kind : DeviceKind::CPU; }
inline int array_device_index() { return t_bound_context ? t_bound_context->array_device : 0; }
inline void set_array_device(DeviceKind kind, int index = 0) {
    if (Context* c = t_bound_context) {
        c->array_kind = kind;
        c->array_device = index;
    }
}

// Binds `ctx` to this thread for a scope and restores the outer binding after
// (an embedder may run one interpreter inside another's callback). A null
// `ctx` keeps the outer binding: an interpreter that has not imported the
// array module has no context.
class ContextScope {
public:
    explicit ContextScope(Context* ctx) : saved_(t_bound_context) {
        if (ctx) t_bound_context = ctx;
    }
    ~ContextScope() { t_bound_context = saved_; }
    ContextScope(const ContextScope&) = delete;
    ContextScope& operator=(const ContextScope&) = delete;

private:
    Context* saved_;
};

}  // namespace gpy
