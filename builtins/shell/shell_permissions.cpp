#include "builtins/shell/shell_permissions.h"

#include "builtins/shell/command_arity.h"
#include "builtins/shell/command_wrappers.h"
#include "builtins/shell/shell_scanner.h"
#include "core/workspace_paths.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;
using core::json;
using core::PermissionAsk;

constexpr std::array<std::string_view, 9> kPathCommands{"cd", "rm", "cp", "mv", "mkdir", "touch", "chmod", "chown", "cat"};

bool isPathCommand(std::string_view name) {
  return std::find(kPathCommands.begin(), kPathCommands.end(), name) != kPathCommands.end();
}

/// Devices every script names (`> /dev/null 2>&1`): outside the workspace, but never a reason to ask.
bool isHarmlessDevice(std::string_view path) {
  static constexpr std::array<std::string_view, 9> kDevices{"/dev/null",  "/dev/zero",   "/dev/random",
                                                            "/dev/urandom", "/dev/stdin", "/dev/stdout",
                                                            "/dev/stderr", "/dev/tty",    "/dev/full"};
  return std::find(kDevices.begin(), kDevices.end(), path) != kDevices.end() || path.starts_with("/dev/fd/");
}

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

void addUnique(std::vector<std::string>& list, std::string value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
}

/// The outside folders the line touches, gathered into one `external_directory` ask.
class OutsideFolders {
public:
  OutsideFolders(const core::Location& location, std::string line) : location_(location), line_(std::move(line)) {}

  /// `text` as the command sees it, taken from `cwd`; a path that cannot be resolved (a loop, a
  /// NUL) is left to the command, which will fail on it too.
  void check(std::string_view text, const fs::path& cwd, std::optional<core::PathKind> kind = std::nullopt) {
    if (text.empty() || isHarmlessDevice(text)) return;
    std::string absolute(text);
    if (!text.starts_with("~") && !text.starts_with("/")) absolute = (cwd / std::string(text)).string();
    core::ResolvedPath resolved;
    try {
      resolved = core::resolveToolPath(absolute, location_);
    } catch (const core::PathError&) {
      return;
    }
    const core::PathKind as = kind.value_or(resolved.isDirectory ? core::PathKind::Directory : core::PathKind::File);
    auto ask = core::externalDirectoryAsk(resolved, as);
    if (!ask) return;
    for (auto& resource : ask->resources) addUnique(resources_, std::move(resource));
    paths_.push_back(std::move(ask->metadata));
  }

  std::optional<PermissionAsk> ask() const {
    if (resources_.empty()) return std::nullopt;
    return PermissionAsk{"external_directory", resources_, resources_, json{{"command", line_}, {"paths", paths_}}};
  }

private:
  const core::Location& location_;
  std::string line_;
  std::vector<std::string> resources_;
  json paths_ = json::array();
};

/// A path argument as far as it is known before the command runs: nullopt for one holding an
/// expansion; a glob is cut at its first wildcard (`src/*.o` is checked as `src/`).
std::optional<std::string> knownPath(const ShellWord& word) {
  if (!word.dynamic) return word.text;
  if (word.text.find_first_of("$`") != std::string::npos) return std::nullopt;
  const auto wildcard = word.text.find_first_of("*?[");
  const std::string prefix = word.text.substr(0, wildcard);
  if (prefix.empty()) return std::string(".");
  return prefix;
}

/// The words as the command will run them, with its redirections: what rules are matched on
/// besides the text as written.
std::string plainText(const std::vector<ShellWord>& words, std::size_t from,
                      const std::vector<ShellRedirection>& redirections) {
  std::string text;
  for (std::size_t i = from; i < words.size(); ++i) {
    if (!text.empty()) text += ' ';
    text += words[i].text;
  }
  for (const auto& redirection : redirections) {
    if (!text.empty()) text += ' ';
    text += redirection.op;
    if (!redirection.target.empty()) text += ' ' + redirection.target;
  }
  return text;
}

std::vector<std::string> texts(const std::vector<ShellWord>& words, std::size_t from, std::size_t to) {
  std::vector<std::string> out;
  for (std::size_t i = from; i < to && i < words.size(); ++i) out.push_back(words[i].text);
  return out;
}

} // namespace

std::vector<PermissionAsk> shellPermissionAsks(std::string_view command, const fs::path& workdir,
                                               const core::Location& location) {
  const std::string line = trimmed(command);
  OutsideFolders outside(location, line);
  outside.check(workdir.string(), workdir, core::PathKind::Directory);

  PermissionAsk bash{"bash", {}, {}, json{{"command", line}}};
  PermissionAsk literal{"bash", {}, {}, json{{"command", line}}, /*literalOnly=*/true};
  const ShellScan scan = scanShellCommand(command);
  if (!scan.parsed) {
    literal.resources = {line};
    literal.save = {line};
    literal.metadata["unparsed"] = scan.problem;
  }

  std::vector<fs::path> cwds{workdir}; // where relative paths may start (see the header)
  bool wholeLine = !scan.parsed;
  for (const SimpleCommand& simple : scan.commands) {
    const auto& words = simple.words;
    const std::size_t runs = wrappedCommandIndex(words).value_or(0);

    for (const auto& redirection : simple.redirections)
      if (!redirection.target.empty() && !redirection.dynamic)
        for (const auto& cwd : cwds) outside.check(redirection.target, cwd, core::PathKind::File);

    if (words.empty()) { // only redirections: `> file` creates or empties it
      addUnique(bash.resources, simple.text);
      addUnique(bash.save, simple.text);
      continue;
    }
    if (words[0].dynamic || words[runs].dynamic) {
      wholeLine = true; // what runs is known only when it runs
      continue;
    }

    const std::string& name = words[runs].text;
    if (isPathCommand(name)) {
      const bool chmod = name == "chmod";
      std::vector<fs::path> cdTargets;
      for (std::size_t i = runs + 1; i < words.size(); ++i) {
        const auto& text = words[i].text;
        if (text.starts_with("-") || (chmod && text.starts_with("+"))) continue;
        auto path = knownPath(words[i]);
        if (!path) continue;
        const auto kind = name == "cd" ? std::optional(core::PathKind::Directory) : std::nullopt;
        for (const auto& cwd : cwds) outside.check(*path, cwd, kind);
        if (name == "cd" && !words[i].dynamic)
          cdTargets.push_back(path->starts_with("/") || path->starts_with("~") ? fs::path(*path) : cwds.back() / *path);
      }
      if (name == "cd") {
        if (runs + 1 == words.size()) outside.check("~", workdir, core::PathKind::Directory); // `cd` is `cd ~`
        for (const auto& target : cdTargets) {
          try {
            auto resolved = core::resolveToolPath(target.string(), location).canonical;
            if (std::find(cwds.begin(), cwds.end(), resolved) == cwds.end()) cwds.push_back(resolved);
          } catch (const core::PathError&) {
          }
        }
        if (runs == 0) continue; // changing folder runs nothing: no `bash` ask
      }
    }

    // The saved pattern names what runs: the wrapper as written, then the command's arity prefix.
    auto prefix = texts(words, 0, runs);
    for (auto& word : commandPrefix(texts(words, runs, words.size()))) prefix.push_back(std::move(word));
    const bool prefixDynamic =
        std::any_of(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(std::min(prefix.size(), words.size())),
                    [](const ShellWord& word) { return word.dynamic; });
    PermissionAsk& target = prefixDynamic ? literal : bash;
    addUnique(target.resources, simple.text);
    if (prefixDynamic) {
      addUnique(target.save, simple.text);
    } else {
      std::string pattern;
      for (const auto& word : prefix) pattern += word + ' ';
      addUnique(target.save, pattern + '*');
    }
    // The command as it runs, for rules on what runs (`rm *` also holds for `sudo 'rm' -rf /`).
    for (auto plain : {plainText(words, 0, simple.redirections), plainText(words, runs, simple.redirections)})
      if (plain != simple.text) addUnique(target.resources, std::move(plain));
  }
  if (wholeLine && scan.parsed) {
    addUnique(literal.resources, line);
    addUnique(literal.save, line);
  }

  std::vector<PermissionAsk> asks;
  if (auto ask = outside.ask()) asks.push_back(std::move(*ask));
  if (!bash.resources.empty()) asks.push_back(std::move(bash));
  if (!literal.resources.empty()) asks.push_back(std::move(literal));
  return asks;
}

} // namespace toold::builtins
