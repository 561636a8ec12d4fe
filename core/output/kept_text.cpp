#include "core/output/kept_text.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace toold::core {

namespace {

bool continuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

/// The length of the character whose lead byte is `c` (1 for a byte that leads none).
std::size_t characterLength(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
}

} // namespace

KeptPart keptPart(std::uint64_t totalBytes, std::uint64_t maxBytes) {
  if (totalBytes <= maxBytes) return KeptPart{totalBytes, totalBytes, 0};
  const std::uint64_t head = maxBytes - maxBytes / 2;
  return KeptPart{totalBytes, head, maxBytes / 2};
}

KeptPart onCharacterBoundaries(const KeptPart& part, std::string_view headEnd, std::string_view tailStart) {
  if (part.whole()) return part;
  KeptPart moved = part;
  // The head's last character: dropped when it does not end within the head.
  std::size_t lead = headEnd.size();
  while (lead > 0 && headEnd.size() - lead < 3 && continuationByte(headEnd[lead - 1])) --lead;
  if (lead > 0) {
    const std::size_t inHead = headEnd.size() - (lead - 1);
    const std::size_t length = characterLength(headEnd[lead - 1]);
    if (length > inHead && length <= 4 && inHead <= moved.headBytes) moved.headBytes -= inHead;
  }
  // The tail's first bytes: continuations of a character that began before it.
  std::size_t skip = 0;
  while (skip < tailStart.size() && skip < 3 && continuationByte(tailStart[skip])) ++skip;
  moved.tailBytes -= std::min<std::uint64_t>(skip, moved.tailBytes);
  return moved;
}

std::string byteSize(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024.0;
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  return text;
}

std::string leftOutLine(const KeptPart& part) {
  const std::uint64_t leftOut = part.totalBytes - part.headBytes - part.tailBytes;
  return "\n\n... " + std::to_string(leftOut) + " bytes left out here: this file keeps the first " +
         std::to_string(part.headBytes) + " and the last " + std::to_string(part.tailBytes) + " bytes of " +
         std::to_string(part.totalBytes) + " ...\n\n";
}

std::string keptNote(const KeptPart& part, const std::filesystem::path& path) {
  return "kept the first " + byteSize(part.headBytes) + " and the last " + byteSize(part.tailBytes) + " of " +
         byteSize(part.totalBytes) + " (" + std::to_string(part.totalBytes) + " bytes) in " + path.string();
}

std::string savedWhere(const RetainedText& retained) {
  if (retained.part.whole()) return "full content saved to " + retained.path.string();
  return "only part of it kept: " + keptNote(retained.part, retained.path);
}

} // namespace toold::core
