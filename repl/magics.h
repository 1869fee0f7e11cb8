// IPython-style line magics typed at the REPL, handled before the interpreter
// sees the line:
//   %time STMT              run once; CPU (getrusage) and wall times
//   %timeit [-nN] [-rR] STMT  IPython's autorange (1, 10, 100... loops until a
//                           run takes >= 0.2 s), 7 runs, mean ± std. dev.
//   %kernels                generated kernels (none until arrays arrive)
// Output formats match IPython's byte for byte (see time_format.h).
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
