// toold-bench-relay: the least a process between an MCP client and its server can do. It starts
// the server and copies bytes both ways, nothing else. bench-mcp measures calls through it next to
// calls through toold: what an extra process in the path costs on this machine (two more pipes,
// two more wake-ups per call), so toold's own share can be read apart from it.
//
// With --parse it is the least a proxy that reads what it passes can do: each line, both ways, is
// parsed with nlohmann::json (toold's JSON library, as floor_json parses) and written out again,
// nothing else — no checks, no bound, no saved output. A proxy that must look at a server's
// answer (to check it against the tool's output schema, to bound it) cannot do less.
//   toold-bench-relay [--parse] COMMAND [ARGS...]
#include "tests/bench/write_all.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using toold::bench::writeAll;

namespace {

/// Passes what came from one side on to the other: as it is, or with --parse line by line, each
/// line parsed and written anew. False when the other side is gone.
class Passage {
public:
  Passage(int to, bool parse) : to_(to), parse_(parse) {}

  bool pass(std::string_view bytes) {
    if (!parse_) return writeAll(to_, bytes);
    pending_.append(bytes);
    std::string out;
    std::size_t start = 0;
    for (std::size_t end; (end = pending_.find('\n', start)) != std::string::npos; start = end + 1) {
      const std::string_view line(pending_.data() + start, end - start);
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      const auto value = nlohmann::json::parse(line, nullptr, false);
      out += value.is_discarded() ? std::string(line) : value.dump();
      out += '\n';
    }
    pending_.erase(0, start);
    return out.empty() || writeAll(to_, out);
  }

private:
  int to_;
  bool parse_;
  std::string pending_;
};

} // namespace

int main(int argc, char** argv) {
  const bool parse = argc > 1 && std::strcmp(argv[1], "--parse") == 0;
  char** command = argv + (parse ? 2 : 1);
  if (*command == nullptr) {
    std::fprintf(stderr, "usage: toold-bench-relay [--parse] COMMAND [ARGS...]\n");
    return 2;
  }
  int toServer[2], fromServer[2];
  if (::pipe(toServer) != 0 || ::pipe(fromServer) != 0) return 1;
  const pid_t child = ::fork();
  if (child < 0) return 1;
  if (child == 0) {
    ::dup2(toServer[0], STDIN_FILENO);
    ::dup2(fromServer[1], STDOUT_FILENO);
    ::close(toServer[0]);
    ::close(toServer[1]);
    ::close(fromServer[0]);
    ::close(fromServer[1]);
    ::execvp(command[0], command);
    _exit(127);
  }
  ::close(toServer[0]);
  ::close(fromServer[1]);
  Passage toTheServer(toServer[1], parse), toTheClient(STDOUT_FILENO, parse);
  static char buffer[1 << 16];
  pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {fromServer[0], POLLIN, 0}};
  for (;;) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].revents != 0) {
      const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
      if (n <= 0) {
        ::close(toServer[1]); // the client is done: so is the server's input
        fds[0].fd = -1;
      } else if (!toTheServer.pass(std::string_view(buffer, static_cast<std::size_t>(n)))) {
        break;
      }
    }
    if (fds[1].revents != 0) {
      const ssize_t n = ::read(fromServer[0], buffer, sizeof buffer);
      if (n <= 0 || !toTheClient.pass(std::string_view(buffer, static_cast<std::size_t>(n)))) break;
    }
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return 0;
}
