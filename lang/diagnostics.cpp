#include "lang/diagnostics.h"
#include "lang/utf8.h"

namespace gpy {

// The source line as shown: tabs expanded, and bytes that are not UTF-8
// shown as U+FFFD (a terminal, or a program reading stderr, gets text).
static std::string expand_tabs(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        if (s[i] == '\t') {
            out.append(4 - out.size() % 4, ' ');
            ++i;
            continue;
        }
        size_t at = i;
        bool ok = true;
        decode_utf8(s, i, &ok);
        if (ok) out.append(s.substr(at, i - at));
        else out += "\xEF\xBF\xBD";
    }
    return out;
}

// Count display columns of a byte range (tabs as 4-col stops, UTF-8 aware).
static size_t display_width(std::string_view s) { 
    size_t w = 0;
    for (char c : s) {
        if (c == '\t') w += 4 - w % 4;
        else if (!is_continuation(uint8_t(c))) ++w;
    }
    return w;
}

std::string render_diagnostic(const Span& span, std::string_view kind, std::string_view message, bool color) {
    std::string out;
    const char* bold = color ? "\x1b[1m" : "";
    const char* red = color ? (kind == "note" ? "\x1b[1;36m" : "\x1b[1;31m") : "";
    const char* green = color ? "\x1b[1;32m" : "";
    const char* reset = color ? "\x1b[0m" : "";
    if (!span.file) {
        out += std::string(red) + std::string(kind) + ": " + reset + std::string(message) + "\n";
        return out;
    }
    auto [line, col] = span.file->line_col(span.begin);
    out += bold + span.file->name + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + reset;
    out += std::string(red) + std::string(kind) + ":" + reset + " " + bold + std::string(message) + reset + "\n";
    std::string_view src = span.file->line_text(line);
    uint32_t line_begin = span.file->line_starts[line - 1];
    out += expand_tabs(src) + "\n";
    size_t lead = display_width(src.substr(0, span.begin - line_begin));
    uint32_t end_in_line = std::min<uint32_t>(span.end, line_begin + uint32_t(src.size()));
    size_t width = end_in_line > span.begin ? display_width(src.substr(span.begin - line_begin, end_in_line - span.begin)) : 1;
    out += std::string(lead, ' ') + green + "^" + std::string(width > 1 ? width - 1 : 0, '~') + reset + "\n";
    return out;
}

std::string render_syntax_error(const SyntaxError& e, bool color) {
    std::string out = render_diagnostic(e.span, "error", e.message, color);
    for (const Note& n : e.notes) out += render_diagnostic(n.span, "note", n.message, color);
    return out;
}

}  // namespace gpy
