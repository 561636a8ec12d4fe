#include "builtins/session/todo_store.h"

#include "core/files/atomic_file.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace toold::builtins {

namespace {

using core::json;

// FNV-1a, as the saved approvals name their Location's file: stable across runs and builds.
std::string fnv1a(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

} // namespace

TodoStore::TodoStore(core::Location location, std::shared_ptr<core::ClientChannel> client)
    : location_(std::move(location)), client_(std::move(client)) {}

std::filesystem::path TodoStore::fileOf(const std::string& sessionID) const {
  // The session's id is the runner's text: hashed into the name, kept inside the file.
  return std::filesystem::absolute(location_.dataDir) / "todos" /
         (fnv1a(location_.directory.string()) + "-" + fnv1a(sessionID) + ".json");
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
