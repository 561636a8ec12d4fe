// A path is kept at its first touch only: a file the session created (a write, an edit's new
// file) did not exist when first named, so the replay makes it again rather than finding it.
// Words of longer strings count too, so `bash command="cat notes.txt"` and an apply_patch's
// "*** Update File: a.txt" keep the files they name.
#include "daemon/repl/repl_touched_files.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string_view>
#include <system_error>

namespace toold::repl {
namespace {

namespace fs = std::filesystem;

// A recording is a test to read and keep: a whole source tree does not belong in it.
constexpr std::size_t kMaxFiles = 200;
constexpr std::uintmax_t kMaxFileBytes = 256 * 1024;
constexpr std::size_t kMaxTotalBytes = 2 * 1024 * 1024;
constexpr std::size_t kMaxPathLength = 4096;
constexpr std::size_t kMaxScannedString = 64 * 1024;
// Where the words of a command or a patch end.
constexpr std::string_view kWordBreaks = " \t\r\n;|&<>()'\"`=,:";

bool searchesWorkspaceByDefault(const std::string& tool) { return tool == "list" || tool == "glob" || tool == "grep"; }

} // namespace

TouchedFiles::TouchedFiles(fs::path workspace) : workspace_(std::move(workspace)) {}

std::string TouchedFiles::relativeOf(const fs::path& path) const {
  const fs::path relative = path.lexically_normal().lexically_relative(workspace_.lexically_normal());
  if (relative.empty()) return "..";
  const std::string text = relative.generic_string();
  if (text == ".") return "";
  if (text == ".." || text.starts_with("../")) return "..";
  return text;
}

bool TouchedFiles::touch(const std::string& path) {
  if (path.empty() || path.size() > kMaxPathLength || path.find_first_of(std::string_view("\n\0", 2)) != std::string::npos)
    return false;
  const fs::path given(path);
  const std::string relative = relativeOf(given.is_absolute() ? given : workspace_ / given);
  if (relative == "..") return false;
  // Below a folder kept whole, everything that existed then was kept; anything else was made later.
  for (std::string prefix = relative;;) {
    if (seen_.contains(prefix)) return true;
    if (prefix.empty()) break;
    const auto slash = prefix.rfind('/');
    prefix = slash == std::string::npos ? std::string() : prefix.substr(0, slash);
  }
  std::error_code ec;
  const fs::path absolute = workspace_ / relative;
  const auto status = fs::symlink_status(absolute, ec);
  if (ec) {
    seen_.insert(relative); // made by the session, if it appears later
    return true;
  }
  seen_.insert(relative);
  if (fs::is_regular_file(status)) keepFile(absolute, relative);
  else if (fs::is_directory(status)) keepTree(absolute);
  return true;
}

void TouchedFiles::keepTree(const fs::path& folder) {
  std::error_code ec;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& path = it->path();
    if (path.filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    const std::string relative = relativeOf(path);
    if (relative == ".." || seen_.contains(relative)) continue;
    seen_.insert(relative);
    std::error_code statusError;
    if (it->is_regular_file(statusError) && !it->is_symlink(statusError)) keepFile(path, relative);
  }
}

void TouchedFiles::keepFile(const fs::path& file, const std::string& relative) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  // A %file line holds the path up to the first blank, and its content as whole lines.
  if (ec || size > kMaxFileBytes || keptBytes_ + size > kMaxTotalBytes || files_.size() >= kMaxFiles ||
      relative.find_first_of(" \t") != std::string::npos) {
    ++leftOut_;
    return;
  }
  std::ifstream in(file, std::ios::binary);
  std::string content{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.good() && !in.eof()) {
    ++leftOut_;
    return;
  }
  keptBytes_ += content.size();
  files_.push_back({relative, std::move(content)});
}

void TouchedFiles::touchInput(const std::string& tool, const json& input) {
  if (searchesWorkspaceByDefault(tool) && input.is_object() &&
      (!input.contains("path") || (input["path"].is_string() && input["path"].get<std::string>().empty())))
    touch(workspace_.string());
  const auto scan = [this](const auto& self, const json& value) -> void {
    if (value.is_object() || value.is_array()) {
      for (const auto& child : value) self(self, child);
      return;
    }
    if (!value.is_string()) return;
    const std::string& text = value.get_ref<const std::string&>();
    if (text.size() > kMaxScannedString) return;
    if (text.find_first_of(kWordBreaks) == std::string::npos) {
      touch(text);
      return;
    }
    // Words that name nothing are not paths: only existing ones count.
    std::size_t begin = 0;
    while ((begin = text.find_first_not_of(kWordBreaks, begin)) != std::string::npos) {
      const auto end = std::min(text.find_first_of(kWordBreaks, begin), text.size());
      const std::string word = text.substr(begin, end - begin);
      begin = end;
      std::error_code ec;
      const fs::path path(word);
      if (word.size() <= kMaxPathLength && fs::exists(path.is_absolute() ? path : workspace_ / path, ec)) touch(word);
    }
  };
  scan(scan, input);
}

} // namespace toold::repl
