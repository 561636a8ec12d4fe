// Reading a fixture file into a Fixture, with errors that name the file and line.
#pragma once

#include "fixture.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::fixture {

/// A malformed fixture. The message starts with `path:line: `.
struct FixtureError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Parses the text of a fixture; `path` is used in error messages and kept in the result.
/// Throws FixtureError.
Fixture parseFixture(std::string_view text, const std::string& path);

/// Reads and parses a fixture file. Throws FixtureError (also when the file cannot be read).
Fixture loadFixture(const std::string& path);

} // namespace toold::fixture
