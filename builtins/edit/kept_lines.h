// The replacement for a match that tolerated differences: the lines newString keeps from
// oldString are written as the file has them (its blank lines, indentation, typographic
// characters, letter case, a middle line the model misremembered), the lines it adds or changes
// are the model's, indented the file's way. Private to builtins/edit.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace toold::builtins::edit {

/// How a line of newString that is not kept is indented: given the line, the file line kept just
/// before it (kNoLine when none) and the find line that file line matched.
using IndentNewLine = std::function<std::string(std::string_view line, std::size_t previousFileLine,
                                                std::size_t previousFindLine, std::size_t nextFileLine)>;

/// The lines of newString that keep a find line: pairs (newString line, find line) of a longest
/// common subsequence of their non-blank lines, equal ignoring trailing whitespace. Finds and
/// replacements too large to align (beyond a budget of line pairs) keep only their common first
/// and last lines. The same for every match of one edit, so computed once.
std::vector<std::pair<std::size_t, std::size_t>> keptLines(std::span<const std::string_view> findLines,
                                                          std::string_view newString);

/// `newString` with each non-blank line that keeps a find line (`kept`, from keptLines)
/// replaced by the file line that find line matched
/// (`fileLineOf`, kNoLine for none). Between two kept lines where newString has the blank lines
/// oldString had (as many, nothing else), the file's blank lines there are written, so a blank
/// line the model dropped, added or moved stays as the file has it while one it removes or adds
/// on purpose is removed or added. Lines newString changes one for one between two kept lines (as
/// many non-blank lines as the find has there) are the model's, but count as kept for that
/// spacing, so a blank line dropped beside a changed line stays too. Every line that is not kept
/// goes through `indent`.
std::string keepFileLines(std::span<const std::string_view> findLines, std::string_view newString,
                          std::span<const std::pair<std::size_t, std::size_t>> kept,
                          std::span<const std::string_view> fileLines, std::span<const std::size_t> fileLineOf,
                          const IndentNewLine& indent);

} // namespace toold::builtins::edit
