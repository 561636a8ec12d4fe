// Text mode follows what a person reads in a terminal: the content first (a tool's text exactly,
// with real newlines, not a JSON-escaped string), then one summary line starting with "──" that
// names the tool, the status, the time taken and the metadata's fields.
#include "daemon/repl/repl_render.h"

#include "daemon/repl/repl_checkpoints.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace toold::repl {
namespace {

constexpr std::size_t kMaxSummaryValue = 60;
constexpr std::size_t kMaxSummaryLine = 200;

std::string shorten(std::string text, std::size_t max) {
  if (text.size() <= max) return text;
  std::size_t cut = max - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut; // a character boundary
  return text.substr(0, cut) + "...";
}

std::string milliseconds(double ms) {
  char buffer[32];
  if (ms < 10) std::snprintf(buffer, sizeof buffer, "%.1f ms", ms);
  else if (ms < 10000) std::snprintf(buffer, sizeof buffer, "%.0f ms", ms);
  else std::snprintf(buffer, sizeof buffer, "%.1f s", ms / 1000);
  return buffer;
}

/// `key=value` pairs of an object on one line, each value cut short.
std::string fields(const json& object) {
  std::string line;
  if (!object.is_object()) return line;
  for (const auto& [key, value] : object.items()) {
    std::string shown = value.is_string() ? value.get<std::string>() : dumpJson(value);
    for (auto& c : shown)
      if (c == '\n') c = ' ';
    line += " · " + key + "=" + shorten(shown, kMaxSummaryValue);
  }
  return line;
}

std::string summary(const SentRequest& sent, const std::string& status, const std::string& extra) {
  std::string label = sent.tool.empty() ? sent.method : sent.tool;
  if (!sent.id.empty()) label += " (id " + sent.id + ")";
  return shorten("── " + label + " · " + status + " · " + milliseconds(sent.elapsedMs) + extra, kMaxSummaryLine) + "\n";
}

std::string withNewline(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

/// A content array as the model sees it: text items verbatim, files as a one-line reference.
std::string contentText(const json& content) {
  std::string text;
  if (content.is_string()) return withNewline(content.get<std::string>());
  if (!content.is_array()) return text;
  for (const auto& item : content) {
    const std::string type = item.is_object() ? item.value("type", std::string()) : std::string();
    if (type == "text" && item.contains("text") && item["text"].is_string()) {
      text += withNewline(item["text"].get<std::string>());
    } else if (item.is_object()) {
      std::string uri = item.value("uri", std::string());
      if (uri.starts_with("data:")) uri = "data:… (" + std::to_string(uri.size()) + " bytes)";
      text += "[" + type + " " + item.value("name", std::string()) + " " + item.value("mime", item.value("mimeType", std::string())) +
              (uri.empty() ? "" : " " + uri) + "]\n";
    }
  }
  return text;
}

std::string renderCallOutcome(const json& outcome, const SentRequest& sent) {
  const std::string status = outcome.value("status", std::string("?"));
  std::string text;
  std::string extra;
  if (status == "error" && outcome.contains("error") && outcome["error"].is_object()) {
    text = withNewline(outcome["error"].value("message", std::string()));
    return text + summary(sent, "error " + outcome["error"].value("type", std::string()), fields(outcome.value("partial", json())));
  }
  text = contentText(outcome.value("content", json()));
  if (outcome.contains("metadata")) extra += fields(outcome["metadata"]);
  if (outcome.contains("outputPaths")) extra += " · saved to " + dumpJson(outcome["outputPaths"]);
  if (outcome.contains("notices"))
    for (const auto& notice : outcome["notices"]) text += "note: " + (notice.is_string() ? notice.get<std::string>() : dumpJson(notice)) + "\n";
  return text + summary(sent, status, extra);
}

std::string renderMcpResult(const json& result, const SentRequest& sent) {
  std::string text = contentText(result.value("content", json()));
  std::string extra;
  if (result.contains("structuredContent")) extra += " · structuredContent=" + shorten(dumpJson(result["structuredContent"]), kMaxSummaryValue);
  const bool isError = result.value("isError", false);
  return text + summary(sent, isError ? "isError" : "ok", extra);
}

std::string renderToolList(const json& result, const SentRequest& sent) {
  std::string text;
  std::size_t count = 0;
  std::size_t width = 0;
  const json tools = result.contains("tools") && result["tools"].is_array() ? result["tools"] : json::array();
  for (const auto& tool : tools)
    if (tool.is_object()) width = std::max(width, tool.value("name", std::string("?")).size());
  for (const auto& tool : tools) {
    if (!tool.is_object()) continue;
    const std::string name = tool.value("name", std::string("?"));
    std::string description = tool.value("description", std::string());
    description = shorten(firstSentence(description), 100);
    text += "  " + name + std::string(width - name.size() + 2, ' ') + description + "\n";
    ++count;
  }
  std::string extra = result.value("toolsUnchanged", false) ? std::string(" · tools unchanged")
                                                           : " · " + std::to_string(count) + " tools";
  if (result.contains("snapshot")) extra += " · snapshot=" + dumpJson(result["snapshot"]);
  if (result.contains("nextCursor")) extra += " · nextCursor=" + dumpJson(result["nextCursor"]);
  return text + summary(sent, "ok", extra);
}

} // namespace

std::string dumpJson(const json& value, int indent) { return value.dump(indent, ' ', false, json::error_handler_t::replace); }

std::string idText(const json& id) { return id.is_string() ? id.get<std::string>() : dumpJson(id); }

bool answerFailed(const json& answer) {
  if (!answer.is_object()) return true;
  if (answer.contains("error")) return true;
  const json& result = answer.value("result", json());
  if (!result.is_object()) return false;
  if (result.value("status", std::string()) == "error" && result.contains("sessionID")) return true;
  return result.value("isError", false) == true;
}

std::string renderAnswer(const json& answer, const SentRequest& sent, OutputMode mode) {
  if (mode == OutputMode::Raw) return dumpJson(answer) + "\n";
  if (mode == OutputMode::Pretty) return dumpJson(answer, 2) + "\n";
  if (answer.contains("error") && answer["error"].is_object()) {
    const json& error = answer["error"];
    std::string text = "error " + dumpJson(error.value("code", json())) + ": " + error.value("message", std::string()) + "\n";
    if (error.contains("data")) text += "  data: " + dumpJson(error["data"]) + "\n";
    if (sent.method.starts_with("checkpoint/")) text += checkpointConflictText(error.value("data", json()));
    return text + summary(sent, "failed", "");
  }
  const json& result = answer.value("result", json());
  if (sent.method == "call" && result.is_object() && result.contains("status")) return renderCallOutcome(result, sent);
  if (sent.method == "tools/call" && result.is_object() && result.contains("content")) return renderMcpResult(result, sent);
  if ((sent.method == "tools/list" || sent.method == "snapshot") && result.is_object()) return renderToolList(result, sent);
  if (auto text = checkpointResultText(sent.method, result)) return *text + summary(sent, "ok", "");
  std::string text = result.is_null() ? std::string() : dumpJson(result, 2) + "\n";
  return text + summary(sent, "ok", "");
}

std::string renderMessage(const json& message, OutputMode mode) {
  if (mode == OutputMode::Raw) return dumpJson(message) + "\n";
  if (mode == OutputMode::Pretty) return dumpJson(message, 2) + "\n";
  if (message.is_object() && message.value("method", std::string()) == "lsp/diagnostics")
    return lspDiagnosticsLine(message.value("params", json::object()));
  if (message.is_object() && message.contains("method")) {
    std::string text = "<-- " + message.value("method", std::string());
    if (message.contains("id")) text += " (toold's request " + dumpJson(message["id"]) + ")";
    if (message.contains("params") && !message["params"].empty()) text += " " + shorten(dumpJson(message["params"]), 400);
    return text + "\n";
  }
  return dumpJson(message, 2) + "\n";
}

std::string firstSentence(const std::string& description) {
  std::size_t begin = description.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  std::string line = description.substr(begin, description.find('\n', begin) - begin);
  for (std::string_view bullet : {"- ", "* ", "• "})
    if (line.starts_with(bullet)) line.erase(0, bullet.size());
  if (const auto stop = line.find(". "); stop != std::string::npos) line.erase(stop + 1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string cutLines(const std::string& text, std::size_t maxLines) {
  if (maxLines == 0) return text;
  std::size_t lines = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const std::size_t next = nl == std::string::npos ? text.size() : nl + 1;
    if (++lines > maxLines) {
      std::size_t rest = 0;
      for (std::size_t i = pos; i < text.size(); ++i) rest += text[i] == '\n';
      if (text.back() != '\n') ++rest;
      // The summary line of an answer is its last line: keep it visible after the note.
      std::string tail;
      if (const auto last = text.rfind("\n── "); last != std::string::npos && last >= pos) {
        tail = text.substr(last + 1);
        --rest;
      }
      return text.substr(0, pos) + "… " + std::to_string(rest) + " more line(s) not shown (:limit 0 shows all)\n" + tail;
    }
    pos = next;
  }
  return text;
}

std::string progressSummary(const json& update) {
  if (update.is_string()) return update.get<std::string>();
  if (update.is_object()) {
    if (const auto message = update.find("message"); message != update.end() && message->is_string())
      return message->get<std::string>();
    if (const auto output = update.find("output"); output != update.end() && output->is_string()) {
      const std::string& text = output->get_ref<const std::string&>();
      std::size_t end = text.find_last_not_of(" \t\r\n");
      if (end != std::string::npos) {
        const std::size_t begin = text.find_last_of('\n', end);
        return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
      }
    }
  }
  return dumpJson(update);
}

std::string lspDiagnosticsLine(const json& params) {
  std::size_t errors = 0;
  std::string first;
  for (const auto& item : params.value("diagnostics", json::array())) {
    if (!item.is_object() || item.value("severity", "") != "error") continue;
    if (errors++ == 0) {
      const std::string message = item.value("message", "");
      // The first line: clangd folds its notes into the message after a blank line.
      first = std::to_string(item.value("line", 0)) + ":" + std::to_string(item.value("column", 0)) + " " +
              message.substr(0, std::min<std::size_t>(message.find('\n'), 120));
    }
  }
  if (errors == 0) return {};
  return "(lsp: " + params.value("path", std::string("?")) + ": " + std::to_string(errors) +
         (errors == 1 ? " error: " : " errors, the first: ") + first + ")\n";
}

} // namespace toold::repl
