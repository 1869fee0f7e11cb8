#include "lang/lexer.h"

#include "lang/utf8.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace gpy {

const char* token_text(T t) {
    switch (t) {
        case T::End: return "end of input";
        case T::Newline: return "newline";
        case T::Indent: return "indent";
        case T::Dedent: return "dedent";
        case T::Name: return "identifier";
        case T::Int: case T::Float: case T::Imag: return "number";
        case T::String: return "string";
        case T::KernelBlock: return "kernel block";
#define X(name, text) case T::name: return text;
        GPY_KEYWORDS(X) GPY_PUNCT(X)
#undef X
    }
    return "?";
}

static const std::unordered_map<std::string_view, T>& keyword_map() {
    static const std::unordered_map<std::string_view, T> m = {
#define X(name, text) {text, T::name},
        GPY_KEYWORDS(X)
#undef X
    };
    return m;
}

bool is_keyword(std::string_view w) { return keyword_map().count(w) != 0; }

const std::vector<std::string>& keyword_list() {
    static const std::vector<std::string> v = {
#define X(name, text) text,
        GPY_KEYWORDS(X)
#undef X
    };
    return v;
}

namespace {

// Punctuation, longest first so that `**=` wins over `**` and `*`.
struct PunctEntry { const char* text; T kind; };
const PunctEntry kPuncts[] = {
    {"**=", T::DStarEq}, {"//=", T::DSlashEq}, {"<<=", T::LShiftEq}, {">>=", T::RShiftEq}, {"...", T::Ellipsis},
    {"->", T::Arrow}, {":=", T::Walrus}, {"**", T::DStar}, {"//", T::DSlash}, {"<<", T::LShift}, {">>", T::RShift},
    {"<=", T::Le}, {">=", T::Ge}, {"==", T::EqEq}, {"!=", T::NotEq}, {"+=", T::PlusEq}, {"-=", T::MinusEq},
    {"*=", T::StarEq}, {"/=", T::SlashEq}, {"%=", T::PercentEq}, {"@=", T::AtEq}, {"&=", T::AmpEq},
    {"|=", T::PipeEq}, {"^=", T::CaretEq},
    {"(", T::LParen}, {")", T::RParen}, {"[", T::LBracket}, {"]", T::RBracket}, {"{", T::LBrace}, {"}", T::RBrace},
    {",", T::Comma}, {":", T::Colon}, {".", T::Dot}, {";", T::Semi}, {"+", T::Plus}, {"-", T::Minus},
    {"*", T::Star}, {"/", T::Slash}, {"%", T::Percent}, {"@", T::At}, {"&", T::Amp}, {"|", T::Pipe},
    {"^", T::Caret}, {"~", T::Tilde}, {"<", T::Lt}, {">", T::Gt}, {"=", T::Assign},
};

class Lexer {
public:
    explicit Lexer(const SourceFile& f) : file_(f), src_(f.text) {}
    // Expression mode: tokens of file.text[begin, end) as if inside brackets
    // (used for the expressions embedded in f-strings).
    Lexer(const SourceFile& f, uint32_t begin, uint32_t end)
        : file_(f), src_(std::string_view(f.text).substr(0, end)), pos_(begin), expr_mode_(true) {}

    std::vector<Token> run() {
        tokens_.reserve(src_.size() / 6 + 16);  // ~a token per 6 bytes of code: fewer regrowths of a large file's vector
        indents_.push_back(0);
        alt_indents_.push_back(0);
        at_line_start_ = !expr_mode_;
        if (!expr_mode_) {
            if (src_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte-order mark is not part of the program
            check_utf8();
        }
        if (expr_mode_) brackets_.push_back({'(', pos_});
        while (true) {
            if (at_line_start_ && brackets_.empty()) {
                if (!handle_indentation()) break;  // reached end of file
                if (!expr_mode_ && lex_kernel_block()) continue;
            }
            skip_spaces();
            if (pos_ >= src_.size()) break;
            char c = src_[pos_];
            if (c == '#') { skip_comment(); continue; }
            if (c == '\n' || c == '\r') {
                uint32_t nl = pos_;
                pos_ += (c == '\r' && peek(1) == '\n') ? 2 : 1;
                if (brackets_.empty()) {
                    emit(T::Newline, nl, nl + 1);
                    at_line_start_ = true;
                }
                continue;
            }
            if (c == '\\') {
                if (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n')) { pos_ += peek(1) == '\r' ? 3 : 2; 
                    if (pos_ >= src_.size()) throw SyntaxError(span(pos_ - 2, pos_), "unexpected end of input after line continuation", true);
                    continue; }
                if (pos_ + 1 >= src_.size())
                    throw SyntaxError(span(pos_, pos_ + 1), "unexpected end of input after line continuation", true);
                throw SyntaxError(span(pos_, pos_ + 1), "unexpected character after line continuation character");
            }
            lex_token();
        }
        finish();
        return std::move(tokens_);
    }

private:
    const SourceFile& file_;
    std::string_view src_;
    uint32_t pos_ = 0;
    std::vector<Token> tokens_;
    std::vector<int> indents_;
    // The same indentation measured with tabs as one column: where the two
    // measures disagree on how lines nest, the nesting depends on the tab
    // width and CPython raises TabError (tokenizer.c's altcol).
    std::vector<int> alt_indents_;
    struct Open { char ch; uint32_t at; };
    std::vector<Open> brackets_;
    bool at_line_start_ = true;
    bool expr_mode_ = false;

    char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
    Span span(uint32_t b, uint32_t e) const { return Span{&file_, b, e}; }
    Token& emit(T k, uint32_t b, uint32_t e) {
        tokens_.push_back(Token{});
        tokens_.back().kind = k;
        tokens_.back().span = span(b, e);
        return tokens_.back();
    }
    void skip_spaces() {
        while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\f')) ++pos_;
    }
    void skip_comment() { while (pos_ < src_.size() && src_[pos_] != '\n' && src_[pos_] != '\r') ++pos_; }

    // Source must be UTF-8 (PEP 3120; gpy reads no coding declarations).
    void check_utf8() const {
        for (size_t i = pos_; i < src_.size();) {
            if (static_cast<unsigned char>(src_[i]) < 0x80) {
                ++i;
                continue;
            }
            size_t at = i;
            bool ok = true;
            decode_utf8(src_, i, &ok);
            if (ok) continue;
            char byte[8];
            std::snprintf(byte, sizeof byte, "\\x%02x", static_cast<unsigned char>(src_[at]));
            throw SyntaxError(span(uint32_t(at), uint32_t(at + 1)),
                              std::string("Non-UTF-8 code starting with '") + byte + "' in file " + file_.name + " on line " +
                                  std::to_string(file_.line_col(uint32_t(at)).first) +
                                  ", but no encoding declared; see https://peps.python.org/pep-0263/ for details");
        }
    }
    [[noreturn]] void tab_error(uint32_t line_begin) const {
        throw SyntaxError(span(line_begin, pos_ + 1), "inconsistent use of tabs and spaces in indentation");
    }

    // Measures the indentation of the next non-blank line and emits
    // INDENT/DEDENT tokens. Returns false at end of input.
    bool handle_indentation() {
        while (true) {
            int width = 0, alt = 0;
            uint32_t line_begin = pos_;
            while (pos_ < src_.size()) {
                char c = src_[pos_];
                if (c == ' ') ++width, ++alt;
                else if (c == '\t') width = (width / 8 + 1) * 8, ++alt;
                else if (c == '\f') width = alt = 0;
                else break;
                ++pos_;
            }
            if (pos_ >= src_.size()) return false;
            char c = src_[pos_];
            if (c == '#') { skip_comment(); }
            if (pos_ < src_.size() && (src_[pos_] == '\n' || src_[pos_] == '\r')) {
                pos_ += (src_[pos_] == '\r' && peek(1) == '\n') ? 2 : 1;
                continue;  // blank or comment-only line: no tokens, no indentation change
            }
            if (pos_ >= src_.size()) return false;
            at_line_start_ = false;
            if (width == indents_.back()) {
                if (alt != alt_indents_.back()) tab_error(line_begin);
            } else if (width > indents_.back()) {
                if (alt <= alt_indents_.back()) tab_error(line_begin);
                indents_.push_back(width);
                alt_indents_.push_back(alt);
                emit(T::Indent, line_begin, pos_);
            } else {
                while (width < indents_.back()) {
                    indents_.pop_back();
                    alt_indents_.pop_back();
                    emit(T::Dedent, pos_, pos_);
                }
                if (width != indents_.back())
                    throw SyntaxError(span(line_begin, pos_ + 1), "unindent does not match any outer indentation level");
                if (alt != alt_indents_.back()) tab_error(line_begin);
            }
            return true;
        }
    }

    // `kernel NAME(PARAMS):` at the start of a line, then the CUDA C++ body:
    // every following line indented deeper than the header (and the blank
    // lines among them), taken verbatim. One KernelBlock token and a
    // NEWLINE; false (nothing consumed) when the line is not such a header
    // (`kernel` stays an ordinary name).
    bool lex_kernel_block() {
        const uint32_t start = pos_;
        if (src_.compare(pos_, 6, "kernel") != 0) return false;
        uint32_t p = pos_ + 6;
        if (p >= src_.size() || (src_[p] != ' ' && src_[p] != '\t')) return false;
        while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t')) ++p;
        if (p >= src_.size() || !ident_start(uint8_t(src_[p]))) return false;
        const uint32_t name_begin = p;
        while (p < src_.size() && ident_char(uint8_t(src_[p]))) ++p;
        const std::string name(src_.substr(name_begin, p - name_begin));
        while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t')) ++p;
        if (p >= src_.size() || src_[p] != '(' || is_keyword(name)) return false;
        // The parameters: up to the matching `)`, possibly over several lines.
        const uint32_t open = p, params_begin = p + 1;
        int depth = 0;
        for (; p < src_.size(); ++p) {
            if (src_[p] == '(') ++depth;
            else if (src_[p] == ')' && --depth == 0) break;
        }
        if (p >= src_.size()) throw SyntaxError(span(open, open + 1), "`(` was never closed; expected `)`", true);
        const uint32_t params_end = p++;
        while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t')) ++p;
        if (p >= src_.size() || src_[p] != ':')
            throw SyntaxError(span(p < src_.size() ? p : params_end, (p < src_.size() ? p : params_end) + 1),
                              "expected `:` after the kernel's parameters", p >= src_.size());
        ++p;
        while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t')) ++p;
        if (p < src_.size() && src_[p] == '#')
            while (p < src_.size() && src_[p] != '\n') ++p;
        if (p < src_.size() && src_[p] == '\r') ++p;
        if (p < src_.size() && src_[p] != '\n')
            throw SyntaxError(span(p, p + 1), "the kernel's CUDA body goes on the indented lines below its header");
        const uint32_t header_end = p;
        if (p < src_.size()) ++p;
        // The body: lines indented deeper than the header.
        const int header_indent = indents_.back();
        const uint32_t body_begin = p;
        uint32_t body_end = p;
        bool any = false;
        while (p < src_.size()) {
            uint32_t q = p;
            int width = 0;
            while (q < src_.size() && (src_[q] == ' ' || src_[q] == '\t')) width = src_[q++] == '\t' ? (width / 8 + 1) * 8 : width + 1;
            const bool blank = q >= src_.size() || src_[q] == '\n' || src_[q] == '\r';
            if (!blank && width <= header_indent) break;
            while (q < src_.size() && src_[q] != '\n') ++q;
            if (q < src_.size()) ++q;
            if (!blank) {
                any = true;
                body_end = q;
            }
            p = q;
        }
        if (!any)
            throw SyntaxError(span(start, header_end), "expected the kernel's CUDA body on indented lines after `kernel " + name + "(...):`",
                              p >= src_.size());
        Token& t = emit(T::KernelBlock, start, header_end);
        t.text = name;
        t.kernel_params = std::string(src_.substr(params_begin, params_end - params_begin));
        t.kernel_params_offset = params_begin;
        t.kernel_body = std::string(src_.substr(body_begin, body_end - body_begin));
        t.kernel_body_offset = body_begin;
        emit(T::Newline, header_end, header_end);
        pos_ = body_end;
        at_line_start_ = true;
        return true;
    }

    void finish() {
        if (expr_mode_) {
            if (brackets_.size() > 1) {
                Open o = brackets_.back();
                throw SyntaxError(span(o.at, o.at + 1), std::string("f-string: `") + o.ch + "` was never closed");
            }
            brackets_.clear();
            uint32_t end = uint32_t(src_.size());
            emit(T::End, end, end);
            return;
        }
        if (!brackets_.empty()) {
            Open o = brackets_.back();
            char close = o.ch == '(' ? ')' : o.ch == '[' ? ']' : '}';
            throw SyntaxError(span(o.at, o.at + 1),
                              std::string("`") + o.ch + "` was never closed; expected `" + close + "`", true);
        }
        uint32_t end = uint32_t(src_.size());
        if (!tokens_.empty() && tokens_.back().kind != T::Newline && tokens_.back().kind != T::Dedent &&
            tokens_.back().kind != T::Indent)
            emit(T::Newline, end, end);
        while (indents_.size() > 1) { indents_.pop_back(); emit(T::Dedent, end, end); }
        emit(T::End, end, end);
    }

    static bool ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
    static bool ident_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

    void lex_token() {
        uint32_t start = pos_;
        unsigned char c = uint8_t(src_[pos_]);
        if (ident_start(c)) {
            // String prefixes: r, b, f, u and their two-letter combinations.
            size_t k = 0;
            while (k < 2 && std::strchr("rRbBfFuU", peek(k)) && peek(k) != '\0') ++k;
            for (size_t n = k; n >= 1; --n) {
                char q = peek(n);
                if ((q == '\'' || q == '"') && valid_prefix(src_.substr(pos_, n))) {
                    lex_string(src_.substr(pos_, n));
                    return;
                }
            }
            while (pos_ < src_.size() && ident_char(uint8_t(src_[pos_]))) ++pos_;
            std::string_view word = src_.substr(start, pos_ - start);
            auto it = keyword_map().find(word);
            if (it != keyword_map().end()) { emit(it->second, start, pos_); return; }
            emit(T::Name, start, pos_).text = std::string(word);
            return;
        }
        if (std::isdigit(c) || (c == '.' && std::isdigit(uint8_t(peek(1))))) { lex_number(); return; }
        if (c == '\'' || c == '"') { lex_string({}); return; }
        for (const PunctEntry& p : kPuncts) {
            if (uint8_t(p.text[0]) != c) continue;  // (most entries differ at once: no length or compare)
            size_t n = std::strlen(p.text);
            if (src_.compare(pos_, n, p.text) == 0) {
                pos_ += uint32_t(n);
                track_bracket(p.kind, start);
                emit(p.kind, start, pos_);
                return;
            }
        }
        if (c == '!' ) throw SyntaxError(span(start, start + 1), "invalid syntax: `!` is not an operator (did you mean `not` or `!=`?)");
        if (c == '$' || c == '?' || c == '`')
            throw SyntaxError(span(start, start + 1), std::string("invalid character `") + char(c) + "`");
        throw SyntaxError(span(start, start + 1), "invalid character in source");
    }

    static bool valid_prefix(std::string_view p) {
        std::string s;
        for (char ch : p) s += char(std::tolower(uint8_t(ch)));
        return s == "r" || s == "b" || s == "f" || s == "u" || s == "rb" || s == "br" || s == "fr" || s == "rf";
    }

    void track_bracket(T k, uint32_t at) {
        char ch = 0;
        switch (k) {
            case T::LParen: case T::LBracket: case T::LBrace:
                if (brackets_.size() >= 200)
                    throw SyntaxError(span(at, at + 1), "too many nested parentheses");
                brackets_.push_back({src_[at], at});
                return;
            case T::RParen: ch = '('; break;
            case T::RBracket: ch = '['; break;
            case T::RBrace: ch = '{'; break;
            default: return;
        }
        if (brackets_.empty() || (expr_mode_ && brackets_.size() == 1))
            throw SyntaxError(span(at, at + 1), std::string("unmatched `") + src_[at] + "`");
        Open o = brackets_.back();
        if (o.ch != ch) {
            SyntaxError e(span(at, at + 1), std::string("closing `") + src_[at] + "` does not match opening `" + o.ch + "`");
            e.notes.push_back({span(o.at, o.at + 1), std::string("`") + o.ch + "` opened here"});
            throw e;
        }
        brackets_.pop_back();
    }

    void lex_number() {
        uint32_t start = pos_;
        auto digits = [&](auto pred) {
            std::string out;
            bool last_us = true;  // a leading '_' is not allowed
            while (pos_ < src_.size() && (pred(uint8_t(src_[pos_])) || src_[pos_] == '_')) {
                if (src_[pos_] == '_') {
                    if (last_us) throw SyntaxError(span(pos_, pos_ + 1), "invalid decimal literal");
                    last_us = true;
                } else { out += src_[pos_]; last_us = false; }
                ++pos_;
            }
            if (!out.empty() && last_us) throw SyntaxError(span(pos_ - 1, pos_), "invalid decimal literal");
            return out;
        };
        if (peek() == '0' && std::strchr("xXoObB", peek(1)) && peek(1)) {
            char base_ch = char(std::tolower(uint8_t(peek(1))));
            int base = base_ch == 'x' ? 16 : base_ch == 'o' ? 8 : 2;
            pos_ += 2;
            if (peek() == '_') ++pos_;
            std::string ds = digits([&](unsigned char ch) { return base == 16 ? std::isxdigit(ch) != 0 : (ch >= '0' && ch < '0' + base); });
            if (ds.empty() || ident_char(uint8_t(peek())))
                throw SyntaxError(span(start, pos_ + 1), std::string("invalid ") + (base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary") + " literal");
            uint64_t v = 0;
            for (char d : ds) {
                int dv = std::isdigit(uint8_t(d)) ? d - '0' : std::tolower(uint8_t(d)) - 'a' + 10;
                if (v > (uint64_t(INT64_MAX) - dv) / base)
                    throw SyntaxError(span(start, pos_), "integer literal is too large for a 64-bit int");
                v = v * base + dv;
            }
            emit(T::Int, start, pos_).ival = int64_t(v);
            return;
        }
        std::string text = digits([](unsigned char ch) { return std::isdigit(ch) != 0; });
        bool is_float = false;
        if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
            is_float = true;
            ++pos_;
            text += '.';
            if (std::isdigit(uint8_t(peek()))) text += digits([](unsigned char ch) { return std::isdigit(ch) != 0; });
        }
        if ((peek() == 'e' || peek() == 'E') &&
            (std::isdigit(uint8_t(peek(1))) || ((peek(1) == '+' || peek(1) == '-') && std::isdigit(uint8_t(peek(2)))))) {
            is_float = true;
            text += 'e';
            ++pos_;
            if (peek() == '+' || peek() == '-') text += src_[pos_++];
            text += digits([](unsigned char ch) { return std::isdigit(ch) != 0; });
        }
        if (peek() == 'j' || peek() == 'J') {
            ++pos_;
            emit(T::Imag, start, pos_).fval = std::strtod(text.c_str(), nullptr);
            return;
        }
        if (ident_char(uint8_t(peek())))
            throw SyntaxError(span(start, pos_ + 1), "invalid decimal literal");
        if (is_float) {
            emit(T::Float, start, pos_).fval = std::strtod(text.c_str(), nullptr);
            return;
        }
        if (text.size() > 1 && text[0] == '0' && text.find_first_not_of('0') != std::string::npos)
            throw SyntaxError(span(start, pos_), "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
        uint64_t v = 0;
        for (char d : text) {
            if (v > (uint64_t(INT64_MAX) - (d - '0')) / 10)
                throw SyntaxError(span(start, pos_), "integer literal is too large for a 64-bit int");
            v = v * 10 + uint64_t(d - '0');
        }
        emit(T::Int, start, pos_).ival = int64_t(v);
    }

    void lex_string(std::string_view prefix) {
        uint32_t start = pos_;
        bool raw = false, fstr = false, bytes = false;
        for (char ch : prefix) {
            char l = char(std::tolower(uint8_t(ch)));
            raw |= l == 'r';
            fstr |= l == 'f';
            bytes |= l == 'b';
        }
        pos_ += uint32_t(prefix.size());
        char q = src_[pos_];
        bool triple = peek(1) == q && peek(2) == q;
        pos_ += triple ? 3 : 1;
        uint32_t body_begin = pos_;
        while (true) {
            if (pos_ >= src_.size()) {
                if (triple) throw SyntaxError(span(start, start + 3), "unterminated triple-quoted string literal", true);
                throw SyntaxError(span(start, pos_), "unterminated string literal");
            }
            char c = src_[pos_];
            if (c == '\\') { pos_ += 2; continue; }
            if (!triple && (c == '\n' || c == '\r')) throw SyntaxError(span(start, pos_), "unterminated string literal");
            if (c == q && (!triple || (peek(1) == q && peek(2) == q))) break;
            ++pos_;
        }
        uint32_t body_end = pos_;
        pos_ += triple ? 3 : 1;
        Token& t = emit(T::String, start, pos_);
        t.fstring = fstr;
        t.bytes = bytes;
        t.raw = raw;
        t.body_offset = body_begin;
        std::string_view body = src_.substr(body_begin, body_end - body_begin);
        if (fstr) t.text = std::string(body);  // the parser splits and decodes it
        else t.text = raw ? std::string(body) : decode_escapes(body, body_begin);
    }

public:
    // Decodes backslash escapes of a (non-raw) string body.
    std::string decode_escapes(std::string_view body, uint32_t offset) const {
        std::string out;
        for (size_t i = 0; i < body.size(); ++i) {
            char c = body[i];
            if (c != '\\' || i + 1 >= body.size()) { out += c; continue; }
            char e = body[++i];
            switch (e) {
                case '\n': break;  // line continuation inside the string
                case '\\': out += '\\'; break;
                case '\'': out += '\''; break;
                case '"': out += '"'; break;
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'a': out += '\a'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'v': out += '\v'; break;
                case 'x': case 'u': case 'U': {
                    size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                    uint32_t cp = 0;
                    for (size_t k = 0; k < n; ++k) {
                        if (i + 1 + k >= body.size() || !std::isxdigit(uint8_t(body[i + 1 + k])))
                            throw SyntaxError(span(offset + uint32_t(i) - 1, offset + uint32_t(i + 1 + k)),
                                              std::string("truncated \\") + e + " escape");
                        char d = body[i + 1 + k];
                        cp = cp * 16 + uint32_t(std::isdigit(uint8_t(d)) ? d - '0' : std::tolower(uint8_t(d)) - 'a' + 10);
                    }
                    i += n;
                    if (cp > 0x10FFFF) throw SyntaxError(span(offset + uint32_t(i - n) - 1, offset + uint32_t(i + 1)), "illegal Unicode character");
                    append_utf8(out, cp);
                    break;
                }
                default:
                    if (e >= '0' && e <= '7') {
                        uint32_t cp = uint32_t(e - '0');
                        for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
                            cp = cp * 8 + uint32_t(body[++i] - '0');
                        append_utf8(out, cp);
                    } else {
                        out += '\\';  // unknown escapes are kept verbatim, as Python does
                        out += e;
                    }
            }
        }
        return out;
    }
};

}  // namespace

std::vector<Token> tokenize(const SourceFile& file) { return Lexer(file).run(); }

std::vector<Token> tokenize_range(const SourceFile& file, uint32_t begin, uint32_t end) {
    return Lexer(file, begin, end).run();
}

std::string decode_string_escapes(const SourceFile& file, std::string_view body, uint32_t offset) {
    return Lexer(file).decode_escapes(body, offset);
}

}  // namespace gpy
