// What the model is shown of a command's output: all of it when it fits the limits, else its head
// and its tail (errors are usually at the end, what was run at the start) with a line saying how
// much was left out between them. Fed as output arrives, it keeps memory bounded whatever the
// volume: the cleaned head (until the head's share of the limits is used), a ring of the last raw
// bytes, and counters. The tail is cleaned only when rendered.
#pragma once

#include "builtins/shell/terminal_text.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace toold::builtins {

struct DigestLimits {
  std::size_t maxLines = 2000;       ///< of the rendered text, omission line included
  std::size_t maxBytes = 50 * 1024;  ///< of the rendered text, omission line included
  /// The head's share when the output does not fit: at most this much goes before the omission.
  std::size_t headLines = 500;
  std::size_t headBytes = 10 * 1024;
  /// How many of the last raw bytes are kept for the tail (several times maxBytes, so that
  /// escape codes and redraws being cleaned away still leave a full tail).
  std::size_t tailWindowBytes = 256 * 1024;
  std::size_t maxLineBytes = 16 * 1024; ///< see TerminalCleaner
};

class OutputDigest {
public:
  explicit OutputDigest(DigestLimits limits = {});

  /// Raw output bytes, in order. O(size): a copy into the ring and a count of '\n'; the head is
  /// cleaned only until it is full.
  void append(std::string_view raw);

  std::uint64_t totalBytes() const { return totalBytes_; }
  /// Lines of the raw output: the '\n' count, plus one when it does not end with '\n'.
  std::uint64_t totalLines() const;

  struct Rendered {
    /// The cleaned text (TerminalCleaner). When it all fits maxLines/maxBytes: all of it, and
    /// `truncated` false. Else: the head (whole lines taken from the start while they fit the
    /// head's share; a first line larger than the share is cut), then the line
    /// "\n[… N lines (S) omitted …]\n" (S like "1.2 MiB" or "512 B", the raw size left out),
    /// then the tail: the last whole lines that fit what is left of maxLines/maxBytes (a last
    /// line larger than that keeps its end, starting at a UTF-8 character boundary). The tail
    /// starts at a line boundary of the raw output whenever the ring holds one after the head
    /// (one that has bytes after it: the end of the output would leave no tail).
    ///
    /// Layout when truncated: the head without its last '\n', then the omission line with both
    /// its '\n', then the tail as cleaned (ending with '\n' when the output does):
    ///   "first\nsecond\n[… 1234 lines (1.5 MiB) omitted …]\nlast but one\nlast\n"
    /// With no head line the text starts with "[…". Lines are counted like totalLines() counts
    /// them: the '\n' count, plus one when the text does not end with '\n'. N counts the raw lines
    /// not shown at all (see omittedLines), S the raw bytes between head and tail.
    std::string text;
    bool truncated = false;
    std::uint64_t omittedLines = 0; ///< raw lines not shown at all (cut lines are shown, partly)
    /// Raw bytes between the head and the tail: from the end of the head's last line to the raw
    /// start of the tail's first line (or where the tail starts when that line began before the
    /// ring; the end of the output when there is no tail).
    std::uint64_t omittedBytes = 0;
  };
  /// The model's view of everything appended so far. Does not change the digest: it may be
  /// rendered again after more is appended.
  Rendered render() const;

private:
  struct HeadLineEnd {
    std::size_t cleaned = 0;  ///< in head_, just after the line's '\n'
    std::uint64_t raw = 0;    ///< in the raw output, just after the line's '\n'
  };
  void writeRing(std::string_view raw);
  void feedHead(std::string_view raw, std::uint64_t offset);
  void acceptHeadLine(const std::string& line, std::uint64_t rawEnd);
  std::string_view ringView(std::string& scratch) const;

  DigestLimits limits_;
  TerminalCleaner headCleaner_;
  /// Cleaned whole lines of the head. The first line is kept whole even when larger than the
  /// head's share (render cuts it), so that head_ + the rest cleaned is the whole cleaned text.
  std::string head_;
  std::vector<HeadLineEnd> headLineEnds_;
  /// Closed once no more line fits the head's share, or once the line being fed to the head has
  /// more raw bytes than tailWindowBytes (it can then no longer be rendered whole, and cleaning
  /// an endless redrawn line would cost far more than the copy into the ring).
  bool headClosed_ = false;
  std::uint64_t headRawEnd_ = 0;  ///< raw offset where the head's last line ended
  std::string ring_;              ///< the last tailWindowBytes raw bytes, as a circular buffer
  std::size_t ringStart_ = 0;     ///< index in ring_ of the oldest byte once it has wrapped
  std::uint64_t totalBytes_ = 0;
  std::uint64_t newlines_ = 0;
  char lastByte_ = '\n';
};

/// "512 B", "1.5 KiB", "12.0 MiB", "1.0 GiB": one decimal in the largest unit that fits.
std::string humanSize(std::uint64_t bytes);

} // namespace toold::builtins
