// The ufunc loop table: for each supported NumPy ufunc, its ordered list of
// loops (numpy.<ufunc>.types restricted to gpy's dtypes) and the legacy type
// resolver NumPy uses for it. The data is generated from NumPy
// (tests/unit/gen_promote_cases.py --table > numpy/ufunc_table.inc); the
// algorithm that picks a loop lives in numpy/promote.cpp.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "base/dtype.h"

namespace gpy {

// NumPy's legacy type resolvers (numpy/_core/src/umath/ufunc_type_resolution.c),
// reduced to what matters without datetimes and objects.
enum class UfuncResolver : uint8_t {
    Default,        // PyUFunc_DefaultTypeResolver: first loop all inputs safely cast to
    SimpleUniform,  // every operand gets result_type(inputs) (add, multiply, maximum, ...)
    Subtraction,    // SimpleUniform, bool rejected
    Negative,       // SimpleUniform, bool rejected
    Absolute,       // complex -> Default (c -> f loops), else SimpleUniform
    TrueDivision,   // int/bool inputs -> the 'dd->d' loop, else Default
    Comparison,     // inputs get result_type(inputs), output bool (+ Python int special loops)
    Logical,        // Comparison resolver, but an inexact match promotes everything to bool
};

// One loop: nin + nout dtypes (at most 4 among the supported ufuncs).
struct LoopSig {
    DType t[4];
};

struct UfuncDef {
    std::string_view name;        // the name it is looked up by ("mod", "true_divide")
    std::string_view numpy_name;  // ufunc.__name__, used in messages ("remainder", "divide")
    uint8_t nin, nout;
    UfuncResolver resolver;
    uint16_t first_loop, num_loops;  // range in the loop table

    int nargs() const { return nin + nout; }
    std::span<const LoopSig> loops() const;
};

// nullptr when name is not a supported ufunc.
const UfuncDef* find_ufunc(std::string_view name);
std::span<const UfuncDef> all_ufuncs();

}  // namespace gpy
