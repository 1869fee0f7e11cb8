// Whole-file IO with Python's OSError messages (see io_files.h).
#include "numpy/io_files.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/format.h"

namespace gpy {

namespace {

[[noreturn]] void raise_os_error(int err, const std::string& path) {
    std::string msg = "[Errno " + std::to_string(err) + "] " + std::strerror(err) + ": " + fmt::str_repr(path);
    raise(err == ENOENT ? types::FileNotFoundError : types::OSError, msg);
}

// Closes the descriptor on every path out (raise included).
struct Fd {
    int fd;
    ~Fd() { if (fd >= 0) ::close(fd); }
};

}  // namespace

std::string read_file_bytes(const std::string& path) {
    Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) raise_os_error(errno, path);
    // open(2) accepts a directory for reading; Python's open() reports EISDIR.
    struct stat st;
    if (::fstat(f.fd, &st) == 0 && S_ISDIR(st.st_mode)) raise_os_error(EISDIR, path);
    std::string data;
    char buf[1 << 16];
    for (;;) {
        ssize_t n = ::read(f.fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            raise_os_error(errno, path);
        }
        if (n == 0) break;
        data.append(buf, size_t(n));
    }
    return data;
}

void write_file_bytes(const std::string& path, const std::string& data) {
    Fd f{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)};
    if (f.fd < 0) raise_os_error(errno, path);
    size_t done = 0;
    while (done < data.size()) {
        ssize_t n = ::write(f.fd, data.data() + done, data.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            raise_os_error(errno, path);
        }
        done += size_t(n);
    }
}

const std::string& path_arg(const Value& v, const char* fname) {
    if (!is_kind(v, OK::Str))
        raise(types::TypeError, std::string(fname) + "() expects a file name (str); gpy has no file objects, got '" +
                                    type_name(v) + "'");
    return v.as<StrObj>()->s;
}

}  // namespace gpy
