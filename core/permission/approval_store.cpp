#include "core/permission/approval_store.h"

#include "core/files/atomic_file.h"
#include "core/files/read_to_end.h"
#include "core/files/stable_key.h"
#include "protocol/bounded_json.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>
#include <cerrno>
#include <optional>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace toold::core {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr std::string_view kSavedSource = "saved approval";

// The file also records the directory, so the rare collision of keys is detected rather than
// sharing approvals between two workspaces.
std::string directoryKey(const fs::path& directory) { return stableKey(directory.string()); }

} // namespace

ApprovalStore::ApprovalStore(const fs::path& dataDir, fs::path locationDirectory)
    : directory_(std::move(locationDirectory)),
      file_(fs::absolute(dataDir) / "approvals" / (directoryKey(directory_) + ".json")) {
  load();
}

void ApprovalStore::load() {
  // open(2) rather than a file stream: every start looks for this file, and a stream would build
  // the C++ locale for it (every facet: a tenth of a millisecond) even when there is no file.
  const int fd = ::open(file_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return; // nothing saved yet
  const std::optional<std::string> text = readToEnd(fd);
  const int readError = errno;
  ::close(fd);
  std::string problem;
  try {
    if (!text) throw std::runtime_error("cannot read it: " + std::generic_category().message(readError));
    // The file is toold's, but anyone with access to the data dir may have edited it.
    auto parsed = protocol::parseBounded(*text);
    if (!parsed) throw std::runtime_error(parsed.refusal->message);
    const json& document = parsed.value;
    if (document.value("directory", "") != directory_.string()) {
      spdlog::warn("approvals file {} belongs to another directory; ignored", file_.string());
      return;
    }
    Ruleset loaded;
    for (const auto& rule : document.at("rules"))
      loaded.push_back({rule.at("action").get<std::string>(), rule.at("resource").get<std::string>(),
                        PermissionEffect::Allow, std::string(kSavedSource), rule.value("literal", false)});
    rules_ = std::move(loaded);
    spdlog::info("{} saved approval(s) loaded from {}", rules_.size(), file_.string());
    return;
  } catch (const std::exception& e) {
    problem = e.what();
  }
  auto aside = file_;
  aside += ".unreadable";
  std::error_code ec;
  fs::rename(file_, aside, ec);
  spdlog::error("approvals file {} is invalid ({}); moved to {}, starting without saved approvals", file_.string(),
                problem, aside.string());
}

std::string ApprovalStore::add(const Ruleset& rules) {
  bool changed = false;
  for (const auto& rule : rules) {
    PermissionRule saved{rule.action, rule.resource, PermissionEffect::Allow, std::string(kSavedSource), rule.literal};
    if (std::find(rules_.begin(), rules_.end(), saved) != rules_.end()) continue;
    rules_.push_back(std::move(saved));
    changed = true;
  }
  if (!changed) return {};
  return save();
}

ApprovalStore::Removal ApprovalStore::remove(const std::string& action, const std::string& resource) {
  const auto removed = std::erase_if(rules_, [&](const PermissionRule& rule) {
    return rule.action == action && rule.resource == resource;
  });
  if (removed == 0) return {};
  return Removal{true, save()};
}

std::string ApprovalStore::save() const {
  json document{{"directory", directory_.string()}, {"rules", json::array()}};
  for (const auto& rule : rules_) {
    json entry{{"action", rule.action}, {"resource", rule.resource}};
    if (rule.literal) entry["literal"] = true;
    document["rules"].push_back(std::move(entry));
  }
  std::error_code ec;
  fs::create_directories(file_.parent_path(), ec);
  if (ec) return "cannot create " + file_.parent_path().string() + ": " + ec.message();
  return writeFileAtomically(file_, document.dump(2) + "\n", 0600);
}

} // namespace toold::core
