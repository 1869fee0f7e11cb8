// Token kinds produced by the lexer.
#pragma once

#include <cstdint>
#include <string>

#include "lang/source.h"

namespace gpy {

#define GPY_KEYWORDS(X) \
    X(False, "False") X(None, "None") X(True, "True") X(And, "and") X(As, "as") X(Assert, "assert") \
    X(Async, "async") X(Await, "await") X(Break, "break") X(Class, "class") X(Continue, "continue") \
    X(Def, "def") X(Del, "del") X(Elif, "elif") X(Else, "else") X(Except, "except") X(Finally, "finally") \
    X(For, "for") X(From, "from") X(Global, "global") X(If, "if") X(Import, "import") X(In, "in") \
    X(Is, "is") X(Lambda, "lambda") X(Nonlocal, "nonlocal") X(Not, "not") X(Or, "or") X(Pass, "pass") \
    X(Raise, "raise") X(Return, "return") X(Try, "try") X(While, "while") X(With, "with") X(Yield, "yield")

#define GPY_PUNCT(X) \
    X(LParen, "(") X(RParen, ")") X(LBracket, "[") X(RBracket, "]") X(LBrace, "{") X(RBrace, "}") \
    X(Comma, ",") X(Colon, ":") X(Dot, ".") X(Semi, ";") X(Arrow, "->") X(Ellipsis, "...") X(Walrus, ":=") \
    X(Plus, "+") X(Minus, "-") X(Star, "*") X(Slash, "/") X(DSlash, "//") X(Percent, "%") X(DStar, "**") \
    X(At, "@") X(Amp, "&") X(Pipe, "|") X(Caret, "^") X(Tilde, "~") X(LShift, "<<") X(RShift, ">>") \
    X(Lt, "<") X(Gt, ">") X(Le, "<=") X(Ge, ">=") X(EqEq, "==") X(NotEq, "!=") X(Assign, "=") \
    X(PlusEq, "+=") X(MinusEq, "-=") X(StarEq, "*=") X(SlashEq, "/=") X(DSlashEq, "//=") X(PercentEq, "%=") \
    X(DStarEq, "**=") X(AtEq, "@=") X(AmpEq, "&=") X(PipeEq, "|=") X(CaretEq, "^=") X(LShiftEq, "<<=") \
    X(RShiftEq, ">>=")

enum class T : uint8_t {
    End, Newline, Indent, Dedent, Name, Int, Float, Imag, String,
    KernelBlock,  // `kernel NAME(params):` and its indented CUDA body (docs/kernels.md)
#define X(name, text) name,
    GPY_KEYWORDS(X) GPY_PUNCT(X)
#undef X
};

const char* token_text(T t);  // "(" for LParen, "if" for If, "identifier" for Name...

struct Token {
    T kind = T::End;
    Span span;
    // Name: identifier. String: decoded value (for f-strings: the raw body).
    std::string text;
    int64_t ival = 0;     // Int
    double fval = 0;      // Float / Imag
    bool fstring = false; // String with an f prefix
    bool bytes = false;   // b"..." (kept as str for now)
    uint32_t body_offset = 0;  // f-string: byte offset of the body in the file
    bool raw = false;
    // KernelBlock: `text` is the kernel's name; its parameter list and body
    // as written, and where each starts in the file.
    std::string kernel_params, kernel_body;
    uint32_t kernel_params_offset = 0, kernel_body_offset = 0;
};

}  // namespace gpy
