// Scope analysis: decides for every name whether it is a local slot, a cell
// (a local captured by an inner function), a free variable (a captured
// variable of an enclosing function) or a module global, Python's rules.
#pragma once

#include <functional>

#include "lang/ast.h"
#include "lang/diagnostics.h"

namespace gpy {

struct ModuleObj;

// `builtin` returns the builtin bound to a name, or null. Throws SyntaxError
// for scope errors (e.g. nonlocal without binding).
void resolve_program(Program& prog, ModuleObj& module, const std::function<const Value*(const std::string&)>& builtin);

}  // namespace gpy
