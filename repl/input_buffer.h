// Continuation logic of the REPL: collects lines until they form one input,
// deciding with Interpreter::check_input like Python's code.InteractiveConsole.
// Independent of how lines are read (libedit or a pipe).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gpy/gpy.h"

namespace gpy::repl {

using CheckFn = std::function<InputState(std::string_view)>;

struct Submission {
    enum Kind { None, Source, Magic } kind = None;
    std::string text;     // the input to run (Source ends with '\n')
    std::string history;  // the input as one history entry (no final '\n')
};

class InputBuffer {
public:
    explicit InputBuffer(CheckFn check) : check_(std::move(check)) {}

    // Feeds one line (without its newline). Returns kind None while more lines
    // are needed (or the line was blank at the primary prompt).
    Submission feed(std::string_view line);

    // Whether lines are pending, i.e. the next prompt is "... ".
    bool continuing() const { return !lines_.empty(); }
    void clear();
    // Whatever is pending, as a submission (used at end of input).
    Submission flush();

private:
    Submission submit();

    CheckFn check_;
    std::vector<std::string> lines_;
    // The first line came pasted from a Python session (">>> " prefix): then a
    // bare "..." line is the blank line that ended a pasted block.
    bool pasted_ = false;
    // The first line opens an indented block (ends with ':'): only a blank
    // line ends the input, even if a line in between already parses.
    bool block_ = false;
};

// Removes a ">>> " or "... " prompt copied along with pasted code.
// `in_paste` is set when a ">>> " prompt was removed.
std::string strip_pasted_prompt(std::string_view line, bool continuing, bool pasted, bool* in_paste);

}  // namespace gpy::repl
