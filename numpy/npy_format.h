// The .npy encoding shared by np.save/np.load (numpy/npy_io.cpp) and the
// .npz archives (numpy/npz.cpp).
#pragma once

#include <string>

#include "lang/interp.h"

namespace gpy {

struct NpyLoadOptions {
    bool allow_pickle = false;
    int64_t max_header_size = 10000;  // NumPy's _MAX_HEADER_SIZE, in characters
};

// The .npy file for an array-like value (np.save's bytes, byte for byte).
std::string npy_bytes(Interp& in, const Value& v);
// The array in a .npy file; NumPy's ValueErrors for malformed input.
Value npy_parse(Interp& in, const std::string& data, const NpyLoadOptions& opt);

// np.load of a zip archive: an NpzFile reading its members on access.
Value npz_open(Interp& in, const std::string& path, std::string data, const NpyLoadOptions& opt);
// savez, savez_compressed.
void add_npz_functions(Interp& in, ModuleObj* m);

}  // namespace gpy
