#include "core/lsp/lsp_service.h"

#include "core/lsp/lsp_uri.h"
#include "core/process/program_lookup.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <cstdlib>

namespace toold::core {

namespace asio = boost::asio;
using json = nlohmann::json;

namespace {

constexpr std::chrono::milliseconds kNotifyInterval{200};

std::optional<std::string> findInPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  return findProgram(program, {}, path ? path : "/usr/local/bin:/usr/bin:/bin");
}

} // namespace

LspService::LspService(asio::io_context& io, ProcessRunner& runner, LspServiceOptions options)
    : io_(io), runner_(runner), options_(std::move(options)), strand_(asio::make_strand(io)), notifyTimer_(strand_),
      idleTimer_(strand_) {
  if (!options_.findProgram) options_.findProgram = findInPath;
}

LspService::~LspService() = default;

bool LspService::installed(const std::string& program) const {
  std::lock_guard lock(installedMutex_);
  auto [entry, added] = installed_.try_emplace(program, false);
  if (added) entry->second = options_.findProgram(program).has_value();
  return entry->second;
}

std::vector<LspService::Served> LspService::servedBy(const std::filesystem::path& file) const {
  std::vector<Served> served;
  if (!options_.settings.enabled) return served;
  auto found = serversForFile(options_.settings, file, [this](const std::string& program) -> std::optional<std::string> {
    return installed(program) ? std::optional<std::string>(program) : std::nullopt;
  });
  for (const LspServerConfig* server : found)
    served.push_back(Served{server, lspProjectRoot(*server, file, options_.workspace)});
  return served;
}

bool LspService::serves(const std::filesystem::path& file) const {
  // Asked on every read and write: no project root is looked for here, only the extension and
  // whether the program is installed (looked up once).
  if (!options_.settings.enabled) return false;
  return !serversForFile(options_.settings, file, [this](const std::string& program) -> std::optional<std::string> {
            return installed(program) ? std::optional<std::string>(program) : std::nullopt;
          }).empty();
}

bool LspService::servesWorkspace() const {
  {
    std::lock_guard lock(installedMutex_);
    if (servesWorkspace_) return *servesWorkspace_;
  }
  bool found = false;
  if (options_.settings.enabled) {
    namespace fs = std::filesystem;
    std::error_code error;
    std::size_t seen = 0;
    fs::recursive_directory_iterator it(options_.workspace, fs::directory_options::skip_permission_denied, error);
    for (; !error && it != fs::recursive_directory_iterator() && seen < 5000 && !found; it.increment(error)) {
      ++seen;
      const std::string name = it->path().filename().string();
      const bool folder = it->is_directory(error);
      if (folder) {
        if (name.starts_with(".") || name == "node_modules" || name == "build" || name == "target" ||
            name == "vendor" || it.depth() >= 3)
          it.disable_recursion_pending();
        continue;
      }
      found = serves(it->path());
    }
  }
  std::lock_guard lock(installedMutex_);
  servesWorkspace_ = found;
  return found;
}

std::shared_ptr<LspClient> LspService::clientFor(const Served& served) {
  const auto key = std::make_pair(served.server->name, served.root.string());
  auto& client = clients_[key];
  if (!client) {
    std::weak_ptr<LspService> weak = weak_from_this();
    const std::string name = served.server->name;
    client = std::make_shared<LspClient>(
        runner_, strand_, LspClientOptions{*served.server, served.root, options_.workspace},
        [weak, name](const std::filesystem::path& file, const std::vector<LspDiagnostic>& list) {
          if (auto self = weak.lock()) self->diagnosticsChanged(name, file, list);
        });
    scheduleIdleCheck();
  }
  return client;
}

void LspService::touch(const std::filesystem::path& file, std::string text, Touch kind,
                       std::function<void(LspFileReport)> done) {
  asio::post(strand_, [self = shared_from_this(), file, text = std::move(text), kind, done = std::move(done)]() mutable {
    LspFileReport report;
    report.path = file;
    if (self->touched_.size() < 100000) self->touched_.insert(file);
    const auto served = self->stopped_ ? std::vector<Served>{} : self->servedBy(file);
    if (served.empty() || kind == Touch::Read) {
      for (const auto& one : served) self->clientFor(one)->sync(file, text, false);
      if (done) done(std::move(report));
      return;
    }
    // One wait per server; the report is sent when the last has ended.
    struct Gather {
      LspFileReport report;
      std::size_t left = 0;
      bool baseline = true;
      std::vector<LspDiagnostic> before;
      std::function<void(LspFileReport)> done;
    };
    auto gather = std::make_shared<Gather>();
    gather->report = std::move(report);
    gather->left = served.size();
    gather->done = std::move(done);
    gather->report.received = true;
    const auto deadline = std::chrono::steady_clock::now() + self->options_.settings.diagnosticsTimeout;
    for (const auto& one : served) {
      auto client = self->clientFor(one);
      gather->report.servers.push_back(client->name());
      auto judge = [client, file, text, deadline, gather] {
        const LspSynced synced = client->sync(file, text, true);
        if (synced.before) gather->before.insert(gather->before.end(), synced.before->begin(), synced.before->end());
        else gather->baseline = false;
        client->waitForDiagnostics(file, synced.version, deadline, [gather](LspWaitOutcome outcome) {
          auto& r = gather->report;
          if (outcome.received) r.diagnostics.insert(r.diagnostics.end(), outcome.diagnostics.begin(), outcome.diagnostics.end());
          else {
            r.received = false;
            r.notes.push_back(outcome.note);
          }
          if (--gather->left > 0) return;
          if (gather->baseline) r.before = std::move(gather->before);
          gather->done(std::move(r));
        });
      };
      // The version the server has not judged yet (the file was read a moment ago) is waited for
      // first, within the same deadline: then the edit knows which errors were there before it.
      if (auto unjudged = client->unjudgedVersion(file))
        client->waitForDiagnostics(file, *unjudged, deadline, [judge](LspWaitOutcome) { judge(); });
      else
        judge();
    }
  });
}

void LspService::request(const std::filesystem::path& file, std::optional<std::string> text, const std::string& capability,
                         const std::string& method, std::function<json(const std::string& uri)> params,
                         CancellationToken cancellation, std::function<void(LspRequestOutcome)> done) {
  asio::post(strand_, [self = shared_from_this(), file, text = std::move(text), capability, method,
                       params = std::move(params), cancellation, done = std::move(done)]() mutable {
    const auto served = self->stopped_ ? std::vector<Served>{} : self->servedBy(file);
    if (served.empty()) return done(LspRequestOutcome{});
    std::shared_ptr<LspClient> chosen;
    for (const auto& one : served) {
      auto client = self->clientFor(one);
      if (text) client->sync(file, *text, false);
      if (!chosen && client->supports(capability)) chosen = client;
    }
    if (!chosen) {
      std::string names;
      for (const auto& one : served) names += (names.empty() ? "" : ", ") + one.server->name;
      return done(LspRequestOutcome{served.front().server->name,
                                    LspAnswer{std::nullopt, LspError{-32601, names + " does not offer " + method}}});
    }
    // The registration lives until the answer: then a late cancellation calls nothing.
    auto registration = std::make_shared<CancellationRegistration>();
    auto handle = chosen->request(method, params(fileUriFromPath(file)), self->options_.settings.requestTimeout,
                                  [name = chosen->name(), done, registration](LspAnswer answer) {
                                    registration->reset();
                                    done(LspRequestOutcome{name, std::move(answer)});
                                  });
    if (handle->finished) return;
    *registration = cancellation.onCancel([self, chosen, handle, cancellation] {
      asio::post(self->strand_, [chosen, handle, reason = cancellation.reason()] { chosen->cancel(handle, reason); });
    });
  });
}

void LspService::diagnosticsChanged(const std::string& server, const std::filesystem::path& file,
                                    std::vector<LspDiagnostic> list) {
  {
    std::lock_guard lock(storeMutex_);
    auto& byServer = store_[file];
    if (list.empty()) byServer.erase(server);
    else byServer[server] = std::move(list);
    if (byServer.empty()) store_.erase(file);
  }
  if (!listener_ || !touched_.contains(file)) return;
  unsentChanges_[file] = true;
  if (notifyScheduled_) return;
  notifyScheduled_ = true;
  // Coalesced: a server that floods (5,000 publications a second) costs the runner one
  // notification per file every 200 ms.
  notifyTimer_.expires_after(kNotifyInterval);
  notifyTimer_.async_wait([weak = weak_from_this()](const boost::system::error_code& error) {
    if (auto self = weak.lock(); self && !error) self->flushNotifications();
  });
}

void LspService::flushNotifications() {
  notifyScheduled_ = false;
  auto files = std::move(unsentChanges_);
  unsentChanges_.clear();
  for (const auto& [file, changed] : files) listener_(file, diagnosticsOf(file));
}

std::vector<LspDiagnostic> LspService::diagnosticsOf(const std::filesystem::path& file) const {
  std::lock_guard lock(storeMutex_);
  std::vector<LspDiagnostic> all;
  if (auto found = store_.find(file); found != store_.end())
    for (const auto& [server, list] : found->second) all.insert(all.end(), list.begin(), list.end());
  return all;
}

std::map<std::filesystem::path, std::vector<LspDiagnostic>> LspService::filesWithErrors() const {
  std::lock_guard lock(storeMutex_);
  std::map<std::filesystem::path, std::vector<LspDiagnostic>> errors;
  for (const auto& [file, byServer] : store_)
    for (const auto& [server, list] : byServer)
      for (const auto& diagnostic : list)
        if (diagnostic.severity == 1) errors[file].push_back(diagnostic);
  return errors;
}

void LspService::setDiagnosticsListener(std::function<void(const std::filesystem::path&, std::vector<LspDiagnostic>)> listener) {
  asio::post(strand_, [self = shared_from_this(), listener = std::move(listener)]() mutable {
    self->listener_ = std::move(listener);
  });
}

void LspService::status(std::function<void(json)> done) const {
  auto self = std::const_pointer_cast<LspService>(shared_from_this());
  asio::post(strand_, [self, done = std::move(done)] {
    json servers = json::array();
    for (const auto& server : self->options_.settings.servers) {
      const bool found = !server.command.empty() && self->installed(server.command.front());
      servers.push_back(json{{"name", server.name},
                             {"command", server.command},
                             {"extensions", server.extensions},
                             {"installed", found},
                             {"disabled", server.disabled}});
    }
    json running = json::array();
    for (const auto& [key, client] : self->clients_) running.push_back(client->status());
    done(json{{"enabled", self->options_.settings.enabled},
              {"diagnosticsTimeout", self->options_.settings.diagnosticsTimeout.count()},
              {"servers", std::move(servers)},
              {"running", std::move(running)}});
  });
}

void LspService::scheduleIdleCheck() {
  const auto idle = options_.settings.idleTimeout;
  if (idle.count() == 0 || stopped_) return;
  idleTimer_.expires_after(std::max<std::chrono::milliseconds>(idle / 4, std::chrono::seconds(1)));
  idleTimer_.async_wait([weak = weak_from_this(), idle](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (!self || error || self->stopped_) return;
    const auto now = std::chrono::steady_clock::now();
    for (auto it = self->clients_.begin(); it != self->clients_.end();) {
      // A server a call still waits on is in use, however long ago the call began: stopping it
      // would end the wait with nothing (a write's diagnostics lost to a slow first analysis).
      if (now - it->second->lastUsed() < idle || it->second->waitedOn()) {
        ++it;
        continue;
      }
      spdlog::info("lsp {}: stopped after {} s unused", it->second->name(),
                   std::chrono::duration_cast<std::chrono::seconds>(idle).count());
      auto client = it->second;
      client->stop([client] {});
      {
        std::lock_guard lock(self->storeMutex_);
        for (auto& [file, byServer] : self->store_) byServer.erase(client->name());
        std::erase_if(self->store_, [](const auto& entry) { return entry.second.empty(); });
      }
      it = self->clients_.erase(it);
    }
    if (!self->clients_.empty()) self->scheduleIdleCheck();
  });
}

void LspService::shutdown(std::function<void()> done) {
  asio::post(strand_, [self = shared_from_this(), done = std::move(done)]() mutable {
    self->stopped_ = true;
    self->idleTimer_.cancel();
    self->notifyTimer_.cancel();
    auto clients = std::move(self->clients_);
    self->clients_.clear();
    if (clients.empty()) return done();
    auto left = std::make_shared<std::size_t>(clients.size());
    auto finished = std::make_shared<std::function<void()>>(std::move(done));
    for (auto& [key, client] : clients) {
      client->stop([client, left, finished] {
        if (--*left == 0) (*finished)();
      });
    }
  });
}

} // namespace toold::core
