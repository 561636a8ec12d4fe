#include "core/sandbox/command_sandbox.h"

#include "core/process/process_runner.h"
#include "core/process/program_lookup.h"
#include "core/sandbox/launch_arguments.h"

#include <algorithm>
#include <optional>
#include <cstdlib>
#include <string_view>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {

namespace fs = std::filesystem;

namespace {

// The system's folders: programs, their libraries and configuration, the kernel's views. Not the
// home folders and not other projects: that is where the secrets are.
constexpr std::string_view kSystemFolders[] = {"/usr", "/bin",  "/sbin", "/lib", "/lib32", "/lib64",
                                               "/libx32", "/etc", "/opt", "/proc", "/sys", "/dev"};
// The devices every program may use; /dev itself may only be listed.
constexpr std::string_view kDevices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random",
                                         "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"};
// Inside a writable folder, what stays read-only: the repository's history and hooks (a hook
// written now runs unsandboxed at the person's next commit), and toold's own configuration.
constexpr std::string_view kProtectedNames[] = {".git", "toold.json", ".toold"};

// Paths as text: a start plans a dozen PATH folders, and fs::path splits each into components at
// every construction and comparison (most of the plan's instructions, measured).
bool contains(std::string_view outer, std::string_view inner) {
  if (outer == "/") return true;
  return inner.size() >= outer.size() && inner.substr(0, outer.size()) == outer &&
         (inner.size() == outer.size() || inner[outer.size()] == '/');
}

std::string_view withoutTrailingSlashes(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  return path;
}

void addUnique(std::vector<std::string>& list, std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (!path.empty() && path.front() == '/' && std::find(list.begin(), list.end(), path) == list.end())
    list.push_back(std::move(path));
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

/// The account's home folder from the password database ($HOME may have been changed).
std::string userHome() {
  if (const passwd* entry = ::getpwuid(::getuid()); entry != nullptr && entry->pw_dir != nullptr) return entry->pw_dir;
  return {};
}

/// The PATH the child gets: the spec's own when it sets one, else toold's.
std::string childPath(const ProcessSpec& spec) {
  for (const auto& entry : spec.extraEnv)
    if (entry.starts_with("PATH=")) return entry.substr(5);
  return environment("PATH");
}

} // namespace

CommandSandbox::CommandSandbox(SandboxSettings settings, SandboxKernel kernel, Location location,
                               fs::path configFile)
    : settings_(std::move(settings)), kernel_(std::move(kernel)) {
  mode_ = settings_.mode.value_or(SandboxMode::WorkspaceWrite);
  if (mode_ == SandboxMode::Off) return;
  if (kernel_.launcher.empty()) {
    unenforced_.push_back("everything: " + kernel_.problem);
    return;
  }
  confinesFiles_ = kernel_.landlock;
  if (!confinesFiles_)
    unenforced_.push_back("files: this kernel offers no Landlock (ABI " + std::to_string(kernel_.landlockAbi) +
                          "), so commands read and write as toold does");
  closesNetwork_ = !settings_.network && kernel_.seccomp;
  if (!settings_.network && !kernel_.seccomp)
    unenforced_.push_back("network: seccomp filters are refused here, so commands reach the network");
  if (mode_ == SandboxMode::WorkspaceWrite && confinesFiles_) {
    protectsGit_ = kernel_.mountNamespace;
    if (!protectsGit_)
      unenforced_.push_back(".git read-only: no mount namespace can be made here (user namespaces are refused), "
                            "so .git, toold.json and .toold/ are writable like the rest of the workspace");
  }
  planPaths(location, configFile);
}

CommandSandbox CommandSandbox::off() {
  CommandSandbox sandbox;
  sandbox.settings_.mode = SandboxMode::Off;
  return sandbox;
}

void CommandSandbox::planPaths(const Location& location, const fs::path& configFile) {
  for (auto folder : kSystemFolders) addUnique(read_, std::string(folder));
  for (auto device : kDevices) addUnique(devices_, std::string(device));
  const std::string home = environment("HOME");
  // git refuses to run when its global configuration exists but cannot be read.
  if (!home.empty()) {
    addUnique(read_, home + "/.gitconfig");
    addUnique(read_, home + "/.config/git");
  }
  // The programs in PATH must run. A version manager's folder (~/.pyenv/shims, ~/.nvm/…/bin)
  // needs its parent too; a home folder itself and ~/.local, ~/.cargo (which hold credentials
  // and keyrings) are never opened whole this way.
  // Looked up only for a PATH folder it could decide: the password database costs a start a
  // dozen system calls (nscd's socket, nsswitch.conf, /etc/passwd).
  std::optional<std::string> accountHome;
  auto isAccountHome = [&accountHome](std::string_view folder) {
    if (!accountHome) accountHome = userHome();
    return folder == withoutTrailingSlashes(*accountHome);
  };
  auto readable = [this](std::string_view path) {
    return std::any_of(read_.begin(), read_.end(), [&](const std::string& allowed) { return contains(allowed, path); });
  };
  const std::string_view homeFolder = withoutTrailingSlashes(home);
  const std::string pathText = environment("PATH");
  std::string_view searchPath = pathText;
  while (!searchPath.empty()) {
    const auto colon = searchPath.find(':');
    const std::string_view folder = withoutTrailingSlashes(searchPath.substr(0, colon));
    searchPath = colon == std::string_view::npos ? std::string_view() : searchPath.substr(colon + 1);
    if (folder.empty() || folder.front() != '/') continue;
    addUnique(read_, std::string(folder));
    const auto slash = folder.rfind('/');
    const std::string_view name = folder.substr(slash + 1);
    const std::string_view parent = folder.substr(0, slash); // empty for a folder at the root
    const std::string_view parentName = parent.substr(parent.rfind('/') + 1);
    if ((name == "bin" || name == "shims") && !parent.empty() && parent != homeFolder && parentName != ".local" &&
        parentName != ".cargo" && parent != "/home" && !readable(parent) && !isAccountHome(parent))
      addUnique(read_, std::string(parent));
  }
  for (const auto& folder : settings_.read) addUnique(read_, folder);

  std::vector<fs::path> roots{location.directory};
  if (!location.worktree.empty() && location.worktree != "/" && location.worktree != location.directory)
    roots.push_back(location.worktree);
  const bool writes = mode_ == SandboxMode::WorkspaceWrite;
  for (const auto& root : roots) addUnique(writes ? write_ : read_, root.string());
  if (settings_.systemTemp) {
    for (const auto& temp : {std::string("/tmp"), std::string("/var/tmp"), environment("TMPDIR")})
      addUnique(writes ? write_ : read_, temp);
  } else if (!location.dataDir.empty()) {
    scratch_ = fs::absolute(location.dataDir) / "scratch";
    std::error_code ignored;
    fs::create_directories(scratch_, ignored);
    addUnique(write_, scratch_.string());
  }
  if (writes) addUnique(write_, "/dev/shm");
  for (const auto& folder : settings_.write) addUnique(write_, folder);

  if (!protectsGit_) return;
  for (const auto& root : roots)
    for (auto name : kProtectedNames) addUnique(protect_, (root / name).string());
  auto inWritable = [this](const fs::path& path) {
    return std::any_of(write_.begin(), write_.end(), [&](const std::string& folder) { return contains(folder, path.native()); });
  };
  if (!configFile.empty() && inWritable(fs::absolute(configFile))) addUnique(protect_, fs::absolute(configFile).string());
  // Saved approvals and the change journal: a command that could write them could grant itself
  // the next ask, or make toold undo a change at its next start.
  if (!location.dataDir.empty() && inWritable(fs::absolute(location.dataDir))) {
    addUnique(protect_, fs::absolute(location.dataDir).string());
    if (!scratch_.empty()) addUnique(rebind_, scratch_.string());
  }
}

bool CommandSandbox::applies(SandboxedProcess process) const {
  if (mode_ == SandboxMode::Off || !active()) return false;
  return process != SandboxedProcess::McpServer || settings_.mcpServers;
}

void CommandSandbox::wrap(ProcessSpec& spec, SandboxedProcess process) const {
  if (!applies(process) || spec.argv.empty()) return;
  const std::optional<std::string> program = findProgram(spec.argv.front(), spec.cwd, childPath(spec));
  if (!program) return;
  std::vector<std::string> argv{kernel_.launcher.string()};
  auto add = [&argv](std::string_view option, const std::vector<std::string>& paths) {
    for (const auto& path : paths) {
      argv.emplace_back(option);
      argv.push_back(path);
    }
  };
  if (confinesFiles_) {
    add(sandbox_launch::kRead, read_);
    add(sandbox_launch::kWrite, write_);
    add(sandbox_launch::kDevice, devices_);
    // A mount namespace costs milliseconds: only when there is something to keep read-only.
    std::vector<std::string> present;
    for (const auto& path : protect_)
      if (struct stat status {}; ::lstat(path.c_str(), &status) == 0) present.push_back(path);
    add(sandbox_launch::kProtect, present);
    if (!present.empty()) add(sandbox_launch::kRebind, rebind_);
  }
  if (closesNetwork_) argv.emplace_back(sandbox_launch::kNoNetwork);
  argv.emplace_back(sandbox_launch::kEndOfOptions);
  argv.push_back(*program);
  argv.insert(argv.end(), spec.argv.begin() + 1, spec.argv.end());
  spec.argv = std::move(argv);
  if (!scratch_.empty() && confinesFiles_) spec.extraEnv.push_back("TMPDIR=" + scratch_.string());
}

nlohmann::json CommandSandbox::report() const {
  nlohmann::json report{{"mode", sandboxModeName(mode_)},
                        {"enforced", {{"files", confinesFiles_}, {"network", closesNetwork_}, {"gitReadOnly", protectsGit_}}},
                        {"network", settings_.network || mode_ == SandboxMode::Off ? "open"
                                    : closesNetwork_                                ? "closed"
                                                                                    : "open (not enforced)"},
                        {"mcpServers", settings_.mcpServers},
                        {"kernel",
                         {{"landlockAbi", kernel_.landlockAbi},
                          {"landlock", kernel_.landlock},
                          {"mountNamespace", kernel_.mountNamespace},
                          {"seccomp", kernel_.seccomp}}}};
  if (!unenforced_.empty()) report["unenforced"] = unenforced_;
  return report;
}

std::string CommandSandbox::summary() const {
  if (mode_ == SandboxMode::Off) return "sandbox off: commands run with toold's own rights";
  std::string line = "sandbox " + std::string(sandboxModeName(mode_)) + ": files " +
                     (confinesFiles_ ? "confined (Landlock ABI " + std::to_string(kernel_.landlockAbi) + ")" : "NOT confined") +
                     ", network " + (settings_.network ? "open" : closesNetwork_ ? "closed (seccomp)" : "NOT closed");
  if (mode_ == SandboxMode::WorkspaceWrite && confinesFiles_)
    line += protectsGit_ ? ", .git read-only" : ", .git NOT read-only";
  for (const auto& why : unenforced_) line += "; not enforced: " + why;
  return line;
}

std::string CommandSandbox::allowance() const {
  std::string text;
  if (confinesFiles_) {
    auto list = [](const std::vector<std::string>& paths, std::size_t most) {
      std::string joined;
      for (std::size_t i = 0; i < paths.size() && i < most; ++i) joined += (i ? ", " : "") + paths[i];
      return paths.size() > most ? joined + ", …" : joined;
    };
    text = mode_ == SandboxMode::ReadOnly ? "commands may write nowhere (but /dev/null and the like)"
                                          : "commands may write only in " + list(write_, 6);
    if (protectsGit_) text += " (.git, toold.json and .toold/ there stay read-only)";
    text += ", and read only those and the system's folders (" + list(read_, 6) + ")";
  }
  if (closesNetwork_) text += std::string(text.empty() ? "commands" : "; they") + " have no network";
  return text;
}

} // namespace toold::core
