// Only the main thread sends what the person typed; the reader thread sends the REPL's own
// snapshot requests. Both write under writeMutex_; the tables are guarded by mutex_, and a
// condition variable lets the main thread wait for answers.
#include "daemon/repl/repl_session.h"

#include "protocol/bounded_json.h"
#include "protocol/framing.h"
#include "protocol/message.h"

#include <cctype>
#include <system_error>

namespace toold::repl {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
// toold's own default; a larger frame is shown as an error rather than buffered without end.
constexpr std::size_t kMaxFrameBytes = 64u << 20;
// toold refuses frames nested deeper than kMaxJsonDepth; its answers wrap such values in a few
// more levels (an envelope, a result, an output).
constexpr std::size_t kMaxAnswerDepth = protocol::kMaxJsonDepth + 64;
// The message id the REPL's calls share: one "turn" of a person at the keyboard.
constexpr const char* kMessageID = "repl-message";
constexpr int kRequestCancelled = -32800; // the error toold answers a cancelled request with

} // namespace

ReplSession::ReplSession(client::ChildProcess& child, Console& console, ToolCatalog& catalog, SessionOptions options)
    : child_(child), console_(console), catalog_(catalog), options_(std::move(options)), touched_(options_.workspace),
      reader_([this] { readLoop(); }) {}

ReplSession::~ReplSession() { finish(); }

bool ReplSession::send(const json& message) {
  std::lock_guard lock(writeMutex_);
  {
    // Recorded before it is written: its answer may be read before writeAll returns.
    std::lock_guard tables(mutex_);
    transcript_.push_back({true, message});
  }
  return child_.writeAll(protocol::encodeFrame(message, protocol::Framing::Ndjson)) ==
         client::ChildProcess::WriteResult::Done;
}

void ReplSession::show(std::string text) {
  if (text.empty()) return;
  const std::size_t limit = limit_;
  console_.print(mode_ == OutputMode::Raw ? std::move(text) : cutLines(text, limit));
}

std::optional<json> ReplSession::sendRequest(const std::string& method, const json& params, Pending pending) {
  json id;
  {
    std::lock_guard lock(mutex_);
    if (gone_) return std::nullopt;
    id = nextId_++;
    if (pending.purpose == Purpose::Typed) lastTyped_ = id;
    pending.order = nextOrder_++;
    pending.sent = std::chrono::steady_clock::now();
    pending_[id.dump()] = pending;
  }
  // Shown before sending, so that it always comes before the answer.
  const bool typed = pending.purpose == Purpose::Typed;
  if (!options_.quiet && (typed || mode_ != OutputMode::Text)) {
    std::string line = "--> " + method + (pending.tool.empty() ? "" : " " + pending.tool) + " (id " + idText(id) + ")\n";
    if (mode_ != OutputMode::Text) line += renderMessage(protocol::makeRequest(id, method, params), mode_);
    if (typed || mode_ != OutputMode::Text) console_.print(line);
  }
  if (send(protocol::makeRequest(id, method, params))) return id;
  std::lock_guard lock(mutex_);
  pending_.erase(id.dump());
  return std::nullopt;
}

std::optional<json> ReplSession::request(const std::string& method, const std::optional<json>& params, Purpose purpose,
                                         const std::string& tool) {
  return sendRequest(method, params.value_or(json()), Pending{method, tool, "", purpose, {}, 0});
}

bool ReplSession::notify(const std::string& method, const std::optional<json>& params) {
  if (serverGone()) return false;
  if (!options_.quiet && method != "notifications/initialized") console_.print("--> " + method + " (notification)\n");
  return send(protocol::makeNotification(method, params.value_or(json())));
}

bool ReplSession::sendRaw(const json& message, std::string& why) {
  if (serverGone()) {
    why = "toold is gone";
    return false;
  }
  const json single = json::array({message});
  const json& messages = message.is_array() ? message : single;
  {
    std::lock_guard lock(mutex_);
    for (const auto& m : messages) {
      if (!m.is_object() || !m.contains("id") || !m.contains("method") || !m["method"].is_string()) continue;
      const std::string method = m["method"];
      std::string tool;
      if ((method == "call" || method == "tools/call") && m.contains("params") && m["params"].is_object()) {
        const json& params = m["params"];
        tool = params.value("name", std::string());
        touched_.touchInput(tool, params.value(method == "call" ? "input" : "arguments", json::object()));
      }
      pending_[m["id"].dump()] = Pending{method, tool, "", Purpose::Typed, std::chrono::steady_clock::now(), nextOrder_++};
      lastTyped_ = m["id"];
    }
  }
  if (!options_.quiet) console_.print("--> (as typed) " + dumpJson(message) + "\n");
  if (send(message)) return true;
  why = "toold is gone";
  return false;
}

bool ReplSession::reply(const json& id, const json& result, std::chrono::milliseconds wait, std::string& why) {
  {
    std::unique_lock lock(mutex_);
    const auto asked = [&] {
      for (const auto& ask : asks_)
        if (ask.id == id) return true;
      return false;
    };
    if (!asked() && wait.count() > 0) {
      // A script's :reply may run ahead of toold's question; say what it waits for, as the wait
      // may be long and nothing else is printed meanwhile (--quiet).
      std::string now = asks_.empty() ? std::string("toold asks nothing now") : "toold asks now:";
      for (const auto& ask : asks_) now += " " + idText(ask.id);
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(wait).count();
      const std::string waiting = "toold-repl: :reply " + idText(id) + " waits" +
                                  (seconds < 86400 ? " up to " + std::to_string(seconds) + " s (--timeout)" : std::string()) +
                                  " for toold to ask " + idText(id) + " (" + now + ")\n";
      lock.unlock();
      console_.error(waiting);
      lock.lock();
    }
    changed_.wait_for(lock, wait, [&] { return gone_ || asked(); });
    if (!asked()) {
      why = "toold asked nothing with id " + dumpJson(id);
      if (!asks_.empty()) {
        why += "; waiting for an answer:";
        for (const auto& ask : asks_) why += " " + idText(ask.id);
      }
      return false;
    }
    std::erase_if(asks_, [&](const Ask& ask) { return ask.id == id; });
  }
  if (!options_.quiet) console_.print("--> reply to " + idText(id) + "\n");
  if (!send(protocol::makeResult(id, result))) {
    why = "toold is gone";
    return false;
  }
  console_.wake(); // the prompt may change back
  return true;
}

std::optional<json> ReplSession::callTool(const std::string& tool, const json& input, std::string& why) {
  std::string snapshot;
  std::string callID;
  {
    std::lock_guard lock(mutex_);
    snapshot = snapshot_;
    callID = "call-" + std::to_string(++nextCall_);
    if (!snapshot.empty()) touched_.touchInput(tool, input); // before the call can change them
  }
  if (snapshot.empty()) {
    why = "no snapshot yet (toold did not answer the REPL's snapshot request)";
    return std::nullopt;
  }
  const json params{{"snapshot", snapshot},       {"sessionID", sessionName()}, {"agent", options_.agent},
                    {"messageID", kMessageID},    {"callID", callID},           {"name", tool},
                    {"input", input}};
  auto id = sendRequest("call", params, Pending{"call", tool, callID, Purpose::Typed, {}, 0});
  if (!id) why = "toold is gone";
  return id;
}

void ReplSession::refreshSnapshot() {
  json params{{"sessionID", sessionName()}, {"agent", options_.agent}};
  {
    std::lock_guard lock(mutex_);
    if (!options_.model.empty()) params["model"] = options_.model;
    if (!toolsHash_.empty()) params["knownToolsHash"] = toolsHash_;
    for (const auto& [_, pending] : pending_)
      if (pending.purpose == Purpose::Snapshot) {
        snapshotStale_ = true; // asked again once this one is answered
        return;
      }
  }
  sendRequest("snapshot", params, Pending{"snapshot", "", "", Purpose::Snapshot, {}, 0});
}

void ReplSession::setSessionName(const std::string& name) {
  {
    std::lock_guard lock(mutex_);
    options_.sessionID = name;
  }
  refreshSnapshot();
}

void ReplSession::setModel(const std::string& model) {
  {
    std::lock_guard lock(mutex_);
    options_.model = model;
  }
  refreshSnapshot();
}

std::string ReplSession::sessionName() {
  std::lock_guard lock(mutex_);
  return options_.sessionID;
}

bool ReplSession::waitForTools(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const auto settled = [&] {
    if (gone_) return true;
    for (const auto& [_, pending] : pending_)
      if (pending.purpose == Purpose::Snapshot || pending.method == "register" || pending.method == "unregister") return false;
    return !snapshotStale_ && !snapshotApplying_;
  };
  return changed_.wait_for(lock, timeout, settled);
}

std::optional<json> ReplSession::cancelNewest() {
  json id;
  {
    std::lock_guard lock(mutex_);
    const Pending* newest = nullptr;
    for (const auto& [key, pending] : pending_)
      if (pending.purpose == Purpose::Typed && !pending.cancelled && (!newest || pending.order > newest->order)) {
        newest = &pending;
        id = json::parse(key);
      }
    if (!newest) return std::nullopt;
  }
  std::string why;
  if (!cancel(id, why)) return std::nullopt;
  return id;
}

bool ReplSession::cancel(const json& id, std::string& why) {
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id.dump());
    if (it == pending_.end()) {
      why = "no request with id " + dumpJson(id) + " is running";
      return false;
    }
    it->second.cancelled = true;
  }
  if (!options_.quiet) console_.print("--> cancel (id " + idText(id) + ")\n");
  if (send(protocol::makeNotification("$/cancelRequest", json{{"id", id}}))) return true;
  why = "toold is gone";
  return false;
}

std::optional<json> ReplSession::lastTypedId() {
  std::lock_guard lock(mutex_);
  return lastTyped_;
}

bool ReplSession::waitForReplyOrAsk(const json& id, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return gone_ || pending_.count(id.dump()) == 0 || !asks_.empty(); });
}

bool ReplSession::waitForReply(const json& id, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return gone_ || pending_.count(id.dump()) == 0; });
  return pending_.count(id.dump()) == 0;
}

bool ReplSession::waitForAllReplies(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return gone_ || pending_.empty(); });
  return pending_.empty();
}

bool ReplSession::waitForAllRepliesOrAsk(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return gone_ || pending_.empty() || !asks_.empty(); });
  return pending_.empty();
}

std::size_t ReplSession::unanswered() {
  std::lock_guard lock(mutex_);
  return pending_.size();
}

bool ReplSession::serverGone() {
  std::lock_guard lock(mutex_);
  return gone_;
}

void ReplSession::touchFile(const std::string& path) {
  std::lock_guard lock(mutex_);
  touched_.touch(path);
}

std::string ReplSession::fixture(FixtureSetting setting) {
  std::lock_guard lock(mutex_);
  setting.files = touched_.files();
  setting.filesLeftOut = touched_.leftOut();
  // Requests still running are left out (their answers are not part of the conversation yet).
  std::vector<RecordedMessage> settled;
  for (const auto& entry : transcript_) {
    if (entry.sent && entry.message.is_object() && entry.message.contains("method") && entry.message.contains("id") &&
        pending_.count(entry.message["id"].dump()) > 0)
      continue;
    settled.push_back(entry);
  }
  return writeFixture(settled, setting);
}

void ReplSession::finish() {
  child_.closeStdin();
  if (reader_.joinable()) reader_.join();
}

void ReplSession::readLoop() {
  protocol::FrameDecoder decoder(protocol::Framing::Ndjson, kMaxFrameBytes);
  const protocol::FrameDecoder::Sink onFrame = [this](protocol::DecodedFrame&& frame) {
    if (frame.error) {
      console_.print("<-- (unreadable output from toold: " + frame.error->message + ")\n");
      return;
    }
    handleFrame(frame.body);
  };
  std::string chunk(kReadChunk, '\0');
  try {
    // No deadline: toold may stay silent for as long as the user does.
    while (const std::size_t n = child_.readSome(chunk).value_or(0))
      decoder.feed(std::string_view(chunk.data(), n), onFrame);
  } catch (const std::system_error& e) {
    console_.print("<-- (cannot read toold's output: " + std::string(e.what()) + ")\n");
  }
  decoder.finish(onFrame);
  {
    std::lock_guard lock(mutex_);
    gone_ = true;
  }
  changed_.notify_all();
  console_.status("");
  console_.wake();
}

void ReplSession::handleFrame(const std::string& body) {
  // toold's answers nest the client's values (bounded by the frame limit) a few levels deeper.
  auto parsed = protocol::parseBounded(body, kMaxAnswerDepth);
  json message = std::move(parsed.value);
  if (!parsed) {
    console_.print("<-- (not JSON: " + parsed.refusal->message + ") " + body + "\n");
    return;
  }
  {
    std::lock_guard lock(mutex_);
    transcript_.push_back({false, message});
  }
  // Batches arrive as arrays: each element is a message of its own.
  const json single = json::array({message});
  const json& messages = message.is_array() ? message : single;
  std::string text;
  bool changed = false;
  for (const auto& m : messages) handleMessage(m, text, changed);
  // Print before waking a waiter, so the answer is on screen before the REPL moves on.
  show(std::move(text));
  if (changed) {
    changed_.notify_all();
    console_.wake(); // a question asked or withdrawn changes the prompt
  }
}

std::string ReplSession::progressText(const json& message) {
  const json& params = message.value("params", json::object());
  json update = params.contains("update") ? params["update"] : params;
  const std::string said = progressSummary(update);
  std::string label;
  std::lock_guard lock(mutex_);
  for (const auto& [key, pending] : pending_)
    if (!pending.callID.empty() && params.value("callID", std::string()) == pending.callID)
      label = pending.tool + " (id " + key + ")";
  if (label.empty()) label = message.value("method", std::string());
  constexpr std::size_t kMaxStatus = 120;
  std::string line = "⋯ " + label + ": " + said;
  if (line.size() > kMaxStatus) line = line.substr(0, kMaxStatus) + "…";
  for (auto& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  return line;
}

void ReplSession::handleMessage(const json& m, std::string& text, bool& changed) {
  if (!m.is_object()) {
    text += renderMessage(m, mode_);
    return;
  }
  const bool quiet = options_.quiet;
  if (!m.contains("method")) {
    handleAnswer(m, text, changed);
    return;
  }
  const std::string method = m["method"].is_string() ? m["method"].get<std::string>() : std::string();
  if (m.contains("id")) { // toold asks the person
    {
      std::lock_guard lock(mutex_);
      asks_.push_back({m["id"], method, m.value("params", json())});
    }
    changed = true;
    if (!quiet && options_.interactive && mode_ == OutputMode::Text) {
      // The prompt asks the question; what it is about (an edit's diff, the command) goes above.
      text += askDetails(m);
    } else if (!quiet) {
      text += renderMessage(m, mode_);
      std::string example = method == "permission/ask" ? R"({"reply": "once"})" : "{result}";
      text += "(toold asks; answer with  :reply " + idText(m["id"]) + " " + example + ")\n";
    }
    return;
  }
  if (method == "notifications/tools/list_changed") {
    if (!quiet && mode_ != OutputMode::Text) text += renderMessage(m, mode_);
    refreshSnapshot();
    return;
  }
  if (method == "tool/progress" || method == "notifications/progress") {
    if (options_.interactive && mode_ == OutputMode::Text) console_.status(progressText(m));
    else if (!quiet) text += renderMessage(m, mode_);
    return;
  }
  if (method == "$/cancelRequest" || method == "notifications/cancelled") { // toold withdraws a question
    const json& params = m.value("params", json::object());
    const json id = params.contains("id") ? params["id"] : params.value("requestId", json());
    std::lock_guard lock(mutex_);
    if (std::erase_if(asks_, [&](const Ask& ask) { return ask.id == id; }) > 0) {
      changed = true;
      if (!quiet) text += "(toold no longer asks " + idText(id) + ")\n";
      return;
    }
  }
  if (!quiet) text += renderMessage(m, mode_);
}

void ReplSession::handleAnswer(const json& m, std::string& text, bool& changed) {
  std::optional<Pending> pending;
  std::string key = m.contains("id") ? m["id"].dump() : "null";
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(key);
    if (it != pending_.end()) {
      pending = it->second;
      pending_.erase(it);
      changed = true;
      // Until its tools are in the catalog, a line waiting for the tools must go on waiting: a
      // piped `write filePath=…` read in between was taken for a method with bad JSON params.
      if (pending->purpose == Purpose::Snapshot) snapshotApplying_ = true;
    }
  }
  if (!pending) { // an answer to nothing the REPL sent (id null: a refused message)
    if (m.value("id", json()).is_null() && m.contains("error")) ++failures_;
    if (!options_.quiet || m.contains("error")) text += renderMessage(m, mode_);
    return;
  }
  if (!pending->callID.empty()) console_.status("");
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pending->sent).count();
  const SentRequest sent{pending->method, pending->tool, idText(m["id"]), ms};
  switch (pending->purpose) {
  case Purpose::Snapshot:
    handleSnapshotAnswer(m);
    if (mode_ != OutputMode::Text) text += renderAnswer(m, sent, mode_);
    else if (m.contains("error")) text += "(the REPL's snapshot failed) " + renderAnswer(m, sent, mode_);
    return;
  case Purpose::Lifecycle:
    if (mode_ != OutputMode::Text || m.contains("error")) text += renderAnswer(m, sent, mode_);
    return;
  case Purpose::Typed: break;
  }
  const bool cancelledByUs = pending->cancelled && m.contains("error") && m["error"].is_object() &&
                             m["error"].value("code", 0) == kRequestCancelled;
  if (answerFailed(m) && !cancelledByUs) ++failures_;
  text += renderAnswer(m, sent, mode_);
}

void ReplSession::handleSnapshotAnswer(const json& answer) {
  const json& result = answer.value("result", json());
  bool again = false;
  if (result.is_object() && result.contains("snapshot") && result["snapshot"].is_string()) {
    // Without `tools` (toolsUnchanged) the catalog already holds this snapshot's definitions.
    if (result.contains("tools")) catalog_.setTools(result.value("tools", json::array()));
    catalog_.setCodemodePaths(result.value("codemode", json()));
    std::lock_guard lock(mutex_);
    snapshot_ = result["snapshot"];
    const json& hash = result.contains("toolsHash") ? result["toolsHash"] : json();
    toolsHash_ = hash.is_string() ? hash.get<std::string>() : std::string();
  }
  {
    std::lock_guard lock(mutex_);
    again = snapshotStale_;
    snapshotStale_ = false;
    snapshotApplying_ = false;
  }
  if (again) refreshSnapshot();
}

} // namespace toold::repl
