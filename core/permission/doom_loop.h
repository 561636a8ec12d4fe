// Noticing a model stuck in a loop: the same call (tool and input) made a third time in a row in
// one session after the two before it got the same answer. Repeating a call whose answer changes
// is no loop — a job's output, `git status` while files change, a file being written — and is
// never held; neither are tools that poll by nature (bash_output, bash_jobs), which the pipeline
// does not show the detector at all. A held call asserts `doom_loop` (asked by default) instead of
// burning the session's budget.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

class DoomLoopDetector {
public:
  /// How many identical calls with identical answers a loop takes: the third is held.
  static constexpr std::size_t kRepeats = 3;

  /// Names one started call, for answered().
  struct Ticket {
    std::uint64_t run = 0;
    std::size_t position = 0;
  };

  /// Records a call that is about to run. `suspect` is true when the kRepeats - 1 calls right
  /// before it were this same call and were all answered, with the same answer. Calls still
  /// running (a session's calls overlap) are not taken as evidence either way.
  struct Started {
    Ticket ticket;
    bool suspect = false;
  };
  Started start(std::string_view tool, const nlohmann::json& input);

  /// The answer of a started call, as a fingerprint of what the model was shown.
  void answered(Ticket ticket, std::uint64_t answer);
  /// A started call that never ran (held and refused, cancelled): it leaves the run as if it had
  /// not been made, so the next identical call is held again.
  void forget(Ticket ticket);

  /// The fingerprint of a tool's answer: what the model sees of it (status, content, error).
  static std::uint64_t fingerprint(bool completed, const nlohmann::json& content, std::string_view error);

private:
  std::string tool_;
  std::uint64_t input_ = 0; ///< the input's fingerprint (hashed as answers are)
  struct Entry {
    std::size_t position;
    std::optional<std::uint64_t> answer; ///< empty while the call runs
  };
  Entry* find(Ticket ticket);

  std::uint64_t run_ = 0;  ///< which run of identical calls this is
  std::size_t next_ = 0;   ///< the next call's position in the run
  std::vector<Entry> calls_; ///< the run's newest calls, by start order
};

} // namespace toold::core
