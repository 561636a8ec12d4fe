// What a shell command line will run, read before it runs, so that permissions are asked for
// each command a model chains together, not for the first one only: `git status && rm -rf ~`
// is two commands, and an allow for the first must never cover the second.
//
// The scanner is a parser of its own for the POSIX shell grammar as bash reads it (no grammar
// library for shell syntax is packaged by Debian for C++; tree-sitter's bash grammar is, but only
// as a Node/Rust/Python binding). It splits a command line into simple commands across `;`,
// `&&`, `||`, `|`, `|&`, `&`, newlines, subshells `( … )`, groups `{ …; }`, command
// substitutions `$( … )` and backticks, process substitutions `<( … )` / `>( … )`, coprocesses,
// and the fixed-string scripts other commands run: the -c script of a POSIX shell (behind
// wrappers such as `env -i`, `timeout 5` or `xargs` too, and wherever a shell with -c is a word of
// another command, `find -exec sh -c '…'`) and a `trap` action, recursively (see
// shell_script_commands.cpp). It understands quotes ('…', "…", $'…'), backslash escapes, variable
// assignments before a command, and redirections; static braces are expanded (brace_expansion.h).
// Control structures (if/then/else/fi, for/while/until/do/done, case/esac, function definitions)
// are read as the commands inside them. Anything it does not understand or cannot see — an
// unterminated quote, a here-document it cannot delimit, `eval`, an `alias`, unbalanced
// parentheses, a script a shell reads from stdin, a here-document or a process substitution, a
// brace expansion beyond its budget — makes the whole line Unparsed: the caller then asks for the
// whole line and no saved rule may allow it (fail closed). The scanner never runs anything, never
// expands variables or globs, and its work is linear in the input's length plus the bounded brace
// budget (it never hangs, whatever the input).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins {

struct ShellRedirection {
  std::string op;     ///< ">", ">>", "<", "2>", "&>", "2>&1", "<<<", "<>", …, as written
  std::string target; ///< the target word unquoted; empty for a descriptor duplication (2>&1)
  bool dynamic = false; ///< the target holds an expansion ($VAR, $(…), `…`, a glob): not a fixed path
};

struct ShellWord {
  std::string text;     ///< the word unquoted (escapes removed, quotes joined)
  bool dynamic = false; ///< it holds $VAR, ${…}, $(…), `…` or an unquoted glob character
};

struct SimpleCommand {
  /// The command's own source text, trimmed: assignments, words and redirections exactly as
  /// written (`FOO=1 echo "a b" > out.txt`), without the operators that join it to others.
  std::string text;
  std::vector<std::string> assignments; ///< `NAME=value` before the command, as written
  std::vector<ShellWord> words;         ///< the command name, then its arguments
  std::vector<ShellRedirection> redirections;
};

struct ShellScan {
  bool parsed = false;                  ///< false: Unparsed (see the file comment); `commands` is empty
  std::string problem;                  ///< why not parsed, e.g. "unterminated single quote at offset 12"
  /// In source order, nested ones (from $(…), `…`, <(…), >(…), -c scripts, trap actions) included:
  /// each simple command comes before the commands of its own substitutions and of its scripts.
  /// `words` are brace-expanded (`text` stays as written); a coprocess is listed as its command.
  /// A command whose name is dynamic (`$CMD args`) is listed with words[0].dynamic set: the caller
  /// must then ask for the whole line. Compound commands are not listed themselves, only the
  /// commands inside them (and their trailing redirections, as a command without words); the
  /// `for` header and `case` patterns are not commands; `[[ … ]]` is one command whose operators
  /// are words; `(( … ))` lists only its substitutions.
  std::vector<SimpleCommand> commands;
};

/// Scans `line`. Commands with no words (only assignments or redirections, e.g. `> file`) are
/// still listed: a redirection writes a file.
ShellScan scanShellCommand(std::string_view line);

} // namespace toold::builtins
