// A read-only look at array data in host memory: what printing, .npy writing
// and tolist() need, independent of how the array was produced.
#pragma once

#include <cstdint>
#include <vector>

#include "base/dtype.h"

namespace gpy {

struct HostArrayView {
    DType dtype = DType::Float64;
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;  // in bytes; may be negative or zero (broadcast)
    const uint8_t* data = nullptr; // element [0, 0, ..., 0]

    int ndim() const { return int(shape.size()); }
    int64_t size() const {
        int64_t n = 1;
        for (int64_t d : shape) n *= d;
        return n;
    }
};

}  // namespace gpy
