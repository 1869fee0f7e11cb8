// The methods of str, printf-style `%` formatting and str.format().
//
// Strings are UTF-8. Every index a method takes or returns counts code points
// (with a byte fast path when the string is ASCII). Error messages are
// CPython 3.11's, word for word.
//
// Known differences from CPython:
//   - case mapping (upper/lower/title/...) and the character classes behind
//     isalpha/isdigit/isnumeric/isidentifier/isprintable use small built-in
//     tables: ASCII and Latin-1 exactly, plus Latin Extended-A, Greek,
//     Cyrillic, Armenian, Latin Extended Additional and fullwidth letters;
//     other scripts pass through unchanged (letters of the common CJK, kana,
//     Hangul, Hebrew, Arabic, Devanagari and Thai blocks count as alphabetic);
//     ligatures such as U+FB01 are not expanded by upper();
//   - Unicode decimal digits other than ASCII are not accepted as field
//     numbers in str.format().
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <string_view>

#include "lang/format.h"
#include "lang/interp.h"
#include "lang/method_args.h"
#include "lang/utf8.h"

namespace gpy {

namespace {

// ------------------------------------------------------------ arguments --

using namespace margs;

// start/end of find() & co: None or an int.
int64_t slice_arg(const Value* v, int64_t dflt) {
    if (!v || v->is_undef() || v->is_none()) return dflt;
    if (int64_t i; index_value(*v, i)) return i;
    type_error("slice indices must be integers or None or have an __index__ method");
}

const std::string& self_str(CallArgs& a) { return a.pos[0].as<StrObj>()->s; }

// ---------------------------------------------------------------- UTF-8 --

bool is_ascii(std::string_view s) {
    for (unsigned char c : s)
        if (c >= 0x80) return false;
    return true;
}

int64_t cp_len(std::string_view s) { return count_code_points(s); }

std::u32string to_u32(std::string_view s) {
    std::u32string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) out += decode_utf8(s, i);
    return out;
}

// Code-point indexing over a UTF-8 string: identity for ASCII, else a table
// of byte offsets (one per code point, plus the end).
struct Indexer {
    std::string_view s;
    bool ascii;
    std::vector<size_t> offs;
    explicit Indexer(std::string_view str) : s(str), ascii(is_ascii(str)) {
        if (!ascii) offs = code_point_offsets(s);
    }
    int64_t len() const { return ascii ? int64_t(s.size()) : int64_t(offs.size() - 1); }
    size_t byte(int64_t cp) const { return ascii ? size_t(cp) : offs[size_t(cp)]; }
    int64_t cp(size_t byte) const {
        if (ascii) return int64_t(byte);
        return int64_t(std::lower_bound(offs.begin(), offs.end(), byte) - offs.begin());
    }
};

// CPython's ADJUST_INDICES.
void adjust_indices(int64_t& start, int64_t& end, int64_t len) {
    if (end > len) end = len;
    else if (end < 0) { end += len; if (end < 0) end = 0; }
    if (start < 0) { start += len; if (start < 0) start = 0; }
}

// ------------------------------------------------------ character classes --

bool in_ranges(char32_t c, std::initializer_list<std::pair<char32_t, char32_t>> r) {
    for (auto& [lo, hi] : r)
        if (c >= lo && c <= hi) return true;
    return false;
}

// The Latin digraphs DŽ Dž dž, LJ Lj lj, NJ Nj nj, DZ Dz dz: first code point of
// their group of three (upper, title, lower), or 0.
char32_t digraph_group(char32_t c) {
    if (c >= 0x1C4 && c <= 0x1CC) return 0x1C4 + (c - 0x1C4) / 3 * 3;
    if (c >= 0x1F1 && c <= 0x1F3) return 0x1F1;
    return 0;
}

char32_t upper_of(char32_t c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') ? c - 32 : c;
    if (char32_t g = digraph_group(c)) return g;
    if (c == 0xB5) return 0x39C;
    if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 32;
    if (c == 0xFF) return 0x178;
    if (c >= 0x100 && c <= 0x17F) {
        if (c == 0x131) return 'I';
        if (c == 0x17F) return 'S';
        if ((c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) return (c & 1) ? c - 1 : c;
        if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c : c - 1;
        return c;
    }
    if (c >= 0x3B1 && c <= 0x3C9) return c == 0x3C2 ? 0x3A3 : c - 32;
    if (c == 0x3AC) return 0x386;
    if (c >= 0x3AD && c <= 0x3AF) return c - 37;
    if (c == 0x3CC) return 0x38C;
    if (c == 0x3CD || c == 0x3CE) return c - 63;
    if (c >= 0x430 && c <= 0x44F) return c - 32;
    if (c >= 0x450 && c <= 0x45F) return c - 80;
    if ((c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) || (c >= 0x4D0 && c <= 0x52F)) return (c & 1) ? c - 1 : c;
    if (c >= 0x4C1 && c <= 0x4CE) return (c & 1) ? c : c - 1;
    if (c == 0x4CF) return 0x4C0;
    if (c >= 0x561 && c <= 0x586) return c - 48;
    if ((c >= 0x1E00 && c <= 0x1E95) || (c >= 0x1EA0 && c <= 0x1EFF)) return (c & 1) ? c - 1 : c;
    if (c >= 0xFF41 && c <= 0xFF5A) return c - 32;
    return c;
}

char32_t lower_of(char32_t c) {
    if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    if (char32_t g = digraph_group(c)) return g + 2;
    if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
    if (c == 0x178) return 0xFF;
    if (c >= 0x100 && c <= 0x17F) {
        if ((c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) return (c & 1) ? c : c + 1;
        if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c + 1 : c;
        return c;
    }
    if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 32;
    if (c == 0x386) return 0x3AC;
    if (c >= 0x388 && c <= 0x38A) return c + 37;
    if (c == 0x38C) return 0x3CC;
    if (c == 0x38E || c == 0x38F) return c + 63;
    if (c >= 0x410 && c <= 0x42F) return c + 32;
    if (c >= 0x400 && c <= 0x40F) return c + 80;
    if ((c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) || (c >= 0x4D0 && c <= 0x52F)) return (c & 1) ? c : c + 1;
    if (c >= 0x4C1 && c <= 0x4CE) return (c & 1) ? c + 1 : c;
    if (c == 0x4C0) return 0x4CF;
    if (c >= 0x531 && c <= 0x556) return c + 48;
    if ((c >= 0x1E00 && c <= 0x1E95) || (c >= 0x1EA0 && c <= 0x1EFF)) return (c & 1) ? c : c + 1;
    if (c == 0x1E9E) return 0xDF;
    if (c >= 0xFF21 && c <= 0xFF3A) return c + 32;
    return c;
}

bool cp_upper(char32_t c) { return (lower_of(c) != c && upper_of(c) == c) || c == 0x130; }
bool cp_lower(char32_t c) {
    return (upper_of(c) != c && lower_of(c) == c) || c == 0xDF || c == 0x138 || c == 0x149 || c == 0xAA || c == 0xBA;
}
bool cp_cased(char32_t c) { return cp_upper(c) || cp_lower(c) || digraph_group(c) != 0; }

void append_upper(std::string& out, char32_t c) {
    if (c == 0xDF) out += "SS";
    else if (c == 0x149) out += "\xCA\xBCN";
    else append_utf8(out, upper_of(c));
}
void append_title(std::string& out, char32_t c) {
    if (c == 0xDF) out += "Ss";
    else if (c == 0x149) out += "\xCA\xBCN";
    else if (char32_t g = digraph_group(c)) append_utf8(out, g + 1);
    else append_utf8(out, upper_of(c));
}
void append_lower(std::string& out, char32_t c) {
    if (c == 0x130) out += "i\xCC\x87";
    else append_utf8(out, lower_of(c));
}

bool cp_space(char32_t c) {
    return c == 0x20 || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

bool cp_decimal(char32_t c) {
    if (c < 0x80) return c >= '0' && c <= '9';
    return in_ranges(c, {{0x660, 0x669}, {0x6F0, 0x6F9}, {0x7C0, 0x7C9}, {0x966, 0x96F}, {0x9E6, 0x9EF}, {0xA66, 0xA6F},
                         {0xAE6, 0xAEF}, {0xB66, 0xB6F}, {0xBE6, 0xBEF}, {0xC66, 0xC6F}, {0xCE6, 0xCEF}, {0xD66, 0xD6F},
                         {0xE50, 0xE59}, {0xED0, 0xED9}, {0xF20, 0xF29}, {0x1040, 0x1049}, {0xFF10, 0xFF19}});
}

bool cp_digit(char32_t c) {
    if (cp_decimal(c)) return true;
    if (c < 0x80) return false;
    return c == 0xB2 || c == 0xB3 || c == 0xB9 || c == 0x2070 || c == 0x24EA || c == 0x24FF ||
           in_ranges(c, {{0x1369, 0x1371}, {0x2074, 0x2079}, {0x2080, 0x2089}, {0x2460, 0x2468}, {0x2474, 0x247C},
                         {0x2488, 0x2490}, {0x24F5, 0x24FD}, {0x2776, 0x277E}, {0x2780, 0x2788}, {0x278A, 0x2792}});
}

bool cp_numeric(char32_t c) {
    if (cp_digit(c)) return true;
    if (c < 0x80) return false;
    switch (c) {
        case 0x3007: case 0x4E00: case 0x4E8C: case 0x4E09: case 0x56DB: case 0x4E94: case 0x516D: case 0x4E03:
        case 0x516B: case 0x4E5D: case 0x5341: case 0x767E: case 0x5343: case 0x4E07: case 0x5104: case 0x5146:
        case 0x96F6: case 0x5EFF: case 0x5345: case 0x4EBF:
            return true;
        default: break;
    }
    return in_ranges(c, {{0xBC, 0xBE}, {0x2150, 0x2189}, {0x2469, 0x2473}, {0x247D, 0x2487}, {0x2491, 0x249B},
                         {0x24EB, 0x24F4}, {0x2780, 0x2793}, {0x3021, 0x3029}, {0x3038, 0x303A}});
}

bool cp_alpha(char32_t c) {
    if (c < 0x80) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (cp_cased(c)) return true;
    if (c == 0xAA || c == 0xB5 || c == 0xBA) return true;
    if (c >= 0xC0 && c <= 0x24F) return c != 0xD7 && c != 0xF7;
    return in_ranges(c, {{0x250, 0x2C1}, {0x370, 0x373}, {0x37B, 0x37D}, {0x386, 0x386}, {0x388, 0x3F5},
                         {0x3F7, 0x481}, {0x48A, 0x52F}, {0x531, 0x556}, {0x561, 0x587}, {0x5D0, 0x5EA},
                         {0x620, 0x64A}, {0x671, 0x6D3}, {0x904, 0x939}, {0xE01, 0xE30}, {0x10A0, 0x10FF},
                         {0x1E00, 0x1FBC}, {0x3041, 0x3096}, {0x30A1, 0x30FA}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},
                         {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFF21, 0xFF3A}, {0xFF41, 0xFF5A}, {0xFF66, 0xFF9D},
                         {0x20000, 0x2FA1F}});
}

bool cp_alnum(char32_t c) { return cp_alpha(c) || cp_numeric(c); }

bool cp_printable(char32_t c) {
    if (c < 0x80) return c >= 0x20 && c < 0x7F;
    if (c <= 0xA0 || c == 0xAD || c == 0x1680) return false;
    if ((c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F) || (c >= 0x205F && c <= 0x206F)) return false;
    if (c == 0x3000 || c == 0xFEFF || (c >= 0xD800 && c <= 0xF8FF) || (c >= 0xFFF9 && c <= 0xFFFB)) return false;
    if (c >= 0xF0000) return false;
    return true;
}

// Applies pred to every code point; false for the empty string.
template <class P>
bool all_cps(const std::string& s, P pred) {
    if (s.empty()) return false;
    for (size_t i = 0; i < s.size();)
        if (!pred(decode_utf8(s, i))) return false;
    return true;
}

// ascii(): repr() with non-ASCII code points escaped.
std::string ascii_of(const std::string& r) {
    if (is_ascii(r)) return r;
    std::string out;
    char buf[16];
    for (size_t i = 0; i < r.size();) {
        char32_t c = decode_utf8(r, i);
        if (c < 0x80) out += char(c);
        else {
            if (c < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
            else if (c < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
            else std::snprintf(buf, sizeof buf, "\\U%08x", unsigned(c));
            out += buf;
        }
    }
    return out;
}

// ------------------------------------------------------------- searching --

const std::string& sub_arg(const Value& v) {
    if (!is_kind(v, OK::Str)) type_error(std::string("must be str, not ") + type_name(v));
    return v.as<StrObj>()->s;
}

// Shared by find/rfind/index/rindex/count: returns the code-point index (or
// count), -1 when not found.
int64_t search(CallArgs& a, const char* name, bool reverse, bool count) {
    tuple_style(a, types::str, name, 1, 3);
    const std::string& s = self_str(a);
    const std::string& sub = sub_arg(a.pos[1]);
    Indexer ix(s);
    int64_t n = ix.len();
    int64_t start = slice_arg(a.npos > 2 ? &a.pos[2] : nullptr, 0);
    int64_t end = slice_arg(a.npos > 3 ? &a.pos[3] : nullptr, INT64_MAX);
    adjust_indices(start, end, n);
    int64_t sublen = ix.ascii ? int64_t(sub.size()) : cp_len(sub);
    if (end - start < sublen) return count ? 0 : -1;
    if (count && sub.empty()) return end - start + 1;
    size_t bs = ix.byte(start), be = ix.byte(end);
    std::string_view hay(s.data() + bs, be - bs);
    if (count) {
        int64_t c = 0;
        for (size_t p = hay.find(sub); p != std::string_view::npos; p = hay.find(sub, p + sub.size())) ++c;
        return c;
    }
    size_t p = reverse ? hay.rfind(sub) : hay.find(sub);
    if (p == std::string_view::npos) return -1;
    return ix.cp(bs + p);
}

Value str_find(Interp&, CallArgs& a) { return Value::integer(search(a, "find", false, false)); }
Value str_rfind(Interp&, CallArgs& a) { return Value::integer(search(a, "rfind", true, false)); }
Value str_count(Interp&, CallArgs& a) { return Value::integer(search(a, "count", false, true)); }
Value str_index(Interp&, CallArgs& a) {
    int64_t r = search(a, "index", false, false);
    if (r < 0) value_error("substring not found");
    return Value::integer(r);
}
Value str_rindex(Interp&, CallArgs& a) {
    int64_t r = search(a, "rindex", true, false);
    if (r < 0) value_error("substring not found");
    return Value::integer(r);
}

// startswith / endswith (CPython's tailmatch).
Value tailmatch(CallArgs& a, const char* name, bool at_end) {
    tuple_style(a, types::str, name, 1, 3);
    const std::string& s = self_str(a);
    std::vector<const std::string*> subs;
    const Value& arg = a.pos[1];
    if (is_kind(arg, OK::Str)) {
        subs.push_back(&arg.as<StrObj>()->s);
    } else if (is_kind(arg, OK::Tuple)) {
        for (const Value& v : arg.as<TupleObj>()->items) {
            if (!is_kind(v, OK::Str))
                type_error(std::string("tuple for ") + name + " must only contain str, not " + type_name(v));
            subs.push_back(&v.as<StrObj>()->s);
        }
    } else {
        type_error(std::string(name) + " first arg must be str or a tuple of str, not " + type_name(arg));
    }
    int64_t start0 = slice_arg(a.npos > 2 ? &a.pos[2] : nullptr, 0);
    int64_t end0 = slice_arg(a.npos > 3 ? &a.pos[3] : nullptr, INT64_MAX);
    Indexer ix(s);
    for (const std::string* sub : subs) {
        int64_t start = start0, end = end0;
        adjust_indices(start, end, ix.len());
        int64_t sublen = ix.ascii ? int64_t(sub->size()) : cp_len(*sub);
        end -= sublen;
        if (end < start) continue;
        if (sublen == 0) return Value::boolean(true);
        size_t b = ix.byte(at_end ? end : start);
        if (s.compare(b, sub->size(), *sub) == 0) return Value::boolean(true);
    }
    return Value::boolean(false);
}

Value str_startswith(Interp&, CallArgs& a) { return tailmatch(a, "startswith", false); }
Value str_endswith(Interp&, CallArgs& a) { return tailmatch(a, "endswith", true); }

// ------------------------------------------------------------- splitting --

// Whitespace split; reverse splits from the right. Returns the pieces in order.
std::vector<Value> split_ws(const std::string& s, int64_t maxsplit, bool reverse) {
    std::vector<Value> out;
    if (maxsplit < 0) maxsplit = INT64_MAX;
    if (is_ascii(s)) {
        auto sp = [](unsigned char c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1C && c <= 0x1F); };
        if (!reverse) {
            size_t i = 0, n = s.size();
            while (true) {
                while (i < n && sp(s[i])) ++i;
                if (i >= n) break;
                if (maxsplit-- == 0) {
                    out.push_back(make_str(s.substr(i)));
                    break;
                }
                size_t j = i;
                while (j < n && !sp(s[j])) ++j;
                out.push_back(make_str(s.substr(i, j - i)));
                i = j;
            }
        } else {
            size_t i = s.size();
            while (true) {
                while (i > 0 && sp(s[i - 1])) --i;
                if (i == 0) break;
                if (maxsplit-- == 0) {
                    out.push_back(make_str(s.substr(0, i)));
                    break;
                }
                size_t j = i;
                while (j > 0 && !sp(s[j - 1])) --j;
                out.push_back(make_str(s.substr(j, i - j)));
                i = j;
            }
            std::reverse(out.begin(), out.end());
        }
        return out;
    }
    // General case over code points (with their byte offsets).
    std::vector<size_t> offs;
    std::vector<bool> space;
    for (size_t i = 0; i < s.size();) {
        offs.push_back(i);
        space.push_back(cp_space(decode_utf8(s, i)));
    }
    offs.push_back(s.size());
    size_t n = space.size();
    auto piece = [&](size_t a, size_t b) { return make_str(s.substr(offs[a], offs[b] - offs[a])); };
    if (!reverse) {
        size_t i = 0;
        while (true) {
            while (i < n && space[i]) ++i;
            if (i >= n) break;
            if (maxsplit-- == 0) {
                out.push_back(piece(i, n));
                break;
            }
            size_t j = i;
            while (j < n && !space[j]) ++j;
            out.push_back(piece(i, j));
            i = j;
        }
    } else {
        size_t i = n;
        while (true) {
            while (i > 0 && space[i - 1]) --i;
            if (i == 0) break;
            if (maxsplit-- == 0) {
                out.push_back(piece(0, i));
                break;
            }
            size_t j = i;
            while (j > 0 && !space[j - 1]) --j;
            out.push_back(piece(j, i));
            i = j;
        }
        std::reverse(out.begin(), out.end());
    }
    return out;
}

Value do_split(CallArgs& a, const char* name, bool reverse) {
    Value args[2];
    bind_args(a, types::str, name, {"sep", "maxsplit"}, args);
    const std::string& s = self_str(a);
    int64_t maxsplit = args[1].is_undef() ? -1 : int_arg(args[1]);
    if (args[0].is_undef() || args[0].is_none()) return make_list(split_ws(s, maxsplit, reverse));
    if (!is_kind(args[0], OK::Str)) type_error(std::string("must be str or None, not ") + type_name(args[0]));
    const std::string& sep = args[0].as<StrObj>()->s;
    if (sep.empty()) value_error("empty separator");
    if (maxsplit < 0) maxsplit = INT64_MAX;
    std::vector<Value> out;
    if (!reverse) {
        size_t i = 0;
        while (maxsplit-- > 0) {
            size_t p = s.find(sep, i);
            if (p == std::string::npos) break;
            out.push_back(make_str(s.substr(i, p - i)));
            i = p + sep.size();
        }
        out.push_back(make_str(s.substr(i)));
    } else {
        size_t end = s.size();
        while (maxsplit-- > 0 && end >= sep.size()) {
            size_t p = s.rfind(sep, end - sep.size());
            if (p == std::string::npos) break;
            out.push_back(make_str(s.substr(p + sep.size(), end - p - sep.size())));
            end = p;
        }
        out.push_back(make_str(s.substr(0, end)));
        std::reverse(out.begin(), out.end());
    }
    return make_list(std::move(out));
}

Value str_split(Interp&, CallArgs& a) { return do_split(a, "split", false); }
Value str_rsplit(Interp&, CallArgs& a) { return do_split(a, "rsplit", true); }

Value str_splitlines(Interp&, CallArgs& a) {
    Value args[1];
    bind_args(a, types::str, "splitlines", {"keepends"}, args);
    bool keep = !args[0].is_undef() && int_arg(args[0]) != 0;
    const std::string& s = self_str(a);
    std::vector<Value> out;
    size_t start = 0, i = 0;
    while (i < s.size()) {
        size_t at = i;
        char32_t c = decode_utf8(s, i);
        bool br = c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || (c >= 0x1C && c <= 0x1E) || c == 0x85 ||
                  c == 0x2028 || c == 0x2029;
        if (!br) continue;
        if (c == '\r' && i < s.size() && s[i] == '\n') ++i;
        out.push_back(make_str(s.substr(start, (keep ? i : at) - start)));
        start = i;
    }
    if (start < s.size()) out.push_back(make_str(s.substr(start)));
    return make_list(std::move(out));
}

Value partition(CallArgs& a, const char* name, bool reverse) {
    onearg(a, types::str, name);
    const std::string& s = self_str(a);
    const std::string& sep = sub_arg(a.pos[1]);
    if (sep.empty()) value_error("empty separator");
    size_t p = reverse ? s.rfind(sep) : s.find(sep);
    if (p == std::string::npos) {
        if (reverse) return make_tuple({make_str(""), make_str(""), a.pos[0]});
        return make_tuple({a.pos[0], make_str(""), make_str("")});
    }
    return make_tuple({make_str(s.substr(0, p)), a.pos[1], make_str(s.substr(p + sep.size()))});
}

Value str_partition(Interp&, CallArgs& a) { return partition(a, "partition", false); }
Value str_rpartition(Interp&, CallArgs& a) { return partition(a, "rpartition", true); }

// ------------------------------------------------------------------ join --

Value str_join(Interp& in, CallArgs& a) {
    onearg(a, types::str, "join");
    const std::string& sep = self_str(a);
    const Value& it = a.pos[1];
    std::vector<Value> items;
    if (is_kind(it, OK::List)) items = it.as<ListObj>()->items;
    else if (is_kind(it, OK::Tuple)) items = it.as<TupleObj>()->items;
    else {
        bool known = it.is_obj() && (is_kind(it, OK::Str) || is_kind(it, OK::Dict) || is_kind(it, OK::Set) ||
                                     is_kind(it, OK::DictView) || is_kind(it, OK::Range) || is_kind(it, OK::Iter));
        if (!known) {
            Value iter;
            try {
                iter = get_iter(in, it);
            } catch (GpyError& e) {
                if (e.obj()->type == types::TypeError) type_error("can only join an iterable");
                throw;
            }
            Value item;
            while (iter_next(in, iter, item)) items.push_back(item);
        } else {
            items = to_vector(in, it);
        }
    }
    size_t total = 0;
    for (size_t k = 0; k < items.size(); ++k) {
        if (!is_kind(items[k], OK::Str))
            type_error("sequence item " + std::to_string(k) + ": expected str instance, " + type_name(items[k]) + " found");
        total += items[k].as<StrObj>()->s.size() + sep.size();
    }
    if (items.size() == 1) return items[0];
    std::string out;
    out.reserve(total);
    for (size_t k = 0; k < items.size(); ++k) {
        if (k) out += sep;
        out += items[k].as<StrObj>()->s;
    }
    return make_str(std::move(out));
}

// --------------------------------------------------------------- strip --

Value do_strip(CallArgs& a, const char* name, bool left, bool right) {
    clinic(a, types::str, name, 0, 1);
    const std::string& s = self_str(a);
    bool ws = a.npos < 2 || a.pos[1].is_none();
    if (!ws && !is_kind(a.pos[1], OK::Str)) type_error(std::string(name) + " arg must be None or str");
    const std::string* chars = ws ? nullptr : &a.pos[1].as<StrObj>()->s;
    size_t b = 0, e = s.size();
    if (is_ascii(s) && (ws || is_ascii(*chars))) {
        auto strip_it = [&](unsigned char c) {
            if (ws) return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1C && c <= 0x1F);
            return chars->find(char(c)) != std::string::npos;
        };
        if (left) while (b < e && strip_it(s[b])) ++b;
        if (right) while (e > b && strip_it(s[e - 1])) --e;
    } else {
        std::u32string set = ws ? std::u32string() : to_u32(*chars);
        auto strip_it = [&](char32_t c) { return ws ? cp_space(c) : set.find(c) != std::u32string::npos; };
        std::vector<size_t> offs;
        std::vector<char32_t> cps;
        for (size_t i = 0; i < s.size();) {
            offs.push_back(i);
            cps.push_back(decode_utf8(s, i));
        }
        offs.push_back(s.size());
        size_t lo = 0, hi = cps.size();
        if (left) while (lo < hi && strip_it(cps[lo])) ++lo;
        if (right) while (hi > lo && strip_it(cps[hi - 1])) --hi;
        b = offs[lo];
        e = offs[hi];
    }
    if (b == 0 && e == s.size()) return a.pos[0];
    return make_str(s.substr(b, e - b));
}

Value str_strip(Interp&, CallArgs& a) { return do_strip(a, "strip", true, true); }
Value str_lstrip(Interp&, CallArgs& a) { return do_strip(a, "lstrip", true, false); }
Value str_rstrip(Interp&, CallArgs& a) { return do_strip(a, "rstrip", false, true); }

// -------------------------------------------------------------- replace --

Value str_replace(Interp& in, CallArgs& a) {
    clinic(a, types::str, "replace", 2, 3);
    const std::string& s = self_str(a);
    if (!is_kind(a.pos[1], OK::Str)) type_error(std::string("replace() argument 1 must be str, not ") + type_name(a.pos[1]));
    if (!is_kind(a.pos[2], OK::Str)) type_error(std::string("replace() argument 2 must be str, not ") + type_name(a.pos[2]));
    const std::string& old = a.pos[1].as<StrObj>()->s;
    const std::string& rep = a.pos[2].as<StrObj>()->s;
    int64_t count = a.npos > 3 ? int_arg(a.pos[3]) : -1;
    if (count < 0) count = INT64_MAX;
    // The result's size first: a replacement that could never fit raises
    // MemoryError before the string grows into all of memory.
    uint64_t matches = 0;
    if (old.empty()) {
        matches = uint64_t(cp_len(s)) + 1;
    } else {
        for (size_t p = s.find(old); p != std::string::npos && matches < uint64_t(count); p = s.find(old, p + old.size())) ++matches;
    }
    matches = std::min<uint64_t>(matches, uint64_t(count));
    if (rep.size() > old.size()) {
        uint64_t grow;
        if (__builtin_mul_overflow(matches, uint64_t(rep.size() - old.size()), &grow)) raise(types::OverflowError, "replace string is too long");
        check_host_bytes(in, s.size() + grow);
    }
    std::string out;
    if (old.empty()) {
        // Insert before every code point and at the end.
        size_t i = 0;
        while (i < s.size()) {
            if (count > 0) { out += rep; --count; }
            size_t j = i;
            decode_utf8(s, j);
            out.append(s, i, j - i);
            i = j;
        }
        if (count > 0) out += rep;
        return make_str(std::move(out));
    }
    size_t i = 0;
    while (count > 0) {
        size_t p = s.find(old, i);
        if (p == std::string::npos) break;
        out.append(s, i, p - i);
        out += rep;
        i = p + old.size();
        --count;
    }
    if (i == 0) return a.pos[0];
    out.append(s, i, std::string::npos);
    return make_str(std::move(out));
}

// ----------------------------------------------------------------- case --

template <class F>
Value map_cps(CallArgs& a, F f) {
    const std::string& s = self_str(a);
    std::u32string u = to_u32(s);
    std::string out;
    out.reserve(s.size());
    for (size_t k = 0; k < u.size(); ++k) f(out, u, k);
    return make_str(std::move(out));
}

// Σ lowercases to final ς after a cased letter and not before one.
void lower_at(std::string& out, const std::u32string& u, size_t k) {
    char32_t c = u[k];
    if (c == 0x3A3) {
        bool before = k > 0 && cp_cased(u[k - 1]);
        bool after = k + 1 < u.size() && cp_cased(u[k + 1]);
        append_utf8(out, before && !after ? 0x3C2 : 0x3C3);
        return;
    }
    append_lower(out, c);
}

Value str_upper(Interp&, CallArgs& a) {
    noargs(a, types::str, "upper");
    const std::string& s = self_str(a);
    if (is_ascii(s)) {
        std::string out = s;
        for (char& c : out)
            if (c >= 'a' && c <= 'z') c = char(c - 32);
        return make_str(std::move(out));
    }
    return map_cps(a, [](std::string& o, const std::u32string& u, size_t k) { append_upper(o, u[k]); });
}

Value str_lower(Interp&, CallArgs& a) {
    noargs(a, types::str, "lower");
    const std::string& s = self_str(a);
    if (is_ascii(s)) {
        std::string out = s;
        for (char& c : out)
            if (c >= 'A' && c <= 'Z') c = char(c + 32);
        return make_str(std::move(out));
    }
    return map_cps(a, lower_at);
}

Value str_casefold(Interp&, CallArgs& a) {
    noargs(a, types::str, "casefold");
    return map_cps(a, [](std::string& o, const std::u32string& u, size_t k) {
        char32_t c = u[k];
        if (c == 0xDF) o += "ss";
        else if (c == 0x17F) o += 's';
        else if (c == 0xB5) append_utf8(o, 0x3BC);
        else if (c == 0x3C2) append_utf8(o, 0x3C3);
        else append_lower(o, c);
    });
}

Value str_swapcase(Interp&, CallArgs& a) {
    noargs(a, types::str, "swapcase");
    return map_cps(a, [](std::string& o, const std::u32string& u, size_t k) {
        char32_t c = u[k];
        if (cp_upper(c)) lower_at(o, u, k);
        else if (cp_lower(c)) append_upper(o, c);
        else append_utf8(o, c);
    });
}

Value str_capitalize(Interp&, CallArgs& a) {
    noargs(a, types::str, "capitalize");
    return map_cps(a, [](std::string& o, const std::u32string& u, size_t k) {
        if (k == 0) append_title(o, u[k]);
        else lower_at(o, u, k);
    });
}

Value str_title(Interp&, CallArgs& a) {
    noargs(a, types::str, "title");
    bool prev_cased = false;
    return map_cps(a, [&](std::string& o, const std::u32string& u, size_t k) {
        char32_t c = u[k];
        if (prev_cased) lower_at(o, u, k);
        else append_title(o, c);
        prev_cased = cp_cased(c);
    });
}

// ------------------------------------------------------------ predicates --

Value str_isdigit(Interp&, CallArgs& a) { noargs(a, types::str, "isdigit"); return Value::boolean(all_cps(self_str(a), cp_digit)); }
Value str_isdecimal(Interp&, CallArgs& a) { noargs(a, types::str, "isdecimal"); return Value::boolean(all_cps(self_str(a), cp_decimal)); }
Value str_isnumeric(Interp&, CallArgs& a) { noargs(a, types::str, "isnumeric"); return Value::boolean(all_cps(self_str(a), cp_numeric)); }
Value str_isalpha(Interp&, CallArgs& a) { noargs(a, types::str, "isalpha"); return Value::boolean(all_cps(self_str(a), cp_alpha)); }
Value str_isalnum(Interp&, CallArgs& a) { noargs(a, types::str, "isalnum"); return Value::boolean(all_cps(self_str(a), cp_alnum)); }
Value str_isspace(Interp&, CallArgs& a) { noargs(a, types::str, "isspace"); return Value::boolean(all_cps(self_str(a), cp_space)); }
Value str_isascii(Interp&, CallArgs& a) { noargs(a, types::str, "isascii"); return Value::boolean(is_ascii(self_str(a))); }

Value str_isprintable(Interp&, CallArgs& a) {
    noargs(a, types::str, "isprintable");
    const std::string& s = self_str(a);
    return Value::boolean(s.empty() || all_cps(s, cp_printable));
}

Value case_check(CallArgs& a, const char* name, bool want_upper) {
    noargs(a, types::str, name);
    const std::string& s = self_str(a);
    bool cased = false;
    for (size_t i = 0; i < s.size();) {
        char32_t c = decode_utf8(s, i);
        if (want_upper ? cp_lower(c) : cp_upper(c)) return Value::boolean(false);
        if (!cased && (want_upper ? cp_upper(c) : cp_lower(c))) cased = true;
    }
    return Value::boolean(cased);
}

Value str_isupper(Interp&, CallArgs& a) { return case_check(a, "isupper", true); }
Value str_islower(Interp&, CallArgs& a) { return case_check(a, "islower", false); }

Value str_istitle(Interp&, CallArgs& a) {
    noargs(a, types::str, "istitle");
    const std::string& s = self_str(a);
    bool cased = false, prev_cased = false;
    for (size_t i = 0; i < s.size();) {
        char32_t c = decode_utf8(s, i);
        bool titlecase = digraph_group(c) != 0 && c == digraph_group(c) + 1;
        if (cp_upper(c) || titlecase) {
            if (prev_cased) return Value::boolean(false);
            prev_cased = cased = true;
        } else if (cp_lower(c)) {
            if (!prev_cased) return Value::boolean(false);
            prev_cased = cased = true;
        } else {
            prev_cased = false;
        }
    }
    return Value::boolean(cased);
}

Value str_isidentifier(Interp&, CallArgs& a) {
    noargs(a, types::str, "isidentifier");
    const std::string& s = self_str(a);
    if (s.empty()) return Value::boolean(false);
    bool first = true;
    for (size_t i = 0; i < s.size();) {
        char32_t c = decode_utf8(s, i);
        bool ok = c == '_' || cp_alpha(c) || (!first && (cp_decimal(c) || (c >= 0x80 && cp_digit(c))));
        if (!ok) return Value::boolean(false);
        first = false;
    }
    return Value::boolean(true);
}

// ------------------------------------------------------------- padding --

std::string fill_of(const Value& v) {
    if (!is_kind(v, OK::Str)) type_error(std::string("The fill character must be a unicode character, not ") + type_name(v));
    const std::string& f = v.as<StrObj>()->s;
    if (cp_len(f) != 1) type_error("The fill character must be exactly one character long");
    return f;
}

std::string repeat(const std::string& unit, int64_t n) {
    std::string out;
    if (n <= 0) return out;
    out.reserve(unit.size() * size_t(n));
    for (int64_t k = 0; k < n; ++k) out += unit;
    return out;
}

// which: 0 ljust, 1 rjust, 2 center
Value pad(Interp& in, CallArgs& a, const char* name, int which) {
    clinic(a, types::str, name, 1, 2);
    const std::string& s = self_str(a);
    int64_t width = int_arg(a.pos[1]);
    std::string fill = a.npos > 2 ? fill_of(a.pos[2]) : std::string(" ");
    int64_t len = cp_len(s);
    if (width <= len) return a.pos[0];
    uint64_t pad_bytes;
    if (__builtin_mul_overflow(uint64_t(width - len), uint64_t(fill.size()), &pad_bytes)) raise(types::MemoryError, "");
    check_host_bytes(in, pad_bytes + s.size());
    int64_t marg = width - len, left, right;
    if (which == 0) { left = 0; right = marg; }
    else if (which == 1) { left = marg; right = 0; }
    else { left = marg / 2 + (marg & width & 1); right = marg - left; }
    return make_str(repeat(fill, left) + s + repeat(fill, right));
}

Value str_ljust(Interp& in, CallArgs& a) { return pad(in, a, "ljust", 0); }
Value str_rjust(Interp& in, CallArgs& a) { return pad(in, a, "rjust", 1); }
Value str_center(Interp& in, CallArgs& a) { return pad(in, a, "center", 2); }

Value str_zfill(Interp& in, CallArgs& a) {
    onearg(a, types::str, "zfill");
    const std::string& s = self_str(a);
    int64_t width = int_arg(a.pos[1]);
    int64_t len = cp_len(s);
    if (width <= len) return a.pos[0];
    check_host_bytes(in, uint64_t(width - len) + s.size());
    std::string out(size_t(width - len), '0');
    out += s;
    size_t fill = size_t(width - len);
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        out[0] = s[0];
        out[fill] = '0';
    }
    return make_str(std::move(out));
}

Value str_expandtabs(Interp&, CallArgs& a) {
    Value args[1];
    bind_args(a, types::str, "expandtabs", {"tabsize"}, args);
    int64_t tab = args[0].is_undef() ? 8 : int_arg(args[0]);
    const std::string& s = self_str(a);
    std::string out;
    int64_t col = 0;
    for (size_t i = 0; i < s.size();) {
        size_t at = i;
        char32_t c = decode_utf8(s, i);
        if (c == '\t') {
            if (tab > 0) {
                int64_t n = tab - col % tab;
                out.append(size_t(n), ' ');
                col += n;
            }
        } else {
            out.append(s, at, i - at);
            col = (c == '\n' || c == '\r') ? 0 : col + 1;
        }
    }
    return make_str(std::move(out));
}

Value affix(CallArgs& a, const char* name, bool suffix) {
    onearg(a, types::str, name);
    const std::string& s = self_str(a);
    if (!is_kind(a.pos[1], OK::Str)) type_error(std::string(name) + "() argument must be str, not " + type_name(a.pos[1]));
    const std::string& x = a.pos[1].as<StrObj>()->s;
    if (x.empty() || x.size() > s.size()) return a.pos[0];
    if (suffix) {
        if (s.compare(s.size() - x.size(), x.size(), x) == 0) return make_str(s.substr(0, s.size() - x.size()));
    } else if (s.compare(0, x.size(), x) == 0) {
        return make_str(s.substr(x.size()));
    }
    return a.pos[0];
}

Value str_removeprefix(Interp&, CallArgs& a) { return affix(a, "removeprefix", false); }
Value str_removesuffix(Interp&, CallArgs& a) { return affix(a, "removesuffix", true); }

Value str_format_method(Interp& in, CallArgs& a) {
    check_self(a, types::str, "format");
    return make_str(str_format(in, self_str(a), a, 1));
}

// ----------------------------------------------------- printf-style `%` --

enum : int { F_LJUST = 1, F_SIGN = 2, F_BLANK = 4, F_ALT = 8, F_ZERO = 16 };

// Truncates to at most prec code points.
std::string truncate_cps(const std::string& s, int64_t prec) {
    if (prec < 0) return s;
    if (is_ascii(s)) return size_t(prec) < s.size() ? s.substr(0, size_t(prec)) : s;
    size_t i = 0;
    for (int64_t k = 0; k < prec && i < s.size(); ++k) decode_utf8(s, i);
    return s.substr(0, i);
}

void pad_text(std::string& out, const std::string& text, int64_t width, bool ljust) {
    int64_t len = cp_len(text);
    if (!ljust && width > len) out.append(size_t(width - len), ' ');
    out += text;
    if (ljust && width > len) out.append(size_t(width - len), ' ');
}

// The layout CPython gives a formatted number (unicode_format_arg_output):
// body is the number's text, possibly starting with its sign and, for the
// alternate form of x/X/o, a two-character prefix after the sign.
void output_number(std::string& out, const std::string& body, int flags, int64_t width, char conv) {
    char sign = 0;
    size_t p = 0;
    if (!body.empty() && (body[0] == '-' || body[0] == '+')) { sign = body[0]; p = 1; }
    else if (flags & F_SIGN) sign = '+';
    else if (flags & F_BLANK) sign = ' ';
    int64_t len = int64_t(body.size() - p);
    char fill = (flags & F_ZERO) ? '0' : ' ';
    int64_t w = std::max(width, len);
    if (sign) {
        if (fill != ' ') out += sign;
        if (w > len) --w;
    }
    bool prefix = (flags & F_ALT) && (conv == 'x' || conv == 'X' || conv == 'o');
    if (prefix) {
        if (fill != ' ') out.append(body, p, 2);
        w -= 2;
        if (w < 0) w = 0;
        len -= 2;
    }
    if (w > len && !(flags & F_LJUST)) {
        out.append(size_t(w - len), fill);
        w = len;
    }
    if (fill == ' ') {
        if (sign) out += sign;
        if (prefix) out.append(body, p, 2);
    }
    out.append(body, p + (prefix ? 2 : 0), std::string::npos);
    if (w > len) out.append(size_t(w - len), ' ');
}

// _PyUnicode_FormatLong: [-][0x]digits, digits zero-padded to prec.
std::string format_long_digits(bool neg, std::string digits, int64_t prec, bool alt, char conv) {
    if (prec > int64_t(digits.size())) digits.insert(0, size_t(prec - int64_t(digits.size())), '0');
    std::string out;
    if (neg) out += '-';
    if (alt && (conv == 'x' || conv == 'X' || conv == 'o')) {
        out += '0';
        out += conv;
    }
    return out + digits;
}

std::string int_digits(uint64_t m, char conv) {
    if (m == 0) return "0";
    std::string d;
    unsigned base = conv == 'o' ? 8 : (conv == 'x' || conv == 'X') ? 16 : 10;
    const char* dig = conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    while (m) {
        d += dig[m % base];
        m /= base;
    }
    std::reverse(d.begin(), d.end());
    return d;
}

bool is_mapping(const Value& v) {
    return is_kind(v, OK::Dict) || is_kind(v, OK::List) || is_kind(v, OK::Range);
}

}  // namespace

Value percent_format(Interp& in, const std::string& fmt, const Value& args) {
    const std::vector<Value>* tup = is_kind(args, OK::Tuple) ? &args.as<TupleObj>()->items : nullptr;
    int64_t arglen = tup ? int64_t(tup->size()) : -1;
    int64_t argidx = tup ? 0 : -2;
    Value dict = (!tup && is_mapping(args)) ? args : Value();
    Value cur = args;  // the single argument, or the value a %(key) selected
    auto next_arg = [&]() -> Value {
        if (argidx < arglen) {
            int64_t k = argidx++;
            if (arglen < 0) return cur;
            return (*tup)[size_t(k)];
        }
        type_error("not enough arguments for format string");
    };
    std::string out;
    out.reserve(fmt.size() + 16);
    size_t i = 0, n = fmt.size();
    while (i < n) {
        size_t pct = fmt.find('%', i);
        if (pct == std::string::npos) {
            out.append(fmt, i, std::string::npos);
            break;
        }
        out.append(fmt, i, pct - i);
        i = pct + 1;
        if (i >= n) value_error("incomplete format");
        if (fmt[i] == '%') {
            out += '%';
            ++i;
            continue;
        }
        if (fmt[i] == '(') {
            if (dict.is_undef()) type_error("format requires a mapping");
            int depth = 1;
            size_t ks = ++i;
            while (depth > 0 && i < n) {
                if (fmt[i] == ')') --depth;
                else if (fmt[i] == '(') ++depth;
                ++i;
            }
            if (depth > 0) value_error("incomplete format key");
            cur = get_item(in, dict, make_str(fmt.substr(ks, i - 1 - ks)));
            tup = nullptr;
            arglen = -1;
            argidx = -2;
        }
        int flags = 0;
        for (; i < n; ++i) {
            char c = fmt[i];
            if (c == '-') flags |= F_LJUST;
            else if (c == '+') flags |= F_SIGN;
            else if (c == ' ') flags |= F_BLANK;
            else if (c == '#') flags |= F_ALT;
            else if (c == '0') flags |= F_ZERO;
            else break;
        }
        int64_t width = -1, prec = -1;
        if (i < n && fmt[i] == '*') {
            Value v = next_arg();
            if (!v.is_intlike()) type_error("* wants int");
            width = v.as_int();
            if (width < 0) {
                flags |= F_LJUST;
                width = -width;
            }
            ++i;
        } else {
            while (i < n && fmt[i] >= '0' && fmt[i] <= '9') {
                if (width < 0) width = 0;
                if (width > (INT64_MAX - 9) / 10) value_error("width too big");
                width = width * 10 + (fmt[i] - '0');
                ++i;
            }
        }
        if (i < n && fmt[i] == '.') {
            ++i;
            prec = 0;
            if (i < n && fmt[i] == '*') {
                Value v = next_arg();
                if (!v.is_intlike()) type_error("* wants int");
                prec = v.as_int();
                if (prec < 0) prec = 0;
                ++i;
            } else {
                while (i < n && fmt[i] >= '0' && fmt[i] <= '9') {
                    if (prec > (INT64_MAX - 9) / 10) value_error("precision too big");
                    prec = prec * 10 + (fmt[i] - '0');
                    ++i;
                }
            }
        }
        while (i < n && (fmt[i] == 'h' || fmt[i] == 'l' || fmt[i] == 'L')) ++i;
        if (i >= n) value_error("incomplete format");
        size_t conv_at = i;
        char32_t conv = decode_utf8(fmt, i);
        Value v = next_arg();
        // NumPy scalars format as the Python numbers they hold (except %s/%r).
        if (v.is_obj() && v.o->type->scalar && conv != 's' && conv != 'r' && conv != 'a') v = v.o->type->scalar(v);
        if (width > (int64_t(1) << 40)) raise(types::MemoryError, "");
        switch (conv) {
            case 's': case 'r': case 'a': {
                std::string text = conv == 's' ? to_str(in, v) : conv == 'r' ? repr(in, v) : ascii_of(repr(in, v));
                pad_text(out, truncate_cps(text, prec), width, flags & F_LJUST);
                break;
            }
            case 'c': {
                std::string text;
                if (v.is_intlike()) {
                    int64_t c = v.as_int();
                    if (c < 0 || c > 0x10FFFF) raise(types::OverflowError, "%c arg not in range(0x110000)");
                    append_utf8(text, char32_t(c));
                } else if (is_kind(v, OK::Str) && cp_len(v.as<StrObj>()->s) == 1) {
                    text = v.as<StrObj>()->s;
                } else {
                    type_error("%c requires int or char");
                }
                pad_text(out, text, width, flags & F_LJUST);
                break;
            }
            case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': {
                char c = char(conv);
                bool integer_only = c == 'x' || c == 'X' || c == 'o';
                std::string body;
                if (v.is_intlike()) {
                    int64_t x = v.as_int();
                    uint64_t m = x < 0 ? uint64_t(0) - uint64_t(x) : uint64_t(x);
                    body = format_long_digits(x < 0, int_digits(m, c), prec, flags & F_ALT, c);
                } else if (v.is_float() && !integer_only) {
                    double x = v.f;
                    if (std::isnan(x)) value_error("cannot convert float NaN to integer");
                    if (std::isinf(x)) raise(types::OverflowError, "cannot convert float infinity to integer");
                    double t = std::trunc(x);
                    std::string digits;
                    bool neg = t < 0;
                    if (std::fabs(t) < 9.2e18) digits = int_digits(uint64_t(std::fabs(t)), 'd');
                    else digits = fmt::format_float(std::fabs(t), ".0f");
                    body = format_long_digits(neg, digits, prec, false, 'd');
                } else if (integer_only) {
                    type_error(std::string("%") + c + " format: an integer is required, not " + type_name(v));
                } else {
                    type_error(std::string("%") + c + " format: a real number is required, not " + type_name(v));
                }
                output_number(out, body, flags, width, c);
                break;
            }
            case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
                if (!v.is_number()) type_error(std::string("must be real number, not ") + type_name(v));
                std::string spec = (flags & F_ALT) ? "#." : ".";
                spec += std::to_string(prec < 0 ? 6 : prec);
                spec += char(conv);
                std::string body;
                try {
                    body = fmt::format_float(v.as_float(), spec);
                } catch (const fmt::FormatError& e) {
                    raise(e.py_type == "OverflowError" ? types::OverflowError : types::ValueError, e.what());
                }
                output_number(out, body, flags, width, char(conv));
                break;
            }
            default: {
                char buf[128];
                std::snprintf(buf, sizeof buf, "unsupported format character '%c' (0x%x) at index %lld",
                              (conv >= 31 && conv <= 126) ? char(conv) : '?', unsigned(conv),
                              (long long)cp_len(std::string_view(fmt).substr(0, conv_at)));
                value_error(buf);
            }
        }
    }
    if (argidx < arglen && dict.is_undef()) type_error("not all arguments converted during string formatting");
    return make_str(std::move(out));
}

// ------------------------------------------------------------ str.format --

namespace {

struct AutoNumber {
    int state = 0;  // 0 not yet known, 1 automatic, 2 manual
    int64_t next = 0;
};

// A field number, or -1 when s is not all ASCII digits (or empty).
int64_t field_integer(std::string_view s) {
    if (s.empty()) return -1;
    int64_t acc = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return -1;
        int d = c - '0';
        if (acc > (INT64_MAX - d) / 10) value_error("Too many decimal digits in format string");
        acc = acc * 10 + d;
    }
    return acc;
}

[[noreturn]] void key_error(Value key) {
    Value e = make_exception(types::KeyError, "");
    e.as<ExceptionObj>()->args = make_tuple({std::move(key)});
    throw GpyError{e};
}

Value get_field(Interp& in, std::string_view name, CallArgs& args, size_t first_arg, AutoNumber& an) {
    size_t k = 0;
    while (k < name.size() && name[k] != '.' && name[k] != '[') ++k;
    std::string_view first = name.substr(0, k), rest = name.substr(k);
    int64_t idx = field_integer(first);
    bool empty = first.empty();
    bool numeric = empty || idx != -1;
    if (an.state == 0 && numeric) an.state = empty ? 1 : 2;
    if (numeric) {
        if (an.state == 2 && empty) value_error("cannot switch from manual field specification to automatic field numbering");
        if (an.state == 1 && !empty) value_error("cannot switch from automatic field numbering to manual field specification");
    }
    if (empty) idx = an.next++;
    Value obj;
    if (idx == -1) {
        bool found = false;
        if (args.kw)
            for (auto& [key, v] : *args.kw)
                if (key == first) { obj = v; found = true; break; }
        if (!found) key_error(make_str(std::string(first)));
    } else {
        size_t np = args.npos > first_arg ? args.npos - first_arg : 0;
        if (uint64_t(idx) >= np)
            raise(types::IndexError, "Replacement index " + std::to_string(idx) + " out of range for positional args tuple");
        obj = args.pos[first_arg + size_t(idx)];
    }
    size_t p = 0;
    while (p < rest.size()) {
        char c = rest[p++];
        std::string_view part;
        bool attr;
        size_t s = p;
        if (c == '.') {
            attr = true;
            while (p < rest.size() && rest[p] != '.' && rest[p] != '[') ++p;
            part = rest.substr(s, p - s);
        } else if (c == '[') {
            attr = false;
            while (p < rest.size() && rest[p] != ']') ++p;
            if (p >= rest.size()) value_error("Missing ']' in format string");
            part = rest.substr(s, p - s);
            ++p;
        } else {
            value_error("Only '.' or '[' may follow ']' in format field specifier");
        }
        if (part.empty()) value_error("Empty attribute in format string");
        if (attr) {
            obj = get_attr(in, obj, std::string(part));
        } else {
            int64_t ix = field_integer(part);
            obj = get_item(in, obj, ix == -1 ? make_str(std::string(part)) : Value::integer(ix));
        }
    }
    return obj;
}

std::string build_string(Interp& in, std::string_view fmt, CallArgs& args, size_t first_arg, AutoNumber& an, int depth) {
    if (depth <= 0) value_error("Max string recursion exceeded");
    std::string out;
    out.reserve(fmt.size() + 16);
    size_t i = 0, n = fmt.size();
    while (i < n) {
        size_t start = i;
        char c = 0;
        bool markup = false;
        while (i < n) {
            c = fmt[i++];
            if (c == '{' || c == '}') { markup = true; break; }
        }
        if (!markup) {
            out.append(fmt.substr(start));
            break;
        }
        bool at_end = i >= n;
        if (c == '}') {
            if (at_end || fmt[i] != '}') value_error("Single '}' encountered in format string");
            out.append(fmt.substr(start, i - start));
            ++i;
            continue;
        }
        if (at_end) value_error("Single '{' encountered in format string");
        if (fmt[i] == '{') {
            out.append(fmt.substr(start, i - start));
            ++i;
            continue;
        }
        out.append(fmt.substr(start, i - 1 - start));

        // The field: name [!conv] [:spec] }
        size_t fs = i;
        c = 0;
        bool terminated = false;
        while (i < n) {
            c = fmt[i++];
            if (c == '{') value_error("unexpected '{' in field name");
            if (c == '[') {
                while (i < n && fmt[i] != ']') ++i;
                continue;
            }
            if (c == '}' || c == ':' || c == '!') { terminated = true; break; }
        }
        if (!terminated) value_error("expected '}' before end of string");
        std::string_view field = fmt.substr(fs, i - 1 - fs);
        char32_t conv = 0;
        std::string_view spec;
        bool expand = false;
        if (c == '!' || c == ':') {
            bool done = false;
            if (c == '!') {
                if (i >= n) value_error("end of string while looking for conversion specifier");
                conv = decode_utf8(fmt, i);
                if (i < n) {
                    char c2 = fmt[i++];
                    if (c2 == '}') done = true;
                    else if (c2 != ':') value_error("expected ':' after conversion specifier");
                }
            }
            if (!done) {
                size_t ss = i;
                int count = 1;
                bool closed = false;
                while (i < n) {
                    char ch = fmt[i++];
                    if (ch == '{') { expand = true; ++count; }
                    else if (ch == '}' && --count == 0) {
                        spec = fmt.substr(ss, i - 1 - ss);
                        closed = true;
                        break;
                    }
                }
                if (!closed) value_error("unmatched '{' in format spec");
            }
        }

        Value obj = get_field(in, field, args, first_arg, an);
        if (conv) {
            if (conv == 'r') obj = make_str(repr(in, obj));
            else if (conv == 's') obj = make_str(to_str(in, obj));
            else if (conv == 'a') obj = make_str(ascii_of(repr(in, obj)));
            else {
                char buf[64];
                if (conv > 32 && conv < 127) std::snprintf(buf, sizeof buf, "Unknown conversion specifier %c", char(conv));
                else std::snprintf(buf, sizeof buf, "Unknown conversion specifier \\x%x", unsigned(conv));
                value_error(buf);
            }
        }
        if (expand) out += format_value(in, obj, build_string(in, spec, args, first_arg, an, depth - 1));
        else out += format_value(in, obj, spec);
    }
    return out;
}

}  // namespace

std::string str_format(Interp& in, const std::string& fmt, CallArgs& args, size_t first_arg) {
    AutoNumber an;
    return build_string(in, fmt, args, first_arg, an, 2);
}

// ---------------------------------------------------------- registration --

void install_str_methods() {
    TypeObject* t = types::str;
    def_method(t, "format", str_format_method, "str.format(*args, **kwargs)",
               "Return a formatted version of the string, using substitutions from args and kwargs.");
    def_method(t, "join", str_join, "str.join(iterable, /)", "Concatenate any number of strings.");
    def_method(t, "split", str_split, "str.split(sep=None, maxsplit=-1)",
               "Return a list of the substrings in the string, using sep as the separator string.");
    def_method(t, "rsplit", str_rsplit, "str.rsplit(sep=None, maxsplit=-1)",
               "Return a list of the substrings in the string, using sep as the separator string.");
    def_method(t, "splitlines", str_splitlines, "str.splitlines(keepends=False)",
               "Return a list of the lines in the string, breaking at line boundaries.");
    def_method(t, "strip", str_strip, "str.strip(chars=None, /)",
               "Return a copy of the string with leading and trailing whitespace removed.");
    def_method(t, "lstrip", str_lstrip, "str.lstrip(chars=None, /)",
               "Return a copy of the string with leading whitespace removed.");
    def_method(t, "rstrip", str_rstrip, "str.rstrip(chars=None, /)",
               "Return a copy of the string with trailing whitespace removed.");
    def_method(t, "replace", str_replace, "str.replace(old, new, count=-1, /)",
               "Return a copy with all occurrences of substring old replaced by new.");
    def_method(t, "startswith", str_startswith, "str.startswith(prefix[, start[, end]])",
               "Return True if the string starts with the specified prefix, False otherwise.");
    def_method(t, "endswith", str_endswith, "str.endswith(suffix[, start[, end]])",
               "Return True if the string ends with the specified suffix, False otherwise.");
    def_method(t, "upper", str_upper, "str.upper()", "Return a copy of the string converted to uppercase.");
    def_method(t, "lower", str_lower, "str.lower()", "Return a copy of the string converted to lowercase.");
    def_method(t, "casefold", str_casefold, "str.casefold()",
               "Return a version of the string suitable for caseless comparisons.");
    def_method(t, "capitalize", str_capitalize, "str.capitalize()", "Return a capitalized version of the string.");
    def_method(t, "title", str_title, "str.title()",
               "Return a version of the string where each word is titlecased.");
    def_method(t, "swapcase", str_swapcase, "str.swapcase()",
               "Convert uppercase characters to lowercase and lowercase characters to uppercase.");
    def_method(t, "find", str_find, "str.find(sub[, start[, end]])",
               "Return the lowest index in the string where substring sub is found, or -1.");
    def_method(t, "rfind", str_rfind, "str.rfind(sub[, start[, end]])",
               "Return the highest index in the string where substring sub is found, or -1.");
    def_method(t, "index", str_index, "str.index(sub[, start[, end]])",
               "Like find(), but raise ValueError when the substring is not found.");
    def_method(t, "rindex", str_rindex, "str.rindex(sub[, start[, end]])",
               "Like rfind(), but raise ValueError when the substring is not found.");
    def_method(t, "count", str_count, "str.count(sub[, start[, end]])",
               "Return the number of non-overlapping occurrences of substring sub in string[start:end].");
    def_method(t, "isdigit", str_isdigit, "str.isdigit()", "Return True if the string is a digit string, False otherwise.");
    def_method(t, "isdecimal", str_isdecimal, "str.isdecimal()",
               "Return True if the string is a decimal string, False otherwise.");
    def_method(t, "isnumeric", str_isnumeric, "str.isnumeric()",
               "Return True if the string is a numeric string, False otherwise.");
    def_method(t, "isalpha", str_isalpha, "str.isalpha()",
               "Return True if the string is an alphabetic string, False otherwise.");
    def_method(t, "isalnum", str_isalnum, "str.isalnum()",
               "Return True if the string is an alpha-numeric string, False otherwise.");
    def_method(t, "isspace", str_isspace, "str.isspace()",
               "Return True if the string is a whitespace string, False otherwise.");
    def_method(t, "isupper", str_isupper, "str.isupper()",
               "Return True if the string is an uppercase string, False otherwise.");
    def_method(t, "islower", str_islower, "str.islower()",
               "Return True if the string is a lowercase string, False otherwise.");
    def_method(t, "istitle", str_istitle, "str.istitle()",
               "Return True if the string is a title-cased string, False otherwise.");
    def_method(t, "isidentifier", str_isidentifier, "str.isidentifier()",
               "Return True if the string is a valid Python identifier, False otherwise.");
    def_method(t, "isascii", str_isascii, "str.isascii()",
               "Return True if all characters in the string are ASCII, False otherwise.");
    def_method(t, "isprintable", str_isprintable, "str.isprintable()",
               "Return True if the string is printable, False otherwise.");
    def_method(t, "zfill", str_zfill, "str.zfill(width, /)",
               "Pad a numeric string with zeros on the left, to fill a field of the given width.");
    def_method(t, "center", str_center, "str.center(width, fillchar=' ', /)", "Return a centered string of length width.");
    def_method(t, "ljust", str_ljust, "str.ljust(width, fillchar=' ', /)",
               "Return a left-justified string of length width.");
    def_method(t, "rjust", str_rjust, "str.rjust(width, fillchar=' ', /)",
               "Return a right-justified string of length width.");
    def_method(t, "partition", str_partition, "str.partition(sep, /)",
               "Partition the string into three parts using the given separator.");
    def_method(t, "rpartition", str_rpartition, "str.rpartition(sep, /)",
               "Partition the string into three parts using the given separator, searching from the end.");
    def_method(t, "expandtabs", str_expandtabs, "str.expandtabs(tabsize=8)",
               "Return a copy where all tab characters are expanded using spaces.");
    def_method(t, "removeprefix", str_removeprefix, "str.removeprefix(prefix, /)",
               "Return a str with the given prefix string removed if present.");
    def_method(t, "removesuffix", str_removesuffix, "str.removesuffix(suffix, /)",
               "Return a str with the given suffix string removed if present.");
}

}  // namespace gpy
