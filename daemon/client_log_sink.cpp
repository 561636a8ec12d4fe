#include "daemon/client_log_sink.h"

namespace toold::daemon {

std::string_view mcpLevelName(spdlog::level::level_enum level) {
  switch (level) {
  case spdlog::level::trace:
  case spdlog::level::debug: return "debug";
  case spdlog::level::info: return "info";
  case spdlog::level::warn: return "warning";
  case spdlog::level::err: return "error";
  default: return "critical";
  }
}

std::optional<spdlog::level::level_enum> levelFromMcp(std::string_view name) {
  if (name == "debug") return spdlog::level::debug;
  if (name == "info" || name == "notice") return spdlog::level::info;
  if (name == "warning") return spdlog::level::warn;
  if (name == "error") return spdlog::level::err;
  if (name == "critical" || name == "alert" || name == "emergency") return spdlog::level::critical;
  return std::nullopt;
}

void ClientLogSink::log(const spdlog::details::log_msg& message) {
  // Sending may log (a broken stdout): that line is not sent again.
  thread_local bool sending = false;
  if (sending || !should_log(message.level)) return;
  const std::string_view text(message.payload.data(), message.payload.size());
  if (text.starts_with("<-- ") || text.starts_with("--> ")) return;
  std::lock_guard lock(mutex_);
  if (!send_) return;
  sending = true;
  send_(nlohmann::json{{"level", mcpLevelName(message.level)},
                       {"logger", "toold"},
                       {"data", std::string(text)}}); // bytes that are not UTF-8 are replaced when encoded
  sending = false;
}

void ClientLogSink::detach() {
  std::lock_guard lock(mutex_);
  send_ = nullptr;
}

} // namespace toold::daemon
