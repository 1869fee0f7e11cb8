// File IO: save/load (.npy), savetxt/loadtxt.
#include "stdlib/module_parts.h"

namespace gpy {

void add_io_functions(Interp& in, ModuleObj* m) {}

}  // namespace gpy
