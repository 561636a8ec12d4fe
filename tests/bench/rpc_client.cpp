// toold-bench-rpc: measures JSON-RPC servers over stdio and prints one markdown row per server,
// plus how the first server compares with each of the others.
#include "tests/bench/command_line.h"
#include "tests/bench/rpc_bench.h"

#include <charconv>
#include <cstdio>
#include <exception>
#include <optional>
#include <sched.h>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace toold;

constexpr std::string_view kUsage = R"(Usage: toold-bench-rpc --server "CMD ARGS" [--server ...] [options]

Measures each server in turn: spawn to initialize reply (median of --spawns), sequential ping
round trips (one in flight), pipelined ping round trips (--pipeline in flight), and the resident
memory of the server's process tree afterwards. Prints a markdown table; the first server is
compared with each of the others.

Options:
  --server "CMD ARGS"   a server command line (shell-style quoting; no expansion)
  --name NAME           the name of the next --server in the table (default: its program name)
  --pings N             pings per timed run (default 100000)
  --pipeline K          requests in flight in the pipelined run (default 64)
  --spawns N            spawns for the initialize latency (default 21)
  --warmup N            untimed pings before each timed run (default 1000)
  --framing MODE        ndjson (default) or lsp
  --timeout-ms N        how long a server may stay silent (default 10000)
  --targets MS,SEQ,PIPE,MIB
                        also check the first server against these targets: initialize at most MS
                        ms, at least SEQ and PIPE pings/s, at most MIB MiB resident
  --cpu N               run the client and the servers on CPU N only: round trips then cost no
                        wake-up of another CPU, which on small VMs dominates one-in-flight latency
  --keep-stderr         let the servers' stderr through (default: /dev/null)
)";

struct Server {
  std::string name;
  std::string command;
  std::vector<std::string> argv;
};

struct Targets {
  double initializeMs = 0;
  double sequential = 0;
  double pipelined = 0;
  double residentMiB = 0;
};

struct Arguments {
  std::vector<Server> servers;
  bench::BenchConfig config;
  std::optional<Targets> targets;
  std::optional<std::size_t> cpu;
};

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
  double parts[4];
  std::size_t count = 0;
  while (count < 4) {
    const std::size_t comma = value.find(',');
    const std::string part(value.substr(0, comma));
    try {
      std::size_t used = 0;
      parts[count++] = std::stod(part, &used);
      if (used != part.size()) throw std::invalid_argument(part);
    } catch (const std::exception&) {
      usageError("--targets needs four numbers: MS,SEQ,PIPE,MIB");
    }
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  if (count != 4) usageError("--targets needs four numbers: MS,SEQ,PIPE,MIB");
  return Targets{parts[0], parts[1], parts[2], parts[3]};
}

Arguments parseArguments(int argc, char** argv) {
  Arguments args;
  std::string pendingName;
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
    if (i + 1 >= argc) usageError(std::string(arg) + " needs a value");
    const std::string_view value = argv[++i];
    if (arg == "--server") {
      auto words = bench::splitCommand(value);
      if (!words || words->empty()) usageError("--server needs a command (with balanced quotes)");
      std::string name = pendingName.empty() ? words->front().substr(words->front().rfind('/') + 1) : pendingName;
      args.servers.push_back(Server{std::move(name), std::string(value), std::move(*words)});
      pendingName.clear();
    } else if (arg == "--name") {
      pendingName = value;
    } else if (arg == "--pings") {
      args.config.pings = parseCount(arg, value, false);
    } else if (arg == "--pipeline") {
      args.config.pipeline = parseCount(arg, value, false);
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
    } else {
      usageError("unknown option " + std::string(arg));
    }
  }
  if (args.servers.empty()) usageError("give at least one --server");
  if (!pendingName.empty()) usageError("--name names the --server that follows it");
  return args;
}

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

void printTargets(const Server& server, const bench::BenchResult& r, const Targets& t) {
  auto line = [](bool met, const std::string& what) { std::printf("- %s %s\n", met ? "met:   " : "MISSED:", what.c_str()); };
  std::printf("\nTargets for %s:\n", server.name.c_str());
  line(r.initializeMedianMs <= t.initializeMs,
       "initialize ≤ " + fixed(t.initializeMs, 1) + " ms (got " + fixed(r.initializeMedianMs, 2) + ")");
  line(r.sequentialPerSecond >= t.sequential,
       "sequential ≥ " + grouped(t.sequential) + " pings/s (got " + grouped(r.sequentialPerSecond) + ")");
  line(r.pipelinedPerSecond >= t.pipelined,
       "pipelined ≥ " + grouped(t.pipelined) + " pings/s (got " + grouped(r.pipelinedPerSecond) + ")");
  line(mib(r.residentKiB) <= t.residentMiB,
       "RSS ≤ " + fixed(t.residentMiB, 1) + " MiB (got " + fixed(mib(r.residentKiB), 1) + ")");
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

  std::vector<std::optional<bench::BenchResult>> results;
  bool failed = false;
  for (const auto& server : args.servers) {
    std::fprintf(stderr, "toold-bench-rpc: measuring %s ...\n", server.name.c_str());
    try {
      results.emplace_back(bench::runBench(server.argv, config));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "toold-bench-rpc: %s failed: %s\n", server.name.c_str(), e.what());
      results.emplace_back(std::nullopt);
      failed = true;
    }
  }

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
  for (std::size_t i = 1; i < args.servers.size(); ++i) {
    const auto& peer = results[i];
    if (!first || !peer) continue;
    std::printf("| %s ÷ %s | %s better | %s | %s | %s better |\n", args.servers.front().name.c_str(),
                args.servers[i].name.c_str(), ratio(peer->initializeMedianMs, first->initializeMedianMs).c_str(),
                ratio(first->sequentialPerSecond, peer->sequentialPerSecond).c_str(),
                ratio(first->pipelinedPerSecond, peer->pipelinedPerSecond).c_str(),
                ratio(static_cast<double>(peer->residentKiB), static_cast<double>(first->residentKiB)).c_str());
  }
  std::printf("\n%zu pings per timed run after %zu untimed; framing %s; %s.\n", config.pings, config.warmup,
              config.framing == protocol::Framing::Ndjson ? "ndjson" : "lsp",
              args.cpu ? ("client and servers on CPU " + std::to_string(*args.cpu)).c_str() : "no CPU pinning");
  if (args.targets && first) printTargets(args.servers.front(), *first, *args.targets);

  std::string command = "toold-bench-rpc";
  for (int i = 1; i < argc; ++i) {
    command.push_back(' ');
    command.append(bench::shellQuote(argv[i]));
  }
  std::printf("\nClient command: %s\n", command.c_str());
  return failed ? 1 : 0;
}
