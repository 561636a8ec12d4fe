#include "builtins/builtin_tools.h"

#include "builtins/apply_patch.h"
#include "builtins/bash.h"
#include "builtins/bash_jobs.h"
#include "builtins/bash_kill.h"
#include "builtins/bash_output.h"
#include "builtins/changes.h"
#include "builtins/edit.h"
#include "builtins/glob.h"
#include "builtins/grep.h"
#include "builtins/list.h"
#include "builtins/lsp.h"
#include "builtins/multiedit.h"
#include "builtins/question.h"
#include "builtins/read.h"
#include "builtins/skill.h"
#include "builtins/task.h"
#include "builtins/todoread.h"
#include "builtins/todowrite.h"
#include "builtins/undo.h"
#include "builtins/webfetch.h"
#include "builtins/tool_annotations.h"
#include "builtins/write.h"
#include "core/tool_service.h"

namespace toold::builtins {

std::vector<std::pair<std::string, core::Tool>> makeBuiltinTools(core::ToolService& tools) {
  auto files = std::make_shared<FileTools>();
  files->locks = tools.pathLocks();
  files->lsp = tools.lsp();
  files->formatters = tools.options().formatter;
  files->processes = &tools.processes();
  files->sandbox = tools.sandbox();
  std::vector<std::pair<std::string, core::Tool>> list;
  list.emplace_back("read", makeReadTool(files));
  list.emplace_back("list", makeListTool());
  list.emplace_back("write", makeWriteTool(files));
  list.emplace_back("edit", makeEditTool(files));
  list.emplace_back("multiedit", makeMultiEditTool(files));
  list.emplace_back("apply_patch", makeApplyPatchTool(files));
  list.emplace_back("glob", makeGlobTool());
  list.emplace_back("grep", makeGrepTool());
  list.emplace_back("lsp", makeLspTool(files));
  auto jobs = std::make_shared<ShellJobs>(tools.io(), tools.processes(), tools.client());
  auto shell = std::make_shared<ShellTools>(ShellTools{tools.io(), tools.processes(), jobs, defaultShell(), tools.sandbox()});
  list.emplace_back("bash", makeBashTool(shell));
  list.emplace_back("bash_output", makeBashOutputTool(shell));
  list.emplace_back("bash_kill", makeBashKillTool(shell));
  list.emplace_back("bash_jobs", makeBashJobsTool(shell));
  // The tools that need the person or the runner: they ask the client, like a permission ask.
  const auto& options = tools.options();
  ClientRequester requester{tools.io(), tools.client(), options.permissionOptions.timeout};
  auto todos = std::make_shared<TodoStore>(options.location, tools.client());
  list.emplace_back("todowrite", makeTodoWriteTool(todos));
  list.emplace_back("todoread", makeTodoReadTool(todos));
  list.emplace_back("question", makeQuestionTool(requester));
  list.emplace_back("task", makeTaskTool(requester));
  // Read from the config in effect on every call: config/reload changes them at once.
  list.emplace_back("skill", makeSkillTool([&tools] { return tools.config()->skillPaths; }));
  list.emplace_back("webfetch",
                    makeWebfetchTool([&tools] { return WebfetchOptions{tools.config()->webfetchPrivateAddresses}; }));
  // Checkpoints for MCP hosts: wholly denied by the default rules until the config allows `undo`.
  list.emplace_back("changes", makeChangesTool(tools));
  list.emplace_back("undo", makeUndoTool(tools));
  for (auto& [name, tool] : list) {
    annotateBuiltin(name, tool);
    // Built-ins are direct tools; the config's `codemode.tools` can move any of them inside.
    tool.codemode = false;
  }
  // These two hand the turn to the person or the runner: a program cannot wait on a question nor
  // run a subagent for them, so `{"*": true}` leaves them direct (their exact name still moves them).
  for (auto& [name, tool] : list) {
    if (name == "question") tool.codemodeDirectReason = "it asks the person, who answers the runner, not a program";
    if (name == "task") tool.codemodeDirectReason = "the runner runs the subagent, not a program";
    // What programs combine best (a loop of reads, greps over globbed files) stays direct and is
    // offered inside too when the config names no codemode.tools.
    if (name == "read" || name == "list" || name == "glob" || name == "grep") tool.codemodeAlsoByDefault = true;
  }
  tools.addSessionEndListener([jobs](const std::string& sessionID) { jobs->endSession(sessionID); });
  return list;
}

void registerBuiltinTools(core::ToolService& tools) { tools.registerTools(kBuiltinScope, makeBuiltinTools(tools)); }

} // namespace toold::builtins
