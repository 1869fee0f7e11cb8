// Source text with line tables, and spans into it. Every AST node and token
// carries a Span so diagnostics can point at the exact culprit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpy {

struct SourceFile {
    std::string name;  // path as the user gave it, or "<stdin>", "<string>"
    std::string text;
    std::vector<uint32_t> line_starts;  // byte offset of each line's first char
    // Part of a module written in the language (numpy/py/): its frames are
    // listed in a traceback, but the error's caret points at the user's code.
    bool library = false;

    SourceFile(std::string name_, std::string text_);
    // 1-based line and column of a byte offset (column counts UTF-8 code points).
    std::pair<int, int> line_col(uint32_t offset) const;
    std::string_view line_text(int line) const;  // without the newline
};

struct Span {
    const SourceFile* file = nullptr;
    uint32_t begin = 0, end = 0;  // [begin, end) byte offsets
    int line() const { return file ? file->line_col(begin).first : 0; }
    int col() const { return file ? file->line_col(begin).second : 0; }
    static Span join(Span a, Span b) { return {a.file, a.begin, b.end > a.end ? b.end : a.end}; }
};

}  // namespace gpy
