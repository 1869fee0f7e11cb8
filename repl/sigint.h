// SIGINT routing for the REPL. One Ctrl-C means different things depending on
// what the REPL is doing: while a line is being read it cancels the input;
// while a statement runs it asks the interpreter to raise KeyboardInterrupt.
#pragma once

#include <csignal>

namespace gpy {

class Interpreter;

namespace repl {

// Installs the handler for its lifetime and restores the previous one after.
// Only one guard may be alive at a time (signal dispositions are per process).
class SigintGuard {
public:
    explicit SigintGuard(Interpreter& interp);
    ~SigintGuard();
    SigintGuard(const SigintGuard&) = delete;
    SigintGuard& operator=(const SigintGuard&) = delete;

    // Reading: installed without SA_RESTART, so a blocked read() fails with
    // EINTR and the line reader can give up the line.
    void enter_reading();
    // Running: installed with SA_RESTART so that the statement's own writes
    // are not cut short; the handler calls Interpreter::interrupt().
    void enter_running();

private:
    struct sigaction previous_{};
};

// True when a Ctrl-C arrived while reading and has not been taken yet.
// Async-signal-safe to call (reads a sig_atomic_t).
bool sigint_pending();
// Returns sigint_pending() and clears it.
bool take_sigint();

}  // namespace repl
}  // namespace gpy
