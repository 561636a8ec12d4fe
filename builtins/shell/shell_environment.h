// Which shell runs a command, and the environment it runs in. Commands run unattended: nobody can
// answer a prompt, page through a pager or read colour codes, so the environment asks every
// common tool not to do those things, and stdin is /dev/null (see the shell tool).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins {

struct ShellProgram {
  std::string path; ///< absolute
  std::string name; ///< its base name: "bash", "zsh", "sh", …
};

/// The shell for `<shell> -c <command>`: `shellVariable` ($SHELL) when it is an absolute path to an
/// executable POSIX-compatible shell (sh, bash, dash, zsh, ksh, mksh, ash, yash — never fish, nu,
/// csh or tcsh, whose syntax differs); else `bash` from `pathVariable` ($PATH); else /bin/sh.
ShellProgram selectShell(const char* shellVariable, const char* pathVariable);
/// selectShell with toold's own $SHELL and $PATH.
ShellProgram defaultShell();

/// Whether a shell with base name `name` reads POSIX sh syntax.
bool isPosixShellName(std::string_view name);

/// Laid over toold's environment for every command ("K=V" sets K, a bare "K" removes it): no
/// pagers (PAGER, GIT_PAGER, MANPAGER, SYSTEMD_PAGER), no prompts (GIT_TERMINAL_PROMPT=0,
/// GIT_EDITOR and EDITOR/VISUAL=true so a commit without -m fails fast instead of opening an
/// editor, GCM_INTERACTIVE=never, SSH_ASKPASS_REQUIRE=never, DEBIAN_FRONTEND=noninteractive,
/// PIP_NO_INPUT=1), no colour (NO_COLOR=1, TERM=dumb, CLICOLOR=0,
/// FORCE_COLOR and CLICOLOR_FORCE removed), and CDPATH and OLDPWD removed so `cd` goes where the
/// permission scan assumed. CI is not set: it changes what tools do (yarn refuses
/// to touch its lockfile under CI), not only how they talk.
const std::vector<std::string>& nonInteractiveEnvironment();

} // namespace toold::builtins
