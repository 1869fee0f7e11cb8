// What unit tests that drive the planner directly share.
#pragma once

#include <cstring>
#include <string_view>
#include <vector>

#include "codegen/dag.h"
#include "gpy/gpy.h"
#include "runtime/array_context.h"
#include "runtime/backend.h"

namespace gpy::test {

// Tests that drive the planner directly run in a context of their own (the
// runtime's part of an interpreter's, base/context.h), bound to the test
// thread: the default backend's, as `import numpy` makes it (the array
// module's part is not there: such tests make no ndarray). Interpreters the tests run bind
// theirs while they run and restore this one after.
inline ArrayContext& ensure_backend() {
    static ArrayContext* ctx = [] {
        auto* c = new ArrayContext();  // never destroyed: buffers of static tests may outlive main
        install_backend(*c, BackendOptions{});
        return c;
    }();
    t_bound_context = ctx;
    return *ctx;
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
