#include "builtins/tool_annotations.h"

#include <array>
#include <stdexcept>
#include <string>

namespace toold::builtins {

namespace {

struct Annotation {
  std::string_view name;
  std::string_view title;
  bool readOnly;
  bool destructive; ///< may overwrite or remove what was there (meaningful when not read-only)
  bool idempotent;  ///< the same call again changes nothing more
  bool openWorld;   ///< reaches beyond the workspace's files (a shell may reach anything)
};

constexpr std::array kAnnotations{
    Annotation{"read", "Read file", true, false, true, false},
    Annotation{"list", "List directory", true, false, true, false},
    Annotation{"glob", "Find files", true, false, true, false},
    Annotation{"grep", "Search file contents", true, false, true, false},
    Annotation{"lsp", "Ask the language server", true, false, true, false},
    Annotation{"write", "Write file", false, true, true, false},
    Annotation{"edit", "Edit file", false, true, false, false},
    Annotation{"multiedit", "Edit file (several edits)", false, true, false, false},
    Annotation{"apply_patch", "Apply patch", false, true, false, false},
    Annotation{"bash", "Run shell command", false, true, false, true},
    Annotation{"bash_output", "Background job output", true, false, false, false},
    Annotation{"bash_kill", "Stop background job", false, true, true, false},
    Annotation{"bash_jobs", "List background jobs", true, false, false, false},
    Annotation{"todowrite", "Write todo list", false, true, true, false},
    Annotation{"todoread", "Read todo list", true, false, false, false},
    Annotation{"question", "Ask the user", true, false, false, true},
    Annotation{"task", "Run a subagent", false, true, false, true},
    Annotation{"skill", "Load skill", true, false, true, false},
    Annotation{"webfetch", "Fetch web page", true, false, false, true},
    Annotation{"changes", "Show the session's changes", true, false, true, false},
    Annotation{"undo", "Undo the session's changes", false, true, false, false},
};

} // namespace

void annotateBuiltin(std::string_view name, core::Tool& tool) {
  for (const auto& a : kAnnotations) {
    if (a.name != name) continue;
    tool.title = std::string(a.title);
    tool.annotations = core::json{{"readOnlyHint", a.readOnly}, {"openWorldHint", a.openWorld}};
    // MCP: destructiveHint and idempotentHint are meaningful only when readOnlyHint is false.
    if (!a.readOnly) {
      tool.annotations["destructiveHint"] = a.destructive;
      tool.annotations["idempotentHint"] = a.idempotent;
    }
    return;
  }
  throw std::logic_error("no MCP annotations for the built-in \"" + std::string(name) + "\"");
}

} // namespace toold::builtins
