// A recording must replay against a fresh toold in a fresh, empty workspace: the files the calls
// named come along, toold's request ids and snapshot ids are captured where they first appear,
// and what differs from run to run (paths of the run's folders, times, progress) is matched
// loosely. Everything else is kept, so the fixture asserts what was seen.
#include "daemon/repl/repl_fixture.h"

#include "daemon/repl/repl_render.h"

#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <string_view>
#include <utility>

namespace toold::repl {
namespace {

// Timestamps (ISO 8601), clock times, durations as toold writes them ("2.5 ms", "4.0 s"), and the
// ids of saved output (time in hex, then random characters: "tool_1a24b027aeb000eK91zUAUZJH9qh").
const std::regex& volatileText() {
  static const std::regex pattern(
      R"((\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)|(\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b)|(\b\d+(?:\.\d+)? ?(?:µs|ms|s|min)\b)|(\b[a-z]+_[0-9a-f]{14}[0-9A-Za-z]{14}\b))");
  return pattern;
}

// Numbers under these keys are times or process ids: "$any".
bool isVolatileKey(std::string_view key) {
  static const std::set<std::string_view> exact{"time",    "timestamp", "created", "updated", "started",
                                                "elapsed", "duration",  "pid",     "ms"};
  return exact.contains(key) || key.ends_with("Ms") || key.ends_with("At") || key.ends_with("Time");
}

bool isProgress(std::string_view method) { return method == "tool/progress" || method == "notifications/progress"; }

std::string regexEscaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

/// The text as an anchored regex: the folders' paths and the volatile parts match anything of
/// their kind, the rest itself.
std::string regexOf(const std::string& text, const std::string& workspace, const std::string& dataDir) {
  std::string out = "^";
  const auto literalPart = [&](const std::string& part) {
    std::size_t done = 0;
    for (auto it = std::sregex_iterator(part.begin(), part.end(), volatileText()); it != std::sregex_iterator(); ++it) {
      const auto& match = *it;
      out += regexEscaped(std::string_view(part).substr(done, static_cast<std::size_t>(match.position()) - done));
      if (match[1].matched) out += R"(\d{4}-\d{2}-\d{2}[T ][\d:.]+(?:Z|[+-][\d:]+)?)";
      else if (match[2].matched) out += R"([\d:.]+)";
      else if (match[3].matched) out += R"([\d.]+ ?(?:µs|ms|s|min))";
      else out += R"([a-z]+_[0-9A-Za-z]{28})";
      done = static_cast<std::size_t>(match.position() + match.length());
    }
    out += regexEscaped(std::string_view(part).substr(done));
  };
  std::size_t pos = 0;
  while (pos < text.size()) {
    // The longer path first: one of the folders may hold the other.
    std::size_t next = std::string::npos;
    std::size_t length = 0;
    for (const std::string* folder : {&workspace, &dataDir}) {
      if (folder->empty()) continue;
      const auto at = text.find(*folder, pos);
      if (at != std::string::npos && (at < next || (at == next && folder->size() > length))) {
        next = at;
        length = folder->size();
      }
    }
    literalPart(text.substr(pos, next == std::string::npos ? std::string::npos : next - pos));
    if (next == std::string::npos) break;
    out += "/.+?";
    pos = next + length;
  }
  return out + "$";
}

class FixtureWriter {
public:
  FixtureWriter(std::string workspace, std::string dataDir)
      : workspace_(std::move(workspace)), dataDir_(std::move(dataDir)) {}

  std::string send(json message) {
    substituteSent(message);
    return "> " + dumpJson(message) + "\n";
  }

  /// The pattern for a message from toold; nullopt for one the fixture skips (progress).
  std::optional<std::string> expect(json message) {
    if (!patternize(message)) return std::nullopt;
    return dumpJson(message);
  }

  /// The capture names made by expect() since the last call.
  std::vector<std::string> takeNewCaptures() { return std::exchange(newCaptures_, {}); }

private:
  /// The folders' paths in a string become ${workspace} and ${data}; the whole string of a
  /// captured value becomes its reference.
  void substituteSent(json& value) {
    if (value.is_string()) {
      const std::string text = value;
      if (auto it = captured_.find(text); it != captured_.end()) {
        value = "${" + it->second + "}";
        return;
      }
      value = withFolders(text);
      return;
    }
    if (value.is_object() || value.is_array())
      for (auto& child : value) substituteSent(child);
  }

  std::string withFolders(std::string text) const {
    // The longer path first: the data folder may be inside the workspace (a HOME there).
    const bool dataFirst = dataDir_.size() > workspace_.size();
    for (const auto& [folder, name] : {std::pair{dataFirst ? &dataDir_ : &workspace_, dataFirst ? "${data}" : "${workspace}"},
                                       std::pair{dataFirst ? &workspace_ : &dataDir_, dataFirst ? "${workspace}" : "${data}"}}) {
      if (folder->empty()) continue;
      const std::string reference = name;
      for (auto pos = text.find(*folder); pos != std::string::npos; pos = text.find(*folder, pos + reference.size()))
        text.replace(pos, folder->size(), reference);
    }
    return text;
  }

  std::string capture(const std::string& value, const std::string& prefix) {
    const std::string name = prefix + std::to_string(++counters_[prefix]);
    captured_[value] = name;
    newCaptures_.push_back(name);
    return "$capture:" + name;
  }

  /// A received value as a pattern that matches it in another run.
  json literal(const json& value) {
    if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      if (auto pattern = volatilePattern(text, workspace_, dataDir_)) return "$re:" + *pattern;
      // A string that starts like a pattern ("$any"), or holds a "${" the runner would fill in.
      const bool looksLikePattern = text.size() > 1 && text[0] == '$' && std::islower(static_cast<unsigned char>(text[1]));
      if (looksLikePattern || text.find("${") != std::string::npos) return "$re:" + regexOf(text, workspace_, dataDir_);
      return withFolders(text);
    }
    if (value.is_object()) {
      json copy = json::object();
      for (const auto& [key, child] : value.items())
        copy[key] = child.is_number() && isVolatileKey(key) ? json("$any") : literal(child);
      return copy;
    }
    if (value.is_array()) {
      json copy = json::array();
      for (const auto& child : value) copy.push_back(literal(child));
      return copy;
    }
    return value;
  }

  /// False for a message that is skipped.
  bool patternize(json& message) {
    if (message.is_array()) {
      json kept = json::array();
      for (auto& m : message)
        if (patternize(m)) kept.push_back(std::move(m));
      message = std::move(kept);
      return !message.empty();
    }
    if (!message.is_object()) return true;
    if (message.contains("method")) {
      const std::string method = message["method"].is_string() ? message["method"].get<std::string>() : "";
      if (message.contains("id") && message["id"].is_string()) {
        // toold's own request: its id is captured; its params (ids of asks, metadata) vary.
        const std::string id = message["id"];
        message = {{"jsonrpc", "2.0"}, {"id", capture(id, "ask")}, {"method", method}};
        return true;
      }
      if (isProgress(method)) return false; // %skip'ped: how many arrive is timing
      if (method == "shell/exited") message["params"] = "$any";
      else message = literal(message);
      if (method == "$/cancelRequest" && message["params"].is_object()) substituteSent(message["params"]);
      return true;
    }
    json& result = message["result"];
    if (message.contains("error")) {
      message.erase("result");
      message = literal(message);
      return true;
    }
    if (!result.is_object()) {
      message = literal(message);
      return true;
    }
    json kept = literal(result);
    if (kept.contains("serverInfo")) kept["serverInfo"] = {{"name", "toold"}};
    // The sandbox's report describes this machine's kernel, not the session's behaviour.
    if (kept.contains("capabilities") && kept["capabilities"].is_object() && kept["capabilities"].contains("experimental"))
      kept["capabilities"]["experimental"] = "$any";
    if (kept.contains("snapshot") && result["snapshot"].is_string()) kept["snapshot"] = capture(result["snapshot"], "snapshot");
    if (kept.contains("metadata")) kept["metadata"] = "$any";
    if (kept.contains("outputPaths")) kept["outputPaths"] = "$any";
    if (kept.contains("partial")) kept["partial"] = "$any";
    if (kept.contains("notices")) kept["notices"] = "$any";
    // The hash of the tools' texts changes with any description: its form is what is kept.
    if (kept.contains("toolsHash")) kept["toolsHash"] = "$re:^[0-9a-f]{32}$";
    if (kept.contains("tools") && kept["tools"].is_array()) // the tools' texts are documentation, not behaviour
      for (auto& tool : kept["tools"])
        if (tool.is_object()) tool = {{"name", tool.value("name", json())}};
    message["result"] = std::move(kept);
    return true;
  }

  std::string workspace_;
  std::string dataDir_;
  std::map<std::string, std::string> captured_;
  std::map<std::string, int> counters_;
  std::vector<std::string> newCaptures_;
};

/// The requests (method and id) in a message or batch.
std::vector<std::string> requestIds(const json& message) {
  std::vector<std::string> ids;
  const json single = json::array({message});
  for (const auto& m : message.is_array() ? message : single)
    if (m.is_object() && m.contains("method") && m.contains("id")) ids.push_back(m["id"].dump());
  return ids;
}

/// The ids answered by a message or batch from toold.
std::vector<std::string> answeredIds(const json& message) {
  std::vector<std::string> ids;
  const json single = json::array({message});
  for (const auto& m : message.is_array() ? message : single)
    if (m.is_object() && !m.contains("method") && m.contains("id")) ids.push_back(m["id"].dump());
  return ids;
}

/// `%file` holds whole lines: content with a CR, or without a final newline, is written with a
/// `put` (pipe mode, where the fixture runs anyway) that says every byte.
bool fitsHereDocument(const std::string& content) {
  return content.find('\r') == std::string::npos && (content.empty() || content.back() == '\n');
}

std::string hereDocument(const WorkspaceFile& file) {
  std::set<std::string_view> lines;
  for (std::size_t pos = 0; pos < file.content.size();) {
    const auto nl = file.content.find('\n', pos);
    lines.insert(std::string_view(file.content).substr(pos, nl - pos));
    pos = nl + 1;
  }
  std::string tag = "END";
  for (int n = 1; lines.contains(tag); ++n) tag = "END" + std::to_string(n);
  return "%file " + file.path + " <<" + tag + "\n" + file.content + tag + "\n";
}

std::string putLine(const WorkspaceFile& file) {
  std::string text = "put " + file.path + " \"";
  for (unsigned char c : file.content) {
    switch (c) {
    case '\r': text += "\\r"; break;
    case '\n': text += "\\n"; break;
    case '\t': text += "\\t"; break;
    case '\\': text += "\\\\"; break;
    case '"': text += "\\\""; break;
    default:
      if (c < 0x20 || c == 0x7f) {
        static constexpr char kHex[] = "0123456789abcdef";
        text += "\\x";
        text += kHex[c >> 4];
        text += kHex[c & 0xf];
      } else {
        text += static_cast<char>(c);
      }
    }
  }
  return text + "\"\n";
}

} // namespace

std::optional<std::string> volatilePattern(const std::string& text, const std::string& workspace, const std::string& dataDir) {
  if (!std::regex_search(text, volatileText())) return std::nullopt;
  return regexOf(text, workspace, dataDir);
}

std::string writeFixture(const std::vector<RecordedMessage>& transcript, const FixtureSetting& setting) {
  std::string text = "# Recorded by toold-repl's :record. Say here what this conversation checks.\n";
  std::string args;
  for (const auto& arg : setting.tooldArgs) args += " " + arg;
  if (!args.empty()) text += "%args" + args + "\n";
  // Captured ids make the sends depend on answers, which only a pipe can play.
  text += "%modes pipe\n";
  text += "# How many progress updates a call sends is timing.\n%skip tool/progress\n%skip notifications/progress\n";
  if (!setting.files.empty()) text += "# The workspace's files as the session's calls first found them.\n";
  std::string puts;
  for (const auto& file : setting.files) {
    if (fitsHereDocument(file.content)) text += hereDocument(file);
    else puts += putLine(file);
  }
  if (setting.filesLeftOut > 0)
    text += "# " + std::to_string(setting.filesLeftOut) +
            " file(s) the calls named are left out (too large, too many, or a name with a blank): add them by hand.\n";
  text += "\n" + puts;

  // The REPL sends without waiting, so when toold's messages arrive relative to the sends is
  // timing. The fixture sends everything it can, then expects what arrived meanwhile as one
  // unordered group. A group ends where the conversation was settled (every request sent so far
  // answered, as when a script waits for each answer, so a read comes before the edit that needs
  // it), and where a send needs a value captured in it (a reply to toold's question, a call
  // through a new snapshot).
  FixtureWriter writer(setting.workspace, setting.dataDir);
  std::vector<std::string> sends;
  std::vector<std::string> expectations;
  std::vector<std::string> pendingCaptures;
  std::set<std::string> unanswered;
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
      for (const auto& id : answeredIds(entry.message)) unanswered.erase(id);
      if (auto pattern = writer.expect(entry.message)) expectations.push_back(std::move(*pattern));
      for (auto& name : writer.takeNewCaptures()) pendingCaptures.push_back(std::move(name));
      continue;
    }
    std::string send = writer.send(entry.message);
    bool needsCapture = false;
    for (const auto& name : pendingCaptures) needsCapture = needsCapture || send.find("${" + name + "}") != std::string::npos;
    if (needsCapture || (unanswered.empty() && !expectations.empty())) flush();
    for (const auto& id : requestIds(entry.message)) unanswered.insert(id);
    sends.push_back(std::move(send));
  }
  flush();
  return text;
}

} // namespace toold::repl
