// Shape functions: concatenate, stack, split, tile, repeat, flip, roll, pad, diag, ...
#include "stdlib/module_parts.h"

namespace gpy {

void add_shape_functions(Interp& in, ModuleObj* m) {}
void install_shape_methods() {}

}  // namespace gpy
