// gpy [options] [script.gpy | -c CODE | -] [args...]
#include <pthread.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <dlfcn.h>
#include <execinfo.h>
#include <ucontext.h>
#include <cstdio>
#include <cstring>
#include <optional>
#include <iostream>
#include <iterator>
#include <string>

#include "gpy/gpy.h"
#include "repl/repl.h"
#include "runtime/backend.h"
#include "runtime/nvrtc.h"

namespace {

struct Options {
    std::string code;
    std::string script;
    std::vector<std::string> args;
    bool interactive = false;
    bool verbose = false;
    bool profile = false;
    bool fast_math = false;
    bool check_kernels = false;
    std::string backend = "auto";
    int device = 0;
    std::string cache_dir, dump_kernels;
    std::string color = "auto";
};

// Ctrl-C while a script runs: the interpreter raises KeyboardInterrupt at
// its next safe point, so `except KeyboardInterrupt` and `finally` run and
// an uncaught one exits with 130, as CPython does. (The REPL installs its own
// handler, repl/sigint.cpp.) A second Ctrl-C before the first was taken
// changes nothing; the process never dies of the signal.
gpy::Interpreter* volatile g_script_interp = nullptr;

extern "C" void on_script_sigint(int) {
    if (gpy::Interpreter* in = g_script_interp) in->interrupt();  // async-signal-safe
}

struct ScriptSigint {
    struct sigaction previous {};
    explicit ScriptSigint(gpy::Interpreter& in) {
        g_script_interp = &in;
        struct sigaction sa {};
        sa.sa_handler = on_script_sigint;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;  // the program's own writes are not cut short; sleep polls the flag
        sigaction(SIGINT, &sa, &previous);
    }
    ~ScriptSigint() {
        sigaction(SIGINT, &previous, nullptr);
        g_script_interp = nullptr;
    }
};

struct Job {
    Options* opts;
    int exit_code = 0;
};

int run(Options& o) {
    gpy::Config cfg = gpy::Config::from_environment();
    cfg.fast_math = cfg.fast_math || o.fast_math;
    if (o.backend != "auto") cfg.backend = o.backend;  // the option wins over GPY_BACKEND
    // --check-kernels runs raw kernels on the CPU, so the script runs there.
    cfg.check_kernels = cfg.check_kernels || o.check_kernels;
    if (cfg.check_kernels) {
        if (o.backend == "cuda") {
            std::fprintf(stderr, "gpy: error: --check-kernels runs raw kernels on the CPU backend; it cannot be used with --backend cuda\n");
            return 2;
        }
        cfg.backend = "cpu";
    }
    cfg.device = o.device;
    cfg.cache_dir = o.cache_dir;
    cfg.dump_kernels_dir = o.dump_kernels;
    cfg.verbose = o.verbose;
    cfg.profile = o.profile;
    cfg.color = o.color == "always" || (o.color == "auto" && isatty(2) && std::getenv("NO_COLOR") == nullptr);
    gpy::BackendChoice backend = gpy::choose_backend(cfg.backend, o.device);
    if (!backend.error.empty()) {
        std::fprintf(stderr, "gpy: error: %s\n", backend.error.c_str());
        return 2;
    }
    if (o.verbose) std::fprintf(stderr, "gpy: backend: %s\n", backend.description.c_str());

    if (!o.code.empty()) {
        cfg.argv = {"-c"};
    } else if (!o.script.empty()) {
        cfg.argv = {o.script};
    }
    cfg.argv.insert(cfg.argv.end(), o.args.begin(), o.args.end());
    gpy::Interpreter interp(cfg);
    gpy::ReplOptions ropts;
    ropts.banner_extra = "backend: " + backend.name;
    if (!backend.note.empty()) ropts.banner_extra += "; " + backend.note;

    gpy::Result r;
    std::optional<ScriptSigint> sigint;
    if (!o.code.empty() || !o.script.empty() || (!isatty(0) && !o.interactive)) sigint.emplace(interp);
    if (!o.code.empty()) {
        r = interp.run_string(o.code, "<string>");
    } else if (o.script == "-" || (o.script.empty() && !isatty(0) && !o.interactive)) {
        // A program on standard input (a pipe or a file), run as one script.
        std::string src((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        r = interp.run_string(src, "<stdin>");
    } else if (!o.script.empty()) {
        r = interp.run_file(o.script);
    } else {
        if (backend.name == "cuda") gpy::nvrtc::warm_up_in_background("sm_80");  // any arch: the set-up is the same
        return gpy::run_repl(interp, ropts);
    }
    sigint.reset();
    if (o.interactive && r.status != gpy::Status::Exit && r.status != gpy::Status::SyntaxError) {
        ropts.show_banner = false;
        return gpy::run_repl(interp, ropts);
    }
    return r.exit_code;
}

// The interpreter runs on a thread with a large stack so that deep (but
// legal) recursion and deeply nested data never hit the 8 MiB main stack.
void* thread_main(void* p) {
    auto* job = static_cast<Job*>(p);
    job->exit_code = run(*job->opts);
    return nullptr;
}

// A crash (a bug in gpy: bad input raises Python exceptions) says so and
// where, then dies of the same signal: the frames' addresses resolve with
// addr2line against the same build, also for a stripped binary. A jump to a
// bad address (a dangling function pointer) unwinds no further: the words
// at the stack pointer (the caller's return address first) are printed too.
void write_hex(const char* label, uint64_t v) {
    char buf[64];
    int n = 0;
    for (const char* c = label; *c; ++c) buf[n++] = *c;
    buf[n++] = '0';
    buf[n++] = 'x';
    for (int shift = 60; shift >= 0; shift -= 4) buf[n++] = "0123456789abcdef"[(v >> shift) & 15];
    buf[n++] = '\n';
    ssize_t ignored = write(STDERR_FILENO, buf, size_t(n));
    (void)ignored;
}

void report_crash(int sig, siginfo_t* info, void* context) {
    static const char head[] = "gpy: internal error: fatal signal; native stack (addr2line -f -C -e <gpy> <offsets>):\n";
    ssize_t ignored = write(STDERR_FILENO, head, sizeof head - 1);
    (void)ignored;
    void* frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
#if defined(__x86_64__)
    const auto* uc = static_cast<const ucontext_t*>(context);
    write_hex("pc ", uint64_t(uc->uc_mcontext.gregs[REG_RIP]));
    write_hex("fault address ", uint64_t(reinterpret_cast<uintptr_t>(info->si_addr)));
    // The stack's words that point into a loaded object (return addresses,
    // most of them), as offsets in it: the caller chain of a frame without
    // unwind information (JIT-compiled code).
    const auto* sp = reinterpret_cast<const uint64_t*>(uc->uc_mcontext.gregs[REG_RSP]);
    for (int k = 0; k < 256; ++k) {
        Dl_info where;
        if (dladdr(reinterpret_cast<void*>(sp[k]), &where) && where.dli_fbase && where.dli_fname) {
            ssize_t w = write(STDERR_FILENO, where.dli_fname, strlen(where.dli_fname));
            (void)w;
            write_hex(" +", sp[k] - uint64_t(reinterpret_cast<uintptr_t>(where.dli_fbase)));
        }
    }
#else
    (void)info;
    (void)context;
#endif
    signal(sig, SIG_DFL);
    raise(sig);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define GPY_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GPY_SANITIZED 1
#endif

void install_crash_report() {
#ifndef GPY_SANITIZED  // under ASan/UBSan their own reports say more
    void* warm[1];
    backtrace(warm, 1);  // loads libgcc's unwinder now, not inside the handler
    struct sigaction sa = {};
    sa.sa_sigaction = report_crash;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigaction(sig, &sa, nullptr);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    install_crash_report();
    CLI::App app{"gpy: a NumPy-flavoured array language for GPUs"};
    app.set_version_flag("--version,-V", std::string("gpy ") + gpy::version());
    Options o;
    app.add_option("-c", o.code, "Program passed in as a string");
    app.add_flag("-i", o.interactive, "Start the REPL after running the script");
    app.add_option("--backend", o.backend, "Where arrays run: auto (GPU if usable), cpu or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    app.add_option("--device", o.device, "CUDA device ordinal to start on")->check(CLI::NonNegativeNumber);
    app.add_option("--cache-dir", o.cache_dir, "Kernel cache directory (default: $GPY_CACHE_DIR or ~/.cache/gpy)");
    app.add_option("--dump-kernels", o.dump_kernels, "Write every generated kernel's source to this directory");
    app.add_flag("--verbose,-v", o.verbose, "Say which backend runs and why");
    app.add_flag("--fast-math", o.fast_math,
                 "GPU kernels with approximate division, sqrt, exp/log/sin/cos and FMA (as torch.compile); = GPY_FAST_MATH=1");
    app.add_flag("--check-kernels", o.check_kernels,
                 "Run raw CUDA kernels on the CPU with every access through a pointer parameter checked against its array "
                 "(IndexError naming the thread, block and line); = GPY_CHECK_KERNELS=1");
    app.add_flag("--profile", o.profile, "Print a per-kernel table at exit: launches, time, bytes moved, GB/s (waits for each kernel)");
    app.add_option("--color", o.color, "Colour diagnostics: auto, always, never")->check(CLI::IsMember({"auto", "always", "never"}));
    app.add_option("script", o.script, "Script to run ('-' reads the program from standard input)");
    app.add_option("args", o.args, "Arguments for the script (sys.argv[1:])");
    app.prefix_command(false);
    app.allow_extras(false);
    // Everything after the script name belongs to the script, even if it looks like an option.
    int split = argc;
    for (int k = 1; k < argc; ++k) {
        std::string a = argv[k];
        if (a == "-c" || a == "--backend" || a == "--device" || a == "--cache-dir" || a == "--dump-kernels" || a == "--color") {
            if (a == "-c") { split = std::min(argc, k + 2); break; }
            ++k;
            continue;
        }
        if (a == "-" || a.empty() || a[0] != '-') { split = k + 1; break; }
    }
    try {
        app.parse(split, argv);
    } catch (const CLI::ParseError& e) {
        int rc = app.exit(e);
        return rc == 0 ? 0 : 2;
    }
    for (int k = split; k < argc; ++k) o.args.push_back(argv[k]);

    Job job{&o};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(256) << 20);
    pthread_t t;
    if (pthread_create(&t, &attr, thread_main, &job) != 0) return run(o);
    pthread_join(t, nullptr);
    pthread_attr_destroy(&attr);
    // Kernel compiles still running in the background finish (into the disk
    // cache) while every static they use is alive.
    gpy::finish_background_work();
    return job.exit_code;
}
