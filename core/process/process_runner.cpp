// ProcessRunner: one child's life on its strand (the runner's, or one of its owner's) — its
// output, its stdin, its exit, the timeout, cancellation and the drain — and the captured-run
// convenience for command tools.
#include "core/process/process_runner.h"

#include "core/process/child_table.h"
#include "core/process/process_spawn.h"
#include "core/process/sigpipe_block.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <array>
#include <cerrno>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <spdlog/spdlog.h>

namespace toold::core {

namespace asio = boost::asio;
using Strand = asio::strand<asio::io_context::executor_type>;

/// What a ChildInput and its RunningChild share, under the mutex. `wake` is set (once, on the
/// strand) when the child started, and posts its writer onto the strand. `idleFd` is the pipe
/// while the strand's writer has nothing left to write: a writer may then write at once from its
/// own thread (an MCP request goes out without a trip through the strand, the wake-up of another
/// thread it often costs); what the pipe does not take is queued for the strand, which owns the
/// pipe from then until it is idle again.
struct ChildInput::State {
  std::mutex mutex;
  std::string queued;
  bool closed = false;
  int idleFd = -1;
  bool sigpipeIgnored = false;
  std::function<void()> wake;
  std::atomic<pid_t> pid{0};
};

void ChildInput::write(std::string bytes) {
  std::function<void()> wake;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->closed) return;
    std::string_view rest(bytes);
    if (state_->idleFd >= 0) {
      SigpipeBlock block(!state_->sigpipeIgnored);
      while (!rest.empty()) {
        const ssize_t written = ::write(state_->idleFd, rest.data(), rest.size());
        if (written >= 0) {
          rest.remove_prefix(static_cast<std::size_t>(written));
          continue;
        }
        if (errno == EINTR) continue;
        if (errno == EPIPE) block.consume(); // the strand meets it again and closes the pipe
        break;
      }
      if (rest.empty()) return;
      state_->idleFd = -1;
    }
    state_->queued.append(rest);
    wake = state_->wake;
  }
  if (wake) wake();
}

void ChildInput::close() {
  std::function<void()> wake;
  {
    std::lock_guard lock(state_->mutex);
    state_->closed = true;
    wake = state_->wake;
  }
  if (wake) wake();
}

pid_t ChildInput::pid() const { return state_->pid.load(); }

struct ProcessRunner::Shared {
  explicit Shared(asio::io_context& io) : strand(asio::make_strand(io)), owner(ChildTable::instance().newOwner()) {}

  Strand strand;
  const ChildTable::Owner owner;
};

namespace {

/// How long killing waits for a SIGKILLed child to be reapable: one in uninterruptible sleep (a
/// hung NFS read) dies only when it wakes, and toold must not hang on it.
constexpr std::chrono::milliseconds kReapPatience{2000};

/// One child from spawn to onExit. Lives as long as a handler of its own is pending; every member
/// is touched on the child's strand only (the descriptors and timers are bound to it, so their
/// handlers run there).
class RunningChild : public std::enable_shared_from_this<RunningChild> {
public:
  /// Takes the descriptors over; throws if the io_context cannot watch them (the caller then
  /// releases the child: this destructor does not run).
  RunningChild(const Strand& strand, ProcessSpec spec, SpawnedProcess& process,
               std::shared_ptr<ChildInput::State> input)
      : strand_(strand), spec_(std::move(spec)), id_(process.id), input_(std::move(input)),
        stdinData_(spec_.stdinData ? std::move(*spec_.stdinData) : std::string()), exitPolled_(process.exitPolled),
        pidfd_(strand), stdin_(strand), timeout_(strand), grace_(strand), drain_(strand), exitPoll_(strand) {
    // Each descriptor is released only once assigned, so that a throw leaves it with its owner.
    if (process.pidfd) {
      pidfd_.assign(process.pidfd.get());
      process.pidfd.release();
    }
    if (process.stdinPipe) {
      stdin_.assign(process.stdinPipe.get());
      process.stdinPipe.release();
    }
    outputs_[0].stream = OutputStream::Stdout;
    outputs_[0].pipe.emplace(strand);
    outputs_[0].pipe->assign(process.stdoutPipe.get());
    process.stdoutPipe.release();
    if (process.stderrPipe) {
      outputs_[1].stream = OutputStream::Stderr;
      outputs_[1].pipe.emplace(strand);
      outputs_[1].pipe->assign(process.stderrPipe.get());
      process.stderrPipe.release();
    }
  }

  /// A child dropped before it was collected (its io_context destroyed with its handlers) is
  /// killed and reaped here rather than left running.
  ~RunningChild() {
    if (input_) {
      // The descriptor closes with this child: no writer may use it any more.
      std::lock_guard lock(input_->mutex);
      input_->closed = true;
      input_->idleFd = -1;
      input_->wake = nullptr;
    }
    if (!reaped_) ChildTable::instance().release(id_, kReapPatience);
  }

  RunningChild(const RunningChild&) = delete;
  RunningChild& operator=(const RunningChild&) = delete;

  void begin(const CancellationToken& cancellation, OutputHandler onOutput, ExitHandler onExit) {
    onOutput_ = std::move(onOutput);
    onExit_ = std::move(onExit);
    if (input_) {
      std::lock_guard lock(input_->mutex);
      input_->sigpipeIgnored = sigpipeIgnored_;
      input_->wake = [weak = weak_from_this(), strand = strand_] {
        asio::post(strand, [weak] {
          if (auto self = weak.lock()) self->writeStdin();
        });
      };
    }
    for (auto& output : outputs_)
      if (output.pipe) read(output);
    writeStdin();
    waitForExit();
    if (spec_.timeout.count() > 0) {
      timeout_.expires_after(spec_.timeout);
      timeout_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
        if (!error) self->terminate(self->outcome_.timedOut);
      });
    }
    // The callback runs on the cancelling thread, possibly after this child is gone: it only
    // hops onto the strand, holding the child weakly.
    cancelRegistration_ = cancellation.onCancel([weak = weak_from_this(), strand = strand_] {
      asio::post(strand, [weak] {
        if (auto self = weak.lock()) self->terminate(self->outcome_.cancelled);
      });
    });
  }

private:
  struct Output {
    OutputStream stream = OutputStream::Stdout;
    std::optional<asio::posix::stream_descriptor> pipe; ///< empty once closed (or never opened)
    std::array<char, 65536> buffer{};
  };

  void read(Output& output) {
    output.pipe->async_read_some(
        asio::buffer(output.buffer), [self = shared_from_this(), &output](const boost::system::error_code& error,
                                                                          std::size_t size) {
          // After finish, what a read brought in is dropped: onExit has been called.
          if (self->finished_) return;
          if (size > 0) self->onOutput_(output.stream, std::string_view(output.buffer.data(), size));
          if (error || !self->readMore(output)) {
            // End of file, or an error that reading again would only repeat.
            output.pipe.reset();
            self->finishIfDrained();
            return;
          }
          if (output.pipe) self->read(output);
        });
  }

  /// Reads on while the pipe has more, up to a bound: a chatty child fills its pipe faster than
  /// one completion per read could empty it, and each completion is a trip through the loop. The
  /// bound keeps one child from holding the strand. False at the end of the output.
  bool readMore(Output& output) {
    constexpr int kReadsPerWakeup = 16;
    for (int i = 0; i < kReadsPerWakeup && !finished_; ++i) {
      const ssize_t got = ::read(output.pipe->native_handle(), output.buffer.data(), output.buffer.size());
      if (got > 0) {
        onOutput_(output.stream, std::string_view(output.buffer.data(), static_cast<std::size_t>(got)));
        continue;
      }
      if (got == 0) return false;
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    return true;
  }

  /// Writes what the pipe takes now, then waits for room; closes stdin when all is written or the
  /// child stopped reading (a child may exit without reading its input: that is not an error).
  void writeStdin() {
    if (!stdin_.is_open() || writeWaiting_) return;
    while (stdinWritten_ < stdinData_.size() || takeQueuedInput()) {
      SigpipeBlock block(!sigpipeIgnored_);
      const ssize_t written =
          ::write(stdin_.native_handle(), stdinData_.data() + stdinWritten_, stdinData_.size() - stdinWritten_);
      if (written >= 0) {
        stdinWritten_ += static_cast<std::size_t>(written);
        continue;
      }
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        writeWaiting_ = true;
        stdin_.async_wait(asio::posix::descriptor_base::wait_write,
                          [self = shared_from_this()](const boost::system::error_code& error) {
                            self->writeWaiting_ = false;
                            if (!error) self->writeStdin();
                          });
        return;
      }
      if (errno == EPIPE) block.consume();
      break;
    }
    if (stdinWritten_ >= stdinData_.size() && input_) {
      std::lock_guard lock(input_->mutex);
      if (!input_->closed) {
        // All written; more may come. With nothing queued meanwhile (what was is the wake's,
        // already posted), writers may write themselves until the pipe is full.
        if (input_->queued.empty()) input_->idleFd = stdin_.native_handle();
        return;
      }
      input_->idleFd = -1;
    }
    closeStdin();
  }

  /// Moves what a ChildInput queued into the buffer being written; false when nothing was queued.
  bool takeQueuedInput() {
    if (!input_) return false;
    std::lock_guard lock(input_->mutex);
    if (input_->queued.empty()) return false;
    stdinData_ = std::move(input_->queued);
    input_->queued.clear();
    stdinWritten_ = 0;
    return true;
  }

  void closeStdin() {
    if (input_) {
      // Before the descriptor closes: no writer may use it (or a number reused) afterwards.
      std::lock_guard lock(input_->mutex);
      input_->closed = true;
      input_->idleFd = -1;
      input_->queued.clear();
      input_->wake = nullptr; // it holds this child weakly, but it is no use any more
    }
    boost::system::error_code ignored;
    stdin_.close(ignored);
    stdinData_ = std::string();
    stdinWritten_ = 0;
  }

  void waitForExit() {
    if (exitPolled_) {
      // No pidfd on this kernel: ask again after 1 ms, then twice as long each time up to 50 ms,
      // so a quick command is seen at once and a long one costs a look every 50 ms.
      exitPoll_.expires_after(pollDelay_);
      pollDelay_ = std::min(pollDelay_ * 2, std::chrono::milliseconds(50));
      exitPoll_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
        if (error) return;
        if (ChildTable::instance().hasExited(self->id_)) self->exited();
        else self->waitForExit();
      });
      return;
    }
    if (!pidfd_.is_open()) {
      // Reaped by someone else before its pidfd could be opened: it has exited.
      asio::post(strand_, [self = shared_from_this()] { self->exited(); });
      return;
    }
    pidfd_.async_wait(asio::posix::descriptor_base::wait_read,
                      [self = shared_from_this()](const boost::system::error_code& error) {
                        if (!error) self->exited();
                      });
  }

  void exited() {
    if (reaped_) return; // a wait re-armed below completed after the exit was handled
    // A readiness report is not yet an exit: the reactor may report a descriptor ready when it
    // is not (Asio leaves a closed descriptor's epoll entry to the close and reuses its state, so
    // a late event can land on a newer descriptor), and the group kill below must never reach a
    // command that still runs. So the kernel is asked first; an exit that comes between the
    // wait re-armed here and the second question may have signalled before the wait was armed,
    // so it is handled now rather than waited for.
    if (!ChildTable::instance().hasExited(id_)) {
      waitForExit();
      if (!ChildTable::instance().hasExited(id_)) return;
    }
    // The rest of the group goes now, while the unreaped leader keeps its group id from being
    // reused. (Background jobs that should outlive the command are a later, opt-in matter.)
    ChildTable::instance().signalGroup(id_, SIGKILL);
    const auto reaped = ChildTable::instance().tryReap(id_);
    if (!reaped) {
      waitForExit(); // a pidfd reports only exits; this is a defence, not an expected path
      return;
    }
    reaped_ = true;
    if (reaped->waitStatus) outcome_.status = ExitStatus::fromWaitStatus(*reaped->waitStatus);
    boost::system::error_code ignored;
    pidfd_.close(ignored);
    exitPoll_.cancel();
    timeout_.cancel();
    grace_.cancel();
    closeStdin();
    // What the child wrote before it exited is in the pipes; a descendant that still holds them
    // (one that escaped the group with setsid) may keep them open for ever, so the drain is bounded.
    drain_.expires_after(spec_.drainAfterExit);
    drain_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
      if (!error) self->finish();
    });
    finishIfDrained();
  }

  /// SIGTERM to the group, then SIGKILL after the grace period unless the child has exited.
  void terminate(bool& reason) {
    if (reaped_ || finished_) return; // it ended on its own first
    reason = true;
    if (terminating_) return;
    terminating_ = true;
    ChildTable::instance().signalGroup(id_, SIGTERM);
    grace_.expires_after(spec_.killGrace);
    grace_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
      if (!error && !self->reaped_) ChildTable::instance().signalGroup(self->id_, SIGKILL);
    });
  }

  void finishIfDrained() {
    if (reaped_ && !outputs_[0].pipe && !outputs_[1].pipe) finish();
  }

  void finish() {
    if (finished_) return;
    finished_ = true;
    drain_.cancel();
    for (auto& output : outputs_) output.pipe.reset();
    cancelRegistration_.reset();
    auto onExit = std::move(onExit_);
    onOutput_ = nullptr;
    onExit(std::move(outcome_));
  }

  Strand strand_;
  ProcessSpec spec_;
  ChildTable::ChildId id_;
  std::shared_ptr<ChildInput::State> input_; ///< null unless started with startWithInput
  bool writeWaiting_ = false;                ///< a wait for room in the stdin pipe is pending
  const bool sigpipeIgnored_ = sigpipeIgnoredNow(); ///< then writes need no SigpipeBlock
  std::string stdinData_;
  std::size_t stdinWritten_ = 0;
  const bool exitPolled_;                    ///< no pidfd: see SpawnedProcess::exitPolled
  std::chrono::milliseconds pollDelay_{1};
  asio::posix::stream_descriptor pidfd_;
  asio::posix::stream_descriptor stdin_;
  std::array<Output, 2> outputs_;
  asio::steady_timer timeout_;
  asio::steady_timer grace_;
  asio::steady_timer drain_;
  asio::steady_timer exitPoll_;
  OutputHandler onOutput_;
  ExitHandler onExit_;
  CancellationRegistration cancelRegistration_;
  ProcessOutcome outcome_;
  bool terminating_ = false;
  bool reaped_ = false;
  bool finished_ = false;
};

} // namespace

std::string ProcessOutcome::describe() const {
  if (!spawnError.empty()) return spawnError;
  std::string text;
  if (timedOut) text = "timed out; ";
  if (cancelled) text += "cancelled; ";
  if (status) return text + status->describe();
  if (cancelled && text == "cancelled; ") return "cancelled before it started";
  return text + "exit status unknown (reaped outside toold)";
}

bool resetChildSignalDisposition() {
  struct sigaction current {};
  if (::sigaction(SIGCHLD, nullptr, &current) != 0) return false;
  const bool ignored = (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_IGN;
  if (!ignored && (current.sa_flags & SA_NOCLDWAIT) == 0) return false;
  if (ignored) {
    current = {};
    current.sa_handler = SIG_DFL;
    sigemptyset(&current.sa_mask);
  } else {
    current.sa_flags &= ~SA_NOCLDWAIT; // keep whoever's handler it is
  }
  ::sigaction(SIGCHLD, &current, nullptr);
  return true;
}

ProcessRunner::ProcessRunner(asio::io_context& io) : shared_(std::make_shared<Shared>(io)) {}

ProcessRunner::~ProcessRunner() { ChildTable::instance().retire(shared_->owner, kReapPatience); }

void ProcessRunner::start(ProcessSpec spec, CancellationToken cancellation, OutputHandler onOutput,
                          ExitHandler onExit) {
  startChild(shared_, std::move(spec), std::move(cancellation), std::move(onOutput), std::move(onExit), nullptr,
             std::nullopt);
}

std::shared_ptr<ChildInput> ProcessRunner::startWithInput(ProcessSpec spec, CancellationToken cancellation,
                                                          OutputHandler onOutput, ExitHandler onExit,
                                                          std::optional<Strand> strand) {
  auto state = std::make_shared<ChildInput::State>();
  if (!spec.stdinData) spec.stdinData = std::string(); // a pipe, not /dev/null
  startChild(shared_, std::move(spec), std::move(cancellation), std::move(onOutput), std::move(onExit), state,
             std::move(strand));
  return std::make_shared<ChildInput>(std::move(state));
}

void ProcessRunner::startChild(const std::shared_ptr<Shared>& runner, ProcessSpec spec, CancellationToken cancellation,
                               OutputHandler onOutput, ExitHandler onExit,
                               std::shared_ptr<ChildInput::State> input, std::optional<Strand> strand) {
  // Posted, never run inline: a caller on the strand must not see onExit inside start(). The
  // child's strand (the runner's unless one was given) runs its spawn and everything after it.
  const Strand childStrand = strand.value_or(runner->strand);
  asio::post(childStrand, [shared = runner, spec = std::move(spec), cancellation = std::move(cancellation),
                           onOutput = std::move(onOutput), onExit = std::move(onExit),
                           input = std::move(input), childStrand]() mutable {
    ProcessOutcome outcome;
    if (cancellation.isCancelled()) {
      outcome.cancelled = true;
      onExit(std::move(outcome));
      return;
    }
    if (resetChildSignalDisposition())
      spdlog::warn("SIGCHLD was ignored, which discards exit statuses; it is back to its default");
    const std::string program = spec.argv.empty() ? std::string() : spec.argv.front();
    SpawnedProcess process = spawnProcess(spec, shared->owner);
    if (process.id == 0) {
      outcome.spawnError = std::move(process.error);
      onExit(std::move(outcome));
      return;
    }
    std::shared_ptr<RunningChild> child;
    try {
      child = std::make_shared<RunningChild>(childStrand, std::move(spec), process, input);
    } catch (const std::exception& e) { // epoll refused a descriptor (out of memory or watches)
      ChildTable::instance().release(process.id, kReapPatience);
      outcome.spawnError = "cannot run \"" + program + "\": " + e.what();
      onExit(std::move(outcome));
      return;
    }
    if (input) input->pid = process.pid;
    child->begin(cancellation, std::move(onOutput), std::move(onExit));
  });
}

void ProcessRunner::killAll() { ChildTable::instance().killAll(shared_->owner, kReapPatience); }

std::size_t ProcessRunner::liveCount() const { return ChildTable::instance().liveCount(shared_->owner); }

void runCaptured(ProcessRunner& runner, ProcessSpec spec, CancellationToken cancellation, std::size_t stdoutCap,
                 std::size_t stderrTailBytes, std::function<void(CapturedRun)> done) {
  // Shared by the two callbacks, which run one at a time on the runner's strand.
  auto run = std::make_shared<CapturedRun>();
  auto onOutput = [run, stdoutCap, stderrTailBytes](OutputStream stream, std::string_view bytes) {
    if (stream == OutputStream::Stdout) {
      const std::size_t room = stdoutCap - std::min(stdoutCap, run->stdoutData.size());
      if (bytes.size() > room) run->stdoutTruncated = true;
      run->stdoutData.append(bytes.substr(0, room));
      return;
    }
    std::string& tail = run->stderrTail;
    tail.append(bytes);
    // Trimmed when twice the size, so that a chatty child costs amortised constant time per byte.
    if (tail.size() > 2 * stderrTailBytes + 4096) tail.erase(0, tail.size() - stderrTailBytes);
  };
  auto onExit = [run, stderrTailBytes, done = std::move(done)](ProcessOutcome outcome) {
    if (run->stderrTail.size() > stderrTailBytes) run->stderrTail.erase(0, run->stderrTail.size() - stderrTailBytes);
    run->outcome = std::move(outcome);
    done(std::move(*run));
  };
  runner.start(std::move(spec), std::move(cancellation), std::move(onOutput), std::move(onExit));
}

} // namespace toold::core
