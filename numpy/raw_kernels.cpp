// np.RawKernel and np.RawModule (CuPy's cupy.RawKernel / cupy.RawModule): a
// user's kernel written whole in CUDA C++, launched CuPy's way,
// k((grid,), (block,), (args...), shared_mem=0), or numba's, k[grid, block](*args).
// The backend compiles it (runtime/raw_kernel.h: NVRTC on a GPU, the CPU's
// emulation of CUDA otherwise).
//
// Arguments: an ndarray passes a pointer to its first element (materialised;
// pending results that read it are computed first when the kernel may write
// it); a scalar passes its value. Where the parameters are known (the CPU
// compile finds them, on either backend) each argument is checked against its
// parameter (pointer or value, the pointee's dtype) and a scalar is converted
// to the parameter's type; where they are not, scalars pass as CuPy passes
// them (bool 1 byte, int int64, float float64, complex complex128, a NumPy
// scalar its own bytes).
#include <cstring>
#include <map>
#include <memory>

#include "numpy/array.h"
#include "numpy/array_interface.h"
#include "numpy/module_parts.h"
#include "numpy/np_args.h"
#include "numpy/raw_kernels.h"
#include "numpy/ufuncs.h"
#include "runtime/backend.h"
#include "runtime/raw_analysis.h"

namespace gpy {

namespace {

TypeObject* compile_exception_type() {
    // CuPy's cupy.cuda.compiler.CompileException; here also a RuntimeError.
    static TypeObject* t = [] {
        auto* e = new TypeObject("CompileException", types::RuntimeError, OK::Exception);
        e->doc = "A raw kernel's source does not compile.";
        return e;
    }();
    return t;
}

TypeObject* raw_kernel_type();
TypeObject* raw_module_type();

// A module's source, shared by the module and the kernels taken from it.
struct RawModuleObj : Object {
    std::shared_ptr<RawSource> source;
    RawModuleObj() : Object(raw_module_type()) {}
};

struct RawKernelObj : Object {
    std::shared_ptr<RawSource> source;
    std::string name;  // a function name or a name expression
    std::string kind;  // "RawKernel" for messages
    // Compiled per backend and device (interpreters may differ).
    std::map<std::tuple<const Backend*, DeviceKind, int>, std::shared_ptr<RawFunction>> compiled;
    RawKernelObj() : Object(raw_kernel_type()) {}
};

RawKernelObj* self_kernel(const Value& v) { return static_cast<RawKernelObj*>(v.o); }

[[noreturn]] void raise_compile_error(const RawKernelObj* k, const RawCompileError& e) {
    if (k->kind == "kernel") raise(compile_exception_type(), e.log.empty() ? std::string(e.what()) : e.log);
    raise(compile_exception_type(), k->kind + " '" + k->name + "' does not compile:\n" + (e.log.empty() ? std::string(e.what()) : e.log));
}

// The kernel on the interpreter's backend and device: compiled on first use.
RawFunction& function_of(RawKernelObj* k) {
    Backend* be = array_backend();
    if (!be) raise(types::RuntimeError, "no array backend");
    auto key = std::make_tuple(static_cast<const Backend*>(be), be->kind(), array_device_index());
    auto it = k->compiled.find(key);
    if (it != k->compiled.end()) return *it->second;
    std::shared_ptr<RawFunction> f;
    try {
        // gpy --check-kernels (the CPU backend): the checked compile.
        const ArrayContext* ctx = array_context();
        if (ctx && ctx->check_kernels && be->kind() == DeviceKind::CPU) {
            RawSource checked = *k->source;
            checked.checked = true;
            f = be->raw_function(checked, k->name);
            if (!f->check_note.empty()) std::fprintf(stderr, "gpy: --check-kernels: %s '%s': %s\n", k->kind.c_str(), k->name.c_str(), f->check_note.c_str());
        } else {
            f = be->raw_function(*k->source, k->name);
        }
        if (!f->params) {
            // A GPU's module: the parameters from Clang's analysis of the same
            // text, when the emulation can parse it (else unchecked, as CuPy).
            const ArrayContext* c = array_context();
            try {
                if (const RawKernelInfo* info = raw_module_info(*k->source, c ? c->cache_dir : std::string())->find(k->name))
                    f->params = info->params;
            } catch (const std::exception&) {
            }
        }
    } catch (const RawCompileError& e) {
        raise_compile_error(k, e);
    } catch (const RawLaunchError& e) {
        raise(types::RuntimeError, e.what());
    } catch (const DeviceError& e) {
        raise(types::RuntimeError, e.what());
    }
    k->compiled[key] = f;
    return *f;
}

std::optional<DType> dtype_of_param(const RawParam& p) {
    switch (p.kind) {
    case 'b': return DType::Bool;
    case 'f': return p.size == 2 ? DType::Float16 : p.size == 4 ? DType::Float32 : p.size == 8 ? std::optional(DType::Float64) : std::nullopt;
    case 'i': return p.size == 1 ? DType::Int8 : p.size == 2 ? DType::Int16 : p.size == 4 ? DType::Int32 : DType::Int64;
    case 'u': return p.size == 1 ? DType::UInt8 : p.size == 2 ? DType::UInt16 : p.size == 4 ? DType::UInt32 : DType::UInt64;
    case 'c': return p.size == 8 ? DType::Complex64 : DType::Complex128;  // complex<float>, complex<double> (cupy/complex.cuh)
    default: return std::nullopt;
    }
}

struct Packed {
    std::vector<std::array<uint8_t, 16>> values;
    std::vector<void*> pointers;
    std::vector<RawBounds> bounds;  // each array argument's bytes (--check-kernels)
};

// The bytes a view reaches from `ptr` (its first element), for
// --check-kernels.
RawBounds view_bounds(const ArrayObj* a, const void* ptr) {
    const char* p = static_cast<const char*>(ptr);
    auto [lo, hi] = dag::byte_extent(a->shape, a->strides, itemsize(a->dtype));
    return {p + lo, p + hi, a->size(), hi - lo == a->size() * int64_t(itemsize(a->dtype))};
}

void put_scalar(std::array<uint8_t, 16>& out, DType t, const dag::ScalarValue& s) {
    out.fill(0);
    switch (t) {
    case DType::Float32: std::memcpy(out.data(), &s.f32, 4); break;
    case DType::Float64: std::memcpy(out.data(), &s.f, 8); break;
    case DType::Float16: std::memcpy(out.data(), &s.f16_bits, 2); break;
    case DType::Bool: out[0] = s.b ? 1 : 0; break;
    case DType::Complex64: {
        const float re = float(s.f), im = float(s.imag);
        std::memcpy(out.data(), &re, 4);
        std::memcpy(out.data() + 4, &im, 4);
        break;
    }
    case DType::Complex128:
        std::memcpy(out.data(), &s.f, 8);
        std::memcpy(out.data() + 8, &s.imag, 8);
        break;
    default: std::memcpy(out.data(), &s.i, itemsize(t)); break;  // integers: the low bytes
    }
}

std::string arg_label(const RawKernelObj* k, size_t i) {
    return "argument " + std::to_string(i + 1) + " of " + k->kind + " '" + k->name + "'";
}

// Packs arguments: an array's pointer, a scalar's bytes (see the file's comment).
void pack(RawKernelObj* k, const RawFunction& f, const Value* args, size_t n, Packed& out) {
    if (f.params && f.params->size() != n)
        raise(types::TypeError, k->kind + " '" + k->name + "' takes " + std::to_string(f.params->size()) + " arguments (" +
                                    std::to_string(n) + " given)");
    out.values.resize(n);
    out.pointers.resize(n);
    if (f.checked) out.bounds.assign(n, RawBounds{});  // (only a checked kernel reads them)
    for (size_t i = 0; i < n; ++i) {
        const Value& v = args[i];
        const RawParam* p = f.params ? &(*f.params)[i] : nullptr;
        ArrayObj* a = as_array(v);
        if (a && !a->numpy_scalar) {
            if (p && !p->pointer)
                raise(types::TypeError, arg_label(k, i) + " is " + raw_param_text(*p) + ": an array was given");
            if (p && p->size > 0) {
                std::optional<DType> want = dtype_of_param(*p);
                const bool any_bytes = p->size == 1 && (p->kind == 'i' || p->kind == 'u');  // char*: any array's bytes
                const bool fits = want ? *want == a->dtype : p->kind == 'o' && size_t(p->size) == itemsize(a->dtype);
                if (!fits && !any_bytes)
                    raise(types::TypeError, arg_label(k, i) + " is " + raw_param_text(*p) + ": an array of " + name(a->dtype) + " was given");
            }
            // (A pointer the kernel never writes through, const or not, leaves
            // the array's pending readers and its host copy alone.)
            void* ptr = kernel_pointer(a, !p || p->written, [&] { return arg_label(k, i); });
            std::memcpy(out.values[i].data(), &ptr, sizeof ptr);
            if (f.checked) out.bounds[i] = view_bounds(a, ptr);
        } else if (a || v.is_number() || v.kind == VK::Bool || (v.is_obj() && v.o->type == types::complex)) {
            if (p && p->pointer)
                raise(types::TypeError, arg_label(k, i) + " is " + raw_param_text(*p) + ": a scalar (" + type_name(v) + ") was given");
            DType t;
            if (p) {
                std::optional<DType> want = dtype_of_param(*p);
                const DType given = a ? a->dtype : v.kind == VK::Bool ? DType::Bool : v.kind == VK::Int ? DType::Int64
                                               : v.kind == VK::Float ? DType::Float64 : DType::Complex128;
                if (!want) {  // a struct: a NumPy scalar (or Python complex) of its size
                    if (size_t(p->size) != itemsize(given))
                        raise(types::TypeError, arg_label(k, i) + " is " + raw_param_text(*p) + ": a " + name(given) + " scalar was given");
                    t = given;
                } else {
                    if ((is_inexact(given) && !is_inexact(*want)) || (is_complex(given) && !is_complex(*want)))
                        raise(types::TypeError, arg_label(k, i) + " is " + raw_param_text(*p) + ": a " + type_name(v) + " was given");
                    t = *want;
                }
            } else {
                t = a ? a->dtype : v.kind == VK::Bool ? DType::Bool : v.kind == VK::Int ? DType::Int64
                                 : v.kind == VK::Float ? DType::Float64 : DType::Complex128;
            }
            if (a && a->dtype == t) {
                materialize(a);
                std::memcpy(out.values[i].data(), a->buffer.host_read_bytes() + a->offset, itemsize(t));
            } else {
                put_scalar(out.values[i], t, convert_scalar(v, t));
            }
        } else {
            raise(types::TypeError, std::string("Unsupported type <class '") + type_name(v) + "'>");
        }
        out.pointers[i] = out.values[i].data();
    }
}

// Records the launching statement's file:line in `f` (a GPU fault's message
// names it), remade only when the statement changes.
void note_launch_site(RawFunction& f) {
    const Stmt* s = t_current_statement;
    if (s == f.site_key) return;
    f.site_key = s;
    f.site = s && s->span.file ? s->span.file->name + ":" + std::to_string(s->span.line()) : std::string();
}

void launch(Interp&, RawKernelObj* k, RawDims grid, RawDims block, int64_t shared, const Value* args, size_t n) {
    if (shared < 0) raise(types::ValueError, "shared_mem must be non-negative");
    RawFunction& f = function_of(k);
    // Reused: a launch allocates nothing once its vectors have grown (launch is not reentrant).
    static thread_local Packed packed;
    packed.bounds.clear();
    pack(k, f, args, n, packed);
    note_launch_site(f);
    try {
        array_backend()->raw_launch(f, grid, block, size_t(shared), packed.pointers, packed.bounds);
    } catch (const RawOutOfBounds& e) {
        raise(types::IndexError, k->kind + " '" + k->name + "': " + e.what());
    } catch (const RawLaunchError& e) {
        raise(types::RuntimeError, k->kind + " '" + k->name + "': " + e.what());
    } catch (const DeviceError& e) {
        raise(types::RuntimeError, e.what());
    }
}

// k(grid, block, args, *, shared_mem=0, stream=None)
Value kernel_call(Interp& in, CallArgs& a) {
    RawKernelObj* k = self_kernel(a.pos[0]);
    if (a.npos != 4) raise(types::TypeError, "__call__() takes exactly 3 positional arguments (grid, block, args) (" + std::to_string(a.npos - 1) + " given)");
    int64_t shared = 0;
    Value stream = Value::none();
    for (auto& [key, v] : keywords(a)) {
        if (key == "shared_mem") shared = index_arg(v);
        else if (key == "stream") stream = v;
        else if (key == "enable_cooperative_groups") {
            if (truthy(v)) raise(types::NotImplementedError, "enable_cooperative_groups is not supported yet");
        } else raise(types::TypeError, "__call__() got an unexpected keyword argument '" + key + "'");
    }
    const Value& args = a.pos[3];
    if (!args.is_obj() || (args.o->type != types::tuple && args.o->type != types::list))
        raise(types::TypeError, "args must be a tuple, not " + std::string(type_name(args)));
    const auto& items = args.o->type == types::tuple ? static_cast<TupleObj*>(args.o)->items : static_cast<ListObj*>(args.o)->items;
    StreamScope on(stream);
    launch(in, k, launch_dims(a.pos[1], "grid"), launch_dims(a.pos[2], "block"), shared, items.data(), items.size());
    return Value::none();
}

// k[grid, block] / k[grid, block, stream] / k[grid, block, stream, shared_mem]: a launcher of *args.
Value launcher_call(Interp& in, CallArgs& a) {
    auto* cfg = static_cast<TupleObj*>(a.pos[0].o);
    if (a.nkw()) raise(types::TypeError, "a kernel launch takes positional arguments only");
    const int64_t shared = cfg->items.size() > 4 ? index_arg(cfg->items[4]) : 0;
    StreamScope on(cfg->items.size() > 3 ? cfg->items[3] : Value::none());
    launch(in, self_kernel(cfg->items[0]), launch_dims(cfg->items[1], "grid"), launch_dims(cfg->items[2], "block"), shared, a.pos + 1,
           a.npos - 1);
    return Value::none();
}

Value kernel_getitem(Interp&, const Value& self, const Value& key) {
    if (!key.is_obj() || key.o->type != types::tuple) raise(types::TypeError, "a launch configuration is kernel[grid, block]");
    const auto& items = static_cast<TupleObj*>(key.o)->items;
    if (items.size() < 2 || items.size() > 4) raise(types::TypeError, "a launch configuration is kernel[grid, block, stream=None, shared_mem=0]");
    std::vector<Value> cfg = {self};
    cfg.insert(cfg.end(), items.begin(), items.end());
    auto* b = new BuiltinObj(self_kernel(self)->name, launcher_call, self_kernel(self)->name + "(*args)", "A configured kernel launch.");
    b->bound = make_tuple(std::move(cfg));
    return Value::object(b);
}

Value strings_tuple(const std::vector<std::string>& v) {
    std::vector<Value> items;
    for (const std::string& s : v) items.push_back(make_str(s));
    return make_tuple(std::move(items));
}

Value kernel_getattr(Interp& in, const Value& self, const std::string& attr) {
    RawKernelObj* k = self_kernel(self);
    if (attr == "code") return make_str(k->source->code);
    if (attr == "name") return make_str(k->name);
    if (attr == "options") return strings_tuple(k->source->options);
    if (attr == "backend") return make_str("nvrtc");
    if (attr == "attributes") {
        RawFunction& f = function_of(k);
        auto* d = new DictObj();
        Value r = Value::object(d);
        for (auto& [name, value] : f.attributes) d->table.set(in, make_str(name), Value::integer(value));
        return r;
    }
    static const char* const names[] = {"max_threads_per_block", "shared_size_bytes", "const_size_bytes", "local_size_bytes",
                                        "num_regs", "ptx_version", "binary_version", "cache_mode_ca",
                                        "max_dynamic_shared_size_bytes", "preferred_shared_memory_carveout"};
    for (const char* n : names)
        if (attr == n) {
            RawFunction& f = function_of(k);
            auto it = f.attributes.find(attr);
            return Value::integer(it == f.attributes.end() ? 0 : it->second);
        }
    return Value();
}

void kernel_setattr(Interp&, const Value& self, const std::string& attr, Value v) {
    RawKernelObj* k = self_kernel(self);
    if (attr != "max_dynamic_shared_size_bytes" && attr != "preferred_shared_memory_carveout")
        raise(types::AttributeError, "attribute '" + attr + "' of '" + k->kind + "' objects is not writable");
    RawFunction& f = function_of(k);
    const int64_t value = index_arg(v);
    if (value < INT32_MIN || value > INT32_MAX) raise(types::OverflowError, attr + " out of range: " + std::to_string(value));
    try {
        array_backend()->raw_set_attribute(f, attr, int(value));
    } catch (const std::invalid_argument& e) {
        raise(types::ValueError, attr + ": " + e.what());
    } catch (const RawLaunchError& e) {
        raise(types::ValueError, attr + ": " + e.what());
    } catch (const DeviceError& e) {
        raise(types::ValueError, attr + ": " + e.what());
    }
}

std::string kernel_repr(Interp&, const Value& self) {
    return "<" + self_kernel(self)->kind + " '" + self_kernel(self)->name + "'>";
}

TypeObject* raw_kernel_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("RawKernel", nullptr, OK::Other);
        t->getattr = kernel_getattr;
        t->setattr = kernel_setattr;
        t->getitem = kernel_getitem;
        t->repr = kernel_repr;
        def_method(t, "__call__", kernel_call, "__call__(grid, block, args, *, shared_mem=0, stream=None)",
                   "Launches the kernel: grid and block are tuples of 1 to 3 ints, args a tuple.");
        return t;
    }();
    return t;
}

std::vector<std::string> strings_arg(Interp& in, const Value* v, const char* what) {
    std::vector<std::string> out;
    if (!v || v->is_none()) return out;
    if (v->is_obj() && v->o->type == types::str) return {str_of(*v, what)};
    for (const Value& x : to_vector(in, *v)) out.push_back(str_of(x, what));
    return out;
}

void reject_unsupported(CallArgs& a, const char* what) {
    static const char* const flags[] = {"translate_cucomplex", "enable_cooperative_groups", "jitify"};
    for (const char* f : flags)
        if (const Value* v = kwarg(a, f); v && truthy(*v))
            raise(types::NotImplementedError, std::string(what) + ": " + f + " is not supported yet");
    if (const Value* v = kwarg(a, "backend"); v && !v->is_none()) {
        const std::string& b = str_of(*v, "backend");
        if (b != "nvrtc" && b != "nvcc") raise(types::ValueError, "backend must be 'nvrtc' or 'nvcc', not '" + b + "'");
    }
}

// RawKernel(code, name, options=(), backend='nvrtc', translate_cucomplex=False, *, enable_cooperative_groups=False, jitify=False)
Value make_raw_kernel(Interp& in, CallArgs& a) {
    const Value* code = arg(a, 0, "code");
    const Value* name = arg(a, 1, "name");
    if (!code || !name) raise(types::TypeError, "RawKernel() missing required argument '" + std::string(code ? "name" : "code") + "'");
    reject_unsupported(a, "RawKernel");
    auto* k = new RawKernelObj();
    Value keep = Value::object(k);
    k->source = std::make_shared<RawSource>();
    k->source->code = str_of(*code, "code");
    k->source->options = strings_arg(in, arg(a, 2, "options"), "options");
    k->name = str_of(*name, "name");
    k->kind = "RawKernel";
    k->source->file = k->name + ".cu";
    return keep;
}

// _kernel_block(name, source, file): a `kernel` block's RawKernel (lang/kernel_block.cpp), compiled now.
Value kernel_block(Interp&, CallArgs& a) {
    if (a.npos != 3) raise(types::TypeError, "_kernel_block(name, source, file) takes 3 arguments");
    auto* k = new RawKernelObj();
    Value keep = Value::object(k);
    k->source = std::make_shared<RawSource>();
    k->name = str_of(a.pos[0], "name");
    k->source->code = str_of(a.pos[1], "source");
    k->source->file = str_of(a.pos[2], "file");
    k->kind = "kernel";
    function_of(k);
    return keep;
}

Value module_get_function(Interp&, CallArgs& a) {
    auto* m = static_cast<RawModuleObj*>(a.pos[0].o);
    const Value* name = arg(a, 1, "name");
    if (!name) raise(types::TypeError, "get_function() missing required argument 'name'");
    auto* k = new RawKernelObj();
    Value keep = Value::object(k);
    k->source = m->source;
    k->name = str_of(*name, "name");
    k->kind = "RawModule function";
    function_of(k);  // CuPy compiles here: a missing function is an error now
    return keep;
}

Value module_compile(Interp&, CallArgs&) { return Value::none(); }

Value module_getattr(Interp&, const Value& self, const std::string& attr) {
    auto* m = static_cast<RawModuleObj*>(self.o);
    if (attr == "code") return make_str(m->source->code);
    if (attr == "options") return strings_tuple(m->source->options);
    if (attr == "name_expressions") return m->source->name_expressions.empty() ? Value::none() : strings_tuple(m->source->name_expressions);
    if (attr == "backend") return make_str("nvrtc");
    return Value();
}

// get_global(name): a MemoryPointer to the module's __device__/__constant__
// variable (CuPy's), in the module its kernels run in (on the CPU: the same
// JIT module, checked under --check-kernels as the kernels are).
Value module_get_global(Interp&, CallArgs& a) {
    auto* m = static_cast<RawModuleObj*>(a.pos[0].o);
    const Value* name = arg(a, 1, "name");
    if (!name) raise(types::TypeError, "get_global() missing required argument 'name'");
    const std::string n = str_of(*name, "name");
    Backend* be = array_backend();
    if (!be) raise(types::RuntimeError, "no array backend");
    const ArrayContext* c = array_context();
    const std::string cache = c ? c->cache_dir : std::string();
    std::pair<uintptr_t, size_t> g;
    try {
        if (be->kind() == DeviceKind::CUDA) {
            g = cuda_raw_global(array_device_index(), *m->source, n, cache);
        } else {
            RawSource src = *m->source;
            src.checked = c && c->check_kernels;
            auto [p, size] = cpu_raw_global(src, n, cache);
            g = {reinterpret_cast<uintptr_t>(p), size};
        }
    } catch (const RawCompileError& e) {
        raise(compile_exception_type(), "RawModule does not compile:\n" + (e.log.empty() ? std::string(e.what()) : e.log));
    } catch (const std::runtime_error& e) {  // the driver's (CUDA_ERROR_NOT_FOUND for a name the module lacks)
        raise(types::RuntimeError, e.what());
    }
    return unowned_memory_pointer(g.first, int64_t(g.second), be->kind() == DeviceKind::CUDA ? array_device_index() : 0, a.pos[0]);
}

TypeObject* raw_module_type() {
    static TypeObject* t = [] {
        auto* t = new TypeObject("RawModule", nullptr, OK::Other);
        t->getattr = module_getattr;
        def_method(t, "get_function", module_get_function, "get_function(name)",
                   "The kernel `name` (a function name or one of the name expressions).");
        def_method(t, "compile", module_compile, "compile(log_stream=None)", "Compiles the module (done on first use anyway).");
        def_method(t, "get_global", module_get_global, "get_global(name)",
                   "A MemoryPointer to a __device__ or __constant__ variable of the module.");
        return t;
    }();
    return t;
}

// RawModule(code=None, path=None, options=(), backend='nvrtc', translate_cucomplex=False, *,
//           enable_cooperative_groups=False, name_expressions=None, jitify=False)
Value make_raw_module(Interp& in, CallArgs& a) {
    const Value* code = arg(a, 0, "code");
    if (const Value* path = arg(a, 1, "path"); path && !path->is_none())
        raise(types::NotImplementedError, "RawModule(path=...): loading a compiled module is not supported yet; pass code=");
    if (!code || code->is_none()) raise(types::TypeError, "RawModule() needs code=");
    reject_unsupported(a, "RawModule");
    auto* m = new RawModuleObj();
    Value keep = Value::object(m);
    m->source = std::make_shared<RawSource>();
    m->source->code = str_of(*code, "code");
    m->source->options = strings_arg(in, arg(a, 2, "options"), "options");
    m->source->name_expressions = strings_arg(in, kwarg(a, "name_expressions"), "name_expressions");
    m->source->file = "module.cu";
    return keep;
}

}  // namespace

RawDims launch_dims(const Value& v, const char* what) {
    int64_t d[3] = {1, 1, 1};  // (no allocation: it runs at every launch)
    size_t n = 0;
    if (v.kind == VK::Int || (v.is_obj() && v.o->type->kind == OK::Array)) {
        d[n++] = index_arg(v);
    } else if (v.is_obj() && (v.o->type == types::tuple || v.o->type == types::list)) {
        const auto& items = v.o->type == types::tuple ? static_cast<TupleObj*>(v.o)->items : static_cast<ListObj*>(v.o)->items;
        if (items.empty() || items.size() > 3) raise(types::ValueError, std::string(what) + " must have 1 to 3 dimensions");
        for (const Value& x : items) d[n++] = index_arg(x);
    } else {
        raise(types::TypeError, std::string(what) + " must be an int or a tuple of 1 to 3 ints, not " + type_name(v));
    }
    for (size_t i = 0; i < n; ++i)
        if (d[i] < 0 || d[i] > UINT32_MAX) raise(types::ValueError, std::string(what) + " dimension out of range: " + std::to_string(d[i]));
    return RawDims{unsigned(d[0]), unsigned(d[1]), unsigned(d[2])};
}

void* kernel_pointer(ArrayObj* a, bool writes, const std::function<std::string()>& what) {
    materialize(a);
    if (writes) flush_readers(a->buffer.get(), a);
    uint8_t* base;
    if (array_backend()->kind() == DeviceKind::CUDA) {
        if (a->buffer->device != DeviceKind::CUDA) raise(types::ValueError, what() + " is an array in host memory; the kernel runs on the GPU");
        base = writes ? a->buffer.device_bytes() : const_cast<uint8_t*>(a->buffer.device_read_bytes());
    } else {
        base = writes ? a->buffer.bytes() : const_cast<uint8_t*>(a->buffer.host_read_bytes());
    }
    return base + a->offset;
}

std::string kernel_ctype(DType t, const std::string& what) {
    switch (t) {
    case DType::Bool: return "bool";
    case DType::Int8: return "signed char";
    case DType::Int16: return "short";
    case DType::Int32: return "int";
    case DType::Int64: return "long long";
    case DType::UInt8: return "unsigned char";
    case DType::UInt16: return "unsigned short";
    case DType::UInt32: return "unsigned int";
    case DType::UInt64: return "unsigned long long";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    // CuPy's names, from cupy/complex.cuh (which a source using them includes).
    case DType::Complex64: return "complex<float>";
    case DType::Complex128: return "complex<double>";
    default: raise(types::NotImplementedError, what + ": " + name(t) + " is not supported yet");
    }
}

Value make_raw_kernel_object(std::shared_ptr<RawSource> source, std::string name, std::string kind) {
    auto* k = new RawKernelObj();
    Value keep = Value::object(k);
    k->source = std::move(source);
    k->name = std::move(name);
    k->kind = std::move(kind);
    return keep;
}

void launch_packed(const Value& kernel, RawDims grid, RawDims block, size_t shared_bytes, std::span<void* const> args) {
    RawKernelObj* k = self_kernel(kernel);
    RawFunction& f = function_of(k);
    note_launch_site(f);
    try {
        array_backend()->raw_launch(f, grid, block, shared_bytes, args);
    } catch (const RawLaunchError& e) {
        raise(types::RuntimeError, k->kind + " '" + k->name + "': " + e.what());
    } catch (const DeviceError& e) {
        raise(types::RuntimeError, e.what());
    }
}

void add_raw_kernel_functions(Interp&, ModuleObj* m) {
    Value k = make_builtin("RawKernel", make_raw_kernel,
                           "RawKernel(code, name, options=(), backend='nvrtc', translate_cucomplex=False, *, "
                           "enable_cooperative_groups=False, jitify=False)",
                           "A kernel written in CUDA C++ (CuPy's), on the GPU or the CPU's emulation of CUDA.");
    m->set("RawKernel", k);
    m->set("RawModule", make_builtin("RawModule", make_raw_module,
                                     "RawModule(code=None, path=None, options=(), backend='nvrtc', translate_cucomplex=False, *, "
                                     "enable_cooperative_groups=False, name_expressions=None, jitify=False)",
                                     "A module of CUDA C++ kernels (CuPy's); get_function(name) gives one."));
    m->set("CompileException", Value::object(compile_exception_type()));
    m->set("_kernel_block", make_builtin("_kernel_block", kernel_block, "_kernel_block(name, source, file)",
                                         "The RawKernel of a `kernel` block (the language's syntax), compiled now."));
}

}  // namespace gpy
