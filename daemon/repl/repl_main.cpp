// toold-repl: an interactive client for toold. Starts toold on the current directory, does the
// initialize handshake, takes a snapshot of the session's tools, then runs one line at a time:
// tool calls, raw methods, meta-commands. See helpText() and the README.
#include "core/process/child_process.h"
#include "core/process/program_lookup.h"
#include "daemon/repl/repl_catalog.h"
#include "daemon/repl/repl_checkpoints.h"
#include "daemon/repl/repl_command.h"
#include "daemon/repl/repl_complete.h"
#include "daemon/repl/repl_console.h"
#include "daemon/repl/repl_input.h"
#include "daemon/repl/repl_log.h"
#include "daemon/repl/repl_session.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace toold::repl;
using namespace std::chrono_literals;

constexpr std::string_view kUsage = R"(Usage: toold-repl [options] [--] [toold options...]

Starts toold on the current directory, takes a snapshot of the tools of a session, and reads
one line at a time: a tool call (read filePath=README.md), a method (ping, tools/list), a
whole JSON-RPC message, or a :command (:help lists them). On a terminal it edits lines, completes
with Tab, asks permission questions as prompts and cancels the running request on Ctrl-C.
Piped or --script input runs the lines, waits for every answer and exits non-zero when a request
failed, so a file of lines is a smoke test; a question from toold that no line answers is
declined when the input ends.

Options:
  --script FILE      read the lines from FILE instead of stdin
  --timeout SECONDS  with piped input, how long to wait for the answers at the end (default 60;
                     0 waits as long as it takes)
  --quiet            print the answers only (no echo of what is sent, no notifications; toold
                     logs warnings and errors only)
  --session NAME     the session the snapshot and the calls belong to (default repl)
  --agent NAME       the agent named in the snapshot and the calls (default build)
  --model NAME       the model named in the snapshot (it decides edit/write or apply_patch)
  --log-file FILE    toold's log goes to FILE (on a terminal it is otherwise shown above the prompt)
  --toold PATH       the toold executable (default: the toold next to toold-repl)
  --version          print the version and exit
  --help             print this help and exit
Options the REPL does not know, and everything after --, are passed to toold (after
--directory, which they may override), e.g.  toold-repl --test-methods --log-level debug
)";

// How long the handshake and the first snapshot may take before the REPL lets the user type anyway.
constexpr auto kStartWait = 10s;
// On a terminal, at :quit or Ctrl-D, how long answers still in flight are waited for.
constexpr auto kInteractiveReplyWait = 2s;
constexpr auto kShutdownWait = 2s;
// After exit, toold flushes and leaves within its own 3 s watchdog; this is the REPL's margin.
constexpr auto kExitGrace = 5s;
// Then SIGTERM, and SIGKILL if that is not enough either.
constexpr auto kTerminateGrace = 1s;
constexpr std::size_t kTerminalLineLimit = 200;
constexpr int kDefaultTimeoutSeconds = 60;

int gInterruptFd = -1;

extern "C" void onInterrupt(int) {
  LineInput::interrupt();
  const char byte = 2;
  [[maybe_unused]] auto n = ::write(gInterruptFd, &byte, 1);
}

struct Arguments {
  std::string toold;
  std::string script;
  std::string logFile;
  int timeoutSeconds = kDefaultTimeoutSeconds;
  SessionOptions session;
  std::vector<std::string> tooldArgs;
};

std::string besideSelf(const char* name) {
  const auto folder = toold::core::ownExecutableFolder();
  if (folder.empty()) return name;
  return (folder / name).string();
}

/// The fixture runner: next to toold-repl when installed together, else where the build tree
/// puts it (build/daemon/toold-repl, build/tests/fixture_runner/toold-fixture); else its bare name.
std::string fixtureRunner() {
  const auto folder = toold::core::ownExecutableFolder();
  if (folder.empty()) return "toold-fixture";
  for (const auto& candidate : {folder / "toold-fixture", folder.parent_path() / "tests" / "fixture_runner" / "toold-fixture"})
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.lexically_normal().string();
  return "toold-fixture";
}

/// A path as a shell word, quoted only when it needs to be.
std::string shellWord(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+=:@%,") ==
                           std::string::npos)
    return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

[[noreturn]] void usageError(const std::string& message) {
  std::fprintf(stderr, "toold-repl: %s\n(toold-repl --help shows the options)\n", message.c_str());
  std::exit(2);
}

Arguments parseArguments(int argc, char** argv) {
  Arguments args;
  int i = 1;
  // `--name VALUE` or `--name=VALUE`; nullopt when `arg` is not that option.
  const auto valueOf = [&](std::string_view arg, std::string_view name) -> std::optional<std::string> {
    if (arg.starts_with(name) && arg.size() > name.size() && arg[name.size()] == '=')
      return std::string(arg.substr(name.size() + 1));
    if (arg != name) return std::nullopt;
    if (i + 1 >= argc) usageError(std::string(name) + " needs a value");
    return std::string(argv[++i]);
  };
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
    if (arg == "--version") {
      std::printf("toold-repl %s\n", TOOLD_VERSION);
      std::exit(0);
    }
    std::string timeout;
    const std::pair<std::string_view, std::string*> valued[] = {
        {"--toold", &args.toold},     {"--script", &args.script},         {"--log-file", &args.logFile},
        {"--session", &args.session.sessionID}, {"--agent", &args.session.agent}, {"--model", &args.session.model},
        {"--timeout", &timeout}};
    bool known = false;
    for (const auto& [name, target] : valued)
      if (auto value = valueOf(arg, name)) {
        *target = *value;
        known = true;
        break;
      }
    if (!timeout.empty()) {
      char* end = nullptr;
      const long seconds = std::strtol(timeout.c_str(), &end, 10);
      if (*end != '\0' || seconds < 0) usageError("--timeout needs a number of seconds, not '" + timeout + "'");
      args.timeoutSeconds = static_cast<int>(seconds);
    }
    if (arg == "--quiet" || arg == "-q") {
      args.session.quiet = true;
    } else if (!known) {
      break; // the first option the REPL does not know starts toold's options
    }
  }
  for (; i < argc; ++i) args.tooldArgs.emplace_back(argv[i]);
  if (args.toold.empty()) args.toold = besideSelf("toold");
  std::error_code ec;
  const auto here = std::filesystem::current_path(ec);
  args.session.workspace = std::filesystem::weakly_canonical(here, ec).string();
  return args;
}

std::string historyFile() {
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.toold_repl_history" : std::string();
}

/// toold's options worth keeping in a recorded fixture: the runner chooses the directories and
/// the log itself.
std::vector<std::string> fixtureArgs(const std::vector<std::string>& tooldArgs) {
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < tooldArgs.size(); ++i) {
    const std::string& arg = tooldArgs[i];
    bool dropped = false;
    for (std::string_view name : {"--directory", "--data-dir", "--log-file", "--log-level"}) {
      if (arg == name) {
        ++i; // and its value
        dropped = true;
      } else if (arg.starts_with(std::string(name) + "=")) {
        dropped = true;
      }
    }
    if (!dropped) kept.push_back(arg);
  }
  return kept;
}

/// toold's data folder, by toold's own rule (its --data-dir, else $XDG_DATA_HOME/toold, else
/// ~/.local/share/toold): a recording writes it as ${data}.
std::string dataDirOf(const std::vector<std::string>& tooldArgs) {
  std::string dir;
  for (std::size_t i = 0; i < tooldArgs.size(); ++i) {
    if (tooldArgs[i] == "--data-dir" && i + 1 < tooldArgs.size()) dir = tooldArgs[++i];
    else if (tooldArgs[i].starts_with("--data-dir=")) dir = tooldArgs[i].substr(11);
  }
  if (dir.empty()) {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) dir = std::string(xdg) + "/toold";
    else if (const char* home = std::getenv("HOME"); home && *home) dir = std::string(home) + "/.local/share/toold";
    else dir = (std::filesystem::temp_directory_path() / "toold").string();
  }
  std::error_code ec;
  const auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(dir, ec), ec);
  return ec ? dir : canonical.string();
}

class Repl {
public:
  Repl(const Arguments& args, ReplSession& session, ToolCatalog& catalog, Console& console, bool interactive)
      : args_(args), session_(session), catalog_(catalog), console_(console), interactive_(interactive),
        waitLimit_(args.timeoutSeconds == 0 ? std::chrono::milliseconds::max() / 2
                                             : std::chrono::milliseconds(args.timeoutSeconds * 1000)) {}

  /// Runs one parsed line. False when the line asks to leave.
  bool execute(const Command& command);
  /// A line typed while toold waits for an answer to its question: the answer, or a command.
  bool answerOrExecute(const std::string& line);
  std::chrono::milliseconds waitLimit() const { return waitLimit_; }

private:
  void fail(const std::string& message) {
    console_.error("error: " + message + "\n");
    if (!interactive_) session_.countFailure();
  }
  void callTool(const std::string& tool, const std::string& arguments);
  void callToolWith(const std::string& tool, const json& input);

  const Arguments& args_;
  ReplSession& session_;
  ToolCatalog& catalog_;
  Console& console_;
  bool interactive_;
  std::chrono::milliseconds waitLimit_;
};

void Repl::callToolWith(const std::string& tool, const json& input) {
  std::string why;
  if (!session_.callTool(tool, input, why)) fail(why + "; nothing was sent");
}

void Repl::callTool(const std::string& tool, const std::string& arguments) {
  session_.waitForTools(waitLimit_);
  auto info = catalog_.find(tool);
  if (!info) {
    fail("the snapshot has no tool " + tool + " (:tools lists them); nothing was sent");
    return;
  }
  auto input = buildInput(info->inputSchema, arguments);
  if (auto* error = std::get_if<ArgumentError>(&input)) {
    fail(error->message + "; nothing was sent");
    return;
  }
  callToolWith(tool, std::get<json>(input));
}

bool Repl::answerOrExecute(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  if (first != std::string::npos && line[first] == ':') return execute(parseLine(line));
  std::string why;
  if (!session_.answerAsk(line, why)) console_.error(why + "\n"); // the same question is asked again
  return true;
}

bool Repl::execute(const Command& command) {
  return std::visit(
      [&](const auto& c) -> bool {
        using T = std::decay_t<decltype(c)>;
        std::string why;
        if constexpr (std::is_same_v<T, SendRequest>) {
          if (!session_.request(c.method, c.params)) fail("toold is gone; nothing was sent");
        } else if constexpr (std::is_same_v<T, SendNotification>) {
          if (!session_.notify(c.method, c.params)) fail("toold is gone; nothing was sent");
        } else if constexpr (std::is_same_v<T, SendRaw>) {
          if (!session_.sendRaw(c.message, why)) fail(why + "; nothing was sent");
        } else if constexpr (std::is_same_v<T, SendReply>) {
          // A person answers what is on screen; a script may answer before toold has asked.
          if (!session_.reply(c.id, c.result, interactive_ ? 0ms : waitLimit_, why)) fail(why + "; nothing was sent");
        } else if constexpr (std::is_same_v<T, CallTool>) {
          callTool(c.tool, c.arguments);
        } else if constexpr (std::is_same_v<T, ShowTools>) {
          session_.waitForTools(waitLimit_);
          console_.print(catalog_.listText());
        } else if constexpr (std::is_same_v<T, DescribeTool>) {
          session_.waitForTools(waitLimit_);
          const std::string text = catalog_.describeText(c.tool);
          if (text.empty()) fail("the snapshot has no tool " + c.tool + " (:tools lists them)");
          else console_.print(text);
        } else if constexpr (std::is_same_v<T, SetSession>) {
          session_.setSessionName(c.name);
          session_.waitForTools(waitLimit_);
          console_.print("session " + c.name + ": " + std::to_string(catalog_.size()) + " tools\n");
        } else if constexpr (std::is_same_v<T, SetModel>) {
          session_.setModel(c.name);
          session_.waitForTools(waitLimit_);
          console_.print((c.name.empty() ? std::string("no model") : "model " + c.name) + ": " +
                         std::to_string(catalog_.size()) + " tools\n");
        } else if constexpr (std::is_same_v<T, SetMode>) {
          session_.setMode(c.mode);
        } else if constexpr (std::is_same_v<T, SetLimit>) {
          session_.setLimit(c.lines);
        } else if constexpr (std::is_same_v<T, CancelRequest>) {
          if (c.id) {
            if (!session_.cancel(*c.id, why)) fail(why);
          } else if (!session_.cancelNewest()) {
            fail("no request is running");
          }
        } else if constexpr (std::is_same_v<T, ListJobs>) {
          if (catalog_.contains("bash_jobs")) callToolWith("bash_jobs", json::object());
          else fail("the snapshot has no bash_jobs tool");
        } else if constexpr (std::is_same_v<T, KillJob>) {
          if (catalog_.contains("bash_kill")) callToolWith("bash_kill", json{{"shellId", c.id}});
          else fail("the snapshot has no bash_kill tool");
        } else if constexpr (std::is_same_v<T, RecordFixture>) {
          // What is still running would be cut off in the middle: its answers are waited for.
          if (!session_.waitForAllReplies(interactive_ ? std::chrono::milliseconds(kInteractiveReplyWait) : waitLimit_))
            console_.error("toold-repl: requests still running are left out of the recording\n");
          std::ofstream out(c.path, std::ios::binary | std::ios::trunc);
          FixtureSetting setting;
          setting.tooldArgs = fixtureArgs(args_.tooldArgs);
          setting.workspace = args_.session.workspace;
          setting.dataDir = dataDirOf(args_.tooldArgs);
          out << session_.fixture(std::move(setting));
          std::error_code ec;
          const auto toold = std::filesystem::weakly_canonical(std::filesystem::absolute(args_.toold, ec), ec);
          if (!out.flush()) fail("cannot write " + c.path);
          else if (!args_.session.quiet)
            console_.print("recorded the conversation in " + c.path + " (replay: " + shellWord(fixtureRunner()) +
                           " --toold " + shellWord(ec ? args_.toold : toold.string()) + " " + shellWord(c.path) + ")\n");
        } else if constexpr (std::is_same_v<T, ShowChanges> || std::is_same_v<T, ShowDiff> ||
                             std::is_same_v<T, UndoChanges> || std::is_same_v<T, RedoChanges>) {
          // The checkpoints of the session the REPL's calls are made in (its session name).
          const std::string sessionID = session_.sessionName();
          CheckpointRequest request;
          if constexpr (std::is_same_v<T, ShowChanges>) request = changesRequest(sessionID);
          else if constexpr (std::is_same_v<T, ShowDiff>) request = diffRequest(sessionID, c.callID);
          else if constexpr (std::is_same_v<T, UndoChanges>) request = undoRequest(sessionID, c.callID);
          else request = redoRequest(sessionID);
          if (!session_.request(request.method, request.params)) fail("toold is gone; nothing was sent");
        } else if constexpr (std::is_same_v<T, ShowHelp>) {
          console_.print(std::string(helpText()));
        } else if constexpr (std::is_same_v<T, LineError>) {
          fail(c.message);
        } else if constexpr (std::is_same_v<T, Quit>) {
          return false;
        }
        return true;
      },
      command);
}

/// Reads and runs lines until the input ends, :quit, or toold goes away.
void interact(LineInput& input, Repl& repl, ReplSession& session, ToolCatalog& catalog) {
  for (;;) {
    auto line = input.readLine();
    if (!line) break;
    std::string text = *line;
    // A trailing backslash, or an open { or [, continues on the next line.
    while (needsMoreInput(text)) {
      const bool backslash = text.find_last_not_of(" \t\r\n") != std::string::npos &&
                             text[text.find_last_not_of(" \t\r\n")] == '\\';
      if (backslash) text.erase(text.find_last_not_of(" \t\r\n"));
      auto more = input.readLine(true);
      if (!more) break;
      text += (backslash ? " " : "\n") + *more;
    }
    if (input.interactive() && session.hasAsk()) {
      if (!repl.answerOrExecute(text)) break;
      continue;
    }
    // A trailing " &" sends without waiting for the answer (a script that cancels what it started).
    bool background = false;
    if (const auto end = text.find_last_not_of(" \t\r\n"); end != std::string::npos && end > 0 && text[end] == '&' &&
                                                              (text[end - 1] == ' ' || text[end - 1] == '\t')) {
      text.erase(end);
      background = true;
    }
    // A line naming a tool that a registration just made must see it.
    if (!input.interactive()) session.waitForTools(repl.waitLimit());
    const auto before = session.lastTypedId();
    if (!repl.execute(parseLine(
            text, [&catalog](const std::string& name) { return catalog.contains(name); },
            [&catalog](const std::string& name) { return catalog.codemodeOnly(name); })))
      break;
    // A script runs one request at a time, as psql does: each answer (or a question from toold,
    // which the next line answers) comes before the next line, so what it prints, and a fixture
    // it records, does not depend on timing.
    const auto sent = session.lastTypedId();
    if (!input.interactive() && !background && sent && sent != before) session.waitForReplyOrAsk(*sent, repl.waitLimit());
  }
  input.stop();
}

/// Piped input has ended: the answers still due are waited for, but a question from toold can
/// no longer be answered, so it is declined at once rather than waited on until the timeout (a
/// rejected permission fails the call that asked). True when every request was answered.
bool waitAtEndOfInput(ReplSession& session, Console& console, std::chrono::milliseconds limit) {
  using Clock = std::chrono::steady_clock;
  for (;;) {
    for (const auto& what : session.declineAsks()) {
      console.error("toold-repl: toold asks " + what + ", but the input has ended and nothing answers it: declined\n");
    }
    const auto start = Clock::now();
    if (session.waitForAllRepliesOrAsk(limit)) return true;
    if (!session.hasAsk() || session.serverGone()) return session.unanswered() == 0;
    limit -= std::min(limit, std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start));
  }
}

} // namespace

int main(int argc, char** argv) {
  const Arguments args = parseArguments(argc, argv);
  // A toold that dies must show up as a failed write, not kill the REPL.
  std::signal(SIGPIPE, SIG_IGN);

  int inputFd = STDIN_FILENO;
  if (!args.script.empty()) {
    inputFd = ::open(args.script.c_str(), O_RDONLY | O_CLOEXEC);
    if (inputFd < 0) {
      std::fprintf(stderr, "toold-repl: cannot read %s: %s\n", args.script.c_str(), std::strerror(errno));
      return 2;
    }
  }
  const bool interactive = ::isatty(inputFd) == 1 && ::isatty(STDOUT_FILENO) == 1;

  Console console;
  std::error_code ec;
  std::vector<std::string> command{args.toold, "--directory", std::filesystem::current_path(ec).string()};
  if (!args.logFile.empty()) command.insert(command.end(), {"--log-file", args.logFile});
  // Results only: toold's start and exit lines are not results either (toold options given
  // below come later and win).
  if (args.session.quiet) command.insert(command.end(), {"--log-level", "warn"});
  command.insert(command.end(), args.tooldArgs.begin(), args.tooldArgs.end());
  // On a terminal toold's log is relayed above the prompt; otherwise it goes to stderr as is.
  std::optional<LogRelay> logRelay;
  if (interactive && args.logFile.empty()) logRelay.emplace(console);
  std::optional<toold::client::ChildProcess> child;
  try {
    // A process group of its own keeps Ctrl-C at the prompt from reaching toold.
    child.emplace(toold::client::ChildProcess::Options{
        .argv = command, .stderrFile = logRelay ? logRelay->path() : std::string(), .newProcessGroup = true});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "toold-repl: %s (use --toold PATH to say where toold is)\n", e.what());
    return 127;
  }
  if (logRelay) logRelay->start();

  ToolCatalog catalog;
  SessionOptions options = args.session;
  options.interactive = interactive;
  ReplSession session(*child, console, catalog, options);
  session.touchFile("toold.json"); // it decides permission asks: a recording carries it
  if (interactive) session.setLimit(kTerminalLineLimit);
  Repl repl(args, session, catalog, console, interactive);
  LineInput input(inputFd, console, historyFile(),
                  LineInput::Hooks{.stopWaiting = [&session] { return session.serverGone(); },
                                   .prompt = [&session] {
                                     std::string ask = session.askPrompt();
                                     return ask.empty() ? "toold> " : ask;
                                   },
                                   .interrupted = [&session] { return session.cancelNewest().has_value(); },
                                   // An answer to a prompt ("o", "2") is no line to recall; a
                                   // :command typed there is.
                                   .keepInHistory = [&session](const std::string& line) {
                                     const auto first = line.find_first_not_of(" \t");
                                     return !session.hasAsk() || (first != std::string::npos && line[first] == ':');
                                   }});
  if (interactive) {
    installCompletion(catalog);
    gInterruptFd = console.signalWakeFd();
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
  }

  // The person at the REPL answers permission asks and the question tool's questions (a prompt,
  // or `:reply` in a script), so toold asks rather than applying its unattended policy.
  const json initialize{{"protocolVersion", "2025-11-25"},
                        {"capabilities", {{"permission", json::object()}, {"question", json::object()}}},
                        {"clientInfo", {{"name", "toold-repl"}, {"version", TOOLD_VERSION}}}};
  if (auto id = session.request("initialize", initialize, Purpose::Lifecycle)) {
    if (!session.waitForReply(*id, kStartWait) && !session.serverGone())
      console.error("toold-repl: no reply to initialize yet; continuing\n");
    session.notify("notifications/initialized", std::nullopt);
    session.refreshSnapshot();
    session.waitForTools(kStartWait);
  }
  if (interactive && !session.serverGone())
    console.print("toold-repl " TOOLD_VERSION " on " + std::filesystem::current_path(ec).string() + ", session " +
                  session.sessionName() + ": " + std::to_string(catalog.size()) +
                  " tools. :tools lists them, :help shows the rest; Tab completes, Ctrl-D leaves.\n");

  if (!session.serverGone()) interact(input, repl, session, catalog);
  if (session.serverGone()) console.error("toold-repl: toold exited\n");

  bool timedOut = false;
  if (!session.serverGone()) {
    if (!(interactive ? session.waitForAllReplies(kInteractiveReplyWait) : waitAtEndOfInput(session, console, repl.waitLimit()))) {
      console.error("toold-repl: " + std::to_string(session.unanswered()) + " request(s) still unanswered after " +
                    (interactive ? std::string("2 s") : std::to_string(args.timeoutSeconds) + " s (--timeout)") +
                    "; shutting down\n");
      timedOut = true;
    }
    if (auto id = session.request("shutdown", std::nullopt, Purpose::Lifecycle)) session.waitForReply(*id, kShutdownWait);
    session.notify("exit", std::nullopt);
  }
  session.finish();
  auto exit = child->waitExit(toold::client::Clock::now() + kExitGrace);
  if (!exit) exit = child->terminate(kTerminateGrace);
  if (const int status = exit->shellStatus(); status != 0) return status;
  if (!interactive && session.failures() > 0)
    console.error("toold-repl: " + std::to_string(session.failures()) + " request(s) failed\n");
  return (!interactive && (session.failures() > 0 || timedOut)) ? 1 : 0;
}
