// The line view of text that the edit matcher's line steps compare: splitting on '\n', trimming,
// and the per-line comparison keys of each normalization level. Private to builtins/edit.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins::edit {

/// Text split on '\n'. When the text ends with '\n' the final empty element is dropped and
/// `endsWithNewline` is set; empty text has no lines.
struct SplitLines {
  std::vector<std::string_view> lines;
  bool endsWithNewline = false;
};

SplitLines splitLines(std::string_view text);

/// Space, tab, CR, FF and VT: what trimming removes and what collapses inside lines.
bool isSpaceChar(char c);
std::string_view trimRight(std::string_view text);
std::string_view trimBoth(std::string_view text);
/// The leading run of spaces and tabs.
std::string_view leadingIndent(std::string_view line);
/// Empty or whitespace only.
bool isBlank(std::string_view line);

/// How much of a line the line steps compare, strictest first. Each level also ignores what the
/// previous ones ignore; blank lines have an empty key at every level.
enum class LineLevel {
  TrailingSpace, ///< the line without trailing whitespace (indentation kept)
  Trimmed,       ///< without leading and trailing whitespace (indentation compared separately)
  InnerSpace,    ///< trimmed, runs of whitespace inside collapsed to one space
  Punctuation,   ///< typographic punctuation folded to ASCII, then as InnerSpace
  Letters,       ///< as Punctuation, ASCII letters in lower case
};
constexpr std::size_t kLineLevels = 5;

std::string lineKey(std::string_view line, LineLevel level);

/// `text` with the escapes \n \t \r \" \' \` \\ \$ decoded (and CRLF made LF), or nullopt when
/// it has none of them.
std::optional<std::string> unescape(std::string_view text);

} // namespace toold::builtins::edit
