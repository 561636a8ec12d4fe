// toold-bench-write-floor: the least a server can do for a `write` that keeps toold's promises
// (docs/tools.md, "Atomic writes"). For each request with params {path, content}: the frame is
// parsed whole with toold's own JSON reader (protocol/json_reader), as toold must, the content
// written to a new file beside the target, flushed, renamed over the target, and the folder
// flushed; the answer is `{}`. No schema, no permission, no stamp, no reading of the old file, no
// diff, no journal. Measured next to toold and the MCP filesystem server by bench-files, it is
// the yardstick of what a durable write of the file costs on the machine itself, the part of
// toold's time no work of its own can remove.
#include "protocol/framing.h"
#include "protocol/json_reader.h"
#include "tests/bench/write_all.h"

#include <cerrno>
#include <fcntl.h>
#include <malloc.h>
#include <string>
#include <unistd.h>

namespace {

/// Writes `content` to `path` the way toold does; false when any step fails.
bool writeDurably(const std::string& path, const std::string& content) {
  const auto slash = path.rfind('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string staging = folder + "/.write-floor-" + std::to_string(::getpid());
  const int fd = ::open(staging.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = toold::bench::writeAll(fd, content) && ::fsync(fd) == 0;
  ok = ::close(fd) == 0 && ok;
  ok = ok && ::rename(staging.c_str(), path.c_str()) == 0;
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  if (!ok) ::unlink(staging.c_str());
  return ok;
}

} // namespace

int main() {
  using namespace toold;
  // The allocator as toold sets it (daemon/main.cpp): left alone, every block of a 710 KB frame or
  // string was a mapping of its own, faulted in page by page and unmapped after each request, and
  // those faults were a third of the floor's time — more than toold's whole write of a new file.
  ::mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
  ::mallopt(M_TRIM_THRESHOLD, 8 * 1024 * 1024);
  protocol::FrameDecoder decoder(protocol::Framing::Auto, 64u << 20);
  std::string chunk(256 * 1024, '\0');
  std::string out;
  const protocol::FrameDecoder::Sink answer = [&](protocol::DecodedFrame&& frame) {
    if (frame.error) return;
    auto message = protocol::parseJsonFast(frame.body, 64);
    if (!message || !message->is_object() || !message->contains("id") || !message->contains("method")) return;
    std::string result = "{}";
    const auto params = message->find("params");
    if (params != message->end() && params->is_object() && params->contains("path") && params->contains("content")) {
      if (!writeDurably((*params)["path"].get<std::string>(), (*params)["content"].get_ref<const std::string&>()))
        result = R"({"error":"cannot write"})";
    }
    out += protocol::frameBody(R"({"jsonrpc":"2.0","id":)" + (*message)["id"].dump() + R"(,"result":)" + result + "}",
                               decoder.framing());
  };
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    decoder.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)), answer);
    if (!out.empty() && !bench::writeAll(STDOUT_FILENO, out)) return 1;
    out.clear();
  }
}
