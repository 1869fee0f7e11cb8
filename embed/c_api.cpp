// The C ABI (include/gpy/gpy_c.h) over the C++ API (include/gpy/gpy.h): a
// gpy_interp is an Interpreter plus the strings the last call handed out.
// No C++ exception crosses the boundary: each entry point catches and
// returns its failure as a code and gpy_last_error's text.
#include "gpy/gpy_c.h"

#include <atomic>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <thread>

#include "gpy/gpy.h"

struct gpy_interp {
    std::unique_ptr<gpy::Interpreter> interp;
    std::string error_text;  // gpy_last_error
    gpy::ErrorInfo error;    // gpy_last_error_info's parts
    gpy_error error_view{};
    std::deque<std::string> strings;  // handed-out strings, valid until the next call
    // Inside a host function: the exception it asked for (gpy_raise).
    std::string raise_type, raise_message;
    bool raised = false;
    // The thread inside a call and how deep (a host function may call back
    // in): a second thread is turned away before it touches anything.
    std::atomic<std::thread::id> owner{};
    int depth = 0;
};

struct gpy_function {
    gpy::Interpreter::Function f;
};

namespace {

thread_local std::string t_new_error;  // gpy_new's failure on this thread

// The error's one-line form: "file:line:col: error: Type: message".
std::string error_line(const gpy::ErrorInfo& e) {
    std::string text = e.type.empty() ? e.message : e.message.empty() ? e.type : e.type + ": " + e.message;
    if (e.file.empty()) return "error: " + text;
    return e.file + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": error: " + text;
}

// A thread turned away by a busy interpreter: its gpy_last_error(g) says
// so (the interpreter's own error belongs to the thread inside it).
thread_local gpy_interp* t_busy = nullptr;
const char* const kBusyText =
    "error: RuntimeError: gpy: this interpreter is running a call on another thread (an interpreter runs one call at a time)";
constexpr int kBusy = -2;

// One call into g, on this thread. The outermost call drops the previous
// call's strings; every call drops the previous error. `ok` is false when
// another thread is inside g: then nothing of g was touched.
struct Call {
    gpy_interp* g;
    bool ok = false;
    explicit Call(gpy_interp* interp) : g(interp) {
        if (!g) return;
        const std::thread::id me = std::this_thread::get_id();
        if (g->owner.load(std::memory_order_acquire) == me) {
            ++g->depth;
        } else {
            std::thread::id nobody;
            if (!g->owner.compare_exchange_strong(nobody, me, std::memory_order_acq_rel)) {
                t_busy = g;
                return;
            }
            g->depth = 1;
            g->strings.clear();  // (a host function's string arguments live until its call ends)
        }
        if (t_busy == g) t_busy = nullptr;
        ok = true;
        g->error = {};
        g->error_text.clear();
    }
    ~Call() {
        if (ok && --g->depth == 0) g->owner.store(std::thread::id(), std::memory_order_release);
    }
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;
};

int fail(gpy_interp* g, gpy::ErrorInfo info, int code = 1) {
    g->error = std::move(info);
    g->error_text = error_line(g->error);
    return code;
}

// Runs f (a call on the C++ API) inside a Call, turning what it throws into a code.
template <class F>
int guarded(gpy_interp* g, F&& f) {
    if (!g) return -1;
    Call call(g);
    if (!call.ok) return kBusy;
    try {
        f();
        return 0;
    } catch (const gpy::ScriptError& e) {
        return fail(g, e.info);
    } catch (const gpy::BusyError& e) {
        return fail(g, {"RuntimeError", e.what(), "", 0, 0});
    } catch (const std::bad_alloc&) {
        return fail(g, {"MemoryError", "out of memory", "", 0, 0});
    } catch (const std::exception& e) {
        return fail(g, {"RuntimeError", e.what(), "", 0, 0});
    } catch (...) {
        return fail(g, {"RuntimeError", "unknown C++ exception", "", 0, 0});
    }
}

// A call refused for its arguments: ValueError `message`.
int refuse(gpy_interp* g, const char* message) {
    if (!g) return -1;
    Call call(g);
    if (!call.ok) return kBusy;
    return fail(g, {"ValueError", message, "", 0, 0});
}

// Deletes the arrays of values gpy was given but will not take (an early failure).
void consume_arrays(const gpy_value* v, size_t n) {
    for (size_t k = 0; v && k < n; ++k)
        if (v[k].kind == GPY_ARRAY && v[k].array && v[k].array->deleter) v[k].array->deleter(v[k].array);
}

// The values' host forms; all arrays are owned from here on (those after a
// value that fails to convert are deleted).
std::vector<gpy::HostValue> host_values(const gpy_value* args, size_t n);

const char* keep_string(gpy_interp* g, std::string s) {
    g->strings.push_back(std::move(s));
    return g->strings.back().c_str();
}

// A DLPack tensor that calls its deleter at most once, shared by the
// HostValue's ArrayRef (the memory's keep-alive) and nothing else.
std::shared_ptr<void> tensor_keeper(DLManagedTensorVersioned* t) {
    return std::shared_ptr<void>(t, [](void* p) {
        auto* m = static_cast<DLManagedTensorVersioned*>(p);
        if (m->deleter) m->deleter(m);
    });
}

gpy::ElementType element_type(DLDataType t) {
    using E = gpy::ElementType;
    if (t.lanes != 1) throw std::invalid_argument("DLPack tensor with vector lanes has no NumPy dtype");
    switch (t.code) {
    case kDLInt:
        if (t.bits == 8) return E::Int8;
        if (t.bits == 16) return E::Int16;
        if (t.bits == 32) return E::Int32;
        if (t.bits == 64) return E::Int64;
        break;
    case kDLUInt:
        if (t.bits == 8) return E::UInt8;
        if (t.bits == 16) return E::UInt16;
        if (t.bits == 32) return E::UInt32;
        if (t.bits == 64) return E::UInt64;
        break;
    case kDLFloat:
        if (t.bits == 16) return E::Float16;
        if (t.bits == 32) return E::Float32;
        if (t.bits == 64) return E::Float64;
        break;
    case kDLComplex:
        if (t.bits == 64) return E::Complex64;
        if (t.bits == 128) return E::Complex128;
        break;
    case GPY_DL_BOOL:
        if (t.bits == 8) return E::Bool;
        break;
    default:
        break;
    }
    throw std::invalid_argument("DLPack type code " + std::to_string(t.code) + " of " + std::to_string(t.bits) + " bits has no NumPy dtype");
}

// An ArrayRef over a versioned tensor, which it owns from here on.
gpy::ArrayRef array_ref(DLManagedTensorVersioned* t) {
    std::shared_ptr<void> keep = tensor_keeper(t);
    const DLTensor& dl = t->dl_tensor;
    gpy::ArrayRef r;
    r.dtype = element_type(dl.dtype);
    const int64_t item = dl.dtype.bits / 8;
    if (t->version.major != DLPACK_MAJOR_VERSION) throw std::invalid_argument("DLPack version " + std::to_string(t->version.major) + " (gpy reads 1.x)");
    r.data = dl.data ? static_cast<char*>(dl.data) + dl.byte_offset : nullptr;
    if (dl.ndim < 0 || dl.ndim > 64) throw std::invalid_argument("DLPack tensor with " + std::to_string(dl.ndim) + " dimensions");
    if (dl.ndim > 0 && !dl.shape) throw std::invalid_argument("DLPack tensor with a null shape");
    r.shape.assign(dl.shape, dl.shape + dl.ndim);
    if (dl.strides)
        for (int k = 0; k < dl.ndim; ++k) {
            int64_t s = 0;
            if (__builtin_mul_overflow(dl.strides[k], item, &s)) throw std::invalid_argument("DLPack tensor strides overflow");
            r.strides.push_back(s);
        }
    r.readonly = t->flags & DLPACK_FLAG_BITMASK_READ_ONLY;
    switch (int(dl.device.device_type)) {
    case kDLCPU: case kDLCUDAHost: r.device = -1; break;
    case kDLCUDA: case kDLCUDAManaged: r.device = dl.device.device_id; break;
    default: throw std::invalid_argument("DLPack tensor on device type " + std::to_string(int(dl.device.device_type)) + " (gpy takes CPU and CUDA memory)");
    }
    r.owner = std::move(keep);
    return r;
}

gpy::HostValue host_value(const gpy_value* v) {
    switch (v->kind) {
    case GPY_NONE: return std::monostate{};
    case GPY_BOOL: return v->i != 0;
    case GPY_INT: return int64_t(v->i);
    case GPY_FLOAT: return v->f;
    case GPY_STR:
        if (!v->s) throw std::invalid_argument("gpy_value of kind GPY_STR with a null string");
        return std::string(v->s);
    case GPY_ARRAY:
        if (!v->array) throw std::invalid_argument("gpy_value of kind GPY_ARRAY with a null tensor");
        return array_ref(v->array);
    default: throw std::invalid_argument("gpy_value of unknown kind " + std::to_string(v->kind));
    }
}

std::vector<gpy::HostValue> host_values(const gpy_value* args, size_t n) {
    std::vector<gpy::HostValue> out;
    for (size_t k = 0; k < n; ++k) {
        try {
            out.push_back(host_value(&args[k]));
        } catch (...) {
            consume_arrays(args + k + 1, n - k - 1);
            throw;
        }
    }
    return out;
}

// What an ArrayRef that gpy handed out owns, for the tensor made over it.
struct OutTensor {
    std::shared_ptr<void> owner;
    std::vector<int64_t> shape, strides;
};

DLManagedTensorVersioned* tensor_of(const gpy::ArrayRef& a) {
    static const DLDataType types[] = {{GPY_DL_BOOL, 8, 1}, {kDLInt, 8, 1},   {kDLInt, 16, 1},   {kDLInt, 32, 1},   {kDLInt, 64, 1},
                                       {kDLUInt, 8, 1},     {kDLUInt, 16, 1}, {kDLUInt, 32, 1},  {kDLUInt, 64, 1},  {kDLFloat, 16, 1},
                                       {kDLFloat, 32, 1},   {kDLFloat, 64, 1}, {kDLComplex, 64, 1}, {kDLComplex, 128, 1}};
    const DLDataType type = types[int(a.dtype)];
    auto* ctx = new OutTensor{a.owner, a.shape, {}};
    for (int64_t s : a.strides) ctx->strides.push_back(s / (type.bits / 8));
    auto* t = new DLManagedTensorVersioned{};
    t->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    t->manager_ctx = ctx;
    t->deleter = [](DLManagedTensorVersioned* self) {
        delete static_cast<OutTensor*>(self->manager_ctx);
        delete self;
    };
    t->dl_tensor.data = a.data;
    t->dl_tensor.device = a.device < 0 ? DLDevice{kDLCPU, 0} : DLDevice{kDLCUDA, a.device};
    t->dl_tensor.ndim = int(a.shape.size());
    t->dl_tensor.dtype = type;
    t->dl_tensor.shape = ctx->shape.data();
    t->dl_tensor.strides = ctx->strides.empty() ? nullptr : ctx->strides.data();
    return t;
}

void to_c(gpy_interp* g, const gpy::HostValue& h, gpy_value* out) {
    *out = gpy_value{};
    switch (h.index()) {
    case 0: out->kind = GPY_NONE; break;
    case 1: out->kind = GPY_BOOL; out->i = std::get<bool>(h); break;
    case 2: out->kind = GPY_INT; out->i = std::get<int64_t>(h); break;
    case 3: out->kind = GPY_FLOAT; out->f = std::get<double>(h); break;
    case 4: out->kind = GPY_STR; out->s = keep_string(g, std::get<std::string>(h)); break;
    default: out->kind = GPY_ARRAY; out->array = tensor_of(std::get<gpy::ArrayRef>(h)); break;
    }
}


template <class Get>
auto get_dlpack(gpy_interp* g, const char* name, Get get) -> decltype(get()) {
    decltype(get()) t = nullptr;
    if (!name) return nullptr;
    int rc = guarded(g, [&] {
        t = get();
        if (!t) throw gpy::ScriptError({"NameError", "name '" + std::string(name) + "' is not defined", "", 0, 0});
    });
    return rc == 0 ? t : nullptr;
}

}  // namespace

extern "C" {

void gpy_config_init(gpy_config* cfg) {
    if (!cfg) return;
    *cfg = gpy_config{};
    cfg->lazy = 1;
}

gpy_interp* gpy_new(const gpy_config* cfg) {
    t_new_error.clear();
    try {
        gpy::Config c;
        if (cfg) {
            if (cfg->backend) c.backend = cfg->backend;
            if (c.backend != "auto" && c.backend != "cpu" && c.backend != "cuda")
                throw std::invalid_argument("backend must be \"auto\", \"cpu\" or \"cuda\", not \"" + c.backend + "\"");
            c.device = cfg->device;
            if (cfg->cache_dir) c.cache_dir = cfg->cache_dir;
            if (cfg->out) c.out = [fn = cfg->out, user = cfg->out_user](std::string_view s) { fn(user, s.data(), s.size()); };
            if (cfg->err) c.err = [fn = cfg->err, user = cfg->err_user](std::string_view s) { fn(user, s.data(), s.size()); };
            if (cfg->max_array_bytes < 0) throw std::invalid_argument("max_array_bytes must be >= 0");
            c.max_array_bytes = size_t(cfg->max_array_bytes);
            if (cfg->max_memory_bytes < 0) throw std::invalid_argument("max_memory_bytes must be >= 0");
            c.max_memory_bytes = size_t(cfg->max_memory_bytes);
            c.lazy = cfg->lazy != 0;
            c.fast_math = cfg->fast_math != 0;
        }
        auto g = std::make_unique<gpy_interp>();
        g->interp = std::make_unique<gpy::Interpreter>(std::move(c));
        return g.release();
    } catch (const std::exception& e) {
        t_new_error = std::string("error: ") + e.what();
        return nullptr;
    }
}

void gpy_free(gpy_interp* g) { delete g; }

static int run_result(gpy_interp* g, const gpy::Result& r) {
    if (r.status == gpy::Status::Ok) return 0;
    if (r.status == gpy::Status::Exit) {
        if (r.exit_code != 0) fail(g, {"SystemExit", std::to_string(r.exit_code), "", 0, 0}, r.exit_code);
        return r.exit_code;
    }
    return fail(g, r.error, r.exit_code ? r.exit_code : 1);
}

int gpy_run_string(gpy_interp* g, const char* source, const char* name) {
    if (!g) return -1;
    if (!source) return refuse(g, "gpy_run_string: null source");
    Call call(g);
    if (!call.ok) return kBusy;
    try {
        return run_result(g, g->interp->run_string(source, name ? name : "<string>"));
    } catch (const std::exception& e) {
        return fail(g, {"RuntimeError", e.what(), "", 0, 0});
    } catch (...) {
        return fail(g, {"RuntimeError", "unknown C++ exception", "", 0, 0});
    }
}

int gpy_run_file(gpy_interp* g, const char* path) {
    if (!g) return -1;
    if (!path) return refuse(g, "gpy_run_file: null path");
    Call call(g);
    if (!call.ok) return kBusy;
    try {
        gpy::Result r = g->interp->run_file(path);
        if (r.status == gpy::Status::SyntaxError && r.error.type.empty())
            return fail(g, {"FileNotFoundError", std::string("can't open file '") + path + "'", "", 0, 0}, 2);
        return run_result(g, r);
    } catch (const std::exception& e) {
        return fail(g, {"RuntimeError", e.what(), "", 0, 0});
    } catch (...) {
        return fail(g, {"RuntimeError", "unknown C++ exception", "", 0, 0});
    }
}

// A thread turned away by a busy g reads its own error, not the running call's.
const char* gpy_last_error(gpy_interp* g) {
    if (!g) return t_new_error.c_str();
    return t_busy == g ? kBusyText : g->error_text.c_str();
}

const gpy_error* gpy_last_error_info(gpy_interp* g) {
    if (!g) return nullptr;
    if (t_busy == g) {
        static thread_local gpy_error busy;
        busy = {"RuntimeError", kBusyText + std::strlen("error: RuntimeError: "), "", 0, 0};
        return &busy;
    }
    g->error_view = {g->error.type.c_str(), g->error.message.c_str(), g->error.file.c_str(), g->error.line, g->error.column};
    return &g->error_view;
}

int gpy_last_error_frames(gpy_interp* g) { return g && t_busy != g ? int(g->error.traceback.size()) : 0; }

int gpy_last_error_frame(gpy_interp* g, int k, const char** function, const char** file, int* line, int* column) {
    if (!g || t_busy == g || k < 0 || size_t(k) >= g->error.traceback.size()) return -1;
    const gpy::ErrorInfo::Frame& f = g->error.traceback[size_t(k)];
    if (function) *function = f.function.c_str();
    if (file) *file = f.file.c_str();
    if (line) *line = f.line;
    if (column) *column = f.column;
    return 0;
}

int gpy_set(gpy_interp* g, const char* name, const gpy_value* v) {
    if (!g || !name || !v) {
        consume_arrays(v, 1);  // owned from the call on
        return refuse(g, "gpy_set: null name or value");
    }
    return guarded(g, [&] { g->interp->set(name, host_value(v)); });
}
int gpy_set_int(gpy_interp* g, const char* name, int64_t v) {
    gpy_value x{GPY_INT, v, 0, nullptr, nullptr};
    return gpy_set(g, name, &x);
}
int gpy_set_float(gpy_interp* g, const char* name, double v) {
    gpy_value x{GPY_FLOAT, 0, v, nullptr, nullptr};
    return gpy_set(g, name, &x);
}
int gpy_set_str(gpy_interp* g, const char* name, const char* v) {
    gpy_value x{GPY_STR, 0, 0, v, nullptr};
    return gpy_set(g, name, &x);
}

int gpy_get(gpy_interp* g, const char* name, gpy_value* out) {
    if (!name || !out) return refuse(g, "gpy_get: null name or output");
    *out = gpy_value{};
    return guarded(g, [&] {
        std::optional<gpy::HostValue> v;
        try {
            v = g->interp->get(name);
        } catch (const gpy::ScriptError&) {
            out->kind = GPY_OTHER;
            throw;
        }
        if (!v) throw gpy::ScriptError({"NameError", "name '" + std::string(name) + "' is not defined", "", 0, 0});
        to_c(g, *v, out);
    });
}

int gpy_get_int(gpy_interp* g, const char* name, int64_t* out) {
    if (!out) return refuse(g, "gpy_get_int: null output");
    Call call(g);  // (one call: the nested gpy_get's strings stay)
    if (!call.ok) return kBusy;
    gpy_value v;
    if (int rc = gpy_get(g, name, &v)) return rc;
    if (v.kind != GPY_INT && v.kind != GPY_BOOL) {
        gpy_value_release(&v);
        return fail(g, {"TypeError", "'" + std::string(name) + "' is not an int", "", 0, 0});
    }
    *out = v.i;
    return 0;
}

int gpy_get_float(gpy_interp* g, const char* name, double* out) {
    if (!out) return refuse(g, "gpy_get_float: null output");
    Call call(g);  // (one call: the nested gpy_get's strings stay)
    if (!call.ok) return kBusy;
    gpy_value v;
    if (int rc = gpy_get(g, name, &v)) return rc;
    if (v.kind != GPY_INT && v.kind != GPY_BOOL && v.kind != GPY_FLOAT) {
        gpy_value_release(&v);
        return fail(g, {"TypeError", "'" + std::string(name) + "' is not a number", "", 0, 0});
    }
    *out = v.kind == GPY_FLOAT ? v.f : double(v.i);
    return 0;
}

const char* gpy_get_str(gpy_interp* g, const char* name) {
    Call call(g);  // (one call: the nested gpy_get's strings stay)
    if (!call.ok) return nullptr;
    gpy_value v;
    if (gpy_get(g, name, &v)) return nullptr;
    if (v.kind != GPY_STR) {
        gpy_value_release(&v);
        fail(g, {"TypeError", "'" + std::string(name) + "' is not a str", "", 0, 0});
        return nullptr;
    }
    return v.s;
}

int gpy_call(gpy_interp* g, const char* name, const gpy_value* args, size_t nargs, gpy_value* result) {
    if (!g || !name || (nargs && !args)) {
        consume_arrays(args, nargs);  // owned from the call on
        return refuse(g, "gpy_call: null name or arguments");
    }
    if (result) *result = gpy_value{};
    return guarded(g, [&] {
        std::vector<gpy::HostValue> in = host_values(args, nargs);
        gpy::HostValue r = g->interp->call(name, in);
        if (result) to_c(g, r, result);
    });
}

gpy_function* gpy_get_function(gpy_interp* g, const char* name) {
    if (!name) return nullptr;
    gpy_function* out = nullptr;
    guarded(g, [&] { out = new gpy_function{g->interp->function(name)}; });
    return out;
}

int gpy_call_function(gpy_interp* g, gpy_function* f, const gpy_value* args, size_t nargs, gpy_value* result) {
    if (!g || !f || (nargs && !args)) {
        consume_arrays(args, nargs);  // owned from the call on
        return refuse(g, "gpy_call_function: null function or arguments");
    }
    if (result) *result = gpy_value{};
    return guarded(g, [&] {
        std::vector<gpy::HostValue> in = host_values(args, nargs);
        gpy::HostValue r = g->interp->call(f->f, in);
        if (result) to_c(g, r, result);
    });
}

void gpy_function_free(gpy_function* f) { delete f; }

void gpy_value_release(gpy_value* v) {
    if (!v) return;
    if (v->kind == GPY_ARRAY && v->array && v->array->deleter) v->array->deleter(v->array);
    *v = gpy_value{};
}

int gpy_define(gpy_interp* g, const char* name, gpy_host_fn fn, void* user) {
    if (!name || !fn) return refuse(g, "gpy_define: null name or function");
    return guarded(g, [&] {
        g->interp->define(name, [g, fn, user, fname = std::string(name)](const std::vector<gpy::HostValue>& args) -> gpy::HostValue {
            std::vector<gpy_value> in(args.size());
            struct Release {
                std::vector<gpy_value>& v;
                ~Release() {
                    for (gpy_value& x : v) gpy_value_release(&x);
                }
            } release{in};
            for (size_t k = 0; k < args.size(); ++k) to_c(g, args[k], &in[k]);
            gpy_value out{};
            g->raised = false;
            int rc = fn(user, g, in.data(), in.size(), &out);
            if (rc != 0) {
                gpy_value_release(&out);
                if (!g->raised) throw std::runtime_error("host function '" + fname + "' failed (returned " + std::to_string(rc) + ")");
                g->raised = false;
                throw gpy::ScriptError({g->raise_type, g->raise_message, "", 0, 0});
            }
            // An argument array handed back as the result is the result's
            // now: not deleted with the arguments.
            for (gpy_value& a : in)
                if (out.kind == GPY_ARRAY && a.kind == GPY_ARRAY && a.array == out.array) a = gpy_value{};
            return host_value(&out);
        });
    });
}

void gpy_raise(gpy_interp* g, const char* type, const char* message) {
    if (!g) return;
    g->raised = true;
    g->raise_type = type ? type : "RuntimeError";
    g->raise_message = message ? message : "";
}

int gpy_set_dlpack(gpy_interp* g, const char* name, DLManagedTensor* t) {
    if (!g || !name || !t) {
        if (t && t->deleter) t->deleter(t);  // owned from the call on
        return refuse(g, "gpy_set_dlpack: null name or tensor");
    }
    return guarded(g, [&] { g->interp->set_dlpack(name, t); });
}

int gpy_set_dlpack_versioned(gpy_interp* g, const char* name, DLManagedTensorVersioned* t) {
    if (!g || !name || !t) {
        if (t && t->deleter) t->deleter(t);
        return refuse(g, "gpy_set_dlpack_versioned: null name or tensor");
    }
    return guarded(g, [&] { g->interp->set_dlpack(name, t); });
}

DLManagedTensor* gpy_get_dlpack(gpy_interp* g, const char* name) {
    return get_dlpack(g, name, [&] { return g->interp->get_dlpack(name); });
}

DLManagedTensorVersioned* gpy_get_dlpack_versioned(gpy_interp* g, const char* name) {
    return get_dlpack(g, name, [&] { return g->interp->get_dlpack_versioned(name); });
}

int gpy_use_stream(gpy_interp* g, void* stream) {
    return guarded(g, [&] { g->interp->use_stream(stream); });
}

void gpy_interrupt(gpy_interp* g) {
    if (g) g->interp->interrupt();
}

const char* gpy_version(void) { return gpy::version(); }

}  // extern "C"
