// The text printed under a FAIL line: everything needed to see what went wrong without rerunning.
#pragma once

#include "daemon_output.h"
#include "fixture.h"

#include <filesystem>
#include <string>
#include <vector>

namespace toold::fixture {

struct Failure {
  int line = 0;                  ///< the step that failed; 0 when it is about the whole run
  std::string headline;          ///< one sentence: what went wrong
  std::vector<Pattern> expected; ///< the patterns of a failed expectation
  std::string actual;            ///< what arrived instead (pretty JSON), or why nothing did
  std::string why;               ///< the matcher's explanation, when there is one
};

struct FailureContext {
  const Fixture& fixture;
  const std::vector<Received>& receivedSoFar;
  std::filesystem::path stderrFile;
  std::filesystem::path keptDirectory;
};

/// Pretty JSON, indented two spaces per level; invalid UTF-8 shown as U+FFFD.
std::string prettyJson(const nlohmann::json& value);

/// The last `count` lines of a file, with how many there were in all.
std::vector<std::string> lastLines(const std::filesystem::path& file, std::size_t count, std::size_t& total);

std::string formatFailure(const Failure& failure, const FailureContext& context);

} // namespace toold::fixture
