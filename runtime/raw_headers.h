// Headers a user's CUDA source may include that gpy provides itself:
// `#include <cupy/complex.cuh>` (CuPy's complex<T> for raw kernels, which its
// documentation's examples include). Both backends compile the expanded text,
// so the header works on the CPU's emulation, where #include does not.
#pragma once

#include <string>

namespace gpy {

// `code` with each `#include <cupy/complex.cuh>` (or "cupy/complex.cuh")
// replaced by the header's text, bracketed by #line directives so that
// diagnostics keep `file`'s line numbers.
std::string expand_bundled_headers(const std::string& code, const std::string& file);

}  // namespace gpy
