// Indexing with NumPy's rules. Basic indices (integers, slices, `...`, None)
// give views that share memory (indexing.cpp); integer and boolean arrays
// ("advanced" indices) give copies and scatter on assignment
// (indexing_advanced.cpp).
#pragma once

#include "numpy/array.h"

namespace gpy {

// One element of an index, classified and validated.
struct IndexItem {
    enum class Kind { Int, Slice, NewAxis, Ellipsis, Array, Bool0d };
    Kind kind;
    int64_t i = 0;  // Int: the integer; Bool0d: 0 or 1
    Value v;        // Slice: the slice; Array: a materialised integer or boolean array (ndim >= 1)
    // Dimensions of the indexed array this item consumes.
    int consumed() const {
        if (kind == Kind::Int || kind == Kind::Slice) return 1;
        if (kind == Kind::Array) return as_array(v)->dtype == DType::Bool ? as_array(v)->ndim() : 1;
        return 0;
    }
};

struct Index {
    std::vector<IndexItem> items;
    bool advanced = false;  // holds an integer or boolean array (or a 0-d bool)
};

// Classifies `index` for an array of `ndim` dims; raises NumPy's IndexErrors
// (invalid index types, several ellipses, too many indices).
Index parse_index(Interp& in, const Value& index, int ndim);

Value array_getitem(Interp& in, const Value& self, const Value& index);
void array_setitem(Interp& in, const Value& self, const Value& index, Value value);

// Advanced indexing (indexing_advanced.cpp). advanced_get returns a fresh
// array; advanced_set broadcasts `value` (already of a's dtype) to the
// selection and writes it, the last write winning for repeated indices.
Value advanced_get(ArrayObj* a, const Index& ix);
void advanced_set(Interp& in, ArrayObj* a, const Index& ix, const Value& value);

// Byte offsets of a's elements in row-major order.
std::vector<int64_t> flat_offsets(const ArrayObj* a);
// NumPy drops leading length-1 dims of a value with more dims than the
// target (x[0] = [[1, 2, 3]] fills a row); returns a view without them.
Value drop_leading_ones(const Value& value, size_t ndim);
// The index value at `p` of an integer (or bool) array element, as intp.
int64_t read_index(DType t, const uint8_t* p);

}  // namespace gpy
