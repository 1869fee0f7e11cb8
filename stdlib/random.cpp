// np.random: Philox4x32-10 counter-based generator (cuRAND's stream).
#include "stdlib/module_parts.h"

namespace gpy {

void add_random_module(Interp& in, ModuleObj* m) {}

}  // namespace gpy
