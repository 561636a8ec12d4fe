// The permissions a shell command line needs, read from the line before it runs (opencode's bash
// scan, made fail-closed):
//  - every simple command (see shell_scanner.h) asks `bash` with its own text as the resource and
//    its arity prefix + " *" as the pattern an "always" saves, so an allow for `git status` never
//    covers `rm -rf ~` chained after it. When the text differs from the command as it will run —
//    quotes or escapes in the words (`'rm' -rf /`), assignments before it (`X=1 rm …`) or a
//    wrapper (`sudo rm …`) — the plain words of the command run are a resource too, so a rule
//    denying `rm *` holds for all of those. A bare `cd`, `pushd` or `popd` asks nothing;
//  - every redirection target, the working directory itself, and every argument that looks like
//    a path (absolute, `~…`, or relative with `/` or `..`; the value of `--opt=V`, `NAME=V` and
//    `-o/abs`; a `file://` URL), of any command and of its wrappers, ask `external_directory` for
//    their folders when they resolve outside the workspace. Not arguments: the programs a wrapper
//    runs, the words of echo, printf, export and kin, and — except for commands that create or change paths —
//    an absolute word under a top-level folder that does not exist (a pattern such as
//    `sed '/^$/d'`). Paths are resolved against the working directory and, after a `cd`, `pushd`
//    or `popd` to a fixed path, against that directory too (and a wrapped command's against the
//    folder `env -C` or `sudo -D` starts it in), so neither `cd /etc && rm x` nor
//    `(cd sub) ; rm ../x` slips through. Arguments with expansions (`$X`, `$(…)`) cannot be known
//    before the command runs and are not checked. A cd to a name CDPATH would search, in a line
//    that mentions CDPATH or cdable_vars, asks for the whole line (below);
//  - a line the scanner cannot read, or a command whose name is an expansion (`$CMD x`), asks for
//    the whole line, literal-only: only an allow-everything rule or an exact saved line grants it.
#pragma once

#include "core/permission/permission_ask.h"
#include "core/tools/tool.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace toold::builtins {

/// The asks, in the order they are to be asserted: `external_directory` first (one ask for every
/// outside folder), then `bash` (one ask for every command; none when only `cd` runs). `workdir`
/// is the canonical working directory.
std::vector<core::PermissionAsk> shellPermissionAsks(std::string_view command, const std::filesystem::path& workdir,
                                                     const core::Location& location);

} // namespace toold::builtins
