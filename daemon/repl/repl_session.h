// The REPL's side of the JSON-RPC conversation: ids, the requests awaiting replies, the requests
// toold sent that await the user's :reply, and the thread that reads and prints toold's output.
#pragma once

#include "core/process/child_process.h"
#include "daemon/repl/repl_console.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace toold::repl {

using nlohmann::json;

class ReplSession {
public:
  /// Starts reading toold's output at once; what arrives is printed through `console`.
  ReplSession(client::ChildProcess& child, Console& console);
  ~ReplSession();
  ReplSession(const ReplSession&) = delete;
  ReplSession& operator=(const ReplSession&) = delete;

  /// Sends a request with the next id, shown as `--> METHOD (id N)`, and returns that id;
  /// nullopt when toold is gone.
  std::optional<std::int64_t> request(const std::string& method, const std::optional<json>& params);
  bool notify(const std::string& method, const std::optional<json>& params);
  /// Answers a request toold sent, waiting up to `wait` for it to arrive (piped input runs ahead
  /// of toold). False, with `why` set, when toold asked nothing with that id.
  bool reply(const json& id, const json& result, std::chrono::milliseconds wait, std::string& why);

  /// Waits until `id` is answered (or toold is gone, or the timeout passes). True when answered.
  bool waitForReply(std::int64_t id, std::chrono::milliseconds timeout);
  /// Waits until every request sent was answered. True when none is left.
  bool waitForAllReplies(std::chrono::milliseconds timeout);
  std::size_t unanswered();
  /// True once toold closed its output (it exited, or is about to).
  bool serverGone();

  /// Ends toold's input and waits for the reader to see the end of its output.
  void finish();

private:
  void readLoop();
  void handleFrame(const std::string& body);
  bool send(const json& message);

  client::ChildProcess& child_;
  Console& console_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::int64_t nextId_ = 0;
  std::set<std::int64_t> awaiting_;        ///< our requests without a reply yet
  std::set<std::string> serverRequests_;   ///< ids (as JSON text) of toold's requests to answer
  bool gone_ = false;
  std::thread reader_;
};

} // namespace toold::repl
