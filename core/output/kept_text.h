// What a kept output file holds when the output was larger than one file may be: its head, a line
// saying how many bytes were left out, and its tail (as the answer's own preview does, in the
// large). A model paging through the file sees where the command started and how it ended.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace toold::core {

/// How much of an output its file keeps. `headBytes + tailBytes == totalBytes` when all of it.
struct KeptPart {
  std::uint64_t totalBytes = 0;
  std::uint64_t headBytes = 0;
  std::uint64_t tailBytes = 0;
  bool whole() const { return headBytes + tailBytes >= totalBytes; }
};

/// A kept text's file and how much of the text it holds.
struct RetainedText {
  RetainedText(std::filesystem::path kept = {}, KeptPart keptPart = {}) : path(std::move(kept)), part(keptPart) {}
  std::filesystem::path path;
  KeptPart part; ///< all of it (or left at zero), unless the text was over the file's bound
};

/// The head and tail of a text of `totalBytes` that fit `maxBytes`: half each (the head takes the
/// odd byte), all of it when it fits.
KeptPart keptPart(std::uint64_t totalBytes, std::uint64_t maxBytes);

/// `part` moved to UTF-8 character boundaries of `text` (the head ends before a character it would
/// cut, the tail starts after one): a reader of the file meets no broken character at the cut.
/// `headEnd` is the head's last bytes (up to 4), `tailStart` the tail's first bytes (up to 4).
KeptPart onCharacterBoundaries(const KeptPart& part, std::string_view headEnd, std::string_view tailStart);

/// The line a kept file holds between its head and its tail, with its blank lines around it.
std::string leftOutLine(const KeptPart& part);

/// Where a cut answer says its text is: "full content saved to <path>" when the file holds all of
/// it, else "only part of it kept: " + keptNote.
std::string savedWhere(const RetainedText& retained);

/// "kept the first 128 MiB and the last 128 MiB of 1.0 GiB (1073741824 bytes) in <path>".
std::string keptNote(const KeptPart& part, const std::filesystem::path& path);

/// "1.5 KiB", "12.0 MiB", "999 bytes".
std::string byteSize(std::uint64_t bytes);

} // namespace toold::core
