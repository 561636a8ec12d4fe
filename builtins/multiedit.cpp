#include "builtins/multiedit.h"

#include "builtins/constant_json.h"
#include "builtins/edit/edit_call.h"
#include "builtins/tool_support.h"

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Makes several edits to one file in one operation, built on the edit tool.

Usage:
- Read the file first. Each edit is {oldString, newString, replaceAll?} with the same rules as the edit tool.
- Edits apply in order, each to the result of the previous one: make sure an earlier edit does not change the text a later one looks for.
- All or nothing: if any edit fails, none is applied and the file is unchanged.
- To create a file, give an empty oldString in the first edit; the following edits apply to its content.)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "edits": {
      "description": "The edits to apply in order",
      "items": {
        "additionalProperties": false,
        "properties": {
          "filePath": {
            "description": "Ignored: every edit applies to the top-level filePath",
            "type": "string"
          },
          "newString": {
            "description": "The text to replace it with",
            "type": "string"
          },
          "oldString": {
            "description": "The text to replace",
            "type": "string"
          },
          "replaceAll": {
            "default": false,
            "description": "Replace all occurrences",
            "type": "boolean"
          }
        },
        "required": ["oldString", "newString"],
        "type": "object"
      },
      "minItems": 1,
      "type": "array"
    },
    "filePath": {
      "description": "The absolute path to the file to modify",
      "type": "string"
    }
  },
  "required": ["filePath", "edits"],
  "type": "object"
})json");

} // namespace

core::Tool makeMultiEditTool(std::shared_ptr<FileTools> files) {
  auto execute = [files](json input, core::ToolContext context, core::ToolDone done) {
    const auto filePath = input["filePath"].get<std::string>();
    std::vector<TextEdit> edits;
    for (const auto& edit : input["edits"])
      edits.push_back(TextEdit{edit["oldString"].get<std::string>(), edit["newString"].get<std::string>(),
                               edit.value("replaceAll", false)});
    runEditCall(files, context, filePath, std::move(edits), done);
  };
  return workerTool(kDescription, kInputSchema.view(), "edit", true, std::move(execute));
}

} // namespace toold::builtins
