// How alike two lines are, for the edit matcher's Anchors step, and which lines are too common to
// anchor a block. Private to builtins/edit.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace toold::builtins::edit {

/// Lines longer than this (in code points) are compared by equality only.
constexpr std::size_t kMaxSimilarityLength = 1000;

/// 1 − levenshtein / max(length) over UTF-8 code points (invalid bytes count as one each); 1 for
/// two empty lines; 0 for different lines when either is longer than kMaxSimilarityLength.
/// `budget` is how many edit-distance cells may still be computed (after dropping the common
/// prefix and suffix); a comparison that would need more returns nullopt and leaves it unchanged.
std::optional<double> lineSimilarity(std::string_view a, std::string_view b, std::size_t& budget);

/// Whether a (trimmed) line says nothing about where it is: empty, only punctuation such as `}`
/// or `);`, a lone block keyword such as `end`, `fi`, `else`, `return`, or a closing tag.
bool isTrivialAnchor(std::string_view trimmedLine);

} // namespace toold::builtins::edit
