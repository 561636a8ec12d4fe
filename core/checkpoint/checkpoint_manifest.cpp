#include "core/checkpoint/checkpoint_manifest.h"

#include "core/files/tab_fields.h"

#include <charconv>

namespace toold::core {

namespace {

constexpr std::string_view kMagic = "toold checkpoint 1";

template <typename Number> bool parseNumber(std::string_view text, Number& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

std::vector<FileRecord> recordsOf(const WorkspaceState& state) {
  std::vector<FileRecord> records;
  records.reserve(state.size());
  for (const auto& [path, record] : state) records.push_back(record);
  return records;
}

// Reads lines off the front of a manifest.
struct Lines {
  std::string_view text;
  bool next(std::string_view& line) {
    const std::size_t newline = text.find('\n');
    if (newline == std::string_view::npos) return false;
    line = text.substr(0, newline);
    text.remove_prefix(newline + 1);
    return true;
  }
  // `count` record lines, as one text for decodeRecords.
  std::optional<std::string_view> take(std::size_t count) {
    std::size_t end = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t newline = text.find('\n', end);
      if (newline == std::string_view::npos) return std::nullopt;
      end = newline + 1;
    }
    const std::string_view taken = text.substr(0, end);
    text.remove_prefix(end);
    return taken;
  }
};

std::optional<WorkspaceState> stateOf(Lines& lines, std::string_view name) {
  std::string_view line;
  std::size_t count = 0;
  if (!lines.next(line) || !line.starts_with(name) || line.size() <= name.size() || line[name.size()] != '\t' ||
      !parseNumber(line.substr(name.size() + 1), count))
    return std::nullopt;
  const auto text = lines.take(count);
  if (!text) return std::nullopt;
  auto records = decodeRecords(*text);
  if (!records || records->size() != count) return std::nullopt;
  WorkspaceState state;
  for (auto& record : *records) {
    std::string path = record.path;
    state.emplace(std::move(path), std::move(record));
  }
  return state;
}

} // namespace

const char* checkpointKindName(CheckpointKind kind) {
  switch (kind) {
  case CheckpointKind::Call: return "call";
  case CheckpointKind::Restore: return "restore";
  case CheckpointKind::Redo: return "redo";
  }
  return "call";
}

std::vector<std::string> Checkpoint::paths() const {
  std::vector<std::string> all;
  auto b = before.begin(), a = after.begin();
  while (b != before.end() || a != after.end()) {
    if (a == after.end() || (b != before.end() && b->first < a->first)) all.push_back((b++)->first);
    else if (b == before.end() || a->first < b->first) all.push_back((a++)->first);
    else {
      all.push_back(a->first);
      ++a, ++b;
    }
  }
  return all;
}

std::string encodeCheckpoint(const Checkpoint& c) {
  std::string text(kMagic);
  text += '\n';
  auto field = [&text](std::string_view name, std::string_view value) {
    text.append(name).append("\t").append(escapeField(value)).append("\n");
  };
  field("sequence", std::to_string(c.sequence));
  field("kind", checkpointKindName(c.kind));
  field("session", c.sessionID);
  field("message", c.messageID);
  field("call", c.callID);
  field("tool", c.tool);
  field("started", std::to_string(c.startedMs));
  field("finished", std::to_string(c.finishedMs));
  field("concurrent", c.concurrent ? "1" : "0");
  field("of", std::to_string(c.of));
  field("note", c.note);
  for (const auto& path : c.unrestorable) field("unrestorable", path);
  text += "before\t" + std::to_string(c.before.size()) + "\n" + encodeRecords(recordsOf(c.before));
  text += "after\t" + std::to_string(c.after.size()) + "\n" + encodeRecords(recordsOf(c.after));
  text += "end\n"; // a manifest cut short anywhere lacks it
  return text;
}

std::optional<Checkpoint> decodeCheckpoint(std::string_view text) {
  Lines lines{text};
  std::string_view line;
  if (!lines.next(line) || line != kMagic) return std::nullopt;
  Checkpoint c;
  auto field = [&lines](std::string_view name) -> std::optional<std::string> {
    std::string_view entry;
    if (!lines.next(entry) || !entry.starts_with(name) || entry.size() <= name.size() || entry[name.size()] != '\t')
      return std::nullopt;
    return unescapeField(entry.substr(name.size() + 1));
  };
  const auto sequence = field("sequence"), kind = field("kind");
  const auto session = field("session"), message = field("message"), call = field("call"), tool = field("tool");
  const auto started = field("started"), finished = field("finished"), concurrent = field("concurrent");
  const auto of = field("of"), note = field("note");
  for (const auto* value : {&sequence, &kind, &session, &message, &call, &tool, &started, &finished, &concurrent, &of, &note})
    if (!*value) return std::nullopt;
  if (!parseNumber(*sequence, c.sequence) || !parseNumber(*started, c.startedMs) ||
      !parseNumber(*finished, c.finishedMs) || !parseNumber(*of, c.of) || (*concurrent != "0" && *concurrent != "1"))
    return std::nullopt;
  if (*kind == "call") c.kind = CheckpointKind::Call;
  else if (*kind == "restore") c.kind = CheckpointKind::Restore;
  else if (*kind == "redo") c.kind = CheckpointKind::Redo;
  else return std::nullopt;
  c.sessionID = *session;
  c.messageID = *message;
  c.callID = *call;
  c.tool = *tool;
  c.concurrent = *concurrent == "1";
  c.note = *note;
  while (lines.text.starts_with("unrestorable\t")) {
    auto path = field("unrestorable");
    if (!path) return std::nullopt;
    c.unrestorable.push_back(std::move(*path));
  }
  auto before = stateOf(lines, "before");
  if (!before) return std::nullopt;
  auto after = stateOf(lines, "after");
  if (!after || lines.text != "end\n") return std::nullopt;
  c.before = std::move(*before);
  c.after = std::move(*after);
  return c;
}

} // namespace toold::core
