#include "builtins/text/line_script.h"

#include "core/base/newline_count.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>

namespace toold::builtins {

namespace {

using Index = std::ptrdiff_t;

/// Up to this many differing lines the edit script is jsdiff's own, choice for choice.
constexpr Index kJsdiffMaxEdits = 1000;
/// Above this many differing lines the diff stops looking for a minimal edit script: Myers'
/// search costs the square of the edit count, 2,000 about a million steps.
constexpr Index kMaxEditDistance = 2000;
/// The steps (diagonals tried plus lines slid over) all of Myers' searches of one diff may take;
/// past it, what is left is shown as removed and added. A few milliseconds' work, whatever the input.
constexpr std::int64_t kMyersStepBudget = 8'000'000;
constexpr Index kUnlimited = std::numeric_limits<Index>::max();


/// Numbers distinct lines 0, 1, 2… in the order first seen: an open-addressing table sized once
/// for all the lines, so interning a large file costs no allocation per line (a node-based map
/// made one for each, and the diff of a 10,000-line file spent most of its time there).
class LineIds {
public:
  explicit LineIds(std::size_t lines) {
    std::size_t capacity = 16;
    while (capacity < 2 * lines) capacity *= 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
  }
  int of(std::string_view line) {
    const std::size_t hash = std::hash<std::string_view>{}(line);
    for (std::size_t at = hash & mask_;; at = (at + 1) & mask_) {
      Slot& slot = slots_[at];
      if (slot.id < 0) {
        slot = Slot{hash, line, next_};
        return next_++;
      }
      if (slot.hash == hash && slot.line == line) return slot.id;
    }
  }
  int size() const { return next_; }

private:
  struct Slot {
    std::size_t hash = 0;
    std::string_view line;
    int id = -1;
  };
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  int next_ = 0;
};


/// Myers' O(ND) diff in linear space (the "middle snake" divide and conquer, as in GNU diffseq)
/// over lines interned as ints. It marks which lines of `a` are removed and which of `b` are
/// added; the unmarked lines of both match up in order. Its work is bounded (kMyersStepBudget):
/// a part of the search that would go past it is marked changed whole, which is still a correct
/// script, only not a minimal one.
class LineDiffer {
public:
  LineDiffer(const std::vector<int>& a, const std::vector<int>& b, int distinctLines)
      : removed(a.size(), 0), added(b.size(), 0), a_(a), b_(b), distinct_(distinctLines) {}

  /// Diffs all of `a` and `b`; false (nothing marked) when the edit distance is over `limit`.
  bool run(Index limit) { return compare(0, size(a_), 0, size(b_), limit); }

  /// Patience diff's anchors, then Myers between them: the lines that occur once in `a` and once
  /// in `b` (past the common prefix and suffix) are paired along their longest increasing run,
  /// and each stretch between two pairs is diffed on its own, or marked changed when that is
  /// over `limit` too. Near-linear, and close to minimal when most lines are distinct, as in code.
  void runAnchored(Index limit) {
    Index a0 = 0, a1 = size(a_), b0 = 0, b1 = size(b_);
    while (a0 < a1 && b0 < b1 && a(a0) == b(b0)) ++a0, ++b0;
    while (a0 < a1 && b0 < b1 && a(a1 - 1) == b(b1 - 1)) --a1, --b1;
    // Per line id: its count in a's range, and in b's (capped at 2), and its place in b.
    std::vector<std::uint8_t> inA(static_cast<std::size_t>(distinct_), 0);
    std::vector<std::uint8_t> inB(inA.size(), 0);
    std::vector<Index> whereInB(inA.size(), -1);
    for (Index i = a0; i < a1; ++i) inA[id(a_, i)] = static_cast<std::uint8_t>(std::min(inA[id(a_, i)] + 1, 2));
    for (Index j = b0; j < b1; ++j) {
      inB[id(b_, j)] = static_cast<std::uint8_t>(std::min(inB[id(b_, j)] + 1, 2));
      whereInB[id(b_, j)] = j;
    }
    // The longest run of unique pairs increasing in both (patience sorting, O(k log k)).
    std::vector<std::pair<Index, Index>> pairs; // (in a, in b), by a
    for (Index i = a0; i < a1; ++i)
      if (inA[id(a_, i)] == 1 && inB[id(a_, i)] == 1) pairs.emplace_back(i, whereInB[id(a_, i)]);
    std::vector<std::size_t> tails;   // per run length, the pair ending the best such run
    std::vector<std::size_t> before(pairs.size());
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const auto at = std::lower_bound(tails.begin(), tails.end(), pairs[p].second,
                                       [&](std::size_t t, Index j) { return pairs[t].second < j; });
      before[p] = at == tails.begin() ? pairs.size() : *(at - 1);
      if (at == tails.end()) tails.push_back(p); else *at = p;
    }
    std::vector<std::pair<Index, Index>> anchors;
    for (std::size_t p = tails.empty() ? pairs.size() : tails.back(); p < pairs.size(); p = before[p])
      anchors.push_back(pairs[p]);
    std::reverse(anchors.begin(), anchors.end());
    anchors.emplace_back(a1, b1); // closes the last stretch
    Index i = a0, j = b0;
    std::vector<int> surplus(inA.size(), 0);
    for (const auto& [ai, bj] : anchors) {
      if (editsAtLeast(i, ai, j, bj, surplus) > limit || !compare(i, ai, j, bj, limit)) markBox(i, ai, j, bj);
      i = ai + 1;
      j = bj + 1;
    }
  }

  std::vector<char> removed;
  std::vector<char> added;

private:
  static Index size(const std::vector<int>& v) { return static_cast<Index>(v.size()); }
  static std::size_t id(const std::vector<int>& v, Index i) { return static_cast<std::size_t>(v[static_cast<std::size_t>(i)]); }
  int a(Index i) const { return a_[static_cast<std::size_t>(i)]; }
  int b(Index j) const { return b_[static_cast<std::size_t>(j)]; }

  /// No script for the stretch has fewer edits than the lines one side has more of than the
  /// other: a search bound to go past the limit (a stretch rewritten whole) is not started.
  /// `surplus` is all zeros, per line id, and left so.
  Index editsAtLeast(Index a0, Index a1, Index b0, Index b1, std::vector<int>& surplus) const {
    for (Index i = a0; i < a1; ++i) ++surplus[id(a_, i)];
    for (Index j = b0; j < b1; ++j) --surplus[id(b_, j)];
    Index atLeast = 0;
    const auto take = [&](std::size_t line) {
      atLeast += surplus[line] < 0 ? -surplus[line] : surplus[line];
      surplus[line] = 0;
    };
    for (Index i = a0; i < a1; ++i) take(id(a_, i));
    for (Index j = b0; j < b1; ++j) take(id(b_, j));
    return atLeast;
  }

  void markBox(Index a0, Index a1, Index b0, Index b1) {
    std::fill(added.begin() + b0, added.begin() + b1, 1);
    std::fill(removed.begin() + a0, removed.begin() + a1, 1);
  }

  bool compare(Index a0, Index a1, Index b0, Index b1, Index limit) {
    while (a0 < a1 && b0 < b1 && a(a0) == b(b0)) ++a0, ++b0;
    while (a0 < a1 && b0 < b1 && a(a1 - 1) == b(b1 - 1)) --a1, --b1;
    if (a0 == a1 || b0 == b1) {
      markBox(a0, a1, b0, b1);
      return true;
    }
    Index aMid = 0;
    Index bMid = 0;
    if (!middle(a0, a1, b0, b1, limit, aMid, bMid)) return false;
    // Each half needs fewer edits than the whole, so the top-level bound covers them; only the
    // step budget can stop them, and then the half is marked changed whole.
    if (!compare(a0, aMid, b0, bMid, kUnlimited)) markBox(a0, aMid, b0, bMid);
    if (!compare(aMid, a1, bMid, b1, kUnlimited)) markBox(aMid, a1, bMid, b1);
    return true;
  }
  // A point (aMid, bMid) on a shortest edit path from (a0, b0) to (a1, b1), found by extending
  // furthest-reaching paths from both corners until they meet. The ends differ (compare strips
  // common prefix and suffix), so the search starts with no snake at either corner.
  bool middle(Index a0, Index a1, Index b0, Index b1, Index limit, Index& aMid, Index& bMid) {
    const Index diagonalMin = a0 - b1;
    const Index diagonalMax = a1 - b0;
    const Index forwardMid = a0 - b0;
    const Index backwardMid = a1 - b1;
    const bool odd = ((forwardMid - backwardMid) & 1) != 0;
    // Furthest x on each diagonal (x - y), indexed from diagonalMin - 1.
    std::vector<Index> forward(static_cast<std::size_t>(diagonalMax - diagonalMin + 3));
    std::vector<Index> backward(forward.size());
    const auto fd = [&](Index k) -> Index& { return forward[static_cast<std::size_t>(k - diagonalMin + 1)]; };
    const auto bd = [&](Index k) -> Index& { return backward[static_cast<std::size_t>(k - diagonalMin + 1)]; };
    Index fMin = forwardMid, fMax = forwardMid, bMin = backwardMid, bMax = backwardMid;
    fd(forwardMid) = a0;
    bd(backwardMid) = a1;

    for (Index cost = 1;; ++cost) {
      if (2 * cost - 1 > limit) return false;
      // Both sweeps try at most 2 * cost diagonals; the slides are counted where they happen.
      steps_ += 4 * cost;
      if (steps_ > kMyersStepBudget) return false;
      if (fMin > diagonalMin) fd(--fMin - 1) = -1; else ++fMin;
      if (fMax < diagonalMax) fd(++fMax + 1) = -1; else --fMax;
      for (Index k = fMax; k >= fMin; k -= 2) {
        const Index low = fd(k - 1);
        const Index high = fd(k + 1);
        Index x = low < high ? high : low + 1;
        Index y = x - k;
        const Index fromX = x;
        while (x < a1 && y < b1 && a(x) == b(y)) ++x, ++y;
        steps_ += x - fromX;
        fd(k) = x;
        if (odd && bMin <= k && k <= bMax && bd(k) <= x) {
          aMid = x;
          bMid = y;
          return true;
        }
      }
      if (bMin > diagonalMin) bd(--bMin - 1) = kUnlimited; else ++bMin;
      if (bMax < diagonalMax) bd(++bMax + 1) = kUnlimited; else --bMax;
      for (Index k = bMax; k >= bMin; k -= 2) {
        const Index low = bd(k - 1);
        const Index high = bd(k + 1);
        Index x = low < high ? low : high - 1;
        Index y = x - k;
        const Index fromX = x;
        while (a0 < x && b0 < y && a(x - 1) == b(y - 1)) --x, --y;
        steps_ += fromX - x;
        bd(k) = x;
        if (!odd && fMin <= k && k <= fMax && x <= fd(k)) {
          aMid = x;
          bMid = y;
          return true;
        }
      }
    }
  }

  const std::vector<int>& a_;
  const std::vector<int>& b_;
  int distinct_;
  std::int64_t steps_ = 0;
};


/// Appends `count` lines of `kind` starting at `start`, merging with the last run when it continues it.
void appendRun(std::vector<LineRun>& runs, LineRunKind kind, std::size_t start, std::size_t count) {
  if (count == 0) return;
  if (!runs.empty() && runs.back().kind == kind) {
    runs.back().count += count;
  } else {
    runs.push_back({kind, start, count});
  }
}

/// jsdiff's `diffLines` search replayed step for step (Myers' greedy forward search, with its
/// tie-breaks and its pruning of diagonals that reached an edge), so that ordinary edits get the
/// very hunks opencode would show. Every path keeps a link to the path it extends, so memory grows
/// with the square of the edit count: past `maxEdits` it gives up (false).
bool jsdiffRuns(const std::vector<int>& a, const std::vector<int>& b, std::size_t offset, Index maxEdits,
                std::vector<LineRun>& runs) {
  struct Node { // 32-bit: a search of 1,000 edits makes up to a million of them
    std::int32_t parent;
    std::int32_t x;  ///< lines of `a` consumed, after the snake
    std::int32_t y;  ///< lines of `b` consumed
  };
  const Index n = static_cast<Index>(a.size());
  const Index m = static_cast<Index>(b.size());
  const auto slide = [&](Index& x, Index& y) {
    while (x < n && y < m && a[static_cast<std::size_t>(x)] == b[static_cast<std::size_t>(y)]) ++x, ++y;
  };
  std::vector<Node> nodes;
  Index x0 = 0;
  Index y0 = 0;
  slide(x0, y0);
  nodes.push_back({-1, static_cast<std::int32_t>(x0), static_cast<std::int32_t>(y0)});
  Index done = x0 >= n && y0 >= m ? 0 : -1;

  const Index rounds = std::min(n + m, maxEdits);
  std::vector<Index> best(static_cast<std::size_t>(2 * rounds + 3), -1);  // node per diagonal x - y
  const auto at = [&](Index k) -> Index& { return best[static_cast<std::size_t>(k + rounds + 1)]; };
  at(0) = 0;
  Index minDiagonal = -rounds - 1;
  Index maxDiagonal = rounds + 1;
  for (Index d = 1; d <= rounds && done < 0; ++d) {
    for (Index k = std::max(minDiagonal, -d); k <= std::min(maxDiagonal, d); k += 2) {
      const Index removeFrom = at(k - 1);
      const Index addFrom = at(k + 1);
      if (removeFrom >= 0) at(k - 1) = -1;
      const Index addedY = addFrom >= 0 ? nodes[static_cast<std::size_t>(addFrom)].x - k : 0;
      const bool canAdd = addFrom >= 0 && addedY >= 1 && addedY <= m;
      const bool canRemove = removeFrom >= 0 && nodes[static_cast<std::size_t>(removeFrom)].x < n;
      if (!canAdd && !canRemove) {
        at(k) = -1;
        continue;
      }
      const bool add = !canRemove || (canAdd && nodes[static_cast<std::size_t>(removeFrom)].x <
                                                    nodes[static_cast<std::size_t>(addFrom)].x);
      const Index parent = add ? addFrom : removeFrom;
      Index x = nodes[static_cast<std::size_t>(parent)].x + (add ? 0 : 1);
      Index y = x - k;
      slide(x, y);
      nodes.push_back({static_cast<std::int32_t>(parent), static_cast<std::int32_t>(x), static_cast<std::int32_t>(y)});
      const auto id = static_cast<Index>(nodes.size() - 1);
      if (x >= n && y >= m) {
        done = id;
        break;
      }
      at(k) = id;
      if (x >= n) maxDiagonal = std::min(maxDiagonal, k - 1);
      if (y >= m) minDiagonal = std::max(minDiagonal, k + 1);
    }
  }
  if (done < 0) return false;

  std::vector<Index> path;
  for (Index id = done; id >= 0; id = nodes[static_cast<std::size_t>(id)].parent) path.push_back(id);
  const auto u = [](Index v) { return static_cast<std::size_t>(v); };
  appendRun(runs, LineRunKind::Equal, 0, offset + u(nodes[0].x));
  for (std::size_t i = path.size() - 1; i-- > 0;) {
    const Node& from = nodes[u(path[i + 1])];
    const Node& to = nodes[u(path[i])];
    const bool add = to.x - to.y < from.x - from.y;
    if (add) {
      appendRun(runs, LineRunKind::Added, offset + u(from.y), 1);
    } else {
      appendRun(runs, LineRunKind::Removed, offset + u(from.x), 1);
    }
    const Index snakeStart = from.x + (add ? 0 : 1);
    appendRun(runs, LineRunKind::Equal, offset + u(snakeStart), u(to.x - snakeStart));
  }
  return true;
}

/// The edit script as runs, with the removals of each change before its additions (jsdiff's order).
std::vector<LineRun> components(const std::vector<char>& removed, const std::vector<char>& added) {
  std::vector<LineRun> runs;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < removed.size() || j < added.size()) {
    if (i < removed.size() && j < added.size() && removed[i] == 0 && added[j] == 0) {
      const std::size_t start = i;
      while (i < removed.size() && j < added.size() && removed[i] == 0 && added[j] == 0) ++i, ++j;
      runs.push_back({LineRunKind::Equal, start, i - start});
      continue;
    }
    const std::size_t removedStart = i;
    while (i < removed.size() && removed[i] != 0) ++i;
    const std::size_t addedStart = j;
    while (j < added.size() && added[j] != 0) ++j;
    if (i > removedStart) runs.push_back({LineRunKind::Removed, removedStart, i - removedStart});
    if (j > addedStart) runs.push_back({LineRunKind::Added, addedStart, j - addedStart});
    if (i == removedStart && j == addedStart) break;  // unreachable: the marks always pair up
  }
  return runs;
}

} // namespace

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  lines.reserve(core::countNewlines(text.data(), text.size()) + 1); // exact: growing would double it
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

std::vector<LineRun> lineScript(const std::vector<std::string_view>& oldLines, const std::vector<std::string_view>& newLines) {
  // The common prefix is compared as text; only the lines after it are interned and diffed.
  std::size_t prefix = 0;
  while (prefix < oldLines.size() && prefix < newLines.size() && oldLines[prefix] == newLines[prefix]) ++prefix;
  // One side is all prefix (a new file, an emptied one, lines only added or cut at the end): the
  // rest of the other side is the whole script, with nothing to intern or search. A new file of
  // 10,000 lines spent 4 million instructions here.
  if (prefix == oldLines.size() || prefix == newLines.size()) {
    std::vector<char> removed(oldLines.size(), 0);
    std::vector<char> added(newLines.size(), 0);
    std::fill(removed.begin() + static_cast<Index>(prefix), removed.end(), 1);
    std::fill(added.begin() + static_cast<Index>(prefix), added.end(), 1);
    return components(removed, added);
  }
  LineIds ids(oldLines.size() + newLines.size() - 2 * prefix);
  std::vector<int> surplus; // per line id, how many more times it is in `a` than in `b`
  const auto intern = [&ids, prefix](const std::vector<std::string_view>& lines, std::vector<int>& counts, int step) {
    std::vector<int> out;
    out.reserve(lines.size() - prefix);
    for (std::size_t i = prefix; i < lines.size(); ++i) {
      const int id = ids.of(lines[i]);
      if (static_cast<std::size_t>(id) >= counts.size()) counts.resize(static_cast<std::size_t>(id) + 1, 0);
      counts[static_cast<std::size_t>(id)] += step;
      out.push_back(id);
    }
    return out;
  };
  const std::vector<int> a = intern(oldLines, surplus, 1);
  const std::vector<int> b = intern(newLines, surplus, -1);
  // No script has fewer edits than the lines one side has more of than the other: a cheap lower
  // bound that spares the searches bound to fail, as for a file rewritten whole.
  Index atLeast = 0;
  for (const int d : surplus) atLeast += d < 0 ? -d : d;

  std::vector<LineRun> runs;
  if (atLeast <= kJsdiffMaxEdits && jsdiffRuns(a, b, prefix, kJsdiffMaxEdits, runs)) return runs;
  // A large change: a minimal script in linear space (it strips the common suffix too), or,
  // past kMaxEditDistance, patience anchors with minimal scripts between them.
  LineDiffer differ(a, b, ids.size());
  if (atLeast > kMaxEditDistance || !differ.run(kMaxEditDistance)) differ.runAnchored(kMaxEditDistance);
  std::vector<char> removed(oldLines.size(), 0);
  std::vector<char> added(newLines.size(), 0);
  std::copy(differ.removed.begin(), differ.removed.end(), removed.begin() + static_cast<Index>(prefix));
  std::copy(differ.added.begin(), differ.added.end(), added.begin() + static_cast<Index>(prefix));
  return components(removed, added);
}

} // namespace toold::builtins
