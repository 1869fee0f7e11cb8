// What unit tests that drive the planner directly share.
#pragma once

#include <cstring>
#include <string_view>
#include <vector>

#include "codegen/dag.h"
#include "gpy/gpy.h"

namespace gpy::test {

// The planner's kernel runner is installed when the array module is first
// imported; one import in a throw-away interpreter sets it up for this process.
inline void ensure_backend() {
    static bool done = [] {
        gpy::Config c;
        c.out = [](std::string_view) {};
        c.err = [](std::string_view) {};
        Interpreter interp(std::move(c));
        interp.run_string("import numpy", "<setup>");
        return true;
    }();
    (void)done;
}

// A float32 Input over a fresh buffer holding `values` (shape: 1-D by default).
inline dag::NodeP input_f32(const std::vector<float>& values, dag::Shape shape = {}) {
    if (shape.empty()) shape = {int64_t(values.size())};
    BufferRef b(Buffer::allocate(values.size() * sizeof(float)));
    std::memcpy(b.bytes(), values.data(), values.size() * sizeof(float));
    return dag::make_input(b, DType::Float32, shape, dag::contiguous_strides(shape, sizeof(float)), 0);
}

inline dag::NodeP scalar_f32(float v) {
    dag::ScalarValue s;
    s.f32 = v;
    return dag::make_scalar(DType::Float32, s);
}

}  // namespace gpy::test
