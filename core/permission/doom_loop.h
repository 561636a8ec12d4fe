// Noticing a model stuck in a loop: the same tool called with the same input three times in a row
// in one session. The call is then held for the person (`doom_loop` asks by default) instead of
// burning the session's budget.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace toold::core {

class DoomLoopDetector {
public:
  static constexpr std::size_t kRepeats = 3;

  /// Records a call that is about to run; true when it is the third (or later) consecutive one
  /// with this tool and JSON-identical input. Not thread-safe: one session's queue owns it.
  bool record(std::string_view tool, const nlohmann::json& input);

private:
  std::string tool_;
  nlohmann::json input_;
  std::size_t repeats_ = 0;
};

} // namespace toold::core
