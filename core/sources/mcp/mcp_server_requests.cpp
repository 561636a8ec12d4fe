// What an MCP server may ask toold (roots, elicitation, ping; sampling is refused) and what it
// tells it (tools/list_changed, log messages), and the roots each server is offered.
#include "core/sources/mcp/mcp_server.h"

#include "protocol/bounded_json.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace toold::core {

namespace asio = boost::asio;

std::optional<std::vector<std::filesystem::path>> McpServer::resolveRoots() const {
  const std::filesystem::path workspace = host_.location.directory;
  switch (config_.roots.mode) {
  case McpRootsConfig::Mode::None: return std::nullopt;
  case McpRootsConfig::Mode::Listed: {
    std::vector<std::filesystem::path> roots;
    for (const auto& path : config_.roots.paths)
      roots.push_back((std::filesystem::path(path).is_absolute() ? std::filesystem::path(path) : workspace / path).lexically_normal());
    for (auto& root : roots) // "." is the workspace itself, not "<workspace>/"
      if (!root.has_filename() && root.has_parent_path()) root = root.parent_path();
    return roots;
  }
  case McpRootsConfig::Mode::Automatic: break;
  }
  // A server given its directories on its command line (server-filesystem `sub`) keeps them: a
  // server that takes roots replaces those directories with them, and the workspace would widen
  // what the command line narrowed. So such a server is not offered roots at all.
  if (config_.kind == McpServerConfig::Kind::Local) {
    std::filesystem::path cwd = workspace;
    if (!config_.cwd.empty()) cwd = std::filesystem::path(config_.cwd).is_absolute() ? std::filesystem::path(config_.cwd) : cwd / config_.cwd;
    for (std::size_t i = 1; i < config_.command.size(); ++i) {
      const std::string& argument = config_.command[i];
      if (argument.empty() || argument.starts_with("-")) continue;
      std::error_code error;
      const std::filesystem::path path = std::filesystem::path(argument).is_absolute() ? std::filesystem::path(argument) : cwd / argument;
      if (std::filesystem::is_directory(path, error)) return std::nullopt;
    }
  }
  return std::vector<std::filesystem::path>{workspace};
}

void McpServer::streamOpened(std::uint64_t generation) {
  if (generation != generation_) return;
  // What the server announced before the stream was there is lost: its tools are read again.
  if (status().state == McpState::Connected)
    scheduleRelist();
  else
    relistWhenConnected_ = true;
}

void McpServer::onServerRequest(const std::string& method, const json& params, std::function<void(McpAnswer)> respond) {
  if (method == "ping") return respond(McpAnswer{json::object(), std::nullopt});
  if (method == "roots/list") {
    if (!roots_)
      return respond(McpAnswer{std::nullopt, McpError{-32601, "toold offers no roots to MCP server \"" + name_ +
                                                                  "\" (its config or its arguments name its directories)"}});
    json roots = json::array();
    for (const auto& root : *roots_)
      roots.push_back(json{{"uri", "file://" + root.string()}, {"name", root.filename().string()}});
    return respond(McpAnswer{json{{"roots", std::move(roots)}}, std::nullopt});
  }
  if (method == "sampling/createMessage")
    return respond(McpAnswer{std::nullopt, McpError{-32601, "toold does not offer sampling: it runs tools and calls no model"}});
  if (method == "elicitation/create") {
    // Forwarded as it is when toold's own client can answer; declined otherwise.
    const json capabilities = host_.client ? host_.client->capabilities() : json::object();
    if (!capabilities.is_object() || !capabilities.contains("elicitation"))
      return respond(McpAnswer{json{{"action", "decline"}}, std::nullopt});
    host_.client->request("elicitation/create", params, CancellationToken(),
                          [respond = std::move(respond), strand = strand_](ClientReply reply) mutable {
                            asio::post(strand, [respond = std::move(respond), reply = std::move(reply)] {
                              if (reply.error) return respond(McpAnswer{std::nullopt, McpError{static_cast<int>(reply.error->code), reply.error->message}});
                              respond(McpAnswer{reply.result.value_or(json{{"action", "cancel"}}), std::nullopt});
                            });
                          });
    return;
  }
  respond(McpAnswer{std::nullopt, McpError{-32601, "toold does not handle " + method}});
}

void McpServer::onNotification(std::uint64_t generation, const std::string& method, const json& params) {
  if (generation != generation_) return;
  if (method == "notifications/tools/list_changed") return scheduleRelist();
  if (method == "notifications/message") {
    // A server that floods the log is heard at a bounded rate, and told of by a count.
    if (!logLimit_.allow()) return;
    reportDroppedLogs();
    const std::string level = params.value("level", std::string("info"));
    const std::string text = protocol::dumpBounded(params.value("data", json()));
    if (level == "debug")
      spdlog::debug("mcp {}: {}", name_, text);
    else if (level == "info" || level == "notice")
      spdlog::info("mcp {}: {}", name_, text);
    else if (level == "warning")
      spdlog::warn("mcp {}: {}", name_, text);
    else
      spdlog::error("mcp {}: {}", name_, text);
  }
}

void McpServer::reportDroppedLogs() {
  if (const auto dropped = logLimit_.takeDropped())
    spdlog::warn("mcp {}: {} log message(s) dropped: the server sent more than {} a second", name_, dropped,
                 kLogMessagesPerSecond);
}

} // namespace toold::core
