#include "tests/bench/rpc_arguments.h"

#include "tests/bench/command_line.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace toold::bench {
namespace {



constexpr std::string_view kUsage = R"(Usage: toold-bench-rpc --server "CMD ARGS" [--server ...] [options]

Measures the servers side by side, taking turns (each timed run in --rounds turns, the order
turning every round, so that a change of the machine's load lands on all of them; a server is
stopped with SIGSTOP while the others take their turns): spawn to initialize reply (median of
--spawns), sequential ping round trips (one in flight), pipelined ping round trips (--pipeline
in flight), with --call the same for a tool call, and the resident memory of the server's
process tree afterwards. Prints a markdown table; the first server is compared with each server
of another program (its peers).
A second table shows each server's calls and what one costs in pings: (pings/s) / (calls/s).
For native calls a third sends the same request bytes to toold's $/test/echo (parsed and answered
whole, no pipeline) and shows what is left for the pipeline, in pings:
(1/calls/s - 1/echoes/s) * pings/s.

Options:
  --server "CMD ARGS"   a server command line (shell-style quoting; no expansion)
  --name NAME           the name of the next --server in the table (default: its program name)
  --start "CMD ARGS"    spawn the next --server as this command line for the start measures (spawn
                        to initialize, start-up CPU, idle memory): the server as a user starts
                        it, where --server adds what only the calls need (default: --server's)
  --call SPEC           also measure the next --server with this tool call:
                          native:TOOL[:JSON]  toold's `call` through one snapshot (sessionID and
                                              agent "bench"), input JSON (default {"text":"hello"})
                          mcp:TOOL[:JSON]     MCP's `tools/call`, arguments JSON (default {})
                        a call must succeed: status "completed", or isError not true; each
                        call's JSON carries its request id: in place of a value "$seq", or 1 + id
                        % N for "$seq%N" (native:read:{"filePath":"/f","offset":"$seq%900",
                        "limit":100} pages through a 1,000-line file), else as an extra "seq"
  --pings N             pings per timed run (default 100000)
  --calls N             calls per timed run (default 20000)
  --pipeline K          requests in flight in the pipelined run (default 64)
  --rounds R            each timed run in R turns, the servers taking turns (default 5)
  --sessions N          native calls go to N sessions in turn (sessionID "bench-0" …), as N agents
                        calling at once (default 1: all in session "bench")
  --spawns N            spawns for the initialize latency (default 21)
  --warmup N            untimed pings or calls before each timed run (default 1000)
  --framing MODE        ndjson (default) or lsp
  --timeout-ms N        how long a server may stay silent (default 10000)
  --call-ratio R        the first server's calls/s must be at least R times each peer's (a target,
                        in the summary)
  --call-cpu US         the first server's own CPU time per call, one in flight, must be at most
                        US microseconds (a target, in the summary, set beside the yardstick's CPU
                        per ping); every server's CPU per request is read from its CPU clock (the
                        counter of /proc/PID/stat's utime + stime) around each sequential loop
  --no-ping-summary     write only the calls to $TOOLD_BENCH_SUMMARY (a second run of one script)
  --targets MS,SEQ,PIPE,MIB[,PINGS]
                        also check the first server against these targets: initialize at most MS
                        ms, at least SEQ and PIPE pings/s, at most MIB MiB resident; and every
                        server with a native call: one costs at most PINGS pings (default 2)
  --cpu N               run the client and the servers on CPU N only: round trips then cost no
                        wake-up of another CPU, which on small VMs dominates one-in-flight latency
  --baseline            the next --server is a reference (say, a responder that does nothing):
                        shown, never judged as a peer; its pings are the floor's row, and with
                        --call the first server's call is set against its call (how much longer,
                        and what the floor's call costs in the first server's pings)
  --yardstick           as --baseline, and the one the summary ($TOOLD_BENCH_SUMMARY) sets the
                        first server against: its spawn to initialize, start-up CPU, idle memory
                        and pings (other baselines are then shown in the tables only)
  --start-floor         as --baseline, and the summary also sets the first server's start (spawn to
                        initialize, start-up CPU, idle memory) against it, without a target: a
                        yardstick's variant showing the part of a start no server code can avoid
  --keep-stderr         let the servers' stderr through (default: /dev/null)
)";

[[noreturn]] void usageError(const std::string& message) {
  std::fprintf(stderr, "toold-bench-rpc: %s\n%s", message.c_str(), std::string(kUsage).c_str());
  std::exit(2);
}

std::size_t parseCount(std::string_view option, std::string_view value, bool allowZero) {
  std::size_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc{} || end != value.data() + value.size() || (n == 0 && !allowZero))
    usageError(std::string(option) + " needs a " + (allowZero ? "whole number" : "positive whole number"));
  return n;
}

Targets parseTargets(std::string_view value) {
  constexpr std::string_view kNeeds = "--targets needs four or five numbers: MS,SEQ,PIPE,MIB[,PINGS]";
  double parts[5];
  std::size_t count = 0;
  while (count < 5) {
    const std::size_t comma = value.find(',');
    const std::string part(value.substr(0, comma));
    try {
      std::size_t used = 0;
      parts[count++] = std::stod(part, &used);
      if (used != part.size()) throw std::invalid_argument(part);
    } catch (const std::exception&) {
      usageError(std::string(kNeeds));
    }
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
    if (count == 5) usageError(std::string(kNeeds));
  }
  if (count < 4) usageError(std::string(kNeeds));
  Targets targets{parts[0], parts[1], parts[2], parts[3]};
  if (count == 5) targets.pingsPerCall = parts[4];
  return targets;
}

} // namespace

Arguments parseArguments(int argc, char** argv) {
  Arguments args;
  std::string pendingName;
  std::optional<bench::CallSpec> pendingCall;
  bool pendingBaseline = false;
  bool pendingYardstick = false;
  bool pendingStartFloor = false;
  std::vector<std::string> pendingStart;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(std::string(kUsage).c_str(), stdout);
      std::exit(0);
    }
    if (arg == "--keep-stderr") {
      args.config.keepStderr = true;
      continue;
    }
    if (arg == "--baseline") {
      pendingBaseline = true;
      continue;
    }
    if (arg == "--yardstick") {
      pendingBaseline = true;
      pendingYardstick = true;
      continue;
    }
    if (arg == "--start-floor") {
      pendingBaseline = true;
      pendingStartFloor = true;
      continue;
    }
    if (arg == "--no-ping-summary") {
      args.pingSummary = false;
      continue;
    }
    if (i + 1 >= argc) usageError(std::string(arg) + " needs a value");
    const std::string_view value = argv[++i];
    if (arg == "--server") {
      auto words = bench::splitCommand(value);
      if (!words || words->empty()) usageError("--server needs a command (with balanced quotes)");
      std::string name = pendingName.empty() ? words->front().substr(words->front().rfind('/') + 1) : pendingName;
      args.servers.push_back(Server{std::move(name), std::string(value), std::move(*words), std::move(pendingStart),
                                    std::move(pendingCall), pendingBaseline, pendingYardstick, pendingStartFloor});
      pendingStart.clear();
      pendingName.clear();
      pendingCall.reset();
      pendingBaseline = false;
      pendingYardstick = false;
      pendingStartFloor = false;
    } else if (arg == "--name") {
      pendingName = value;
    } else if (arg == "--start") {
      auto words = bench::splitCommand(value);
      if (!words || words->empty()) usageError("--start needs a command (with balanced quotes)");
      pendingStart = std::move(*words);
    } else if (arg == "--call") {
      try {
        pendingCall = bench::parseCallSpec(value);
      } catch (const std::invalid_argument& e) {
        usageError(e.what());
      }
    } else if (arg == "--pings") {
      args.config.pings = parseCount(arg, value, false);
    } else if (arg == "--calls") {
      args.config.calls = parseCount(arg, value, false);
    } else if (arg == "--pipeline") {
      args.config.pipeline = parseCount(arg, value, false);
    } else if (arg == "--sessions") {
      args.config.sessions = parseCount(arg, value, false);
    } else if (arg == "--rounds") {
      args.config.rounds = parseCount(arg, value, false);
    } else if (arg == "--spawns") {
      args.config.spawns = parseCount(arg, value, true);
    } else if (arg == "--warmup") {
      args.config.warmup = parseCount(arg, value, true);
    } else if (arg == "--timeout-ms") {
      args.config.timeout = std::chrono::milliseconds(parseCount(arg, value, false));
    } else if (arg == "--framing") {
      if (value == "ndjson") args.config.framing = protocol::Framing::Ndjson;
      else if (value == "lsp") args.config.framing = protocol::Framing::ContentLength;
      else usageError("--framing must be ndjson or lsp");
    } else if (arg == "--cpu") {
      args.cpu = parseCount(arg, value, true);
    } else if (arg == "--targets") {
      args.targets = parseTargets(value);
    } else if (arg == "--call-ratio") {
      char* end = nullptr;
      const std::string text(value);
      args.callRatio = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(*args.callRatio > 0)) usageError("--call-ratio needs a positive number");
    } else if (arg == "--call-cpu") {
      char* end = nullptr;
      const std::string text(value);
      args.callCpuMicros = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(*args.callCpuMicros > 0)) usageError("--call-cpu needs a positive number");
    } else {
      usageError("unknown option " + std::string(arg));
    }
  }
  if (args.servers.empty()) usageError("give at least one --server");
  if (!pendingName.empty()) usageError("--name names the --server that follows it");
  if (pendingCall) usageError("--call applies to the --server that follows it");
  return args;
}


} // namespace toold::bench
