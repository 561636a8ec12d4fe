#include "builtins/shell/shell_permissions.h"

#include "builtins/shell/command_arity.h"
#include "builtins/shell/command_wrappers.h"
#include "builtins/shell/shell_scanner.h"
#include "core/workspace/workspace_paths.h"

#include <pwd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>

namespace toold::builtins {

namespace {

namespace fs = std::filesystem;
using core::json;
using core::PermissionAsk;

/// Commands that change the working directory for what follows (and run nothing else).
bool changesDirectory(std::string_view name) { return name == "cd" || name == "pushd" || name == "popd"; }

/// Commands whose arguments are paths they create, change or read. An absolute path among them
/// is checked even when nothing of it exists yet (`mkdir -p /new/x`).
bool takesPaths(std::string_view name) {
  static constexpr std::array<std::string_view, 14> kPathCommands{
      "rm", "cp", "mv", "mkdir", "touch", "chmod", "chown", "cat", "ln", "install", "tee", "rsync", "dd", "rmdir"};
  return std::find(kPathCommands.begin(), kPathCommands.end(), name) != kPathCommands.end();
}

/// For any other command, an absolute word under a top-level folder that does not exist is taken
/// for what it usually is — a pattern or a program (`sed '/^$/d'`, `awk '/re/ {…}'`, `grep
/// '/api/v1'`) — not a path: nothing exists there to read, and only root could create it.
bool namesNothingOutside(std::string_view path) {
  if (!path.starts_with("/")) return false;
  const auto slash = path.find('/', 1);
  const std::string top(path.substr(0, slash));
  std::error_code error;
  return top.size() > 1 && !fs::exists(fs::symlink_status(top, error));
}

/// Commands that only print their words or set variables: a path among them is text, not a file
/// opened (`echo /etc/x`, `export PATH=/opt/bin:/usr/bin`).
bool opensNoPaths(std::string_view name) {
  static constexpr std::array<std::string_view, 7> kNames{"echo",  "printf",   "export", "declare",
                                                          "local", "readonly", "typeset"};
  return std::find(kNames.begin(), kNames.end(), name) != kNames.end();
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

/// `~+` (the working directory), `~-` (the previous one: one of the working directories assumed,
/// since toold's OLDPWD is not passed on) and `~user` (that user's home) as the shell expands them;
/// `~` and `~/…` are left to the path resolver; anything else is returned as it is.
std::string expandTilde(std::string_view text, const fs::path& cwd) {
  if (!text.starts_with("~")) return std::string(text);
  const auto slash = text.find('/');
  const std::string_view head = text.substr(1, slash == std::string_view::npos ? std::string_view::npos : slash - 1);
  const std::string_view rest = slash == std::string_view::npos ? std::string_view() : text.substr(slash);
  if (head.empty()) return std::string(text);
  if (head == "+" || head == "-") return cwd.string() + std::string(rest);
  const std::string user(head);
  passwd entry{};
  passwd* found = nullptr;
  std::vector<char> buffer(16384);
  if (::getpwnam_r(user.c_str(), &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr &&
      found->pw_dir != nullptr && found->pw_dir[0] == '/')
    return std::string(found->pw_dir) + std::string(rest);
  return (cwd / std::string(text)).string(); // no such user: the shell keeps the word as written
}

/// The outside folders the line touches, gathered into one `external_directory` ask.
class OutsideFolders {
public:
  OutsideFolders(const core::Location& location, std::string line) : location_(location), line_(std::move(line)) {}

  /// `text` as the command sees it, taken from `cwd`; a path that cannot be resolved (a loop, a
  /// NUL) is left to the command, which will fail on it too.
  void check(std::string_view text, const fs::path& cwd, std::optional<core::PathKind> kind = std::nullopt) {
    if (text.empty() || isHarmlessDevice(text)) return;
    std::string absolute = expandTilde(text, cwd);
    if (!absolute.starts_with("~") && !absolute.starts_with("/")) absolute = (cwd / absolute).string();
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

/// True for text a command could take as a path that may lead outside: absolute, from a home
/// directory, or relative with a `/` or `..` in it (a plain name stays in the working directory).
bool looksLikePath(std::string_view text) {
  return text.starts_with("/") || text.starts_with("~") || text.find('/') != std::string_view::npos ||
         text.find("..") != std::string_view::npos;
}

bool isVariableName(std::string_view text) {
  if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_')) return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// The path an argument may name: the word itself, the value of `--option=VALUE`, `NAME=VALUE`
/// (`dd if=/x`) or `-oVALUE` (an absolute VALUE only: `-la` is not a path), or the path of a
/// `file://` URL; nullopt when nothing in it looks like a path. Before `--`, a word starting with
/// `-` is an option, after it an operand.
std::optional<std::string> pathInArgument(std::string_view text, bool optionsEnded) {
  if (!optionsEnded && text.starts_with("-")) {
    if (text.starts_with("--")) {
      const auto equals = text.find('=');
      if (equals == std::string_view::npos) return std::nullopt;
      text.remove_prefix(equals + 1);
      return looksLikePath(text) ? std::optional(std::string(text)) : std::nullopt;
    }
    if (text.size() > 2 && (text[2] == '/' || text[2] == '~')) return std::string(text.substr(2));
    return std::nullopt;
  }
  if (const auto equals = text.find('='); equals != std::string_view::npos && isVariableName(text.substr(0, equals))) {
    const auto value = text.substr(equals + 1);
    if (looksLikePath(value)) return std::string(value);
  }
  if (text.starts_with("file://")) return std::string(text.substr(7));
  // Other URLs (`https://host/a/b`) are relative words that stay inside; no need to tell them apart.
  return looksLikePath(text) ? std::optional(std::string(text)) : std::nullopt;
}

/// True for a cd target bash would look up in CDPATH (or, with cdable_vars, as a variable name).
bool searchedByCd(std::string_view target) {
  if (target.starts_with("/") || target.starts_with("~")) return false;
  return !(target == "." || target == ".." || target.starts_with("./") || target.starts_with("../"));
}

/// True when the line itself may make cd search: it names CDPATH (an assignment, export, declare,
/// read, printf -v, …) or cdable_vars anywhere. toold's own CDPATH is not passed to commands.
bool setsCdSearch(const ShellScan& scan) {
  const auto mentions = [](std::string_view text) {
    return text.find("CDPATH") != std::string_view::npos || text.find("cdable_vars") != std::string_view::npos;
  };
  for (const auto& command : scan.commands) {
    if (std::any_of(command.assignments.begin(), command.assignments.end(), mentions)) return true;
    if (std::any_of(command.words.begin(), command.words.end(), [&](const ShellWord& w) { return mentions(w.text); }))
      return true;
  }
  return false;
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
  const bool cdSearch = setsCdSearch(scan);
  for (const SimpleCommand& simple : scan.commands) {
    const auto& words = simple.words;
    const UnwrappedCommand unwrapped = unwrapCommand(words);
    const std::size_t runs = unwrapped.index;

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
    const bool directory = changesDirectory(name);
    // Every word that looks like a path is checked, the wrappers' included (`sudo -D /x`, `env -C
    // /x`), except what cd-like commands take (below) and what echo, export and kin only print or set.
    // A wrapper that starts the command elsewhere (`env -C /x cat ../y`): its paths start there too.
    std::vector<fs::path> commandCwds = cwds;
    for (const auto& startIn : unwrapped.directories) {
      std::vector<fs::path> moved;
      for (const auto& cwd : commandCwds) {
        try {
          const std::string text = expandTilde(startIn, cwd);
          moved.push_back(core::resolveToolPath(text.starts_with("/") ? text : (cwd / text).string(), location).canonical);
        } catch (const core::PathError&) {
        }
      }
      for (auto& cwd : moved)
        if (std::find(commandCwds.begin(), commandCwds.end(), cwd) == commandCwds.end()) commandCwds.push_back(std::move(cwd));
    }
    bool optionsEnded = false;
    for (std::size_t i = 1; i < words.size(); ++i) {
      if (i > runs && (directory || opensNoPaths(name))) break;
      // The programs run (`nohup /usr/bin/env …`) are not files the command opens.
      if (std::find(unwrapped.chain.begin(), unwrapped.chain.end(), i) != unwrapped.chain.end()) continue;
      if (words[i].text == "--" && !words[i].dynamic) {
        optionsEnded = true;
        continue;
      }
      const auto known = knownPath(words[i]);
      if (!known) continue;
      const auto path = pathInArgument(*known, optionsEnded);
      if (!path || (!takesPaths(name) && namesNothingOutside(*path))) continue;
      for (const auto& cwd : i > runs ? commandCwds : cwds) outside.check(*path, cwd);
    }
    if (directory) {
      std::vector<fs::path> cdTargets;
      bool anyTarget = false;
      for (std::size_t i = runs + 1; i < words.size(); ++i) {
        const auto& text = words[i].text;
        if (text.starts_with("-") || text.starts_with("+")) continue; // options, `cd -`, `pushd +1`
        anyTarget = true;
        auto path = knownPath(words[i]);
        if (!path) continue;
        if (cdSearch && searchedByCd(*path)) wholeLine = true; // CDPATH could send it anywhere
        for (const auto& cwd : cwds) outside.check(*path, cwd, core::PathKind::Directory);
        if (!words[i].dynamic)
          cdTargets.push_back(path->starts_with("/") || path->starts_with("~") ? fs::path(*path) : cwds.back() / *path);
      }
      if (!anyTarget && name == "cd") outside.check("~", workdir, core::PathKind::Directory); // `cd` is `cd ~`
      for (const auto& target : cdTargets) {
        try {
          auto resolved = core::resolveToolPath(expandTilde(target.string(), cwds.back()), location).canonical;
          if (std::find(cwds.begin(), cwds.end(), resolved) == cwds.end()) cwds.push_back(resolved);
        } catch (const core::PathError&) {
        }
      }
      if (runs == 0) continue; // changing folder runs nothing: no `bash` ask
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
