// Source lines of a JSON text, by JSON Pointer. nlohmann::json keeps no positions, yet an error in
// a configuration file is only useful when it names the line; so the text is tokenized once more,
// here, to note where each object member (its key) and each array element (its value) starts.
// The same pass notices duplicated keys, which nlohmann's parse silently resolves to the last one.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

/// A key given twice in one object. nlohmann's parse keeps the last value; a reader of the file may
/// well have meant the first, so the configuration refuses both.
struct DuplicateKey {
  nlohmann::json::json_pointer pointer; ///< the key's pointer, e.g. /permission/bash/git *
  std::size_t firstLine = 0;            ///< where the key was given before
  std::size_t line = 0;                 ///< where it is given again
};

/// 1-based line and column of a byte offset of a text; lines end at '\n' only.
struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};

/// The position of `text[offset]`; an offset at or past the end names the position after the last
/// character.
TextPosition textPositionAt(std::string_view text, std::size_t offset);

/// The lines where the members and elements of a JSON text start. Meant for text that nlohmann
/// has already accepted; other text gives whatever could be noted before the first token that
/// makes no sense, and never an exception.
class JsonLineMap {
public:
  explicit JsonLineMap(std::string_view text);

  /// The line of the member's key or the element's value; the whole document ("") is the line of
  /// its first token. nullopt for a pointer that names nothing in the text. A key given twice maps
  /// to its last occurrence, the one nlohmann keeps.
  std::optional<std::size_t> line(const nlohmann::json::json_pointer& pointer) const;

  /// Every key given again in its object, in the order of the repetitions in the text.
  const std::vector<DuplicateKey>& duplicates() const { return duplicates_; }

private:
  /// Notes `line` for `pointer`; a pointer seen before is a repeated key.
  void record(const std::string& pointer, std::size_t line);

  /// Keyed by the pointer's string form ("/a~1b/0"), ordered so a subtree is one range.
  std::map<std::string, std::size_t, std::less<>> lines_;
  std::vector<DuplicateKey> duplicates_;
};

} // namespace toold::core
