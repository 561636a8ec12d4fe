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

} // namespace toold::core
