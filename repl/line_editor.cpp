#include "repl/line_editor.h"

#include <histedit.h>

#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pwd.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "repl/sigint.h"

namespace gpy::repl {
namespace {

// libedit converts the edited (wide) line back to bytes with the C library's
// multibyte functions, so a UTF-8 LC_CTYPE is needed for non-ASCII input.
// Python does the same coercion of the "C" locale (PEP 538).
void ensure_utf8_ctype() {
    const char* cur = std::setlocale(LC_CTYPE, "");
    if (cur == nullptr || MB_CUR_MAX == 1) {
        if (std::setlocale(LC_CTYPE, "C.UTF-8") == nullptr) std::setlocale(LC_CTYPE, "C.utf8");
    }
}

int terminal_width() {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

}  // namespace

std::string default_history_path() {
    if (const char* env = std::getenv("GPY_HISTORY_FILE"); env != nullptr && *env) return env;
    const char* home = std::getenv("HOME");
    if (home == nullptr || !*home) {
        if (const passwd* pw = getpwuid(getuid())) home = pw->pw_dir;
    }
    if (home == nullptr || !*home) return "";
    return std::string(home) + "/.gpy_history";
}

LineEditor::LineEditor(std::string history_path, CompleteFn complete)
    : history_path_(std::move(history_path)), tab_(std::move(complete)), in_fd_(STDIN_FILENO) {
    ensure_utf8_ctype();
    el_ = el_init("gpy", stdin, stdout, stderr);
    if (el_ == nullptr) return;
    el_set(el_, EL_CLIENTDATA, this);
    el_set(el_, EL_EDITOR, "emacs");
    // Signals stay ours: libedit's own handlers would re-send SIGINT to the
    // whole process group. Our reader below reports Ctrl-C instead.
    el_set(el_, EL_SIGNAL, 0);
    el_set(el_, EL_PROMPT, &LineEditor::prompt_cb);
    el_set(el_, EL_GETCFN, &LineEditor::getc_cb);

    hist_ = history_init();
    HistEvent ev;
    history(hist_, &ev, H_SETSIZE, 1000);
    history(hist_, &ev, H_SETUNIQUE, 1);  // no consecutive duplicates
    if (!history_path_.empty()) history(hist_, &ev, H_LOAD, history_path_.c_str());
    el_set(el_, EL_HIST, history, hist_);

    el_set(el_, EL_ADDFN, "gpy-complete", "complete a name", &LineEditor::tab_cb);
    el_set(el_, EL_BIND, "^I", "gpy-complete", nullptr);
    el_set(el_, EL_ADDFN, "gpy-eof-or-delete", "end input on an empty line, else delete",
           &LineEditor::ctrl_d_cb);
    el_set(el_, EL_BIND, "^D", "gpy-eof-or-delete", nullptr);
    // Let users keep their ~/.editrc (or $EDITRC) customisations.
    el_source(el_, nullptr);
}

LineEditor::~LineEditor() {
    if (el_) el_end(el_);
    if (hist_) history_end(hist_);
}

LineEditor& LineEditor::self(EditLine* el) {
    void* data = nullptr;
    el_get(el, EL_CLIENTDATA, &data);
    return *static_cast<LineEditor*>(data);
}

char* LineEditor::prompt_cb(EditLine* el) { return self(el).prompt_.data(); }

// Replaces libedit's reader: libedit retries a read() that failed with EINTR,
// which would swallow Ctrl-C. This reader gives up the line when the SIGINT
// handler has flagged an interrupt and retries on any other signal.
int LineEditor::getc_cb(EditLine* el, wchar_t* out) {
    int fd = self(el).in_fd_;
    auto read_byte = [fd](unsigned char* b) -> int {
        for (;;) {
            ssize_t n = ::read(fd, b, 1);
            if (n == 1) return 1;
            if (n == 0) return 0;
            if (errno == EINTR && !sigint_pending()) continue;
            return -1;  // errno stays EINTR for an interrupt
        }
    };
    unsigned char b0;
    for (;;) {
        int r = read_byte(&b0);
        if (r != 1) {
            *out = L'\0';
            return r;
        }
        // Decode UTF-8 here so editing works whatever the locale's decoder.
        int extra = b0 < 0x80 ? 0 : (b0 & 0xE0) == 0xC0 ? 1 : (b0 & 0xF0) == 0xE0 ? 2 : (b0 & 0xF8) == 0xF0 ? 3 : -1;
        if (extra < 0) continue;  // stray continuation byte: drop it
        char32_t cp = extra == 0 ? b0 : extra == 1 ? (b0 & 0x1F) : extra == 2 ? (b0 & 0x0F) : (b0 & 0x07);
        bool ok = true;
        for (int i = 0; i < extra; ++i) {
            unsigned char b;
            r = read_byte(&b);
            if (r != 1) {
                *out = L'\0';
                return r;
            }
            if ((b & 0xC0) != 0x80) {
                ok = false;
                break;
            }
            cp = (cp << 6) | (b & 0x3F);
        }
        if (!ok) continue;
        *out = static_cast<wchar_t>(cp);
        return 1;
    }
}

unsigned char LineEditor::tab_cb(EditLine* el, int) {
    LineEditor& me = self(el);
    const LineInfo* li = el_line(el);
    std::string before(li->buffer, static_cast<std::size_t>(li->cursor - li->buffer));
    // A recalled multi-line entry: complete within its current line only.
    if (std::size_t nl = before.rfind('\n'); nl != std::string::npos) before.erase(0, nl + 1);
    TabAction action = me.tab_.on_tab(before);
    if (!action.listing.empty()) {
        std::string text(1, '\n');  // (not "\n" + ...: GCC 12 warns falsely on that)
        text += format_columns(action.listing, terminal_width());
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::fflush(stdout);
        return CC_REDISPLAY;  // redraw prompt and line below the listing
    }
    if (!action.insert.empty()) {
        if (el_insertstr(el, action.insert.c_str()) == -1) return CC_ERROR;
        return action.beep ? CC_REFRESH_BEEP : CC_REFRESH;
    }
    return action.beep ? CC_REFRESH_BEEP : CC_REFRESH;
}

// libedit's own Ctrl-D echoes "^D" before ending the input; Python's REPL
// just moves to a new line, which the REPL loop prints.
unsigned char LineEditor::ctrl_d_cb(EditLine* el, int) {
    const LineInfo* li = el_line(el);
    if (li->buffer == li->lastchar) return CC_EOF;
    if (li->cursor == li->lastchar) return CC_ERROR;  // nothing under the cursor
    el_cursor(el, 1);
    el_deletestr(el, 1);
    return CC_REFRESH;
}

ReadResult LineEditor::read_line(const std::string& prompt) {
    prompt_ = prompt;
    std::fflush(stdout);
    std::fflush(stderr);
    int count = 0;
    const char* line = el_gets(el_, &count);
    if (take_sigint()) return {ReadResult::Interrupted, ""};
    if (line == nullptr || count <= 0) return {ReadResult::Eof, ""};
    std::string text(line, static_cast<std::size_t>(count));
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return {ReadResult::Line, std::move(text)};
}

void LineEditor::add_history(const std::string& entry) {
    if (entry.find_first_not_of(" \t\n") == std::string::npos) return;
    HistEvent ev;
    history(hist_, &ev, H_ENTER, entry.c_str());
    // Saved after every entry so a crash or a kill keeps the session's history.
    if (!history_path_.empty()) history(hist_, &ev, H_SAVE, history_path_.c_str());
}

}  // namespace gpy::repl
