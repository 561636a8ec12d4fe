// toold-bench-rpc: measures JSON-RPC servers over stdio and prints one markdown row per server,
// plus how the first server compares with each of its peers (servers of another program); then,
// for the servers measured with a tool call, what a call costs in pings and how the calls compare.
#include "tests/bench/command_line.h"
#include "tests/bench/rpc_arguments.h"
#include "tests/bench/rpc_bench.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <sched.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace toold;
using namespace toold::bench;

/// 1234567.8 → "1,234,568": rates are easier to compare with thousands separators.
std::string grouped(double value) {
  const std::string digits = std::to_string(static_cast<long long>(value + 0.5));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

double mib(std::size_t kib) { return static_cast<double>(kib) / 1024.0; }

std::string ratio(double better, double worse) {
  if (better <= 0 || worse <= 0) return "n/a";
  return fixed(better / worse, 1) + "×";
}

using Results = std::vector<std::optional<bench::BenchResult>>;

/// One line of the summary scripts/bench gathers into its table of ratios, appended to the file
/// $TOOLD_BENCH_SUMMARY names (nothing when it is unset): what was measured, both sides, the ratio
/// with what it means, and the target with whether it was met. The texts hold nothing to escape.
void summarize(const std::string& measure, const std::string& toold, const std::string& yardstick, double ratio,
               const std::string& meaning, const std::string& target, std::optional<bool> met) {
  const char* file = std::getenv("TOOLD_BENCH_SUMMARY");
  if (file == nullptr || *file == '\0') return;
  if (FILE* out = std::fopen(file, "a")) {
    std::fprintf(out,
                 "{\"bench\":\"bench-rpc\",\"measure\":\"%s\",\"toold\":\"%s\",\"yardstick\":\"%s\","
                 "\"ratio\":%.4g,\"means\":\"%s\",\"target\":\"%s\",\"met\":%s}\n",
                 measure.c_str(), toold.c_str(), yardstick.c_str(), ratio, meaning.c_str(), target.c_str(),
                 met ? (*met ? "true" : "false") : "null");
    std::fclose(out);
  }
}

/// A server of another program than the first server's: a second toold row (another protocol,
/// say) is not compared with toold, nor is a baseline.
bool isPeer(const Arguments& args, std::size_t i) {
  return i > 0 && !args.servers[i].baseline && args.servers[i].argv.front() != args.servers.front().argv.front();
}

/// A baseline without a call whose pings go to the summary: the yardstick when one was named,
/// else every such baseline.
bool summarizedFloor(const Arguments& args, std::size_t i) {
  const auto& server = args.servers[i];
  if (!server.baseline || server.call) return false;
  const bool anyYardstick = std::any_of(args.servers.begin(), args.servers.end(), [](const Server& s) { return s.yardstick; });
  return !anyYardstick || server.yardstick;
}

/// What one call costs in pings: how many pings fit in the time of one call.
double pingsPerCall(double pingsPerSecond, double callsPerSecond) {
  return callsPerSecond > 0 ? pingsPerSecond / callsPerSecond : 0;
}

void printPingTable(const Arguments& args, const Results& results) {
  const auto& config = args.config;
  std::printf("| server | initialize, ms (median of %zu; min–max) | sequential pings/s | pipelined pings/s (%zu in flight) | RSS, MiB |\n",
              config.spawns, config.pipeline);
  std::printf("|---|---:|---:|---:|---:|\n");
  for (std::size_t i = 0; i < args.servers.size(); ++i) {
    const auto& r = results[i];
    if (!r) {
      std::printf("| %s | failed | failed | failed | failed |\n", args.servers[i].name.c_str());
      continue;
    }
    const std::string initialize = config.spawns == 0 ? "n/a"
                                   : fixed(r->initializeMedianMs, 2) + " (" + fixed(r->initializeMinMs, 2) + "–" +
                                         fixed(r->initializeMaxMs, 2) + ")";
    std::printf("| %s | %s | %s | %s | %s |\n", args.servers[i].name.c_str(), initialize.c_str(),
                grouped(r->sequentialPerSecond).c_str(), grouped(r->pipelinedPerSecond).c_str(),
                fixed(mib(r->residentKiB), 1).c_str());
  }
  const auto& first = results.front();
  // The floor: how close toold comes to a responder that does nothing, as a fraction of it.
  for (std::size_t i = 1; i < args.servers.size(); ++i) {
    const auto& floor = results[i];
    // A floor with a call is a floor for that call (printFloorCalls), its pings beside the point.
    if (!first || !floor || !args.servers[i].baseline || args.servers[i].call) continue;
    std::printf("| %s ÷ %s | | %s of it | %s of it | |\n", args.servers.front().name.c_str(),
                args.servers[i].name.c_str(), fixed(first->sequentialPerSecond / floor->sequentialPerSecond, 2).c_str(),
                fixed(first->pipelinedPerSecond / floor->pipelinedPerSecond, 2).c_str());
    const double sequential = first->sequentialPerSecond / floor->sequentialPerSecond;
    const double pipelined = first->pipelinedPerSecond / floor->pipelinedPerSecond;
    if (!args.pingSummary || !summarizedFloor(args, i)) continue;
    // Against floor_json, which parses every frame as toold must: at least 0.9 of its rate.
    constexpr double kPingsOfFloor = 0.9;
    summarize("sequential pings", grouped(first->sequentialPerSecond) + "/s",
              args.servers[i].name + " " + grouped(floor->sequentialPerSecond) + "/s", sequential, "toold ÷ floor, pings/s",
              "≥ 0.9", sequential >= kPingsOfFloor);
    summarize("pipelined pings", grouped(first->pipelinedPerSecond) + "/s",
              args.servers[i].name + " " + grouped(floor->pipelinedPerSecond) + "/s", pipelined, "toold ÷ floor, pings/s",
              "≥ 0.9", pipelined >= kPingsOfFloor);
  }
  for (std::size_t i = 1; i < args.servers.size(); ++i) {
    const auto& peer = results[i];
    if (!first || !peer || !isPeer(args, i)) continue;
    if (args.pingSummary)
      summarize("sequential pings", grouped(first->sequentialPerSecond) + "/s",
                args.servers[i].name + " " + grouped(peer->sequentialPerSecond) + "/s",
                first->sequentialPerSecond / peer->sequentialPerSecond, "toold ÷ peer, pings/s", "", std::nullopt);
    std::printf("| %s ÷ %s | %s better | %s | %s | %s better |\n", args.servers.front().name.c_str(),
                args.servers[i].name.c_str(), ratio(peer->initializeMedianMs, first->initializeMedianMs).c_str(),
                ratio(first->sequentialPerSecond, peer->sequentialPerSecond).c_str(),
                ratio(first->pipelinedPerSecond, peer->pipelinedPerSecond).c_str(),
                ratio(static_cast<double>(peer->residentKiB), static_cast<double>(first->residentKiB)).c_str());
  }
}

/// The first server's start set against a variant of the yardstick (--start-floor), without a
/// target: the part of the start that toold's link mode or code linked in costs any server.
void summarizeStartFloor(const std::string& name, const bench::BenchResult& first, const bench::BenchResult& floor) {
  const std::string over = " (over " + name + ")";
  summarize("spawn → initialize answered" + over, fixed(first.initializeMedianMs, 2) + " ms",
            name + " " + fixed(floor.initializeMedianMs, 2) + " ms", first.initializeMedianMs / floor.initializeMedianMs,
            "toold ÷ yardstick, time", "", std::nullopt);
  summarize("start-up CPU (spawn, initialize, exit)" + over, fixed(first.startCpuMedianMs, 2) + " ms",
            name + " " + fixed(floor.startCpuMedianMs, 2) + " ms", first.startCpuMedianMs / floor.startCpuMedianMs,
            "toold ÷ yardstick, CPU time", "", std::nullopt);
  summarize("idle RSS after initialize" + over, fixed(mib(first.idleResidentKiB), 2) + " MiB",
            name + " " + fixed(mib(floor.idleResidentKiB), 2) + " MiB",
            static_cast<double>(first.idleResidentKiB) / static_cast<double>(floor.idleResidentKiB),
            "toold ÷ yardstick, memory", "", std::nullopt);
}

/// What a start costs each server: spawn to initialize answered, the CPU of a whole start, its
/// page faults, and the memory held once initialize is answered; then the first server against
/// the yardstick, in the summary with the start targets.
void printStartTable(const Arguments& args, const Results& results) {
  if (args.config.spawns == 0) return;
  std::printf("\n| server | spawn → initialize, ms | start CPU (spawn, initialize, exit), ms | page faults | "
              "idle RSS, MiB | idle private, MiB | idle written, MiB |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (std::size_t i = 0; i < args.servers.size(); ++i) {
    const auto& r = results[i];
    if (!r) continue;
    std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", args.servers[i].name.c_str(),
                fixed(r->initializeMedianMs, 2).c_str(), fixed(r->startCpuMedianMs, 2).c_str(),
                grouped(r->startPageFaultsMedian).c_str(), fixed(mib(r->idleResidentKiB), 2).c_str(),
                fixed(mib(r->idlePrivateKiB), 2).c_str(), fixed(mib(r->idleWrittenKiB), 2).c_str());
  }
  const auto& first = results.front();
  for (std::size_t i = 1; i < args.servers.size(); ++i) {
    const auto& yard = results[i];
    if (!first || !yard || !(args.servers[i].yardstick || args.servers[i].startFloor)) continue;
    const std::string& name = args.servers[i].name;
    const double time = first->initializeMedianMs / yard->initializeMedianMs;
    std::printf("| %s ÷ %s | %s | %s | %s | %s | %s | %s |\n", args.servers.front().name.c_str(), name.c_str(),
                fixed(time, 2).c_str(), fixed(first->startCpuMedianMs / yard->startCpuMedianMs, 2).c_str(),
                fixed(first->startPageFaultsMedian / yard->startPageFaultsMedian, 2).c_str(),
                fixed(static_cast<double>(first->idleResidentKiB) / static_cast<double>(yard->idleResidentKiB), 2).c_str(),
                fixed(static_cast<double>(first->idlePrivateKiB) / static_cast<double>(yard->idlePrivateKiB), 2).c_str(),
                fixed(static_cast<double>(first->idleWrittenKiB) / static_cast<double>(yard->idleWrittenKiB), 2).c_str());
    if (!args.pingSummary) continue;
    if (args.servers[i].startFloor) {
      summarizeStartFloor(name, *first, *yard);
      continue;
    }
    summarize("spawn → initialize answered", fixed(first->initializeMedianMs, 2) + " ms",
              name + " " + fixed(yard->initializeMedianMs, 2) + " ms", time, "toold ÷ yardstick, time",
              "≤ " + fixed(kStartTimeRatio, 1) + "×", time <= kStartTimeRatio);
    summarize("start-up CPU (spawn, initialize, exit)", fixed(first->startCpuMedianMs, 2) + " ms",
              name + " " + fixed(yard->startCpuMedianMs, 2) + " ms", first->startCpuMedianMs / yard->startCpuMedianMs,
              "toold ÷ yardstick, CPU time", "≤ " + fixed(kStartCpuMs, 0) + " ms", first->startCpuMedianMs <= kStartCpuMs);
    summarize("idle RSS after initialize", fixed(mib(first->idleResidentKiB), 2) + " MiB",
              name + " " + fixed(mib(yard->idleResidentKiB), 2) + " MiB",
              static_cast<double>(first->idleResidentKiB) / static_cast<double>(yard->idleResidentKiB),
              "toold ÷ yardstick, memory", "≤ " + fixed(kIdleResidentMiB, 0) + " MiB",
              mib(first->idleResidentKiB) <= kIdleResidentMiB);
    summarize("idle private memory after initialize", fixed(mib(first->idlePrivateKiB), 2) + " MiB",
              name + " " + fixed(mib(yard->idlePrivateKiB), 2) + " MiB",
              static_cast<double>(first->idlePrivateKiB) / static_cast<double>(yard->idlePrivateKiB),
              "toold ÷ yardstick, memory", "≤ " + fixed(kIdlePrivateMiB, 1) + " MiB",
              mib(first->idlePrivateKiB) <= kIdlePrivateMiB);
    summarize("idle written memory after initialize (what a further copy costs)",
              fixed(mib(first->idleWrittenKiB), 2) + " MiB", name + " " + fixed(mib(yard->idleWrittenKiB), 2) + " MiB",
              static_cast<double>(first->idleWrittenKiB) / static_cast<double>(yard->idleWrittenKiB),
              "toold ÷ yardstick, memory", "", std::nullopt);
  }
}

/// The pipeline's own cost of a call, in pings: a call's time minus the time of the same bytes
/// echoed (parsing the request and writing an answer of that size), over a ping's time.
double pipelinePings(double pingsPerSecond, double callsPerSecond, double echoesPerSecond) {
  if (callsPerSecond <= 0 || echoesPerSecond <= 0) return 0;
  return (1.0 / callsPerSecond - 1.0 / echoesPerSecond) * pingsPerSecond;
}

/// For native calls: the same bytes through `$/test/echo`, and what is left for the pipeline.
void printPipelineTable(const Arguments& args, const Results& results) {
  bool any = false;
  for (const auto& r : results) any = any || (r && r->calls && r->echoes);
  if (!any) return;
  std::printf("\n| server | `$/test/echo` of the call's bytes, sequential/s | pipelined/s | pipeline÷ping, sequential | pipeline÷ping, pipelined |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  for (std::size_t i = 0; i < args.servers.size(); ++i) {
    const auto& r = results[i];
    // A floor answers the echo with nothing: no pipeline to set apart.
    if (!r || !r->calls || !r->echoes || args.servers[i].baseline) continue;
    std::printf("| %s | %s | %s | %s | %s |\n", args.servers[i].name.c_str(), grouped(r->echoes->sequentialPerSecond).c_str(),
                grouped(r->echoes->pipelinedPerSecond).c_str(),
                fixed(pipelinePings(r->sequentialPerSecond, r->calls->sequentialPerSecond, r->echoes->sequentialPerSecond), 2).c_str(),
                fixed(pipelinePings(r->pipelinedPerSecond, r->calls->pipelinedPerSecond, r->echoes->pipelinedPerSecond), 2).c_str());
  }
}

/// Rows for the servers measured with a call; then each of the first server's program compared
/// with each peer, both measured with calls.
void printCallTable(const Arguments& args, const Results& results) {
  auto called = [&](std::size_t i) { return args.servers[i].call && results[i] && results[i]->calls; };
  bool any = false;
  for (std::size_t i = 0; i < args.servers.size(); ++i) any = any || args.servers[i].call;
  if (!any) return;
  std::printf("\n| server | call | sequential calls/s | pipelined calls/s (%zu in flight) | ping÷call, sequential | ping÷call, pipelined |\n",
              args.config.pipeline);
  std::printf("|---|---|---:|---:|---:|---:|\n");
  for (std::size_t i = 0; i < args.servers.size(); ++i) {
    const auto& server = args.servers[i];
    if (!server.call) continue;
    const std::string call = bench::describeCall(*server.call);
    if (!called(i)) {
      std::printf("| %s | %s | failed | failed | failed | failed |\n", server.name.c_str(), call.c_str());
      continue;
    }
    const auto& r = *results[i];
    std::printf("| %s | %s | %s | %s | %s | %s |\n", server.name.c_str(), call.c_str(),
                grouped(r.calls->sequentialPerSecond).c_str(), grouped(r.calls->pipelinedPerSecond).c_str(),
                fixed(pingsPerCall(r.sequentialPerSecond, r.calls->sequentialPerSecond), 2).c_str(),
                fixed(pingsPerCall(r.pipelinedPerSecond, r.calls->pipelinedPerSecond), 2).c_str());
  }
  for (std::size_t own = 0; own < args.servers.size(); ++own) {
    if (isPeer(args, own) || args.servers[own].baseline || !called(own)) continue;
    for (std::size_t peer = 1; peer < args.servers.size(); ++peer) {
      if (!isPeer(args, peer) || !called(peer)) continue;
      const auto& a = *results[own]->calls;
      const auto& b = *results[peer]->calls;
      std::printf("| %s ÷ %s | | %s | %s | | |\n", args.servers[own].name.c_str(), args.servers[peer].name.c_str(),
                  ratio(a.sequentialPerSecond, b.sequentialPerSecond).c_str(),
                  ratio(a.pipelinedPerSecond, b.pipelinedPerSecond).c_str());
      const std::string what = bench::describeCall(*args.servers[own].call);
      const std::string theirs = args.servers[peer].name + " " + bench::describeCall(*args.servers[peer].call);
      const std::string target = args.callRatio ? "≥ " + fixed(*args.callRatio, 1) : "";
      auto met = [&](double r) { return args.callRatio ? std::optional<bool>(r >= *args.callRatio) : std::nullopt; };
      const double sequential = a.sequentialPerSecond / b.sequentialPerSecond;
      const double pipelined = a.pipelinedPerSecond / b.pipelinedPerSecond;
      summarize("sequential " + what, grouped(a.sequentialPerSecond) + "/s",
                theirs + " " + grouped(b.sequentialPerSecond) + "/s", sequential, "toold ÷ peer, calls/s", target,
                met(sequential));
      summarize("pipelined " + what + " (" + std::to_string(args.config.pipeline) + " in flight)",
                grouped(a.pipelinedPerSecond) + "/s", theirs + " " + grouped(b.pipelinedPerSecond) + "/s", pipelined,
                "toold ÷ peer, calls/s", target, met(pipelined));
    }
  }
}

void line(bool met, const std::string& what) { std::printf("- %s %s\n", met ? "met:   " : "MISSED:", what.c_str()); }

/// The first server against the ping targets; every server with a native call against the cost
/// of a call in pings.
void printTargets(const Arguments& args, const Results& results, const Targets& t) {
  if (args.callRatio && results.front() && results.front()->calls) {
    const auto& own = *results.front()->calls;
    for (std::size_t peer = 1; peer < args.servers.size(); ++peer) {
      if (!isPeer(args, peer) || !results[peer] || !results[peer]->calls) continue;
      const auto& theirs = *results[peer]->calls;
      std::printf("\nTargets for %s against %s:\n", args.servers.front().name.c_str(), args.servers[peer].name.c_str());
      line(own.sequentialPerSecond >= *args.callRatio * theirs.sequentialPerSecond,
           "sequential calls/s at least " + fixed(*args.callRatio, 1) + "× (got " +
               ratio(own.sequentialPerSecond, theirs.sequentialPerSecond) + ")");
      line(own.pipelinedPerSecond >= *args.callRatio * theirs.pipelinedPerSecond,
           "pipelined calls/s at least " + fixed(*args.callRatio, 1) + "× (got " +
               ratio(own.pipelinedPerSecond, theirs.pipelinedPerSecond) + ")");
    }
  }
  for (std::size_t i = 0; i < args.servers.size(); ++i) {
    const auto& r = results[i];
    const bool native = args.servers[i].call && args.servers[i].call->kind == bench::CallSpec::Kind::Native;
    if (!r || (i > 0 && !native) || args.servers[i].baseline) continue;
    std::printf("\nTargets for %s:\n", args.servers[i].name.c_str());
    if (i == 0 && args.pingSummary) { // a run for its calls (--no-ping-summary) is not judged on pings
      if (args.config.spawns > 0)
        line(r->initializeMedianMs <= t.initializeMs,
             "initialize ≤ " + fixed(t.initializeMs, 1) + " ms (got " + fixed(r->initializeMedianMs, 2) + ")");
      line(r->sequentialPerSecond >= t.sequential,
           "sequential ≥ " + grouped(t.sequential) + " pings/s (got " + grouped(r->sequentialPerSecond) + ")");
      line(r->pipelinedPerSecond >= t.pipelined,
           "pipelined ≥ " + grouped(t.pipelined) + " pings/s (got " + grouped(r->pipelinedPerSecond) + ")");
      line(mib(r->residentKiB) <= t.residentMiB,
           "RSS ≤ " + fixed(t.residentMiB, 1) + " MiB (got " + fixed(mib(r->residentKiB), 1) + ")");
    }
    if (!native) continue;
    if (!r->calls) {
      line(false, "a call costs at most " + fixed(t.pingsPerCall, 1) + " pings (the calls failed)");
      continue;
    }
    const double sequential = pingsPerCall(r->sequentialPerSecond, r->calls->sequentialPerSecond);
    const double pipelined = pingsPerCall(r->pipelinedPerSecond, r->calls->pipelinedPerSecond);
    line(sequential <= t.pingsPerCall,
         "a call costs at most " + fixed(t.pingsPerCall, 1) + " pings (sequential: got " + fixed(sequential, 2) + ")");
    line(pipelined <= t.pingsPerCall,
         "a call costs at most " + fixed(t.pingsPerCall, 1) + " pings (pipelined: got " + fixed(pipelined, 2) + ")");
    summarize(bench::describeCall(*args.servers[i].call) + ", one in flight",
              grouped(r->calls->sequentialPerSecond) + " calls/s", "pings " + grouped(r->sequentialPerSecond) + "/s",
              sequential, "pings per call", "≤ " + fixed(t.pingsPerCall, 1), sequential <= t.pingsPerCall);
    if (!r->echoes) continue;
    const double ownSequential = pipelinePings(r->sequentialPerSecond, r->calls->sequentialPerSecond, r->echoes->sequentialPerSecond);
    const double ownPipelined = pipelinePings(r->pipelinedPerSecond, r->calls->pipelinedPerSecond, r->echoes->pipelinedPerSecond);
    line(ownSequential <= t.pingsPerCall, "the pipeline's own work costs at most " + fixed(t.pingsPerCall, 1) +
                                              " pings (sequential: got " + fixed(ownSequential, 2) + ")");
    line(ownPipelined <= t.pingsPerCall, "the pipeline's own work costs at most " + fixed(t.pingsPerCall, 1) +
                                             " pings (pipelined: got " + fixed(ownPipelined, 2) + ")");
  }
}

/// What a request costs each server in its own CPU time, one in flight (the round trip's wall
/// time also holds the client, the pipes and the wake-ups); then the first server's call against
/// its target, in the summary beside the yardstick's CPU per ping (the least a parsing responder
/// spends on a request). A server that spins while it waits (the floor reader) spends its whole
/// wall time, so its CPU is no floor.
void printCpuTable(const Arguments& args, const Results& results) {
  bool any = false;
  for (const auto& r : results) any = any || (r && r->sequentialPingCpuMicros > 0);
  if (!any) return;
  std::printf("\n| server | CPU per ping, one in flight, µs | CPU per call, one in flight, µs |\n|---|---:|---:|\n");
  for (std::size_t i = 0; i < args.servers.size(); ++i) {
    const auto& r = results[i];
    if (!r) continue;
    const std::string call = r->calls && r->calls->sequentialCpuMicros > 0 ? fixed(r->calls->sequentialCpuMicros, 1) : "";
    std::printf("| %s | %s | %s |\n", args.servers[i].name.c_str(), fixed(r->sequentialPingCpuMicros, 1).c_str(),
                call.c_str());
  }
  const auto& first = results.front();
  if (!args.callCpuMicros || !first || !first->calls || !args.servers.front().call) return;
  const double own = first->calls->sequentialCpuMicros;
  const std::string what = "CPU per " + bench::describeCall(*args.servers.front().call) + ", one in flight";
  const std::string target = "≤ " + fixed(*args.callCpuMicros, 0) + " µs";
  line(own > 0 && own <= *args.callCpuMicros,
       what + " at most " + fixed(*args.callCpuMicros, 1) + " µs (got " + fixed(own, 1) + ")");
  for (std::size_t i = 1; i < args.servers.size(); ++i) {
    const auto& yard = results[i];
    if (!yard || !args.servers[i].yardstick || yard->sequentialPingCpuMicros <= 0) continue;
    summarize(what, fixed(own, 1) + " µs", args.servers[i].name + " " + fixed(yard->sequentialPingCpuMicros, 1) + " µs per ping",
              own / yard->sequentialPingCpuMicros, "toold ÷ yardstick, CPU per request", target,
              own > 0 && own <= *args.callCpuMicros);
  }
}

/// The first server's call against a baseline server's same call (a floor that does the least
/// the call needs): how much longer toold takes, and what the floor itself costs in toold's
/// pings, which bounds from below what any server can reach on this machine.
void printFloorCalls(const Arguments& args, const Results& results, const std::optional<Targets>& targets) {
  const auto& first = results.front();
  if (!first || !first->calls || !args.servers.front().call) return;
  const auto& own = *first->calls;
  for (std::size_t i = 1; i < args.servers.size(); ++i) {
    const auto& floor = results[i];
    if (!args.servers[i].baseline || !args.servers[i].call || !floor || !floor->calls) continue;
    const auto& least = *floor->calls;
    const std::string& name = args.servers[i].name;
    const std::string what = bench::describeCall(*args.servers.front().call);
    const double sequential = least.sequentialPerSecond / own.sequentialPerSecond;
    const double pipelined = least.pipelinedPerSecond / own.pipelinedPerSecond;
    const double floorPings = pingsPerCall(first->sequentialPerSecond, least.sequentialPerSecond);
    std::printf("\n%s against %s (time, lower is better): one in flight %sx, %zu in flight %sx; %s's call, one in "
                "flight, costs %s of %s's pings",
                args.servers.front().name.c_str(), name.c_str(), fixed(sequential, 2).c_str(), args.config.pipeline,
                fixed(pipelined, 2).c_str(), name.c_str(), fixed(floorPings, 2).c_str(),
                args.servers.front().name.c_str());
    if (targets && floorPings > targets->pingsPerCall)
      std::printf(" (the floor itself is over the %s-ping target)", fixed(targets->pingsPerCall, 1).c_str());
    std::printf(".\n");
    // The same floor against each peer: where it misses a ratio, no one-thread server makes it.
    for (std::size_t peer = 1; peer < args.servers.size(); ++peer) {
      if (!isPeer(args, peer) || !results[peer] || !results[peer]->calls) continue;
      const auto& theirs = *results[peer]->calls;
      std::printf("%s against %s (calls/s, higher is better): one in flight %s, %zu in flight %s.\n", name.c_str(),
                  args.servers[peer].name.c_str(), ratio(least.sequentialPerSecond, theirs.sequentialPerSecond).c_str(),
                  args.config.pipeline, ratio(least.pipelinedPerSecond, theirs.pipelinedPerSecond).c_str());
    }
    summarize(what + ", one in flight", grouped(own.sequentialPerSecond) + " calls/s",
              name + " " + grouped(least.sequentialPerSecond) + "/s", sequential, "toold ÷ floor, time", "", std::nullopt);
    summarize(what + ", one in flight, by " + name, grouped(least.sequentialPerSecond) + " calls/s",
              "toold's pings " + grouped(first->sequentialPerSecond) + "/s", floorPings,
              "pings per call: the least a server costs", "", std::nullopt);
  }
}

} // namespace

int main(int argc, char** argv) {
  const Arguments args = parseArguments(argc, argv);
  const auto& config = args.config;
  if (args.cpu) {
    // Set before any server starts: children inherit the affinity.
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(*args.cpu, &set);
    if (::sched_setaffinity(0, sizeof set, &set) != 0) {
      std::perror("toold-bench-rpc: --cpu");
      return 2;
    }
  }

  std::vector<bench::BenchTarget> targets;
  for (const auto& server : args.servers) targets.push_back({server.argv, server.call, server.startArgv});
  std::fprintf(stderr, "toold-bench-rpc: measuring %zu servers side by side, %zu rounds ...\n", targets.size(),
               config.rounds);
  Results results;
  bool failed = false;
  auto outcomes = bench::runBenches(targets, config);
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const std::string& name = args.servers[i].name;
    if (!outcomes[i].result) {
      std::fprintf(stderr, "toold-bench-rpc: %s failed: %s\n", name.c_str(), outcomes[i].failure.c_str());
      failed = true;
    } else if (!outcomes[i].result->callFailure.empty()) {
      std::fprintf(stderr, "toold-bench-rpc: %s: the calls failed: %s\n", name.c_str(),
                   outcomes[i].result->callFailure.c_str());
      failed = true;
    }
    results.push_back(std::move(outcomes[i].result));
  }

  printPingTable(args, results);
  printStartTable(args, results);
  printCallTable(args, results);
  printPipelineTable(args, results);
  bool anyCall = false;
  for (const auto& server : args.servers) anyCall = anyCall || server.call;
  const std::string calls = anyCall ? ", " + std::to_string(config.calls) + " calls" : "";
  std::printf("\n%zu pings%s per timed run after %zu untimed; framing %s; %s.\n", config.pings, calls.c_str(),
              config.warmup, config.framing == protocol::Framing::Ndjson ? "ndjson" : "lsp",
              args.cpu ? ("client and servers on CPU " + std::to_string(*args.cpu)).c_str() : "no CPU pinning");
  if (args.targets) printTargets(args, results, *args.targets);
  printFloorCalls(args, results, args.targets);
  printCpuTable(args, results);

  std::string command = "toold-bench-rpc";
  for (int i = 1; i < argc; ++i) {
    command.push_back(' ');
    command.append(bench::shellQuote(argv[i]));
  }
  std::printf("\nClient command: %s\n", command.c_str());
  return failed ? 1 : 0;
}
