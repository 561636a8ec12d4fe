#include "builtins/shell/shell_environment.h"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>

namespace toold::builtins {

namespace {

bool isExecutableFile(const std::filesystem::path& path) {
  std::error_code ec;
  return path.is_absolute() && std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::string findInPath(std::string_view program, const char* pathVariable) {
  if (pathVariable == nullptr) return {};
  std::string_view rest(pathVariable);
  while (true) {
    const auto colon = rest.find(':');
    const auto folder = rest.substr(0, colon);
    if (!folder.empty()) {
      auto candidate = std::filesystem::path(folder) / program;
      if (isExecutableFile(candidate)) return candidate.string();
    }
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

} // namespace

bool isPosixShellName(std::string_view name) {
  static constexpr std::array<std::string_view, 10> kPosix{"sh", "bash", "dash", "zsh", "ksh", "ksh93",
                                                            "mksh", "pdksh", "ash", "yash"};
  for (auto known : kPosix)
    if (name == known) return true;
  return false;
}

ShellProgram selectShell(const char* shellVariable, const char* pathVariable) {
  if (shellVariable != nullptr && *shellVariable != '\0') {
    std::filesystem::path shell(shellVariable);
    if (isPosixShellName(shell.filename().string()) && isExecutableFile(shell))
      return {shell.string(), shell.filename().string()};
  }
  if (auto bash = findInPath("bash", pathVariable); !bash.empty()) return {bash, "bash"};
  return {"/bin/sh", "sh"};
}

ShellProgram defaultShell() { return selectShell(std::getenv("SHELL"), std::getenv("PATH")); }

const std::vector<std::string>& nonInteractiveEnvironment() {
  static const std::vector<std::string> kEnvironment{
      "PAGER=cat",          "GIT_PAGER=cat",          "MANPAGER=cat",         "SYSTEMD_PAGER=",
      "GIT_TERMINAL_PROMPT=0", "GIT_EDITOR=true",     "EDITOR=true",          "VISUAL=true",
      "GCM_INTERACTIVE=never", "SSH_ASKPASS_REQUIRE=never", "DEBIAN_FRONTEND=noninteractive",
      "PIP_NO_INPUT=1",     "NO_COLOR=1",             "TERM=dumb",            "CLICOLOR=0",
      "FORCE_COLOR",        "CLICOLOR_FORCE",
      // Removed so that `cd x` and `cd -` go where the permission scan assumed: no CDPATH search,
      // no previous directory inherited from toold.
      "CDPATH",             "OLDPWD"};
  return kEnvironment;
}

} // namespace toold::builtins
