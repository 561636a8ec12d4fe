// toold-bench-floor: the least a JSON-RPC server over stdio can do. One thread, blocking reads,
// every request answered `{}` in the framing it came in. Measured next to real servers, it shows
// what the machine itself costs per round trip (pipes, wake-ups), so their numbers can be read
// against it rather than against an absolute that depends on the host.
#include "protocol/framing.h"
#include "tests/bench/message_scan.h"
#include "tests/bench/write_all.h"

#include <string>
#include <unistd.h>

int main() {
  using namespace toold;
  protocol::FrameDecoder decoder(protocol::Framing::Auto, 64u << 20);
  std::string chunk(256 * 1024, '\0');
  std::string out;
  const protocol::FrameDecoder::Sink answer = [&](protocol::DecodedFrame&& frame) {
    if (frame.error) return;
    const bench::MessageShape shape = bench::scanMessage(frame.body);
    if (!shape.hasMethod || !shape.id) return; // notifications and replies need no answer
    const std::string body = R"({"jsonrpc":"2.0","id":)" + std::to_string(*shape.id) + R"(,"result":{}})";
    out += protocol::frameBody(body, decoder.framing());
  };
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    decoder.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), answer);
    // One write per read: a pipelining client's answers leave together.
    if (!out.empty() && !bench::writeAll(STDOUT_FILENO, out)) return 1;
    out.clear();
  }
}
