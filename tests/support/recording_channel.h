// A ClientChannel for unit tests of tools that notify the client: it answers every request with
// "method not found" and keeps every notification, so a test can wait for the ones it expects.
#pragma once

#include "core/base/client_channel.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace toold::testing {

/// The client's side: keeps every notification.
class RecordingChannel final : public toold::core::ClientChannel {
public:
  void request(std::string, toold::core::json, toold::core::CancellationToken,
               std::function<void(toold::core::ClientReply)> onReply) override {
    onReply({std::nullopt, toold::protocol::RpcError{toold::protocol::ErrorCode::MethodNotFound, "no client here", {}}});
  }
  void notify(std::string method, toold::core::json params) override {
    std::lock_guard lock(mutex_);
    notifications_.emplace_back(std::move(method), std::move(params));
    changed_.notify_all();
  }
  toold::core::json capabilities() const override { return toold::core::json::object(); }

  /// The params of the `count`-th notification, waiting for it up to 10 s.
  std::vector<std::pair<std::string, toold::core::json>> waitFor(std::size_t count) {
    std::unique_lock lock(mutex_);
    REQUIRE(changed_.wait_for(lock, std::chrono::seconds(10), [&] { return notifications_.size() >= count; }));
    return notifications_;
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::pair<std::string, toold::core::json>> notifications_;
};

} // namespace toold::testing
