// Where the REPL gets its lines from: libedit on a terminal (line_editor.h) or
// plain reads from a pipe or file (plain_reader.h).
#pragma once

#include <string>

namespace gpy::repl {

struct ReadResult {
    enum Kind { Line, Eof, Interrupted } kind = Eof;
    std::string text;  // without the final newline; may hold embedded newlines
                       // when a multi-line history entry was recalled
};

class LineSource {
public:
    virtual ~LineSource() = default;
    virtual ReadResult read_line(const std::string& prompt) = 0;
    // Records a finished input (possibly several lines) as one history entry.
    virtual void add_history(const std::string& entry) { (void)entry; }
};

}  // namespace gpy::repl
