// The measurements of a set of servers, side by side: spawn-to-initialize latency, sequential and
// pipelined ping round trips, optionally sequential and pipelined tool calls, and resident memory
// afterwards.
#pragma once

#include "protocol/framing.h"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::bench {

/// The tool call a server is measured with, next to its pings.
struct CallSpec {
  enum class Kind {
    Native, ///< toold's `call` through a snapshot taken once, after initialize
    Mcp,    ///< MCP's `tools/call`
  };
  Kind kind = Kind::Native;
  std::string tool;
  std::string arguments; ///< compact JSON object: the native call's `input` or MCP's `arguments`
};

/// Parses `native:TOOL[:JSON]` (input {"text":"hello"} unless given) or `mcp:TOOL[:JSON]`
/// (arguments {} unless given). Throws std::invalid_argument saying what is wrong.
CallSpec parseCallSpec(std::string_view spec);

/// How a CallSpec reads in a table: the method and the tool.
std::string describeCall(const CallSpec& call);

struct BenchConfig {
  std::size_t spawns = 21;
  std::size_t pings = 100000;
  std::size_t calls = 20000;
  std::size_t pipeline = 64;
  std::size_t warmup = 1000; ///< requests before each timed run, so a JIT-compiled server is measured warm
  protocol::Framing framing = protocol::Framing::Ndjson;
  std::chrono::milliseconds timeout{10000};
  bool keepStderr = false;
  std::size_t sessions = 1; ///< native calls spread over this many sessions, in turn by request id
  std::size_t rounds = 5;   ///< turns each timed loop is split into, the servers alternating
};

/// Requests per second with one in flight and with BenchConfig::pipeline in flight.
struct Rates {
  double sequentialPerSecond = 0;
  double pipelinedPerSecond = 0;
  /// The server's own CPU time per request with one in flight, µs (all its threads, from its CPU
  /// clock around each sequential loop); 0 when it could not be read.
  double sequentialCpuMicros = 0;
};

struct BenchResult {
  double initializeMedianMs = 0;
  double initializeMinMs = 0;
  double initializeMaxMs = 0;
  /// CPU time of a whole start: spawn, initialize answered, stdin closed, exit (its children
  /// included, from getrusage), median over the spawns; and its minor page faults, likewise.
  double startCpuMedianMs = 0;
  double startPageFaultsMedian = 0;
  /// Right after initialize was answered (the last spawn): the process's own resident memory and
  /// the private part of it (smaps_rollup).
  std::size_t idleResidentKiB = 0;
  std::size_t idlePrivateKiB = 0;
  std::size_t idleWrittenKiB = 0;
  double sequentialPerSecond = 0;
  double pipelinedPerSecond = 0;
  double sequentialPingCpuMicros = 0; ///< as Rates::sequentialCpuMicros, for the pings
  std::optional<Rates> calls; ///< set when the server was measured with a call and the calls succeeded
  /// For native calls: the same request bytes sent to `$/test/echo`, which parses them and
  /// answers them whole — the transport's share of a call, so that the rest is the pipeline's.
  std::optional<Rates> echoes;
  std::string callFailure;    ///< why the calls failed; the pings' figures stand regardless
  std::size_t residentKiB = 0;
};

/// A server to measure: its command line, and the call it is measured with, if any.
struct BenchTarget {
  std::vector<std::string> argv;
  std::optional<CallSpec> call;
  /// The command line of the spawns that measure a start (empty: argv).
  std::vector<std::string> startArgv = {};
};

/// A server's results, or why it failed: it did not start, answered wrongly, or stayed silent
/// past the timeout. When only its calls failed (an error reply, a call that did not succeed),
/// the result stands and says so in callFailure.
struct BenchOutcome {
  std::optional<BenchResult> result;
  std::string failure;
};

/// Starts every server and measures them side by side: the spawns in turn, then for the pings,
/// the calls and the echoes, an untimed warmup each and `config.rounds` rounds in which each
/// server runs its share of the sequential and then of the pipelined loop, the order turning by
/// one each round.
std::vector<BenchOutcome> runBenches(const std::vector<BenchTarget>& targets, const BenchConfig& config);

} // namespace toold::bench
