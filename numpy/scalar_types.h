// NumPy's scalar types: np.float64(1.5), x.sum() and x[0, 1] are values of
// type numpy.float64 (numpy.int8, numpy.bool, ...), not arrays. A scalar is
// stored as a 0-d ArrayObj with `numpy_scalar` set (set_numpy_scalar also
// sets its type), so every array operation takes it as it is; its type
// gives it NumPy's scalar behaviour: isinstance (np.float64 is a np.floating
// and a float), __index__, hashing and == as the Python value, len/iter/item
// errors, format() of the Python value, and the scalar methods.
#pragma once

#include <cstddef>

#include "base/dtype.h"
#include "lang/object.h"

namespace gpy {

// The abstract types above the scalar types, in this order:
// generic > number > integer > signedinteger / unsignedinteger;
// number > inexact > floating / complexfloating.
constexpr size_t kNumAbstractScalarTypes = 8;
TypeObject* abstract_scalar_type(size_t k);

// np.float64 & co. Made once by init_array_types: `construct` is what
// calling the type does.
TypeObject* make_scalar_type(DType t, NativeFn construct);
// After every ndarray slot and method is installed: the scalar types share
// the array slots (but where a scalar differs) and find the array methods
// through np.generic (NumPy's scalars have them).
void inherit_array_methods(const TypeObject* ndarray);

}  // namespace gpy
