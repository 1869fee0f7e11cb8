// Clang-style diagnostics: `file:line:col: error: message`, the source line,
// and a caret (with `~` under the rest of the span).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "lang/source.h"

namespace gpy {

struct Note {
    Span span;
    std::string message;
};

// A syntax (or scope) error found before the program runs. `incomplete` means
// the input ended early (open bracket, block or string): the REPL asks for more.
struct SyntaxError : std::exception {
    Span span;
    std::string message;
    std::vector<Note> notes;
    bool incomplete = false;
    SyntaxError(Span s, std::string m, bool inc = false) : span(s), message(std::move(m)), incomplete(inc) {}
    const char* what() const noexcept override { return message.c_str(); }
};

// Renders one diagnostic: header line, source line, caret line.
std::string render_diagnostic(const Span& span, std::string_view kind, std::string_view message, bool color);
std::string render_syntax_error(const SyntaxError& e, bool color);

}  // namespace gpy
