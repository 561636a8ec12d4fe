// The measurements of one server: spawn-to-initialize latency, sequential and pipelined ping
// round trips, optionally sequential and pipelined tool calls, and resident memory afterwards.
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
};

/// Requests per second with one in flight and with BenchConfig::pipeline in flight.
struct Rates {
  double sequentialPerSecond = 0;
  double pipelinedPerSecond = 0;
};

struct BenchResult {
  double initializeMedianMs = 0;
  double initializeMinMs = 0;
  double initializeMaxMs = 0;
  double sequentialPerSecond = 0;
  double pipelinedPerSecond = 0;
  std::optional<Rates> calls; ///< set when the server was measured with a call and the calls succeeded
  /// For native calls: the same request bytes sent to `$/test/echo`, which parses them and
  /// answers them whole — the transport's share of a call, so that the rest is the pipeline's.
  std::optional<Rates> echoes;
  std::string callFailure;    ///< why the calls failed; the pings' figures stand regardless
  std::size_t residentKiB = 0;
};

/// Runs every measurement against the server started by `argv`, with `call` when given. Throws
/// std::runtime_error when the server fails to start, answers wrongly, or stays silent past the
/// timeout; when only the calls do (an error reply, a call that did not succeed), says so in
/// callFailure instead.
BenchResult runBench(const std::vector<std::string>& argv, const BenchConfig& config,
                     const std::optional<CallSpec>& call);

} // namespace toold::bench
