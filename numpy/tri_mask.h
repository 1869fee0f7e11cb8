// NumPy's tri(N, M, k) as a boolean (N, L) mask (tri_mask.cpp says why L may
// differ from M): what np.tri, tril, triu and the tri*_indices build on.
#pragma once

#include <cstdint>

#include "lang/interp.h"

namespace gpy {

// N, M (None: N) and k as given (Python or NumPy numbers); k_offset is added
// to k in k's own arithmetic first (triu's tri(k=k - 1)).
// `invert` gives the mask's negation (triu's where(tri(k - 1), 0, m) keeps where it is false).
Value tri_mask(Interp& in, const Value& N, const Value& M, const Value& k, int64_t k_offset = 0, bool invert = false);

}  // namespace gpy
