// Captures make a recording replayable against a fresh toold: toold's request ids and snapshot
// ids are whatever that toold hands out, so they are captured where they first appear and
// referred to afterwards. Everything else is kept, so the fixture asserts what was seen.
#include "daemon/repl/repl_fixture.h"

#include "daemon/repl/repl_render.h"

#include <cctype>
#include <map>
#include <utility>

namespace toold::repl {
namespace {

class FixtureWriter {
public:
  FixtureWriter(std::string workspace) : workspace_(std::move(workspace)) {}

  std::string send(json message) {
    substituteSent(message);
    return "> " + dumpJson(message) + "\n";
  }

  std::string expect(json message) {
    patternize(message);
    return dumpJson(message);
  }

  /// The capture names made by expect() since the last call.
  std::vector<std::string> takeNewCaptures() { return std::exchange(newCaptures_, {}); }

private:
  /// The workspace's path in a string becomes ${workspace}; the whole string of a captured value
  /// becomes its reference.
  void substituteSent(json& value) {
    if (value.is_string()) {
      const std::string text = value;
      if (auto it = captured_.find(text); it != captured_.end()) {
        value = "${" + it->second + "}";
        return;
      }
      value = withWorkspace(text);
      return;
    }
    if (value.is_object() || value.is_array())
      for (auto& child : value) substituteSent(child);
  }

  std::string withWorkspace(std::string text) const {
    if (workspace_.empty()) return text;
    for (auto pos = text.find(workspace_); pos != std::string::npos; pos = text.find(workspace_, pos + 12))
      text.replace(pos, workspace_.size(), "${workspace}");
    return text;
  }

  std::string capture(const std::string& value, const std::string& prefix) {
    const std::string name = prefix + std::to_string(++counters_[prefix]);
    captured_[value] = name;
    newCaptures_.push_back(name);
    return "$capture:" + name;
  }

  /// Strings in a pattern that start with `$` and a letter would be read as patterns.
  json literal(const json& value) {
    if (value.is_string()) {
      const std::string text = withWorkspace(value);
      if (text.size() > 1 && text[0] == '$' && std::islower(static_cast<unsigned char>(text[1]))) {
        std::string escaped = "$re:^";
        for (char c : text) {
          if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) escaped += '\\';
          escaped += c;
        }
        return escaped + "$";
      }
      return text;
    }
    if (value.is_object() || value.is_array()) {
      json copy = value;
      for (auto& child : copy) child = literal(child);
      return copy;
    }
    return value;
  }

  void patternize(json& message) {
    if (message.is_array()) {
      for (auto& m : message) patternize(m);
      return;
    }
    if (!message.is_object()) return;
    if (message.contains("method")) {
      const std::string method = message["method"].is_string() ? message["method"].get<std::string>() : "";
      if (message.contains("id") && message["id"].is_string()) {
        // toold's own request: its id is captured; its params (ids of asks, metadata) vary.
        const std::string id = message["id"];
        message = {{"jsonrpc", "2.0"}, {"id", capture(id, "ask")}, {"method", method}};
        return;
      }
      if (method == "shell/exited") message["params"] = "$any";
      else message = literal(message);
      if (method == "$/cancelRequest" && message["params"].is_object()) substituteSent(message["params"]);
      return;
    }
    json& result = message["result"];
    if (message.contains("error")) {
      message.erase("result");
      message = literal(message);
      return;
    }
    if (!result.is_object()) {
      message = literal(message);
      return;
    }
    json kept = literal(result);
    if (kept.contains("serverInfo")) kept["serverInfo"] = {{"name", "toold"}};
    if (kept.contains("snapshot") && result["snapshot"].is_string()) kept["snapshot"] = capture(result["snapshot"], "snapshot");
    if (kept.contains("metadata")) kept["metadata"] = "$any";
    if (kept.contains("outputPaths")) kept["outputPaths"] = "$any";
    if (kept.contains("partial")) kept["partial"] = "$any";
    if (kept.contains("notices")) kept["notices"] = "$any";
    if (kept.contains("tools") && kept["tools"].is_array()) // the tools' texts are documentation, not behaviour
      for (auto& tool : kept["tools"])
        if (tool.is_object()) tool = {{"name", tool.value("name", json())}};
    message["result"] = std::move(kept);
  }

  std::string workspace_;
  std::map<std::string, std::string> captured_;
  std::map<std::string, int> counters_;
  std::vector<std::string> newCaptures_;
};

} // namespace

std::string writeFixture(const std::vector<RecordedMessage>& transcript, const std::vector<std::string>& tooldArgs,
                         const std::string& workspace, const std::string& config) {
  std::string text = "# Recorded by toold-repl's :record. Say here what this conversation checks.\n";
  std::string args;
  for (const auto& arg : tooldArgs) args += " " + arg;
  if (!args.empty()) text += "%args" + args + "\n";
  // Captured ids make the sends depend on answers, which only a pipe can play.
  text += "%modes pipe\n";
  if (!config.empty()) text += "%file toold.json <<END\n" + config + (config.back() == '\n' ? "" : "\n") + "END\n";
  text += "\n";
  // The REPL sends without waiting, so when toold's messages arrive relative to the sends is
  // timing. The fixture sends everything it can, then expects what arrived meanwhile as one
  // unordered group; a group ends only where a send needs a value captured in it (a reply to
  // toold's question, a call through a new snapshot).
  FixtureWriter writer(workspace);
  std::vector<std::string> sends;
  std::vector<std::string> expectations;
  std::vector<std::string> pendingCaptures;
  const auto flush = [&] {
    for (const auto& send : sends) text += send;
    const std::string marker = expectations.size() > 1 ? "<* " : "< ";
    for (const auto& pattern : expectations) text += marker + pattern + "\n";
    sends.clear();
    expectations.clear();
    pendingCaptures.clear();
  };
  for (const auto& entry : transcript) {
    if (!entry.sent) {
      expectations.push_back(writer.expect(entry.message));
      for (auto& name : writer.takeNewCaptures()) pendingCaptures.push_back(std::move(name));
      continue;
    }
    std::string send = writer.send(entry.message);
    for (const auto& name : pendingCaptures)
      if (send.find("${" + name + "}") != std::string::npos) {
        flush();
        break;
      }
    sends.push_back(std::move(send));
  }
  flush();
  return text;
}

} // namespace toold::repl
