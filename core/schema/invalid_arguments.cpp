// The invalid-arguments answer, worded for a model.
#include "core/schema/invalid_arguments.h"

#include <algorithm>

namespace toold::core {

std::string formatInvalidArguments(std::string_view toolName, const std::vector<SchemaIssue>& issues,
                                   const json& arguments) {
  std::string out = "Invalid arguments for tool \"" + std::string(toolName) + "\":\n";
  const std::size_t listed = std::min(issues.size(), kMaxListedIssues);
  for (std::size_t i = 0; i < listed; ++i) out += "- " + issues[i].path + ": " + issues[i].message + "\n";
  if (issues.size() > listed) {
    const std::size_t more = issues.size() - listed;
    out += "- ...and " + std::to_string(more) + (more == 1 ? " more issue\n" : " more issues\n");
  }
  // The arguments are the caller's, of any depth and size (a value built in code is not bound by
  // the frame's depth limit): rendered without recursion, cut in depth and size. Strings that are
  // not UTF-8 are replaced, not thrown on: the model must get an answer either way.
  out += "\nArguments provided:\n" + protocol::dumpBounded(arguments, kArgumentsRender) + "\n";
  out += "\nUpdate the arguments and call the tool again.";
  return out;
}

}  // namespace toold::core
