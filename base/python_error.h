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

}  // namespace gpy
