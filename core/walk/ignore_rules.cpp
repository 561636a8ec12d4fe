// Parsing follows git's dir.c (add_patterns_from_buffer, trim_trailing_spaces,
// parse_path_pattern) and matching its last_matching_pattern_from_list: a rule without a slash
// is matched against the last path component, any other against the path relative to the file's
// folder. Git has no braces in ignore patterns, so '{' and '}' are escaped before compiling.
#include "core/walk/ignore_rules.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {
namespace fs = std::filesystem;

namespace {

/// `path` absolute, without "." and ".." and without a trailing '/' (except "/" itself).
fs::path cleanFolder(const fs::path& path) {
  std::error_code error;
  fs::path absolute = path.is_absolute() ? path : fs::absolute(path, error);
  if (error) absolute = path;
  absolute = absolute.lexically_normal();
  if (!absolute.has_filename() && absolute.has_relative_path()) absolute = absolute.parent_path();
  return absolute;
}

std::optional<std::string> readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

/// The text of `name` in the open folder `folder`; nothing when it is missing or not a regular
/// file (a FIFO named .gitignore must not hang a search).
std::optional<std::string> readTextAt(int folder, const char* name) {
  const int fd = ::openat(folder, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> text;
  struct stat status {};
  if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode)) {
    text.emplace();
    char chunk[16384];
    for (;;) {
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        text.reset();
        break;
      }
      if (n == 0) break;
      text->append(chunk, static_cast<std::size_t>(n));
    }
  }
  ::close(fd);
  return text;
}

/// Drops unescaped trailing spaces, as git's trim_trailing_spaces does (tabs are kept).
void trimTrailingSpaces(std::string& line) {
  std::size_t lastSpace = std::string::npos;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ' ') {
      if (lastSpace == std::string::npos) lastSpace = i;
      continue;
    }
    if (line[i] == '\\' && ++i >= line.size()) return;
    lastSpace = std::string::npos;
  }
  if (lastSpace != std::string::npos) line.erase(lastSpace);
}

/// Escapes the braces of a gitignore pattern, which git reads literally (inside a class an
/// escaped brace is still the brace, so classes need no care).
std::string escapeBraces(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size());
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      out += c;
      out += pattern[++i];
    } else {
      if (c == '{' || c == '}') out += '\\';
      out += c;
    }
  }
  return out;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last + 1 - first);
}

/// A git config value: quotes removed, escapes resolved, a comment (# or ;) cut off, outer
/// spaces dropped.
std::string configValue(std::string_view raw) {
  std::string value;
  bool quoted = false;
  std::size_t keep = 0; // value's length up to its last character that was not trailing space
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const char c = raw[i];
    if (c == '"') {
      quoted = !quoted;
      keep = value.size();
    } else if (c == '\\' && i + 1 < raw.size()) {
      const char next = raw[++i];
      value += next == 'n' ? '\n' : next == 't' ? '\t' : next == 'b' ? '\b' : next;
      keep = value.size();
    } else if (!quoted && (c == '#' || c == ';')) {
      break;
    } else if (!quoted && (c == ' ' || c == '\t' || c == '\r')) {
      if (!value.empty()) value += c;
    } else {
      value += c;
      keep = value.size();
    }
  }
  value.resize(keep);
  return value;
}

/// `core.excludesFile` from one git config file, when that file sets it.
std::optional<std::string> excludesFileSetting(const fs::path& config) {
  const auto text = readText(config);
  if (!text) return std::nullopt;
  std::optional<std::string> found;
  bool inCore = false;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    std::string_view rest = trimmed(line);
    if (!rest.empty() && rest.front() == '[') {
      const auto close = rest.find(']');
      if (close == std::string_view::npos) continue;
      inCore = equalsIgnoringCase(trimmed(rest.substr(1, close - 1)), "core");
      rest = trimmed(rest.substr(close + 1));
    }
    if (!inCore || rest.empty() || rest.front() == '#' || rest.front() == ';') continue;
    const auto equals = rest.find('=');
    if (equals == std::string_view::npos) continue; // a bare key is a boolean
    if (!equalsIgnoringCase(trimmed(rest.substr(0, equals)), "excludesfile")) continue;
    found = configValue(rest.substr(equals + 1));
  }
  return found;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

fs::path expandHome(const std::string& value) {
  const std::string home = environment("HOME");
  if (home.empty()) return value;
  if (value == "~") return home;
  if (value.starts_with("~/")) return fs::path(home) / value.substr(2);
  return value;
}

fs::path xdgConfigHome() {
  const std::string xdg = environment("XDG_CONFIG_HOME");
  if (!xdg.empty()) return xdg;
  const std::string home = environment("HOME");
  return home.empty() ? fs::path() : fs::path(home) / ".config";
}

/// The git directory named by the `.git` entry in `folder` (a folder, or a file saying
/// "gitdir: <path>"), and for a linked worktree its common directory; nullopt if there is none.
struct GitDirs {
  fs::path gitDir;
  fs::path commonDir;
};

std::optional<GitDirs> gitDirsOf(const fs::path& folder) {
  std::error_code error;
  const fs::path dotGit = folder / ".git";
  const auto status = fs::status(dotGit, error);
  GitDirs dirs;
  if (fs::is_directory(status)) {
    dirs.gitDir = dotGit;
  } else if (fs::is_regular_file(status)) {
    const auto text = readText(dotGit);
    const std::string_view firstLine = text ? std::string_view(*text).substr(0, text->find('\n')) : std::string_view();
    if (!firstLine.starts_with("gitdir:")) return std::nullopt;
    const fs::path target(std::string(trimmed(firstLine.substr(7))));
    if (target.empty()) return std::nullopt;
    dirs.gitDir = target.is_absolute() ? target : (folder / target).lexically_normal();
  } else {
    return std::nullopt;
  }
  dirs.commonDir = dirs.gitDir;
  if (const auto common = readText(dirs.gitDir / "commondir")) {
    const fs::path target(std::string(trimmed(std::string_view(*common).substr(0, common->find('\n')))));
    if (!target.empty()) dirs.commonDir = target.is_absolute() ? target : (dirs.gitDir / target).lexically_normal();
  }
  return dirs;
}

/// The repository holding `folder` (absolute, clean): the nearest folder at or above it with a `.git`.
std::optional<std::pair<fs::path, GitDirs>> findRepository(const fs::path& folder) {
  for (fs::path current = folder;; current = current.parent_path()) {
    if (auto dirs = gitDirsOf(current)) return std::make_pair(current, std::move(*dirs));
    if (current == current.parent_path() || current.empty()) return std::nullopt;
  }
}

} // namespace

// ---- IgnoreFile ------------------------------------------------------------------------------

IgnoreFile IgnoreFile::parse(std::string_view content, fs::path base, std::string source,
                             std::vector<std::string>* problems) {
  IgnoreFile file;
  file.base_ = cleanFolder(base);
  file.basePrefix_ = file.base_.string();
  if (!file.basePrefix_.ends_with('/')) file.basePrefix_ += '/';
  if (content.starts_with("\xEF\xBB\xBF")) content.remove_prefix(3);
  std::size_t lineNumber = 0;
  while (!content.empty()) {
    ++lineNumber;
    const std::size_t newline = content.find('\n');
    std::string line(content.substr(0, newline));
    content.remove_prefix(newline == std::string_view::npos ? content.size() : newline + 1);
    if (newline != std::string_view::npos && line.ends_with('\r')) line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    trimTrailingSpaces(line);
    std::string_view pattern = line;
    const bool negated = pattern.starts_with('!');
    if (negated) pattern.remove_prefix(1);
    const bool directoryOnly = pattern.ends_with('/');
    if (directoryOnly) pattern.remove_suffix(1);
    const bool anchored = pattern.find('/') != std::string_view::npos;
    if (pattern.starts_with('/')) pattern.remove_prefix(1);
    if (pattern.empty()) continue;
    auto compiled = GlobPattern::compile(escapeBraces(pattern));
    if (auto* error = std::get_if<std::string>(&compiled)) {
      if (problems) problems->push_back(source + ":" + std::to_string(lineNumber) + ": " + *error);
      continue;
    }
    file.rules_.push_back(Rule{std::get<GlobPattern>(std::move(compiled)), negated, directoryOnly, anchored});
  }
  return file;
}

IgnoreFile IgnoreFile::read(const fs::path& path, fs::path base, std::vector<std::string>* problems) {
  const auto text = readText(path);
  return parse(text ? std::string_view(*text) : std::string_view(), std::move(base), path.string(), problems);
}

bool IgnoreFile::relative(const std::string& path, std::string_view& out) const {
  if (path.size() + 1 == basePrefix_.size() && basePrefix_.starts_with(path)) {
    out = {};
    return true;
  }
  if (path.size() <= basePrefix_.size() || !path.starts_with(basePrefix_)) return false;
  out = std::string_view(path).substr(basePrefix_.size());
  return true;
}

IgnoreMatch IgnoreFile::match(const fs::path& path, bool isDirectory) const {
  if (rules_.empty()) return IgnoreMatch::None;
  std::string_view relativePath;
  if (path.is_absolute()) {
    if (!relative(path.native(), relativePath)) return IgnoreMatch::None;
    return matchRelative(relativePath, isDirectory);
  }
  const std::string absolute = cleanFolder(path).string();
  if (!relative(absolute, relativePath)) return IgnoreMatch::None;
  return matchRelative(relativePath, isDirectory);
}

IgnoreMatch IgnoreFile::matchAbsolute(const std::string& path, bool isDirectory) const {
  if (rules_.empty()) return IgnoreMatch::None;
  std::string_view relativePath;
  if (!relative(path, relativePath)) return IgnoreMatch::None;
  return matchRelative(relativePath, isDirectory);
}

IgnoreMatch IgnoreFile::matchRelative(std::string_view relativePath, bool isDirectory) const {
  if (relativePath.empty()) return IgnoreMatch::None;
  const auto slash = relativePath.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? relativePath : relativePath.substr(slash + 1);
  for (auto rule = rules_.rbegin(); rule != rules_.rend(); ++rule) {
    if (rule->directoryOnly && !isDirectory) continue;
    if (rule->glob.matches(rule->anchored ? relativePath : name))
      return rule->negated ? IgnoreMatch::Whitelist : IgnoreMatch::Ignore;
  }
  return IgnoreMatch::None;
}

// ---- IgnoreStack -----------------------------------------------------------------------------

std::shared_ptr<const IgnoreStack> IgnoreStack::forRoot(const fs::path& root, const IgnoreOptions& options) {
  const fs::path start = cleanFolder(root);
  const auto repository = findRepository(start);
  fs::path top = start;
  if (repository) {
    top = repository->first;
  } else if (!options.ceiling.empty()) {
    const fs::path ceiling = cleanFolder(options.ceiling);
    const auto relative = start.lexically_relative(ceiling);
    if (!relative.empty() && *relative.begin() != "..") top = ceiling;
  }

  auto globals = std::make_shared<std::vector<IgnoreFile>>();
  if (options.gitIgnore) {
    if (repository) {
      IgnoreFile exclude = IgnoreFile::read(repository->second.commonDir / "info" / "exclude", top);
      if (!exclude.empty()) globals->push_back(std::move(exclude));
    }
    const fs::path user = userExcludesFile(repository ? repository->first : fs::path());
    if (!user.empty()) {
      IgnoreFile excludes = IgnoreFile::read(user, top);
      if (!excludes.empty()) globals->push_back(std::move(excludes));
    }
  }

  std::shared_ptr<IgnoreStack> node(new IgnoreStack());
  node->directory_ = top;
  node->options_ = options;
  node->globals_ = std::move(globals);
  if (options.dotIgnore) node->dotIgnore_ = IgnoreFile::read(top / ".ignore", top);
  if (options.gitIgnore) node->gitIgnore_ = IgnoreFile::read(top / ".gitignore", top);
  node->self_ = node;
  std::shared_ptr<const IgnoreStack> stack = node;
  // Down from the repository's root to `root`, so a search in a subfolder keeps its parents' rules.
  fs::path folder = top;
  for (const auto& part : start.lexically_relative(top)) {
    if (part.empty() || part == ".") continue;
    folder /= part;
    stack = stack->enter(folder);
  }
  return stack;
}

std::shared_ptr<const IgnoreStack> IgnoreStack::enter(const fs::path& directory) const {
  const fs::path folder = cleanFolder(directory);
  return withFiles(folder, options_.dotIgnore ? IgnoreFile::read(folder / ".ignore", folder) : IgnoreFile(),
                   options_.gitIgnore ? IgnoreFile::read(folder / ".gitignore", folder) : IgnoreFile());
}

std::shared_ptr<const IgnoreStack> IgnoreStack::enterAt(const std::string& directory, int folder) const {
  auto readAt = [&](const char* name) {
    const auto text = readTextAt(folder, name);
    return text ? IgnoreFile::parse(*text, directory, directory + "/" + name) : IgnoreFile();
  };
  return withFiles(directory, options_.dotIgnore ? readAt(".ignore") : IgnoreFile(),
                   options_.gitIgnore ? readAt(".gitignore") : IgnoreFile());
}

std::shared_ptr<const IgnoreStack> IgnoreStack::withFiles(const fs::path& folder, IgnoreFile dotIgnore,
                                                          IgnoreFile gitIgnore) const {
  if (dotIgnore.empty() && gitIgnore.empty()) {
    if (auto self = self_.lock()) return self;
  }
  std::shared_ptr<IgnoreStack> node(new IgnoreStack());
  node->parent_ = self_.lock();
  node->directory_ = folder;
  node->dotIgnore_ = std::move(dotIgnore);
  node->gitIgnore_ = std::move(gitIgnore);
  node->globals_ = globals_;
  node->options_ = options_;
  node->self_ = node;
  return node;
}

IgnoreMatch IgnoreStack::matchAbsolute(const std::string& path, bool isDirectory) const {
  for (const IgnoreStack* node = this; node != nullptr; node = node->parent_.get()) {
    if (const auto verdict = node->dotIgnore_.matchAbsolute(path, isDirectory); verdict != IgnoreMatch::None) return verdict;
    if (const auto verdict = node->gitIgnore_.matchAbsolute(path, isDirectory); verdict != IgnoreMatch::None) return verdict;
  }
  if (globals_)
    for (const auto& file : *globals_)
      if (const auto verdict = file.matchAbsolute(path, isDirectory); verdict != IgnoreMatch::None) return verdict;
  return IgnoreMatch::None;
}

IgnoreMatch IgnoreStack::match(const fs::path& path, bool isDirectory) const {
  return matchAbsolute(path.is_absolute() ? path.native() : cleanFolder(path).native(), isDirectory);
}

// ---- the user's excludes file ----------------------------------------------------------------

fs::path userExcludesFile(const fs::path& repository) {
  std::optional<std::string> setting;
  std::vector<fs::path> configs;
  if (const fs::path xdg = xdgConfigHome(); !xdg.empty()) configs.push_back(xdg / "git" / "config");
  if (const std::string home = environment("HOME"); !home.empty()) configs.push_back(fs::path(home) / ".gitconfig");
  if (!repository.empty())
    if (const auto dirs = gitDirsOf(repository)) configs.push_back(dirs->commonDir / "config");
  for (const auto& config : configs)
    if (auto value = excludesFileSetting(config)) setting = std::move(value);

  fs::path file;
  if (setting) {
    if (setting->empty()) return {};
    file = expandHome(*setting);
    // git runs at the top of the worktree, so a relative path is relative to the repository.
    if (file.is_relative() && !repository.empty()) file = repository / file;
  } else {
    const fs::path xdg = xdgConfigHome();
    if (xdg.empty()) return {};
    file = xdg / "git" / "ignore";
  }
  std::error_code error;
  return fs::is_regular_file(file, error) ? file : fs::path();
}

} // namespace toold::core
