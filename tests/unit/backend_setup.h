// What unit tests that drive the planner directly share.
#pragma once

#include <string_view>

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

}  // namespace gpy::test
