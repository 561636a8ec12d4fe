// A JavaScript tokenizer for the program text's own rules (the type blanker, the implicit return's
// shortcut): identifiers, numbers, strings, template literals (their `${…}` bodies inside the one
// token), regular expressions told from division by the token before, and punctuators. It is no
// parser: it never fails, and what it cannot tell it guesses as the rules above say.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace toold::codemode {

enum class JsTokenKind { Ident, Number, String, Template, Regex, Punct };

struct JsToken {
  JsTokenKind kind;
  std::size_t begin;
  std::size_t end;
  std::string_view text; ///< a view of the tokenized text
  bool newlineBefore;    ///< a `\n` (or a comment holding one) between this token and the one before
};

/// Whether a token can end an expression: then a following `/` divides (else it starts a regular
/// expression), `as` is a type assertion and `!` a non-null assertion.
bool endsExpression(const JsToken& t);

/// Linear in the size of `s`; comments and whitespace are skipped.
std::vector<JsToken> tokenizeJs(std::string_view s);

} // namespace toold::codemode
