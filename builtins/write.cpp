#include "builtins/write.h"

#include "builtins/constant_json.h"
#include "builtins/files/single_file_change.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Writes a file to the workspace, replacing it whole if it exists.

Usage:
- filePath is the absolute path (or a path relative to the workspace). Missing parent folders are created.
- Overwriting an existing file requires reading it first with the read tool in this session, and fails if it changed since.
- Prefer the edit tool for changes to an existing file: it sends only the part that changes.
- An existing file keeps its permissions, its UTF-8 BOM and its CRLF line endings when the new content has none of its own.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "content": {
      "description": "The content to write to the file",
      "type": "string"
    },
    "filePath": {
      "description": "The absolute path to the file to write (must be absolute, not relative)",
      "type": "string"
    }
  },
  "required": ["content", "filePath"],
  "type": "object"
})json");

} // namespace

core::Tool makeWriteTool(std::shared_ptr<FileTools> files) {
  auto execute = [files](json input, core::ToolContext context, core::ToolDone done) {
    // Taken out of the input rather than copied: it is the size of the file.
    auto content = std::make_shared<std::string>(std::move(input["content"].get_ref<std::string&>()));
    resolveWithBoundary(context, input["filePath"].get<std::string>(), core::PathKind::File, done,
                        [=](core::ResolvedPath path) {
                          if (path.isDirectory)
                            return done(failure("Path is a directory, not a file: " + path.given.string()));
                          auto plan = [content](const std::optional<LoadedFile>& current)
                              -> std::variant<PlannedContent, core::ToolCompletion> {
                            // Planned once per call (changeSingleFile): the content moves on.
                            return PlannedContent{keepTextStyle(current, std::move(*content)), json::object()};
                          };
                          auto finish = [done, location = context.location](ChangedFile changed) {
                            std::string text = "Wrote file successfully.";
                            appendChangeDiagnostics(text, changed, *location, true);
                            done(core::ToolResult{std::nullopt, json(std::move(text)), changed.metadata});
                          };
                          changeSingleFile(files, context, std::move(path), StampRule::Required, plan, finish, done);
                        });
  };
  return workerTool(kDescription, kInputSchema.view(), "edit", true, std::move(execute));
}

} // namespace toold::builtins
