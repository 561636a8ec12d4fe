// Running external programs: command tools now, the shell tool and MCP servers later. One runner
// per daemon drives every child on the daemon's io_context (no thread per child) and keeps the
// classic traps away:
//  - exits are seen through a pidfd, never SIGCHLD, and each child is waited for by its own pid,
//    never waitpid(-1) (see ChildTable);
//  - SIGCHLD ignored makes the kernel discard exit statuses: start() puts it back to its default
//    (resetChildSignalDisposition);
//  - a child leads a session and process group of its own; timeout and cancellation signal the
//    whole group, and once the child has exited the rest of its group is SIGKILLed;
//  - a call completes when the child exits, plus a bounded drain of its pipes: a grandchild that
//    keeps stdout open (a server started with `&`, or one that escaped with setsid) cannot hold it.
//    An escapee with a session of its own is not killed: nothing toold can name reaches it.
#pragma once

#include "core/base/cancellation.h"
#include "core/process/exit_status.h"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include <sys/types.h>

namespace toold::core {

/// What to run. Every member has an initializer, so that callers name only the ones they set
/// (`{.argv = ..., .timeout = 5s}`).
struct ProcessSpec {
  /// argv[0] is searched in toold's PATH when it has no '/'; a relative path starts at `cwd`.
  std::vector<std::string> argv{};
  std::filesystem::path cwd{}; ///< empty: toold's working directory
  /// Laid over toold's environment: "K=V" adds or replaces K, a bare "K" removes it.
  std::vector<std::string> extraEnv{};
  /// Written to the child's stdin, which is then closed; nullopt: stdin is /dev/null (unless the
  /// child is started with startWithInput, whose stdin stays open for ChildInput's writes).
  std::optional<std::string> stdinData{};
  /// stderr into the stdout pipe, in the order written (reported as OutputStream::Stdout).
  bool mergeOutput = false;
  std::chrono::milliseconds timeout{0}; ///< from the spawn; 0: none
  /// After SIGTERM, how long the child has before its group is SIGKILLed.
  std::chrono::milliseconds killGrace{3000};
  /// After the child exits, how long its pipes are still read (what it wrote before exiting is
  /// in them) before they are closed whether or not a descendant still holds them.
  std::chrono::milliseconds drainAfterExit{250};
};

enum class OutputStream { Stdout, Stderr };

struct ProcessOutcome {
  /// How the child ended. nullopt when it never started (see spawnError and cancelled) or when a
  /// wait outside toold's control took its status first.
  std::optional<ExitStatus> status;
  bool timedOut = false;  ///< the timeout expired and toold terminated it
  bool cancelled = false; ///< cancelled while it ran (terminated), or before it started (never run)
  std::string spawnError; ///< non-empty: it never started (`cannot run "foo": No such file or directory`)

  /// "exit code 3", "timed out; killed by signal 15 (SIGTERM)", the spawn error, ...
  std::string describe() const;
};

using OutputHandler = std::function<void(OutputStream, std::string_view)>;
using ExitHandler = std::function<void(ProcessOutcome)>;

/// The stdin of a child that reads it for as long as it runs (an MCP server): what is written is
/// queued and sent in order, without blocking the writer; close() ends the child's input once the
/// queue is written. Writes after close(), or after the child exited, are dropped. Any thread.
class ChildInput {
public:
  struct State;
  explicit ChildInput(std::shared_ptr<State> state) : state_(std::move(state)) {}
  void write(std::string bytes);
  void close();
  /// The child's pid (its process group too); 0 until it started, and when it could not.
  pid_t pid() const;

private:
  std::shared_ptr<State> state_;
};

/// One per daemon. May be used from any thread; callbacks run on the runner's strand (or on the
/// child's own, see startWithInput).
class ProcessRunner {
public:
  explicit ProcessRunner(boost::asio::io_context& io);
  /// Kills and reaps every child still running, and starts no more. Outcomes not delivered yet are
  /// delivered if the io_context runs on, so callbacks must not depend on the runner itself.
  ~ProcessRunner();
  ProcessRunner(const ProcessRunner&) = delete;
  ProcessRunner& operator=(const ProcessRunner&) = delete;

  /// Starts `spec` (asynchronously: nothing is called back before start returns). `onOutput` gets
  /// each piece of output as it arrives, in order per stream; `onExit` is called exactly once,
  /// after the last `onOutput`, when the child has exited and its pipes were drained — or when it
  /// could not start. A failure to start is an outcome with spawnError, never an exception.
  void start(ProcessSpec spec, CancellationToken cancellation, OutputHandler onOutput, ExitHandler onExit);
  using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
  /// start(), with the child's stdin a pipe that stays open for the returned ChildInput's writes
  /// (`spec.stdinData` is written first). Cancellation (and the timeout) end it as for start():
  /// SIGTERM to its group, SIGKILL after `killGrace`. With `strand` (of the runner's io_context),
  /// the child's I/O and both callbacks run on it instead of the runner's: a long-lived child
  /// whose owner works on a strand of its own (an MCP server) is then read where its messages are
  /// handled, without a hop from strand to strand for each.
  std::shared_ptr<ChildInput> startWithInput(ProcessSpec spec, CancellationToken cancellation, OutputHandler onOutput,
                                             ExitHandler onExit, std::optional<Strand> strand = std::nullopt);

  /// SIGKILL to every child's process group, then reaps the children (waiting up to 2 s for one
  /// stuck in the kernel). Safe on any thread, with or without the io_context running: for the
  /// daemon's exit. Their outcomes (killed by signal 9) follow as usual while the io_context runs.
  void killAll();

  /// Children started and not reaped yet.
  std::size_t liveCount() const;

private:
  struct Shared;
  static void startChild(const std::shared_ptr<Shared>& shared, ProcessSpec spec, CancellationToken cancellation,
                         OutputHandler onOutput, ExitHandler onExit, std::shared_ptr<ChildInput::State> input,
                         std::optional<Strand> strand);
  std::shared_ptr<Shared> shared_;
};

/// What runCaptured collected.
struct CapturedRun {
  ProcessOutcome outcome;
  std::string stdoutData;        ///< at most the cap; with mergeOutput, stderr too
  bool stdoutTruncated = false;  ///< the child wrote more than the cap; the rest was read and dropped
  std::string stderrTail;        ///< the last bytes of stderr (may start inside a UTF-8 sequence)
};

/// For command tools: runs `spec`, keeps its stdout up to `stdoutCap` bytes and the last
/// `stderrTailBytes` of stderr, and calls `done` once (on the runner's strand).
void runCaptured(ProcessRunner& runner, ProcessSpec spec, CancellationToken cancellation, std::size_t stdoutCap,
                 std::size_t stderrTailBytes, std::function<void(CapturedRun)> done);

/// Puts SIGCHLD back to its default disposition if it is ignored (or has SA_NOCLDWAIT): then the
/// kernel reaps exited children itself and discards their statuses, so waitpid could never tell
/// `exit 9` from a kill, or report anything at all. The daemon calls this at start-up, since toold
/// may inherit an ignored SIGCHLD across exec from whoever started it; start() calls it again
/// before each spawn, since a library may change it later. Returns whether it changed anything.
bool resetChildSignalDisposition();

} // namespace toold::core
