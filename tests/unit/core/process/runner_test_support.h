// What the process runner's tests share: an io_context on a thread of its own, one run's output
// and outcome, and a signal's disposition set for the length of a test.
#pragma once

#include "core/process/process_runner.h"

#include <catch2/catch.hpp>

#include <signal.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace toold::core::testing {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

/// An io_context run on a thread of its own for the length of a test.
class Loop {
public:
  Loop() : thread_([this] { io.run(); }) {}
  ~Loop() {
    work_.reset();
    io.stop();
    thread_.join();
  }
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  boost::asio::io_context io;

private:
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_ = boost::asio::make_work_guard(io);
  std::thread thread_;
};

/// What one run produced. Filled in on the runner's strand; read by the test only once `outcome`
/// is ready, which orders the two.
struct Run {
  std::string out;
  std::string err;
  std::promise<ProcessOutcome> done;
  std::future<ProcessOutcome> outcome = done.get_future();
  Clock::time_point started = Clock::now();
  Clock::time_point finished;

  /// The outcome, failing the test if it does not come within `limit`.
  ProcessOutcome wait(Clock::duration limit = 10s) {
    REQUIRE(outcome.wait_for(limit) == std::future_status::ready);
    return outcome.get();
  }
  Clock::duration elapsed() const { return finished - started; }
};

inline std::shared_ptr<Run> start(ProcessRunner& runner, ProcessSpec spec, CancellationToken cancellation = {}) {
  auto run = std::make_shared<Run>();
  runner.start(
      std::move(spec), std::move(cancellation),
      [run](OutputStream stream, std::string_view bytes) {
        (stream == OutputStream::Stdout ? run->out : run->err).append(bytes);
      },
      [run](ProcessOutcome outcome) {
        run->finished = Clock::now();
        run->done.set_value(std::move(outcome));
      });
  return run;
}

inline ProcessSpec shell(const std::string& script) { return {.argv = {"/bin/sh", "-c", script}}; }

/// Sets a signal's disposition for the length of a test.
class SignalDisposition {
public:
  SignalDisposition(int signal, void (*handler)(int)) : signal_(signal) {
    struct sigaction wanted {};
    wanted.sa_handler = handler;
    sigemptyset(&wanted.sa_mask);
    ::sigaction(signal_, &wanted, &previous_);
  }
  ~SignalDisposition() { ::sigaction(signal_, &previous_, nullptr); }
  SignalDisposition(const SignalDisposition&) = delete;
  SignalDisposition& operator=(const SignalDisposition&) = delete;

private:
  int signal_;
  struct sigaction previous_ {};
};

} // namespace toold::core::testing
