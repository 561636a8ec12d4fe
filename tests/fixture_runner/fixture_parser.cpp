// A line-oriented parser: directives first, then steps; JSON may continue on indented lines.
#include "fixture_parser.h"

#include "captures.h"
#include "json_error.h"
#include "json_pattern.h"
#include "raw_string.h"
#include "regex.h"

#include <charconv>
#include <csignal>
#include <cmath>
#include <fstream>
#include <set>
#include <utility>
#include <sstream>

namespace toold::fixture {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

Step makeStep(Step::Kind kind, int line) {
  Step step;
  step.kind = kind;
  step.line = line;
  return step;
}

std::vector<std::string_view> splitWords(std::string_view s) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isBlank(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !isBlank(s[i])) ++i;
    if (i > start) words.push_back(s.substr(start, i - start));
  }
  return words;
}

template <typename Number> std::optional<Number> parseNumber(std::string_view text) {
  Number value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// The `${NAME}` references of a pattern, leaving out regexes (where `${` is regex syntax).
void patternReferences(const json& pattern, std::set<std::string>& names) {
  if (pattern.is_string()) {
    const auto& text = pattern.get_ref<const std::string&>();
    if (text.starts_with("$re:")) return;
    auto more = referencedCaptures(std::string_view(text));
    names.insert(more.begin(), more.end());
  } else if (pattern.is_structured()) {
    for (const auto& element : pattern) patternReferences(element, names);
  }
}

class Parser {
public:
  Parser(std::string_view text, const std::string& path) : path_(path) {
    fixture_.path = path;
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      lines_.push_back(line);
      start = end + 1;
    }
  }

  Fixture parse() {
    while (next_ < lines_.size()) {
      const int lineNo = static_cast<int>(next_) + 1;
      const std::string_view line = lines_[next_++];
      const std::string_view content = trim(line);
      if (content.empty() || content.front() == '#') continue;
      if (isBlank(line.front())) fail(lineNo, "an indented line must continue the JSON of a '>' or '<' line");
      if (content.front() == '%') {
        directive(lineNo, content);
      } else {
        step(lineNo, content);
      }
    }
    if (within_.count() != 0) fail(withinLine_, "within must be followed by an expectation ('<' or '<*')");
    return std::move(fixture_);
  }

private:
  [[noreturn]] void fail(int line, const std::string& what) const {
    throw FixtureError(path_ + ":" + std::to_string(line) + ": " + what);
  }

  // ---- directives ----

  void directive(int line, std::string_view content) {
    if (!fixture_.steps.empty())
      fail(line, "directives ('%...') must come before the conversation (the first '>', '<', 'wait' or 'close')");
    const std::size_t nameEnd = std::min(content.find_first_of(" \t"), content.size());
    const std::string_view name = content.substr(0, nameEnd);
    const std::string_view rest = trim(content.substr(nameEnd));
    const auto words = splitWords(rest);
    if (name == "%args") {
      if (words.empty()) fail(line, "%args needs at least one argument");
      for (auto word : words) {
        checkDirectoryReferences(line, "%args", word);
        fixture_.args.emplace_back(word);
      }
    } else if (name == "%env") {
      envDirective(line, rest);
    } else if (name == "%framing") {
      if (words.size() != 1 || (words[0] != "ndjson" && words[0] != "lsp"))
        fail(line, "%framing takes one of: ndjson, lsp");
      fixture_.framing = words[0] == "lsp" ? protocol::Framing::ContentLength : protocol::Framing::Ndjson;
    } else if (name == "%modes") {
      if (words.empty()) fail(line, "%modes takes pipe, file, or both");
      fixture_.pipeMode = fixture_.fileMode = false;
      for (auto word : words) {
        if (word == "pipe")
          fixture_.pipeMode = true;
        else if (word == "file")
          fixture_.fileMode = true;
        else
          fail(line, "%modes: unknown mode '" + std::string(word) + "' (known: pipe, file)");
      }
    } else if (name == "%exit") {
      auto status = words.size() == 1 ? parseNumber<int>(words[0]) : std::nullopt;
      if (!status || *status < 0 || *status > 255) fail(line, "%exit takes an exit status from 0 to 255");
      fixture_.exitStatus = *status;
    } else if (name == "%timeout") {
      auto seconds = words.size() == 1 ? parseNumber<double>(words[0]) : std::nullopt;
      if (!seconds || !(*seconds > 0) || *seconds > 3600)
        fail(line, "%timeout takes a number of seconds (0 < S <= 3600)");
      fixture_.timeout = std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(*seconds * 1000)));
    } else if (name == "%file") {
      fileDirective(line, words);
    } else if (name == "%symlink") {
      symlinkDirective(line, rest);
    } else if (name == "%skip") {
      if (words.size() != 1) fail(line, "%skip takes one method name: %skip tool/progress");
      fixture_.skippedNotifications.emplace_back(words[0]);
    } else if (name == "%stderr") {
      if (rest.empty()) fail(line, "%stderr needs a regular expression");
      try {
        Regex check(rest);
      } catch (const RegexError& e) {
        fail(line, std::string("%stderr: ") + e.what());
      }
      fixture_.stderrExpectations.push_back({std::string(rest), line});
    } else {
      fail(line, "unknown directive '" + std::string(name) +
                     "' (known: %args, %env, %framing, %modes, %exit, %timeout, %file, %symlink, %skip, %stderr)");
    }
  }

  /// %args and %env are substituted before toold starts, when only the directories are known.
  void checkDirectoryReferences(int line, const std::string& directive, std::string_view text) const {
    for (const auto& name : referencedCaptures(text))
      if (!isDirectoryName(name))
        fail(line, directive + ": ${" + name +
                       "} is not known before toold starts (only ${workspace}, ${data} and ${outside} are)");
  }

  void envDirective(int line, std::string_view rest) {
    const std::size_t equals = rest.find('=');
    // The rule for capture names is the shell's for variable names.
    if (equals == std::string_view::npos || !isCaptureName(rest.substr(0, equals)))
      fail(line, "%env takes a variable name, '=' and the value: %env HOME=${outside}");
    const std::string_view value = rest.substr(equals + 1);
    checkDirectoryReferences(line, "%env", value);
    fixture_.environment.push_back({std::string(rest.substr(0, equals)), std::string(value)});
  }

  /// Where a %file or %symlink PATH goes: the workspace, or the directory its prefix names.
  /// Refused when it could land outside that directory.
  std::pair<ScratchArea, std::string> scratchPath(int line, const std::string& directive, std::string_view path) const {
    static const std::pair<std::string_view, ScratchArea> kPrefixes[] = {{"${workspace}/", ScratchArea::Workspace},
                                                                         {"${data}/", ScratchArea::Data},
                                                                         {"${outside}/", ScratchArea::Outside}};
    ScratchArea area = ScratchArea::Workspace;
    std::string where = "the workspace";
    for (const auto& [prefix, prefixArea] : kPrefixes) {
      if (!path.starts_with(prefix)) continue;
      area = prefixArea;
      where = prefix.substr(0, prefix.size() - 1);
      path.remove_prefix(prefix.size());
    }
    if (path.empty()) fail(line, directive + ": the path names no file inside " + where);
    if (path.starts_with("/"))
      fail(line, directive + ": the path must be relative to the workspace, or start with ${data}/ or ${outside}/");
    for (auto part : splitPath(path))
      if (part == "..") fail(line, directive + ": the path must stay inside " + where + " (no '..')");
    return {area, std::string(path)};
  }

  void fileDirective(int line, const std::vector<std::string_view>& words) {
    if (words.size() != 2 || !words[1].starts_with("<<") || words[1].size() == 2)
      fail(line, "%file takes a relative path and a here-document tag: %file dir/name.txt <<EOF");
    auto [area, path] = scratchPath(line, "%file", words[0]);
    const std::string_view tag = words[1].substr(2);
    std::string content;
    for (;;) {
      if (next_ >= lines_.size()) fail(line, "%file: no line '" + std::string(tag) + "' ends the here-document");
      const std::string_view body = lines_[next_++];
      if (body == tag) break;
      content.append(body);
      content.push_back('\n');
    }
    fixture_.files.push_back({area, std::move(path), std::move(content), line});
  }

  void symlinkDirective(int line, std::string_view rest) {
    // The target is the rest of the line, taken literally: it may name anything, or nothing.
    const std::size_t pathEnd = std::min(rest.find_first_of(" \t"), rest.size());
    const std::string_view target = trim(rest.substr(pathEnd));
    if (target.empty()) fail(line, "%symlink takes a path and the link's target: %symlink link ${outside}/secret");
    auto [area, path] = scratchPath(line, "%symlink", rest.substr(0, pathEnd));
    fixture_.symlinks.push_back({area, std::move(path), std::string(target), line});
  }

  static std::vector<std::string_view> splitPath(std::string_view path) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
      std::size_t end = std::min(path.find('/', start), path.size());
      parts.push_back(path.substr(start, end - start));
      start = end + 1;
    }
    return parts;
  }

  // ---- steps ----

  void step(int line, std::string_view content) {
    if (within_.count() != 0 && !content.starts_with("<"))
      fail(withinLine_, "within must be followed by an expectation ('<' or '<*')");
    if (content.starts_with(">raw") && (content.size() == 4 || isBlank(content[4]) || content[4] == '"')) {
      return sendRaw(line, content.substr(4));
    }
    if (content.starts_with("<*")) return expect(line, content.substr(2), 2, true);
    if (content.starts_with(">")) return send(line, content.substr(1));
    if (content.starts_with("<")) return expect(line, content.substr(1), 1, false);
    const auto words = splitWords(content);
    if (words[0] == "wait") {
      auto ms = words.size() == 2 ? parseNumber<int>(words[1]) : std::nullopt;
      if (!ms || *ms < 0) fail(line, "wait takes a number of milliseconds: wait 20");
      Step step = makeStep(Step::Kind::Wait, line);
      step.wait = std::chrono::milliseconds(*ms);
      return add(std::move(step));
    }
    if (words[0] == "within") {
      auto ms = words.size() == 2 ? parseNumber<int>(words[1]) : std::nullopt;
      if (!ms || *ms <= 0) fail(line, "within takes a number of milliseconds above 0: within 50");
      within_ = std::chrono::milliseconds(*ms);
      withinLine_ = line;
      return;
    }
    if (words[0] == "close") {
      if (words.size() != 1) fail(line, "close takes no arguments");
      if (closed_) fail(line, "toold's input is already closed");
      closed_ = true;
      return add(makeStep(Step::Kind::Close, line));
    }
    if (words[0] == "restart") {
      if (words.size() != 1) fail(line, "restart takes no arguments");
      fixture_.restartsToold = true;
      closed_ = false; // the new toold's input is open
      return add(makeStep(Step::Kind::Restart, line));
    }
    if (words[0] == "put" || words[0] == "check") return fileStep(line, content, words);
    if (words[0] == "signal") {
      static const std::pair<std::string_view, int> kSignals[] = {
          {"TERM", SIGTERM}, {"INT", SIGINT}, {"HUP", SIGHUP}, {"KILL", SIGKILL}};
      int number = 0;
      for (const auto& [name, value] : kSignals)
        if (words.size() == 2 && words[1] == name) number = value;
      if (number == 0) fail(line, "signal takes one of TERM, INT, HUP, KILL: signal TERM");
      fixture_.sendsSignals = true;
      Step step = makeStep(Step::Kind::Signal, line);
      step.signal = number;
      return add(std::move(step));
    }
    fail(line, "unknown step '" + std::string(words[0]) +
                   "' (expected '> JSON', '>raw \"...\"', '< PATTERN', '<* PATTERN', 'wait MS', 'within MS', 'close', "
                   "'signal NAME', 'restart', 'put PATH \"...\"', 'check PATH ...' or a %directive)");
  }

  /// `put PATH "bytes"`, `check PATH "bytes"`, `check PATH absent`, `check PATH mode 0644`.
  void fileStep(int line, std::string_view content, const std::vector<std::string_view>& words) {
    const bool put = words[0] == "put";
    const std::string usage = put ? "put takes a path and a quoted string: put src/a.txt \"one\\r\\n\""
                                  : "check takes a path and a quoted string, 'absent', 'mode' and octal bits, "
                                    "'pid-gone' or 'pid-alive': check a.txt \"x\\n\", check a.txt absent, "
                                    "check a.txt mode 0644, check server.pid pid-gone";
    if (words.size() < 3) fail(line, usage);
    auto [area, path] = scratchPath(line, std::string(words[0]), words[1]);
    Step step = makeStep(put ? Step::Kind::Put : Step::Kind::Check, line);
    step.area = static_cast<int>(area);
    step.path = std::move(path);
    const std::string_view rest = trim(content.substr(content.find(words[1]) + words[1].size()));
    if (!put && rest == "absent") {
      step.check = Step::CheckWhat::Absent;
    } else if (!put && (rest == "pid-gone" || rest == "pid-alive")) {
      step.check = rest == "pid-gone" ? Step::CheckWhat::ProcessGone : Step::CheckWhat::ProcessAlive;
    } else if (!put && words[2] == "mode") {
      unsigned mode = 0;
      auto [end, ec] = words.size() == 4 ? std::from_chars(words[3].data(), words[3].data() + words[3].size(), mode, 8)
                                         : std::from_chars_result{nullptr, std::errc::invalid_argument};
      if (ec != std::errc{} || end != words[3].data() + words[3].size() || mode > 07777) fail(line, usage);
      step.check = Step::CheckWhat::Mode;
      step.mode = mode;
    } else {
      try {
        step.bytes = decodeRawString(rest);
      } catch (const RawStringError& e) {
        fail(line, std::string(words[0]) + ": " + e.what());
      }
    }
    if (put) fixture_.putsFiles = true;
    add(std::move(step));
  }

  /// The JSON of a `>` or `<` line plus its indented continuation lines.
  /// `prefix` is how many characters of the line precede `first`: they are counted as blanks so
  /// that the column of a JSON error is the column in the file.
  json readJson(int line, std::string_view first, std::size_t prefix) {
    std::string text(prefix, ' ');
    text.append(first);
    while (next_ < lines_.size()) {
      const std::string_view candidate = lines_[next_];
      const std::string_view content = trim(candidate);
      if (content.empty() || content.front() == '#') {
        // A blank or comment line continues the JSON only if more indented lines follow.
        std::size_t ahead = next_ + 1;
        while (ahead < lines_.size() && (trim(lines_[ahead]).empty() || trim(lines_[ahead]).front() == '#')) ++ahead;
        if (ahead < lines_.size() && isBlank(lines_[ahead].front())) {
          next_ = ahead;
          continue;
        }
        break;
      }
      if (!isBlank(candidate.front())) break;
      text.push_back('\n');
      text.append(candidate);
      ++next_;
    }
    if (trim(text).empty()) fail(line, "expected JSON after the '>' or '<'");
    try {
      return json::parse(text);
    } catch (const json::exception& e) { // parse_error, and out_of_range for a number like 1e999
      fail(line, "invalid JSON: " + jsonErrorText(e) + " (line 1 is this one)");
    }
  }

  void send(int line, std::string_view rest) {
    if (closed_) fail(line, "a send after 'close': toold's input is already closed");
    json message = readJson(line, rest, 1);
    for (const auto& name : referencedCaptures(message)) {
      if (!known_.contains(name)) fail(line, "${" + name + "} is used before any pattern captures it");
      if (!isDirectoryName(name)) fixture_.sendsUseCaptures = true;
    }
    Step step = makeStep(Step::Kind::Send, line);
    step.message = std::move(message);
    add(std::move(step));
  }

  void sendRaw(int line, std::string_view rest) {
    if (closed_) fail(line, "a send after 'close': toold's input is already closed");
    try {
      std::string bytes = decodeRawString(rest);
      if (bytes.empty()) fail(line, ">raw needs at least one byte");
      Step step = makeStep(Step::Kind::SendRaw, line);
      step.bytes = std::move(bytes);
      add(std::move(step));
    } catch (const RawStringError& e) {
      // Columns count from 1 at the start of '>raw'; the leading indentation was trimmed away.
      fail(line, ">raw, column " + std::to_string(5 + e.offset) + ": " + e.what());
    }
  }

  void expect(int line, std::string_view rest, std::size_t prefix, bool unordered) {
    json pattern = readJson(line, rest, prefix);
    try {
      validatePattern(pattern);
    } catch (const PatternError& e) {
      fail(line, e.what());
    }
    std::set<std::string> references;
    patternReferences(pattern, references);
    for (const auto& name : references)
      if (!known_.contains(name)) fail(line, "${" + name + "} is used before any pattern captures it");
    for (const auto& name : capturedNames(pattern)) known_.insert(name);

    if (unordered && !fixture_.steps.empty() && fixture_.steps.back().kind == Step::Kind::Expect &&
        fixture_.steps.back().unordered) {
      fixture_.steps.back().patterns.push_back({std::move(pattern), line});
      return;
    }
    Step step = makeStep(Step::Kind::Expect, line);
    step.patterns = {Pattern{std::move(pattern), line}};
    step.unordered = unordered;
    step.within = std::exchange(within_, std::chrono::milliseconds(0));
    add(std::move(step));
  }

  void add(Step&& step) { fixture_.steps.push_back(std::move(step)); }

  std::string path_;
  std::vector<std::string_view> lines_;
  std::size_t next_ = 0;
  Fixture fixture_;
  bool closed_ = false;
  std::chrono::milliseconds within_{0};  // from a `within MS` line, for the next expectation
  int withinLine_ = 0;
  std::set<std::string> known_{kDirectoryNames.begin(), kDirectoryNames.end()};
};

} // namespace

Fixture parseFixture(std::string_view text, const std::string& path) { return Parser(text, path).parse(); }

Fixture loadFixture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FixtureError(path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parseFixture(text.str(), path);
}

} // namespace toold::fixture
