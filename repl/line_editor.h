// Terminal line editing through libedit's native API (histedit.h): prompts,
// emacs key bindings, persistent history and tab completion.
#pragma once

#include <string>

#include "repl/completion.h"
#include "repl/line_source.h"

struct editline;  // EditLine, from histedit.h
struct history;   // History, from histedit.h

namespace gpy::repl {

class LineEditor : public LineSource {
public:
    // `history_path` may be empty (no persistence). Reading or writing the
    // history file may fail silently: history is a convenience.
    LineEditor(std::string history_path, CompleteFn complete);
    ~LineEditor() override;
    LineEditor(const LineEditor&) = delete;
    LineEditor& operator=(const LineEditor&) = delete;

    // False when libedit could not set up the terminal; use PlainReader then.
    bool ok() const { return el_ != nullptr; }
    ReadResult read_line(const std::string& prompt) override;
    void add_history(const std::string& entry) override;

private:
    static char* prompt_cb(struct editline* el);
    static int getc_cb(struct editline* el, wchar_t* out);
    static unsigned char tab_cb(struct editline* el, int ch);
    static unsigned char ctrl_d_cb(struct editline* el, int ch);
    static LineEditor& self(struct editline* el);

    struct editline* el_ = nullptr;
    struct history* hist_ = nullptr;
    std::string history_path_;
    std::string prompt_;
    TabCompleter tab_;
    int in_fd_;
};

// $GPY_HISTORY_FILE if set, else ~/.gpy_history ("" when no home is known).
std::string default_history_path();

}  // namespace gpy::repl
