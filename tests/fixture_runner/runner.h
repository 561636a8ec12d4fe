// Runs one fixture against a fresh toold in one mode and says whether the conversation held.
#pragma once

#include "fixture.h"

#include <optional>
#include <ostream>
#include <string>

namespace toold::fixture {

struct RunOptions {
  std::string tooldPath;
  /// When set, every message sent and received and toold's stderr are written here.
  std::ostream* trace = nullptr;
  /// Keep the scratch directory of a failed run for inspection (its path is in the report).
  bool keepFailed = true;
};

struct RunResult {
  enum class Outcome { Pass, Fail, Skip };
  Outcome outcome = Outcome::Pass;
  std::string detail; ///< Skip: the reason; Fail: the report, several lines
};

/// Why the fixture cannot run in `mode`, or nothing when it can.
std::optional<std::string> skipReason(const Fixture& fixture, Mode mode);

RunResult runFixture(const Fixture& fixture, Mode mode, const RunOptions& options);

} // namespace toold::fixture
