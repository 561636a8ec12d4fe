// toold-bench-read-floor: the least a server can do to answer a small `read`. One thread that
// does not sleep while requests come (it polls its input without pause, so no wake-up is paid
// on its side), and for each `call` of `read`: open the file, fstat, one pread of it whole (up
// to 1 MiB), close, find the window's lines and escape them into the answer, "<number>: <text>"
// as toold shows them. No schema, no permission, no path checks, no line index. `snapshot` is answered with an
// id and anything else with `{}`. Measured next to toold by scripts/bench-rpc, it shows what one
// read in flight costs on the machine itself: pipes, wake-ups of the client, the file system calls.
#include "protocol/framing.h"
#include "protocol/json_writer.h"
#include "tests/bench/message_scan.h"
#include "tests/bench/write_all.h"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using toold::bench::memberText;

constexpr std::size_t kMaxFileBytes = 1u << 20;
constexpr auto kSpinFor = std::chrono::milliseconds(1);

/// A member of an object that is itself a positive integer; `fallback` when absent or not one.
std::uint64_t numberMember(std::string_view object, std::string_view key, std::uint64_t fallback) {
  const auto text = memberText(object, key).value_or(std::string_view());
  std::uint64_t value = 0;
  if (std::from_chars(text.data(), text.data() + text.size(), value).ec != std::errc() || value == 0) return fallback;
  return value;
}

/// The numbered lines [offset, offset + limit) of the file at `path` (given without escapes),
/// appended to `out` as they are shown; false when the file cannot be read.
bool appendWindow(std::string& out, const std::string& path, std::uint64_t offset, std::uint64_t limit,
                  std::string& file) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat status {};
  const bool regular = ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode);
  // One pread of it whole: for a file this small, cheaper than reading only up to the window in
  // blocks and counting newlines as they come (4-5 pings a read that way, against 2.5-3.5).
  const ssize_t got = regular ? ::pread(fd, file.data(), file.size(), 0) : -1;
  ::close(fd);
  if (got < 0) return false;
  const char* at = file.data();
  const char* end = at + got;
  std::uint64_t line = 1;
  for (; line < offset && at < end; ++line) {
    const auto* newline = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
    at = newline == nullptr ? end : newline + 1;
  }
  char number[24];
  for (std::uint64_t shown = 0; shown < limit && at < end; ++shown, ++line) {
    const auto* newline = static_cast<const char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
    const char* stop = newline == nullptr ? end : newline;
    if (shown > 0) out += '\n';
    out.append(number, std::to_chars(number, number + sizeof number, line).ptr);
    out += ": ";
    out.append(at, static_cast<std::size_t>(stop - at));
    at = newline == nullptr ? end : newline + 1;
  }
  return true;
}

/// A member's raw text, empty when absent (an optional here upsets GCC's uninitialized check).
std::string_view member(std::string_view object, std::string_view key) {
  return object.empty() ? std::string_view() : memberText(object, key).value_or(std::string_view());
}

/// The `result` of one request, or of `read` called through `call`.
void appendResult(std::string& out, std::string_view body, std::string& file) {
  const std::string_view method = member(body, "method");
  if (method == R"("snapshot")") {
    out += R"({"snapshot":"floor"})";
    return;
  }
  const std::string_view params = member(body, "params");
  const std::string_view input = member(params, "input");
  const std::string_view path = member(input, "filePath");
  if (method != R"("call")" || member(params, "name") != R"("read")" || path.size() < 2 ||
      path.find('\\') != std::string_view::npos) {
    out += "{}";
    return;
  }
  std::string window;
  if (!appendWindow(window, std::string(path.substr(1, path.size() - 2)), numberMember(input, "offset", 1),
                    numberMember(input, "limit", 2000), file)) {
    out += R"({"status":"error","errorMessage":"cannot read the file"})";
    return;
  }
  out += R"({"status":"completed","content":[{"type":"text","text":)";
  toold::protocol::appendJsonString(out, window);
  out += R"(}]})";
}

} // namespace

int main() {
  using namespace toold;
  protocol::FrameDecoder decoder(protocol::Framing::Auto, 64u << 20);
  std::string chunk(256 * 1024, '\0');
  std::string file(kMaxFileBytes, '\0');
  std::string out;
  const protocol::FrameDecoder::Sink answer = [&](protocol::DecodedFrame&& frame) {
    if (frame.error) return;
    const bench::MessageShape shape = bench::scanMessage(frame.body);
    if (!shape.hasMethod || !shape.id) return; // notifications and replies need no answer
    std::string body = R"({"jsonrpc":"2.0","id":)" + std::to_string(*shape.id) + R"(,"result":)";
    appendResult(body, frame.body, file);
    body += '}';
    out += protocol::frameBody(std::move(body), decoder.framing());
  };
  // Never sleeping while it is being measured is what makes this a floor for one request in
  // flight: toold's reader polls for 50 us before it sleeps, this one for a whole millisecond
  // after the last frame, and only sleeps while the benchmark measures another server.
  const int flags = ::fcntl(STDIN_FILENO, F_GETFL);
  if (flags < 0 || ::fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK) != 0) return 1;
  auto lastFrame = std::chrono::steady_clock::now();
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
      if (std::chrono::steady_clock::now() - lastFrame < kSpinFor) continue;
      pollfd input{STDIN_FILENO, POLLIN, 0};
      ::poll(&input, 1, -1);
      lastFrame = std::chrono::steady_clock::now();
      continue;
    }
    if (n <= 0) return 0;
    lastFrame = std::chrono::steady_clock::now();
    decoder.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), answer);
    if (!out.empty() && !bench::writeAll(STDOUT_FILENO, out)) return 1;
    out.clear();
  }
}
