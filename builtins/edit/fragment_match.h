// The edit matcher's Fragment step: an oldString that begins or ends mid-line, found with the
// whitespace in and around it as the model remembered it rather than as the file has it.
// Private to builtins/edit.
#pragma once

#include "builtins/edit/file_index.h"

#include <string_view>
#include <vector>

namespace toold::builtins::edit {

/// Every span of the file equal to `find` once whitespace inside lines is compared loosely: a run
/// between two word characters (letters, digits, '_', any non-ASCII byte) must be there on both
/// sides (any length, tabs alike), any other run may be there or not (`f(a,b)` is `f( a, b )`).
/// Line breaks must be where the find has them, with the same indentation after them (trailing
/// whitespace before them is ignored). Spans start and end at the text they matched, never at
/// whitespace, and never cut a word of the file. Nothing when the find has no word character
/// (punctuation alone says nothing about where it is).
std::vector<Match> fragmentMatches(const FileIndex& file, std::string_view find);

} // namespace toold::builtins::edit
