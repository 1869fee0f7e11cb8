// Python's standard-library modules that gpy implements natively, each in
// its own file (lang/stdlib_*.cpp), made on first import (Interp::import_module).
#pragma once

#include <string>

#include "lang/interp.h"

namespace gpy {

ModuleObj* make_itertools(Interp& in);  // lang/stdlib_itertools.cpp
ModuleObj* make_functools(Interp& in);  // lang/stdlib_functools.cpp
ModuleObj* make_bisect(Interp& in);     // lang/stdlib_bisect_heapq.cpp
ModuleObj* make_heapq(Interp& in);      // lang/stdlib_bisect_heapq.cpp
ModuleObj* make_random(Interp& in);     // lang/stdlib_random.cpp
ModuleObj* make_json(Interp& in);       // lang/stdlib_json.cpp
ModuleObj* make_operator(Interp& in);   // lang/stdlib_operator_copy_string.cpp
ModuleObj* make_copy(Interp& in);       // lang/stdlib_operator_copy_string.cpp
ModuleObj* make_string(Interp& in);     // lang/stdlib_operator_copy_string.cpp
ModuleObj* make_collections(Interp& in);  // lang/stdlib_collections.cpp
ModuleObj* make_dataclasses(Interp& in);  // lang/stdlib_dataclasses.cpp
ModuleObj* make_typing(Interp& in);       // lang/stdlib_dataclasses.cpp
ModuleObj* make_future(Interp& in);       // lang/stdlib_dataclasses.cpp

// Helpers for their functions.
inline void stdlib_def(ModuleObj* m, const char* name, NativeFn fn, const char* sig, const char* doc) {
    m->set(name, make_builtin(name, fn, sig, doc));
}
// The argument at `pos`, else the keyword `name`, else null.
inline const Value* stdlib_arg(CallArgs& a, size_t pos, const char* name) {
    if (a.npos > pos) return &a.pos[pos];
    return kwarg(a, name);
}
// The same, required: CPython's TypeError when it is missing.
inline const Value& stdlib_need(CallArgs& a, size_t pos, const char* name, const char* fname) {
    if (const Value* v = stdlib_arg(a, pos, name)) return *v;
    raise(types::TypeError, std::string(fname) + "() missing required argument '" + name + "' (pos " + std::to_string(pos + 1) + ")");
}

}  // namespace gpy
