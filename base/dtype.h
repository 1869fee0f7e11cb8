// Array element types, named and laid out as NumPy's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpy {

enum class DType : uint8_t {
    Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, Float32, Float64, Complex64, Complex128
};
constexpr int kNumDTypes = 14;

enum class DKind : uint8_t { Bool, Int, UInt, Float, Complex };

struct DTypeInfo {
    DType dtype;
    const char* name;      // NumPy's name: "float32"
    const char* char_code; // NumPy's dtype.char: "f"
    const char* npy_descr; // .npy descr (little endian): "<f4", "|b1"
    const char* ctype;     // type name in generated kernels: "float", "gpy_half", "gpy_complex64"
    DKind kind;
    size_t itemsize;
};

const DTypeInfo& info(DType t);
inline const char* name(DType t) { return info(t).name; }
inline size_t itemsize(DType t) { return info(t).itemsize; }
inline DKind kind(DType t) { return info(t).kind; }
inline bool is_integer(DType t) { return kind(t) == DKind::Int || kind(t) == DKind::UInt; }
inline bool is_float(DType t) { return kind(t) == DKind::Float; }
inline bool is_complex(DType t) { return kind(t) == DKind::Complex; }

// An integer dtype's smallest and largest values as int64; uint64's largest
// is clamped to INT64_MAX (gpy's ints are 64-bit). Other dtypes: the int64 range.
struct IntRange {
    int64_t lo, hi;
    bool contains(int64_t v) const { return v >= lo && v <= hi; }
};
inline IntRange int_range(DType t) {
    switch (t) {
        case DType::Int8: return {INT8_MIN, INT8_MAX};
        case DType::Int16: return {INT16_MIN, INT16_MAX};
        case DType::Int32: return {INT32_MIN, INT32_MAX};
        case DType::UInt8: return {0, UINT8_MAX};
        case DType::UInt16: return {0, UINT16_MAX};
        case DType::UInt32: return {0, int64_t(UINT32_MAX)};
        case DType::UInt64: return {0, INT64_MAX};
        default: return {INT64_MIN, INT64_MAX};
    }
}
inline bool is_inexact(DType t) { return is_float(t) || is_complex(t); }

// Parses "float32", "f4", "<f4", "f", "int", "float", "complex", "bool", "i8", ...
std::optional<DType> parse_dtype(std::string_view text);

}  // namespace gpy
