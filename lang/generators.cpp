// Generators. A call of a function whose body yields makes a GeneratorObj;
// its body runs on a fiber (a stack of its own), so `yield` anywhere in an
// expression suspends the whole C++ evaluation and next()/send() resume it
// where it stopped. The switch is a few instructions of x86-64 assembly
// (ucontext elsewhere). Exceptions never cross a switch: the fiber catches
// what its body raises and the resumer rethrows it. A generator dropped
// while suspended is closed (GeneratorExit at its yield) so that its frames
// unwind and release what they hold, as CPython does.
#include <sys/mman.h>
#include <unistd.h>

#include <cxxabi.h>

#include <cstdio>
#include <cstring>
#include <utility>
#include <exception>
#include <vector>

#include "base/python_error.h"
#include "lang/ast.h"
#include "lang/interp.h"

#if defined(__SANITIZE_ADDRESS__)
#define GPY_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPY_FIBER_ASAN 1
#endif
#endif
#ifdef GPY_FIBER_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace gpy {

namespace {

// ---- fibers ----

constexpr size_t kFiberStack = size_t(8) << 20;  // reserved, committed as touched (as deep as a main thread's)
constexpr size_t kStackMargin = size_t(64) << 10;  // RecursionError this far above the bottom

#if defined(__x86_64__)
extern "C" void gpy_fiber_switch(void** save_sp, void* load_sp);
// Saves the callee-saved registers and the FPU/SSE control words on the
// current stack, stores the stack pointer in *save_sp, loads load_sp and
// restores the same from there.
asm(R"(
.text
.globl gpy_fiber_switch
.type gpy_fiber_switch,@function
gpy_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
.size gpy_fiber_switch,.-gpy_fiber_switch
.section .note.GNU-stack,"",@progbits
.text
)");
#endif

// The C++ runtime's per-thread exception state (libstdc++/libsupc++'s
// __cxa_eh_globals): each fiber has its own, swapped in while it runs, so a
// `yield` inside an `except` block (a C++ catch) does not tangle the
// resumer's caught exceptions with the fiber's.
struct EhGlobals {
    void* caught = nullptr;
    unsigned int uncaught = 0;
};
EhGlobals* eh_globals() { return reinterpret_cast<EhGlobals*>(abi::__cxa_get_globals()); }

struct Fiber {
    char* stack = nullptr;  // kFiberStack bytes, a guard page at the bottom
    EhGlobals eh;
#if defined(__x86_64__)
    void* sp = nullptr;         // the fiber's saved stack pointer
    void* caller_sp = nullptr;  // the resumer's
#else
    ucontext_t ctx, caller;
#endif
#ifdef GPY_FIBER_ASAN
    void* fake_stack = nullptr;
    const void* caller_bottom = nullptr;
    size_t caller_size = 0;
#endif
};

// Stacks are kept for reuse (a generator expression per call would map
// one); a thread's pool is unmapped when the thread ends.
struct StackPool {
    std::vector<char*> stacks;
    ~StackPool() {
        for (char* s : stacks) ::munmap(s, kFiberStack);
    }
};
thread_local StackPool t_free_stacks;

char* take_stack() {
    if (!t_free_stacks.stacks.empty()) {
        char* s = t_free_stacks.stacks.back();
        t_free_stacks.stacks.pop_back();
        return s;
    }
    void* m = ::mmap(nullptr, kFiberStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    // Overflow faults instead of corrupting; without a guard (the process is
    // out of memory mappings) there is no stack.
    if (::mprotect(m, size_t(::sysconf(_SC_PAGESIZE)), PROT_NONE) != 0) {
        ::munmap(m, kFiberStack);
        throw std::bad_alloc();
    }
    return static_cast<char*>(m);
}

void give_stack(char* s) {
    if (t_free_stacks.stacks.size() < 16) t_free_stacks.stacks.push_back(s);
    else ::munmap(s, kFiberStack);
}

// ---- the generator object ----

enum class GenState : uint8_t { Created, Suspended, Running, Done };

struct GeneratorObj;
thread_local GeneratorObj* t_running = nullptr;  // the generator whose body is on the CPU
thread_local GeneratorObj* t_starting = nullptr;  // handed to the fiber's entry

TypeObject* generator_type();

struct GeneratorObj : IterObj {
    Interp* in;
    Value func;  // the generator function (keeps its code and module alive)
    std::vector<Value> slots;
    GenState state = GenState::Created;
    Fiber fiber;
    Value transfer;              // the value yielded out, or sent in
    Value inject;                // an exception to raise at the yield (throw(), close())
    Value result;                // the body's return value
    std::exception_ptr error;    // what the body raised
    char* saved_limit = nullptr;  // the resumer's native_stack_limit
    std::vector<Value> handling;  // exceptions its `except` blocks were handling when it yielded

    GeneratorObj(Interp& i, Value f, std::vector<Value> s) : IterObj(generator_type()), in(&i), func(std::move(f)), slots(std::move(s)) {}
    ~GeneratorObj() override;

    const char* type_name() const override { return "generator"; }
    bool next(Interp& i, Value& out) override { return resume(i, Value::none(), out); }

    // Runs the body until it yields (true, `out` the value) or ends (false,
    // `result` its return value); rethrows what it raised.
    bool resume(Interp& i, Value sent, Value& out);
    void switch_in();
    void switch_out();
    // Raises the exception throw() or close() queued for it, if any.
    void raise_injected() {
        if (inject.is_undef()) return;
        Value e = std::move(inject);
        inject = Value();
        throw GpyError{e};
    }
    static void entry();
};

void GeneratorObj::switch_in() {
    // (interpreter state that follows the C stack)
    saved_limit = in->native_stack_limit;
    in->native_stack_limit = fiber.stack + kStackMargin;
    const Stmt* statement = t_current_statement;
    EhGlobals* eh = eh_globals();
    std::swap(*eh, fiber.eh);
#ifdef GPY_FIBER_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, fiber.stack, kFiberStack);
#endif
#if defined(__x86_64__)
    gpy_fiber_switch(&fiber.caller_sp, fiber.sp);
#else
    swapcontext(&fiber.caller, &fiber.ctx);
#endif
#ifdef GPY_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
    std::swap(*eh, fiber.eh);
    t_current_statement = statement;
    in->native_stack_limit = saved_limit;
}

void GeneratorObj::switch_out() {
#ifdef GPY_FIBER_ASAN
    // (the fiber's last switch out frees its fake stack: null)
    __sanitizer_start_switch_fiber(state == GenState::Done ? nullptr : &fiber.fake_stack, fiber.caller_bottom, fiber.caller_size);
#endif
#if defined(__x86_64__)
    gpy_fiber_switch(&fiber.sp, fiber.caller_sp);
#else
    swapcontext(&fiber.ctx, &fiber.caller);
#endif
#ifdef GPY_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fiber.fake_stack, &fiber.caller_bottom, &fiber.caller_size);
#endif
}

void GeneratorObj::entry() {
    GeneratorObj* g = t_starting;
#ifdef GPY_FIBER_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &g->fiber.caller_bottom, &g->fiber.caller_size);
#endif
    try {
        g->raise_injected();  // thrown in before the first next(): raised at the start
        g->result = run_generator_body(*g->in, g->func.as<FunctionObj>(), g->slots.data());
    } catch (...) {
        g->error = std::current_exception();
    }
    g->state = GenState::Done;
    g->switch_out();
    __builtin_unreachable();
}

bool GeneratorObj::resume(Interp& i, Value sent, Value& out) {
    if (state == GenState::Running) raise(types::ValueError, "generator already executing");
    if (state == GenState::Done) {
        raise_injected();  // throw() into a finished generator raises it here
        return false;
    }
    if (state == GenState::Created) {
        if (!sent.is_none() && inject.is_undef()) raise(types::TypeError, "can't send non-None value to a just-started generator");
        fiber.stack = take_stack();
#if defined(__x86_64__)
        // The first switch "returns" into entry() with a call's alignment.
        auto* top = reinterpret_cast<uint64_t*>(fiber.stack + kFiberStack);
        top[-1] = 0;  // entry's return address: it never returns
        top[-2] = reinterpret_cast<uint64_t>(&GeneratorObj::entry);
        for (int r = 3; r <= 8; ++r) top[-r] = 0;  // rbp, rbx, r12-r15
        uint32_t mxcsr;
        uint16_t fcw;
        asm volatile("stmxcsr %0" : "=m"(mxcsr));
        asm volatile("fnstcw %0" : "=m"(fcw));
        uint64_t control = uint64_t(mxcsr) | uint64_t(fcw) << 32;
        top[-9] = control;
        fiber.sp = &top[-9];
#else
        getcontext(&fiber.ctx);
        fiber.ctx.uc_stack.ss_sp = fiber.stack;
        fiber.ctx.uc_stack.ss_size = kFiberStack;
        fiber.ctx.uc_link = nullptr;
        makecontext(&fiber.ctx, &GeneratorObj::entry, 0);
#endif
        t_starting = this;
    }
    in = &i;
    if (i.depth >= i.recursion_limit) raise(types::RecursionError, "maximum recursion depth exceeded");
    transfer = std::move(sent);
    GeneratorObj* outer = t_running;
    t_running = this;
    state = GenState::Running;
    Value keep = Value::object(this);  // alive while it runs, whatever the body drops
    // Its frame counts in the call depth, and the exceptions its handlers
    // were handling when it yielded are back on the stack while it runs.
    ++i.depth;
    const size_t base = i.handling.size();
    for (Value& h : handling) i.handling.push_back(std::move(h));
    handling.clear();
    switch_in();
    for (size_t k = base; k < i.handling.size(); ++k) handling.push_back(std::move(i.handling[k]));
    if (i.handling.size() > base) i.handling.resize(base);
    --i.depth;
    t_running = outer;
    if (state == GenState::Done) {
        give_stack(fiber.stack);
        fiber.stack = nullptr;
        slots.clear();
        if (error) {
            std::exception_ptr e = error;
            error = nullptr;
            try {
                std::rethrow_exception(e);
            } catch (GpyError& g) {
                // PEP 479: a StopIteration out of the body is a RuntimeError.
                if (g.obj()->type->is_subtype_of(types::StopIteration)) {
                    Value r = make_exception(types::RuntimeError, "generator raised StopIteration");
                    throw GpyError{r};
                }
                throw;
            }
        }
        return false;
    }
    out = std::move(transfer);
    return true;
}

GeneratorObj::~GeneratorObj() {
    if (state == GenState::Suspended && !in->shutting_down) {
        // close(): GeneratorExit at the yield unwinds the body's frames.
        inject = make_exception(types::GeneratorExit, "");
        Value ignored;
        try {
            refcount = 1;  // (resume takes a reference; this object is being destroyed)
            resume(*in, Value::none(), ignored);
        } catch (...) {
        }
        refcount = 0;
    }
    if (fiber.stack) {
        if (state == GenState::Done) give_stack(fiber.stack);
        // (still suspended at shutdown: its frames are abandoned with the stack)
        else ::munmap(fiber.stack, kFiberStack);
    }
}

GeneratorObj* self_generator(const Value& v) {
    if (!v.is_obj() || v.o->type != generator_type()) raise(types::TypeError, "descriptor requires a 'generator' object");
    return static_cast<GeneratorObj*>(v.o);
}

Value stop_iteration(Value value) {
    Value e = make_exception(types::StopIteration, "");
    auto* x = e.as<ExceptionObj>();
    x->args = value.is_none() ? make_tuple() : make_tuple({value});
    x->attrs.set("value", std::move(value));
    return e;
}

// gen.send(value), gen.__next__()
Value gen_send(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_generator(a[0]);
    Value out;
    if (g->resume(in, a.npos > 1 ? a[1] : Value::none(), out)) return out;
    Value r = std::move(g->result);  // (its return value goes out once; later calls give StopIteration())
    g->result = Value::none();
    throw GpyError{stop_iteration(r.is_undef() ? Value::none() : r)};
}

// gen.throw(exc) / gen.throw(type[, value])
Value gen_throw(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_generator(a[0]);
    if (a.npos < 2) raise(types::TypeError, "throw expected at least 1 argument, got 0");
    Value e = a[1];
    if (is_kind(e, OK::Type)) {
        std::vector<Value> args;
        if (a.npos > 2 && !a[2].is_none()) args.push_back(a[2]);
        CallArgs c{args.data(), args.size(), nullptr};
        e = in.call(e, c);
    }
    if (!is_kind(e, OK::Exception)) raise(types::TypeError, "exceptions must derive from BaseException");
    if (g->state == GenState::Running) raise(types::ValueError, "generator already executing");
    if (g->state == GenState::Created) {
        g->state = GenState::Done;  // never started: the exception comes straight out
        throw GpyError{e};
    }
    g->inject = e;
    Value out;
    if (g->resume(in, Value::none(), out)) return out;
    throw GpyError{stop_iteration(g->result)};
}

Value gen_close(Interp& in, CallArgs& a) {
    GeneratorObj* g = self_generator(a[0]);
    if (g->state == GenState::Running) raise(types::ValueError, "generator already executing");
    if (g->state == GenState::Created) {
        g->state = GenState::Done;
        return Value::none();
    }
    if (g->state != GenState::Suspended) return Value::none();
    g->inject = make_exception(types::GeneratorExit, "");
    Value out;
    try {
        if (g->resume(in, Value::none(), out)) raise(types::RuntimeError, "generator ignored GeneratorExit");
    } catch (GpyError& e) {
        if (!e.obj()->type->is_subtype_of(types::GeneratorExit) && !e.obj()->type->is_subtype_of(types::StopIteration)) throw;
    }
    return Value::none();
}

TypeObject* generator_type() {
    static TypeObject* t = [] {
        types::init();
        auto* g = new TypeObject("generator", nullptr, OK::Iter);
        auto method = [&](const char* name, NativeFn fn, const char* sig) {
            auto* b = new BuiltinObj(name, fn, sig, "");
            b->make_immortal();
            g->dict[name] = Value::object(b);
        };
        method("send", gen_send, "send(value, /)");
        method("__next__", gen_send, "__next__()");
        method("throw", gen_throw, "throw(typ[, val[, tb]], /)");
        method("close", gen_close, "close()");
        method("__iter__", [](Interp&, CallArgs& a) { return a[0]; }, "__iter__()");
        g->getattr = [](Interp&, const Value& v, const std::string& name) -> Value {
            auto* gen = static_cast<GeneratorObj*>(v.o);
            const FuncInfo* info = gen->func.as<FunctionObj>()->info;
            if (name == "__name__") return make_str(info->name);
            if (name == "__qualname__") return make_str(info->qualname);
            if (name == "gi_running") return Value::boolean(gen->state == GenState::Running);
            return Value();
        };
        g->repr = [](Interp&, const Value& v) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(v.o));
            return "<generator object " + static_cast<GeneratorObj*>(v.o)->func.as<FunctionObj>()->info->qualname + " at " + buf + ">";
        };
        return g;
    }();
    return t;
}

}  // namespace

Value make_generator(Interp& in, FunctionObj* fn, CallArgs& args) {
    std::vector<Value> slots = bind_generator_slots(in, fn, args);
    return Value::object(new GeneratorObj(in, Value::object(fn), std::move(slots)));
}

Value YieldExpr::eval(Frame& f) const {
    GeneratorObj* g = t_running;
    f.cur = this;
    if (!g) raise(types::RuntimeError, "yield outside a running generator");
    if (from) {
        // yield from: each item of the iterable in turn; its value is a
        // generator's return value.
        Value it = get_iter(f.in, value->eval(f));
        const bool sub_gen = it.is_obj() && it.o->type == generator_type();
        Value item;
        while (iter_next(f.in, it, item)) {
            g->transfer = std::move(item);
            g->state = GenState::Suspended;
            g->switch_out();
            g->state = GenState::Running;
            g->raise_injected();
        }
        return sub_gen ? static_cast<GeneratorObj*>(it.o)->result : Value::none();
    }
    g->transfer = value ? value->eval(f) : Value::none();
    f.cur = this;
    g->state = GenState::Suspended;
    g->switch_out();
    g->state = GenState::Running;
    g->raise_injected();
    return std::move(g->transfer);
}

}  // namespace gpy
