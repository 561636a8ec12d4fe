// Logging setup: spdlog to stderr or a file, never stdout (stdout carries protocol frames only).
#pragma once

#include <string>

namespace toold::daemon {

/// Replaces spdlog's default logger (which writes to stdout) before anything logs.
/// Returns an error message when the log file cannot be opened.
std::string initLogging(const std::string& level, const std::string& logFile);

} // namespace toold::daemon
