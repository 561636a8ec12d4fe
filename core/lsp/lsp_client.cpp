#include "core/lsp/lsp_client.h"

#include "core/lsp/lsp_uri.h"
#include "protocol/bounded_json.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>

namespace toold::core {

namespace asio = boost::asio;
using json = nlohmann::json;

namespace {

/// A file's diagnostics beyond this are dropped: no file has more worth showing, and a server
/// that floods cannot grow toold's memory.
constexpr std::size_t kMaxDiagnosticsPerFile = 1000;
constexpr std::chrono::minutes kCrashWindow{10};

std::string describeMs(std::chrono::milliseconds ms) {
  if (ms.count() % 1000 == 0) return std::to_string(ms.count() / 1000) + " s";
  return std::to_string(ms.count()) + " ms";
}

bool inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
  const auto relative = path.lexically_normal().lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

json clientCapabilities() {
  return json{
      {"workspace",
       {{"configuration", true},
        {"workspaceFolders", true},
        {"didChangeWatchedFiles", {{"dynamicRegistration", true}}},
        {"symbol", json::object()}}},
      {"window", {{"workDoneProgress", true}}},
      {"textDocument",
       {{"synchronization", {{"didSave", true}, {"dynamicRegistration", false}}},
        {"publishDiagnostics", {{"versionSupport", true}, {"relatedInformation", false}}},
        {"hover", {{"contentFormat", {"markdown", "plaintext"}}}},
        {"definition", {{"linkSupport", true}}},
        {"implementation", {{"linkSupport", true}}},
        {"references", json::object()},
        {"documentSymbol", {{"hierarchicalDocumentSymbolSupport", true}}},
        {"callHierarchy", json::object()}}},
      {"general", {{"positionEncodings", {"utf-16"}}}}};
}

} // namespace

std::string_view lspClientStateName(LspClient::State state) {
  switch (state) {
  case LspClient::State::Idle: return "idle";
  case LspClient::State::Starting: return "starting";
  case LspClient::State::Ready: return "ready";
  case LspClient::State::Crashed: return "crashed";
  case LspClient::State::Broken: return "broken";
  case LspClient::State::Stopped: return "stopped";
  }
  return "unknown";
}

LspClient::LspClient(ProcessRunner& runner, LspStrand strand, LspClientOptions options, DiagnosticsListener onDiagnostics)
    : runner_(runner), strand_(std::move(strand)), options_(std::move(options)), onDiagnostics_(std::move(onDiagnostics)) {}

LspClient::~LspClient() { *alive_ = false; }

bool LspClient::canStartNow() const {
  return state_ == State::Idle || (state_ == State::Crashed && Clock::now() >= restartAt_);
}

void LspClient::start() {
  state_ = State::Starting;
  capabilities_ = json::object();
  progress_.clear();
  const std::uint64_t generation = ++generation_;
  ProcessSpec spec{.argv = options_.server.command, .cwd = options_.root};
  for (const auto& [key, value] : options_.server.environment) spec.extraEnv.push_back(key + "=" + value);
  transport_ = std::make_shared<LspTransport>(runner_, strand_, options_.server.name, std::move(spec));
  std::weak_ptr<LspClient> weak = weak_from_this();
  std::weak_ptr<LspTransport> weakTransport = transport_;
  connection_ = std::make_unique<LspConnection>(
      strand_,
      [weakTransport](const json& message) {
        if (auto transport = weakTransport.lock()) transport->send(message);
      },
      [weak](const std::string& method, const json& params, std::function<void(LspAnswer)> respond) {
        if (auto self = weak.lock()) self->handleRequest(method, params, std::move(respond));
      },
      [weak](const std::string& method, const json& params) {
        if (auto self = weak.lock()) self->handleNotification(method, params);
      });
  const std::string name = options_.server.name;
  transport_->start(LspTransport::Events{
      [weak, generation](json message) {
        auto self = weak.lock();
        if (self && self->generation_ == generation && self->connection_) self->connection_->receive(std::move(message));
      },
      [name](std::string why) { spdlog::warn("lsp {}: dropped a frame: {}", name, why); },
      [weak, generation](std::string reason) {
        auto self = weak.lock();
        if (self && self->generation_ == generation) self->crashed(reason);
      }});
  const std::string rootUri = fileUriFromPath(options_.root);
  json params{{"processId", static_cast<int>(::getpid())},
              {"clientInfo", {{"name", "toold"}}},
              {"rootUri", rootUri},
              {"rootPath", options_.root.string()},
              {"workspaceFolders", json::array({{{"uri", rootUri}, {"name", options_.root.filename().string()}}})},
              {"capabilities", clientCapabilities()}};
  if (!options_.server.initialization.is_null()) params["initializationOptions"] = options_.server.initialization;
  spdlog::info("lsp {}: starting for {}", name, options_.root.string());
  connection_->request("initialize", std::move(params), kLspInitializeTimeout, [weak, generation](LspAnswer answer) {
    auto self = weak.lock();
    if (self && self->generation_ == generation) self->initialized(std::move(answer));
  });
}

void LspClient::initialized(LspAnswer answer) {
  if (state_ != State::Starting) return;
  if (answer.error) {
    const std::string reason = answer.error->code == kLspTimeoutCode
                                   ? "it did not answer initialize within " + describeMs(kLspInitializeTimeout)
                                   : "initialize failed: " + answer.error->message;
    if (transport_) transport_->stop([] {});
    return crashed(reason);
  }
  if (answer.result && answer.result->is_object()) {
    if (auto found = answer.result->find("capabilities"); found != answer.result->end() && found->is_object())
      capabilities_ = std::move(*found);
  }
  connection_->notify("initialized", json::object());
  state_ = State::Ready;
  spdlog::info("lsp {}: ready", options_.server.name);
  for (auto& [uri, document] : documents_) {
    if (!document.unsent) continue;
    std::string text = std::move(*document.unsent);
    document.unsent.reset();
    openOrChange(uri, document, text);
  }
  auto queued = std::move(whenReady_);
  whenReady_.clear();
  for (auto& run : queued) run(nullptr);
}

void LspClient::crashed(const std::string& reason) {
  if (state_ == State::Stopped || state_ == State::Broken) return;
  ++generation_; // whatever the old process still sends is ignored
  lastError_ = reason;
  const auto now = Clock::now();
  crashes_.push_back(now);
  std::erase_if(crashes_, [now](Clock::time_point at) { return now - at > kCrashWindow; });
  const auto count = static_cast<int>(crashes_.size());
  if (count >= kLspCrashesBeforeGivingUp) {
    state_ = State::Broken;
    spdlog::warn("lsp {}: {}; given up after {} crashes in {} minutes", options_.server.name, reason, count,
                 kCrashWindow.count());
  } else {
    state_ = State::Crashed;
    const auto backoff = std::min<std::chrono::milliseconds>(std::chrono::milliseconds(1000) * (1 << (count - 1)),
                                                             std::chrono::seconds(30));
    restartAt_ = now + backoff;
    spdlog::warn("lsp {}: {}; restarted on next use after {}", options_.server.name, reason, describeMs(backoff));
  }
  if (connection_) connection_->close(options_.server.name + " " + reason);
  transport_.reset();
  documents_.clear();
  publications_.clear();
  progress_.clear();
  failWaiting(notReadyNote());
}

void LspClient::failWaiting(const std::string& failure) {
  auto queued = std::move(whenReady_);
  whenReady_.clear();
  for (auto& run : queued) run(&failure);
  std::vector<std::uint64_t> keys;
  for (const auto& [key, waiter] : waiters_) keys.push_back(key);
  for (auto key : keys) finishWaiter(key, false);
}

void LspClient::openOrChange(const std::string& uri, Document& document, const std::string& text) {
  if (!document.open) {
    connection_->notify("textDocument/didOpen", json{{"textDocument",
                                                      {{"uri", uri},
                                                       {"languageId", lspLanguageId(document.path)},
                                                       {"version", document.version},
                                                       {"text", text}}}});
    document.open = true;
    return;
  }
  connection_->notify("textDocument/didChange",
                      json{{"textDocument", {{"uri", uri}, {"version", document.version}}},
                           {"contentChanges", json::array({{{"text", text}}})}});
}

bool LspClient::waitedOn() const {
  return !waiters_.empty() || !whenReady_.empty() || (connection_ && connection_->pendingCount() > 0);
}

LspSynced LspClient::sync(const std::filesystem::path& file, const std::string& text, bool saved) {
  lastUsed_ = Clock::now();
  const std::string uri = fileUriFromPath(file);
  LspSynced synced;
  if (state_ == State::Stopped || state_ == State::Broken) return synced;
  if (canStartNow()) start();
  auto [entry, added] = documents_.try_emplace(uri);
  Document& document = entry->second;
  document.path = file;
  const std::size_t hash = std::hash<std::string>{}(text);
  if (!added) {
    if (auto found = publications_.find(uri); found != publications_.end()) {
      const Publication& publication = found->second;
      const bool current = publication.version ? *publication.version == document.version
                                               : publication.sequence > document.syncedAt;
      if (current) synced.before = publication.diagnostics;
    }
  }
  if (added || hash != document.hash) {
    document.version = added ? 1 : document.version + 1;
    document.hash = hash;
    document.syncedAt = publicationCount_;
    synced.changed = true;
    if (state_ == State::Ready) openOrChange(uri, document, text);
    else document.unsent = text;
  }
  synced.version = document.version;
  if (saved && state_ == State::Ready && document.open) {
    const json sync = capabilities_.value("textDocumentSync", json());
    const json save = sync.is_object() ? sync.value("save", json()) : json();
    if (save.is_boolean() ? save.get<bool>() : save.is_object()) {
      json params{{"textDocument", {{"uri", uri}}}};
      if (save.is_object() && save.value("includeText", false)) params["text"] = text;
      connection_->notify("textDocument/didSave", std::move(params));
    }
  }
  return synced;
}

std::optional<int> LspClient::unjudgedVersion(const std::filesystem::path& file) const {
  if (state_ != State::Starting && state_ != State::Ready) return std::nullopt;
  const std::string uri = fileUriFromPath(file);
  const auto document = documents_.find(uri);
  if (document == documents_.end()) return std::nullopt;
  if (const auto found = publications_.find(uri); found != publications_.end()) {
    const Publication& publication = found->second;
    if (publication.version ? *publication.version >= document->second.version
                            : publication.sequence > document->second.syncedAt)
      return std::nullopt;
  }
  return document->second.version;
}

bool LspClient::matches(const Waiter& waiter, const Publication& publication) const {
  return publication.version ? *publication.version >= waiter.version : publication.sequence > waiter.after;
}

std::chrono::milliseconds LspClient::settleTime() const {
  // These publish once per version, when their whole analysis is done. Others may publish in
  // phases (syntax first, semantics later): the wait lingers a moment after a publication.
  const std::string& name = options_.server.name;
  if (name == "clangd" || name == "pylsp" || name == "pyright") return std::chrono::milliseconds(0);
  return std::chrono::milliseconds(150);
}

void LspClient::waitForDiagnostics(const std::filesystem::path& file, int version, Clock::time_point deadline,
                                   std::function<void(LspWaitOutcome)> done) {
  const std::string uri = fileUriFromPath(file);
  const std::uint64_t key = nextWaiter_++;
  Waiter& waiter = waiters_[key];
  waiter.uri = uri;
  waiter.version = version;
  if (auto document = documents_.find(uri); document != documents_.end()) waiter.after = document->second.syncedAt;
  waiter.done = std::move(done);
  if (state_ == State::Broken || state_ == State::Stopped) return finishWaiter(key, false);
  std::weak_ptr<LspClient> weak = weak_from_this();
  waiter.deadline = std::make_unique<asio::steady_timer>(strand_, deadline);
  waiter.deadline->async_wait([weak, key](const boost::system::error_code& error) {
    if (auto self = weak.lock(); self && !error) {
      auto found = self->waiters_.find(key);
      if (found != self->waiters_.end()) self->finishWaiter(key, found->second.matched);
    }
  });
  if (auto found = publications_.find(uri); found != publications_.end() && matches(waiter, found->second)) {
    waiter.matched = true;
    if (settleTime().count() == 0) finishWaiter(key, true);
  }
}

void LspClient::finishWaiter(std::uint64_t key, bool received) {
  auto found = waiters_.find(key);
  if (found == waiters_.end()) return;
  Waiter waiter = std::move(found->second);
  waiters_.erase(found);
  if (waiter.deadline) waiter.deadline->cancel();
  if (waiter.settle) waiter.settle->cancel();
  LspWaitOutcome outcome;
  outcome.received = received;
  if (auto publication = publications_.find(waiter.uri); received && publication != publications_.end())
    outcome.diagnostics = publication->second.diagnostics;
  if (!received) outcome.note = notReadyNote();
  waiter.done(std::move(outcome));
}

std::string LspClient::notReadyNote() const {
  const std::string& name = options_.server.name;
  switch (state_) {
  case State::Idle:
  case State::Starting: return name + " is still starting";
  case State::Crashed: {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(restartAt_ - Clock::now());
    return name + " " + lastError_ + "; it is started again on next use" +
           (left.count() > 0 ? " after " + describeMs(std::chrono::ceil<std::chrono::seconds>(left)) : "");
  }
  case State::Broken:
    return name + " " + lastError_ + "; toold gave up on it after " + std::to_string(kLspCrashesBeforeGivingUp) +
           " crashes";
  case State::Stopped: return name + " was stopped";
  case State::Ready: break;
  }
  for (const auto& [token, work] : progress_) {
    std::string busy = name + " is still busy: " + (work.title.empty() ? "working" : work.title);
    if (!work.message.empty()) busy += " (" + work.message + ")";
    if (work.percentage) busy += " " + std::to_string(*work.percentage) + "%";
    return busy;
  }
  return name + " published no diagnostics in time";
}

std::shared_ptr<LspClient::RequestHandle> LspClient::request(const std::string& method, json params,
                                                             std::chrono::milliseconds timeout,
                                                             std::function<void(LspAnswer)> done) {
  lastUsed_ = Clock::now();
  auto handle = std::make_shared<RequestHandle>();
  handle->done = std::move(done);
  auto finishWith = [handle](LspAnswer answer) {
    if (handle->finished) return;
    handle->finished = true;
    auto callback = std::move(handle->done);
    callback(std::move(answer));
  };
  if (canStartNow()) start();
  auto send = [this, handle, method, params = std::move(params), timeout, finishWith](const std::string* failure) mutable {
    if (handle->finished) return;
    if (failure) return finishWith(LspAnswer{std::nullopt, LspError{kLspClosedCode, *failure}});
    handle->id = connection_->request(method, std::move(params), timeout, finishWith);
  };
  if (state_ == State::Ready) send(nullptr);
  else if (state_ == State::Starting) whenReady_.push_back(std::move(send));
  else {
    const std::string failure = notReadyNote();
    send(&failure);
  }
  return handle;
}

void LspClient::cancel(const std::shared_ptr<RequestHandle>& handle, const std::string& reason) {
  if (handle->finished) return;
  if (handle->id != 0 && connection_) return connection_->cancel(handle->id, reason);
  // Still queued while the server starts: answered now, dropped when its turn comes.
  handle->finished = true;
  auto callback = std::move(handle->done);
  callback(LspAnswer{std::nullopt, LspError{kLspCancelledCode, reason}});
}

bool LspClient::supports(const std::string& capability) const {
  if (state_ != State::Ready) return true;
  const auto found = capabilities_.find(capability);
  return found != capabilities_.end() && !found->is_null() && !(found->is_boolean() && !found->get<bool>());
}

std::optional<std::vector<LspDiagnostic>> LspClient::diagnostics(const std::filesystem::path& file) const {
  auto found = publications_.find(fileUriFromPath(file));
  if (found == publications_.end()) return std::nullopt;
  return found->second.diagnostics;
}

void LspClient::handleRequest(const std::string& method, const json& params, std::function<void(LspAnswer)> respond) {
  if (method == "workspace/configuration") {
    // No settings of toold's own: null for each item, which servers read as "use your defaults".
    const std::size_t count = params.is_object() && params.contains("items") && params["items"].is_array()
                                  ? params["items"].size()
                                  : 0;
    return respond(LspAnswer{json(std::vector<json>(count, nullptr)), std::nullopt});
  }
  if (method == "window/workDoneProgress/create" || method == "client/registerCapability" ||
      method == "client/unregisterCapability" || method == "window/showMessageRequest" ||
      method.ends_with("/refresh"))
    return respond(LspAnswer{json(nullptr), std::nullopt});
  if (method == "workspace/workspaceFolders") {
    const std::string uri = fileUriFromPath(options_.root);
    return respond(LspAnswer{json::array({{{"uri", uri}, {"name", options_.root.filename().string()}}}), std::nullopt});
  }
  if (method == "workspace/applyEdit")
    return respond(LspAnswer{json{{"applied", false}, {"failureReason", "toold applies no edits from language servers"}},
                             std::nullopt});
  if (method == "window/showDocument") return respond(LspAnswer{json{{"success", false}}, std::nullopt});
  respond(LspAnswer{std::nullopt, LspError{-32601, "toold does not handle " + method}});
}

void LspClient::handleNotification(const std::string& method, const json& params) {
  if (method == "textDocument/publishDiagnostics") return published(params);
  if (method == "$/progress") return progress(params);
  if (method == "window/logMessage" || method == "window/showMessage") {
    if (params.is_object() && params.contains("message") && params["message"].is_string())
      spdlog::debug("lsp {}: {}", options_.server.name, params["message"].get_ref<const std::string&>().substr(0, 500));
  }
}

void LspClient::published(const json& params) {
  if (!params.is_object() || !params.contains("uri") || !params["uri"].is_string()) return;
  const std::string uri = params["uri"].get<std::string>();
  const auto path = pathFromFileUri(uri);
  if (!path || !inside(*path, options_.workspace)) {
    // Never stored nor shown: what a server says of files outside the workspace is not the
    // model's business, and an unbounded map of them would be a leak.
    if (droppedOutside_++ == 0)
      spdlog::info("lsp {}: diagnostics for files outside the workspace are ignored ({})", options_.server.name,
                   uri.substr(0, 200));
    return;
  }
  Publication publication;
  if (auto version = params.find("version"); version != params.end() && version->is_number_integer())
    publication.version = version->get<int>();
  if (auto list = params.find("diagnostics"); list != params.end() && list->is_array()) {
    for (const auto& item : *list) {
      if (publication.diagnostics.size() >= kMaxDiagnosticsPerFile) break;
      if (auto diagnostic = parseLspDiagnostic(item)) publication.diagnostics.push_back(std::move(*diagnostic));
    }
  }
  publication.sequence = ++publicationCount_;
  auto& stored = publications_[uri];
  stored = std::move(publication);
  if (onDiagnostics_) onDiagnostics_(*path, stored.diagnostics);
  std::vector<std::uint64_t> ready;
  const auto settle = settleTime();
  for (auto& [key, waiter] : waiters_) {
    if (waiter.uri != uri || !matches(waiter, stored)) continue;
    waiter.matched = true;
    if (settle.count() == 0) {
      ready.push_back(key);
      continue;
    }
    // Another publication may follow at once (the semantic pass after the syntactic one): the
    // wait lingers once, from the first match, and ends with the latest. Not again for each
    // publication: a server that publishes without pause would hold the wait to its deadline.
    if (waiter.settle) continue;
    waiter.settle = std::make_unique<asio::steady_timer>(strand_);
    waiter.settle->expires_after(settle);
    std::weak_ptr<LspClient> weak = weak_from_this();
    waiter.settle->async_wait([weak, key = key](const boost::system::error_code& error) {
      if (auto self = weak.lock(); self && !error) self->finishWaiter(key, true);
    });
  }
  for (auto key : ready) finishWaiter(key, true);
}

void LspClient::progress(const json& params) {
  if (!params.is_object() || !params.contains("token") || !params.contains("value") || !params["value"].is_object())
    return;
  const std::string token = protocol::dumpBounded(params["token"], protocol::kLogRender);
  const json& value = params["value"];
  const std::string kind = value.value("kind", "");
  if (kind == "end") {
    progress_.erase(token);
    return;
  }
  if (kind != "begin" && kind != "report") return;
  if (kind == "begin" && progress_.size() >= 64) return; // a server that never ends its tokens
  Progress& work = progress_[token];
  if (value.contains("title") && value["title"].is_string()) work.title = value["title"].get<std::string>().substr(0, 200);
  if (value.contains("message") && value["message"].is_string())
    work.message = value["message"].get<std::string>().substr(0, 200);
  if (value.contains("percentage") && value["percentage"].is_number())
    work.percentage = static_cast<int>(value["percentage"].get<double>());
}

json LspClient::status() const {
  json out{{"name", options_.server.name},
           {"root", options_.root.string()},
           {"state", std::string(lspClientStateName(state_))},
           {"pid", transport_ ? transport_->pid() : 0},
           {"documents", documents_.size()},
           {"crashes", crashes_.size()}};
  if (!lastError_.empty()) out["error"] = lastError_;
  json busy = json::array();
  for (const auto& [token, work] : progress_) {
    json item{{"title", work.title}};
    if (!work.message.empty()) item["message"] = work.message;
    if (work.percentage) item["percentage"] = *work.percentage;
    busy.push_back(std::move(item));
  }
  if (!busy.empty()) out["progress"] = std::move(busy);
  return out;
}

void LspClient::stop(std::function<void()> done) {
  const State previous = state_;
  state_ = State::Stopped;
  const std::string failure = options_.server.name + " was stopped";
  failWaiting(failure);
  auto transport = transport_;
  if (!transport) return asio::post(strand_, std::move(done));
  if (previous != State::Ready || !connection_) {
    if (connection_) connection_->close(failure);
    return transport->stop(std::move(done));
  }
  // The polite way first: shutdown, then exit; the transport's grace and signals follow if the
  // server does not go.
  std::weak_ptr<LspClient> weak = weak_from_this();
  connection_->request("shutdown", json(nullptr), std::chrono::milliseconds(1000),
                       [weak, transport, failure, done = std::move(done)](LspAnswer) mutable {
                         if (auto self = weak.lock(); self && self->connection_) {
                           self->connection_->notify("exit", json(nullptr));
                           self->connection_->close(failure);
                         }
                         transport->stop(std::move(done));
                       });
}

} // namespace toold::core
