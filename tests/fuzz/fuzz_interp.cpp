// libFuzzer harness: lexer + parser + resolver + evaluator on arbitrary input.
// Any crash, sanitizer report, hang or leak-to-death is a bug; gpy errors
// (SyntaxError, runtime exceptions) are the expected outcome for most inputs.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpy/gpy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4096) return 0;
    gpy::Config cfg;
    cfg.out = [](std::string_view) {};
    cfg.err = [](std::string_view) {};
    cfg.max_steps = 20000;      // bounds `while True: pass` and friends
    cfg.recursion_limit = 200;  // keeps ASan's larger frames inside the stack
    // Bounds one array's work: a mutated `10**6` became `20**6` normals,
    // 31 s under ASan (past the run's 10 s per input).
    cfg.max_array_bytes = 16 << 20;
    gpy::Interpreter interp(cfg);
    std::string src(reinterpret_cast<const char*>(data), size);
    interp.run_string(src, "<fuzz>");
    interp.check_input(src);
    return 0;
}
