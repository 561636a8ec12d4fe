#include "builtins/search/line_scan.h"

namespace toold::builtins::search {

std::string_view reportedLine(std::string_view line, std::size_t maxBytes) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() <= maxBytes) return line;
  std::size_t cut = maxBytes;
  // Back to the start of the sequence the cut would split; at most three steps, as a sequence is
  // at most four bytes long (and bytes that are not UTF-8 are cut anywhere).
  for (int step = 0; step < 3 && cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80; ++step) --cut;
  return line.substr(0, cut);
}

} // namespace toold::builtins::search
