// The interactive read-eval-print loop, built only on the public API in
// include/gpy/gpy.h. Line editing uses libedit (BSD licence), never GNU
// readline (GPL), so gpy can be linked into hosts under any licence.
#pragma once

#include <string>

#include "gpy/gpy.h"

namespace gpy {

struct ReplOptions {
    bool show_banner = true;
    // Text shown in parentheses after the version, e.g. "backend: cpu".
    std::string banner_extra;
};

// Runs the REPL on stdin/stdout until Ctrl-D / EOF (returns 0) or until the
// program calls sys.exit (returns its code). Errors never end the session.
// With a terminal on stdin and stdout the input is edited with libedit
// (history in $GPY_HISTORY_FILE or ~/.gpy_history, tab completion); otherwise
// plain lines are read from stdin with the same continuation rules.
int run_repl(Interpreter& interp, const ReplOptions& opts);

}  // namespace gpy
