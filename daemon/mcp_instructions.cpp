#include "daemon/mcp_instructions.h"

#include "core/tools/tool_name.h"

namespace toold::daemon {

std::string mcpInstructions(const core::Snapshot& snapshot, const std::filesystem::path& workspace) {
  auto listed = [&snapshot](std::string_view name) { return snapshot.find(name) != nullptr; };
  std::string text = "toold serves the tools of the workspace " + workspace.string() +
                     ". Relative paths are taken from it.\n";
  if (listed("edit") || listed("write") || listed("apply_patch") || listed("multiedit"))
    text += "- Read a file before you change it: an edit of a file that was not read, or that changed since it "
            "was read, is refused.\n";
  if (listed("bash") && listed("bash_output"))
    text += "- A command that runs long goes to the background (bash with background: true, or by itself when "
            "it runs near the host's time limit): follow it with bash_output (its wait parameter waits for new "
            "output or the end) and stop it with bash_kill.\n";
  text += "- A cut output says how to see the rest (the offset to read next, or the file that keeps it whole): "
          "follow that instead of running the call again.\n";
  if (listed(core::kReservedToolName))
    text += "- Code Mode: the execute tool runs one JavaScript program that calls the tools listed in its "
            "description (await tools.<name>(input)); use it for many calls in one step.\n";
  // Hosts show MCP tools under a prefix of their own (mcp__toold__read, toold_read, a namespace);
  // toold's texts cannot know it, so the model is told how the two relate.
  text += "- Your host may show these tools with a prefix (such as mcp__toold__read or toold_read); toold's "
          "messages name them without it.";
  return text;
}

} // namespace toold::daemon
