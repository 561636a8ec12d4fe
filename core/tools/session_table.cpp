#include "core/tools/session_table.h"

namespace toold::core {

std::shared_ptr<Session> SessionTable::get(const std::string& sessionID) {
  std::lock_guard lock(mutex_);
  auto& session = sessions_[sessionID];
  if (!session) session = std::make_shared<Session>(sessionID);
  return session;
}

} // namespace toold::core
