// Whole-file reads and writes for the array module's file functions (np.save,
// np.load, np.savetxt, np.loadtxt), failing with Python's OSError messages.
#pragma once

#include <string>

#include "lang/interp.h"

namespace gpy {

// The bytes of the file at `path`. Raises FileNotFoundError / OSError as
// Python's open() does: "[Errno 2] No such file or directory: 'x.npy'".
std::string read_file_bytes(const std::string& path);
// Creates or truncates `path` and writes `data`; the same errors.
void write_file_bytes(const std::string& path, const std::string& data);
// A path argument: a str (there are no file objects in gpy).
const std::string& path_arg(const Value& v, const char* fname);

// numpy/text_io.cpp: savetxt, loadtxt (registered by add_io_functions).
void add_text_io_functions(Interp& in, ModuleObj* m);

}  // namespace gpy
