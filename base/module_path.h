// Where gpy looks for its run-time modules (libgpy_cpujit.so, libgpy_cub.so):
// relative to the binary that holds gpy's code, never a path fixed at build
// time, so a build tree or an installed prefix can move.
#pragma once

#include <string>
#include <vector>

namespace gpy {

// Paths to try for module `file`, in order: $`env_var` (when set), then next
// to the object holding gpy's code (libgpy.so, or the executable it is
// linked into) and in its ../lib/gpy/ and gpy/ folders, then the same
// beside the running executable. The caller dlopen()s the first that
// exists, then the bare name (the loader's path: RUNPATH, LD_LIBRARY_PATH).
std::vector<std::string> module_search_paths(const std::string& file, const char* env_var);

}  // namespace gpy
