#include "core/session_table.h"

namespace toold::core {

std::shared_ptr<Session> SessionTable::get(const std::string& sessionID) {
  std::lock_guard lock(mutex_);
  auto& session = sessions_[sessionID];
  if (!session) session = std::make_shared<Session>(sessionID);
  return session;
}

std::size_t SessionTable::size() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

} // namespace toold::core
