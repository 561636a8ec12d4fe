#include "core/lsp/lsp_diagnostic.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace toold::core {

namespace {

constexpr std::size_t kMaxMessageBytes = 2000;

int intOr(const nlohmann::json& value, const char* key, int fallback) {
  const auto found = value.find(key);
  if (found == value.end() || !found->is_number_integer()) return fallback;
  const auto number = found->get<std::int64_t>();
  return number < 0 ? 0 : static_cast<int>(std::min<std::int64_t>(number, 1 << 30));
}

/// Cuts at a UTF-8 boundary, never inside a sequence.
std::string cut(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text + "…";
}

std::string severityName(int severity) {
  switch (severity) {
  case 2: return "WARN";
  case 3: return "INFO";
  case 4: return "HINT";
  default: return "ERROR";
  }
}

/// The lines of `text`, as views (a last line without "\n" counts).
std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

using Key = std::tuple<int, std::string_view, std::string_view>;
Key keyOf(const LspDiagnostic& d) { return {d.severity, d.code, d.message}; }

/// Where line `line` of the old version is in the new one; nullopt inside a changed region.
std::optional<int> movedLine(int line, const std::vector<LineChange>& changes) {
  int shift = 0;
  for (const LineChange& change : changes) {
    if (line < change.oldStart) break;
    if (line < change.oldStart + change.oldCount) return std::nullopt;
    shift += change.newCount - change.oldCount;
  }
  return line + shift;
}

} // namespace

std::optional<LspDiagnostic> parseLspDiagnostic(const nlohmann::json& value) {
  if (!value.is_object()) return std::nullopt;
  const auto range = value.find("range");
  const auto message = value.find("message");
  if (range == value.end() || !range->is_object() || message == value.end() || !message->is_string())
    return std::nullopt;
  const auto start = range->find("start");
  const auto end = range->find("end");
  if (start == range->end() || !start->is_object()) return std::nullopt;
  LspDiagnostic diagnostic;
  diagnostic.severity = intOr(value, "severity", 1);
  if (diagnostic.severity < 1 || diagnostic.severity > 4) diagnostic.severity = 1;
  diagnostic.line = intOr(*start, "line", 0);
  diagnostic.character = intOr(*start, "character", 0);
  if (end != range->end() && end->is_object()) {
    diagnostic.endLine = intOr(*end, "line", diagnostic.line);
    diagnostic.endCharacter = intOr(*end, "character", diagnostic.character);
  } else {
    diagnostic.endLine = diagnostic.line;
    diagnostic.endCharacter = diagnostic.character;
  }
  diagnostic.message = cut(message->get<std::string>(), kMaxMessageBytes);
  if (const auto source = value.find("source"); source != value.end() && source->is_string())
    diagnostic.source = cut(source->get<std::string>(), 100);
  if (const auto code = value.find("code"); code != value.end()) {
    if (code->is_string()) diagnostic.code = cut(code->get<std::string>(), 100);
    else if (code->is_number_integer()) diagnostic.code = std::to_string(code->get<std::int64_t>());
  }
  return diagnostic;
}

nlohmann::json diagnosticToJson(const LspDiagnostic& diagnostic) {
  static const char* const kNames[] = {"error", "error", "warning", "information", "hint"};
  nlohmann::json out{{"severity", kNames[std::clamp(diagnostic.severity, 1, 4)]},
                     {"line", diagnostic.line + 1},
                     {"column", diagnostic.character + 1},
                     {"endLine", diagnostic.endLine + 1},
                     {"endColumn", diagnostic.endCharacter + 1},
                     {"message", diagnostic.message}};
  if (!diagnostic.source.empty()) out["source"] = diagnostic.source;
  if (!diagnostic.code.empty()) out["code"] = diagnostic.code;
  return out;
}

std::string formatDiagnosticLine(const LspDiagnostic& diagnostic) {
  return severityName(diagnostic.severity) + " [" + std::to_string(diagnostic.line + 1) + ":" +
         std::to_string(diagnostic.character + 1) + "] " + diagnostic.message;
}

std::vector<LineChange> changedLines(std::string_view before, std::string_view after) {
  const auto oldLines = splitLines(before);
  const auto newLines = splitLines(after);
  std::size_t prefix = 0;
  while (prefix < oldLines.size() && prefix < newLines.size() && oldLines[prefix] == newLines[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < oldLines.size() - prefix && suffix < newLines.size() - prefix &&
         oldLines[oldLines.size() - 1 - suffix] == newLines[newLines.size() - 1 - suffix])
    ++suffix;
  const auto oldCount = static_cast<int>(oldLines.size() - prefix - suffix);
  const auto newCount = static_cast<int>(newLines.size() - prefix - suffix);
  if (oldCount == 0 && newCount == 0) return {};
  return {LineChange{static_cast<int>(prefix), oldCount, static_cast<int>(prefix), newCount}};
}

std::vector<bool> causedByChange(const std::vector<LspDiagnostic>& after, const std::vector<LspDiagnostic>& before,
                                 const std::vector<LineChange>& changes) {
  std::vector<bool> caused(after.size(), true);
  std::vector<bool> used(before.size(), false);
  // First pass: the same text on the line the old one moved to.
  for (std::size_t i = 0; i < after.size(); ++i) {
    for (std::size_t j = 0; j < before.size(); ++j) {
      if (used[j] || keyOf(before[j]) != keyOf(after[i])) continue;
      const auto moved = movedLine(before[j].line, changes);
      if (!moved || *moved != after[i].line) continue;
      used[j] = true;
      caused[i] = false;
      break;
    }
  }
  // Second pass: the same text anywhere, the nearest old one first.
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (!caused[i]) continue;
    std::optional<std::size_t> best;
    for (std::size_t j = 0; j < before.size(); ++j) {
      if (used[j] || keyOf(before[j]) != keyOf(after[i])) continue;
      if (!best || std::abs(before[j].line - after[i].line) < std::abs(before[*best].line - after[i].line)) best = j;
    }
    if (best) {
      used[*best] = true;
      caused[i] = false;
    }
  }
  return caused;
}

} // namespace toold::core
