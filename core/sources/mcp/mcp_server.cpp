#include "core/sources/mcp/mcp_server.h"

#include "core/schema/json_schema.h"
#include "core/schema/schema_precheck.h"
#include "core/sources/mcp/mcp_result.h"
#include "core/sources/mcp/mcp_http_transport.h"
#include "core/sources/mcp/mcp_stdio_transport.h"
#include "core/sources/mcp/mcp_tool_names.h"
#include "core/tools/permission_guard.h"
#include "core/tools/tool_name.h"
#include "protocol/bounded_json.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

namespace toold::core {

namespace asio = boost::asio;

namespace {

/// `2026-12-06T10:30:00.250Z`
std::string utcTime(std::chrono::system_clock::time_point at) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
  const std::time_t whole = static_cast<std::time_t>(ms / 1000);
  std::tm parts{};
  gmtime_r(&whole, &parts);
  char text[96];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1,
                parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, static_cast<int>(ms % 1000));
  return text;
}

} // namespace

std::string mcpSeconds(std::chrono::milliseconds duration) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", std::chrono::duration<double>(duration).count());
  return text;
}

std::string_view mcpStateName(McpState state) {
  switch (state) {
  case McpState::Pending: return "pending";
  case McpState::Connected: return "connected";
  case McpState::Disabled: return "disabled";
  case McpState::Failed: return "failed";
  case McpState::NeedsAuth: return "needs_auth";
  case McpState::Restarting: return "restarting";
  }
  return "failed";
}

json McpServerStatus::toJson() const {
  json value{{"name", name}, {"status", mcpStateName(state)}, {"tools", toolCount}, {"restarts", restarts}};
  if (!error.empty()) value["error"] = error;
  if (pid > 0) value["pid"] = pid;
  if (resources) value["resources"] = true;
  if (!renamed.empty()) value["renamed"] = renamed;
  if (state == McpState::Connected && !protocolVersion.empty()) value["protocolVersion"] = protocolVersion;
  if (state == McpState::Restarting) {
    value["attempt"] = attempt;
    if (nextAttemptAt) value["nextAttemptAt"] = utcTime(*nextAttemptAt);
  }
  return value;
}

McpServer::McpServer(McpHost& host, std::string name, McpServerConfig config, StatusListener onStatus,
                     std::function<bool(const std::string&)> takenElsewhere)
    : host_(host), name_(std::move(name)), config_(std::move(config)), onStatus_(std::move(onStatus)),
      takenElsewhere_(std::move(takenElsewhere)), strand_(asio::make_strand(host.io)), startupDeadline_(strand_),
      restartTimer_(strand_), healthyTimer_(strand_), relistTimer_(strand_) {
  status_.name = name_;
  status_.state = config_.disabled ? McpState::Disabled : McpState::Pending;
}

McpServer::~McpServer() = default;

McpServerStatus McpServer::status() const {
  std::lock_guard lock(statusMutex_);
  return status_;
}

std::vector<std::string> McpServer::toolNames() const {
  std::lock_guard lock(statusMutex_);
  return toolNames_;
}

void McpServer::setState(McpState state, std::string error) {
  McpServerStatus copy;
  {
    std::lock_guard lock(statusMutex_);
    status_.state = state;
    status_.error = std::move(error);
    if (state != McpState::Restarting) {
      status_.attempt = 0;
      status_.nextAttemptAt.reset();
    }
    status_.pid = transport_ && state == McpState::Connected ? transport_->pid() : 0;
    liveConnection_ = state == McpState::Connected ? connection_ : nullptr;
    liveGeneration_ = generation_;
    if (state != McpState::Connected) {
      status_.toolCount = 0;
      status_.resources = false;
      status_.renamed.clear();
      status_.protocolVersion.clear();
      toolNames_.clear();
    }
    copy = status_;
  }
  if (onStatus_) onStatus_(copy);
  if (state != McpState::Pending) settle();
  if (state != McpState::Pending && state != McpState::Restarting) resumeWaitingCalls();
}

void McpServer::settle() {
  auto waiters = std::move(settledWaiters_);
  settledWaiters_.clear();
  for (auto& ready : waiters) ready();
}

void McpServer::whenSettled(std::function<void()> ready) {
  asio::post(strand_, [self = shared_from_this(), ready = std::move(ready)]() mutable {
    if (self->status().state == McpState::Pending)
      self->settledWaiters_.push_back(std::move(ready));
    else
      ready();
  });
}

void McpServer::start() {
  asio::post(strand_, [self = shared_from_this()] {
    if (self->config_.disabled) {
      self->setState(McpState::Disabled);
      return;
    }
    self->stopped_ = false;
    self->failuresInARow_ = 0;
    self->restartTimer_.cancel();
    self->connect();
  });
}

std::shared_ptr<McpTransport> McpServer::makeTransport() {
  if (config_.kind == McpServerConfig::Kind::Remote)
    return std::make_shared<McpHttpTransport>(strand_, name_, config_.url, config_.headers);
  ProcessSpec spec;
  spec.argv = config_.command;
  std::filesystem::path cwd = host_.location.directory;
  if (!config_.cwd.empty()) cwd = std::filesystem::path(config_.cwd).is_absolute() ? std::filesystem::path(config_.cwd) : cwd / config_.cwd;
  spec.cwd = cwd;
  for (const auto& [key, value] : config_.environment) spec.extraEnv.push_back(key + "=" + value);
  if (host_.sandbox) host_.sandbox->wrap(spec, SandboxedProcess::McpServer);
  return std::make_shared<McpStdioTransport>(host_.processes, strand_, name_, std::move(spec));
}

void McpServer::connect() {
  const std::uint64_t generation = ++generation_;
  if (connection_) connection_->close("the MCP server is restarting");
  if (transport_) transport_->stop([] {});
  setState(McpState::Pending);
  transport_ = makeTransport();
  std::weak_ptr<McpServer> weak = weak_from_this();
  connection_ = std::make_shared<McpConnection>(
      strand_, [transport = std::weak_ptr<McpTransport>(transport_)](std::string frame) {
        if (auto live = transport.lock()) live->send(std::move(frame));
      },
      [weak](const std::string& method, const json& params, std::function<void(McpAnswer)> respond) {
        if (auto self = weak.lock()) self->onServerRequest(method, params, std::move(respond));
      },
      [weak, generation](const std::string& method, const json& params) {
        if (auto self = weak.lock()) self->onNotification(generation, method, params);
      });
  transport_->start(McpTransport::Events{
      [weak, generation](json message) {
        auto self = weak.lock();
        if (self && self->generation_ == generation && self->connection_) self->connection_->receive(std::move(message));
      },
      [weak, generation](std::optional<json> id, std::size_t bytes) {
        auto self = weak.lock();
        if (self && self->generation_ == generation && self->connection_) self->connection_->oversized(id, bytes);
      },
      [weak, generation](std::string reason) {
        if (auto self = weak.lock()) self->failed(generation, "Connection closed: " + reason, true);
      },
      [weak, generation](std::string reason) {
        auto self = weak.lock();
        if (!self || generation != self->generation_) return;
        self->failed(generation, reason, false, McpState::NeedsAuth);
      },
      [weak, generation] {
        if (auto self = weak.lock()) self->streamOpened(generation);
      }});
  startupDeadline_.expires_after(config_.timeout.startup);
  startupDeadline_.async_wait([weak, generation, timeout = config_.timeout.startup](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (error || !self || self->generation_ != generation || self->status().state != McpState::Pending) return;
    self->failed(generation, "did not finish starting (initialize and tools/list) within " + mcpSeconds(timeout) +
                                 " s (raise the server's timeout.startup in toold.json)", false);
  });
  relistWhenConnected_ = false;
  roots_ = resolveRoots();
  json capabilities{{"elicitation", json::object()}};
  if (roots_) capabilities["roots"] = json::object();
  json params{{"protocolVersion", kMcpClientVersions[0]},
              {"capabilities", std::move(capabilities)},
              {"clientInfo", {{"name", "toold"}, {"version", host_.version}}}};
  // No deadline of its own: the start-up deadline above bounds initialize and the first listing.
  connection_->request("initialize", std::move(params), McpRequestOptions{},
                       [weak, generation](McpAnswer answer) {
                         if (auto self = weak.lock()) self->initialized(generation, answer);
                       });
}

void McpServer::initialized(std::uint64_t generation, const McpAnswer& answer) {
  if (generation != generation_) return;
  if (answer.error) return failed(generation, "initialize failed: " + answer.error->message, false);
  // The server answers the version offered or an older one it prefers; one toold does not speak
  // cannot be talked to (the specification's advice: disconnect).
  const json* version = answer.result && answer.result->is_object() && answer.result->contains("protocolVersion")
                            ? &(*answer.result)["protocolVersion"]
                            : nullptr;
  const std::string agreed = version && version->is_string() ? version->get<std::string>() : std::string();
  if (std::find(std::begin(kMcpClientVersions), std::end(kMcpClientVersions), agreed) == std::end(kMcpClientVersions)) {
    std::string known;
    for (const auto candidate : kMcpClientVersions) known += (known.empty() ? "" : ", ") + std::string(candidate);
    return failed(generation,
                  "initialize failed: the server speaks MCP " + (version ? protocol::dumpBounded(*version) : std::string("(no protocolVersion)")) +
                      ", which toold does not (toold speaks " + known + ")",
                  false);
  }
  transport_->setProtocolVersion(agreed);
  {
    std::lock_guard lock(statusMutex_);
    status_.protocolVersion = agreed;
  }
  serverCapabilities_ = answer.result && answer.result->is_object() ? answer.result->value("capabilities", json::object())
                                                                    : json::object();
  if (!serverCapabilities_.is_object()) serverCapabilities_ = json::object();
  connection_->notify("notifications/initialized", nullptr);
  auto finish = [self = shared_from_this(), generation](std::optional<json> tools, std::string problem) {
    if (generation != self->generation_) return;
    if (!tools) return self->failed(generation, "tools/list failed: " + problem, false);
    self->startupDeadline_.cancel();
    self->install(*tools);
    self->lastRelist_ = std::chrono::steady_clock::now();
    {
      std::lock_guard lock(self->statusMutex_);
      self->status_.resources = self->serverCapabilities_.contains("resources");
    }
    self->setState(McpState::Connected);
    if (self->relistWhenConnected_) self->scheduleRelist();
    self->healthyTimer_.expires_after(self->host_.healthyReset);
    self->healthyTimer_.async_wait([weak = self->weak_from_this(), generation](const boost::system::error_code& error) {
      auto live = weak.lock();
      if (!error && live && live->generation_ == generation) live->failuresInARow_ = 0;
    });
  };
  if (!serverCapabilities_.contains("tools")) return finish(json::array(), "");
  // Over HTTP the two would be concurrent POSTs: tools/list goes once the server took
  // `initialized`, so a tool it adds on `initialized` is in the first list.
  transport_->afterSent([self = shared_from_this(), generation, finish = std::move(finish)]() mutable {
    if (generation != self->generation_) return;
    self->listTools(generation, std::chrono::milliseconds(0), std::move(finish));
  });
}

void McpServer::listTools(std::uint64_t generation, std::chrono::milliseconds pageTimeout,
                          std::function<void(std::optional<json>, std::string)> done) {
  listPage(generation, pageTimeout, nullptr, std::make_shared<json>(json::array()),
           std::make_shared<std::vector<std::string>>(), std::move(done));
}

void McpServer::listPage(std::uint64_t generation, std::chrono::milliseconds pageTimeout, json cursor,
                         std::shared_ptr<json> tools, std::shared_ptr<std::vector<std::string>> cursors,
                         std::function<void(std::optional<json>, std::string)> done) {
  json params = json::object();
  if (!cursor.is_null()) params["cursor"] = cursor;
  connection_->request(
      "tools/list", std::move(params), McpRequestOptions{pageTimeout, {}},
      [self = shared_from_this(), generation, pageTimeout, tools, cursors, done = std::move(done)](McpAnswer answer) mutable {
        if (generation != self->generation_) return;
        if (answer.error) return done(std::nullopt, answer.error->message);
        const json& result = *answer.result;
        if (result.is_object())
          if (const auto list = result.find("tools"); list != result.end() && list->is_array())
            for (const json& tool : *list) tools->push_back(tool);
        const auto next = result.is_object() ? result.find("nextCursor") : result.end();
        if (!result.is_object() || next == result.end() || !next->is_string()) return done(std::move(*tools), "");
        const std::string text = next->get<std::string>();
        if (std::find(cursors->begin(), cursors->end(), text) != cursors->end())
          return done(std::nullopt, "MCP list returned duplicate cursor: " + text);
        cursors->push_back(text);
        self->listPage(generation, pageTimeout, *next, tools, cursors, std::move(done));
      });
}

void McpServer::install(const json& tools) {
  std::vector<std::string> rawNames;
  std::vector<const json*> definitions;
  for (const json& tool : tools) {
    if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string() || tool["name"].get_ref<const std::string&>().empty()) {
      spdlog::warn("MCP server {}: a tool without a name was skipped", name_);
      continue;
    }
    const std::string& raw = tool["name"].get_ref<const std::string&>();
    if (std::find(rawNames.begin(), rawNames.end(), raw) != rawNames.end()) {
      spdlog::warn("MCP server {}: tool \"{}\" is listed twice; the first is kept", name_, raw);
      continue;
    }
    rawNames.push_back(raw);
    definitions.push_back(&tool);
  }
  const auto names = nameMcpTools(name_, rawNames, takenElsewhere_);
  std::vector<std::pair<std::string, Tool>> registered;
  std::map<std::string, std::string> renamed;
  std::vector<std::string> effectiveNames;
  std::weak_ptr<McpServer> weak = weak_from_this();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const json& definition = *definitions[i];
    Tool tool;
    tool.description = definition.value("description", std::string());
    tool.inputSchema = definition.contains("inputSchema") && definition["inputSchema"].is_object()
                           ? definition["inputSchema"]
                           : json{{"type", "object"}};
    if (const auto output = definition.find("outputSchema"); output != definition.end() && output->is_object())
      tool.outputSchema = *output;
    // A malformed schema (or one over toold's limits) drops that tool only, never the server's
    // others; one that is valid but uses what toold cannot enforce keeps the tool, unchecked (the
    // registry notes it in the tool's schemaNote).
    // A schema of the plain shape certainly compiles: it is left for its first call.
    try {
      if (!compilesForCertain(tool.inputSchema)) CompiledSchema::compile(tool.inputSchema);
    } catch (const SchemaUnsupported&) {
    } catch (const std::exception& e) {
      spdlog::warn("MCP server {}: tool \"{}\" skipped: its input schema cannot be used: {}", name_, names[i].raw, e.what());
      continue;
    }
    if (tool.outputSchema) {
      try {
        if (!compilesForCertain(*tool.outputSchema)) CompiledSchema::compile(*tool.outputSchema);
      } catch (const SchemaUnsupported&) {
      } catch (const std::exception& e) {
        spdlog::warn("MCP server {}: tool \"{}\": its output schema cannot be used and is ignored: {}", name_,
                     names[i].raw, e.what());
        tool.outputSchema.reset();
      }
    }
    tool.title = definition.value("title", std::string());
    if (const auto annotations = definition.find("annotations"); annotations != definition.end() && annotations->is_object()) {
      tool.annotations = *annotations;
      if (tool.title.empty() && annotations->contains("title") && (*annotations)["title"].is_string())
        tool.title = (*annotations)["title"];
    }
    tool.codemode = config_.codemode;
    tool.threading = ToolThreading::Inline;
    const bool hasOutput = tool.outputSchema.has_value();
    const std::string& effective = names[i].effective;
    tool.execute = guardedByPermission(effective, effective,
                                       [weak, raw = names[i].raw, hasOutput](json input, ToolContext context, ToolDone done) {
                                         auto self = weak.lock();
                                         if (!self) return done(ToolFailure{"the MCP server of this tool was removed", std::nullopt});
                                         self->callTool(raw, hasOutput, std::move(input), std::move(context), std::move(done));
                                       });
    if (names[i].renamed) {
      spdlog::warn("MCP server {}: tool \"{}\" is named {} (its plain name {} is {})", name_, names[i].raw, effective,
                   mcpPlainToolName(name_, names[i].raw),
                   mcpPlainToolName(name_, names[i].raw).size() > kMaxToolNameLength ? "over 64 characters" : "taken");
      renamed[effective] = names[i].raw;
    }
    effectiveNames.push_back(effective);
    registered.emplace_back(effective, std::move(tool));
  }
  try {
    host_.replaceScope(scope(), std::move(registered));
  } catch (const std::exception& e) {
    spdlog::error("MCP server {}: its tools could not be registered: {}", name_, e.what());
    effectiveNames.clear();
    renamed.clear();
  }
  std::lock_guard lock(statusMutex_);
  status_.toolCount = effectiveNames.size();
  status_.renamed = std::move(renamed);
  toolNames_ = std::move(effectiveNames);
}

void McpServer::scheduleRelist() {
  if (relistScheduled_) return;
  relistScheduled_ = true;
  const auto due = lastRelist_ + kMcpRelistInterval;
  relistTimer_.expires_at(std::max(due, std::chrono::steady_clock::now()));
  relistTimer_.async_wait([weak = weak_from_this(), generation = generation_](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (!self) return;
    self->relistScheduled_ = false;
    if (error || generation != self->generation_ || self->status().state != McpState::Connected) return;
    self->lastRelist_ = std::chrono::steady_clock::now();
    self->listTools(generation, self->config_.timeout.catalog, [self, generation](std::optional<json> tools, std::string problem) {
      if (generation != self->generation_ || self->status().state != McpState::Connected) return;
      if (!tools) {
        spdlog::warn("MCP server {}: listing its changed tools failed ({}); the previous ones are kept", self->name_, problem);
        return;
      }
      self->install(*tools);
      McpServerStatus copy = self->status();
      if (self->onStatus_) self->onStatus_(copy);
    });
  });
}

void McpServer::failed(std::uint64_t generation, const std::string& reason, bool restart, McpState state) {
  if (generation != generation_ || stopped_) return;
  ++generation_; // whatever the old process still sends is dropped
  startupDeadline_.cancel();
  healthyTimer_.cancel();
  relistTimer_.cancel();
  ++failuresInARow_;
  spdlog::warn("MCP server {} failed: {}", name_, reason);
  // What happens next, decided first: the tools leave and the status says so before the calls in
  // flight fail, so a client that reacts to the failure (a new snapshot, mcp/status) never sees
  // the server as it was.
  std::string shown = reason;
  std::optional<std::chrono::milliseconds> restartIn;
  if (!restart) {
    // It runs but does not speak MCP in time (or wants OAuth): starting it again would only repeat that.
  } else if (failuresInARow_ >= kMcpMaxFailuresInARow) {
    state = McpState::Failed;
    shown += " (gave up after " + std::to_string(failuresInARow_) + " failures in a row; mcp/connect starts it again)";
  } else {
    auto delay = host_.restartDelay * (1LL << std::min(failuresInARow_ - 1, 16u));
    if (delay > kMcpMaxRestartDelay) delay = kMcpMaxRestartDelay;
    restartIn = std::chrono::duration_cast<std::chrono::milliseconds>(delay);
    state = McpState::Restarting;
    shown += " (restarting in " + mcpSeconds(*restartIn) + " s)";
    std::lock_guard lock(statusMutex_);
    status_.attempt = failuresInARow_;
    status_.nextAttemptAt = std::chrono::system_clock::now() + *restartIn;
  }
  host_.replaceScope(scope(), {});
  setState(state, std::move(shown));
  if (connection_) connection_->close(reason);
  connection_.reset();
  if (transport_) transport_->stop([] {}); // kills what is left of it
  transport_.reset();
  if (!restartIn) return;
  restartTimer_.expires_after(*restartIn);
  restartTimer_.async_wait([weak = weak_from_this(), generation = generation_](const boost::system::error_code& error) {
    auto self = weak.lock();
    if (error || !self || self->stopped_ || generation != self->generation_) return;
    {
      std::lock_guard lock(self->statusMutex_);
      ++self->status_.restarts;
    }
    self->connect();
  });
}

void McpServer::stop(std::function<void()> done) {
  asio::post(strand_, [self = shared_from_this(), done = std::move(done)]() mutable {
    self->stopped_ = true;
    self->reportDroppedLogs(); // the flood's last drops would otherwise never be told
    ++self->generation_;
    self->startupDeadline_.cancel();
    self->restartTimer_.cancel();
    self->healthyTimer_.cancel();
    self->relistTimer_.cancel();
    self->host_.replaceScope(self->scope(), {});
    if (self->connection_) self->connection_->close("MCP server \"" + self->name_ + "\" was disconnected");
    self->connection_.reset();
    if (self->status().state != McpState::Disabled) self->setState(McpState::Disabled);
    auto transport = std::move(self->transport_);
    if (!transport) return done();
    transport->stop([transport, done = std::move(done)] { done(); });
  });
}

} // namespace toold::core
