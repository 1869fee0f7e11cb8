#include "repl/sigint.h"

#include <cstring>
#include <pthread.h>

#include "gpy/gpy.h"

namespace gpy::repl {
namespace {

// Signal handlers can only reach globals. These are the whole shared state and
// are touched by the handler only through sig_atomic_t and a pointer that is
// set before the handler is installed.
volatile std::sig_atomic_t g_running = 0;
volatile std::sig_atomic_t g_pending = 0;
Interpreter* volatile g_interp = nullptr;
// The thread running the REPL. A process-directed SIGINT may be delivered to
// any thread that does not block it (gpy's CLI runs the interpreter on a big-
// stack worker thread while main waits in pthread_join); only a signal on the
// REPL thread makes its blocked read() fail with EINTR, so forward it there.
pthread_t g_repl_thread;

extern "C" void on_sigint(int) {
    if (!pthread_equal(pthread_self(), g_repl_thread)) {
        pthread_kill(g_repl_thread, SIGINT);  // async-signal-safe
        return;
    }
    if (g_running && g_interp != nullptr)
        g_interp->interrupt();  // documented as async-signal-safe
    else
        g_pending = 1;
}

void install(bool restart, struct sigaction* previous) {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = restart ? SA_RESTART : 0;
    sigaction(SIGINT, &sa, previous);
}

}  // namespace

SigintGuard::SigintGuard(Interpreter& interp) {
    g_repl_thread = pthread_self();
    g_interp = &interp;
    g_running = 0;
    g_pending = 0;
    install(false, &previous_);
}

SigintGuard::~SigintGuard() {
    sigaction(SIGINT, &previous_, nullptr);
    g_running = 0;
    g_interp = nullptr;
}

void SigintGuard::enter_reading() {
    g_running = 0;
    install(false, nullptr);
}

void SigintGuard::enter_running() {
    // A Ctrl-C typed after the line was accepted but before we got here
    // belongs to the input that is now finished: drop it.
    g_pending = 0;
    install(true, nullptr);
    g_running = 1;
}

bool sigint_pending() { return g_pending != 0; }

bool take_sigint() {
    bool was = g_pending != 0;
    g_pending = 0;
    return was;
}

}  // namespace gpy::repl
