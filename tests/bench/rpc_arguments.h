// toold-bench-rpc's command line: the servers to measure, what to call, the targets, and the
// usage text; parsed once at start, with a clear message and exit status 2 for a bad argument.
#pragma once

#include "tests/bench/rpc_bench.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace toold::bench {

struct Server {
  std::string name;
  std::string command;
  std::vector<std::string> argv;
  std::vector<std::string> startArgv; ///< --start: the command line of the start measures (empty: argv)
  std::optional<bench::CallSpec> call;
  bool baseline = false; ///< shown for reference (what the machine costs), never compared with
  bool yardstick = false; ///< --yardstick: the baseline the summary's rows are set against
  bool startFloor = false; ///< --start-floor: a baseline whose start the summary also sets the first server against
};

// What a start of the first server should cost at most, against the yardstick (a one-thread
// responder built on the same JSON library): spawn to initialize answered, in the yardstick's
// times; CPU of a whole start (spawn, initialize, exit), ms; resident and private memory once
// initialize is answered, MiB.
constexpr double kStartTimeRatio = 1.5;
constexpr double kStartCpuMs = 8.0;
constexpr double kIdleResidentMiB = 8.0;
constexpr double kIdlePrivateMiB = 2.5;

struct Targets {
  double initializeMs = 0;
  double sequential = 0;
  double pipelined = 0;
  double residentMiB = 0;
  double pingsPerCall = 2.0;
};

struct Arguments {
  std::vector<Server> servers;
  bench::BenchConfig config;
  std::optional<Targets> targets;
  std::optional<std::size_t> cpu;
  std::optional<double> callRatio; ///< --call-ratio: the first server's calls/s over each peer's, at least
  std::optional<double> callCpuMicros; ///< --call-cpu: the first server's CPU per call, one in flight, at most (µs)
  bool pingSummary = true;         ///< --no-ping-summary: only the calls go to TOOLD_BENCH_SUMMARY
};

/// The command line, or the usage text on stderr and exit status 2.
Arguments parseArguments(int argc, char** argv);

} // namespace toold::bench
