// The REPL's side of the JSON-RPC conversation: ids, the requests awaiting replies, the session's
// snapshot (the tools a call goes through), toold's questions waiting for the person, and the
// thread that reads, renders and prints toold's output.
#pragma once

#include "core/process/child_process.h"
#include "daemon/repl/repl_catalog.h"
#include "daemon/repl/repl_console.h"
#include "daemon/repl/repl_fixture.h"
#include "daemon/repl/repl_render.h"
#include "daemon/repl/repl_touched_files.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace toold::repl {

using nlohmann::json;

struct SessionOptions {
  bool interactive = false;
  bool quiet = false;          ///< print answers only
  std::string sessionID = "repl";
  std::string agent = "build";
  std::string model;           ///< empty: the snapshot names no model
  std::string workspace;       ///< toold's directory, canonical (the files a recording keeps)
};

/// Why a request was sent, which decides how its answer is shown.
enum class Purpose {
  Typed,     ///< the person asked for it: shown, and counted when it fails
  Snapshot,  ///< the REPL's own snapshot: its tools fill the catalog
  Lifecycle, ///< initialize and shutdown: shown in full only in pretty and raw modes
};

class ReplSession {
public:
  /// Starts reading toold's output at once; what arrives is printed through `console`.
  ReplSession(client::ChildProcess& child, Console& console, ToolCatalog& catalog, SessionOptions options);
  ~ReplSession();
  ReplSession(const ReplSession&) = delete;
  ReplSession& operator=(const ReplSession&) = delete;

  /// Sends a request with the next id and returns that id; nullopt when toold is gone.
  std::optional<json> request(const std::string& method, const std::optional<json>& params, Purpose purpose = Purpose::Typed,
                              const std::string& tool = "");
  bool notify(const std::string& method, const std::optional<json>& params);
  /// Sends a pasted message unchanged; the requests in it are awaited like typed ones.
  bool sendRaw(const json& message, std::string& why);
  /// Answers a request toold sent, waiting up to `wait` for it to arrive (piped input runs ahead
  /// of toold). False, with `why` set, when toold asked nothing with that id.
  bool reply(const json& id, const json& result, std::chrono::milliseconds wait, std::string& why);

  /// Calls a tool through the session's snapshot. Nullopt, with `why`, when there is none.
  std::optional<json> callTool(const std::string& tool, const json& input, std::string& why);
  /// Takes a new snapshot (sessionID, agent, model); the catalog follows its answer.
  void refreshSnapshot();
  void setSessionName(const std::string& name);
  void setModel(const std::string& model);
  std::string sessionName();
  /// Waits while a snapshot or a registration is in flight, so a call sees the tools they make.
  bool waitForTools(std::chrono::milliseconds timeout);

  /// The prompt for the oldest question toold is waiting on; empty when there is none.
  std::string askPrompt();
  bool hasAsk();
  /// Answers the oldest question with a typed line. False, with `why`, when the line is no
  /// answer (the question stays and is asked again).
  bool answerAsk(const std::string& line, std::string& why);

  /// Cancels the newest running typed request: its id, or nullopt when none runs.
  std::optional<json> cancelNewest();
  bool cancel(const json& id, std::string& why);

  /// The id of the last request the person sent (typed or pasted), if any.
  std::optional<json> lastTypedId();
  /// Waits until `id` is answered or toold asks the person something (which a script's next
  /// line answers). False on the timeout.
  bool waitForReplyOrAsk(const json& id, std::chrono::milliseconds timeout);
  /// Waits until `id` is answered (or toold is gone, or the timeout passes). True when answered.
  bool waitForReply(const json& id, std::chrono::milliseconds timeout);
  /// Waits until every request sent was answered. True when none is left.
  bool waitForAllReplies(std::chrono::milliseconds timeout);
  /// The same, but returns early (false) when toold asks the person something.
  bool waitForAllRepliesOrAsk(std::chrono::milliseconds timeout);
  /// Declines every question toold is waiting on (a permission ask is rejected, a question
  /// dismissed, any other request answered with an error): a script whose input ended can
  /// answer none. What was declined, one description each.
  std::vector<std::string> declineAsks();
  std::size_t unanswered();
  /// True once toold closed its output (it exited, or is about to).
  bool serverGone();
  /// Typed requests that failed, plus the local errors counted with countFailure().
  std::size_t failures() const { return failures_; }
  void countFailure() { ++failures_; }

  void setMode(OutputMode mode) { mode_ = mode; }
  void setLimit(std::size_t lines) { limit_ = lines; }

  /// Keeps a workspace file as it is now for a recording, unless it was kept (or named) before.
  void touchFile(const std::string& path);
  /// The conversation so far as a fixture (docs/fixtures.md): every message sent whose answer
  /// arrived, and every message received, volatile values as `$any` or captures, and the
  /// workspace files the calls named as they were before the first of them.
  std::string fixture(FixtureSetting setting);

  /// Ends toold's input and waits for the reader to see the end of its output.
  void finish();

private:
  struct Pending {
    std::string method;
    std::string tool;
    std::string callID;
    Purpose purpose;
    std::chrono::steady_clock::time_point sent;
    std::uint64_t order;
    bool cancelled = false;
  };
  struct Ask {
    json id;
    std::string method;
    json params;
  };

  void readLoop();
  void handleFrame(const std::string& body);
  void handleMessage(const json& message, std::string& text, bool& changed);
  void handleAnswer(const json& message, std::string& text, bool& changed);
  void handleSnapshotAnswer(const json& answer);
  std::string progressText(const json& message);
  std::string askDetails(const json& message);
  bool send(const json& message);
  void show(std::string text);
  std::optional<json> sendRequest(const std::string& method, const json& params, Pending pending);

  client::ChildProcess& child_;
  Console& console_;
  ToolCatalog& catalog_;
  std::atomic<OutputMode> mode_ = OutputMode::Text;
  std::atomic<std::size_t> limit_ = 0;
  std::atomic<std::size_t> failures_ = 0;

  std::mutex writeMutex_; ///< the reader thread sends too (a snapshot after list_changed)
  std::mutex mutex_;
  std::condition_variable changed_;
  SessionOptions options_;
  std::int64_t nextId_ = 0;
  std::uint64_t nextOrder_ = 0;
  std::uint64_t nextCall_ = 0;
  std::map<std::string, Pending> pending_; ///< by the id's JSON text
  std::deque<Ask> asks_;                   ///< toold's requests to answer, oldest first
  std::string snapshot_;
  std::string toolsHash_; ///< the definitions the catalog holds: a new snapshot of the same ones leaves them out
  std::optional<json> lastTyped_;
  bool snapshotStale_ = false; ///< the tools changed while a snapshot was being taken
  bool snapshotApplying_ = false; ///< a snapshot's answer is taken off pending_ but its tools not yet in the catalog
  std::vector<RecordedMessage> transcript_;
  TouchedFiles touched_;
  bool gone_ = false;
  std::thread reader_;
};

} // namespace toold::repl
