#include "core/tools/tool_hooks.h"

#include <algorithm>
#include <memory>

namespace toold::core {

std::string_view hookPointName(HookPoint point) {
  return point == HookPoint::Before ? "tool.execute.before" : "tool.execute.after";
}

std::optional<HookPoint> parseHookPoint(std::string_view name) {
  if (name == "tool.execute.before") return HookPoint::Before;
  if (name == "tool.execute.after") return HookPoint::After;
  return std::nullopt;
}

ToolHooks::Id ToolHooks::add(HookPoint point, Hook hook) {
  std::lock_guard lock(mutex_);
  const Id id = nextId_++;
  entries_.push_back({id, point, std::move(hook)});
  return id;
}

void ToolHooks::remove(Id id) {
  std::lock_guard lock(mutex_);
  std::erase_if(entries_, [id](const Entry& entry) { return entry.id == id; });
}

bool ToolHooks::empty(HookPoint point) const {
  std::lock_guard lock(mutex_);
  return std::none_of(entries_.begin(), entries_.end(), [point](const Entry& e) { return e.point == point; });
}

namespace {

// Walks the hooks one at a time; each hook's reply continues the walk on the thread it arrives on.
struct HookChain : std::enable_shared_from_this<HookChain> {
  std::vector<Hook> hooks;
  std::size_t next = 0;
  std::function<void(HookReply)> done;

  void step(json event) {
    if (next == hooks.size()) return done(HookReply{std::move(event), std::nullopt});
    const Hook& hook = hooks[next++];
    hook(event, [self = shared_from_this()](HookReply reply) {
      if (reply.refusal) return self->done(std::move(reply));
      self->step(std::move(reply.event));
    });
  }
};

} // namespace

void ToolHooks::run(HookPoint point, json event, std::function<void(HookReply)> done) const {
  auto chain = std::make_shared<HookChain>();
  {
    std::lock_guard lock(mutex_);
    for (const auto& entry : entries_)
      if (entry.point == point) chain->hooks.push_back(entry.hook);
  }
  chain->done = std::move(done);
  chain->step(std::move(event));
}

} // namespace toold::core
