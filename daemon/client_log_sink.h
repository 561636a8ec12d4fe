// MCP logging: toold's own log lines at or above the level the client set with
// `logging/setLevel`, sent as `notifications/message`. Never the frame traces ("<-- method(id)",
// "--> reply…"): a host asking for debug lines must not get every message echoed back.
#pragma once

#include <nlohmann/json.hpp>
#include <spdlog/sinks/sink.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string_view>

namespace toold::daemon {

/// MCP's level for an spdlog level: debug, info, warning, error, critical.
std::string_view mcpLevelName(spdlog::level::level_enum level);
/// The spdlog level for one of MCP's eight levels (notice → info; alert, emergency → critical).
std::optional<spdlog::level::level_enum> levelFromMcp(std::string_view name);

class ClientLogSink final : public spdlog::sinks::sink {
public:
  using Send = std::function<void(nlohmann::json params)>;
  explicit ClientLogSink(Send send) : send_(std::move(send)) { set_level(spdlog::level::off); }

  void log(const spdlog::details::log_msg& message) override;
  void flush() override {}
  void set_pattern(const std::string&) override {}
  void set_formatter(std::unique_ptr<spdlog::formatter>) override {}

  /// Stops sending (before the server goes away).
  void detach();

private:
  std::mutex mutex_; // guards send_, and keeps one line's notification whole
  Send send_;
};

} // namespace toold::daemon
