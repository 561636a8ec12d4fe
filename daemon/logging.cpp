// spdlog configuration for the daemon.
#include "daemon/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace toold::daemon {

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
  logger->flush_on(spdlog::level::debug); // a crash must not eat the last lines
  spdlog::set_default_logger(logger);
  return {};
}

} // namespace toold::daemon
