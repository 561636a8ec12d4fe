#include "builtins/session/todo_store.h"

#include "core/files/atomic_file.h"
#include "core/files/stable_key.h"

#include <spdlog/spdlog.h>

#include <fstream>
#include <sstream>

namespace toold::builtins {

using core::json;

TodoStore::TodoStore(core::Location location, std::shared_ptr<core::ClientChannel> client)
    : location_(std::move(location)), client_(std::move(client)) {}

std::filesystem::path TodoStore::fileOf(const std::string& sessionID) const {
  // The session's id is the runner's text: hashed into the name, kept inside the file.
  return std::filesystem::absolute(location_.dataDir) / "todos" /
         (core::stableKey(location_.directory.string()) + "-" + core::stableKey(sessionID) + ".json");
}

json TodoStore::load(const std::string& sessionID) const {
  const auto file = fileOf(sessionID);
  std::ifstream in(file, std::ios::binary);
  if (!in) return json::array();
  std::stringstream text;
  text << in.rdbuf();
  // toold's own file, in its own data folder: parsed without exceptions, checked for its shape.
  const json parsed = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || parsed.value("sessionID", json()) != sessionID || !parsed.value("todos", json()).is_array()) {
    spdlog::warn("todo list {} could not be read; the session starts with an empty list", file.string());
    return json::array();
  }
  return parsed["todos"];
}

json TodoStore::read(const std::string& sessionID) {
  std::lock_guard lock(mutex_);
  auto it = lists_.find(sessionID);
  if (it == lists_.end()) it = lists_.emplace(sessionID, load(sessionID)).first;
  return it->second;
}

std::string TodoStore::write(const std::string& sessionID, json todos) {
  std::string problem;
  {
    std::lock_guard lock(mutex_);
    lists_[sessionID] = todos;
    const auto file = fileOf(sessionID);
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    const std::string content = json{{"sessionID", sessionID}, {"todos", todos}}.dump(2) + "\n";
    problem = ec ? ec.message() : core::writeFileAtomically(file, content, 0600);
    if (!problem.empty()) spdlog::warn("todo list of session {} not saved to {}: {}", sessionID, file.string(), problem);
  }
  client_->notify("todo/updated", json{{"sessionID", sessionID}, {"todos", std::move(todos)}});
  return problem;
}

} // namespace toold::builtins
