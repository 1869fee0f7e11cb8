// The REPL loop: read a line, collect continuation lines, run the input,
// repeat. Line reading, continuation, magics and signals live in their own
// files; this one only wires them together.
#include "repl/repl.h"

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include "repl/input_buffer.h"
#include "repl/line_editor.h"
#include "repl/magics.h"
#include "repl/plain_reader.h"
#include "repl/sigint.h"

namespace gpy {
namespace {

void write_to(std::FILE* f, const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fflush(f);
}

std::string banner(const ReplOptions& opts) {
    std::string b = std::string("gpy ") + version();
    if (!opts.banner_extra.empty()) b += " (" + opts.banner_extra + ")";
    b += " \u2014 type help(name), %time, %timeit; Ctrl-D exits\n";
    return b;
}

// Splits text at '\n' (a recalled multi-line history entry arrives as one).
std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (;;) {
        std::size_t nl = text.find('\n', start);
        lines.push_back(text.substr(start, nl - start));
        if (nl == std::string::npos) break;
        start = nl + 1;
    }
    return lines;
}

}  // namespace

int run_repl(Interpreter& interp, const ReplOptions& opts) {
    const bool tty_in = isatty(STDIN_FILENO) != 0;
    const bool tty_out = isatty(STDOUT_FILENO) != 0;

    repl::SigintGuard sigint(interp);
    std::unique_ptr<repl::LineSource> source;
    if (tty_in && tty_out) {
        auto editor = std::make_unique<repl::LineEditor>(
            repl::default_history_path(),
            [&interp](std::string_view before) { return interp.complete(before); });
        if (editor->ok()) source = std::move(editor);
    }
    if (!source) {
        // Like Python without readline: prompts go to stderr when a person is
        // typing but stdout is redirected; piped input gets no prompts at all.
        source = std::make_unique<repl::PlainReader>(STDIN_FILENO, tty_in ? STDERR_FILENO : -1);
    }
    // Session chatter (banner, the newline after Ctrl-D) goes where the prompts
    // go, so redirecting stdout captures only the program's output.
    std::FILE* chatter = tty_out ? stdout : stderr;
    if (tty_in && opts.show_banner) write_to(chatter, banner(opts));

    repl::InputBuffer buffer([&interp](std::string_view src) { return interp.check_input(src); });
    repl::Magics magics(interp);

    // Runs one finished input. Returns true when the session must end.
    int exit_code = 0;
    auto execute = [&](const repl::Submission& s) {
        source->add_history(s.history);
        sigint.enter_running();
        if (s.kind != repl::Submission::Magic) magics.statement_starts();
        Result r = s.kind == repl::Submission::Magic ? magics.run(s.text) : interp.run_interactive(s.text);
        sigint.enter_reading();
        std::fflush(stdout);
        if (r.status == Status::Exit) {
            exit_code = r.exit_code;
            return true;
        }
        return false;  // errors were printed by the interpreter; keep going
    };

    for (;;) {
        sigint.enter_reading();
        repl::ReadResult line = source->read_line(buffer.continuing() ? "... " : ">>> ");
        if (line.kind == repl::ReadResult::Interrupted) {
            // As Python: abandon the input, say so on a fresh line.
            buffer.clear();
            std::fflush(stdout);
            std::fputs("\nKeyboardInterrupt\n", stderr);
            std::fflush(stderr);
            continue;
        }
        if (line.kind == repl::ReadResult::Eof) {
            if (tty_in) {
                write_to(chatter, "\n");  // leave the shell prompt on a line of its own
            } else if (repl::Submission rest = buffer.flush(); rest.kind != repl::Submission::None) {
                // A file may end inside a block with no blank line after it.
                if (execute(rest)) return exit_code;
            }
            return 0;
        }
        for (const std::string& piece : split_lines(line.text)) {
            repl::Submission s = buffer.feed(piece);
            if (s.kind != repl::Submission::None && execute(s)) return exit_code;
        }
    }
}

}  // namespace gpy
