#include "lang/source.h"
#include "lang/utf8.h"

#include <algorithm>

namespace gpy {

SourceFile::SourceFile(std::string name_, std::string text_) : name(std::move(name_)), text(std::move(text_)) {
    line_starts.push_back(0);
    for (uint32_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') line_starts.push_back(i + 1);
}

std::pair<int, int> SourceFile::line_col(uint32_t offset) const {
    auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
    int line = int(it - line_starts.begin());
    uint32_t start = line_starts[line - 1];
    int col = 1;
    for (uint32_t i = start; i < offset && i < text.size(); ++i)
        if (!is_continuation(uint8_t(text[i]))) ++col;
    return {line, col};
}

std::string_view SourceFile::line_text(int line) const {
    if (line < 1 || line > int(line_starts.size())) return {};
    uint32_t b = line_starts[line - 1];
    uint32_t e = line < int(line_starts.size()) ? line_starts[line] - 1 : uint32_t(text.size());
    if (e > b && text[e - 1] == '\r') --e;
    return std::string_view(text).substr(b, e - b);
}

}  // namespace gpy
