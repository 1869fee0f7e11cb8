// The user-facing half of tab completion: what to insert and when to list.
// Finding candidates is the interpreter's job (Interpreter::complete); this
// file only turns candidates into edits, the way Python's readline REPL does:
// one match is completed, several are completed to their common prefix, and a
// second Tab with nothing left to add lists them.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpy::repl {

using CompleteFn = std::function<std::vector<std::string>(std::string_view)>;

struct TabAction {
    std::string insert;                // text to insert at the cursor
    std::vector<std::string> listing;  // when non-empty: show these, then redraw
    bool beep = false;                 // nothing to do
};

class TabCompleter {
public:
    explicit TabCompleter(CompleteFn fn) : fn_(std::move(fn)) {}
    // `before_cursor` is the text of the current line left of the cursor.
    TabAction on_tab(std::string_view before_cursor);

private:
    CompleteFn fn_;
    // Text before the cursor as left by the last ambiguous Tab: another Tab on
    // exactly this text (nothing typed in between) lists the candidates.
    std::string armed_at_;
    bool armed_ = false;
};

// Longest common prefix of all strings ("" for none).
std::string common_prefix(const std::vector<std::string>& items);

// Items sorted into columns down then across, like readline's listing, for a
// terminal `width` columns wide. Each row ends with '\n'.
std::string format_columns(std::vector<std::string> items, int width);

}  // namespace gpy::repl
