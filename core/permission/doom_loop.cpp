#include "core/permission/doom_loop.h"

#include "protocol/json_writer.h"

#include <algorithm>
#include <functional>

namespace toold::core {

DoomLoopDetector::Started DoomLoopDetector::start(std::string_view tool, const nlohmann::json& input) {
  if (run_ == 0 || tool_ != tool || input_ != input) {
    tool_ = std::string(tool);
    input_ = input;
    ++run_;
    next_ = 0;
    calls_.clear();
  }
  Started started{Ticket{run_, next_++}, false};
  if (calls_.size() >= kRepeats - 1) {
    const auto first = calls_.end() - static_cast<std::ptrdiff_t>(kRepeats - 1);
    started.suspect = std::all_of(first, calls_.end(), [&](const Entry& entry) {
      return entry.answer.has_value() && first->answer.has_value() && *entry.answer == *first->answer;
    });
  }
  calls_.push_back(Entry{started.ticket.position, std::nullopt});
  // Only the newest answers are ever compared: a long run keeps no more than those.
  if (calls_.size() > kRepeats) calls_.erase(calls_.begin());
  return started;
}

DoomLoopDetector::Entry* DoomLoopDetector::find(Ticket ticket) {
  if (ticket.run != run_) return nullptr;
  auto it = std::find_if(calls_.begin(), calls_.end(), [&](const Entry& e) { return e.position == ticket.position; });
  return it == calls_.end() ? nullptr : &*it;
}

void DoomLoopDetector::answered(Ticket ticket, std::uint64_t answer) {
  if (auto* entry = find(ticket)) entry->answer = answer;
}

void DoomLoopDetector::forget(Ticket ticket) {
  if (auto* entry = find(ticket)) calls_.erase(calls_.begin() + (entry - calls_.data()));
}

std::uint64_t DoomLoopDetector::fingerprint(bool completed, const nlohmann::json& content, std::string_view error) {
  // Serialised in place rather than gathered into one json first: that copied the whole content
  // (an MCP server's file, say) on every call. toold's writer does not throw on text that is not
  // UTF-8 (a tool's bytes are replaced only when the answer is encoded).
  std::string shown(completed ? "completed\n" : "failed\n");
  shown.append(error);
  shown += '\n';
  protocol::appendJson(shown, content);
  return std::hash<std::string>{}(shown);
}

} // namespace toold::core
