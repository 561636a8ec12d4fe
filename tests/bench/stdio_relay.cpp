// toold-bench-relay: the least a process between an MCP client and its server can do. It starts
// the server and copies bytes both ways, nothing else. bench-mcp measures calls through it next to
// calls through toold: what an extra process in the path costs on this machine (two more pipes,
// two more wake-ups per call), so toold's own share can be read apart from it.
//   toold-bench-relay COMMAND [ARGS...]
#include "tests/bench/write_all.h"

#include <cerrno>
#include <cstdio>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using toold::bench::writeAll;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: toold-bench-relay COMMAND [ARGS...]\n");
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
    ::execvp(argv[1], argv + 1);
    _exit(127);
  }
  ::close(toServer[0]);
  ::close(fromServer[1]);
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
      } else if (!writeAll(toServer[1], std::string_view(buffer, static_cast<std::size_t>(n)))) {
        break;
      }
    }
    if (fds[1].revents != 0) {
      const ssize_t n = ::read(fromServer[0], buffer, sizeof buffer);
      if (n <= 0 || !writeAll(STDOUT_FILENO, std::string_view(buffer, static_cast<std::size_t>(n)))) break;
    }
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return 0;
}
