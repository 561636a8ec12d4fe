// The language servers of one Location: which serve a file (by extension, when installed), one
// client per (server, project root) started on first touch, documents kept in step as tools read
// and change files, diagnostics gathered across servers, requests for the `lsp` tool, idle servers
// stopped, and every server ended at shutdown. Public members may be called from any thread;
// the work runs on the service's strand and callbacks are called there.
#pragma once

#include "core/base/cancellation.h"
#include "core/lsp/lsp_client.h"
#include "core/lsp/lsp_config.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace toold::core {

class ProcessRunner;

struct LspServiceOptions {
  std::filesystem::path workspace; ///< canonical
  LspSettings settings;
  /// Where a server's program is; nullopt when not installed. Default: toold's PATH.
  std::function<std::optional<std::string>(const std::string& program)> findProgram;
};

/// The diagnostics of one file after a touch, across the servers that serve it.
struct LspFileReport {
  std::filesystem::path path;
  std::vector<std::string> servers;       ///< the servers that serve it, by name
  bool received = false;                  ///< every server published for the version sent
  std::vector<LspDiagnostic> diagnostics; ///< the latest of each server, together
  /// Before the change, when every server's diagnostics of the previous version were known.
  std::optional<std::vector<LspDiagnostic>> before;
  std::vector<std::string> notes; ///< per server that did not publish in time: why
};

/// What a request to a file's server answered.
struct LspRequestOutcome {
  std::string server; ///< the server asked; empty when none serves the file
  LspAnswer answer;
};

class LspService : public std::enable_shared_from_this<LspService> {
public:
  LspService(boost::asio::io_context& io, ProcessRunner& runner, LspServiceOptions options);
  ~LspService();
  LspService(const LspService&) = delete;
  LspService& operator=(const LspService&) = delete;

  const LspSettings& settings() const { return options_.settings; }
  /// Whether any server serves `file` (its extension, its program installed).
  bool serves(const std::filesystem::path& file) const;
  /// Whether an installed server serves a file of the workspace: a look at its first few levels
  /// (at most 5,000 entries, hidden and dependency folders skipped), made once. The `lsp` tool
  /// is offered only then.
  bool servesWorkspace() const;

  enum class Touch {
    Read,    ///< opened (or brought up to date) without waiting: the first edit finds it warm
    Changed, ///< written by a tool: changed and saved, and its diagnostics waited for
  };
  /// Brings `file`'s document to `text` in every server that serves it. For Changed, `done` gets
  /// the diagnostics of that version once every server published them, or at the diagnostics
  /// timeout; for Read, at once (with no diagnostics). A file no server serves: at once, empty.
  void touch(const std::filesystem::path& file, std::string text, Touch kind, std::function<void(LspFileReport)> done);
  /// Sends `method` to the first server of `file` that announced `capability`, after bringing the
  /// document to `text` (nullopt: as it is, for a request that follows another); `params` gets
  /// the document's URI. Bounded by the request timeout and
  /// ended early by `cancellation`.
  void request(const std::filesystem::path& file, std::optional<std::string> text, const std::string& capability,
               const std::string& method, std::function<nlohmann::json(const std::string& uri)> params,
               CancellationToken cancellation, std::function<void(LspRequestOutcome)> done);

  /// The latest diagnostics of `file` (every server's), and of every file with errors now.
  std::vector<LspDiagnostic> diagnosticsOf(const std::filesystem::path& file) const;
  std::map<std::filesystem::path, std::vector<LspDiagnostic>> filesWithErrors() const;
  /// Called (on the strand) when the diagnostics of a file a tool touched changed; at most every
  /// 200 ms per file.
  void setDiagnosticsListener(std::function<void(const std::filesystem::path&, std::vector<LspDiagnostic>)> listener);

  /// {"enabled", "servers": [{name, command, extensions, installed, disabled}], "running": [client status…]}
  void status(std::function<void(nlohmann::json)> done) const;
  /// Stops every server (shutdown, exit, then signals); `done` once all are gone.
  void shutdown(std::function<void()> done);

private:
  struct Served {
    const LspServerConfig* server;
    std::filesystem::path root;
  };
  std::vector<Served> servedBy(const std::filesystem::path& file) const;
  std::shared_ptr<LspClient> clientFor(const Served& served);
  void diagnosticsChanged(const std::string& server, const std::filesystem::path& file, std::vector<LspDiagnostic> list);
  void flushNotifications();
  void scheduleIdleCheck();

  boost::asio::io_context& io_;
  ProcessRunner& runner_;
  LspServiceOptions options_;
  LspStrand strand_;
  /// Whether `program` is installed, looked up once (the first touch of a file it serves).
  bool installed(const std::string& program) const;
  mutable std::mutex installedMutex_;
  mutable std::map<std::string, bool> installed_;
  mutable std::optional<bool> servesWorkspace_; ///< under installedMutex_ once computed
  std::map<std::pair<std::string, std::string>, std::shared_ptr<LspClient>> clients_; ///< by (server, root)
  mutable std::mutex storeMutex_;
  std::map<std::filesystem::path, std::map<std::string, std::vector<LspDiagnostic>>> store_; ///< file → server → list
  std::function<void(const std::filesystem::path&, std::vector<LspDiagnostic>)> listener_;
  std::map<std::filesystem::path, bool> unsentChanges_;
  std::set<std::filesystem::path> touched_; ///< files the tools read or changed (on the strand)
  boost::asio::steady_timer notifyTimer_;
  bool notifyScheduled_ = false;
  boost::asio::steady_timer idleTimer_;
  bool stopped_ = false;
};

} // namespace toold::core
