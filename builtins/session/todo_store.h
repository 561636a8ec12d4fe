// The sessions' todo lists (todowrite, todoread): one list per session, kept in memory for the
// daemon's life and in `<data-dir>/todos/` so a restarted toold on the same Location finds them.
// Each write replaces the session's file atomically; a file that cannot be read is an empty list
// (logged), never a failed call.
#pragma once

#include "core/base/client_channel.h"
#include "core/base/location.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace toold::builtins {

class TodoStore {
public:
  TodoStore(core::Location location, std::shared_ptr<core::ClientChannel> client);

  /// The session's list (loaded from disk the first time).
  nlohmann::json read(const std::string& sessionID);
  /// Replaces the session's list, saves it and sends `todo/updated {sessionID, todos}`. Returns
  /// what failed when saving (the list is kept in memory all the same); empty on success.
  std::string write(const std::string& sessionID, nlohmann::json todos);

  /// The file of a session's list.
  std::filesystem::path fileOf(const std::string& sessionID) const;

private:
  nlohmann::json load(const std::string& sessionID) const;

  core::Location location_;
  std::shared_ptr<core::ClientChannel> client_;
  std::mutex mutex_;
  std::map<std::string, nlohmann::json> lists_;
};

} // namespace toold::builtins
