#include "builtins/edit/edit_matcher.h"

#include "builtins/edit/closest_block.h"
#include "builtins/edit/indentation.h"
#include "builtins/edit/line_text.h"
#include "builtins/edit/similarity.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>

namespace toold::builtins {

namespace {

using edit::IndentShift;
using edit::LineLevel;
using edit::SplitLines;

constexpr std::uint64_t kHashBase = 1000003;
// What one plan may spend on degenerate input (thousands of overlapping candidate windows of a
// huge find, long similar lines): each is tens of milliseconds at most.
constexpr std::size_t kLineCheckBudget = 10'000'000; // window lines compared
constexpr std::size_t kDistanceBudget = 20'000'000;  // edit-distance cells (Anchors)

std::uint64_t hashKey(std::string_view key) { return static_cast<std::uint64_t>(std::hash<std::string_view>{}(key)); }

// The file as lines, with comparison keys and rolling-hash prefixes built per level on demand.
class FileIndex {
public:
  explicit FileIndex(std::string_view text) : text_(text), split_(edit::splitLines(text)) {
    starts_.reserve(split_.lines.size());
    shapes_.reserve(split_.lines.size());
    for (const std::string_view line : split_.lines) {
      starts_.push_back(static_cast<std::size_t>(line.data() - text_.data()));
      shapes_.push_back(edit::lineShape(line));
    }
  }

  std::string_view text() const { return text_; }
  std::size_t count() const { return split_.lines.size(); }
  const std::vector<std::string_view>& lines() const { return split_.lines; }
  std::span<const edit::LineShape> shapes(std::size_t first, std::size_t lineCount) const {
    return std::span<const edit::LineShape>(shapes_).subspan(first, lineCount);
  }
  std::size_t begin(std::size_t line) const { return starts_[line]; }
  std::size_t end(std::size_t line) const { return starts_[line] + split_.lines[line].size(); }
  bool hasNewline(std::size_t line) const { return line + 1 < count() || split_.endsWithNewline; }

  // 1-based number of the line holding byte `offset`.
  int lineNumberAt(std::size_t offset) const {
    const auto after = std::upper_bound(starts_.begin(), starts_.end(), offset);
    return static_cast<int>(std::max<std::ptrdiff_t>(after - starts_.begin(), 1));
  }

  const std::vector<std::string>& keys(LineLevel level) {
    auto& slot = keys_[static_cast<std::size_t>(level)];
    if (!slot) {
      slot.emplace();
      slot->reserve(count());
      for (const std::string_view line : split_.lines) slot->push_back(edit::lineKey(line, level));
    }
    return *slot;
  }

  // prefix[k] = hash of the keys of lines [0, k); a window's hash is prefix[i+n] − prefix[i]·Bⁿ.
  const std::vector<std::uint64_t>& prefixHashes(LineLevel level) {
    auto& slot = prefixes_[static_cast<std::size_t>(level)];
    if (!slot) {
      const auto& lineKeys = keys(level);
      slot.emplace();
      slot->reserve(lineKeys.size() + 1);
      slot->push_back(0);
      for (const std::string& key : lineKeys) slot->push_back(slot->back() * kHashBase + hashKey(key));
    }
    return *slot;
  }

private:
  std::string_view text_;
  SplitLines split_;
  std::vector<std::size_t> starts_;
  std::vector<edit::LineShape> shapes_;
  std::array<std::optional<std::vector<std::string>>, edit::kLineLevels> keys_;
  std::array<std::optional<std::vector<std::uint64_t>>, edit::kLineLevels> prefixes_;
};

// The find as lines (its final empty element dropped when it ends with '\n').
struct Find {
  std::vector<std::string_view> lines;
  bool endsWithNewline = false;
  std::vector<edit::LineShape> shapes;
  bool hasText = false; // some line is not blank: a blank-only find never matches by lines

  Find(std::vector<std::string_view> findLines, bool endsWithNewlineChar)
      : lines(std::move(findLines)), endsWithNewline(endsWithNewlineChar) {
    for (const std::string_view line : lines) shapes.push_back(edit::lineShape(line));
    hasText = std::any_of(shapes.begin(), shapes.end(), [](const edit::LineShape& shape) { return !shape.blank; });
  }
};

Find makeFind(std::string_view text) {
  SplitLines split = edit::splitLines(text);
  return Find(std::move(split.lines), split.endsWithNewline);
}

// When it runs out, a step that has already found two spans is ambiguous anyway (and reports the
// ones it found); otherwise the plan gives up as NotFound rather than guess.
struct Budget {
  std::size_t lineChecks = kLineCheckBudget;
  std::size_t distanceCells = kDistanceBudget;
  bool exhausted = false;

  // Charges `lines` line comparisons; false when the budget does not cover them.
  bool charge(std::size_t lines) {
    if (lines > lineChecks) return false;
    lineChecks -= lines;
    return true;
  }
};

struct Match {
  MatchedSpan span;
  std::unique_ptr<IndentShift> shift; // set when the replacement must be re-indented (rare: kept small)
  bool dropFinalNewline = false;      // the find ends with '\n' but the window's last line has none
  std::size_t differing = 0;          // Anchors: middle lines that differ
};

// Every start of `pattern` in `text`, overlapping ones included (Knuth–Morris–Pratt: linear), up
// to kMaxEditMatches + 1 of them: one more than an edit may replace says "too many".
std::vector<std::size_t> occurrences(std::string_view text, std::string_view pattern) {
  std::vector<std::size_t> found;
  if (pattern.empty() || pattern.size() > text.size()) return found;
  std::vector<std::size_t> border(pattern.size(), 0);
  for (std::size_t i = 1, k = 0; i < pattern.size(); ++i) {
    while (k > 0 && pattern[i] != pattern[k]) k = border[k - 1];
    if (pattern[i] == pattern[k]) ++k;
    border[i] = k;
  }
  for (std::size_t i = 0, k = 0; i < text.size(); ++i) {
    while (k > 0 && text[i] != pattern[k]) k = border[k - 1];
    if (text[i] == pattern[k]) ++k;
    if (k == pattern.size()) {
      found.push_back(i + 1 - k);
      if (found.size() > kMaxEditMatches) break;
      k = border[k - 1];
    }
  }
  return found;
}

std::vector<Match> exactMatches(const FileIndex& file, std::string_view find) {
  std::vector<Match> out;
  for (const std::size_t begin : occurrences(file.text(), find)) {
    Match match;
    match.span = {begin, begin + find.size(), file.lineNumberAt(begin), file.lineNumberAt(begin + find.size() - 1)};
    out.push_back(std::move(match));
  }
  return out;
}

// What a step returns when the budget ran out with `found` spans so far.
std::vector<Match> outOfBudget(std::vector<Match>& found, bool nonOverlapping, Budget& budget) {
  if (!nonOverlapping && found.size() >= 2) return std::move(found);
  budget.exhausted = true;
  return {};
}

Match windowMatch(const FileIndex& file, std::size_t first, std::size_t lineCount, bool findEndsWithNewline) {
  const std::size_t last = first + lineCount - 1;
  Match match;
  match.span = {file.begin(first), file.end(last), static_cast<int>(first + 1), static_cast<int>(last + 1)};
  if (findEndsWithNewline) {
    if (file.hasNewline(last))
      ++match.span.end;
    else
      match.dropFinalNewline = true;
  }
  return match;
}

// Every window of the find's line count whose lines equal the find's at `level`, with relative
// indentation kept (identical indentation for TrailingSpace). With `nonOverlapping` (replaceAll),
// windows overlapping one already found are skipped without being compared.
std::vector<Match> lineMatches(FileIndex& file, const Find& find, LineLevel level, bool nonOverlapping,
                               Budget& budget) {
  std::vector<Match> out;
  const std::size_t n = find.lines.size();
  if (n == 0 || n > file.count() || !find.hasText) return out;
  std::vector<std::string> findKeys;
  std::uint64_t findHash = 0;
  std::uint64_t power = 1;
  for (const std::string_view line : find.lines) {
    findKeys.push_back(edit::lineKey(line, level));
    findHash = findHash * kHashBase + hashKey(findKeys.back());
    power *= kHashBase;
  }
  const auto& keys = file.keys(level);
  const auto& prefix = file.prefixHashes(level);
  for (std::size_t i = 0; i + n <= file.count(); ++i) {
    if (prefix[i + n] - prefix[i] * power != findHash) continue;
    if (!budget.charge(n)) return outOfBudget(out, nonOverlapping, budget);
    if (!std::equal(findKeys.begin(), findKeys.end(), keys.begin() + static_cast<std::ptrdiff_t>(i))) continue;
    Match match = windowMatch(file, i, n, find.endsWithNewline);
    if (level != LineLevel::TrailingSpace) {
      std::optional<IndentShift> shift = edit::matchIndentation(find.shapes, file.shapes(i, n));
      if (!shift) continue;
      if (shift->shifts()) match.shift = std::make_unique<IndentShift>(std::move(*shift));
    }
    out.push_back(std::move(match));
    if (out.size() > kMaxEditMatches) break; // decide() refuses or lists what was found
    if (nonOverlapping) i += n - 1;
  }
  return out;
}

// Windows of the find's line count whose first and last lines equal the find's (trimmed) and whose
// middle lines are close enough; never with a trivial anchor line. Edit distances are computed
// within a budget: when it runs out the step finds nothing (or, already ambiguous, what it has).
std::vector<Match> anchorMatches(FileIndex& file, const Find& find, bool nonOverlapping, Budget& budget) {
  std::vector<Match> out;
  const std::size_t n = find.lines.size();
  if (n < 3 || n > file.count()) return out;
  std::vector<std::string> findKeys;
  for (const std::string_view line : find.lines) findKeys.push_back(edit::lineKey(line, LineLevel::Trimmed));
  if (edit::isTrivialAnchor(findKeys.front()) || edit::isTrivialAnchor(findKeys.back())) return out;
  const auto& keys = file.keys(LineLevel::Trimmed);
  const std::size_t middle = n - 2;
  for (std::size_t i = 0; i + n <= file.count(); ++i) {
    if (keys[i] != findKeys.front() || keys[i + n - 1] != findKeys.back()) continue;
    if (!budget.charge(n)) return outOfBudget(out, nonOverlapping, budget);
    std::vector<std::size_t> differing;
    for (std::size_t j = 1; j + 1 < n && differing.size() <= 2; ++j) {
      if (keys[i + j] != findKeys[j]) differing.push_back(j);
    }
    if (differing.size() > 2 || (middle >= 4 && 2 * differing.size() >= middle)) continue;
    double total = static_cast<double>(middle - differing.size());
    bool similar = true;
    for (const std::size_t j : differing) {
      const std::optional<double> similarity = edit::lineSimilarity(keys[i + j], findKeys[j], budget.distanceCells);
      if (!similarity) return outOfBudget(out, nonOverlapping, budget);
      similar = similar && *similarity >= 0.5;
      total += *similarity;
    }
    if (!similar || total / static_cast<double>(middle) < 0.65) continue;
    std::optional<IndentShift> shift = edit::matchIndentation(find.shapes, file.shapes(i, n));
    if (!shift) continue;
    Match match = windowMatch(file, i, n, find.endsWithNewline);
    if (shift->shifts()) match.shift = std::make_unique<IndentShift>(std::move(*shift));
    match.differing = differing.size();
    out.push_back(std::move(match));
    if (out.size() > kMaxEditMatches) break; // decide() refuses or lists what was found
    if (nonOverlapping) i += n - 1;
  }
  return out;
}

// `text` without up to `leading` blank lines at its start and `trailing` at its end (as the find
// had), unless that would leave nothing.
std::string stripBlankEdges(std::string_view text, std::size_t leading, std::size_t trailing) {
  SplitLines split = edit::splitLines(text);
  auto& lines = split.lines;
  std::size_t first = 0;
  while (first < leading && first < lines.size() && edit::isBlank(lines[first])) ++first;
  std::size_t last = lines.size();
  while (lines.size() - last < trailing && last > first && edit::isBlank(lines[last - 1])) --last;
  if (first == last) return std::string(text);
  std::string out;
  for (std::size_t i = first; i < last; ++i) {
    out += lines[i];
    if (i + 1 < last || split.endsWithNewline) out.push_back('\n');
  }
  return out;
}

// What the deciding step found, and how its replacements are built.
struct Decision {
  MatchStep step = MatchStep::Exact;
  std::vector<Match> matches;
  std::string note;                  // what the step tolerated, before indentation notes
  std::size_t leadingBlankLines = 0; // BlankLines: removed from the find, so from newString too
  std::size_t trailingBlankLines = 0;
};

EditPlan decide(Decision decision, const EditRequest& request) {
  EditPlan plan;
  plan.step = decision.step;
  auto& matches = decision.matches;
  if (matches.size() > 1 && !request.replaceAll) {
    plan.outcome = EditPlan::Outcome::Ambiguous;
    for (const Match& match : matches) plan.spans.push_back(match.span);
    return plan;
  }
  if (matches.size() > kMaxEditMatches) {
    // Overlapping exact matches count too, so a replaceAll just past the limit may still have
    // fewer non-overlapping spans; refusing it is the cheap, safe side of that line.
    plan.outcome = EditPlan::Outcome::TooMany;
    return plan;
  }
  plan.outcome = EditPlan::Outcome::Applied;
  std::vector<std::string> shiftNotes;
  std::size_t taken = 0; // end of the last span taken: later spans must start at or after it
  // What the replacements built so far hold, and what they replaced: the result is at least the
  // one plus the text kept before the last span, so it passes the limit as soon as that does.
  std::size_t replacementBytes = 0;
  std::size_t replacedBytes = 0;
  const auto tooLarge = [&](std::size_t resultBytes) {
    EditPlan refused;
    refused.outcome = EditPlan::Outcome::TooLarge;
    refused.step = decision.step;
    refused.resultBytes = resultBytes;
    refused.maxResultBytes = request.maxResultBytes;
    return refused;
  };
  for (const Match& match : matches) {
    if (!plan.spans.empty() && match.span.begin < taken) continue;
    plan.spans.push_back(match.span);
    taken = match.span.end;
    std::string replacement(request.newString);
    if (decision.leadingBlankLines + decision.trailingBlankLines > 0) {
      replacement = stripBlankEdges(replacement, decision.leadingBlankLines, decision.trailingBlankLines);
    }
    if (match.shift) {
      replacement = edit::reindent(replacement, *match.shift);
      const std::string shiftNote = match.shift->describe();
      if (std::find(shiftNotes.begin(), shiftNotes.end(), shiftNote) == shiftNotes.end())
        shiftNotes.push_back(shiftNote);
    }
    if (match.dropFinalNewline && !replacement.empty() && replacement.back() == '\n') replacement.pop_back();
    replacementBytes += replacement.size();
    replacedBytes += match.span.end - match.span.begin;
    const std::size_t atLeast = replacementBytes + (taken - replacedBytes);
    if (atLeast > request.maxResultBytes) return tooLarge(atLeast);
    plan.replacements.push_back(std::move(replacement));
  }
  const std::size_t resultBytes = request.text.size() - replacedBytes + replacementBytes;
  if (resultBytes > request.maxResultBytes) return tooLarge(resultBytes);
  std::string& note = plan.note;
  note = std::move(decision.note);
  if (!shiftNotes.empty()) {
    if (!note.empty()) note += "; ";
    note += shiftNotes.size() == 1 ? shiftNotes.front() : "indentation adjusted to each match";
  }
  if (note.empty() && decision.step != MatchStep::Exact) note = "matched ignoring indentation";
  return plan;
}

struct LineStep {
  MatchStep step;
  LineLevel level;
  std::string_view note;
};

constexpr std::array<LineStep, 4> kLineSteps = {{
    {MatchStep::TrailingSpace, LineLevel::TrailingSpace, "matched ignoring trailing whitespace"},
    {MatchStep::Indentation, LineLevel::Trimmed, ""},
    {MatchStep::InnerSpace, LineLevel::InnerSpace, "matched ignoring whitespace inside lines"},
    {MatchStep::Punctuation, LineLevel::Punctuation, "matched ignoring typographic quotes, dashes and spaces"},
}};

// "matched after X" + "matched ignoring Y" → "matched after X, ignoring Y".
std::string joinNotes(std::string_view first, std::string_view second) {
  if (second.starts_with("matched ")) second.remove_prefix(8);
  if (second.empty()) return std::string(first);
  return std::string(first) + ", " + std::string(second);
}

// The find's lines without blank lines at either end; the counts removed.
Find withoutBlankEdges(const Find& find, std::size_t& leading, std::size_t& trailing) {
  const auto& lines = find.lines;
  leading = 0;
  while (leading < lines.size() && edit::isBlank(lines[leading])) ++leading;
  trailing = 0;
  while (trailing + leading < lines.size() && edit::isBlank(lines[lines.size() - 1 - trailing])) ++trailing;
  return Find(std::vector<std::string_view>(lines.begin() + static_cast<std::ptrdiff_t>(leading),
                                            lines.end() - static_cast<std::ptrdiff_t>(trailing)),
              find.endsWithNewline);
}

std::optional<ClosestBlock> closestBlock(FileIndex& file, const Find& find) {
  return edit::closestBlock(file.lines(), file.keys(LineLevel::Trimmed), find.lines);
}

EditPlan planImpl(const EditRequest& request) {
  if (request.oldString.empty()) return {};
  FileIndex file(request.text);
  const Find find = makeFind(request.oldString);
  const bool all = request.replaceAll;
  Budget budget;
  std::optional<EditPlan> result;
  // Settles the plan when a step found anything, or gives up (NotFound) when the budget ran out.
  const auto settled = [&](std::vector<Match> matches, MatchStep step, std::string note, std::size_t leading = 0,
                           std::size_t trailing = 0) {
    if (budget.exhausted) {
      result.emplace().closest = closestBlock(file, find);
    } else if (!matches.empty()) {
      result = decide({step, std::move(matches), std::move(note), leading, trailing}, request);
    }
    return result.has_value();
  };

  if (settled(exactMatches(file, request.oldString), MatchStep::Exact, "")) return *result;
  for (const LineStep& step : std::span(kLineSteps).first(3)) {
    if (settled(lineMatches(file, find, step.level, all, budget), step.step, std::string(step.note))) return *result;
  }
  if (const std::optional<std::string> unescaped = edit::unescape(request.oldString)) {
    const std::string_view note = "matched after unescaping oldString's \\n, \\t, \\\" …";
    if (settled(exactMatches(file, *unescaped), MatchStep::Escapes, std::string(note))) return *result;
    const Find unescapedFind = makeFind(*unescaped);
    for (const LineStep& step : std::span(kLineSteps).first(3)) {
      if (settled(lineMatches(file, unescapedFind, step.level, all, budget), MatchStep::Escapes,
                  joinNotes(note, step.note))) {
        return *result;
      }
    }
  }
  const LineStep& punctuation = kLineSteps[3];
  if (settled(lineMatches(file, find, punctuation.level, all, budget), punctuation.step,
              std::string(punctuation.note))) {
    return *result;
  }
  std::size_t leading = 0;
  std::size_t trailing = 0;
  const Find trimmed = withoutBlankEdges(find, leading, trailing);
  if (leading + trailing > 0) {
    for (const LineStep& step : kLineSteps) {
      const std::string note = joinNotes("matched ignoring blank lines at the start or end of oldString",
                                         step.level == LineLevel::TrailingSpace ? "" : step.note);
      if (settled(lineMatches(file, trimmed, step.level, all, budget), MatchStep::BlankLines, note, leading,
                  trailing)) {
        return *result;
      }
    }
  }
  std::vector<Match> anchored = anchorMatches(file, find, all, budget);
  std::string note = "matched by its first and last lines";
  if (anchored.size() == 1) {
    note += "; " + std::to_string(anchored.front().differing) + " of " + std::to_string(find.lines.size() - 2) +
            " middle lines differ";
  }
  if (settled(std::move(anchored), MatchStep::Anchors, std::move(note))) return *result;
  EditPlan notFound;
  notFound.closest = closestBlock(file, find);
  return notFound;
}

std::string lineRange(const MatchedSpan& span) {
  if (span.lastLine <= span.firstLine) return std::to_string(span.firstLine);
  return std::to_string(span.firstLine) + "-" + std::to_string(span.lastLine);
}

} // namespace

std::string_view matchStepName(MatchStep step) {
  switch (step) {
  case MatchStep::Exact: return "exact";
  case MatchStep::TrailingSpace: return "trailing whitespace";
  case MatchStep::Indentation: return "indentation";
  case MatchStep::InnerSpace: return "inner whitespace";
  case MatchStep::Escapes: return "escape sequences";
  case MatchStep::Punctuation: return "punctuation";
  case MatchStep::BlankLines: return "blank lines";
  case MatchStep::Anchors: return "anchors";
  }
  return "unknown";
}

EditPlan planEdit(const EditRequest& request) {
  try {
    return planImpl(request);
  } catch (...) {
    // Only allocation can fail; a plan that matched nothing never replaces anything.
    return EditPlan{};
  }
}

std::string describeFailure(const EditPlan& plan, std::string_view path) {
  constexpr std::string_view retry = "\n\nRead the file again and retry with the exact text.";
  const std::string file(path);
  switch (plan.outcome) {
  case EditPlan::Outcome::Applied: return {};
  case EditPlan::Outcome::NotFound: {
    std::string out =
        "Could not find oldString in " + file + ". It must match the file's text, including indentation, line by line.";
    if (const auto& block = plan.closest) {
      const int lines = block->lastLine - block->firstLine + 1;
      out += "\n\nThe most similar block is at " +
             (lines == 1 ? "line " + std::to_string(block->firstLine)
                         : "lines " + std::to_string(block->firstLine) + "-" + std::to_string(block->lastLine)) +
             " (" + std::to_string(block->equalLines) + " of " + std::to_string(lines) + " lines equal):\n" +
             block->text;
    }
    out += retry;
    return out;
  }
  case EditPlan::Outcome::Ambiguous: {
    constexpr std::size_t listed = 20;
    const std::string count = plan.spans.size() > kMaxEditMatches ? "more than " + std::to_string(kMaxEditMatches)
                                                                   : std::to_string(plan.spans.size());
    std::string out = "Found " + count + " matches for oldString in " + file + " (" +
                      std::string(matchStepName(plan.step)) + " match) at lines ";
    for (std::size_t i = 0; i < plan.spans.size() && i < listed; ++i) {
      if (i > 0) out += ", ";
      out += lineRange(plan.spans[i]);
    }
    if (plan.spans.size() > listed) out += " and " + std::to_string(plan.spans.size() - listed) + " more";
    out += ". Provide more surrounding context to make the match unique, or set replaceAll to change every one.";
    return out;
  }
  case EditPlan::Outcome::TooLarge: return describeTooLarge(plan.resultBytes, plan.maxResultBytes, path);
  case EditPlan::Outcome::TooMany:
    return "oldString occurs more than " + std::to_string(kMaxEditMatches) + " times in " + file +
           ", more than one edit replaces; nothing was changed. Make oldString longer so that it names fewer "
           "places, or make changes this large with the shell.";
  }
  return {};
}

std::string describeTooLarge(std::size_t resultBytes, std::size_t maxResultBytes, std::string_view path) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  const std::string limit = maxResultBytes % kMiB == 0 ? std::to_string(maxResultBytes / kMiB) + " MiB"
                                                       : std::to_string(maxResultBytes) + " bytes";
  return "The edit would make " + std::string(path) + " larger than " + limit + " (at least " +
         std::to_string(resultBytes) + " bytes), the limit for an edit's result; nothing was changed. Replace fewer "
         "occurrences, or make changes this large with the shell.";
}

} // namespace toold::builtins
