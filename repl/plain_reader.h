// Line reader for a non-terminal stdin (pipes, files): no editing, no history.
#pragma once

#include <string>

#include "repl/line_source.h"

namespace gpy::repl {

class PlainReader : public LineSource {
public:
    // `prompt_fd` >= 0: prompts are written there (a terminal on stdin without
    // one on stdout); -1: no prompts, as for piped input.
    explicit PlainReader(int fd, int prompt_fd = -1) : fd_(fd), prompt_fd_(prompt_fd) {}
    ReadResult read_line(const std::string& prompt) override;

private:
    int fd_;
    int prompt_fd_;
    std::string pending_;  // bytes read past the last returned line
    bool eof_ = false;
};

}  // namespace gpy::repl
