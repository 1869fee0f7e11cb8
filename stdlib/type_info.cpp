// finfo and iinfo: machine limits of the dtypes.
#include "stdlib/module_parts.h"

namespace gpy {

void add_type_info_functions(Interp& in, ModuleObj* m) {}

}  // namespace gpy
