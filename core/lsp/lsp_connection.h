// One JSON-RPC conversation with a language server, as its client: requests with ids and
// deadlines, `$/cancelRequest`, the server's own requests (answered exactly once) and
// notifications. Everything runs on the server's strand; answers whose ids toold never sent, and
// messages that are not JSON-RPC, are logged and dropped.
#pragma once

#include "core/lsp/lsp_transport.h"

#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace toold::core {

struct LspError {
  int code = 0;
  std::string message;
};

struct LspAnswer {
  std::optional<nlohmann::json> result;
  std::optional<LspError> error;
};

/// JSON-RPC codes of requests toold ended itself.
inline constexpr int kLspTimeoutCode = -32001;
inline constexpr int kLspClosedCode = -32000;
inline constexpr int kLspCancelledCode = -32800; ///< LSP's RequestCancelled

class LspConnection {
public:
  using Send = std::function<void(const nlohmann::json&)>;
  using RequestHandler =
      std::function<void(const std::string& method, const nlohmann::json& params, std::function<void(LspAnswer)> respond)>;
  using NotificationHandler = std::function<void(const std::string& method, const nlohmann::json& params)>;

  LspConnection(LspStrand strand, Send send, RequestHandler onRequest, NotificationHandler onNotification);
  ~LspConnection();
  LspConnection(const LspConnection&) = delete;
  LspConnection& operator=(const LspConnection&) = delete;

  /// Sends a request; `onAnswer` runs once, on the strand (timeout 0: none). Returns its id.
  std::int64_t request(const std::string& method, nlohmann::json params, std::chrono::milliseconds timeout,
                       std::function<void(LspAnswer)> onAnswer);
  /// Tells the server ($/cancelRequest) and ends the request at once with `reason`.
  void cancel(std::int64_t id, const std::string& reason);
  void notify(const std::string& method, nlohmann::json params);
  void receive(nlohmann::json message);
  /// Every request still waiting ends with `reason`; nothing more is sent.
  void close(const std::string& reason);
  std::size_t pendingCount() const { return pending_.size(); }

private:
  struct Pending {
    std::string method;
    std::function<void(LspAnswer)> onAnswer;
    std::unique_ptr<boost::asio::steady_timer> timer;
  };
  void finish(std::int64_t id, LspAnswer answer);
  void answerServer(const nlohmann::json& id, LspAnswer answer);

  LspStrand strand_;
  Send send_;
  RequestHandler onRequest_;
  NotificationHandler onNotification_;
  std::map<std::int64_t, Pending> pending_;
  std::int64_t nextId_ = 1;
  bool closed_ = false;
  std::string closeReason_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace toold::core
