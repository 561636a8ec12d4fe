// What the edit matcher's steps share: the file and the find as lines (with comparison keys built
// on demand), the work budget of one plan, and a match as a step reports it. Private to
// builtins/edit.
#pragma once

#include "builtins/edit/edit_matcher.h"
#include "builtins/edit/indentation.h"
#include "builtins/edit/line_text.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins::edit {

// What one plan may spend on degenerate input (thousands of overlapping candidate windows of a
// huge find, long similar lines): each is tens of milliseconds at most.
constexpr std::size_t kLineCheckBudget = 10'000'000; // window lines compared
constexpr std::size_t kDistanceBudget = 20'000'000;  // edit-distance cells (Anchors)

/// No line: a find line that matched nothing (a blank line a blank-tolerant step skipped).
constexpr std::size_t kNoLine = static_cast<std::size_t>(-1);

/// The file as lines, with comparison keys and rolling-hash prefixes built per level on demand.
class FileIndex {
public:
  explicit FileIndex(std::string_view text);

  std::string_view text() const { return text_; }
  std::size_t count() const { return split_.lines.size(); }
  const std::vector<std::string_view>& lines() const { return split_.lines; }
  std::span<const LineShape> shapes(std::size_t first, std::size_t lineCount) const {
    return std::span<const LineShape>(shapes_).subspan(first, lineCount);
  }
  const LineShape& shape(std::size_t line) const { return shapes_[line]; }
  std::size_t begin(std::size_t line) const { return starts_[line]; }
  std::size_t end(std::size_t line) const { return starts_[line] + split_.lines[line].size(); }
  bool hasNewline(std::size_t line) const { return line + 1 < count() || split_.endsWithNewline; }
  /// 1-based number of the line holding byte `offset`.
  int lineNumberAt(std::size_t offset) const;
  /// The indices of the lines that are not blank, in order.
  const std::vector<std::size_t>& nonBlank();

  const std::vector<std::string>& keys(LineLevel level);
  /// prefix[k] = hash of the keys of lines [0, k); a window's hash is prefix[i+n] − prefix[i]·Bⁿ.
  const std::vector<std::uint64_t>& prefixHashes(LineLevel level);

private:
  std::string_view text_;
  SplitLines split_;
  std::vector<std::size_t> starts_;
  std::vector<LineShape> shapes_;
  std::optional<std::vector<std::size_t>> nonBlank_;
  std::array<std::optional<std::vector<std::string>>, kLineLevels> keys_;
  std::array<std::optional<std::vector<std::uint64_t>>, kLineLevels> prefixes_;
};

inline constexpr std::uint64_t kHashBase = 1000003;
std::uint64_t hashKey(std::string_view key);

/// The find as lines (its final empty element dropped when it ends with '\n').
struct Find {
  std::vector<std::string_view> lines;
  bool endsWithNewline = false;
  std::vector<LineShape> shapes;
  bool hasText = false; ///< some line is not blank: a blank-only find never matches by lines

  Find(std::vector<std::string_view> findLines, bool endsWithNewlineChar);
};

Find makeFind(std::string_view text);

/// When it runs out, a step that has already found two spans is ambiguous anyway (and reports the
/// ones it found); otherwise the plan gives up as NotFound rather than guess.
struct Budget {
  std::size_t lineChecks = kLineCheckBudget;
  std::size_t distanceCells = kDistanceBudget;
  bool exhausted = false;

  /// Charges `lines` line comparisons; false when the budget does not cover them.
  bool charge(std::size_t lines) {
    if (lines > lineChecks) return false;
    lineChecks -= lines;
    return true;
  }
};

/// How the lines of `newString` that are not kept from the file get their indentation.
enum class Reindent {
  Verbatim,  ///< as the model wrote them
  Shift,     ///< the uniform shift (`Match::shift`), as the find needed
  Scale,     ///< the scaling of levels (`Match::scale`), as the find needed
  Neighbour, ///< the find's indentation was lost: each takes the file's indentation of its neighbour
};

struct Match {
  MatchedSpan span;
  std::unique_ptr<IndentShift> shift; ///< set when the replacement must be shifted (rare: kept small)
  std::unique_ptr<IndentScale> scale; ///< set when the find's levels were scaled
  Reindent reindent = Reindent::Verbatim;
  /// Which file line each find line matched, for a line step (see fileLinesOf); kept as two
  /// numbers rather than a list, so that 100,000 matches of a long find cost no more than a few.
  enum class Lines { None, Window, NonBlank } lines = Lines::None;
  /// Window: the window's first line. NonBlank: the position in FileIndex::nonBlank() of the
  /// file line the find's first non-blank line matched.
  std::size_t firstLine = 0;
  bool dropFinalNewline = false; ///< the find ends with '\n' but the window's last line has none
  std::size_t differing = 0;     ///< Anchors: middle lines that differ
};

/// A match of the window of `lineCount` lines from `first`, each find line on the window's line.
Match windowMatch(const FileIndex& file, std::size_t first, std::size_t lineCount, bool findEndsWithNewline);

/// Per find line, the file line it matched (kNoLine for a blank line a blank-tolerant step
/// skipped); empty for a match that is not by lines (exact, fragment). Lines newString keeps from
/// oldString are written as these file lines.
std::vector<std::size_t> fileLinesOf(const Match& match, FileIndex& file, const Find& find);

/// What a step returns when the budget ran out with `found` spans so far.
std::vector<Match> outOfBudget(std::vector<Match>& found, bool nonOverlapping, Budget& budget);

} // namespace toold::builtins::edit
