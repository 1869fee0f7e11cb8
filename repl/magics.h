// IPython-style line magics typed at the REPL: %time, %timeit, %kernels.
// They are handled here, before the interpreter sees the line.
#pragma once

#include <string_view>

#include "gpy/gpy.h"

namespace gpy::repl {

class Magics {
public:
    explicit Magics(Interpreter& interp) : interp_(interp) {}
    // `line` starts with '%'. Errors are printed; Status::Exit is passed on
    // when the timed statement called sys.exit.
    Result run(std::string_view line);

private:
    Result time(std::string_view stmt);
    Result timeit(std::string_view stmt);
    void out(std::string_view text);
    void err(std::string_view text);

    Interpreter& interp_;
};

}  // namespace gpy::repl
