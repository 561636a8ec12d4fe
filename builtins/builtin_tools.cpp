#include "builtins/builtin_tools.h"

#include "builtins/apply_patch.h"
#include "builtins/edit.h"
#include "builtins/glob.h"
#include "builtins/grep.h"
#include "builtins/list.h"
#include "builtins/multiedit.h"
#include "builtins/read.h"
#include "builtins/write.h"
#include "core/tool_service.h"

namespace toold::builtins {

void registerBuiltinTools(core::ToolService& tools) {
  auto files = std::make_shared<FileTools>();
  std::vector<std::pair<std::string, core::Tool>> list;
  list.emplace_back("read", makeReadTool(files));
  list.emplace_back("list", makeListTool());
  list.emplace_back("write", makeWriteTool(files));
  list.emplace_back("edit", makeEditTool(files));
  list.emplace_back("multiedit", makeMultiEditTool(files));
  list.emplace_back("apply_patch", makeApplyPatchTool(files));
  list.emplace_back("glob", makeGlobTool());
  list.emplace_back("grep", makeGrepTool());
  tools.registerTools(kBuiltinScope, std::move(list));
}

} // namespace toold::builtins
