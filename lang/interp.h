// The interpreter's internal state and the operations the evaluator and the
// built-in library share (calls, attribute access, operators, conversions).
#pragma once

#include <atomic>
#include <csignal>
#include <memory>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/context.h"
#include "gpy/gpy.h"
#include "lang/ast.h"
#include "lang/object.h"

namespace gpy {

// One activation: a module body or a function call.
// The statement this thread is executing (innermost; restored after a call
// returns), for the array module's plan report: which source lines a kernel
// computes. Null outside any.
extern thread_local const Stmt* t_current_statement;

// The names a running class body binds, in the order it binds them
// (lang/classes.cpp).
struct ClassNamespace {
    std::unordered_map<std::string, Value> values;
    std::vector<std::string> order;
    void set(const std::string& name, Value v) {
        auto [it, fresh] = values.insert_or_assign(name, std::move(v));
        if (fresh) order.push_back(name);
    }
};

struct Frame {
    Interp& in;
    Value* slots;               // locals and hidden temporaries
    ModuleObj* module;          // globals
    FunctionObj* func;          // null for module code
    const Node* cur = nullptr;  // node being executed, for tracebacks
    Value retval;
    ClassNamespace* class_ns = nullptr;  // set while a class body runs (NameScope::Class)
    Frame(Interp& i, Value* s, ModuleObj* m, FunctionObj* f) : in(i), slots(s), module(m), func(f) {}
};

class Interp {
public:
    explicit Interp(Config cfg);
    ~Interp();

    Config cfg;
    Ref<ModuleObj> main;  // __main__
    std::unordered_map<std::string, Value> builtins;
    std::unordered_map<std::string, Ref<ModuleObj>> modules;  // loaded modules by name
    std::vector<std::shared_ptr<Program>> programs;            // kept alive: functions point into them

    // ---- value stack for frames (no allocation per call) ----
    std::vector<Value> stack;
    size_t sp = 0;
    int depth = 0;
    int recursion_limit = 1000;
    int repr_depth = 0;  // containers being repr'd (nested), counted against recursion_limit as CPython does
    char* native_stack_limit = nullptr;  // raise RecursionError below this address
    bool shutting_down = false;  // set as the interpreter is destroyed

    // ---- interruption and step budget, checked at loop back-edges and calls ----
    long long countdown = 4096;
    long long steps_left = 0;  // used when cfg.max_steps > 0
    volatile std::sig_atomic_t interrupted = 0;
    // The flag is read at every tick too: with a statement that takes
    // milliseconds (a kernel compile), a batch of 4096 ticks would delay
    // Ctrl-C by seconds.
    void tick() { if (--countdown < 0 || interrupted) slow_tick(); }
    void slow_tick();

    // Exceptions currently being handled (innermost last), for bare `raise`.
    std::vector<Value> handling;

    // The array library's context (base/context.h; made by `import numpy`,
    // numpy/array_state.h): bound to the thread while this interpreter
    // runs, so that two interpreters never share backend, arrays or limits.
    std::unique_ptr<Context> array_context;
    // Set by the array library: synchronize() computes pending arrays and waits for the device.
    void (*synchronize_hook)() = nullptr;

    // ---- output ----
    // Printed text waits here: in blocks of 64 KiB for a pipe or file (as
    // CPython's stdout), line by line for a terminal or an embedder's sink.
    std::string outbuf;
    bool line_buffered = false;
    void write_out(std::string_view s) {
        outbuf.append(s);
        if (outbuf.size() > (1 << 16)) flush_out();
        else if (line_buffered && s.find('\n') != std::string_view::npos) flush_lines();
    }
    void flush_out();
    void flush_lines();  // the text up to the last newline
    void write_err(std::string_view s);

    // ---- running code ----
    // Parses, resolves and runs; returns the module-level result. Throws
    // SyntaxError / GpyError.
    // Runs a resolved program with `module` as its globals (default: __main__).
    void exec_program(const std::shared_ptr<Program>& prog, ModuleObj* module = nullptr);
    // Parses `source` (its file name: `filename`), binds its globals to
    // `module` and runs it there: a native module's part written in the
    // language (numpy/py/). A syntax error in it is an internal error.
    void run_in_module(ModuleObj* module, const std::string& filename, std::string source);
    Value call(const Value& callee, CallArgs& args);
    Value call0(const Value& callee);
    Value call1(const Value& callee, Value a);
    Value call_function(FunctionObj* fn, CallArgs& args);
    void check_native_stack();

    ModuleObj* import_module(const std::string& name);
    // Native modules the host provides (the embedding layer registers the
    // array module under numpy, cupy and gpy): made on the first import of
    // any of its names, one object under all of them.
    struct NativeModule {
        std::vector<std::string> names;
        ModuleObj* (*make)(Interp& in);
    };
    std::vector<NativeModule> native_modules;
};

// ---- protocol helpers (ops.cpp) ----
bool truthy(const Value& v);
std::string repr(Interp& in, const Value& v);
// A MemoryError's text for an allocation failure: the device pool's own
// message, or "out of host memory" for a plain std::bad_alloc.
std::string memory_error_text(const std::exception& e);
// Raises MemoryError before a string or container of `bytes` is built when
// it could never fit: past the machine's physical memory, or the
// interpreter's max_array_bytes. (Growing one step at a time would instead
// run the machine out of memory.)
void check_host_bytes(Interp& in, uint64_t bytes);
// The Python exception a C++ exception from inside the library stands for:
// MemoryError for std::bad_alloc and std::length_error (a container asked
// past its limit), KeyboardInterrupt for Interrupted (base/interrupt.h: Ctrl-C
// stopped native work), else SystemError "internal error (please report): ...".
// Either way the program can catch it and the interpreter goes on.
GpyError python_error_from(const std::exception& e);
std::string to_str(Interp& in, const Value& v);
const char* type_name(const Value& v);
bool values_equal(Interp& in, const Value& a, const Value& b);
uint64_t hash_value(Interp& in, const Value& v);
Value binary_op(Interp& in, BinOp op, const Value& a, const Value& b);
Value inplace_op(Interp& in, BinOp op, Value& a, const Value& b);  // may mutate a (list +=, str +=)
Value unary_op(Interp& in, UnOp op, const Value& v);
bool compare_op(Interp& in, CmpOp op, const Value& a, const Value& b);
Value rich_compare(Interp& in, CmpOp op, const Value& a, const Value& b);
bool contains(Interp& in, const Value& container, const Value& item);
Value get_attr(Interp& in, const Value& obj, const std::string& name);
bool has_attr(Interp& in, const Value& obj, const std::string& name);
void set_attr(Interp& in, const Value& obj, const std::string& name, Value v);
Value get_item(Interp& in, const Value& obj, const Value& index);
void set_item(Interp& in, const Value& obj, const Value& index, Value v);
void del_item(Interp& in, const Value& obj, const Value& index);
int64_t length(Interp& in, const Value& v);
Value make_slice(Value lo, Value hi, Value step);
bool isinstance(const Value& v, const TypeObject* t);
std::string format_value(Interp& in, const Value& v, std::string_view spec);
std::vector<std::string> attribute_names(Interp& in, const Value& v);

// ---- classes (classes.cpp) ----
// The class a `class` statement makes from its bases and its body's names.
Value make_class(Interp& in, const std::string& name, const std::string& qualname, const std::vector<Value>& bases,
                 ClassNamespace& ns, ModuleObj* module, std::vector<std::pair<std::string, Value>>* keywords);
// Calling a class: __new__ (or a fresh instance), then __init__.
Value make_instance(Interp& in, TypeObject* cls, CallArgs& args);
// A class's attribute as `Class.name` gives it (staticmethods unwrapped,
// classmethods bound), __qualname__, __mro__ and the like; Undef if none.
Value type_attribute(Interp& in, TypeObject* t, const std::string& name);
// `super()` in a method: its class and first argument.
Value bare_super(Interp& in, const FunctionObj* fn, const Value* first);
bool is_super_type(const Value& v);
// del obj.name (property deleters, __delattr__, class attributes).
void del_attr(Interp& in, const Value& obj, const std::string& name);
// Whether a class statement's class (or a base of it, not `object`) defines `name`.
bool class_defines(const TypeObject* t, const char* name);
// Calls obj's `name` when its class defines it: true and `out` its result.
bool call_user_dunder(Interp& in, const Value& obj, const char* name, Value& out, const Value* args = nullptr, size_t n = 0);
// An instance of v's class with v's attributes (copy.copy); `each` maps
// every attribute value (copy.deepcopy's copier), registered in `memo` first.
Value copy_instance(Interp& in, const Value& v, const std::function<Value(const Value&)>& each,
                    const std::function<void(const Value&)>& created);
// vars(obj): the instance's attribute dict, live.
Value instance_dict(Interp& in, const Value& obj);
// object, property, staticmethod, classmethod, super, NotImplemented.
void add_class_builtins(Interp& in);

// ---- generators (generators.cpp) ----
// A call of a generator function: its arguments bound, its body not started.
Value make_generator(Interp& in, FunctionObj* fn, CallArgs& args);
// (eval_stmt.cpp) A generator function's slots with its arguments bound, and
// its body run in a frame over them (what the generator's fiber runs).
std::vector<Value> bind_generator_slots(Interp& in, FunctionObj* fn, CallArgs& args);
Value run_generator_body(Interp& in, FunctionObj* fn, Value* slots);

// ---- iteration (iter.cpp) ----
Value get_iter(Interp& in, const Value& v);  // an IterObj
bool iter_next(Interp& in, const Value& it, Value& out);
// Calls fn(item) for each item; fn returns false to stop early.
template <class F>
void for_each(Interp& in, const Value& iterable, F&& fn);
std::vector<Value> to_vector(Interp& in, const Value& iterable);

// ---- argument helpers for builtins ----
void expect_args(CallArgs& a, const char* fname, size_t min, size_t max);
void no_kwargs(CallArgs& a, const char* fname);
const Value* kwarg(CallArgs& a, const char* name);  // and removes nothing; null if absent
int64_t to_index(const Value& v, const char* what = "indices");
// Python's operator.index: an int or bool, or an object whose type has an
// __index__ (TypeObject::index: NumPy integer scalars, 0-d integer arrays).
bool index_value(const Value& v, int64_t& out);
// index_value or "'T' object cannot be interpreted as an integer" (TypeError).
int64_t index_arg(const Value& v);
double to_double(const Value& v, const char* fname);
// The checked path from a value to a real number: Python ints, floats and
// bools, and objects with a scalar hook (NumPy scalars, one-element arrays)
// whose value is real. False for anything else (a complex value included:
// never the bits of an object read as a number).
bool real_value(const Value& v, double& out);
const std::string& str_of(const Value& v, const char* what);

Value ellipsis_value();
// Stable sort with Python's `<` and an optional key function (sorted, list.sort).
void sort_values(Interp& in, std::vector<Value>& items, const Value* key, bool reverse);
// Signature text of a user function, e.g. "f(a, b=..., *args)".
std::string function_signature(const FuncInfo& info);

// ---- complex numbers (complex.cpp) ----
// The value of an int, bool, float or complex as (re, im); false for anything else.
bool complex_parts(const Value& v, double& re, double& im);
// CPython's complex ** (also what float ** float gives for a negative base).
Value complex_power(double are, double aim, double bre, double bim);
// CPython's repr of a complex, e.g. "(1+2j)", "1j", "(-0-1j)", "(nan+infj)".
std::string complex_repr(double re, double im);
int64_t hash_double(double v);  // CPython's float hash (ops.cpp)
void install_complex_type();      // slots, methods and constructor of `complex`
ModuleObj* make_cmath(Interp& in);

// Registration of the built-in library (builtins*.cpp, modules.cpp).
void install_builtins(Interp& in);
void install_type_methods();  // once per process: calls the three below
void install_str_methods();        // builtins_str.cpp
void install_container_methods();  // builtins_containers.cpp (list, tuple, dict, set, views)
void install_number_methods();     // builtins.cpp (int, float)
// Adds an immortal native method `type.name`; `fn` receives self as args[0].
void def_method(TypeObject* type, const char* name, NativeFn fn, const char* signature, const char* doc);
// Python's `%` string formatting ("%5.2f" % x); in builtins_str.cpp.
Value percent_format(Interp& in, const std::string& fmt, const Value& args);
// str.format(); in builtins_str.cpp.
std::string str_format(Interp& in, const std::string& fmt, CallArgs& args, size_t first_arg);

template <class F>
void for_each(Interp& in, const Value& iterable, F&& fn) {
    if (is_kind(iterable, OK::List)) {
        auto* l = iterable.as<ListObj>();
        for (size_t k = 0; k < l->items.size(); ++k) {
            Value item = l->items[k];
            if (!fn(item)) return;
        }
        return;
    }
    if (is_kind(iterable, OK::Tuple)) {
        for (const Value& item : iterable.as<TupleObj>()->items)
            if (!fn(item)) return;
        return;
    }
    Value it = get_iter(in, iterable);
    Value item;
    while (iter_next(in, it, item))
        if (!fn(item)) return;
}

}  // namespace gpy
