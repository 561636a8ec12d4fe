// Bounding what a tool shows the model: measure the text of a tool's content, and when it is
// over the limits replace it by a head, a marker naming the file that keeps the full text, and a
// tail. Pure algorithms: writing the full text is the caller's `retain` callback (OutputStore),
// so every cut can be tested without a disk.
#pragma once

#include "core/output/kept_text.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace toold::core {

using json = nlohmann::json;

/// How much text the model may see of one tool result. Bytes are bytes of UTF-8.
struct BoundingLimits {
  std::size_t maxLines = 2000;
  std::size_t maxBytes = 50 * 1024;
};

struct TextMeasure {
  std::size_t lines;
  std::size_t bytes;
};

/// Lines are split on "\n"; a final "\n" ends the last line rather than starting a new one, and
/// "" has 0 lines.
TextMeasure measureText(std::string_view text);

bool withinLimits(std::string_view text, const BoundingLimits& limits);

/// A cheap upper bound of the size of `content`'s text items joined (each counted with one more
/// byte and line than it has), so that the common small result is never copied or handed to a
/// worker just to be measured.
TextMeasure contentSizeAtMost(const nlohmann::json& content);

/// head + "\n\n" + marker (+ "\n\n" + tail when the tail is non-empty), the whole within limits.
///
/// When the limits cannot hold a marker and any text (maxLines <= 4, or maxBytes <= bytes(marker)
/// + 4), the result is the marker alone, cut to maxBytes on a UTF-8 boundary, then to maxLines.
/// Otherwise, with L = maxLines - 4 and B = maxBytes - bytes(marker) - 4 (room for the two
/// separators and for a line cut in two by the byte split):
///  - the sample is the whole text when it has <= L lines, else its first ceil(L/2) lines + "\n"
///    + its last floor(L/2) lines;
///  - a sample of <= B bytes is shown whole (head = sample when the text had <= L lines, else
///    head = the first lines, tail = the last lines);
///  - a larger sample is split by bytes: head = its longest prefix of <= ceil(B/2) bytes ending on
///    a UTF-8 character boundary, tail = its longest suffix of <= floor(B/2) bytes starting on one.
std::string boundedPreview(std::string_view text, std::string_view marker, const BoundingLimits& limits);

struct BoundedContent {
  json content;
  bool truncated = false;
  /// The file holding the full text; set only when truncated.
  std::optional<std::filesystem::path> outputPath;
  /// How much of the text that file holds (all of it, unless it was over the file's bound).
  KeptPart kept;
};

/// `content` is a JSON array of items, `{"type":"text","text":...}` or file items. The text items
/// are joined with "\n" and measured; other items are never measured. Within the limits the
/// content comes back unchanged. Over them, `retain(joined)` is called exactly once (it stores
/// the full text, or its head and tail, and returns the file's absolute path and what it kept; its
/// exceptions, StorageError among them, propagate), and every text item is replaced by ONE text
/// item holding boundedPreview(joined, truncationMarker(retained)), placed where the first text
/// item was; other items keep their order.
/// Throws std::invalid_argument when `content` is not an array or a text item's "text" is not a
/// string: a malformed item must not slip past the bound unmeasured.
/// `hint`, when not empty, follows the marker on its line (see truncationHint), unless the marker
/// with it would take more than half of maxBytes.
BoundedContent boundContent(const json& content, const BoundingLimits& limits,
                            const std::function<RetainedText(std::string_view)>& retain,
                            std::string_view hint = {});

/// "... output truncated; full content saved to <path> ..." (or "only part of it kept: kept the
/// first … in <path>", see savedWhere) and, when given, " <hint>".
std::string truncationMarker(const RetainedText& retained, std::string_view hint = {});
/// The marker of a file that holds the whole text.
std::string truncationMarker(const std::filesystem::path& path, std::string_view hint = {});

/// What the model is told to do with the saved file: delegate it to a subagent when the agent may
/// (the snapshot advertises `task`), else search it and read it in ranges.
std::string_view truncationHint(bool mayDelegate);

} // namespace toold::core
