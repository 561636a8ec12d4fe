// Reads in large chunks so that pipelined replies are decoded in batches, as a real client would.
#include "tests/bench/rpc_connection.h"

#include <stdexcept>

namespace toold::bench {
namespace {

constexpr std::size_t kReadChunk = 256 * 1024;
constexpr std::size_t kMaxFrameBytes = 64u << 20;
// How long a server that closed its output may take to exit before it is terminated.
constexpr auto kExitGrace = std::chrono::seconds(1);

std::string describeExit(client::ChildProcess& child) {
  auto exit = child.waitExit(client::Clock::now() + kExitGrace);
  if (!exit) exit = child.terminate(kExitGrace);
  return "it ended with " + exit->describe();
}

} // namespace

RpcConnection::RpcConnection(client::ChildProcess& child, protocol::Framing framing, std::chrono::milliseconds timeout)
    : child_(child), framing_(framing), timeout_(timeout), decoder_(framing, kMaxFrameBytes), chunk_(kReadChunk, '\0') {}

void RpcConnection::sendFramed(std::string_view bytes) {
  switch (child_.writeAll(bytes, client::Clock::now() + timeout_)) {
  case client::ChildProcess::WriteResult::Done: return;
  case client::ChildProcess::WriteResult::Timeout:
    throw std::runtime_error("the server did not read its input within " + std::to_string(timeout_.count()) + " ms");
  case client::ChildProcess::WriteResult::Closed:
    throw std::runtime_error("the server no longer reads its input (" + describeExit(child_) + ")");
  }
}

void RpcConnection::appendFrame(std::string& out, std::string_view body) const {
  // The same bytes as protocol::frameBody, which takes its body by value.
  if (framing_ == protocol::Framing::ContentLength) {
    out += "Content-Length: ";
    out += std::to_string(body.size());
    out += "\r\n\r\n";
    out += body;
  } else {
    out += body;
    out += '\n';
  }
}

void RpcConnection::receive(std::vector<std::string>& frames) {
  const std::size_t before = frames.size();
  const protocol::FrameDecoder::Sink collect = [&frames](protocol::DecodedFrame&& decoded) {
    if (decoded.error) throw std::runtime_error("the server sent a broken frame: " + decoded.error->message);
    frames.push_back(std::move(decoded.body));
  };
  while (frames.size() == before) {
    const auto n = child_.readSome(chunk_, client::Clock::now() + timeout_);
    if (!n) throw std::runtime_error("the server did not answer within " + std::to_string(timeout_.count()) + " ms");
    if (*n == 0) throw std::runtime_error("the server closed its output (" + describeExit(child_) + ")");
    decoder_.feed(std::string_view(chunk_.data(), *n), collect);
  }
}

} // namespace toold::bench
