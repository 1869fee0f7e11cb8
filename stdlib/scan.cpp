// Scans (cumsum, cumprod), nan-reductions, ufunc objects and their methods.
#include "stdlib/module_parts.h"

namespace gpy {

void add_scan_functions(Interp& in, ModuleObj* m) {}
void install_scan_methods() {}

}  // namespace gpy
