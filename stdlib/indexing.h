#pragma once

#include "stdlib/array.h"

namespace gpy {

struct View {
    dag::Shape shape;
    std::vector<int64_t> strides;
    int64_t offset = 0;
    bool all_integers = false;  // every dim taken by an integer: a scalar
};

View basic_view(ArrayObj* a, const Value& index);
Value array_getitem(Interp& in, const Value& self, const Value& index);
void array_setitem(Interp& in, const Value& self, const Value& index, Value value);

}  // namespace gpy
