// Commands that run another command: `sudo rm -rf /`, `env FOO=1 git push`, `timeout 5 make`,
// `xargs rm`. A rule denying `rm *` must hold for `sudo rm …` too, and the external-path check must
// see rm's arguments, so the permission scan looks through these wrappers to the command they run.
#pragma once

#include "builtins/shell/shell_scanner.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace toold::builtins {

/// The index in `words` of the command that words[0] runs, when words[0] is a wrapper toold knows
/// (command, builtin, exec, nohup, time, nice, env, sudo, doas, timeout, stdbuf, setsid, ionice,
/// chroot, xargs) and its
/// options are ones it can read; wrappers inside wrappers are looked through too (`sudo env X=1 rm`
/// gives the index of `rm`). nullopt when words[0] is not a wrapper, when it runs nothing
/// (`command -v git`, a bare `sudo -v`), or when an option it does not know could change where the
/// command starts (then the caller keeps to the words as written).
std::optional<std::size_t> wrappedCommandIndex(const std::vector<ShellWord>& words);

/// How far the wrappers at the front of `words` could be read.
struct UnwrappedCommand {
  std::size_t index = 0; ///< the command run (as wrappedCommandIndex; 0 when words[0] is no wrapper)
  std::vector<std::size_t> chain; ///< the index of every command word: 0, each wrapper's, `index`
  /// The working directories the command is started in (`env -C DIR`, `sudo -D DIR`), as written,
  /// in order (each relative to the one before); an expansion is left out.
  std::vector<std::string> directories;
  /// The command run is not known: the last wrapper read has an option toold does not know, a
  /// dynamic word where an option or the command goes, or an option that takes the command from
  /// a string (`env -S 'sh -c …'`). Options after which nothing runs (`command -v`) are not opaque.
  bool opaque = false;
  bool splitsString = false; ///< opaque because of `env -S` / `--split-string`
};

UnwrappedCommand unwrapCommand(const std::vector<ShellWord>& words);

} // namespace toold::builtins
