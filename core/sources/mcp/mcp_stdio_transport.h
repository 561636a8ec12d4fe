// A local MCP server: a child on core's process runner, in a process group of its own, with
// newline-delimited JSON-RPC on its stdin and stdout. stderr is read line by line into toold's log
// with the server's name (at most 20 lines a second, the rest counted), and its last 4 KiB are
// kept for the reason of a crash. Stopping closes stdin, gives the server 2 s to exit, then sends
// SIGTERM to its group and SIGKILL 2 s later; once it exited, the rest of its group is killed.
#pragma once

#include "core/base/cancellation.h"
#include "core/process/process_runner.h"
#include "core/process/stderr_tail.h"
#include "core/sources/mcp/mcp_connection.h"
#include "core/sources/mcp/mcp_line_reader.h"
#include "core/sources/mcp/mcp_transport.h"

#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <memory>

namespace toold::core {

inline constexpr std::chrono::milliseconds kMcpCloseGrace{2000};
inline constexpr std::size_t kMcpStderrTail = 4096;

class McpStdioTransport final : public McpTransport, public std::enable_shared_from_this<McpStdioTransport> {
public:
  McpStdioTransport(ProcessRunner& runner, McpStrand strand, std::string serverName, ProcessSpec spec);
  ~McpStdioTransport() override;

  void start(Events events) override;
  void send(std::string frame) override;
  void stop(std::function<void()> done) override;
  int pid() const override;
  void afterSent(std::function<void()> then) override;

private:
  void onOutput(OutputStream stream, std::string_view bytes);
  void logStderrLine(std::string_view line);
  void exited(const ProcessOutcome& outcome);

  ProcessRunner& runner_;
  McpStrand strand_;
  std::string name_;
  ProcessSpec spec_;
  Events events_;
  CancellationSource terminate_;
  std::shared_ptr<ChildInput> input_;
  boost::asio::steady_timer graceTimer_;
  std::unique_ptr<McpLineReader> reader_;
  // stderr
  StderrTail stderr_{kMcpStderrTail};
  std::chrono::steady_clock::time_point logWindow_{};
  unsigned loggedInWindow_ = 0;
  unsigned droppedInWindow_ = 0;
  // All on the server's strand, where the child runs too.
  bool stopping_ = false;
  bool exited_ = false;
  std::function<void()> stopped_;
};

} // namespace toold::core
