// Quote handling: enough of the shell's rules to paste a command from a terminal into --server.
#include "tests/bench/command_line.h"

namespace toold::bench {

std::optional<std::vector<std::string>> splitCommand(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = '\0';
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (quote == '\'') {
      if (c == '\'') quote = '\0';
      else word += c;
    } else if (quote == '"') {
      if (c == '"') quote = '\0';
      else if (c == '\\' && i + 1 < command.size() && std::string_view("\"\\$`").find(command[i + 1]) != std::string_view::npos)
        word += command[++i];
      else word += c;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (inWord) words.push_back(std::move(word));
      word.clear();
      inWord = false;
    } else {
      inWord = true;
      if (c == '\'' || c == '"') quote = c;
      else if (c == '\\' && i + 1 < command.size()) word += command[++i];
      else word += c;
    }
  }
  if (quote != '\0') return std::nullopt;
  if (inWord) words.push_back(std::move(word));
  return words;
}

std::string shellQuote(std::string_view word) {
  const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                             "0123456789-_./=:,+@%") == std::string_view::npos;
  if (plain) return std::string(word);
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') quoted += "'\\''";
    else quoted += c;
  }
  return quoted + "'";
}

} // namespace toold::bench
