// Fuzz target for the shell scanner: whatever the bytes, it must finish without crashing, an
// Unparsed result lists no commands and says why, and a parsed one lists only commands whose text
// is a slice of the input (the text a permission prompt shows is what was written).
#include "builtins/shell/shell_scanner.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto scan = toold::builtins::scanShellCommand(input);
  if (!scan.parsed) {
    if (!scan.commands.empty() || scan.problem.empty()) std::abort();
    return 0;
  }
  if (!scan.problem.empty()) std::abort();
  for (const auto& command : scan.commands) {
    if (input.find(command.text) == std::string_view::npos) std::abort();
    if (command.words.empty() && command.assignments.empty() && command.redirections.empty()) std::abort();
  }
  return 0;
}
