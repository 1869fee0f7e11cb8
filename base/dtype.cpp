#include "base/dtype.h"

#include <string>

namespace gpy {

static const DTypeInfo kInfo[kNumDTypes] = {
    {DType::Bool, "bool", "?", "|b1", "bool", DKind::Bool, 1},
    {DType::Int8, "int8", "b", "|i1", "int8_t", DKind::Int, 1},
    {DType::Int16, "int16", "h", "<i2", "int16_t", DKind::Int, 2},
    {DType::Int32, "int32", "i", "<i4", "int32_t", DKind::Int, 4},
    {DType::Int64, "int64", "l", "<i8", "int64_t", DKind::Int, 8},
    {DType::UInt8, "uint8", "B", "|u1", "uint8_t", DKind::UInt, 1},
    {DType::UInt16, "uint16", "H", "<u2", "uint16_t", DKind::UInt, 2},
    {DType::UInt32, "uint32", "I", "<u4", "uint32_t", DKind::UInt, 4},
    {DType::UInt64, "uint64", "L", "<u8", "uint64_t", DKind::UInt, 8},
    {DType::Float16, "float16", "e", "<f2", "gpy_half", DKind::Float, 2},
    {DType::Float32, "float32", "f", "<f4", "float", DKind::Float, 4},
    {DType::Float64, "float64", "d", "<f8", "double", DKind::Float, 8},
    {DType::Complex64, "complex64", "F", "<c8", "gpy_complex64", DKind::Complex, 8},
    {DType::Complex128, "complex128", "D", "<c16", "gpy_complex128", DKind::Complex, 16},
};

const DTypeInfo& info(DType t) { return kInfo[int(t)]; }

std::optional<DType> parse_dtype(std::string_view text) {
    std::string s(text);
    if (!s.empty() && (s[0] == '<' || s[0] == '=' || s[0] == '|')) s = s.substr(1);
    static const struct { const char* alias; DType t; } kAliases[] = {
        {"bool", DType::Bool}, {"bool_", DType::Bool}, {"?", DType::Bool}, {"b1", DType::Bool},
        {"int8", DType::Int8}, {"i1", DType::Int8}, {"b", DType::Int8}, {"byte", DType::Int8},
        {"int16", DType::Int16}, {"i2", DType::Int16}, {"h", DType::Int16}, {"short", DType::Int16},
        {"int32", DType::Int32}, {"i4", DType::Int32}, {"i", DType::Int32}, {"intc", DType::Int32},
        {"int64", DType::Int64}, {"i8", DType::Int64}, {"l", DType::Int64}, {"int", DType::Int64},
        {"int_", DType::Int64}, {"intp", DType::Int64}, {"q", DType::Int64}, {"long", DType::Int64},
        {"uint8", DType::UInt8}, {"u1", DType::UInt8}, {"B", DType::UInt8}, {"ubyte", DType::UInt8},
        {"uint16", DType::UInt16}, {"u2", DType::UInt16}, {"H", DType::UInt16}, {"ushort", DType::UInt16},
        {"uint32", DType::UInt32}, {"u4", DType::UInt32}, {"I", DType::UInt32}, {"uintc", DType::UInt32},
        {"uint64", DType::UInt64}, {"u8", DType::UInt64}, {"L", DType::UInt64}, {"uint", DType::UInt64},
        {"uintp", DType::UInt64}, {"Q", DType::UInt64}, {"ulong", DType::UInt64},
        {"float16", DType::Float16}, {"f2", DType::Float16}, {"e", DType::Float16}, {"half", DType::Float16},
        {"float32", DType::Float32}, {"f4", DType::Float32}, {"f", DType::Float32}, {"single", DType::Float32},
        {"float64", DType::Float64}, {"f8", DType::Float64}, {"d", DType::Float64}, {"float", DType::Float64},
        {"double", DType::Float64}, {"float_", DType::Float64},
        {"complex64", DType::Complex64}, {"c8", DType::Complex64}, {"F", DType::Complex64}, {"csingle", DType::Complex64},
        {"complex128", DType::Complex128}, {"c16", DType::Complex128}, {"D", DType::Complex128},
        {"complex", DType::Complex128}, {"cdouble", DType::Complex128}, {"complex_", DType::Complex128},
    };
    for (auto& a : kAliases)
        if (s == a.alias) return a.t;
    return std::nullopt;
}

}  // namespace gpy
