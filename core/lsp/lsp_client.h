// One language server for one project root: started on first use, `initialize`d, kept in step
// with the documents toold touched (full text, a version per change), its diagnostics kept per
// document and version, its progress tokens tracked (a server still indexing says so), its
// requests to toold answered. A crash fails what waited on it; the next use starts it again after
// a back-off (1 s, doubling to 30 s), and five crashes within ten minutes give up for good.
// Everything runs on the strand it is given.
#pragma once

#include "core/lsp/lsp_config.h"
#include "core/lsp/lsp_connection.h"
#include "core/lsp/lsp_diagnostic.h"
#include "core/lsp/lsp_transport.h"

#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace toold::core {

inline constexpr std::chrono::milliseconds kLspInitializeTimeout{45000};
inline constexpr int kLspCrashesBeforeGivingUp = 5;

struct LspClientOptions {
  LspServerConfig server;
  std::filesystem::path root;      ///< the project root the server is started for
  std::filesystem::path workspace; ///< diagnostics for files outside it are dropped
};

/// What a wait for a document's diagnostics found.
struct LspWaitOutcome {
  bool received = false;                  ///< the server published for this version
  std::vector<LspDiagnostic> diagnostics; ///< its latest publication for the document
  std::string note;                       ///< why nothing was received ("clangd is still starting")
};

/// What sync() did to a document.
struct LspSynced {
  int version = 0;
  bool changed = false; ///< a didOpen or didChange was sent (or queued while starting)
  /// The diagnostics of the version before this one, when they were known: the baseline that
  /// tells new errors from old ones. nullopt: the document was not open, or its diagnostics had
  /// not arrived.
  std::optional<std::vector<LspDiagnostic>> before;
};

class LspClient : public std::enable_shared_from_this<LspClient> {
public:
  enum class State { Idle, Starting, Ready, Crashed, Broken, Stopped };
  using DiagnosticsListener = std::function<void(const std::filesystem::path&, const std::vector<LspDiagnostic>&)>;

  LspClient(ProcessRunner& runner, LspStrand strand, LspClientOptions options, DiagnosticsListener onDiagnostics);
  ~LspClient();

  const std::string& name() const { return options_.server.name; }
  const std::filesystem::path& root() const { return options_.root; }
  State state() const { return state_; }
  std::chrono::steady_clock::time_point lastUsed() const { return lastUsed_; }
  /// Whether a call is waiting on the server: for its start, its diagnostics or an answer. Such a
  /// server is in use however long ago the call began (the idle timeout must not stop it).
  bool waitedOn() const;

  /// Opens `file` with `text`, or sends the change when the text differs from what the server has;
  /// `saved` adds a didSave (the text is on disk). Starts the server when needed.
  LspSynced sync(const std::filesystem::path& file, const std::string& text, bool saved);
  /// The version of `file` the server was sent and has not published diagnostics for yet; nullopt
  /// when it has (or the file is not open). An edit waits for it first, so that it knows the
  /// errors that were there before it.
  std::optional<int> unjudgedVersion(const std::filesystem::path& file) const;
  /// Calls `done` once the server published diagnostics for `version` of `file` (and, for a
  /// server that publishes in phases, nothing more came for a moment), or at `deadline`.
  void waitForDiagnostics(const std::filesystem::path& file, int version, std::chrono::steady_clock::time_point deadline,
                          std::function<void(LspWaitOutcome)> done);
  /// A request once the server is ready (queued while it starts); fails at once when it cannot
  /// start. `cancelled` ends it early, telling the server.
  struct RequestHandle {
    std::int64_t id = 0;     ///< the connection's id once sent
    bool finished = false;   ///< answered, failed or cancelled
    std::function<void(LspAnswer)> done;
  };
  std::shared_ptr<RequestHandle> request(const std::string& method, nlohmann::json params,
                                         std::chrono::milliseconds timeout, std::function<void(LspAnswer)> done);
  /// Ends a request toold no longer waits for, telling the server when it was sent.
  void cancel(const std::shared_ptr<RequestHandle>& handle, const std::string& reason);
  /// Whether the server announced `capability` (a key of its ServerCapabilities, not false/null);
  /// before it is ready: true (the answer will tell).
  bool supports(const std::string& capability) const;
  /// The latest diagnostics of `file`, if any were published.
  std::optional<std::vector<LspDiagnostic>> diagnostics(const std::filesystem::path& file) const;
  /// {"name", "root", "state", "pid", "documents", "progress", "crashes", "error"}.
  nlohmann::json status() const;
  /// shutdown, exit, and the process ended; `done` on the strand. The client is not used again.
  void stop(std::function<void()> done);

private:
  using Clock = std::chrono::steady_clock;
  struct Document {
    std::filesystem::path path;
    int version = 0;
    std::size_t hash = 0;
    bool open = false;                 ///< didOpen sent to the running server
    std::optional<std::string> unsent; ///< text to open with once the server is ready
    std::uint64_t syncedAt = 0;        ///< the publication counter when it was last sent
  };
  struct Publication {
    std::optional<int> version;
    std::vector<LspDiagnostic> diagnostics;
    std::uint64_t sequence = 0;
  };
  struct Waiter {
    std::string uri;
    int version = 0;
    std::uint64_t after = 0;
    std::function<void(LspWaitOutcome)> done;
    std::unique_ptr<boost::asio::steady_timer> deadline;
    std::unique_ptr<boost::asio::steady_timer> settle;
    bool matched = false;
  };
  struct Progress {
    std::string title;
    std::string message;
    std::optional<int> percentage;
  };

  void start();
  void initialized(LspAnswer answer);
  void crashed(const std::string& reason);
  /// Ends what waits for the server — queued requests with `failure`, diagnostics waits with
  /// the state's note.
  void failWaiting(const std::string& failure);
  void openOrChange(const std::string& uri, Document& document, const std::string& text);
  void handleRequest(const std::string& method, const nlohmann::json& params, std::function<void(LspAnswer)> respond);
  void handleNotification(const std::string& method, const nlohmann::json& params);
  void published(const nlohmann::json& params);
  void progress(const nlohmann::json& params);
  bool matches(const Waiter& waiter, const Publication& publication) const;
  void finishWaiter(std::uint64_t key, bool received);
  std::string notReadyNote() const;
  std::chrono::milliseconds settleTime() const;
  bool canStartNow() const;

  ProcessRunner& runner_;
  LspStrand strand_;
  LspClientOptions options_;
  DiagnosticsListener onDiagnostics_;
  State state_ = State::Idle;
  std::shared_ptr<LspTransport> transport_;
  std::unique_ptr<LspConnection> connection_;
  nlohmann::json capabilities_ = nlohmann::json::object();
  std::map<std::string, Document> documents_;       ///< by URI
  std::map<std::string, Publication> publications_; ///< by URI
  std::map<std::uint64_t, Waiter> waiters_;
  std::uint64_t nextWaiter_ = 1;
  std::uint64_t publicationCount_ = 0;
  std::map<std::string, Progress> progress_; ///< by token (as text)
  std::deque<std::function<void(const std::string* failure)>> whenReady_;
  std::vector<Clock::time_point> crashes_;
  Clock::time_point restartAt_{};
  std::string lastError_;
  Clock::time_point lastUsed_ = Clock::now();
  std::size_t droppedOutside_ = 0;
  std::uint64_t generation_ = 0; ///< of the running process: events of an earlier one are ignored
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

std::string_view lspClientStateName(LspClient::State state);

} // namespace toold::core
