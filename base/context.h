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

#include <cstdint>
#include <string>
#include <vector>

namespace gpy {

// One kernel launch, as %kernels and Interpreter::kernels_since show it.
struct KernelRecord {
    uint64_t number;
    std::string name, summary;
};

class Context {
public:
    virtual ~Context() = default;
    // What the interpreter reports of its kernels (codegen/plan.h keeps them).
    virtual uint64_t kernels_launched() const = 0;
    virtual std::vector<KernelRecord> kernels_since(uint64_t first) const = 0;
};

inline thread_local Context* t_bound_context = nullptr;

// The context of the interpreter running on this thread, or nullptr.
inline Context* bound_context() { return t_bound_context; }

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
