#include "repl/plain_reader.h"

#include <cerrno>
#include <unistd.h>

#include "repl/sigint.h"

namespace gpy::repl {

ReadResult PlainReader::read_line(const std::string& prompt) {
    if (prompt_fd_ >= 0 && !prompt.empty()) {
        ssize_t ignored = ::write(prompt_fd_, prompt.data(), prompt.size());
        (void)ignored;
    }
    for (;;) {
        std::size_t nl = pending_.find('\n');
        if (nl != std::string::npos) {
            ReadResult r{ReadResult::Line, pending_.substr(0, nl)};
            pending_.erase(0, nl + 1);
            return r;
        }
        if (eof_) {
            if (pending_.empty()) return {ReadResult::Eof, ""};
            ReadResult r{ReadResult::Line, std::move(pending_)};  // last line without '\n'
            pending_.clear();
            return r;
        }
        char buf[4096];
        // Unbuffered read(2) rather than stdio: the SIGINT handler is installed
        // without SA_RESTART while reading, so Ctrl-C surfaces here as EINTR.
        ssize_t n = ::read(fd_, buf, sizeof buf);
        if (n > 0) {
            pending_.append(buf, static_cast<std::size_t>(n));
        } else if (n == 0) {
            eof_ = true;
        } else if (errno == EINTR) {
            if (take_sigint()) {
                pending_.clear();
                return {ReadResult::Interrupted, ""};
            }
        } else {
            eof_ = true;  // a read error ends the session like EOF
        }
    }
}

}  // namespace gpy::repl
