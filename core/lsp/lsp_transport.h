// A language server's process and its byte stream: LSP's Content-Length frames both ways on stdin
// and stdout, each body parsed as bounded JSON (no depth or size a server sends can crash toold),
// stderr kept as a tail for the reason of a crash and logged at debug level. Stopping closes
// stdin, gives the server a grace period, then SIGTERM to its group and SIGKILL after the runner's
// grace; the group's stragglers are killed once it exited.
#pragma once

#include "core/base/cancellation.h"
#include "core/process/process_runner.h"
#include "core/process/stderr_tail.h"
#include "protocol/framing.h"

#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace toold::core {

using LspStrand = boost::asio::strand<boost::asio::io_context::executor_type>;

/// The largest frame toold takes from a language server: a workspace/symbol or references answer
/// on a large project is a few MiB; anything far larger is a broken server, and is dropped.
inline constexpr std::size_t kLspMaxFrameBytes = 16 * 1024 * 1024;
inline constexpr std::chrono::milliseconds kLspExitGrace{1500};

class LspTransport : public std::enable_shared_from_this<LspTransport> {
public:
  /// Called on the strand, in order.
  struct Events {
    std::function<void(nlohmann::json message)> message;
    /// A frame was dropped (over the cap, not JSON, nested too deep): why, for the log.
    std::function<void(std::string why)> dropped;
    /// The server is gone, and why (exit status, its stderr's last lines). Once; not after stop().
    std::function<void(std::string reason)> closed;
  };

  LspTransport(ProcessRunner& runner, LspStrand strand, std::string serverName, ProcessSpec spec);
  ~LspTransport();
  LspTransport(const LspTransport&) = delete;
  LspTransport& operator=(const LspTransport&) = delete;

  void start(Events events);
  void send(const nlohmann::json& message);
  /// Ends the server for good: stdin closed, then signals after the grace; `done` on the strand.
  void stop(std::function<void()> done);
  int pid() const;

private:
  void onOutput(OutputStream stream, std::string_view bytes);
  void exited(const ProcessOutcome& outcome);

  ProcessRunner& runner_;
  LspStrand strand_;
  std::string name_;
  ProcessSpec spec_;
  Events events_;
  CancellationSource terminate_;
  std::shared_ptr<ChildInput> input_;
  boost::asio::steady_timer graceTimer_;
  protocol::FrameDecoder decoder_;
  StderrTail stderr_;
  bool stopping_ = false;
  bool exited_ = false;
  std::function<void()> stopped_;
};

} // namespace toold::core
