// Turns source text into tokens, Python-style: INDENT/DEDENT from leading
// whitespace, NEWLINE at logical line ends, implicit joining inside brackets.
#pragma once

#include <vector>

#include "lang/diagnostics.h"
#include "lang/token.h"

namespace gpy {

// Throws SyntaxError (with `incomplete` set when the text ends inside a
// bracket, a triple-quoted string or after a line continuation).
std::vector<Token> tokenize(const SourceFile& file);

// Tokens of file.text[begin, end) as one bracketed expression (f-strings).
std::vector<Token> tokenize_range(const SourceFile& file, uint32_t begin, uint32_t end);
// Decodes backslash escapes; `offset` locates `body` in the file for errors.
std::string decode_string_escapes(const SourceFile& file, std::string_view body, uint32_t offset);

bool is_keyword(std::string_view word);
const std::vector<std::string>& keyword_list();

}  // namespace gpy
