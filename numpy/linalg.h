// Shared by the linear-algebra parts (linalg.cpp, einsum.cpp, linalg_module.cpp):
// the labelled-axes contraction every product is built on, and the BLAS library.
#pragma once

#include <string>
#include <vector>

#include "runtime/blas.h"
#include "numpy/array.h"

namespace gpy {

// The loaded BLAS/LAPACK; raises RuntimeError (naming the package) when missing.
const blas::Library& blas_library();

// Einstein summation over labelled axes: operand k's axis j carries label
// labels[k][j] (a label repeated within one operand takes the diagonal; a
// size-1 axis broadcasts against the label's size elsewhere); the result has
// the axes `out`, in that order, and every other label is summed. Computed in
// dtype `t`: float16/32/64 products that are a (batched) matrix product go to
// BLAS when it is installed (float16 through float32, as NumPy accumulates
// it); everything else is
// one fused multiply-and-sum kernel (bool: logical or of ands). Error messages
// spell a label as its character (einsum's letters). A 0-d result is a NumPy scalar.
Value contract(Interp& in, const std::vector<Value>& operands, const std::vector<std::vector<int>>& labels, const std::vector<int>& out,
               DType t);

// NumPy's "(2,3)" / "(3,)" in iterator messages (no spaces).
// NumPy's "(2,newaxis,3)": sizes in an iteration order (-1 = absent), leading
// absent ones dropped; a 1-D iteration prints as a tuple, "(3,)".
std::string remapped_text(const std::vector<int64_t>& dims);

}  // namespace gpy
