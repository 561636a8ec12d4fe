// libedit calls the completion hook with the word under the cursor (split at its break
// characters, '=' among them) and the whole line in rl_line_buffer; the words before it decide
// what the word can be.
#include "daemon/repl/repl_complete.h"

#include "daemon/repl/repl_command.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <editline/readline.h>
#include <filesystem>

namespace toold::repl {
namespace {

const ToolCatalog* gCatalog = nullptr;
std::vector<std::string> gMatches;

std::vector<std::string> wordsOf(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

void addMatching(std::vector<std::string>& out, const std::vector<std::string>& candidates, const std::string& word,
                 const std::string& suffix = "") {
  for (const auto& candidate : candidates)
    if (candidate.starts_with(word)) out.push_back(candidate + suffix);
}

char* generator(const char*, int state) {
  static std::size_t next = 0;
  if (state == 0) next = 0;
  if (next >= gMatches.size()) return nullptr;
  return ::strdup(gMatches[next++].c_str());
}

char** complete(const char* text, int start, int) {
  rl_attempted_completion_over = 1; // no file names unless a path is expected
  if (gCatalog == nullptr) return nullptr;
  const std::string before(rl_line_buffer, static_cast<std::size_t>(start));
  gMatches.clear();
  if (before.ends_with("=@")) {
    // `key=@FILE` reads any parameter's value from a file: complete the file's name.
    gMatches = fileCompletions(text);
  } else if (!before.empty() && before.back() == '=') {
    // The value of a path parameter. (libedit's own file name completion would add what the
    // last completion set, a blank even after a folder.)
    const auto words = wordsOf(before.substr(0, before.size() - 1));
    const std::string tool = words.size() >= 2 && words[0] == ":call" ? words[1] : words.empty() ? "" : words[0];
    if (!words.empty() && gCatalog->isPathParameter(tool, words.back())) gMatches = fileCompletions(text);
  } else {
    gMatches = completionsFor(*gCatalog, before, text);
  }
  // Set on every completion: libedit keeps the last value.
  rl_completion_append_character = appendedAfter(gMatches);
  if (gMatches.empty()) return nullptr;
  return rl_completion_matches(text, generator);
}

} // namespace

std::vector<std::string> completionsFor(const ToolCatalog& catalog, const std::string& before, const std::string& word) {
  std::vector<std::string> out;
  const auto words = wordsOf(before);
  if (words.empty()) {
    if (word.starts_with(":")) {
      addMatching(out, metaCommands(), word);
      return out;
    }
    if (word.starts_with("!")) {
      for (const auto& method : knownMethods())
        if (("!" + method).starts_with(word)) out.push_back("!" + method);
      return out;
    }
    addMatching(out, catalog.names(), word);
    addMatching(out, knownMethods(), word);
    return out;
  }
  if ((words[0] == ":describe" || words[0] == ":call" || words[0] == ":d") && words.size() == 1) {
    addMatching(out, catalog.names(), word);
    return out;
  }
  const std::string tool = words[0] == ":call" ? (words.size() > 1 ? words[1] : "") : words[0];
  if (catalog.contains(tool)) {
    std::vector<std::string> unused;
    for (const auto& name : catalog.parameterNames(tool)) {
      bool given = false;
      for (const auto& w : words) given = given || w.starts_with(name + "=");
      if (!given) unused.push_back(name);
    }
    addMatching(out, unused, word, "=");
  }
  return out;
}

std::vector<std::string> fileCompletions(const std::string& word) {
  namespace fs = std::filesystem;
  const auto slash = word.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : word.substr(0, slash + 1);
  const std::string start = slash == std::string::npos ? word : word.substr(slash + 1);
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(folder.empty() ? fs::path(".") : fs::path(folder), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(start) || (name.starts_with(".") && !start.starts_with("."))) continue;
    std::error_code typeError;
    out.push_back(folder + name + (it->is_directory(typeError) ? "/" : ""));
  }
  std::sort(out.begin(), out.end());
  return out;
}

char appendedAfter(const std::vector<std::string>& matches) {
  if (matches.size() != 1) return ' '; // libedit completes the common start only, and adds nothing
  return matches.front().ends_with("=") || matches.front().ends_with("/") ? '\0' : ' ';
}

void installCompletion(const ToolCatalog& catalog) {
  gCatalog = &catalog;
  rl_attempted_completion_function = complete;
  // Words break at blanks, quotes, '=' (a value) and '@' (a file), not at '$' or ':' (methods
  // such as $/test/echo, commands such as :describe).
  static char breaks[] = " \t\n\"'=@";
  rl_completer_word_break_characters = breaks;
  rl_basic_word_break_characters = breaks; // the one libedit reads
}

} // namespace toold::repl
