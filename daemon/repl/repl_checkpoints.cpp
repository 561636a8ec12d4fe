#include "daemon/repl/repl_checkpoints.h"

#include <cstdint>
#include <limits>

namespace toold::repl {
namespace {

std::string stringOf(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string idOf(const json& value) { return value.is_number() ? "#" + value.dump() : "#?"; }

/// `modified a.txt`, `renamed old → new`, with a mark when it cannot be restored.
std::string changeText(const json& change) {
  if (!change.is_object()) return "?";
  std::string kind = stringOf(change, "change");
  std::string text = (kind.empty() ? std::string("changed") : kind) + " ";
  if (const std::string from = stringOf(change, "from"); !from.empty()) text += from + " → ";
  text += stringOf(change, "path");
  if (change.value("restorable", true) == false) text += " (not restorable)";
  return text;
}

std::string checkpointLine(const json& checkpoint) {
  if (!checkpoint.is_object()) return "?\n";
  const std::string kind = stringOf(checkpoint, "kind");
  std::string line = idOf(checkpoint.value("id", json()));
  if (kind == "call") {
    line += " " + stringOf(checkpoint, "tool") + " " + stringOf(checkpoint, "callID");
  } else {
    line += " " + kind; // a restore goes back before `of`; a redo undoes the restore `of`
    if (checkpoint.contains("of")) line += (kind == "redo" ? " of " : " to before ") + idOf(checkpoint["of"]);
  }
  if (checkpoint.value("concurrent", false) == true) line += " (concurrent)";
  line += ":";
  const json& changes = checkpoint.value("changes", json::array());
  if (!changes.is_array() || changes.empty()) line += " nothing";
  bool first = true;
  for (const auto& change : changes) {
    line += (first ? " " : " · ") + changeText(change);
    first = false;
  }
  if (const std::string note = stringOf(checkpoint, "note"); !note.empty()) line += " (" + note + ")";
  return line + "\n";
}

std::string listText(const json& result) {
  std::string text;
  const json& checkpoints = result.value("checkpoints", json::array());
  if (checkpoints.is_array())
    for (const auto& checkpoint : checkpoints) text += checkpointLine(checkpoint);
  if (const std::string evicted = stringOf(result, "evicted"); !evicted.empty())
    text += "older checkpoints were " + evicted + "\n";
  if (text.empty()) text = "no checkpoints: the session changed nothing here while checkpoints were on\n";
  return text;
}

std::string diffText(const json& result) {
  std::string text = stringOf(result, "diff");
  if (text.empty()) text = "no differences\n";
  if (text.back() != '\n') text += '\n';
  if (result.value("truncated", false) == true) {
    text += "(the diff was cut";
    if (const std::string path = stringOf(result, "outputPath"); !path.empty()) text += "; all of it is in " + path;
    text += ")\n";
  }
  return text;
}

std::string restoreText(const std::string& method, const json& result) {
  const json& restored = result.value("restored", json::array());
  const std::size_t count = restored.is_array() ? restored.size() : 0;
  std::string text = (method == "checkpoint/redo" ? "put back " : "restored ") + std::to_string(count) +
                     (count == 1 ? " path" : " paths");
  if (result.contains("checkpoint") && result["checkpoint"].is_number() && result["checkpoint"] != 0)
    text += " (checkpoint " + idOf(result["checkpoint"]) + (method == "checkpoint/redo" ? ")" : "; :redo takes it back)");
  text += count == 0 ? "\n" : ":\n";
  if (restored.is_array())
    for (const auto& path : restored) text += "  " + (path.is_string() ? path.get<std::string>() : path.dump()) + "\n";
  return text;
}

} // namespace

CheckpointRequest changesRequest(const std::string& sessionID) {
  return {"checkpoint/list", json{{"sessionID", sessionID}}};
}

CheckpointRequest diffRequest(const std::string& sessionID, const std::optional<std::string>& callID) {
  if (callID) return {"checkpoint/diff", json{{"sessionID", sessionID}, {"callID", *callID}}};
  // Every checkpoint of the session: the widest range there is.
  return {"checkpoint/diff", json{{"sessionID", sessionID},
                                  {"range", {{"from", 0}, {"to", std::numeric_limits<std::uint64_t>::max()}}}}};
}

CheckpointRequest undoRequest(const std::string& sessionID, const std::optional<std::string>& callID) {
  json params{{"sessionID", sessionID}};
  if (callID) params["callID"] = *callID;
  return {"checkpoint/restore", std::move(params)};
}

CheckpointRequest redoRequest(const std::string& sessionID) {
  return {"checkpoint/redo", json{{"sessionID", sessionID}}};
}

std::optional<std::string> checkpointResultText(const std::string& method, const json& result) {
  if (!result.is_object()) return std::nullopt;
  if (method == "checkpoint/list" && result.contains("checkpoints")) return listText(result);
  if (method == "checkpoint/diff" && result.contains("diff")) return diffText(result);
  if ((method == "checkpoint/restore" || method == "checkpoint/redo") && result.contains("restored"))
    return restoreText(method, result);
  return std::nullopt;
}

std::string checkpointConflictText(const json& errorData) {
  if (!errorData.is_object() || !errorData.contains("conflicts") || !errorData["conflicts"].is_array() ||
      errorData["conflicts"].empty())
    return {};
  std::string text = "changed outside the session since, so nothing was restored:\n";
  for (const auto& path : errorData["conflicts"])
    text += "  " + (path.is_string() ? path.get<std::string>() : path.dump()) + "\n";
  return text;
}

} // namespace toold::repl
