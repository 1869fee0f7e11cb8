// The embedding API (include/gpy/gpy.h) on top of Interp: running programs,
// rendering errors and tracebacks, REPL support (completeness, completion).
// The host layer: it registers the native modules the language half cannot
// know (the array module, numpy/) in each interpreter it makes.
#include <pthread.h>

#include <cstdlib>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <tuple>

#include "base/interrupt.h"
#include "embed/host_values.h"
#include "runtime/backend.h"
#include "lang/diagnostics.h"
#include "lang/interp.h"
#include "lang/lexer.h"
#include "lang/parser.h"
#include "lang/resolver.h"
#include "numpy/array.h"
#include "numpy/dlpack.h"
#include "numpy/numpy_module.h"
#include "runtime/compile_queue.h"
#include "runtime/cuda_memory.h"

namespace gpy {

const char* version() { return "0.1.0"; }

// Background kernel compiles belong to the array runtime (runtime/compile_queue.h).
void finish_background_work() { finish_background_compiles(); }

static char* compute_stack_limit() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return nullptr;
    void* addr = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    if (!addr || size < (1 << 20)) return nullptr;
    // Keep a quarter of the stack (at least 256 KiB) for raising and unwinding.
    size_t margin = std::max<size_t>(size / 4, 256 << 10);
    return static_cast<char*>(addr) + margin;
}

// This thread's limit, computed once per thread: an interpreter may run on
// several threads in turn, each with its own stack.
static char* thread_stack_limit() {
    static thread_local char* limit = compute_stack_limit();
    return limit;
}

// ---- error rendering ----

// The innermost frame of the user's code in an exception's traceback (a
// library module written in the language is NumPy's inside), or null.
static const Span* user_frame(const ExceptionObj* e) {
    const Span* at = nullptr;
    for (const auto& frame : e->traceback)
        if (frame.span.file && (!at || !frame.span.file->library)) {
            if (!at || at->file->library) at = &frame.span;
            if (!frame.span.file->library) break;
        }
    return at;
}

// str(exc), or a placeholder when that raises.
static std::string exception_message(Interp& in, const Value& exc) {
    try {
        return to_str(in, exc);
    } catch (...) {  // a raise, or a C++ error computing an array in it (MemoryError, CUDA)
        return "<exception str() failed>";
    }
}

// An exception as data (include/gpy/gpy.h ErrorInfo).
static ErrorInfo error_info(Interp& in, const Value& exc) {
    ErrorInfo info;
    info.type = exc.o->type->name;
    info.message = exception_message(in, exc);
    if (const Span* at = user_frame(exc.as<ExceptionObj>())) {
        info.file = at->file->name;
        std::tie(info.line, info.column) = at->file->line_col(at->begin);
    }
    const auto& tb = exc.as<ExceptionObj>()->traceback;  // innermost first
    for (auto it = tb.rbegin(); it != tb.rend(); ++it) {
        if (!it->span.file) continue;
        ErrorInfo::Frame f;
        f.function = it->function;
        f.file = it->span.file->name;
        std::tie(f.line, f.column) = it->span.file->line_col(it->span.begin);
        info.traceback.push_back(std::move(f));
    }
    return info;
}

static std::string exception_text(Interp& in, const Value& exc) {
    const std::string msg = exception_message(in, exc), name = exc.o->type->name;
    return msg.empty() ? name : name + ": " + msg;
}

static void report_exception(Interp& in, const Value& exc) {
    auto* e = exc.as<ExceptionObj>();
    bool color = in.cfg.color;
    std::string out = "Traceback (most recent call last):\n";
    // Runs of the same frame line (deep recursion) collapse after three, as in Python.
    std::string last;
    int repeats = 0;
    auto flush_repeats = [&] {
        if (repeats > 3) out += "  [Previous line repeated " + std::to_string(repeats - 3) + " more times]\n";
        repeats = 0;
    };
    for (auto it = e->traceback.rbegin(); it != e->traceback.rend(); ++it) {
        const Span& s = it->span;
        if (!s.file) continue;
        auto [line, col] = s.file->line_col(s.begin);
        std::string entry = "  " + s.file->name + ":" + std::to_string(line) + ":" + std::to_string(col) + " in " + it->function + "\n";
        if (entry == last) {
            if (++repeats <= 3) out += entry;
            continue;
        }
        flush_repeats();
        out += entry;
        last = entry;
    }
    flush_repeats();
    std::string text = exception_text(in, exc);
    // The caret goes to the innermost frame of the user's code (a library
    // module written in the language is NumPy's inside, not the user's).
    const Span* at = user_frame(e);
    if (at) out += render_diagnostic(*at, "error", text, color);
    else out += "error: " + text + "\n";
    in.write_err(out);
}

struct Interpreter::Impl {
    Interp in;
    // The thread inside a call, and how deep (a host function may call
    // back in): one thread at a time (gpy.h, "Threads").
    std::atomic<std::thread::id> owner{};
    int depth = 0;
    void* host_stream = nullptr;  // use_stream()'s, while it is current
    explicit Impl(Config c) : in(std::move(c)) {
        // One array module under all three names, so NumPy and CuPy scripts run unchanged.
        in.native_modules.push_back({{"numpy", "gpy"}, make_numpy_module});
        in.native_modules.push_back({{"cupy"}, make_cupy_module});
        in.native_modules.push_back({{"cupyx"}, make_cupyx_module});
    }

    Result handle_exception(const Value& exc) {
        auto* e = exc.as<ExceptionObj>();
        if (e->type->is_subtype_of(types::SystemExit)) {
            auto& args = e->args.as<TupleObj>()->items;
            if (args.empty() || args[0].is_none()) return {Status::Exit, 0};
            if (args[0].is_intlike()) return {Status::Exit, int(args[0].as_int())};
            in.write_err(exception_message(in, args[0]) + "\n");
            return {Status::Exit, 1};
        }
        report_exception(in, exc);
        return {Status::RuntimeError, e->type == types::KeyboardInterrupt ? 130 : 1, error_info(in, exc)};
    }

    // Marks the calling thread as the one inside the interpreter for a scope.
    struct Entry {
        Impl& m;
        explicit Entry(Impl& impl) : m(impl) {
            const std::thread::id me = std::this_thread::get_id();
            if (m.owner.load(std::memory_order_acquire) == me) {
                ++m.depth;
                return;
            }
            std::thread::id nobody;
            if (!m.owner.compare_exchange_strong(nobody, me, std::memory_order_acq_rel))
                throw BusyError("gpy: this interpreter is running a call on another thread (an interpreter runs one call at a time)");
            m.depth = 1;
        }
        ~Entry() {
            if (--m.depth == 0) m.owner.store(std::thread::id(), std::memory_order_release);
        }
    };

    // Runs f with this interpreter bound to the thread (stack limit, Ctrl-C
    // flag, array context), the array module imported first when `arrays`;
    // the script's exception comes out as ScriptError.
    template <class F>
    auto with_interp(bool arrays, F&& f) -> decltype(f()) {
        Entry entry(*this);
        in.native_stack_limit = thread_stack_limit();
        InterruptScope interrupt_scope(&in.interrupted);
        // (Restores the thread's binding at the end: importing the array
        // module binds the context it makes.)
        ContextScope restore(nullptr);
        try {
            if (arrays && !in.array_context) in.import_module("numpy");
            ContextScope context_scope(in.array_context.get());
            return f();
        } catch (GpyError& e) {
            in.handling.clear();
            throw ScriptError(error_info(in, e.exc));
        } catch (const ScriptError&) {
            throw;
        } catch (const std::exception& e) {
            throw ScriptError(error_info(in, python_error_from(e).exc));
        }
    }

    Result run(std::string source, std::string name, bool interactive) {
        std::optional<Entry> entry;
        try {
            entry.emplace(*this);
        } catch (const BusyError& e) {
            // (Not through write_err: the output buffer is the other thread's.)
            std::string text = std::string(e.what()) + "\n";
            if (in.cfg.err) in.cfg.err(text);
            else std::fwrite(text.data(), 1, text.size(), stderr);
            return {Status::RuntimeError, 1, ErrorInfo{"RuntimeError", e.what(), "", 0, 0}};
        }
        in.native_stack_limit = thread_stack_limit();
        in.interrupted = 0;  // a Ctrl-C that arrived between two inputs is not for this one
        std::shared_ptr<Program> prog;
        // The file outlives the parse: a SyntaxError's span points into it.
        auto file = std::make_shared<SourceFile>(std::move(name), std::move(source));
        try {
            ParseOptions opts;
            opts.interactive = interactive;
            prog = parse_program(file, opts);
            resolve_program(*prog, *in.main, [this](const std::string& n) -> const Value* {
                auto it = in.builtins.find(n);
                return it == in.builtins.end() ? nullptr : &it->second;
            });
        } catch (const SyntaxError& e) {
            in.write_err(render_syntax_error(e, in.cfg.color));
            ErrorInfo info{"SyntaxError", e.message, e.span.file ? e.span.file->name : std::string(), 0, 0};
            if (e.span.file) std::tie(info.line, info.column) = e.span.file->line_col(e.span.begin);
            return {Status::SyntaxError, 2, info};
        }
        in.programs.push_back(prog);
        Result r;
        InterruptScope interrupt_scope(&in.interrupted);  // native work on this thread polls our Ctrl-C flag
        ContextScope context_scope(in.array_context.get());  // array work on this thread is ours (base/context.h)
        try {
            in.exec_program(prog);
            // The end of a script or REPL input computes what is still
            // pending (an error in it surfaces now) and waits for the GPU.
            if (in.synchronize_hook) in.synchronize_hook();
        } catch (GpyError& e) {
            r = handle_exception(e.exc);
        } catch (const std::exception& e) {
            // Raised outside any frame (the synchronize hook at the end).
            r = handle_exception(python_error_from(e).exc);
        }
        in.interrupted = 0;
        in.handling.clear();
        in.flush_out();
        return r;
    }
};

Config Config::from_environment() {
    Config c;
    auto env = [](const char* name) -> std::string {
        const char* v = std::getenv(name);
        return v ? v : "";
    };
    if (std::string b = env("GPY_BACKEND"); b == "cpu" || b == "cuda") c.backend = b;
    c.fast_math = env("GPY_FAST_MATH") == "1";
    c.check_kernels = env("GPY_CHECK_KERNELS") == "1";
    c.debug = std::atoi(env("GPY_DEBUG").c_str());
    c.lazy = env("GPY_LAZY") != "0";
    c.numpy_py_dir = env("GPY_NUMPY_PY_DIR");
    return c;
}

Interpreter::Interpreter(Config config) {
    // A backend that cannot be had is the embedder's error now, not a
    // silent CPU run at the first import.
    if (config.backend == "cuda") {
        BackendChoice c = choose_backend(config.backend, config.device);
        if (!c.error.empty()) throw std::runtime_error("gpy::Interpreter: " + c.error);
    }
    impl_ = std::make_unique<Impl>(std::move(config));
}

void Interpreter::set(std::string_view name, const HostValue& value) {
    Impl& m = *impl_;
    m.with_interp(value.index() == 5, [&] {
        m.in.main->set(std::string(name), script_value(m.in, value));
        return 0;
    });
}

std::optional<HostValue> Interpreter::get(std::string_view name) {
    Impl& m = *impl_;
    Impl::Entry entry(m);
    const Value* v = m.in.main->get(std::string(name));
    if (!v) return std::nullopt;
    Value held = *v;
    return m.with_interp(false, [&] { return std::optional<HostValue>(host_value(m.in, held)); });
}

void Interpreter::define(std::string_view name, HostFunction fn) {
    Impl::Entry entry(*impl_);
    impl_->in.main->set(std::string(name), host_function(std::string(name), std::move(fn)));
}

namespace {
// Calls a DLPack tensor's deleter unless the tensor was handed on.
template <class Tensor>
struct TensorGuard {
    Tensor* t;
    ~TensorGuard() {
        if (t && t->deleter) t->deleter(t);
    }
    Tensor* release() { return std::exchange(t, nullptr); }
};
}  // namespace

template <class Tensor>
static void set_tensor(Interpreter::Impl& m, std::string_view name, Tensor* tensor) {
    TensorGuard<Tensor> guard{tensor};  // owned from the call on, even when it fails before the import
    m.with_interp(true, [&] {
        m.in.main->set(std::string(name), array_from_dlpack(guard.release()));
        return 0;
    });
}
void Interpreter::set_dlpack(std::string_view name, DLManagedTensorVersioned* t) { set_tensor(*impl_, name, t); }
void Interpreter::set_dlpack(std::string_view name, DLManagedTensor* t) { set_tensor(*impl_, name, t); }

template <class Make>
static auto get_tensor(Interpreter::Impl& m, std::string_view name, Make make) -> decltype(make(nullptr)) {
    Interpreter::Impl::Entry entry(m);
    const Value* v = m.in.main->get(std::string(name));
    if (!v) return nullptr;
    Value held = *v;
    return m.with_interp(false, [&] {
        ArrayObj* a = as_array(held);
        if (!a) raise(types::TypeError, "'" + std::string(name) + "' is a '" + type_name(held) + "', not an array");
        auto* t = make(a);
        // The host reads at once: gpy's queued work on the array finishes
        // first, unless it went to the host's own stream.
        if (a->buffer->device == DeviceKind::CUDA && (!m.host_stream || current_stream() != m.host_stream)) {
            try {
                GPY_CU(cuStreamSynchronize(current_stream()));
            } catch (...) {
                t->deleter(t);
                throw;
            }
        }
        return t;
    });
}
DLManagedTensorVersioned* Interpreter::get_dlpack_versioned(std::string_view name) {
    return get_tensor(*impl_, name, [](ArrayObj* a) { return dlpack_versioned_from_array(a); });
}
DLManagedTensor* Interpreter::get_dlpack(std::string_view name) {
    return get_tensor(*impl_, name, [](ArrayObj* a) { return dlpack_from_array(a); });
}

void Interpreter::use_stream(void* stream) {
    Impl& m = *impl_;
    if (!m.with_interp(true, [] { return array_device_kind() == DeviceKind::CUDA; }))
        throw std::logic_error("gpy: use_stream needs an interpreter on a GPU (this one runs on the CPU)");
    m.with_interp(true, [&] {
        // Through the language, so the script's get_current_stream() and
        // `with stream:` blocks see it.
        Value cuda = get_attr(m.in, Value::object(m.in.import_module("numpy")), "cuda");
        Value s = stream ? m.in.call1(get_attr(m.in, cuda, "ExternalStream"), Value::integer(int64_t(reinterpret_cast<uintptr_t>(stream))))
                         : get_attr(m.in, get_attr(m.in, cuda, "Stream"), "null");
        m.in.call0(get_attr(m.in, s, "use"));
        m.host_stream = stream;
        return 0;
    });
}

Interpreter::Function Interpreter::function(std::string_view name) {
    Impl::Entry entry(*impl_);
    const Value* f = impl_->in.main->get(std::string(name));
    if (!f) throw ScriptError(ErrorInfo{"NameError", "name '" + std::string(name) + "' is not defined", "", 0, 0});
    Function h;
    h.ref_ = std::make_shared<Value>(*f);
    return h;
}

HostValue Interpreter::call(const Function& f, const std::vector<HostValue>& args) {
    if (!f) throw std::invalid_argument("gpy::Interpreter::call: an empty Function handle");
    Impl::Entry entry(*impl_);
    return call_value(*static_cast<const Value*>(f.ref_.get()), args);
}

HostValue Interpreter::call(std::string_view name, const std::vector<HostValue>& args) {
    Impl::Entry entry(*impl_);
    const Value* f = impl_->in.main->get(std::string(name));
    if (!f) throw ScriptError(ErrorInfo{"NameError", "name '" + std::string(name) + "' is not defined", "", 0, 0});
    return call_value(*f, args);
}

HostValue Interpreter::call_value(const Value& fn, const std::vector<HostValue>& args) {
    Impl& m = *impl_;
    Impl::Entry entry(m);
    Value callee = fn;
    bool arrays = false;
    for (const HostValue& a : args) arrays = arrays || a.index() == 5;
    return m.with_interp(arrays, [&] {
        std::vector<Value> values;
        for (const HostValue& a : args) values.push_back(script_value(m.in, a));
        CallArgs ca{values.data(), values.size(), nullptr};
        Value r = m.in.call(callee, ca);
        return host_value(m.in, r);
    });
}
Interpreter::~Interpreter() {
    ContextScope bound(impl_->in.array_context.get());  // the objects freed now may touch it
    // --profile: the interpreter's kernel table, after everything it printed.
    if (const Context* c = impl_->in.array_context.get())
        if (std::string table = c->profile_report(); !table.empty()) impl_->in.write_err(table);
    impl_.reset();
}

uint64_t Interpreter::kernels_launched() const {
    const Context* c = impl_->in.array_context.get();
    return c ? c->kernels_launched() : 0;
}

std::vector<Interpreter::KernelInfo> Interpreter::kernels_since(uint64_t first) const {
    std::vector<KernelInfo> out;
    if (const Context* c = impl_->in.array_context.get())
        for (KernelRecord& k : c->kernels_since(first)) out.push_back({k.number, std::move(k.name), std::move(k.summary)});
    return out;
}

const Config& Interpreter::config() const { return impl_->in.cfg; }

Result Interpreter::run_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        impl_->in.write_err("gpy: can't open file '" + path + "': No such file or directory\n");
        return {Status::SyntaxError, 2};
    }
    std::stringstream ss;
    ss << f.rdbuf();
    return impl_->run(ss.str(), path, false);
}

Result Interpreter::run_string(std::string_view source, std::string_view filename) {
    return impl_->run(std::string(source), std::string(filename), false);
}

Result Interpreter::run_interactive(std::string_view source) {
    return impl_->run(std::string(source), "<stdin>", true);
}

InputState Interpreter::check_input(std::string_view source) {
    std::string text(source);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return InputState::Complete;
    std::shared_ptr<Program> prog;
    try {
        prog = parse_program(std::make_shared<SourceFile>("<stdin>", text), {});
    } catch (const SyntaxError& e) {
        return e.incomplete ? InputState::Incomplete : InputState::Invalid;
    }
    // A compound statement (if/def/for/...) continues until an empty line, as in Python's REPL.
    bool compound = false;
    if (!prog->body.empty()) {
        switch (prog->body.back()->kind) {
            case SK::If: case SK::While: case SK::For: case SK::FunctionDef: case SK::Try: case SK::With: compound = true; break;
            default: break;
        }
    }
    if (!compound) return InputState::Complete;
    size_t end = text.find_last_not_of(" \t\r");
    bool ends_blank = end != std::string::npos && text.size() >= 2 && text[end] == '\n' &&
                      text.substr(0, end).find_last_not_of(" \t\r") != std::string::npos &&
                      text[text.substr(0, end).find_last_not_of(" \t\r")] == '\n';
    return ends_blank ? InputState::Complete : InputState::Incomplete;
}

std::vector<std::string> Interpreter::complete(std::string_view line) {
    Impl::Entry entry(*impl_);
    Interp& in = impl_->in;
    ContextScope bound(in.array_context.get());  // an attribute may compute an array
    size_t b = line.size();
    while (b > 0 && (std::isalnum(uint8_t(line[b - 1])) || line[b - 1] == '_' || line[b - 1] == '.')) --b;
    std::string chain(line.substr(b));
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t dot = chain.find('.', start);
        parts.push_back(chain.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    std::string prefix = parts.back();
    std::vector<std::string> names;
    std::string head(line.substr(0, b));
    size_t first = head.find_first_not_of(" \t");
    head = first == std::string::npos ? "" : head.substr(first);
    if (head == "import " || head == "from " || (head.rfind("import ", 0) == 0 && head.back() == ' ' && head.find(',') != std::string::npos)) {
        // After `import` / `from`: module names.
        for (const char* m : {"math", "cmath", "time", "sys", "itertools", "functools", "bisect", "heapq", "random", "json", "operator", "copy", "string", "collections", "dataclasses", "typing", "numpy", "cupy", "cupyx", "gpy"})
            if (chain.find('.') == std::string::npos && std::string(m).rfind(prefix, 0) == 0) names.push_back(m);
        return names;
    }
    if (parts.size() == 1) {
        for (size_t k = 0; k < in.main->names.size(); ++k)
            if (!in.main->values[k].is_undef()) names.push_back(in.main->names[k]);
        for (auto& [n, v] : in.builtins) names.push_back(n);
        for (auto& kw : keyword_list()) names.push_back(kw);
    } else {
        try {
            const Value* root = in.main->get(parts[0]);
            if (!root) {
                auto it = in.builtins.find(parts[0]);
                if (it == in.builtins.end()) return {};
                root = &it->second;
            }
            Value cur = *root;
            for (size_t k = 1; k + 1 < parts.size(); ++k) cur = get_attr(in, cur, parts[k]);
            names = attribute_names(in, cur);
        } catch (...) {
            return {};
        }
    }
    std::vector<std::string> out;
    for (auto& n : names)
        if (n.compare(0, prefix.size(), prefix) == 0 && (prefix.rfind("_", 0) == 0 || n.rfind("_", 0) != 0)) out.push_back(n);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string Interpreter::help_text(std::string_view name) {
    Impl::Entry entry(*impl_);
    Interp& in = impl_->in;
    ContextScope bound(in.array_context.get());  // repr of an array computes it
    const Value* v = in.main->get(std::string(name));
    if (!v) {
        auto it = in.builtins.find(std::string(name));
        if (it == in.builtins.end()) return "";
        v = &it->second;
    }
    if (is_kind(*v, OK::Builtin)) return v->as<BuiltinObj>()->signature + "\n    " + v->as<BuiltinObj>()->doc;
    if (is_kind(*v, OK::Function)) return function_signature(*v->as<FunctionObj>()->info);
    if (is_kind(*v, OK::Type)) return "class " + v->as<TypeObject>()->name;
    return repr(in, *v);
}

void Interpreter::interrupt() { impl_->in.interrupted = 1; }

}  // namespace gpy
