#include "builtins/edit.h"

#include "builtins/constant_json.h"
#include "builtins/edit/edit_call.h"
#include "builtins/tool_support.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Performs an exact string replacement in a file.

Usage:
- Read the file first. Copy oldString from the read output WITHOUT the "<line number>: " prefix, keeping the exact indentation.
- The edit fails if oldString is not found, or if it is found more than once: then give more surrounding lines to make it unique, or set replaceAll to change every occurrence.
- Small differences in trailing whitespace, indentation, line endings and typographic quotes are tolerated when the match is still unique; the result then says what was tolerated.
- newString is inserted exactly as given (no pattern expansion). When the match needed an indentation shift, the same shift is applied to newString.
- An empty oldString creates a new file with newString as its content (an existing file must have been read first).
- Use replaceAll for renaming a variable or string across the file.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "filePath": {
      "description": "The absolute path to the file to modify",
      "type": "string"
    },
    "newString": {
      "description": "The text to replace it with (must be different from oldString)",
      "type": "string"
    },
    "oldString": {
      "description": "The text to replace",
      "type": "string"
    },
    "replaceAll": {
      "default": false,
      "description": "Replace all occurrences of oldString (default false)",
      "type": "boolean"
    }
  },
  "required": ["filePath", "oldString", "newString"],
  "type": "object"
})json");

} // namespace

core::Tool makeEditTool(std::shared_ptr<FileTools> files) {
  auto execute = [files](json input, core::ToolContext context, core::ToolDone done) {
    const auto filePath = input["filePath"].get<std::string>();
    std::vector<TextEdit> edits{TextEdit{input["oldString"].get<std::string>(), input["newString"].get<std::string>(),
                                         input.value("replaceAll", false)}};
    runEditCall(files, context, filePath, std::move(edits), done);
  };
  return workerTool(kDescription, kInputSchema.view(), "edit", true, std::move(execute));
}

} // namespace toold::builtins
