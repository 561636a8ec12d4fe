#include "builtins/edit/edit_matcher.h"

#include "builtins/edit/closest_block.h"
#include "builtins/edit/file_index.h"
#include "builtins/edit/fragment_match.h"
#include "builtins/edit/indentation.h"
#include "builtins/edit/kept_lines.h"
#include "builtins/edit/line_text.h"
#include "builtins/edit/match_steps.h"

#include <algorithm>
#include <array>
#include <memory>
#include <span>

namespace toold::builtins {

namespace {

using edit::Budget;
using edit::FileIndex;
using edit::Find;
using edit::IndentRule;
using edit::LineLevel;
using edit::Match;
using edit::Reindent;
using edit::SplitLines;

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
  const Find* find = nullptr;        // the find the step matched (its lines for kept lines)
  std::size_t leadingBlankLines = 0; // removed from the find's ends, so from newString's too
  std::size_t trailingBlankLines = 0;
  std::string_view findText;         // Fragment: oldString, for the whitespace at its ends
};

// How a line of newString that is not kept gets the file's indentation for `match`.
edit::IndentNewLine indenter(const Match& match, const std::vector<std::size_t>& fileLines, const FileIndex& file,
                            const Find& find) {
  return [&match, &fileLines, &file, &find](std::string_view line, std::size_t previousFile, std::size_t previousFind,
                                            std::size_t nextFile) -> std::string {
    switch (match.reindent) {
    case Reindent::Verbatim: return std::string(line);
    case Reindent::Shift: return edit::reindentLine(line, *match.shift);
    case Reindent::Scale: return edit::reindentLine(line, *match.scale);
    case Reindent::Neighbour: {
      std::size_t neighbour = previousFile != edit::kNoLine ? previousFile : nextFile;
      if (neighbour == edit::kNoLine) {
        // Nothing kept: the replaced block's first line is the neighbour.
        const auto first = std::find_if(fileLines.begin(), fileLines.end(),
                                        [](std::size_t fileLine) { return fileLine != edit::kNoLine; });
        if (first == fileLines.end()) return std::string(line);
        neighbour = *first;
      }
      const std::string_view indent = edit::leadingIndent(line);
      std::string out(edit::leadingIndent(file.lines()[neighbour]));
      // Indentation the model gave the line beyond its neighbour's (a line nested under it) is kept.
      if (previousFile != edit::kNoLine) {
        const std::string_view findIndent = edit::leadingIndent(find.lines[previousFind]);
        if (indent.size() > findIndent.size() && indent.starts_with(findIndent)) out += indent.substr(findIndent.size());
      }
      return out + std::string(line.substr(indent.size()));
    }
    }
    return std::string(line);
  };
}

// newString without the whitespace oldString had at its start and end (a fragment's match starts
// and ends at text).
std::string trimLikeFind(std::string_view replacement, std::string_view find) {
  std::size_t lead = 0;
  while (lead < find.size() && lead < replacement.size() && find[lead] == replacement[lead] &&
         (edit::isSpaceChar(find[lead]) || find[lead] == '\n'))
    ++lead;
  replacement.remove_prefix(lead);
  find.remove_prefix(std::min(lead, find.size()));
  std::size_t trail = 0;
  while (trail < find.size() && trail < replacement.size() &&
         find[find.size() - 1 - trail] == replacement[replacement.size() - 1 - trail] &&
         (edit::isSpaceChar(find[find.size() - 1 - trail]) || find[find.size() - 1 - trail] == '\n'))
    ++trail;
  replacement.remove_suffix(trail);
  return std::string(replacement);
}

Decision decisionOf(MatchStep step, std::string note = {}, const Find* find = nullptr, std::size_t leading = 0,
                    std::size_t trailing = 0) {
  Decision decision;
  decision.step = step;
  decision.note = std::move(note);
  decision.find = find;
  decision.leadingBlankLines = leading;
  decision.trailingBlankLines = trailing;
  return decision;
}

EditPlan decide(Decision decision, const EditRequest& request, FileIndex& file) {
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
  std::string newString(request.newString);
  if (decision.leadingBlankLines + decision.trailingBlankLines > 0) {
    newString = stripBlankEdges(newString, decision.leadingBlankLines, decision.trailingBlankLines);
  }
  if (decision.step == MatchStep::Fragment) newString = trimLikeFind(newString, decision.findText);
  const bool keepsLines = decision.find && decision.step != MatchStep::Escapes;
  std::vector<std::pair<std::size_t, std::size_t>> kept;
  if (keepsLines) kept = edit::keptLines(decision.find->lines, newString);
  for (const Match& match : matches) {
    if (!plan.spans.empty() && match.span.begin < taken) continue;
    plan.spans.push_back(match.span);
    taken = match.span.end;
    std::string replacement;
    if (keepsLines && match.lines != Match::Lines::None) {
      const std::vector<std::size_t> fileLines = edit::fileLinesOf(match, file, *decision.find);
      replacement = edit::keepFileLines(decision.find->lines, newString, kept, file.lines(), fileLines,
                                        indenter(match, fileLines, file, *decision.find));
    } else if (match.shift) {
      replacement = edit::reindent(newString, *match.shift);
    } else {
      replacement = newString;
    }
    std::string shiftNote = match.shift ? match.shift->describe() : match.scale ? match.scale->describe() : "";
    if (!shiftNote.empty() && std::find(shiftNotes.begin(), shiftNotes.end(), shiftNote) == shiftNotes.end())
      shiftNotes.push_back(std::move(shiftNote));
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

// The blank-tolerant steps after BlankLines: each compares lines with punctuation folded.
struct LooseStep {
  MatchStep step;
  LineLevel level;
  IndentRule rule;
  std::string_view note;
};

constexpr std::array<LooseStep, 3> kLooseSteps = {{
    {MatchStep::IndentScale, LineLevel::Punctuation, IndentRule::Scale, "matched with its nesting rescaled"},
    {MatchStep::LetterCase, LineLevel::Letters, IndentRule::ShiftOrScale, "matched ignoring letter case"},
    {MatchStep::IndentLost, LineLevel::Punctuation, IndentRule::Ignore,
     "matched ignoring indentation, which oldString had lost; the file's indentation is kept"},
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

EditPlan planImpl(const EditRequest& request) { // NOLINT(misc-no-recursion): once, without the mark
  if (request.oldString.empty()) return {};
  FileIndex file(request.text);
  const Find find = edit::makeFind(request.oldString);
  const bool all = request.replaceAll;
  Budget budget;
  std::optional<EditPlan> result;
  // Settles the plan when a step found anything, or gives up (NotFound) when the budget ran out.
  const auto settled = [&](std::vector<Match> matches, Decision decision) {
    if (budget.exhausted) {
      result.emplace().closest = closestBlock(file, find);
    } else if (!matches.empty()) {
      decision.matches = std::move(matches);
      result = decide(std::move(decision), request, file);
    }
    return result.has_value();
  };

  if (settled(edit::exactMatches(file, request.oldString), decisionOf(MatchStep::Exact))) return *result;
  // A byte-order mark copied into the start of oldString is not in the decoded text (the file's
  // own mark is kept apart): plan again without it, and without newString's.
  constexpr std::string_view bom = "\xEF\xBB\xBF";
  if (request.oldString.starts_with(bom)) {
    EditRequest withoutMark = request;
    // Every leading mark at once: the plan below never comes back here.
    while (withoutMark.oldString.starts_with(bom)) withoutMark.oldString.remove_prefix(bom.size());
    while (withoutMark.newString.starts_with(bom)) withoutMark.newString.remove_prefix(bom.size());
    if (withoutMark.oldString.empty()) return {};
    EditPlan plan = planImpl(withoutMark);
    if (plan.outcome == EditPlan::Outcome::Applied) {
      const std::string_view note = "ignoring the byte-order mark at the start of oldString";
      plan.note = plan.note.empty() ? "matched " + std::string(note) : plan.note + "; " + std::string(note);
    }
    return plan;
  }
  for (const LineStep& step : std::span(kLineSteps).first(3)) {
    if (settled(edit::lineMatches(file, find, step.level, all, budget), decisionOf(step.step, std::string(step.note), &find)))
      return *result;
  }
  if (const std::optional<std::string> unescaped = edit::unescape(request.oldString)) {
    const std::string_view note = "matched after unescaping oldString's \\n, \\t, \\\" …";
    if (settled(edit::exactMatches(file, *unescaped), decisionOf(MatchStep::Escapes, std::string(note)))) return *result;
    const Find unescapedFind = edit::makeFind(*unescaped);
    for (const LineStep& step : std::span(kLineSteps).first(3)) {
      if (settled(edit::lineMatches(file, unescapedFind, step.level, all, budget),
                  decisionOf(MatchStep::Escapes, joinNotes(note, step.note), &unescapedFind))) {
        return *result;
      }
    }
  }
  const LineStep& punctuation = kLineSteps[3];
  if (settled(edit::lineMatches(file, find, punctuation.level, all, budget),
              decisionOf(punctuation.step, std::string(punctuation.note), &find))) {
    return *result;
  }
  // From here on blank lines anywhere in the find or the file are ignored; the find's edge blank
  // lines are dropped, and as many from newString's ends.
  std::size_t leading = 0;
  std::size_t trailing = 0;
  const Find trimmed = withoutBlankEdges(find, leading, trailing);
  for (const LineStep& step : kLineSteps) {
    const std::string note =
        joinNotes("matched ignoring blank lines", step.level == LineLevel::TrailingSpace ? "" : step.note);
    if (settled(edit::blankTolerantMatches(file, trimmed, step.level, IndentRule::Shift, all, budget),
                decisionOf(MatchStep::BlankLines, note, &trimmed, leading, trailing))) {
      return *result;
    }
  }
  for (const LooseStep& step : kLooseSteps) {
    if (settled(edit::blankTolerantMatches(file, trimmed, step.level, step.rule, all, budget),
                decisionOf(step.step, std::string(step.note), &trimmed, leading, trailing))) {
      return *result;
    }
  }
  Decision fragment = decisionOf(MatchStep::Fragment, "matched ignoring whitespace in and around the text");
  fragment.findText = request.oldString;
  if (settled(edit::fragmentMatches(file, request.oldString), std::move(fragment))) {
    return *result;
  }
  std::vector<MatchedSpan> nearMisses;
  std::vector<Match> anchored = edit::anchorMatches(file, find, all, budget, nearMisses);
  std::string note = "matched by its first and last lines";
  if (anchored.size() == 1) {
    if (!nearMisses.empty() && !all) {
      // Another window with the same anchors comes close: the model may have meant either.
      EditPlan ambiguous;
      ambiguous.outcome = EditPlan::Outcome::Ambiguous;
      ambiguous.step = MatchStep::Anchors;
      ambiguous.spans.push_back(anchored.front().span);
      ambiguous.spans.insert(ambiguous.spans.end(), nearMisses.begin(), nearMisses.end());
      std::sort(ambiguous.spans.begin(), ambiguous.spans.end(),
                [](const MatchedSpan& a, const MatchedSpan& b) { return a.begin < b.begin; });
      return ambiguous;
    }
    note += "; " + std::to_string(anchored.front().differing) + " of " + std::to_string(find.lines.size() - 2) +
            " middle lines differ";
  }
  if (settled(std::move(anchored), decisionOf(MatchStep::Anchors, std::move(note), &find))) return *result;
  EditPlan notFound;
  notFound.closest = closestBlock(file, find);
  return notFound;
}

std::string lineRange(const MatchedSpan& span) {
  if (span.lastLine <= span.firstLine) return std::to_string(span.firstLine);
  return std::to_string(span.firstLine) + "-" + std::to_string(span.lastLine);
}

// What a step tolerated, for the ambiguity message: "… matches it only <this>".
std::string_view tolerance(MatchStep step) {
  switch (step) {
  case MatchStep::Exact: return "as written";
  case MatchStep::TrailingSpace: return "when trailing whitespace is ignored";
  case MatchStep::Indentation: return "with its indentation shifted";
  case MatchStep::InnerSpace: return "when whitespace inside lines is ignored";
  case MatchStep::Escapes: return "once its escape sequences are decoded";
  case MatchStep::Punctuation: return "once typographic quotes, dashes, arrows and spaces are folded to ASCII";
  case MatchStep::BlankLines: return "when blank lines are ignored";
  case MatchStep::IndentScale: return "with its nesting rescaled";
  case MatchStep::LetterCase: return "when letter case is ignored";
  case MatchStep::IndentLost: return "when indentation is ignored";
  case MatchStep::Fragment: return "when whitespace in and around it is ignored";
  case MatchStep::Anchors: return "by its first and last lines, its middle lines being similar";
  }
  return "loosely";
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
  case MatchStep::IndentScale: return "indentation scale";
  case MatchStep::LetterCase: return "letter case";
  case MatchStep::IndentLost: return "indentation lost";
  case MatchStep::Fragment: return "fragment";
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
    out += ".";
    if (plan.step != MatchStep::Exact) {
      // The model's text is close to each place but equal to none: saying how lets it quote the
      // one it means exactly in one retry.
      out += " oldString is not in " + file + " as written; each of these places matches it only " +
             std::string(tolerance(plan.step)) + ".";
    }
    out += " Provide more surrounding context to make the match unique, or set replaceAll to change every one.";
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
