// tool.execute.before and tool.execute.after: callbacks that see every call, run one after another
// in registration order, and may rewrite it — before: the tool name and input (repairing a
// misspelled name or malformed arguments); after: the outcome. In-process hooks and the client's
// (over `hook/...` requests) are the same kind of callback: asynchronous, JSON in, JSON out.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace toold::core {

using json = nlohmann::json;

enum class HookPoint { Before, After };

/// "tool.execute.before" / "tool.execute.after".
std::string_view hookPointName(HookPoint point);
std::optional<HookPoint> parseHookPoint(std::string_view name);

/// What one hook answers: the event it was given, changed or not; or, for a before hook only, a
/// refusal, which fails the call with that message before the tool runs.
struct HookReply {
  json event;
  std::optional<std::string> refusal;
};

/// A hook receives the event and calls `done` exactly once, from any thread.
using Hook = std::function<void(const json& event, std::function<void(HookReply)> done)>;

class ToolHooks {
public:
  using Id = std::uint64_t;

  Id add(HookPoint point, Hook hook);
  /// Removes one hook; removing twice is harmless.
  void remove(Id id);
  bool empty(HookPoint point) const;

  /// Runs the hooks registered for `point` when this starts, in order, each on the event the
  /// previous one returned; `done` gets the final event, or the first refusal (after which the
  /// rest do not run).
  void run(HookPoint point, json event, std::function<void(HookReply)> done) const;

private:
  struct Entry {
    Id id;
    HookPoint point;
    Hook hook;
  };
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  Id nextId_ = 1;
};

} // namespace toold::core
