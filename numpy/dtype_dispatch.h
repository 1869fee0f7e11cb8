// Calls a generic lambda with a value of the C++ type of a real dtype, so a
// host loop is written once as a template and the type switch happens once
// per array, never per element.
#pragma once

#include <cstdint>

#include "lang/interp.h"
#include "base/dtype.h"

namespace gpy {

// f(T{}) for the element type T of `t`; complex dtypes raise TypeError
// naming `what` (complex arithmetic is not computed yet).
template <class F>
decltype(auto) with_real_ctype(DType t, const char* what, F&& f) {
    switch (t) {
        case DType::Bool: return f(bool{});
        case DType::Int8: return f(int8_t{});
        case DType::Int16: return f(int16_t{});
        case DType::Int32: return f(int32_t{});
        case DType::Int64: return f(int64_t{});
        case DType::UInt8: return f(uint8_t{});
        case DType::UInt16: return f(uint16_t{});
        case DType::UInt32: return f(uint32_t{});
        case DType::UInt64: return f(uint64_t{});
        case DType::Float16: return f(_Float16{});
        case DType::Float32: return f(float{});
        case DType::Float64: return f(double{});
        default: break;
    }
    raise(types::TypeError, std::string(what) + " of complex arrays is not supported yet");
}

}  // namespace gpy
