#include "core/sources/mcp/mcp_client.h"

#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <atomic>
#include <future>

namespace toold::core {

McpClient::McpClient(McpHost host) : host_(std::move(host)) {}

McpClient::~McpClient() = default;

void McpClient::setStatusListener(std::function<void(const McpServerStatus&)> listener) {
  std::lock_guard lock(mutex_);
  listener_ = std::move(listener);
}

std::shared_ptr<McpServer> McpClient::makeServer(const std::string& name, McpServerConfig config) {
  if (host_.loopNeeded) host_.loopNeeded();
  return std::make_shared<McpServer>(
      host_, name, std::move(config), [this](const McpServerStatus& status) { statusChanged(status); },
      [this, name](const std::string& tool) { return nameTakenByOthers(name, tool); });
}

bool McpClient::nameTakenByOthers(const std::string& server, const std::string& name) const {
  std::lock_guard lock(mutex_);
  for (const auto& [other, entry] : servers_) {
    if (other == server) continue;
    for (const auto& taken : entry->toolNames())
      if (taken == name) return true;
  }
  return false;
}

void McpClient::statusChanged(const McpServerStatus& status) {
  std::function<void(const McpServerStatus&)> listener;
  bool anyResources = false;
  {
    std::lock_guard lock(mutex_);
    listener = listener_;
    for (const auto& [name, server] : servers_) {
      // The server reporting may not show its new state through status() in every case yet.
      const bool resources = name == status.name ? status.resources : server->status().resources;
      anyResources = anyResources || resources;
    }
  }
  {
    // The resource tools are there exactly while some connected server offers resources.
    std::lock_guard lock(resourceMutex_);
    if (anyResources != resourceToolsShown_) {
      resourceToolsShown_ = anyResources;
      try {
        host_.replaceScope(std::string(kMcpResourceScope),
                           anyResources ? makeMcpResourceTools(*this) : std::vector<std::pair<std::string, Tool>>{});
      } catch (const std::exception& e) {
        spdlog::error("the MCP resource tools could not be registered: {}", e.what());
      }
    }
  }
  spdlog::info("MCP server {}: {}{}", status.name, mcpStateName(status.state),
               status.error.empty() ? std::string() : " (" + status.error + ")");
  if (listener) listener(status);
}

void McpClient::configure(const McpConfig& config) {
  std::vector<std::shared_ptr<McpServer>> toStart;
  std::vector<std::pair<std::shared_ptr<McpServer>, std::shared_ptr<McpServer>>> toReplace;
  std::vector<std::shared_ptr<McpServer>> toStop;
  {
    std::lock_guard lock(mutex_);
    for (auto it = servers_.begin(); it != servers_.end();) {
      if (!config.servers.contains(it->first) && !runtime_.contains(it->first)) {
        toStop.push_back(it->second);
        it = servers_.erase(it);
      } else {
        ++it;
      }
    }
    for (const auto& [name, serverConfig] : config.servers) {
      runtime_.erase(name); // the file names it: the file's config wins
      const auto existing = servers_.find(name);
      if (existing != servers_.end() && existing->second->config() == serverConfig) continue;
      auto server = makeServer(name, serverConfig);
      if (existing != servers_.end()) {
        toReplace.emplace_back(existing->second, server);
        existing->second = server;
      } else {
        servers_[name] = server;
        toStart.push_back(server);
      }
    }
  }
  for (auto& server : toStop) server->stop([] {});
  // The new process starts once the old one is gone, so the two never race for the scope.
  for (auto& [old, replacement] : toReplace) old->stop([replacement] { replacement->start(); });
  for (auto& server : toStart) server->start();
}

bool McpClient::connect(const std::string& name, std::optional<McpServerConfig> config) {
  std::shared_ptr<McpServer> old;
  std::shared_ptr<McpServer> server;
  {
    std::lock_guard lock(mutex_);
    const auto existing = servers_.find(name);
    if (existing == servers_.end() && !config) return false;
    if (existing != servers_.end()) old = existing->second;
    McpServerConfig chosen = config ? *config : old->config();
    chosen.disabled = false; // connecting a server is enabling it
    if (config) runtime_.insert(name);
    server = makeServer(name, std::move(chosen));
    servers_[name] = server;
  }
  if (old)
    old->stop([server] { server->start(); });
  else
    server->start();
  return true;
}

bool McpClient::disconnect(const std::string& name) {
  std::shared_ptr<McpServer> server;
  {
    std::lock_guard lock(mutex_);
    const auto existing = servers_.find(name);
    if (existing == servers_.end()) return false;
    server = existing->second;
  }
  server->stop([] {});
  return true;
}

std::vector<McpServerStatus> McpClient::status() const {
  std::lock_guard lock(mutex_);
  std::vector<McpServerStatus> result;
  for (const auto& [name, server] : servers_) result.push_back(server->status());
  return result;
}

void McpClient::whenSettled(std::function<void()> ready) {
  std::vector<std::shared_ptr<McpServer>> pending;
  std::chrono::milliseconds longest{0};
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, server] : servers_)
      if (server->status().state == McpState::Pending) {
        pending.push_back(server);
        longest = std::max(longest, server->config().timeout.startup);
      }
  }
  if (pending.empty()) return ready();
  struct Gate {
    std::atomic<std::size_t> waiting;
    std::atomic<bool> fired{false};
    std::function<void()> ready;
    std::unique_ptr<boost::asio::steady_timer> timer;
    std::mutex mutex;
  };
  auto gate = std::make_shared<Gate>();
  gate->waiting = pending.size();
  gate->ready = std::move(ready);
  auto fire = [gate] {
    if (gate->fired.exchange(true)) return;
    {
      std::lock_guard lock(gate->mutex);
      if (gate->timer) gate->timer->cancel();
    }
    gate->ready();
  };
  {
    std::lock_guard lock(gate->mutex);
    gate->timer = std::make_unique<boost::asio::steady_timer>(host_.io, longest);
    gate->timer->async_wait([fire, pending](const boost::system::error_code& error) {
      if (error) return;
      for (const auto& server : pending)
        if (server->status().state == McpState::Pending)
          spdlog::warn("snapshot: MCP server {} is still starting; its tools are not in this snapshot", server->name());
      fire();
    });
  }
  for (const auto& server : pending)
    server->whenSettled([gate, fire] {
      if (--gate->waiting == 0) fire();
    });
}

void McpClient::stopAll(std::chrono::milliseconds patience) {
  std::vector<std::shared_ptr<McpServer>> servers;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, server] : servers_) servers.push_back(server);
  }
  if (servers.empty()) return;
  auto left = std::make_shared<std::atomic<std::size_t>>(servers.size());
  auto allGone = std::make_shared<std::promise<void>>();
  auto future = allGone->get_future();
  for (const auto& server : servers)
    server->stop([left, allGone] {
      if (--*left == 0) allGone->set_value();
    });
  if (future.wait_for(patience) != std::future_status::ready)
    spdlog::warn("MCP servers still running after {} ms; they are killed", patience.count());
}

std::shared_ptr<McpServer> McpClient::resourceServer(const std::string& name) const {
  std::lock_guard lock(mutex_);
  const auto it = servers_.find(name);
  if (it == servers_.end() || !it->second->status().resources) return nullptr;
  return it->second;
}

std::vector<std::shared_ptr<McpServer>> McpClient::resourceServers() const {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<McpServer>> result;
  for (const auto& [name, server] : servers_)
    if (server->status().resources) result.push_back(server);
  return result;
}

} // namespace toold::core
