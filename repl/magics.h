// IPython-style line magics typed at the REPL, handled before the interpreter
// sees the line:
//   %time STMT              run once; CPU (getrusage) and wall times
//   %timeit [-nN] [-rR] STMT  IPython's autorange (1, 10, 100... loops until a
//                           run takes >= 0.2 s), 7 runs, mean ± std. dev.
//   %kernels                the kernels the last statement ran (name and summary)
// Output formats match IPython's byte for byte (see time_format.h).
#pragma once

#include <cstdint>
#include <string_view>

#include "gpy/gpy.h"

namespace gpy::repl {

class Magics {
public:
    explicit Magics(Interpreter& interp) : interp_(interp) {}
    // `line` starts with '%'. Errors are printed; Status::Exit is passed on
    // when the timed statement called sys.exit.
    Result run(std::string_view line);
    // Before each input that is not a magic: where "the last statement's
    // kernels" begin.
    void statement_starts();

private:
    Result time(std::string_view stmt);
    Result timeit(std::string_view stmt);
    void out(std::string_view text);
    void err(std::string_view text);

    Interpreter& interp_;
    uint64_t last_statement_first_kernel_ = 0;
};

}  // namespace gpy::repl
