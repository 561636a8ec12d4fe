// Commands that run text as a script, and what the scanner does about each:
//  - a POSIX shell with -c (`bash -c '…'`), wherever it stands: behind wrappers (`env -i`,
//    `timeout 5`, `nohup nice`, `xargs`, `sudo -u x`, …) or as a word of another command
//    (`find -exec sh -c '…' \;`, `busybox sh -c '…'`): the script is scanned in place;
//  - a shell run as the command that reads its script from stdin, a here-document, a process
//    substitution or a descriptor (`sh`, `bash -s`, `… | sh`, `sh <<EOF`, `bash <(…)`,
//    `bash /dev/stdin`), `source`/`.` of such a file or of an expansion, `eval`, `alias`,
//    `mapfile -C`, `env -S`, a shell of another syntax (fish, csh, pwsh, …), and a shell behind a
//    wrapper whose options toold cannot read: the line fails closed;
//  - `trap 'ACTION' SIGNAL…`: ACTION is scanned like a -c script (a dynamic one fails closed).
// A script file (`bash build.sh`, `source venv/bin/activate`) is run, not read: its commands are a
// documented blind spot.
#include "builtins/shell/command_wrappers.h"
#include "builtins/shell/shell_environment.h"
#include "builtins/shell/shell_parser.h"

#include <algorithm>
#include <array>

namespace toold::builtins::shell_detail {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

std::string_view baseName(std::string_view name) {
  if (auto slash = name.rfind('/'); slash != kNone) name.remove_prefix(slash + 1);
  return name;
}

bool isShell(const ShellWord& word) { return !word.dynamic && isPosixShellName(baseName(word.text)); }

/// Shells whose syntax is not POSIX: what they run cannot be read by this scanner.
bool isForeignShell(const ShellWord& word) {
  static constexpr std::array<std::string_view, 11> kForeign{"fish", "csh",  "tcsh",   "pwsh",  "powershell", "nu",
                                                             "elvish", "xonsh", "rc", "es", "oksh"};
  if (word.dynamic) return false;
  const auto name = baseName(word.text);
  return std::find(kForeign.begin(), kForeign.end(), name) != kForeign.end();
}

/// Paths whose content is a stream handed over by the caller, not a script file.
bool isStreamPath(std::string_view path) { return path.starts_with("/dev/") || path.starts_with("/proc/"); }

bool readsHereDocument(const SimpleCommand& command) {
  for (const auto& redirection : command.redirections) {
    std::string_view kind = redirection.op;
    while (!kind.empty() && kind.front() >= '0' && kind.front() <= '9') kind.remove_prefix(1);
    if (kind == "<<" || kind == "<<-" || kind == "<<<") return true;
  }
  return false;
}

/// `sudo -s`, `sudo -i`, `doas -s` with no command after them: an interactive shell, reading
/// whatever is piped in. (With a command, the wrapper reader has found it and this is not reached.)
bool startsShell(const std::vector<ShellWord>& words, std::size_t at) {
  constexpr std::string_view kValued = "ughpCDrtTUa"; // sudo's and doas's options with a value
  for (std::size_t i = at + 1; i < words.size(); ++i) {
    const std::string& text = words[i].text;
    if (text == "--shell" || text == "--login") return true;
    if (text.size() < 2 || text[0] != '-' || text[1] == '-') continue;
    for (std::size_t k = 1; k < text.size(); ++k) {
      if (text[k] == 's' || text[k] == 'i') return true;
      if (kValued.find(text[k]) != std::string_view::npos) break;
    }
  }
  return false;
}

} // namespace

void Parser::checkSwitchUser(const SimpleCommand& command, const std::vector<WordSource>& sources, std::size_t at,
                             std::vector<SimpleCommand>& inner) {
  // su/runuser [options] [-] [user [args]]: `-c CMD` runs CMD with the user's shell; without it
  // the user's shell reads its commands from standard input.
  const auto& words = command.words;
  const std::string name(baseName(words[at].text));
  for (std::size_t i = at + 1; i < words.size(); ++i) {
    const std::string& text = words[i].text;
    if (text == "--help" || text == "--version") return;
    if (text == "-c" || text == "--command" || text == "--session-command") {
      if (i + 1 >= words.size()) return; // su rejects it: nothing runs
      return scanScriptWord(command, sources, i + 1, name + " -c", inner);
    }
    if (text.starts_with("--command=") || text.starts_with("--session-command=") ||
        (text.starts_with("-c") && !text.starts_with("--")))
      failPlain("the command of " + name + " is written in a way the scanner does not follow");
  }
  failPlain(name + " starts a shell that reads its commands from standard input");
}

void Parser::checkSpecialCommand(const SimpleCommand& command, const std::vector<WordSource>& sources,
                                 std::vector<SimpleCommand>& inner) {
  const auto& words = command.words;
  if (words.empty() || words[0].dynamic) return;
  const UnwrappedCommand unwrapped = unwrapCommand(words);
  if (unwrapped.splitsString) failPlain("env -S splits a string into a command the scanner does not follow");
  const std::size_t runs = unwrapped.index;
  if (words[runs].dynamic) return; // the caller asks for the whole line
  const std::string_view name = baseName(words[runs].text);
  if (name == "eval") failPlain("eval runs text the scanner cannot see");
  if (name == "alias") failPlain("alias defines commands the scanner cannot see");
  if (name == "mapfile" || name == "readarray") {
    for (std::size_t i = runs + 1; i < words.size(); ++i)
      if (words[i].text.starts_with("-") && words[i].text.find('C') != std::string::npos)
        failPlain(std::string(name) + " -C runs a callback the scanner cannot see");
  }
  if (name == "source" || name == ".") {
    std::size_t i = runs + 1;
    if (i < words.size() && words[i].text == "--" && !words[i].dynamic) ++i;
    if (i < words.size() && (words[i].dynamic || isStreamPath(words[i].text)))
      failPlain(std::string(name) + " reads a script the scanner cannot see (" + words[i].text + ")");
  }
  if (name == "trap") checkTrap(command, sources, runs, inner);
  if (name == "su" || name == "runuser") checkSwitchUser(command, sources, runs, inner);
  if ((name == "sudo" || name == "doas") && startsShell(words, runs))
    failPlain(std::string(name) + " starts a shell that reads its commands from standard input");
  if (isForeignShell(words[runs])) failPlain(std::string(name) + " runs a script in a syntax the scanner does not read");
  if (isShell(words[runs])) checkShell(command, sources, runs, /*alone=*/true, inner);
  if (unwrapped.opaque) {
    // A wrapper whose options are not understood could run any later word: a shell there fails closed.
    for (std::size_t i = runs + 1; i < words.size(); ++i)
      if (isShell(words[i]) || isForeignShell(words[i]))
        failPlain("a shell behind a wrapper whose options the scanner does not read (" + std::string(name) + ")");
  }
  if (name == "echo" || name == "printf") return; // they print their words, whatever those say
  // A shell named with -c anywhere among the words is run by the command (`find -exec sh -c …`).
  for (std::size_t i = runs + 1; i < words.size(); ++i) {
    if (isShell(words[i])) checkShell(command, sources, i, /*alone=*/false, inner);
    if (isForeignShell(words[i]) && i + 1 < words.size() && words[i + 1].text.starts_with("-"))
      failPlain(std::string(baseName(words[i].text)) + " runs a script in a syntax the scanner does not read");
  }
}

void Parser::checkShell(const SimpleCommand& command, const std::vector<WordSource>& sources, std::size_t at,
                        bool alone, std::vector<SimpleCommand>& inner) {
  // sh/bash/… [options] [-c SCRIPT | FILE] [args]: find whether -c is given and where the
  // first operand is; a dynamic word among the options could be anything, -c included.
  const auto& words = command.words;
  const std::string name(baseName(words[at].text));
  bool commandString = false;
  bool readsStdin = false;
  bool runsNothing = false;
  std::size_t i = at + 1;
  for (; i < words.size(); ++i) {
    const ShellWord& word = words[i];
    if (word.dynamic) {
      if (commandString) break; // the script (or an option before it): checked below
      if (!alone) return;       // an expansion among another command's words: not followed
      if (word.text.starts_with("<(") || word.text.starts_with(">("))
        failPlain(name + " runs a script from a process substitution, which the scanner cannot see");
      failPlain("a dynamic option to " + name + " hides what it runs");
    }
    const std::string& text = word.text;
    if (text == "--" || text == "-") {
      ++i;
      break;
    }
    if (text.size() < 2 || (text[0] != '-' && text[0] != '+')) break;
    if (text.rfind("--", 0) == 0) {
      if (text == "--rcfile" || text == "--init-file") ++i;
      if (text == "--version" || text == "--help") runsNothing = true;
      continue;
    }
    if (text[0] == '-' && text.find('c') != std::string::npos) commandString = true;
    if (text[0] == '-' && text.find('s') != std::string::npos) readsStdin = true;
    if (text.find_first_of("oO") != std::string::npos) ++i; // -o OPTION
  }
  if (!commandString) {
    if (!alone || runsNothing) return;
    if (readsHereDocument(command))
      failPlain(name + " reads a script from a here-document the scanner does not follow");
    if (readsStdin || i >= words.size())
      failPlain(name + " reads its script from standard input, which the scanner cannot see");
    if (words[i].dynamic)
      failPlain(name + " runs a script named by an expansion or a process substitution (" + words[i].text + ")");
    if (isStreamPath(words[i].text))
      failPlain(name + " reads its script from " + words[i].text + ", which the scanner cannot see");
    return; // a script file: run, not read (a documented blind spot)
  }
  if (i >= words.size()) return; // `bash -c` without a script runs nothing
  scanScriptWord(command, sources, i, name + " -c", inner);
}

void Parser::checkTrap(const SimpleCommand& command, const std::vector<WordSource>& sources, std::size_t at,
                       std::vector<SimpleCommand>& inner) {
  // trap [-lpP] [[ACTION] SIGNAL…]: with two operands or more, the first is run as a script when
  // a signal comes (`-` or an empty string resets or ignores).
  const auto& words = command.words;
  std::size_t i = at + 1;
  if (i < words.size() && !words[i].dynamic) {
    const auto& option = words[i].text;
    if (option == "-l" || option == "-p" || option == "-P") return;
    if (option == "--") ++i;
  }
  if (words.size() < i + 2) return;
  if (words[i].dynamic) failPlain("the action of trap is not a fixed string");
  if (words[i].text.empty() || words[i].text == "-") return;
  scanScriptWord(command, sources, i, "trap", inner);
}

void Parser::scanScriptWord(const SimpleCommand& command, const std::vector<WordSource>& sources, std::size_t index,
                            const std::string& what, std::vector<SimpleCommand>& inner) {
  if (command.words[index].dynamic) failPlain("the script of " + what + " is not a fixed string");
  if (sources[index].fromBraces) failPlain("the script of " + what + " is made by brace expansion");
  // The script is scanned in place, so it must be written plainly: one quoted string with no
  // escapes, or an unquoted word without quotes or backslashes.
  std::size_t start = sources[index].start;
  std::size_t end = sources[index].end;
  std::string_view raw = src_.substr(start, end - start);
  if (raw.find_first_of("'\"\\$`") == kNone) {
    // written as it runs
  } else if (raw.size() >= 2 && raw.front() == '\'' && raw.back() == '\'' &&
             raw.substr(1, raw.size() - 2).find('\'') == kNone) {
    ++start;
    --end;
  } else if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"' &&
             raw.substr(1, raw.size() - 2).find_first_of("\"\\$`") == kNone) {
    ++start;
    --end;
  } else {
    failPlain("the script of " + what + " is quoted in a way the scanner does not follow");
  }
  Parser script(src_.substr(start, end - start), base_ + start, nesting_ + 1, budget_);
  for (auto& scanned : script.scanAll()) inner.push_back(std::move(scanned));
}

} // namespace toold::builtins::shell_detail
