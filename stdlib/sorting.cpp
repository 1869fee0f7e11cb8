// Sorting and searching: sort, argsort, unique, searchsorted, nonzero, argwhere.
#include "stdlib/module_parts.h"

namespace gpy {

void add_sorting_functions(Interp& in, ModuleObj* m) {}
void install_sorting_methods() {}

}  // namespace gpy
