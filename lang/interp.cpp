// The interpreter state (lang/interp.h): construction, the tick that checks
// Ctrl-C and the step budget, output buffering, the native stack check.
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "lang/interp.h"
#include "lang/diagnostics.h"
#include "lang/parser.h"
#include "lang/resolver.h"

namespace gpy {

constexpr long long kTickBatch = 4096;  // loop iterations between interrupt checks

Interp::Interp(Config c) : cfg(std::move(c)) {
    types::init();
    stack.resize(1 << 17);  // 2 MiB of frame slots: ~130 slots per frame at the default recursion limit
    recursion_limit = cfg.recursion_limit > 0 ? cfg.recursion_limit : 1000;
    main = Ref<ModuleObj>(new ModuleObj("__main__"));
    line_buffered = cfg.out || isatty(STDOUT_FILENO);
    install_builtins(*this);
    main->set("__name__", make_str("__main__"));
    steps_left = cfg.max_steps;
    countdown = cfg.max_steps > 0 ? std::min(kTickBatch, cfg.max_steps) : kTickBatch;
}

Interp::~Interp() {
    shutting_down = true;  // (a suspended generator dropped now is not resumed to unwind)
    flush_out();
    // Break the common reference cycle: functions point at the module that holds them.
    for (auto& v : main->values) v = Value();
    for (auto& [n, m] : modules)
        for (auto& v : m->values) v = Value();
}

void Interp::slow_tick() {
    countdown = kTickBatch;
    if (interrupted) {
        interrupted = 0;
        raise(types::KeyboardInterrupt, "");
    }
    if (cfg.max_steps > 0) {
        steps_left -= kTickBatch;
        if (steps_left <= 0) {
            steps_left = cfg.max_steps;
            raise(types::RuntimeError, "step limit exceeded (max_steps=" + std::to_string(cfg.max_steps) + ")");
        }
    }
}

void Interp::flush_out() {
    if (outbuf.empty()) return;
    if (cfg.out) cfg.out(outbuf);
    else {
        std::fwrite(outbuf.data(), 1, outbuf.size(), stdout);
        std::fflush(stdout);
    }
    outbuf.clear();
}

void Interp::flush_lines() {
    size_t end = outbuf.rfind('\n');
    if (end == std::string::npos) return;
    std::string rest = outbuf.substr(end + 1);
    outbuf.resize(end + 1);
    flush_out();
    outbuf = std::move(rest);
}

void Interp::write_err(std::string_view s) {
    flush_out();
    if (cfg.err) cfg.err(s);
    else {
        std::fwrite(s.data(), 1, s.size(), stderr);
        std::fflush(stderr);
    }
}

// The C++ stack is finite; deep recursion (of gpy code, or of repr on nested
// containers) raises RecursionError well before it would overflow.
void Interp::check_native_stack() {
    // The frame address, not a local's: sanitizers may move locals to a fake stack.
    char* here = static_cast<char*>(__builtin_frame_address(0));
    if (native_stack_limit && here < native_stack_limit) raise(types::RecursionError, "maximum recursion depth exceeded");
}

void Interp::run_in_module(ModuleObj* module, const std::string& filename, std::string source) {
    auto file = std::make_shared<SourceFile>(filename, std::move(source));
    file->library = true;
    std::shared_ptr<Program> prog;
    try {
        prog = parse_program(file, {});
    } catch (const SyntaxError& e) {
        throw std::logic_error("a syntax error in " + filename + ": " + render_syntax_error(e, false));
    }
    resolve_program(*prog, *module, [this](const std::string& n) -> const Value* {
        auto it = builtins.find(n);
        return it == builtins.end() ? nullptr : &it->second;
    });
    programs.push_back(prog);
    exec_program(prog, module);
}

}  // namespace gpy
