// Recursive-descent parser for the Python subset gpy speaks. Each parse
// function carries the grammar rule it implements as a comment.
#pragma once

#include <memory>

#include "lang/ast.h"
#include "lang/diagnostics.h"

namespace gpy {

struct ParseOptions {
    bool interactive = false;  // REPL: top-level expression statements echo
};

// Parses a whole file. Throws SyntaxError.
std::shared_ptr<Program> parse_program(std::shared_ptr<SourceFile> file, const ParseOptions& opts = {});

}  // namespace gpy
