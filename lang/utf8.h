// UTF-8 encoding and decoding, shared by the lexer, str methods and formatting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpy {

inline void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        // Surrogates get the plain 3-byte form: Python allows them in str.
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

// Decodes one code point at s[i], advancing i. A malformed byte decodes to
// itself as a code point (U+0080..U+00FF) so nothing is ever lost silently;
// callers that care check `ok`.
inline char32_t decode_utf8(std::string_view s, size_t& i, bool* ok = nullptr) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    bool good = extra >= 0 && i + size_t(extra) < s.size();
    char32_t cp = extra > 0 ? (c & (0x3F >> extra)) : c;
    for (int k = 1; good && k <= extra; ++k) {
        unsigned char cc = static_cast<unsigned char>(s[i + size_t(k)]);
        if ((cc & 0xC0) != 0x80) good = false;
        cp = (cp << 6) | (cc & 0x3F);
    }
    if (!good) {
        ++i;
        if (ok) *ok = false;
        return c;
    }
    i += size_t(extra) + 1;
    if (ok) *ok = true;
    return cp;
}

// A UTF-8 continuation byte (10xxxxxx): one that does not start a code point.
inline bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The number of code points in s: Python's len() of the str it encodes.
inline int64_t count_code_points(std::string_view s) {
    int64_t n = 0;
    for (unsigned char c : s) n += !is_continuation(c);
    return n;
}

// The byte offset of each code point of s, then s.size(): code-point
// indexing of a non-ASCII str.
inline std::vector<size_t> code_point_offsets(std::string_view s) {
    std::vector<size_t> offs;
    offs.reserve(s.size() + 1);
    for (size_t k = 0; k < s.size(); ++k)
        if (!is_continuation(uint8_t(s[k]))) offs.push_back(k);
    offs.push_back(s.size());
    return offs;
}

}  // namespace gpy
