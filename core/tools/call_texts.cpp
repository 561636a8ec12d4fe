#include "core/tools/call_texts.h"

namespace toold::core {

std::string unknownToolMessage(const std::string& name, const Snapshot& snapshot) {
  std::string message = "Unknown tool: " + name + ". Available tools: ";
  const auto names = snapshot.names();
  if (names.empty()) return message + "none.";
  for (std::size_t i = 0; i < names.size(); ++i) message += (i ? ", " : "") + names[i];
  return message + ".";
}

std::string loopAdvice(const std::string& tool) {
  return "This call repeats the last two " + tool +
         " calls exactly, and both got the same answer: running it again would give that answer again. "
         "Use the answer you have, change the input, or try another approach; to wait for a background "
         "job, call bash_output with wait. ";
}

std::string loopNoteAfterAnswer(const std::string& tool) {
  return "Note: " + loopAdvice(tool) + "(No one could be asked; toold's unattended policy let this call run.)";
}

std::string joinIssues(const std::vector<SchemaIssue>& issues) {
  std::string text;
  for (const auto& issue : issues) text += (text.empty() ? "" : "; ") + issue.path + ": " + issue.message;
  return text;
}

std::string cutFirstLine(const RetainedText& retained) {
  if (!retained.part.whole()) return "(Output cut to its start and end; " + keptNote(retained.part, retained.path) + ".)";
  return "(Output cut to its start and end; the full text is saved to " + retained.path.string() + ".)";
}

} // namespace toold::core
