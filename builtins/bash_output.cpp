#include "builtins/bash_output.h"

#include "builtins/shell/output_log.h"
#include "builtins/shell/terminal_text.h"
#include "builtins/tool_support.h"

namespace toold::builtins {

namespace {

using core::json;

// Within the pipeline's limits (2000 lines, 50 KiB) once cleaned, so the text is never cut again.
constexpr std::size_t kSliceBytes = 48 * 1024;
constexpr std::size_t kSliceLines = 1900;

const char* kDescription = R"(Shows a background job's output (started with bash and background: true) and its state.

Usage:
- shellId is the ID bash returned ("shell-1").
- Without offset, returns the output from where the previous bash_output call for this job stopped (from the start the first time); with offset, from that byte offset of the log.
- Returns at most about 48 KiB per call; when more is waiting, call again with the offset given.
- You are told when a job exits: don't poll in a loop.)";

json inputSchema() {
  return json{{"type", "object"},
              {"properties",
               {{"shellId", {{"type", "string"}, {"description", "The background job's shell ID"}}},
                {"offset",
                 {{"type", "integer"},
                  {"minimum", 0},
                  {"maximum", 9007199254740991}, // 2^53 - 1: exact in every JSON reader
                  {"description", "The byte offset in the job's log to read from (default: where the last read stopped)"}}}}},
              {"required", {"shellId"}},
              {"additionalProperties", false}};
}

} // namespace

core::Tool makeBashOutputTool(std::shared_ptr<ShellTools> shell) {
  auto tool = workerTool(kDescription, inputSchema(), "bash", /*mutates=*/false,
                         [shell](json input, core::ToolContext context, core::ToolDone done) {
    const std::string id = input.value("shellId", "");
    auto job = shell->jobs->find(context.sessionID, id);
    if (!job) return done(failure(noSuchJob(*shell->jobs, context.sessionID, id)));
    if (!job->logPath) return done(failure(jobStatus(*job) + "; it has no output log."));
    const std::uint64_t offset = input.contains("offset") ? input["offset"].get<std::uint64_t>()
                                                          : shell->jobs->readOffset(context.sessionID, id);
    LogSlice slice;
    try {
      slice = readLogSlice(*job->logPath, offset, kSliceBytes, kSliceLines);
    } catch (const std::exception& e) {
      return done(failure(e.what()));
    }
    shell->jobs->setReadOffset(context.sessionID, id, slice.nextOffset);
    std::string text = cleanTerminalText(slice.bytes);
    if (text.ends_with('\n')) text.pop_back(); // the status line below follows a blank line
    if (text.empty()) text = "(no new output)";
    const bool more = slice.nextOffset < slice.fileSize;
    text += "\n\n[" + jobStatus(*job) + ". Read bytes " + std::to_string(slice.offset) + "–" +
            std::to_string(slice.nextOffset) + " of " + std::to_string(slice.fileSize) + (more ? "; more is waiting: call bash_output again" : "") + ".]";
    json metadata = job->toJson();
    metadata["offset"] = slice.offset;
    metadata["nextOffset"] = slice.nextOffset;
    metadata["size"] = slice.fileSize;
    metadata["truncated"] = more;
    done(core::ToolResult{std::nullopt, json(std::move(text)), std::move(metadata)});
  });
  return tool;
}

} // namespace toold::builtins
