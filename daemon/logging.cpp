// spdlog configuration for the daemon.
#include "daemon/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace toold::daemon {

namespace {
spdlog::level::level_enum& configuredLevel() {
  static spdlog::level::level_enum level = spdlog::level::info;
  return level;
}
} // namespace

std::string initLogging(const std::string& level, const std::string& logFile) {
  std::shared_ptr<spdlog::logger> logger;
  try {
    if (logFile.empty()) {
      logger = spdlog::stderr_logger_mt("toold");
    } else {
      logger = spdlog::basic_logger_mt("toold", logFile);
    }
  } catch (const spdlog::spdlog_ex& e) {
    logger = spdlog::stderr_logger_mt("toold");
    spdlog::set_default_logger(logger);
    return std::string("cannot open the log file: ") + e.what();
  }
  logger->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
  logger->set_level(spdlog::level::from_str(level));
  for (auto& sink : logger->sinks()) sink->set_level(spdlog::level::from_str(level));
  configuredLevel() = spdlog::level::from_str(level);
  logger->flush_on(spdlog::level::debug); // a crash must not eat the last lines
  spdlog::set_default_logger(logger);
  return {};
}

void addLogSink(std::shared_ptr<spdlog::sinks::sink> sink) { spdlog::default_logger()->sinks().push_back(std::move(sink)); }

void setLogSinkLevel(const std::shared_ptr<spdlog::sinks::sink>& sink, spdlog::level::level_enum level) {
  sink->set_level(level);
  spdlog::default_logger()->set_level(std::min(configuredLevel(), level));
}

} // namespace toold::daemon
