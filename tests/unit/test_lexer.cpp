// Tests for lang/lexer.{h,cpp}: token kinds, indentation, line joining,
// number and string literals, and the lexer's syntax errors (with the
// `incomplete` flag the REPL relies on).
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lang/lexer.h"

using namespace gpy;

namespace {

// Tokens plus the SourceFile their spans point into.
struct Lexed {
    std::shared_ptr<SourceFile> file;
    std::vector<Token> toks;
    std::vector<T> kinds() const {
        std::vector<T> out;
        for (auto& t : toks) out.push_back(t.kind);
        return out;
    }
    const Token& operator[](size_t k) const { return toks.at(k); }
};

Lexed lex(std::string src) {
    Lexed l;
    l.file = std::make_shared<SourceFile>("<test>", std::move(src));
    l.toks = tokenize(*l.file);
    return l;
}

// The SyntaxError that tokenizing `src` throws (the file is kept alive in
// `keep` so the span can still be asked for its line and column).
struct LexError {
    std::shared_ptr<SourceFile> file;
    SyntaxError err;
};

std::optional<LexError> lex_error(std::string src) {
    auto file = std::make_shared<SourceFile>("<test>", std::move(src));
    try {
        tokenize(*file);
    } catch (const SyntaxError& e) {
        return LexError{file, e};
    }
    return std::nullopt;
}

// Human-readable kind names make a failing CHECK print something useful.
std::string names(const std::vector<T>& ks) {
    std::string s;
    for (T k : ks) {
        if (!s.empty()) s += ' ';
        switch (k) {
            case T::Newline: s += "NEWLINE"; break;
            case T::Indent: s += "INDENT"; break;
            case T::Dedent: s += "DEDENT"; break;
            case T::End: s += "END"; break;
            case T::Name: s += "NAME"; break;
            case T::Int: s += "INT"; break;
            case T::Float: s += "FLOAT"; break;
            case T::Imag: s += "IMAG"; break;
            case T::String: s += "STRING"; break;
            default: s += token_text(k);
        }
    }
    return s;
}

}  // namespace

TEST_CASE("lexer: operators use the longest match") {
    auto l = lex("a **= b ** c * d\n");
    CHECK(names(l.kinds()) == "NAME **= NAME ** NAME * NAME NEWLINE END");

    l = lex("x //= 1 // 2 / 3 <<= << <= < >>= >> >= > -> -= - := : ... . != == = %= @= &= |= ^= ~\n");
    CHECK(names(l.kinds()) ==
          "NAME //= INT // INT / INT <<= << <= < >>= >> >= > -> -= - := : ... . != == = %= @= &= |= ^= ~ NEWLINE END");
    REQUIRE(l.toks.size() > 2);
    CHECK(l[1].kind == T::DSlashEq);
    CHECK(l[1].span.begin == 2);
    CHECK(l[1].span.end == 5);

    // `***` is `**` then `*`; `....` is `...` then `.`.
    CHECK(names(lex("a***b\n").kinds()) == "NAME ** * NAME NEWLINE END");
    CHECK(names(lex("....\n").kinds()) == "... . NEWLINE END");
}

TEST_CASE("lexer: keywords and identifiers") {
    auto l = lex("if not x_1 and True: None\n");
    CHECK(names(l.kinds()) == "if not NAME and True : None NEWLINE END");
    CHECK(l[2].text == "x_1");
    CHECK(is_keyword("lambda"));
    CHECK(is_keyword("nonlocal"));
    CHECK_FALSE(is_keyword("print"));
    CHECK_FALSE(is_keyword("self"));
    // A prefix letter without a quote is an ordinary name.
    l = lex("rb = f + u\n");
    CHECK(names(l.kinds()) == "NAME = NAME + NAME NEWLINE END");
    CHECK(l[0].text == "rb");
}

TEST_CASE("lexer: token spans carry line and column") {
    auto l = lex("x = 1\nfoo(bar)\n");
    // x = 1 NEWLINE foo ( bar ) NEWLINE END
    REQUIRE(l.toks.size() == 10);
    CHECK(l[0].span.line() == 1);
    CHECK(l[0].span.col() == 1);
    CHECK(l[2].span.col() == 5);
    CHECK(l[4].text == "foo");
    CHECK(l[4].span.line() == 2);
    CHECK(l[4].span.col() == 1);
    CHECK(l[6].text == "bar");
    CHECK(l[6].span.line() == 2);
    CHECK(l[6].span.col() == 5);
    CHECK(l[6].span.end - l[6].span.begin == 3);
}

TEST_CASE("lexer: INDENT and DEDENT sequences") {
    auto l = lex("if a:\n    b\n    if c:\n        d\ne\n");
    CHECK(names(l.kinds()) ==
          "if NAME : NEWLINE INDENT NAME NEWLINE if NAME : NEWLINE INDENT NAME NEWLINE DEDENT DEDENT NAME NEWLINE END");

    // Dedents are emitted at end of input, and a NEWLINE is synthesised when
    // the last line has none.
    l = lex("if a:\n  b");
    CHECK(names(l.kinds()) == "if NAME : NEWLINE INDENT NAME NEWLINE DEDENT END");

    // Blank lines and comment-only lines (at any indentation) change nothing.
    l = lex("if a:\n\n    b\n        # deep comment\n\n    c\n");
    CHECK(names(l.kinds()) == "if NAME : NEWLINE INDENT NAME NEWLINE NAME NEWLINE DEDENT END");

    // Dedenting two levels at once to an intermediate level.
    l = lex("a:\n b:\n  c\n d\n");
    CHECK(names(l.kinds()) == "NAME : NEWLINE INDENT NAME : NEWLINE INDENT NAME NEWLINE DEDENT NAME NEWLINE DEDENT END");

    // A tab advances to the next multiple of 8, and a tab then spaces nests
    // deeper under a tab whatever the tab width.
    l = lex("if a:\n\tif b:\n\t    c\n");
    CHECK(names(l.kinds()) == "if NAME : NEWLINE INDENT if NAME : NEWLINE INDENT NAME NEWLINE DEDENT DEDENT END");
    // One tab against eight spaces nests only with a tab width of 8: CPython's
    // TabError (both measures must agree).
    CHECK_THROWS_WITH(lex("if a:\n\tb\n        c\n"), "inconsistent use of tabs and spaces in indentation");
}

TEST_CASE("lexer: implicit line joining inside brackets") {
    auto l = lex("x = (1,\n     2)\ny = [\n  3,\n]\nz = {\n'k':\n 4}\n");
    CHECK(names(l.kinds()) ==
          "NAME = ( INT , INT ) NEWLINE NAME = [ INT , ] NEWLINE NAME = { STRING : INT } NEWLINE END");
    // Comments inside brackets are skipped as well.
    l = lex("f(a,  # first\n  b)\n");
    CHECK(names(l.kinds()) == "NAME ( NAME , NAME ) NEWLINE END");
}

TEST_CASE("lexer: backslash continuation") {
    auto l = lex("x = 1 + \\\n        2\n");
    CHECK(names(l.kinds()) == "NAME = INT + INT NEWLINE END");
    CHECK(l[4].ival == 2);
    CHECK(l[4].span.line() == 2);
    // CRLF after the backslash too.
    l = lex("x = 1 + \\\r\n2\r\n");
    CHECK(names(l.kinds()) == "NAME = INT + INT NEWLINE END");
}

TEST_CASE("lexer: integer literals") {
    auto l = lex("0 7 0xFF 0XfF 0o17 0O7 0b1010 0B1 1_000_000 0x_ff_ff 00 0_0 9223372036854775807 0x7fffffffffffffff\n");
    std::vector<int64_t> want = {0, 7, 255, 255, 15, 7, 10, 1, 1000000, 0xffff, 0, 0, INT64_MAX, INT64_MAX};
    REQUIRE(l.toks.size() == want.size() + 2);
    for (size_t k = 0; k < want.size(); ++k) {
        INFO("token " << k);
        CHECK(l[k].kind == T::Int);
        CHECK(l[k].ival == want[k]);
    }
}

TEST_CASE("lexer: float and imaginary literals") {
    auto l = lex("1.5 1. .25 1e3 1E-2 2.5e+2 1_0.0_1 3j 1.5J 1e0\n");
    REQUIRE(l.toks.size() == 12);
    CHECK(l[0].kind == T::Float);
    CHECK(l[0].fval == 1.5);
    CHECK(l[1].kind == T::Float);
    CHECK(l[1].fval == 1.0);
    CHECK(l[2].kind == T::Float);
    CHECK(l[2].fval == 0.25);
    CHECK(l[3].kind == T::Float);
    CHECK(l[3].fval == 1000.0);
    CHECK(l[4].kind == T::Float);
    CHECK(l[4].fval == Approx(0.01));
    CHECK(l[5].kind == T::Float);
    CHECK(l[5].fval == 250.0);
    CHECK(l[6].kind == T::Float);
    CHECK(l[6].fval == Approx(10.01));
    CHECK(l[7].kind == T::Imag);
    CHECK(l[7].fval == 3.0);
    CHECK(l[8].kind == T::Imag);
    CHECK(l[8].fval == 1.5);
    CHECK(l[9].kind == T::Float);
    CHECK(l[9].fval == 1.0);

    // `1.__add__`-style: `1..` is not a float followed by `..`; `1...` keeps the ellipsis.
    l = lex("x[1...]\n");
    CHECK(names(l.kinds()) == "NAME [ INT ... ] NEWLINE END");
    // `e` not followed by digits ends the number: `1e` is an error, `1 if` is fine.
    l = lex("1 if x else 2\n");
    CHECK(names(l.kinds()) == "INT if NAME else INT NEWLINE END");
}

TEST_CASE("lexer: string literals and escapes") {
    auto l = lex(R"(s = 'a\tb\n' "q\"uote" 'it\'s' '\x41\u00e9\U0001F600' '\101\0' '\q' '\\')" "\n");
    REQUIRE(l.toks.size() == 11);
    CHECK(l[2].kind == T::String);
    CHECK(l[2].text == "a\tb\n");
    CHECK(l[3].text == "q\"uote");
    CHECK(l[4].text == "it's");
    CHECK(l[5].text == "A\xC3\xA9\xF0\x9F\x98\x80");  // UTF-8 of U+00E9 and U+1F600
    CHECK(l[6].text == std::string("A\0", 2));
    CHECK(l[7].text == "\\q");  // unknown escapes are kept verbatim
    CHECK(l[8].text == "\\");
    for (size_t k = 2; k <= 8; ++k) {
        CHECK_FALSE(l[k].fstring);
        CHECK_FALSE(l[k].raw);
    }
}

TEST_CASE("lexer: raw strings keep backslashes") {
    auto l = lex(R"(r'a\nb' R"\d+" rb'\x00' br'\t')" "\n");
    REQUIRE(l.toks.size() == 6);
    CHECK(l[0].text == "a\\nb");
    CHECK(l[0].raw);
    CHECK(l[1].text == "\\d+");
    CHECK(l[1].raw);
    CHECK(l[2].text == "\\x00");
    CHECK(l[2].bytes);
    CHECK(l[3].text == "\\t");
    CHECK(l[3].bytes);
    // A raw string may contain an escaped quote; the backslash stays.
    l = lex(R"(r'\'')" "\n");
    CHECK(l[0].text == "\\'");
}

TEST_CASE("lexer: triple-quoted strings span lines") {
    auto l = lex("s = \"\"\"line1\nline2 'q' \"q\"\n\"\"\"\nt = '''a''b'''\n");
    CHECK(names(l.kinds()) == "NAME = STRING NEWLINE NAME = STRING NEWLINE END");
    CHECK(l[2].text == "line1\nline2 'q' \"q\"\n");
    CHECK(l[2].span.line() == 1);
    CHECK(l[4].span.line() == 4);  // the line after the string's closing quotes
    CHECK(l[6].text == "a''b");
    // A backslash-newline inside a string is a continuation.
    l = lex("'ab\\\ncd'\n");
    CHECK(l[0].text == "abcd");
}

TEST_CASE("lexer: f-strings keep their raw body") {
    auto l = lex(R"(f'x={x!r:>{w}} \n{{y}}' F"{a}" rf'\d{b}' fr'{c}')" "\n");
    REQUIRE(l.toks.size() == 6);
    CHECK(l[0].kind == T::String);
    CHECK(l[0].fstring);
    CHECK_FALSE(l[0].raw);
    CHECK(l[0].text == R"(x={x!r:>{w}} \n{{y}})");  // escapes are not decoded here
    CHECK(l[0].body_offset == 2);                     // after `f'`
    CHECK(l[1].fstring);
    CHECK(l[1].text == "{a}");
    CHECK(l[2].fstring);
    CHECK(l[2].raw);
    CHECK(l[2].text == R"(\d{b})");
    CHECK(l[2].body_offset == l[2].span.begin + 3);
    CHECK(l[3].fstring);
    CHECK(l[3].raw);
}

TEST_CASE("lexer: comments produce no tokens") {
    auto l = lex("# leading comment\nx = 1  # trailing comment\n# another\n");
    CHECK(names(l.kinds()) == "NAME = INT NEWLINE END");
    CHECK(l[0].span.line() == 2);
    // A `#` inside a string is not a comment.
    l = lex("s = '# not a comment'\n");
    CHECK(l[2].text == "# not a comment");
    // Empty input and comment-only input give just END.
    CHECK(names(lex("").kinds()) == "END");
    CHECK(names(lex("# only\n\n   \n").kinds()) == "END");
}

TEST_CASE("lexer error: unterminated single-quoted string is not incomplete") {
    auto e = lex_error("x = 'abc\ny = 2\n");
    REQUIRE(e);
    CHECK(e->err.message == "unterminated string literal");
    CHECK_FALSE(e->err.incomplete);
    CHECK(e->err.span.line() == 1);
    CHECK(e->err.span.col() == 5);

    e = lex_error("x = \"abc");  // at end of input
    REQUIRE(e);
    CHECK(e->err.message == "unterminated string literal");
    CHECK_FALSE(e->err.incomplete);
}

TEST_CASE("lexer error: unterminated triple-quoted string is incomplete") {
    auto e = lex_error("s = '''abc\ndef\n");
    REQUIRE(e);
    CHECK(e->err.message == "unterminated triple-quoted string literal");
    CHECK(e->err.incomplete);
    CHECK(e->err.span.line() == 1);
    CHECK(e->err.span.col() == 5);
}

TEST_CASE("lexer error: unclosed bracket at end of input is incomplete") {
    auto e = lex_error("x = [1, 2,\n     3,\n");
    REQUIRE(e);
    CHECK(e->err.incomplete);
    CHECK(e->err.message.find("`[` was never closed") != std::string::npos);
    CHECK(e->err.message.find("expected `]`") != std::string::npos);
    CHECK(e->err.span.line() == 1);
    CHECK(e->err.span.col() == 5);  // at the bracket itself
    CHECK(e->err.span.end - e->err.span.begin == 1);

    // The innermost open bracket is the one reported.
    e = lex_error("f(a, {\n");
    REQUIRE(e);
    CHECK(e->err.incomplete);
    CHECK(e->err.message.find("`{` was never closed") != std::string::npos);
    CHECK(e->err.span.col() == 6);
}

TEST_CASE("lexer error: backslash at end of input is incomplete") {
    auto e = lex_error("x = 1 + \\\n");
    REQUIRE(e);
    CHECK(e->err.incomplete);
    CHECK(e->err.message.find("line continuation") != std::string::npos);

    // Also when the backslash is the very last character (a REPL buffer
    // without its final newline), as Python's codeop treats it.
    e = lex_error("x = 1 + \\");
    REQUIRE(e);
    CHECK(e->err.incomplete);

    e = lex_error("x = 1 \\ 2\n");
    REQUIRE(e);
    CHECK_FALSE(e->err.incomplete);
    CHECK(e->err.message == "unexpected character after line continuation character");
    CHECK(e->err.span.col() == 7);
}

TEST_CASE("lexer error: mismatched and unmatched brackets") {
    auto e = lex_error("x = (1, 2]\n");
    REQUIRE(e);
    CHECK_FALSE(e->err.incomplete);
    CHECK(e->err.message == "closing `]` does not match opening `(`");
    CHECK(e->err.span.col() == 10);
    REQUIRE(e->err.notes.size() == 1);
    CHECK(e->err.notes[0].span.col() == 5);
    CHECK(e->err.notes[0].message == "`(` opened here");

    e = lex_error("x = 1)\n");
    REQUIRE(e);
    CHECK_FALSE(e->err.incomplete);
    CHECK(e->err.message == "unmatched `)`");
    CHECK(e->err.span.col() == 6);
}

TEST_CASE("lexer error: inconsistent dedent") {
    auto e = lex_error("if a:\n    b\n  c\n");
    REQUIRE(e);
    CHECK_FALSE(e->err.incomplete);
    CHECK(e->err.message == "unindent does not match any outer indentation level");
    CHECK(e->err.span.line() == 3);
}

TEST_CASE("lexer error: bad number literals") {
    auto e = lex_error("x = 012\n");
    REQUIRE(e);
    CHECK(e->err.message.find("leading zeros in decimal integer literals are not permitted") != std::string::npos);
    CHECK(e->err.span.col() == 5);
    CHECK_FALSE(e->err.incomplete);

    e = lex_error("x = 9223372036854775808\n");
    REQUIRE(e);
    CHECK(e->err.message == "integer literal is too large for a 64-bit int");
    CHECK(e->err.span.col() == 5);

    e = lex_error("x = 0x8000000000000000\n");
    REQUIRE(e);
    CHECK(e->err.message == "integer literal is too large for a 64-bit int");

    e = lex_error("x = 1__0\n");
    REQUIRE(e);
    CHECK(e->err.message == "invalid decimal literal");

    e = lex_error("x = 1_\n");
    REQUIRE(e);
    CHECK(e->err.message == "invalid decimal literal");

    e = lex_error("x = 12abc\n");
    REQUIRE(e);
    CHECK(e->err.message == "invalid decimal literal");

    e = lex_error("x = 0b102\n");
    REQUIRE(e);
    CHECK(e->err.message == "invalid binary literal");

    e = lex_error("x = 0o8\n");
    REQUIRE(e);
    CHECK(e->err.message == "invalid octal literal");

    e = lex_error("x = 0xg\n");
    REQUIRE(e);
    CHECK(e->err.message == "invalid hexadecimal literal");
}

TEST_CASE("lexer error: too many nested parentheses") {
    // 200 open brackets are allowed, the 201st is not.
    std::string ok(200, '(');
    ok += std::string(200, ')') + "\n";
    CHECK_NOTHROW(lex(ok));

    std::string deep(201, '(');
    deep += std::string(201, ')') + "\n";
    auto e = lex_error(deep);
    REQUIRE(e);
    CHECK(e->err.message == "too many nested parentheses");
    CHECK_FALSE(e->err.incomplete);
    CHECK(e->err.span.col() == 201);

    // Mixed bracket kinds count together.
    std::string mixed;
    for (int k = 0; k < 300; ++k) mixed += "([{"[k % 3];
    e = lex_error(mixed);
    REQUIRE(e);
    CHECK(e->err.message == "too many nested parentheses");
}

TEST_CASE("lexer error: invalid characters") {
    auto e = lex_error("x = $y\n");
    REQUIRE(e);
    CHECK(e->err.message == "invalid character `$`");
    CHECK(e->err.span.col() == 5);

    e = lex_error("if !x: pass\n");
    REQUIRE(e);
    CHECK(e->err.message.find("`!` is not an operator") != std::string::npos);

    e = lex_error("s = '\\x4'\n");
    REQUIRE(e);
    CHECK(e->err.message == "truncated \\x escape");
}

TEST_CASE("lexer: a kernel block is one token with its parameters and its CUDA body") {
    auto l = lex("kernel saxpy(float a,\n             float* y):  # header\n    int i = threadIdx.x;\n\n    y[i] *= a;  // C++\nx = 1\n");
    CHECK(names(l.kinds()) == "kernel block NEWLINE NAME = INT NEWLINE END");
    const Token& k = l[0];
    CHECK(k.text == "saxpy");
    CHECK(k.kernel_params == "float a,\n             float* y");
    CHECK(l.file->line_col(k.kernel_params_offset) == std::make_pair(1, 14));
    // The body keeps its indentation and inner blank line; it ends at the last indented line.
    CHECK(k.kernel_body == "    int i = threadIdx.x;\n\n    y[i] *= a;  // C++\n");
    CHECK(l.file->line_col(k.kernel_body_offset) == std::make_pair(3, 1));
    // Inside a function: the body is what is indented deeper than the header.
    auto f = lex("def f():\n    kernel k(int* y):\n        y[0] = 1;\n    return k\n");
    CHECK(names(f.kinds()) == "def NAME ( ) : NEWLINE INDENT kernel block NEWLINE return NAME NEWLINE DEDENT END");
    CHECK(f[7].kernel_body == "        y[0] = 1;\n");
    // `kernel` alone stays a name.
    CHECK(names(lex("kernel = kernel(3)\n").kinds()) == "NAME = NAME ( INT ) NEWLINE END");
    // A header without its colon, or without a body.
    auto e = lex_error("kernel k(int* y)\n    y[0] = 1;\n");
    REQUIRE(e);
    CHECK(e->err.message.find("expected `:`") != std::string::npos);
    auto b = lex_error("kernel k(int* y):\nx = 1\n");
    REQUIRE(b);
    CHECK(b->err.message.find("CUDA body") != std::string::npos);
    auto incomplete = lex_error("kernel k(int* y):\n");
    REQUIRE(incomplete);
    CHECK(incomplete->err.incomplete);
}
