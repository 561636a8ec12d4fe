// The channel between toold and a Code Mode worker process: one JSON object per line, on the
// worker's stdin and stdout (its stderr is toold's log).
//
//   toold → worker   {"type": "run", "code", "catalogKey", "tools"?: [path…], "catalog"?: [entry…], "limits": {…}}
//                    {"type": "result", "id", "ok": true, "value"} | {"type": "result", "id", "ok": false, "error": {kind, message}}
//                    {"type": "text", "id", "bytes": L} and then L bytes of UTF-8, no newline: an ok
//                    answer whose value is that string (a tool's text), sent as it is
//   worker → toold   {"type": "call", "id", "path": "a.b", "input": {…}}
//                    {"type": "done", "result": {ok, value | error, warnings, logs, interrupted}}
//
// The per-call lines ("call", "result", "text") are written with their keys in exactly this order
// and read without a parser where possible (worker_call_lines.h). A "text" answer's bytes are the
// one thing on the channel that is not a line of JSON: they are read by their count.
//
// "tools" and "catalog" come with the first program of a catalog key; the worker keeps the last
// ones it was sent, and toold leaves them out while the key is the same.
//
// A worker runs one program at a time; its inner-call ids are unique for its lifetime, so an
// answer that arrives after its program ended is recognised and dropped. Cancellation is not a
// message: toold kills the worker, whose state after an interrupted program is not trusted anyway.
#pragma once

#include <cstddef>
#include <string>

namespace toold::codemode {

/// The worker's executable, beside toold's own (worker_executable.h):
/// `toold-codemode [--memory-mb N] [--heap-mb N] [--resident-mb N]`. Only it links the engine.
inline constexpr const char* kWorkerExecutableName = "toold-codemode";

struct WorkerSettings {
  std::size_t memoryMegabytes = 1024; ///< RLIMIT_AS of the worker: the hard wall for every allocation
  std::size_t heapMegabytes = 512;    ///< the engine's GC heap
  std::size_t residentMegabytes = 384; ///< a program is stopped past this resident size (MemoryLimitExceeded)
};

/// The worker's main: runs programs until its stdin closes. Returns the process's exit status.
int runWorker(const WorkerSettings& settings);

/// Reads the worker's arguments (those after its name); false on an unknown one.
bool parseWorkerArguments(int argc, char** argv, WorkerSettings& settings);

} // namespace toold::codemode
