// `cupyx`: CuPy's extensions a script imports. cupyx.jit (numpy/jit_kernel.cpp)
// and cupyx.profiler: benchmark (numpy/benchmark.cpp) and the NVTX-range and
// profiler-session context managers, time_range and profile, which gpy
// accepts and which mark nothing (gpy records no NVTX ranges).
#include "numpy/array.h"
#include "numpy/np_args.h"
#include "numpy/numpy_module.h"

namespace gpy {

namespace {

TypeObject* marker_type(const char* name);

// A time_range or profile object: a context manager and (time_range) a
// decorator returning the function unchanged.
struct MarkerObj : Object {
    bool sync = false;  // time_range(sync=True): the device's work finishes at both ends
    explicit MarkerObj(TypeObject* t) : Object(t) {}
};

void synchronize_if(Interp& in, const Value& self) {
    if (static_cast<MarkerObj*>(self.o)->sync && in.synchronize_hook) in.synchronize_hook();
}

Value marker_enter(Interp& in, CallArgs& a) {
    synchronize_if(in, a.pos[0]);
    return a.pos[0];
}
Value marker_exit(Interp& in, CallArgs& a) {
    synchronize_if(in, a.pos[0]);
    return Value::boolean(false);
}
Value marker_decorate(Interp&, CallArgs& a) {
    if (a.npos != 2) raise(types::TypeError, "time_range() as a decorator takes one function");
    return a.pos[1];
}

// time_range(message=None, color_id=None, argb_color=None, sync=False)
Value time_range(Interp&, CallArgs& a) {
    if (a.npos > 4) raise(types::TypeError, "time_range() takes at most 4 arguments");
    if (const Value* m = arg(a, 0, "message"); m && !m->is_none()) str_of(*m, "message");
    auto* r = new MarkerObj(marker_type("cupyx.profiler.time_range"));
    const Value* sync = arg(a, 3, "sync");
    r->sync = sync && truthy(*sync);
    return Value::object(r);
}

// profile(): CuPy starts and stops the CUDA profiler's collection.
Value profile(Interp&, CallArgs& a) {
    expect_args(a, "profile", 0, 0);
    return Value::object(new MarkerObj(marker_type("cupyx.profiler.profile")));
}

TypeObject* new_marker_type(const char* name, bool decorates) {
    auto* t = new TypeObject(name, nullptr, OK::Other);
    def_method(t, "__enter__", marker_enter, "__enter__()", "Begins the range (gpy records nothing).");
    def_method(t, "__exit__", marker_exit, "__exit__(*exc)", "Ends the range.");
    if (decorates) def_method(t, "__call__", marker_decorate, "__call__(func)", "The function itself (a decorated function's range).");
    return t;
}

// The two types, made once (thread-safe statics: interpreters may import cupyx on several threads).
TypeObject* marker_type(const char* name) {
    static TypeObject* const range_type = new_marker_type("cupyx.profiler.time_range", true);
    static TypeObject* const profile_type = new_marker_type("cupyx.profiler.profile", false);
    return std::string(name) == "cupyx.profiler.time_range" ? range_type : profile_type;
}

}  // namespace

ModuleObj* make_cupyx_module(Interp& in) {
    auto* profiler = new ModuleObj("cupyx.profiler");
    profiler->doc = "CuPy's cupyx.profiler: benchmark, time_range, profile.";
    if (const Value* b = in.import_module("numpy")->get("benchmark")) profiler->set("benchmark", *b);
    profiler->set("time_range", make_builtin("time_range", time_range, "time_range(message=None, color_id=None, argb_color=None, sync=False)",
                                             "A context manager and decorator naming a range of work (gpy records no NVTX range)."));
    profiler->set("profile", make_builtin("profile", profile, "profile()", "A context manager for a profiler session (gpy's does nothing)."));
    auto* cupyx = new ModuleObj("cupyx");
    cupyx->doc = "CuPy's extensions: cupyx.jit, cupyx.profiler.";
    cupyx->set("jit", Value::object(make_cupyx_jit_module(in)));
    cupyx->set("profiler", Value::object(profiler));
    return cupyx;
}

}  // namespace gpy
