#include "builtins/bash_output.h"

#include "builtins/constant_json.h"
#include "builtins/shell/output_log.h"
#include "builtins/shell/terminal_text.h"
#include "builtins/tool_support.h"

#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace toold::builtins {

namespace {

using core::json;

// Within the call's budget once cleaned, with room for the status line, so the text is never cut
// again: at most this much, less when the budget is smaller.
constexpr std::size_t kSliceBytes = 48 * 1024;
constexpr std::size_t kSliceLines = 1900;
constexpr std::size_t kStatusRoomBytes = 1024;
constexpr std::size_t kStatusRoomLines = 3;
// A wait holds the call, not a thread: the log's size and the job's state are looked at on a timer
// this often, so new output is seen within a poll.
constexpr int kMaxWaitSeconds = 60;
constexpr std::chrono::milliseconds kWaitPoll{25};

const char* kDescription = R"(Shows a background job's output (started with bash and background: true) and its state.

Usage:
- shellId is the ID bash returned ("shell-1").
- Without offset, returns the output from where the previous bash_output call for this job stopped (from the start the first time); with offset, from that byte offset of the log.
- Returns at most about 48 KiB per call; when more is waiting, call again with the offset given.
- Set wait (seconds, at most 60) to wait for the job: the call returns as soon as there is new output or the job ends, or after that many seconds if nothing happened. Prefer one call with wait to repeated calls, and do other work meanwhile when you can.
- With until: "exit", the wait is for the job's end only: the call returns when it has ended (with its exit code and the output since the last read) or, still running, when the wait is over; then call it again.
- A wait may be shortened to what the caller can wait for one call; the answer then says the job is still running.)";

// "maximum" is 2^53 - 1: exact in every JSON reader.
constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "offset": {
      "description": "The byte offset in the job's log to read from (default: where the last read stopped)",
      "maximum": 9007199254740991,
      "minimum": 0,
      "type": "integer"
    },
    "shellId": {
      "description": "The background job's shell ID",
      "type": "string"
    },
    "until": {
      "description": "What the wait is for: \"output\" (the default: new output or the job's end) or \"exit\" (the job's end only)",
      "enum": ["output", "exit"],
      "type": "string"
    },
    "wait": {
      "description": "Seconds to wait for new output or the job's end before answering (default 0: answer at once)",
      "maximum": 60,
      "minimum": 0,
      "type": "number"
    }
  },
  "required": ["shellId"],
  "type": "object"
})json");

/// What a waiting call waits for.
enum class WaitFor { Output, Exit };

/// Said after the status when a wait for the job's end ran out: the job is not stuck, nor done.
std::string stillRunningNote(const JobView& job, std::chrono::milliseconds waited) {
  const auto tenths = (waited.count() + 50) / 100;
  return job.id + " is still running: it did not end within the " + std::to_string(tenths / 10) +
         (tenths % 10 != 0 ? "." + std::to_string(tenths % 10) : "") +
         " s waited. Call bash_output again with until: \"exit\" to wait on, or bash_kill to stop it.";
}

// The answer: the log from `offset` on, cleaned, and the job's state.
core::ToolCompletion readJob(ShellTools& shell, const std::string& sessionID, const JobView& job,
                             std::uint64_t offset, const core::BoundingLimits& budget, const std::string& note = {}) {
  const std::size_t sliceBytes =
      std::clamp<std::size_t>(budget.maxBytes > kStatusRoomBytes ? budget.maxBytes - kStatusRoomBytes : 0, 1, kSliceBytes);
  const std::size_t sliceLines =
      std::clamp<std::size_t>(budget.maxLines > kStatusRoomLines ? budget.maxLines - kStatusRoomLines : 0, 1, kSliceLines);
  // A running job's bounded log holds its tail as a ring past its head: not readable in order
  // until the job ends and the ring is put behind the head.
  const bool ringOnly = job.orderedLogBytes && job.outputBytes > *job.orderedLogBytes && offset >= *job.orderedLogBytes;
  if (ringOnly) {
    std::string text = "(no output readable yet: the log keeps the first " + std::to_string(*job.orderedLogBytes) +
                       " bytes of this job's output, and its end only once the job ends, when it follows the first "
                       "part in the same file. Wait for that with bash_output {\"shellId\": \"" + job.id +
                       "\", \"until\": \"exit\"}.)\n\n[" + jobStatus(job) + ".]";
    if (!note.empty()) text += "\n[" + note + "]";
    json metadata = job.toJson();
    metadata["offset"] = offset;
    metadata["nextOffset"] = offset;
    metadata["truncated"] = false;
    return core::ToolResult{std::nullopt, json(std::move(text)), std::move(metadata)};
  }
  LogSlice slice;
  try {
    const std::size_t readable =
        job.orderedLogBytes && job.outputBytes > *job.orderedLogBytes
            ? static_cast<std::size_t>(std::min<std::uint64_t>(sliceBytes, *job.orderedLogBytes - offset))
            : sliceBytes;
    slice = readLogSlice(*job.logPath, offset, readable, sliceLines);
  } catch (const std::exception& e) {
    return failure(std::string(e.what()) + (job.state == JobState::Running ? "" : " (a finished job's log goes when the tool-output folder passes its budget, or after 7 days)"));
  }
  shell.jobs->setReadOffset(sessionID, job.id, slice.nextOffset);
  std::string text = cleanTerminalText(slice.bytes);
  if (text.ends_with('\n')) text.pop_back(); // the status line below follows a blank line
  if (text.empty()) text = "(no new output)";
  const bool more = slice.nextOffset < slice.fileSize;
  text += "\n\n[" + jobStatus(job) + ". Read bytes " + std::to_string(slice.offset) + "–" +
          std::to_string(slice.nextOffset) + " of " + std::to_string(slice.fileSize) +
          (more ? "; more is waiting: call bash_output again" : "") + ".]";
  if (!note.empty()) text += "\n[" + note + "]";
  json metadata = job.toJson();
  metadata["offset"] = slice.offset;
  metadata["nextOffset"] = slice.nextOffset;
  metadata["size"] = slice.fileSize;
  metadata["truncated"] = more;
  return core::ToolResult{std::nullopt, json(std::move(text)), std::move(metadata)};
}

bool hasNews(const JobView& job, std::uint64_t offset, WaitFor waitFor) {
  if (job.state != JobState::Running) return true;
  if (waitFor == WaitFor::Exit) return false;
  std::error_code ec;
  const auto size = std::filesystem::file_size(*job.logPath, ec);
  return ec || size > offset;
}

// One waiting bash_output call: looks again every kWaitPoll until there is news, the deadline
// passes or the call is cancelled, then answers on the loop thread (one bounded read).
struct JobWait : std::enable_shared_from_this<JobWait> {
  JobWait(std::shared_ptr<ShellTools> s, core::ToolContext c, core::ToolDone d, std::string i, std::uint64_t o,
          WaitFor w, std::chrono::milliseconds wait)
      : shell(std::move(s)), context(std::move(c)), done(std::move(d)), id(std::move(i)), offset(o), waitFor(w),
        waited(wait), deadline(std::chrono::steady_clock::now() + wait), timer(shell->io) {}

  void poll() {
    timer.expires_after(kWaitPoll);
    timer.async_wait([self = shared_from_this()](const boost::system::error_code&) { self->look(); });
  }

  void look() {
    if (context.cancellation.isCancelled()) return done(failure("bash_output was cancelled while waiting"));
    auto job = shell->jobs->find(context.sessionID, id);
    if (!job) return done(failure(noSuchJob(*shell->jobs, context.sessionID, id)));
    if (hasNews(*job, offset, waitFor)) return done(readJob(*shell, context.sessionID, *job, offset, context.budget));
    if (std::chrono::steady_clock::now() >= deadline)
      return done(readJob(*shell, context.sessionID, *job, offset, context.budget,
                          waitFor == WaitFor::Exit ? stillRunningNote(*job, waited) : std::string()));
    poll();
  }

  std::shared_ptr<ShellTools> shell;
  core::ToolContext context;
  core::ToolDone done;
  std::string id;
  std::uint64_t offset;
  WaitFor waitFor;
  std::chrono::milliseconds waited;
  std::chrono::steady_clock::time_point deadline;
  boost::asio::steady_timer timer;
};

} // namespace

core::Tool makeBashOutputTool(std::shared_ptr<ShellTools> shell) {
  auto tool = workerTool(kDescription, kInputSchema.view(), "bash", /*mutates=*/false,
                         [shell](json input, core::ToolContext context, core::ToolDone done) {
    const std::string id = input.value("shellId", "");
    auto job = shell->jobs->find(context.sessionID, id);
    if (!job) return done(failure(noSuchJob(*shell->jobs, context.sessionID, id)));
    if (!job->logPath) return done(failure(jobStatus(*job) + "; it has no output log."));
    const std::uint64_t offset = input.contains("offset") ? input["offset"].get<std::uint64_t>()
                                                          : shell->jobs->readOffset(context.sessionID, id);
    const WaitFor waitFor = input.value("until", "output") == "exit" ? WaitFor::Exit : WaitFor::Output;
    auto wait = std::chrono::milliseconds(static_cast<std::int64_t>(input.value("wait", 0.0) * 1000.0));
    // A wait longer than the caller can wait for one call would be cut off by it, answer and all.
    if (context.foregroundLimit && *context.foregroundLimit > std::chrono::milliseconds(0))
      wait = std::min(wait, *context.foregroundLimit);
    if (hasNews(*job, offset, waitFor)) return done(readJob(*shell, context.sessionID, *job, offset, context.budget));
    if (wait <= std::chrono::milliseconds(0))
      return done(readJob(*shell, context.sessionID, *job, offset, context.budget,
                          waitFor == WaitFor::Exit && input.contains("wait") ? stillRunningNote(*job, wait)
                                                                             : std::string()));
    auto waiting =
        std::make_shared<JobWait>(shell, std::move(context), std::move(done), id, offset, waitFor, wait);
    waiting->poll();
  });
  tool.polls = true; // its answer changes as the job runs: repeating it is no loop
  return tool;
}

} // namespace toold::builtins
