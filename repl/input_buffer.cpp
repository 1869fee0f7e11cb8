#include "repl/input_buffer.h"

namespace gpy::repl {
namespace {

bool blank(std::string_view s) {
    return s.find_first_not_of(" \t\f\r") == std::string_view::npos;
}

// Whether a line ends with ':' ignoring a trailing comment and spaces. A '#'
// inside a string literal is not handled; the check only decides whether a
// blank line is required, never how anything runs.
bool opens_block(std::string_view line) {
    std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::size_t end = line.find_last_not_of(" \t\r");
    return end != std::string_view::npos && line[end] == ':';
}

std::string join(const std::vector<std::string>& lines) {
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i) out += '\n';
        out += lines[i];
    }
    return out;
}

}  // namespace

std::string strip_pasted_prompt(std::string_view line, bool continuing, bool pasted, bool* in_paste) {
    if (line.substr(0, 4) == ">>> " || line == ">>>") {
        if (in_paste) *in_paste = true;
        return std::string(line.substr(line.size() >= 4 ? 4 : 3));
    }
    if (line.substr(0, 4) == "... ") return std::string(line.substr(4));
    // "..." alone is Python's Ellipsis, so it is read as an empty continuation
    // line only inside a block pasted from a Python session.
    if (line == "..." && continuing && pasted) return "";
    return std::string(line);
}

void InputBuffer::clear() {
    lines_.clear();
    pasted_ = false;
    block_ = false;
}

Submission InputBuffer::submit() {
    Submission s;
    s.kind = Submission::Source;
    s.history = join(lines_);
    s.text = s.history + "\n";
    clear();
    return s;
}

Submission InputBuffer::flush() {
    if (lines_.empty()) return {};
    return submit();
}

Submission InputBuffer::feed(std::string_view raw) {
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    bool pasted_now = false;
    std::string line = strip_pasted_prompt(raw, continuing(), pasted_, &pasted_now);

    if (!continuing()) {
        if (blank(line)) return {};
        std::size_t first = line.find_first_not_of(" \t");
        if (line[first] == '%') {
            // A line starting with '%' is never valid Python, so magics can
            // be recognised without asking the parser.
            Submission s;
            s.kind = Submission::Magic;
            s.text = line.substr(first);
            s.history = s.text;
            return s;
        }
        pasted_ = pasted_now;
        block_ = opens_block(line);
    } else if (blank(line)) {
        return submit();  // an empty line at "... " ends the input
    }

    lines_.push_back(std::move(line));
    switch (check_(join(lines_))) {
    case InputState::Incomplete:
        return {};
    case InputState::Invalid:
        return submit();  // run_interactive reports the syntax error
    case InputState::Complete:
        // Python only ends an indented block at a blank line; keep asking for
        // lines while the last one is still inside the block.
        if (block_ && lines_.size() > 1 && (lines_.back()[0] == ' ' || lines_.back()[0] == '\t'))
            return {};
        return submit();
    }
    return {};
}

}  // namespace gpy::repl
