#include "core/permission/doom_loop.h"

namespace toold::core {

bool DoomLoopDetector::record(std::string_view tool, const nlohmann::json& input) {
  if (repeats_ > 0 && tool_ == tool && input_ == input) {
    ++repeats_;
  } else {
    tool_ = std::string(tool);
    input_ = input;
    repeats_ = 1;
  }
  return repeats_ >= kRepeats;
}

} // namespace toold::core
