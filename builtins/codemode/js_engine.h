// The one interface to the JavaScript engine (SpiderMonkey 102, `libmozjs-102`): everything of
// its API stays in js_engine.cpp, so moving to a later mozjs is a port of one file. An engine owns
// one JSContext on the thread that made it and runs one program at a time, each in a fresh global
// with only the ECMAScript built-ins plus `tools`, `search` and `console`; eval and Function are
// refused (a CSP callback), WebAssembly is absent, the JIT is off. Tool calls leave through a
// ProgramHost and come back through a CompletionSource (a CompletionQueue any thread may post to,
// or the worker's own input).
#pragma once

#include "builtins/codemode/completion_queue.h"
#include "builtins/codemode/program_result.h"
#include "builtins/codemode/tool_path.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace toold::codemode {

struct ProgramLimits {
  std::chrono::milliseconds timeout{120'000}; ///< wall clock, waiting for tools included
  std::size_t maxInFlight = 8;                ///< inner calls running at once; the rest wait their turn
  std::size_t maxToolCalls = 1'000;           ///< inner calls (and searches) per program
  std::size_t maxLogBytes = 64 * 1024;        ///< console text kept; the rest is dropped with a warning
  std::size_t maxWarnings = 20;               ///< the rest are counted in one last warning
  /// The process's resident memory at which the program is stopped (MemoryLimitExceeded); 0: no
  /// watch. The GC heap's own cap does not count array storage, and near it the collector thrashes
  /// for minutes before it gives up: the resident size catches both kinds of bomb early.
  std::size_t maxResidentBytes = 0;
};

/// What a running program asks of the world outside it; called on the engine's thread.
class ProgramHost {
public:
  virtual ~ProgramHost() = default;
  /// Starts an inner call; its answer is posted to the CompletionQueue under the same id.
  virtual void startCall(std::uint64_t id, const std::string& path, const std::string& inputJson) = 0;
  /// Answers `search(input)` at once: {"result": …} or {"error": message}.
  virtual std::string search(const std::string& inputJson) = 0;
};

struct EngineOptions {
  std::size_t gcHeapBytes = 256u << 20; ///< the GC heap's cap (malloc'd buffers are not in it)
};

class JsEngine {
public:
  /// Once per process, before any engine: the JIT off, then the engine's global start-up.
  static bool initializeProcess();
  static void shutdownProcess();

  /// Throws std::runtime_error when the context cannot be made.
  explicit JsEngine(const EngineOptions& options);
  ~JsEngine();
  JsEngine(const JsEngine&) = delete;
  JsEngine& operator=(const JsEngine&) = delete;

  /// Runs `source` (TypeScript annotations are erased first) with the tools at `tools`.
  ProgramResult run(const std::string& source, const std::vector<ToolPath>& tools, const ProgramLimits& limits,
                    ProgramHost& host, CompletionSource& completions);

  /// Makes the next program's world ahead of time: a fresh global with every standard class
  /// initialised (otherwise made on first use, inside the program's time) and the bootstrap's
  /// `search` and `console` in it; only the `tools` tree waits for the program. Most of an
  /// execute's own cost. For the engine's thread while it is idle; run() uses it once.
  void prepare();

  /// Collects every dead program's world now: for the engine's thread while it is idle, so that
  /// a program rarely pays for a collection its predecessors made necessary.
  void collect();

  /// From any thread: stops the running program (it ends as interrupted).
  void cancel();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace toold::codemode
