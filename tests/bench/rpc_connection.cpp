// Reads in large chunks so that pipelined replies are decoded in batches, as a real client would.
#include "tests/bench/rpc_connection.h"

#include <cstring>
#include <stdexcept>
#include <sys/wait.h>

namespace toold::bench {
namespace {

constexpr std::size_t kReadChunk = 256 * 1024;
constexpr std::size_t kMaxFrameBytes = 64u << 20;
constexpr auto kExitGrace = std::chrono::seconds(1);

std::string describeExit(int status) {
  if (WIFEXITED(status)) return "it exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("it was killed by ") + strsignal(WTERMSIG(status));
  return "it is still running";
}

} // namespace

RpcConnection::RpcConnection(ChildProcess& child, protocol::Framing framing, std::chrono::milliseconds timeout)
    : child_(child), framing_(framing), timeout_(timeout), decoder_(framing, kMaxFrameBytes), chunk_(kReadChunk, '\0') {}

std::string RpcConnection::frame(std::string_view body) const {
  return protocol::frameBody(std::string(body), framing_);
}

void RpcConnection::receive(std::vector<std::string>& frames) {
  const std::size_t before = frames.size();
  const protocol::FrameDecoder::Sink collect = [&frames](protocol::DecodedFrame&& decoded) {
    if (decoded.error) throw std::runtime_error("the server sent a broken frame: " + decoded.error->message);
    frames.push_back(std::move(decoded.body));
  };
  while (frames.size() == before) {
    const std::size_t n = child_.readSome(chunk_.data(), chunk_.size(), timeout_);
    if (n == 0) throw std::runtime_error("the server closed its output (" + describeExit(child_.wait(kExitGrace)) + ")");
    decoder_.feed(std::string_view(chunk_.data(), n), collect);
  }
}

} // namespace toold::bench
