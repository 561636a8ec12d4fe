// toold-repl: an interactive JSON-RPC client for toold. Starts toold on the current directory,
// does the initialize handshake, then sends one message per line and prints what comes back.
#include "core/process/child_process.h"
#include "daemon/repl/repl_command.h"
#include "daemon/repl/repl_console.h"
#include "daemon/repl/repl_input.h"
#include "daemon/repl/repl_session.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace toold::repl;
using namespace std::chrono_literals;

constexpr std::string_view kUsage = R"(Usage: toold-repl [--toold PATH] [--] [toold options...]

Starts toold on the current directory (--directory is passed first; toold options given here
come after it and may override it), performs the initialize handshake and reads one message per
line from stdin. Type :help for the line syntax. Works with piped input too.

Options:
  --toold PATH   the toold executable (default: the toold next to toold-repl)
  --help         print this help and exit
)";

// How long the handshake may take before the REPL gives up waiting and lets the user type anyway.
constexpr auto kInitializeWait = 10s;
// At the end of input, how long replies to requests still in flight are waited for: as long as
// toold itself lets them run after its input ends (its --drain-timeout default), so piped input
// gets the answers of slow calls too.
constexpr auto kReplyWait = 30s;
constexpr auto kShutdownWait = 2s;
// With piped input, how long `:reply ID` waits for toold to send the request it answers.
constexpr auto kPipedReplyWait = 2s;
// After exit, toold flushes and leaves within its own 3 s watchdog; this is the REPL's margin.
constexpr auto kExitGrace = 5s;
// Then SIGTERM, and SIGKILL if that is not enough either.
constexpr auto kTerminateGrace = 1s;

int gInterruptFd = -1;

extern "C" void onInterrupt(int) {
  LineInput::interrupt();
  const char byte = 2;
  [[maybe_unused]] auto n = ::write(gInterruptFd, &byte, 1);
}

struct Arguments {
  std::string toold;
  std::vector<std::string> tooldArgs;
};

std::string besideSelf(const char* name) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return name;
  return (self.parent_path() / name).string();
}

Arguments parseArguments(int argc, char** argv) {
  Arguments args;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "--help" || arg == "-h") {
      std::fputs(std::string(kUsage).c_str(), stdout);
      std::exit(0);
    }
    if (arg == "--toold" && i + 1 < argc) {
      args.toold = argv[++i];
    } else if (arg.starts_with("--toold=")) {
      args.toold = std::string(arg.substr(8));
    } else if (arg == "--toold") {
      std::fprintf(stderr, "toold-repl: --toold needs a path\n%s", std::string(kUsage).c_str());
      std::exit(2);
    } else {
      break; // the first option the REPL does not know starts toold's options
    }
  }
  for (; i < argc; ++i) args.tooldArgs.emplace_back(argv[i]);
  if (args.toold.empty()) args.toold = besideSelf("toold");
  return args;
}

std::string historyFile() {
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.toold_repl_history" : std::string();
}

/// Runs one parsed line. False when the line asks to leave.
bool execute(const Command& command, ReplSession& session, Console& console, bool interactive) {
  return std::visit(
      [&](const auto& c) -> bool {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, SendRequest>) {
          if (!session.request(c.method, c.params)) console.error("error: toold is gone; nothing was sent\n");
        } else if constexpr (std::is_same_v<T, SendNotification>) {
          if (!session.notify(c.method, c.params)) console.error("error: toold is gone; nothing was sent\n");
        } else if constexpr (std::is_same_v<T, SendReply>) {
          // A person answers what is on screen; a script may answer before toold has asked.
          std::string why;
          if (!session.reply(c.id, c.result, interactive ? 0ms : kPipedReplyWait, why))
            console.error("error: " + why + "; nothing was sent\n");
        } else if constexpr (std::is_same_v<T, ShowHelp>) {
          console.print(std::string(helpText()));
        } else if constexpr (std::is_same_v<T, LineError>) {
          console.error("error: " + c.message + "\n");
        } else if constexpr (std::is_same_v<T, Quit>) {
          return false;
        }
        return true;
      },
      command);
}

/// Reads and runs lines until the input ends, :quit, or toold goes away.
void interact(LineInput& input, ReplSession& session, Console& console) {
  if (input.interactive()) console.print("toold-repl: :help for the syntax, Ctrl-D or :quit to leave\n");
  while (auto line = input.readLine()) {
    if (!execute(parseLine(*line), session, console, input.interactive())) break;
  }
  input.stop();
  if (session.serverGone()) console.error("toold-repl: toold exited\n");
}

} // namespace

int main(int argc, char** argv) {
  const Arguments args = parseArguments(argc, argv);
  // A toold that dies must show up as a failed write, not kill the REPL.
  std::signal(SIGPIPE, SIG_IGN);

  std::error_code ec;
  std::vector<std::string> command{args.toold, "--directory", std::filesystem::current_path(ec).string()};
  command.insert(command.end(), args.tooldArgs.begin(), args.tooldArgs.end());
  std::optional<toold::client::ChildProcess> child;
  try {
    // stderr (toold's log) goes straight to the terminal. A process group of its own keeps
    // Ctrl-C at the prompt from reaching toold.
    child.emplace(toold::client::ChildProcess::Options{.argv = command, .newProcessGroup = true});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "toold-repl: %s (use --toold PATH to say where toold is)\n", e.what());
    return 127;
  }

  Console console;
  ReplSession session(*child, console);
  LineInput input(STDIN_FILENO, console, "toold> ", historyFile(), [&session] { return session.serverGone(); });
  if (input.interactive()) {
    gInterruptFd = console.signalWakeFd();
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
  }

  // The person at the REPL can answer permission asks (`:reply toold-N {"reply": "once"}`), so
  // toold asks rather than applying its unattended policy.
  const json initialize{{"protocolVersion", "2025-11-25"},
                        {"capabilities", {{"permission", json::object()}}},
                        {"clientInfo", {{"name", "toold-repl"}, {"version", TOOLD_VERSION}}}};
  if (auto id = session.request("initialize", initialize)) {
    if (!session.waitForReply(*id, kInitializeWait) && !session.serverGone())
      console.error("toold-repl: no reply to initialize yet; continuing\n");
    session.notify("notifications/initialized", std::nullopt);
  }

  if (!session.serverGone()) interact(input, session, console);

  if (!session.serverGone()) {
    if (!session.waitForAllReplies(kReplyWait))
      console.error("toold-repl: " + std::to_string(session.unanswered()) + " request(s) still unanswered; shutting down\n");
    if (auto id = session.request("shutdown", std::nullopt)) session.waitForReply(*id, kShutdownWait);
    session.notify("exit", std::nullopt);
  }
  session.finish();
  auto exit = child->waitExit(toold::client::Clock::now() + kExitGrace);
  if (!exit) exit = child->terminate(kTerminateGrace);
  return exit->shellStatus();
}
