// Logging setup: spdlog to stderr or a file, never stdout (stdout carries protocol frames only).
#pragma once

#include <spdlog/sinks/sink.h>

#include <memory>
#include <string>

namespace toold::daemon {

/// Replaces spdlog's default logger (which writes to stdout) before anything logs.
/// Returns an error message when the log file cannot be opened.
std::string initLogging(const std::string& level, const std::string& logFile);

/// Adds a sink that has its own level (the client's, over MCP): the logger lets through what
/// either the configured level or that sink wants, and the configured sinks keep their level.
void addLogSink(std::shared_ptr<spdlog::sinks::sink> sink);
/// Sets the level of a sink added with addLogSink, and the logger's to match.
void setLogSinkLevel(const std::shared_ptr<spdlog::sinks::sink>& sink, spdlog::level::level_enum level);

} // namespace toold::daemon
