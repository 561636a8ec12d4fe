// The measurements of one server: spawn-to-initialize latency, sequential and pipelined ping
// round trips, and resident memory afterwards.
#pragma once

#include "protocol/framing.h"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace toold::bench {

struct BenchConfig {
  std::size_t spawns = 21;
  std::size_t pings = 100000;
  std::size_t pipeline = 64;
  std::size_t warmup = 1000; ///< pings before each timed run, so a JIT-compiled server is measured warm
  protocol::Framing framing = protocol::Framing::Ndjson;
  std::chrono::milliseconds timeout{10000};
  bool keepStderr = false;
};

struct BenchResult {
  double initializeMedianMs = 0;
  double initializeMinMs = 0;
  double initializeMaxMs = 0;
  double sequentialPerSecond = 0;
  double pipelinedPerSecond = 0;
  std::size_t residentKiB = 0;
};

/// Runs every measurement against the server started by `argv`. Throws std::runtime_error when
/// the server fails to start, answers wrongly, or stays silent past the timeout.
BenchResult runBench(const std::vector<std::string>& argv, const BenchConfig& config);

} // namespace toold::bench
