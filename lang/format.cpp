// Python-compatible number and string formatting; see format.h.
//
// The structure follows CPython's own (Objects/stringlib formatter and
// Python/pystrtod.c) so that the many corner cases fall out the same way:
// a float is first turned into a digit string plus decimal-point position,
// then into text for one presentation type, and finally a number is laid out
// as [lpad][sign][prefix][spad][grouped digits][.][remainder][rpad].
#include "lang/format.h"

#include "lang/utf8.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <climits>
#include <cmath>

namespace gpy::fmt {

namespace {

// ---------------------------------------------------------------- UTF-8 --

int64_t count_code_points(std::string_view s) {
    int64_t n = 0;
    for (size_t i = 0; i < s.size(); ++n) decode_utf8(s, i);
    return n;
}

std::string repeat_fill(char32_t fill, int64_t n) {
    std::string one;
    append_utf8(one, fill);
    std::string out;
    if (n <= 0) return out;
    out.reserve(one.size() * size_t(n));
    for (int64_t k = 0; k < n; ++k) out += one;
    return out;
}

// How CPython names a type code in messages: the character itself when it is
// printable ASCII, else \x followed by unpadded lowercase hex.
std::string code_name(char32_t c) {
    if (c > 32 && c < 128) return std::string(1, char(c));
    char buf[16];
    auto r = std::to_chars(buf, buf + sizeof buf, uint32_t(c), 16);
    return "\\x" + std::string(buf, r.ptr);
}

[[noreturn]] void unknown_code(char32_t type, std::string_view type_name) {
    throw FormatError("Unknown format code '" + code_name(type) + "' for object of type '" +
                      std::string(type_name) + "'");
}

// ------------------------------------------------------------- parsing --

bool is_align(char32_t c) { return c == '<' || c == '>' || c == '=' || c == '^'; }

// Reads ASCII digits at u[pos]; returns how many were read, or -1 when the
// value would not fit in a Py_ssize_t (CPython's limit and message).
int read_int(const std::u32string& u, size_t& pos, int64_t& value, std::string& error) {
    int n = 0;
    value = 0;
    for (; pos < u.size() && u[pos] >= '0' && u[pos] <= '9'; ++pos, ++n) {
        int d = int(u[pos] - '0');
        if (value > (INT64_MAX - d) / 10) {
            error = "Too many decimal digits in format string";
            return -1;
        }
        value = value * 10 + d;
    }
    return n;
}

FormatSpec parse_or_throw(std::string_view spec, char32_t default_type, std::string_view type_name) {
    FormatSpec f;
    std::string error;
    if (!parse_format_spec(spec, f, error, default_type, type_name)) throw FormatError(error);
    return f;
}

// ------------------------------------------------------- number layout --

// Inserts `sep` every `group` digits from the right, and when min_width > 0
// pads with leading zeros (themselves grouped) up to at least min_width
// characters. This is the '0' flag's zero padding: CPython routes it through
// the grouping code, which is why '09,' on 1234 gives '0,001,234' (a leading
// separator would be wrong, so the result may be one wider than asked).
std::string group_digits(std::string_view digits, int64_t min_width, char sep, int group) {
    std::string rev;  // built right to left
    int64_t remaining = int64_t(digits.size());
    min_width = std::max<int64_t>(min_width, 0);
    bool first = true;
    auto emit = [&](int64_t len) {
        int64_t chars = std::min(remaining, len);
        int64_t zeros = std::max<int64_t>(0, len - remaining);
        if (!first) rev += sep;
        first = false;
        for (int64_t k = 0; k < chars; ++k) rev += digits[size_t(remaining - 1 - k)];
        remaining -= chars;
        rev.append(size_t(zeros), '0');
    };
    if (sep) {
        for (;;) {
            int64_t len = std::min<int64_t>(group, std::max({remaining, min_width, int64_t(1)}));
            emit(len);
            min_width -= len;
            if (remaining <= 0 && min_width <= 0) break;
            min_width -= 1;  // the separator that the next group brings
        }
    } else {
        emit(std::max({remaining, min_width, int64_t(1)}));
    }
    std::reverse(rev.begin(), rev.end());
    return rev;
}

// Lays a number out within the spec's width. `digits` are the integer digits
// (may be empty: inf, nan, 'c'), `remainder` whatever follows the decimal
// point (fraction, exponent, '%', or the 'c' character), `remainder_cps` its
// length in code points.
std::string layout_number(const FormatSpec& f, bool negative, std::string_view prefix,
                          std::string_view digits, bool has_decimal, std::string_view remainder,
                          int64_t remainder_cps, int group) {
    char sign = 0;
    if (negative) sign = '-';
    else if (f.sign == '+' || f.sign == ' ') sign = f.sign;

    int64_t fixed = (sign ? 1 : 0) + int64_t(prefix.size()) + (has_decimal ? 1 : 0) + remainder_cps;
    // Zero padding is part of the digits (and so gets grouped), only for '0'
    // fill with '=' alignment, which is what the '0' flag turns into.
    int64_t min_width = (f.fill == '0' && f.align == '=') ? f.width - fixed : 0;
    std::string grouped;
    if (!digits.empty()) grouped = group_digits(digits, min_width, f.grouping, group);

    int64_t padding = f.width - (fixed + int64_t(grouped.size()));
    int64_t lpad = 0, spad = 0, rpad = 0;
    if (padding > 0) {
        switch (f.align) {
            case '<': rpad = padding; break;
            case '^': lpad = padding / 2; rpad = padding - lpad; break;
            case '=': spad = padding; break;
            default: lpad = padding; break;
        }
    }
    std::string out = repeat_fill(f.fill, lpad);
    if (sign) out += sign;
    out += prefix;
    out += repeat_fill(f.fill, spad);
    out += grouped;
    if (has_decimal) out += '.';
    out += remainder;
    out += repeat_fill(f.fill, rpad);
    return out;
}

// ------------------------------------------------------- float digits --

// The decimal digits of |x| without leading or trailing zeros, and where the
// decimal point goes: value = 0.<digits> * 10^decpt. This is what David Gay's
// dtoa (which CPython uses) returns; std::to_chars computes the same exactly
// rounded digits (round-half-even on exact ties, as dtoa does).
struct Digits {
    std::string d;
    int decpt = 1;
};

enum class DigitMode { Shortest, Significant, Fixed };

Digits float_digits(double x, DigitMode mode, int ndigits) {
    Digits out;
    x = std::fabs(x);
    if (x == 0) {
        out.d = "0";
        return out;
    }
    // Fixed needs up to 309 integer digits; the rest is precision.
    std::string buf(size_t(ndigits) + 400, '\0');
    char* b = buf.data();
    char* e = b + buf.size();
    std::to_chars_result r;
    if (mode == DigitMode::Shortest) r = std::to_chars(b, e, x, std::chars_format::scientific);
    else if (mode == DigitMode::Significant)
        r = std::to_chars(b, e, x, std::chars_format::scientific, ndigits - 1);
    else r = std::to_chars(b, e, x, std::chars_format::fixed, ndigits);

    int int_digits = 0;
    bool seen_point = false;
    int exp10 = 0;
    for (char* p = b; p < r.ptr; ++p) {
        if (*p == '.') {
            seen_point = true;
        } else if (*p == 'e') {
            std::from_chars(p + 1 + (p[1] == '+'), r.ptr, exp10);
            break;
        } else {
            out.d += *p;
            if (!seen_point) ++int_digits;
        }
    }
    // Scientific output has one integer digit, so decpt = exponent + 1.
    out.decpt = mode == DigitMode::Fixed ? int_digits : exp10 + 1;
    size_t lead = out.d.find_first_not_of('0');
    if (lead == std::string::npos) {
        // Rounded to zero at this precision ('f' only); equivalent to 0.0.
        out.d = "0";
        out.decpt = 1;
        return out;
    }
    out.d.erase(0, lead);
    out.decpt -= int(lead);
    out.d.erase(out.d.find_last_not_of('0') + 1);
    return out;
}

// CPython's PyOS_double_to_string for codes 'e', 'f', 'g' and 'r' (repr).
// add_dot_0 keeps a ".0" on integral values written without exponent (repr
// and the no-type format); alt is '#' (keep the point and, for 'g', trailing
// zeros); upper selects E/INF/NAN.
std::string float_text(double x, char code, int precision, bool add_dot_0, bool alt,
                       bool no_neg_zero, bool upper) {
    if (std::isnan(x)) return upper ? "NAN" : "nan";  // the sign of a nan is never shown
    bool neg = std::signbit(x);
    if (std::isinf(x)) return std::string(neg ? "-" : "") + (upper ? "INF" : "inf");

    Digits dg;
    switch (code) {
        case 'e':
            ++precision;  // from now on: significant digits
            dg = float_digits(x, DigitMode::Significant, precision);
            break;
        case 'f': dg = float_digits(x, DigitMode::Fixed, precision); break;
        case 'g':
            if (precision == 0) precision = 1;
            dg = float_digits(x, DigitMode::Significant, precision);
            break;
        default: dg = float_digits(x, DigitMode::Shortest, 0); break;
    }
    int64_t len = int64_t(dg.d.size());
    int64_t decpt = dg.decpt;

    // Output is the slice [vstart, vend) of the digits padded with zeros on
    // both sides, with the point before index decpt.
    int64_t vend = len;
    bool use_exp = false;
    switch (code) {
        case 'e': use_exp = true; vend = precision; break;
        case 'f': vend = decpt + precision; break;
        case 'g':
            // add_dot_0 (the no-type format with a precision) switches one
            // digit earlier so "1e+02" never needs to become "100.0".
            if (decpt <= -4 || decpt > (add_dot_0 ? precision - 1 : precision)) use_exp = true;
            if (alt) vend = precision;
            break;
        default:
            // repr: 1e16 and up use an exponent; 17 digits would show
            // padding zeros that are not the true value.
            if (decpt <= -4 || decpt > 16) use_exp = true;
            break;
    }
    int64_t exp = 0;
    if (use_exp) {
        exp = decpt - 1;
        decpt = 1;
    }
    int64_t vstart = decpt <= 0 ? decpt - 1 : 0;
    vend = std::max(vend, (!use_exp && add_dot_0) ? decpt + 1 : decpt);

    if (no_neg_zero && dg.d == "0") neg = false;

    std::string out;
    if (neg) out += '-';
    for (int64_t i = vstart; i < vend; ++i) {
        if (i == decpt) out += '.';
        out += (i >= 0 && i < len) ? dg.d[size_t(i)] : '0';
    }
    if (vend == decpt) out += '.';
    if (out.back() == '.' && !alt) out.pop_back();
    if (use_exp) {
        out += upper ? 'E' : 'e';
        out += exp < 0 ? '-' : '+';
        if (std::abs(exp) < 10) out += '0';
        out += std::to_string(std::abs(exp));
    }
    return out;
}

// format_float once the spec is parsed and known to suit a float.
std::string format_float_spec(double v, const FormatSpec& f) {
    if (f.precision > INT_MAX) throw FormatError("precision too big");
    int precision = int(f.precision);
    char32_t type = f.type;
    bool add_dot_0 = false;
    int default_precision = 6;
    char code;
    bool upper = false;
    bool add_pct = false;
    switch (type) {
        case 0:
            // No type: repr, or with a precision 'g' that keeps a ".0".
            add_dot_0 = true;
            default_precision = 0;
            code = precision < 0 ? 'r' : 'g';
            break;
        case 'n': code = 'g'; break;  // C locale: 'n' is 'g'
        case '%':
            code = 'f';
            v *= 100;
            add_pct = true;
            break;
        case 'E': case 'F': case 'G':
            upper = true;
            code = char(type - 'A' + 'a');
            break;
        default: code = char(type); break;
    }
    if (precision < 0) precision = default_precision;

    std::string text = float_text(v, code, precision, add_dot_0, f.alternate, f.no_neg_zero, upper);
    if (add_pct) text += '%';

    bool negative = !text.empty() && text[0] == '-';
    std::string_view body(text);
    if (negative) body.remove_prefix(1);
    size_t n_int = 0;
    while (n_int < body.size() && body[n_int] >= '0' && body[n_int] <= '9') ++n_int;
    bool has_decimal = n_int < body.size() && body[n_int] == '.';
    std::string_view rest = body.substr(n_int + (has_decimal ? 1 : 0));
    return layout_number(f, negative, "", body.substr(0, n_int), has_decimal, rest,
                         int64_t(rest.size()), 3);
}

std::string format_int_as(int64_t v, std::string_view spec, std::string_view type_name) {
    if (spec.empty()) return int_to_string(v);
    FormatSpec f = parse_or_throw(spec, 'd', type_name);
    switch (f.type) {
        case 'b': case 'c': case 'd': case 'o': case 'x': case 'X': case 'n': break;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
            return format_float_spec(double(v), f);  // Python converts with float(v)
        default: unknown_code(f.type, type_name);
    }
    if (f.precision != -1) throw FormatError("Precision not allowed in integer format specifier");
    if (f.no_neg_zero)
        throw FormatError("Negative zero coercion (z) not allowed in integer format specifier");

    if (f.type == 'c') {
        if (f.sign) throw FormatError("Sign not allowed with integer format specifier 'c'");
        if (f.alternate)
            throw FormatError("Alternate form (#) not allowed with integer format specifier 'c'");
        if (v < 0 || v > 0x10FFFF) throw FormatError("%c arg not in range(0x110000)", "OverflowError");
        std::string ch;
        append_utf8(ch, char32_t(v));
        // The character is laid out as a "remainder" with no digits, so
        // zero padding becomes plain fill.
        return layout_number(f, false, "", "", false, ch, 1, 3);
    }

    int base = 10;
    const char* prefix = "";
    switch (f.type) {
        case 'b': base = 2; prefix = "0b"; break;
        case 'o': base = 8; prefix = "0o"; break;
        case 'x': base = 16; prefix = "0x"; break;
        case 'X': base = 16; prefix = "0X"; break;
        default: break;
    }
    // Magnitude as unsigned so INT64_MIN works.
    uint64_t mag = v < 0 ? 0 - uint64_t(v) : uint64_t(v);
    char buf[80];
    auto r = std::to_chars(buf, buf + sizeof buf, mag, base);
    std::string digits(buf, r.ptr);
    if (f.type == 'X')
        for (char& c : digits) c = char(std::toupper((unsigned char)c));
    // '_' groups hex/octal/binary by four, everything else by three.
    int group = base == 10 ? 3 : 4;
    return layout_number(f, v < 0, f.alternate ? prefix : "", digits, false, "", 0, group);
}

// Code points that repr(str) escapes besides ASCII controls: the assigned
// ones that Python's str.isprintable() rejects (categories Cc, Cf, Cs, Co,
// Zl, Zp, Zs other than ' '), Unicode 14.0 as in CPython 3.11. Generated by
// `gen_format_cases.py --nonprintable-table`.
constexpr char32_t kNonPrintable[][2] = {
    {0x80, 0xa0},       {0xad, 0xad},       {0x600, 0x605},     {0x61c, 0x61c},
    {0x6dd, 0x6dd},     {0x70f, 0x70f},     {0x890, 0x891},     {0x8e2, 0x8e2},
    {0x1680, 0x1680},   {0x180e, 0x180e},   {0x2000, 0x200f},   {0x2028, 0x202f},
    {0x205f, 0x2064},   {0x2066, 0x206f},   {0x3000, 0x3000},   {0xd800, 0xf8ff},
    {0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0x110bd, 0x110bd}, {0x110cd, 0x110cd},
    {0x13430, 0x13438}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a}, {0xe0001, 0xe0001},
    {0xe0020, 0xe007f}, {0xf0000, 0xffffd}, {0x100000, 0x10fffd},
};

bool is_printable(char32_t cp) {
    if (cp < 0x20 || cp == 0x7F) return false;
    for (const auto& r : kNonPrintable)
        if (cp >= r[0] && cp <= r[1]) return false;
    return true;
}

}  // namespace

// ------------------------------------------------------------- public --

bool parse_format_spec(std::string_view spec, FormatSpec& out, std::string& error,
                       char32_t default_type, std::string_view type_name) {
    // Work on code points: the fill and the type may be any character.
    std::u32string u;
    for (size_t i = 0; i < spec.size();) u += decode_utf8(spec, i);
    size_t pos = 0, end = u.size();

    FormatSpec f;
    f.type = default_type;
    char default_align = default_type == 's' ? '<' : '>';
    f.align = default_align;
    bool fill_given = false, align_given = false;

    // A fill needs an align after it, so look at the second character first.
    if (end - pos >= 2 && is_align(u[pos + 1])) {
        f.fill = u[pos];
        f.align = char(u[pos + 1]);
        fill_given = align_given = true;
        pos += 2;
    } else if (end - pos >= 1 && is_align(u[pos])) {
        f.align = char(u[pos]);
        align_given = true;
        ++pos;
    }
    if (pos < end && (u[pos] == '+' || u[pos] == '-' || u[pos] == ' ')) f.sign = char(u[pos++]);
    if (pos < end && u[pos] == 'z') { f.no_neg_zero = true; ++pos; }
    if (pos < end && u[pos] == '#') { f.alternate = true; ++pos; }
    // The '0' flag: zero fill between sign and digits, unless a fill was
    // given; it only changes the alignment where numbers are the default.
    if (!fill_given && pos < end && u[pos] == '0') {
        f.fill = '0';
        if (!align_given && default_align == '>') f.align = '=';
        ++pos;
    }
    int64_t n;
    int got = read_int(u, pos, n, error);
    if (got < 0) return false;
    if (got > 0) f.width = n;

    if (pos < end && u[pos] == ',') { f.grouping = ','; ++pos; }
    if (pos < end && u[pos] == '_') {
        if (f.grouping) { error = "Cannot specify both ',' and '_'."; return false; }
        f.grouping = '_';
        ++pos;
    }
    if (pos < end && u[pos] == ',' && f.grouping == '_') {
        error = "Cannot specify both ',' and '_'.";
        return false;
    }
    if (pos < end && u[pos] == '.') {
        ++pos;
        got = read_int(u, pos, n, error);
        if (got < 0) return false;
        if (got == 0) { error = "Format specifier missing precision"; return false; }
        f.precision = n;
    }
    if (end - pos > 1) {
        error = "Invalid format specifier '" + std::string(spec) + "' for object of type '" +
                std::string(type_name) + "'";
        return false;
    }
    if (end - pos == 1) f.type = u[pos];

    if (f.grouping) {
        switch (f.type) {
            case 'd': case 'e': case 'f': case 'g': case 'E': case 'G': case '%': case 'F': case 0:
                break;
            case 'b': case 'o': case 'x': case 'X':
                if (f.grouping == '_') break;  // PEP 515: '_' groups bin/oct/hex by four
                [[fallthrough]];
            default:
                error = std::string("Cannot specify '") + f.grouping + "' with '" + code_name(f.type) + "'.";
                return false;
        }
    }
    out = f;
    return true;
}

std::string float_repr(double x) { return float_text(x, 'r', 0, true, false, false, false); }

std::string int_to_string(int64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string str_repr(std::string_view s) {
    bool has_single = s.find('\'') != std::string_view::npos;
    bool has_double = s.find('"') != std::string_view::npos;
    char quote = has_single && !has_double ? '"' : '\'';
    static const char* hex = "0123456789abcdef";
    std::string out(1, quote);
    for (size_t i = 0; i < s.size();) {
        size_t start = i;
        bool ok;
        char32_t cp = decode_utf8(s, i, &ok);
        if (!ok) {
            // Not UTF-8 at all (Python strs never are): show the raw byte.
            out += "\\x";
            out += hex[cp >> 4];
            out += hex[cp & 15];
        } else if (cp == char32_t(quote) || cp == '\\') {
            out += '\\';
            out += char(cp);
        } else if (cp == '\t') {
            out += "\\t";
        } else if (cp == '\n') {
            out += "\\n";
        } else if (cp == '\r') {
            out += "\\r";
        } else if (is_printable(cp)) {
            out.append(s.substr(start, i - start));
        } else {
            int digits = cp < 0x100 ? 2 : cp < 0x10000 ? 4 : 8;
            out += digits == 2 ? "\\x" : digits == 4 ? "\\u" : "\\U";
            for (int k = digits - 1; k >= 0; --k) out += hex[(cp >> (4 * k)) & 15];
        }
    }
    out += quote;
    return out;
}

std::string format_int(int64_t v, std::string_view spec) { return format_int_as(v, spec, "int"); }

std::string format_bool(bool b, std::string_view spec) {
    // bool inherits int.__format__, which uses str() only for an empty spec.
    if (spec.empty()) return b ? "True" : "False";
    return format_int_as(b ? 1 : 0, spec, "bool");
}

std::string format_float(double v, std::string_view spec) {
    if (spec.empty()) return float_repr(v);
    FormatSpec f = parse_or_throw(spec, 0, "float");
    switch (f.type) {
        case 0: case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'n': case '%':
            return format_float_spec(v, f);
        default: unknown_code(f.type, "float");
    }
}

std::string format_str(std::string_view s, std::string_view spec) {
    if (spec.empty()) return std::string(s);
    FormatSpec f = parse_or_throw(spec, 's', "str");
    if (f.type != 's') unknown_code(f.type, "str");
    if (f.sign == ' ') throw FormatError("Space not allowed in string format specifier");
    if (f.sign) throw FormatError("Sign not allowed in string format specifier");
    if (f.no_neg_zero)
        throw FormatError("Negative zero coercion (z) not allowed in string format specifier");
    if (f.alternate) throw FormatError("Alternate form (#) not allowed in string format specifier");
    if (f.align == '=') throw FormatError("'=' alignment not allowed in string format specifier");

    int64_t len = count_code_points(s);
    if (f.precision >= 0 && len > f.precision) {
        // Cut after `precision` code points.
        size_t i = 0;
        for (int64_t k = 0; k < f.precision; ++k) decode_utf8(s, i);
        s = s.substr(0, i);
        len = f.precision;
    }
    int64_t padding = std::max<int64_t>(f.width - len, 0);
    int64_t lpad = f.align == '>' ? padding : f.align == '^' ? padding / 2 : 0;
    return repeat_fill(f.fill, lpad) + std::string(s) + repeat_fill(f.fill, padding - lpad);
}

}  // namespace gpy::fmt
