// The Code Mode worker process: an address-space limit first (so an allocation bomb ends in this
// process's "out of memory", never in toold's), then the engine, then programs one at a time.
#include "builtins/codemode/catalog_search.h"
#include "builtins/codemode/js_engine.h"
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

void writeLine(const json& message) {
  std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
  line += '\n';
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

class WorkerHost final : public ProgramHost {
public:
  explicit WorkerHost(std::vector<CatalogEntry> catalog) : catalog_(std::move(catalog)) {}

  void startCall(std::uint64_t id, const std::string& path, const std::string& inputJson) override {
    json input = json::parse(inputJson, nullptr, false);
    writeLine({{"type", "call"}, {"id", id}, {"path", path}, {"input", input.is_discarded() ? json::object() : input}});
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
  std::vector<CatalogEntry> catalog_;
};

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
      {
        // A first program while nobody waits: the engine compiles what it initialises lazily
        // (the bootstrap, self-hosted built-ins) here rather than in the model's first program.
        WorkerHost host({});
        (void)engine.run("const [a] = await Promise.all([Promise.resolve(1)]); return JSON.stringify({a});",
                         {}, ProgramLimits{}, host, input);
      }
      engine.prepare();
      while (auto run = input.nextRun()) {
        std::vector<ToolPath> tools;
        std::vector<CatalogEntry> catalog;
        try {
          tools = run->value("tools", json::array()).get<std::vector<ToolPath>>();
          for (const auto& entry : run->value("catalog", json::array())) catalog.push_back(catalogEntryFromJson(entry));
        } catch (const std::exception& e) {
          std::fprintf(stderr, "codemode worker: malformed run: %s\n", e.what());
        }
        WorkerHost host(std::move(catalog));
        ProgramLimits limits = limitsFrom(run->value("limits", json::object()));
        limits.maxResidentBytes = (settings.residentMegabytes * kResidentFactor) << 20;
        const ProgramResult result = engine.run(run->value("code", ""), tools, limits, host, input);
        writeLine({{"type", "done"}, {"result", resultToJson(result)}});
        // After an interruption the engine's queues may hold the old program's jobs: start afresh.
        if (result.interrupted) break;
        engine.prepare(); // the next program's global, while nobody waits

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
