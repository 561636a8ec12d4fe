// Measuring and cutting a tool's text so what the model sees stays within the line and byte
// limits, cut only on UTF-8 character boundaries so the preview is valid wherever the input is.
#include "core/output/output_bounding.h"

#include "core/base/newline_count.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace toold::core {

namespace {

/// The lines a preview adds around its head and tail: an empty line and the marker line after
/// the head, an empty line before the tail, and one more for a line the byte split cuts in two
/// (its start ends the head, its end starts the tail).
constexpr std::size_t kPreviewOverheadLines = 4;
/// The bytes of the two "\n\n" separators.
constexpr std::size_t kPreviewOverheadBytes = 4;

bool isContinuationByte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0U) == 0x80U;
}

/// The length of the longest prefix of `text` of at most `maxBytes` that ends on a character boundary.
std::size_t utf8PrefixLength(std::string_view text, std::size_t maxBytes) {
  std::size_t end = std::min(maxBytes, text.size());
  while (end > 0 && end < text.size() && isContinuationByte(text[end])) --end;
  return end;
}

/// Where the longest suffix of `text` of at most `maxBytes` that starts on a character boundary begins.
std::size_t utf8SuffixStart(std::string_view text, std::size_t maxBytes) {
  std::size_t start = text.size() - std::min(maxBytes, text.size());
  while (start > 0 && start < text.size() && isContinuationByte(text[start])) ++start;
  return start;
}

/// The first `count` lines of `text`, without the "\n" that ends the last of them.
std::string_view firstLines(std::string_view text, std::size_t count) {
  if (count == 0) return {};
  std::size_t newline = std::string_view::npos;
  for (std::size_t seen = 0; seen < count; ++seen) {
    newline = text.find('\n', newline == std::string_view::npos ? 0 : newline + 1);
    if (newline == std::string_view::npos) return text;
  }
  return text.substr(0, newline);
}

/// The last `count` lines of `text`, which must have more than `count` lines; without the final "\n".
std::string_view lastLines(std::string_view text, std::size_t count) {
  const std::size_t contentEnd = !text.empty() && text.back() == '\n' ? text.size() - 1 : text.size();
  if (count == 0) return text.substr(contentEnd, 0);
  // Each step finds the "\n" before one more line; the text has more lines than `count`, so
  // each search succeeds and starts at a position >= 1.
  std::size_t boundary = contentEnd;
  for (std::size_t seen = 0; seen < count; ++seen) boundary = text.rfind('\n', boundary - 1);
  return text.substr(boundary + 1, contentEnd - boundary - 1);
}

std::string assemblePreview(std::string_view head, std::string_view marker, std::string_view tail) {
  std::string preview;
  preview.reserve(head.size() + marker.size() + tail.size() + kPreviewOverheadBytes);
  preview.append(head).append("\n\n").append(marker);
  if (!tail.empty()) preview.append("\n\n").append(tail);
  return preview;
}

bool isTextItem(const json& item) {
  if (!item.is_object()) return false;
  const auto type = item.find("type");
  return type != item.end() && *type == "text";
}

const std::string& textOf(const json& item) {
  const auto text = item.find("text");
  if (text == item.end() || !text->is_string()) {
    throw std::invalid_argument("a text content item needs a string \"text\"");
  }
  return text->get_ref<const std::string&>();
}

} // namespace

TextMeasure measureText(std::string_view text) {
  if (text.empty()) return {0, 0};
  const auto newlines = static_cast<std::size_t>(countNewlines(text.data(), text.size()));
  return {text.back() == '\n' ? newlines : newlines + 1, text.size()};
}

bool withinLimits(std::string_view text, const BoundingLimits& limits) {
  const TextMeasure measure = measureText(text);
  return measure.lines <= limits.maxLines && measure.bytes <= limits.maxBytes;
}

TextMeasure contentSizeAtMost(const json& content) {
  TextMeasure size{0, 0};
  for (const auto& item : content) {
    if (item.value("type", "") != "text") continue;
    const auto& text = item["text"].get_ref<const std::string&>();
    size.bytes += text.size() + 1;
    size.lines += static_cast<std::size_t>(countNewlines(text.data(), text.size())) + 1;
  }
  return size;
}

std::string boundedPreview(std::string_view text, std::string_view marker, const BoundingLimits& limits) {
  // Limits too small to show any text beside the marker: the marker alone still tells the model
  // that output was cut and where it went, as far as the limits let it.
  if (limits.maxLines <= kPreviewOverheadLines || limits.maxBytes <= marker.size() + kPreviewOverheadBytes) {
    const std::string_view cut = marker.substr(0, utf8PrefixLength(marker, limits.maxBytes));
    return std::string(firstLines(cut, limits.maxLines));
  }
  const std::size_t lineBudget = limits.maxLines - kPreviewOverheadLines;
  const std::size_t byteBudget = limits.maxBytes - marker.size() - kPreviewOverheadBytes;
  // Both ends matter: the start says what ran, the end holds the result or the error.
  const std::size_t headLineCount = (lineBudget + 1) / 2;
  const std::size_t tailLineCount = lineBudget / 2;

  const bool wholeText = measureText(text).lines <= lineBudget;
  std::string_view headLines;
  std::string_view tailLines;
  std::string joinedSample;
  std::string_view sample = text;
  if (!wholeText) {
    headLines = firstLines(text, headLineCount);
    tailLines = lastLines(text, tailLineCount);
    joinedSample.reserve(headLines.size() + 1 + tailLines.size());
    joinedSample.append(headLines);
    if (tailLineCount > 0) joinedSample.append("\n").append(tailLines);
    sample = joinedSample;
  }

  if (sample.size() <= byteBudget) {
    return wholeText ? assemblePreview(sample, marker, {}) : assemblePreview(headLines, marker, tailLines);
  }
  // Few lines but long ones (minified JSON, a base64 blob): cut by bytes, half to each end.
  const std::string_view head = sample.substr(0, utf8PrefixLength(sample, (byteBudget + 1) / 2));
  const std::string_view tail = sample.substr(utf8SuffixStart(sample, byteBudget / 2));
  return assemblePreview(head, marker, tail);
}

BoundedContent boundContent(const json& content, const BoundingLimits& limits,
                            const std::function<RetainedText(std::string_view)>& retain,
                            std::string_view hint) {
  if (!content.is_array()) throw std::invalid_argument("tool content must be a JSON array of items");

  // The limits bound what the model reads in one result, so all text items count together.
  std::string joined;
  bool firstText = true;
  for (const auto& item : content) {
    if (!isTextItem(item)) continue;
    if (!firstText) joined.push_back('\n');
    joined.append(textOf(item));
    firstText = false;
  }
  if (withinLimits(joined, limits)) return BoundedContent{content, false, std::nullopt, {}};

  // Retain before cutting: if the full text cannot be kept, the caller must fail rather than show
  // a preview whose marker names a file that does not exist.
  RetainedText retained = retain(joined);
  // The hint is advice, the text is the point: under limits too small for both, only the marker
  // (which names the file) stays.
  std::string marker = truncationMarker(retained, hint);
  if (marker.size() + 4 > limits.maxBytes / 2) marker = truncationMarker(retained);
  const std::string preview = boundedPreview(joined, marker, limits);

  json bounded = json::array();
  bool previewPlaced = false;
  for (const auto& item : content) {
    if (!isTextItem(item)) {
      bounded.push_back(item);
    } else if (!previewPlaced) {
      bounded.push_back(json{{"type", "text"}, {"text", preview}});
      previewPlaced = true;
    }
  }
  return BoundedContent{std::move(bounded), true, std::move(retained.path), retained.part};
}

std::string truncationMarker(const RetainedText& retained, std::string_view hint) {
  std::string marker = "... output truncated; " + savedWhere(retained) + " ...";
  if (!hint.empty()) marker.append(" ").append(hint);
  return marker;
}

std::string truncationMarker(const std::filesystem::path& path, std::string_view hint) {
  return truncationMarker(RetainedText{path}, hint);
}

std::string_view truncationHint(bool mayDelegate) {
  // opencode's advice (tool/truncate.ts): an agent that may start subagents keeps its own context
  // small by handing the file to one; any other looks at the file in pieces.
  if (mayDelegate)
    return "Use the task tool to have a subagent process the full file with grep and read (with offset/limit); "
           "do not read it whole yourself, delegate to save context.";
  return "Use grep to search the full content or read with offset/limit to view specific sections.";
}

} // namespace toold::core
