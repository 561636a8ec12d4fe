// The Code Mode worker process: an address-space limit first (so an allocation bomb ends in this
// process's "out of memory", never in toold's), then the engine, then programs one at a time.
#include "builtins/codemode/catalog_search.h"
#include "builtins/codemode/js_engine.h"
#include "builtins/codemode/worker_call_lines.h"
#include "builtins/codemode/worker_input.h"
#include "builtins/codemode/worker_protocol.h"

#include <nlohmann/json.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

namespace toold::codemode {

using json = nlohmann::json;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// The sanitizers reserve terabytes of shadow address space at start, so an address-space limit
// would fail every later mapping; and their shadow memory and ASan's quarantine of freed blocks
// make a process several times larger. Under them a program is bounded by the GC heap cap and a
// resident-size watch four times as high (docs/codemode.md).
constexpr bool kAddressSpaceLimit = false;
constexpr std::size_t kResidentFactor = 4;
#else
constexpr bool kAddressSpaceLimit = true;
constexpr std::size_t kResidentFactor = 1;
#endif

namespace {

constexpr std::chrono::microseconds kQuietBeforePrepare{1500};

void writeText(const std::string& line) {
  const char* data = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(STDOUT_FILENO, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::_Exit(1); // toold went away: nothing to answer to
    data += n;
    left -= static_cast<std::size_t>(n);
  }
}

void writeLine(const json& message) { writeText(message.dump(-1, ' ', false, json::error_handler_t::replace) + '\n'); }

class WorkerHost final : public ProgramHost {
public:
  explicit WorkerHost(const std::vector<CatalogEntry>& catalog) : catalog_(catalog) {}

  // The input is the program's JSON.stringify output, one JSON value: it goes out as it is.
  void startCall(std::uint64_t id, const std::string& path, const std::string& inputJson) override {
    writeText(callLine(id, path, inputJson));
  }

  std::string search(const std::string& inputJson) override {
    try {
      const json input = json::parse(inputJson);
      return json{{"result", searchCatalog(catalog_, parseSearchRequest(input))}}.dump(-1, ' ', false,
                                                                                    json::error_handler_t::replace);
    } catch (const std::exception& e) {
      return json{{"error", e.what()}}.dump();
    }
  }

private:
  const std::vector<CatalogEntry>& catalog_;
};

// The tools and catalog of the last run that carried them: toold leaves them out of the next
// program of the same snapshot.
struct KeptCatalog {
  std::string key;
  std::vector<ToolPath> tools;
  std::vector<CatalogEntry> entries;

  void update(const json& run) {
    const std::string sent = run.value("catalogKey", "");
    if (!run.contains("tools")) {
      if (sent != key) std::fprintf(stderr, "codemode worker: a run without its catalog, which this worker does not have\n");
      return;
    }
    key = sent;
    tools.clear();
    entries.clear();
    try {
      tools = run.at("tools").get<std::vector<ToolPath>>();
      for (const auto& entry : run.value("catalog", json::array())) entries.push_back(catalogEntryFromJson(entry));
    } catch (const std::exception& e) {
      key.clear();
      std::fprintf(stderr, "codemode worker: malformed run: %s\n", e.what());
    }
  }
};

// Answers every inner call at once with its input, inside the worker.
class EchoHost final : public ProgramHost {
public:
  explicit EchoHost(CompletionQueue& answers) : answers_(answers) {}
  void startCall(std::uint64_t id, const std::string&, const std::string& inputJson) override {
    answers_.post({id, true, inputJson});
  }
  std::string search(const std::string&) override { return R"({"result":[]})"; }

private:
  CompletionQueue& answers_;
};

// A first program while nobody waits, calling a tool answered in-process as often as a busy
// program would: the engine compiles what it initialises lazily (the bootstrap, self-hosted
// built-ins), and its nursery, heap and malloc's arenas grow to a working size, here rather than
// in the model's first program (which took a third longer than the ones after it).
void warmUp(JsEngine& engine) {
  CompletionQueue answers;
  EchoHost host(answers);
  (void)engine.run("let n = 0;\n"
                   "for (let i = 0; i < 200; i++) n += (await tools.echo({i, text: `line ${i}`})).i;\n"
                   "const all = [];\n"
                   "for (let i = 0; i < 50; i++) all.push(tools.echo({i}));\n"
                   "const [first] = await Promise.all(all);\n"
                   "return JSON.stringify({n, first});",
                   {ToolPath{"echo"}}, ProgramLimits{}, host, answers);
}

ProgramLimits limitsFrom(const json& value) {
  ProgramLimits limits;
  if (!value.is_object()) return limits;
  limits.timeout = std::chrono::milliseconds(value.value("timeoutMs", static_cast<std::int64_t>(limits.timeout.count())));
  limits.maxToolCalls = value.value("maxToolCalls", limits.maxToolCalls);
  limits.maxInFlight = std::max<std::size_t>(1, value.value("maxInFlight", limits.maxInFlight));
  return limits;
}

} // namespace

bool parseWorkerArguments(int argc, char** argv, WorkerSettings& settings) {
  for (int i = 0; i < argc; ++i) {
    const std::string argument = argv[i];
    if ((argument == "--memory-mb" || argument == "--heap-mb" || argument == "--resident-mb") && i + 1 < argc) {
      const auto value = static_cast<std::size_t>(std::strtoull(argv[++i], nullptr, 10));
      if (value == 0) return false;
      (argument == "--memory-mb" ? settings.memoryMegabytes
       : argument == "--heap-mb" ? settings.heapMegabytes
                                 : settings.residentMegabytes) = value;
    } else {
      return false;
    }
  }
  return true;
}

int runWorker(const WorkerSettings& settings) {
  const rlimit memory{static_cast<rlim_t>(settings.memoryMegabytes) << 20, static_cast<rlim_t>(settings.memoryMegabytes) << 20};
  if (kAddressSpaceLimit && ::setrlimit(RLIMIT_AS, &memory) != 0) {
    std::fprintf(stderr, "codemode worker: setrlimit(RLIMIT_AS): %s\n", std::strerror(errno));
    return 1;
  }
  if (!JsEngine::initializeProcess()) {
    std::fprintf(stderr, "codemode worker: the JavaScript engine did not start\n");
    return 1;
  }
  int status = 0;
  {
    try {
      WorkerInput input(STDIN_FILENO);
      JsEngine engine(EngineOptions{settings.heapMegabytes << 20});
      // Not when a program is already waiting (a snapshot that started this worker is usually
      // followed by the model's execute): it would wait for the warm-up.
      if (input.quietFor(std::chrono::microseconds(0))) warmUp(engine);
      engine.prepare();
      KeptCatalog catalog;
      while (auto run = input.nextRun()) {
        catalog.update(*run);
        WorkerHost host(catalog.entries);
        ProgramLimits limits = limitsFrom(run->value("limits", json::object()));
        limits.maxResidentBytes = (settings.residentMegabytes * kResidentFactor) << 20;
        const ProgramResult result = engine.run(run->value("code", ""), catalog.tools, limits, host, input);
        writeLine({{"type", "done"}, {"result", resultToJson(result)}});
        // After an interruption the engine's queues may hold the old program's jobs: start afresh.
        if (result.interrupted) break;
        // The dead programs collected and the next program's world made while nobody waits — but
        // only after a moment: done at once, they kept the CPU from toold's thread that reads this
        // result (woken on the same CPU) for the millisecond they take. Collected here, a
        // program rarely stops for a collection its predecessors made necessary (every few
        // programs one took 1-1.5 ms longer).
        if (input.quietFor(kQuietBeforePrepare)) {
          engine.collect();
          engine.prepare();
        }

      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "codemode worker: %s\n", e.what());
      status = 1;
    }
  }
  // JS_ShutDown is skipped on purpose: the process is about to end anyway.
  std::fflush(stderr);
  std::_Exit(status);
}

} // namespace toold::codemode
