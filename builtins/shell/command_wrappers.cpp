#include "builtins/shell/command_wrappers.h"

#include <array>
#include <string>
#include <string_view>

namespace toold::builtins {

namespace {

/// How one wrapper reads its options before the command it runs.
struct Wrapper {
  std::string_view name;
  std::string_view flags;          ///< short options without an argument
  std::string_view valued;         ///< short options taking an argument (attached or the next word)
  std::string_view runsNothing;    ///< short options after which nothing is run (`command -v`)
  std::array<std::string_view, 8> longFlags{};  ///< long options without an argument
  std::array<std::string_view, 10> longValued{}; ///< long options taking one (`--user=x` or `--user x`)
  bool assignments = false;        ///< NAME=VALUE words come before the command (env)
  int positionals = 0;             ///< words that are not the command (timeout's duration)
  std::string_view splitsString{}; ///< short options whose value is split into the command (env -S)
  std::string_view longSplitsString{};
  char chdir = '\0';               ///< the short option whose value is the command's working directory
  std::string_view longChdir{};
};

constexpr std::array<Wrapper, 15> kWrappers{{
    {"command", "p", "", "vV"},
    {"builtin", "", "", ""},
    {"exec", "cl", "a", ""},
    {"nohup", "", "", ""},
    {"time", "pavq", "fo", "", {"--append", "--verbose", "--quiet", "--portability"}, {"--format", "--output"}},
    {"nice", "", "n", "", {}, {"--adjustment"}},
    {"env", "i0v", "uC", "", {"--ignore-environment", "--null", "--debug"}, {"--unset", "--chdir"}, true, 0, "S", "--split-string", 'C', "--chdir"},
    {"sudo", "AbEHiKknPSs", "ughpCDrtTU", "elvV", {"--askpass", "--background", "--preserve-env", "--set-home", "--login", "--non-interactive", "--shell", "--stdin"}, {"--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--type", "--other-user"}, false, 0, "", "", 'D', "--chdir"},
    {"doas", "ns", "u", "C"},
    {"timeout", "v", "ks", "", {"--preserve-status", "--foreground", "--verbose"}, {"--kill-after", "--signal"}, false, 1},
    {"stdbuf", "", "ioe", "", {}, {"--input", "--output", "--error"}},
    {"setsid", "cfw", "", ""},
    {"ionice", "t", "cn", "pPu", {}, {"--class", "--classdata"}},
    {"chroot", "", "", "", {}, {"--userspec", "--groups"}, false, 1},
    {"xargs", "0rtpxo", "InPdaELs", "", {"--null", "--no-run-if-empty", "--verbose", "--interactive", "--exit", "--open-tty"}, {"--replace", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--eof", "--max-lines", "--max-chars"}},
}};

const Wrapper* findWrapper(std::string_view name) {
  for (const auto& wrapper : kWrappers)
    if (wrapper.name == name) return &wrapper;
  return nullptr;
}

bool contains(std::string_view letters, char letter) { return letters.find(letter) != std::string_view::npos; }

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& names, std::string_view name) {
  for (auto known : names)
    if (!known.empty() && known == name) return true;
  return false;
}

bool isAssignment(std::string_view word) {
  const auto equals = word.find('=');
  if (equals == 0 || equals == std::string_view::npos) return false;
  for (std::size_t i = 0; i < equals; ++i) {
    const char c = word[i];
    const bool ok = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

/// What reading one wrapper's options found.
struct WrapperRead {
  enum class Outcome { Runs, RunsNothing, Opaque, SplitsString } outcome = Outcome::Runs;
  std::size_t index = 0; ///< Runs: the command's index
  std::vector<std::string> directories{}; ///< the command's working directories (`env -C DIR`)
};
using Outcome = WrapperRead::Outcome;

/// The command `wrapper` at words[start] runs, or why none is known.
WrapperRead commandAfter(const Wrapper& wrapper, const std::vector<ShellWord>& words, std::size_t start) {
  std::size_t i = start + 1;
  int positionals = wrapper.positionals;
  std::vector<std::string> directories;
  // `nice -5 cmd`, an old form of -n 5.
  const auto isNiceNumber = [&](std::string_view word) {
    return wrapper.name == "nice" && word.size() > 1 && word[1] >= '0' && word[1] <= '9';
  };
  while (i < words.size()) {
    const ShellWord& word = words[i];
    std::string_view text = word.text;
    if (word.dynamic) {
      // An option we cannot read could take the next word as its value; a dynamic word where the
      // command goes is returned, and the caller fails closed on it.
      if (text.starts_with("-")) return {Outcome::Opaque};
      if (positionals == 0 && !wrapper.assignments) return {Outcome::Runs, i};
      return {Outcome::Opaque};
    }
    if (text == "--") {
      ++i;
      break;
    }
    if (wrapper.assignments && isAssignment(text)) {
      ++i;
      continue;
    }
    if (wrapper.name == "env" && text == "-") {
      ++i;
      continue;
    }
    if (text.size() > 1 && text[0] == '-' && !isNiceNumber(text)) {
      if (text.starts_with("--")) {
        const auto equals = text.find('=');
        const auto name = text.substr(0, equals);
        if (!wrapper.longSplitsString.empty() && name == wrapper.longSplitsString) return {Outcome::SplitsString};
        if (listed(wrapper.longFlags, name) && equals == std::string_view::npos) {
          ++i;
          continue;
        }
        if (listed(wrapper.longValued, name)) {
          if (!wrapper.longChdir.empty() && name == wrapper.longChdir) {
            if (equals != std::string_view::npos) directories.emplace_back(text.substr(equals + 1));
            else if (i + 1 < words.size() && !words[i + 1].dynamic) directories.push_back(words[i + 1].text);
          }
          i += equals == std::string_view::npos ? 2 : 1;
          continue;
        }
        return {Outcome::Opaque}; // an option toold does not know
      }
      bool valueInNextWord = false;
      for (std::size_t k = 1; k < text.size(); ++k) {
        const char letter = text[k];
        if (contains(wrapper.runsNothing, letter)) return {Outcome::RunsNothing};
        if (contains(wrapper.splitsString, letter)) return {Outcome::SplitsString};
        if (contains(wrapper.flags, letter)) continue;
        if (contains(wrapper.valued, letter)) {
          valueInNextWord = k + 1 == text.size(); // else the rest of the word is the value
          if (letter == wrapper.chdir) {
            if (!valueInNextWord) directories.emplace_back(text.substr(k + 1));
            else if (i + 1 < words.size() && !words[i + 1].dynamic) directories.push_back(words[i + 1].text);
          }
          break;
        }
        return {Outcome::Opaque};
      }
      i += valueInNextWord ? 2 : 1;
      continue;
    }
    if (isNiceNumber(text)) {
      ++i;
      continue;
    }
    if (positionals > 0) {
      --positionals;
      ++i;
      continue;
    }
    break;
  }
  if (i >= words.size()) return {Outcome::RunsNothing}; // or xargs' default echo
  return {Outcome::Runs, i, std::move(directories)};
}

} // namespace

std::optional<std::size_t> wrappedCommandIndex(const std::vector<ShellWord>& words) {
  const auto unwrapped = unwrapCommand(words);
  if (unwrapped.index == 0) return std::nullopt;
  return unwrapped.index;
}

UnwrappedCommand unwrapCommand(const std::vector<ShellWord>& words) {
  UnwrappedCommand result;
  if (!words.empty()) result.chain.push_back(0);
  std::size_t at = 0;
  // Bounded by the word count: each step moves at least one word on.
  while (at < words.size() && !words[at].dynamic) {
    // By base name: `/usr/bin/sudo rm` is sudo too.
    std::string_view name = words[at].text;
    if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
    const Wrapper* wrapper = findWrapper(name);
    if (wrapper == nullptr) break;
    const auto read = commandAfter(*wrapper, words, at);
    if (read.outcome != Outcome::Runs) { // what was looked through so far stands
      result.opaque = read.outcome == Outcome::Opaque || read.outcome == Outcome::SplitsString;
      result.splitsString = read.outcome == Outcome::SplitsString;
      break;
    }
    result.index = read.index;
    result.chain.push_back(read.index);
    for (auto& directory : read.directories) result.directories.push_back(std::move(directory));
    at = read.index;
  }
  return result;
}

} // namespace toold::builtins
