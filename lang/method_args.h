// Argument checks for native methods of built-in types (str, list, dict, ...),
// in the several wordings CPython uses. Counts exclude self.
#pragma once

#include <initializer_list>
#include <string>

#include "lang/interp.h"

namespace gpy::margs {

[[noreturn]] void type_error(std::string m);
[[noreturn]] void value_error(std::string m);
std::string plural_args(size_t n);  // " argument" / " arguments"

// Rejects calls like list.append((), 1) made through the type.
void check_self(CallArgs& a, TypeObject* t, const char* name);
// "str.upper() takes no arguments (1 given)"
void noargs(CallArgs& a, TypeObject* t, const char* name);
// "list.append() takes exactly one argument (0 given)"
void onearg(CallArgs& a, TypeObject* t, const char* name);
// Argument Clinic positional-only: "ljust expected at least 1 argument, got 0".
void clinic(CallArgs& a, TypeObject* t, const char* name, size_t mn, size_t mx, bool kw_ok = false);
// PyArg_ParseTuple style: "find() takes at least 1 argument (0 given)".
void tuple_style(CallArgs& a, TypeObject* t, const char* name, size_t mn, size_t mx);
// set.union(*others) & co: any positional count, no keywords.
void varargs(CallArgs& a, TypeObject* t, const char* name);
// Positional-or-keyword parameters after self; out[k] stays Undef where
// parameter k was not given.
void bind_args(CallArgs& a, TypeObject* t, const char* name, std::initializer_list<const char*> params, Value* out);
int64_t int_arg(const Value& v);  // "'str' object cannot be interpreted as an integer"

}  // namespace gpy::margs
