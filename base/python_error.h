// A C++ exception that names the Python exception it stands for, for the
// layers below the language (codegen's type resolution, the runtime): the
// interpreter raises that exception, with this message, wherever one
// reaches it (lang python_error_from). Header-only.
#pragma once

#include <stdexcept>
#include <string>

namespace gpy {

struct PythonTypedError : std::runtime_error {
    std::string kind;  // the Python exception's name: "TypeError", "OverflowError", "UFuncTypeError", ...
    PythonTypedError(std::string kind_, const std::string& message) : std::runtime_error(message), kind(std::move(kind_)) {}
};

// An error after which the process cannot go on (a GPU kernel's fault
// leaves the CUDA context unusable): the interpreter raises SystemExit with
// this message wherever it reaches it (exit status 1; `except Exception`
// does not catch it). Not a runtime_error, so the array module's handlers
// that turn device errors into RuntimeErrors let it through.
struct FatalError : std::exception {
    std::string message;
    explicit FatalError(std::string m) : message(std::move(m)) {}
    const char* what() const noexcept override { return message.c_str(); }
};

}  // namespace gpy
