// Ctrl-C reaching native work. The interpreter running on a thread points
// t_interrupt_flag at its own flag (which its SIGINT handler sets) while it
// runs code; long native loops on that thread (CPU kernels, waits for the GPU
// or for a compile) poll it between pieces of work and throw Interrupted,
// which the interpreter raises as KeyboardInterrupt. Header-only, shared by
// the layers that cannot include each other (lang and runtime).
#pragma once

#include <csignal>
#include <exception>

namespace gpy {

struct Interrupted : std::exception {
    const char* what() const noexcept override { return "KeyboardInterrupt"; }
};

inline thread_local volatile std::sig_atomic_t* t_interrupt_flag = nullptr;

inline bool interrupt_requested() {
    volatile std::sig_atomic_t* f = t_interrupt_flag;
    return f && *f;
}

// Sets this thread's flag for a scope (an interpreter's run), restoring the
// outer one after (an embedder may run one interpreter inside another's call).
struct InterruptScope {
    volatile std::sig_atomic_t* saved;
    explicit InterruptScope(volatile std::sig_atomic_t* f) : saved(t_interrupt_flag) { t_interrupt_flag = f; }
    ~InterruptScope() { t_interrupt_flag = saved; }
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;
};

}  // namespace gpy
