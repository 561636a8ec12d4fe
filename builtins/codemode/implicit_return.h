// A program without `return` gives the value of its last top-level expression, as opencode's Code
// Mode does (models often end a program with the value itself: `({sum, doubled})`). The program is
// the body of an async arrow function, whose value is only what it returns, so the last statement,
// when it is an expression, gets a `return` in front of it. Where it starts is found with the
// engine's own parser (`Reflect.parse`, in a global of its own that programs never see), not by
// scanning text: strings, comments, regular expressions and template literals make that guesswork.
#pragma once

#include <string_view>

namespace toold::codemode {

/// A function expression `(function (text) {…})`, run where `Reflect.parse` exists: the program
/// text with `return ` inserted before its last top-level statement when that is an expression,
/// or null (no change: it ends otherwise, or does not parse, which compiling it will report).
extern const char* const kImplicitReturn;

/// True when the program certainly ends with a top-level `return` statement, which leaves
/// kImplicitReturn nothing to do; false means "ask the parser". Decided from tokens (js_tokens.h)
/// and only in the plain case most programs are in: the last `return` outside every bracket is
/// followed, up to the end, by no line break and no `;` outside brackets but a final one (a
/// line break could end that statement early, by automatic semicolon insertion). Asking
/// `Reflect.parse` took about a tenth of a trivial program's time.
bool endsWithReturnStatement(std::string_view program);

} // namespace toold::codemode
