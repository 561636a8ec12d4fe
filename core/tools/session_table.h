// Sessions by sessionID. Each has a serial queue that owns its state: the pipeline's steps for the
// session's calls run on it one at a time, while the tool bodies themselves run elsewhere, so one
// session's calls overlap. Like the dispatcher's queue, it runs a task inline on the submitting
// thread when idle — an Asio strand would cost a thread hand-off per step.
#pragma once

#include "core/permission/doom_loop.h"
#include "core/base/serial_queue.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace toold::core {

struct Session {
  explicit Session(std::string sessionID) : id(std::move(sessionID)) {}
  const std::string id;
  SerialQueue queue;
  DoomLoopDetector doomLoop; ///< owned by the queue: touched only by its tasks
};

class SessionTable {
public:
  /// The session, created on first use; it lives until toold exits.
  std::shared_ptr<Session> get(const std::string& sessionID);

private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Session>, std::less<>> sessions_;
};

} // namespace toold::core
