#include "builtins/shell/output_digest.h"

#include "core/base/newline_count.h"

#include <algorithm>
#include <cstring>

namespace toold::builtins {

namespace {

bool isContinuation(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

std::uint64_t countNewlines(std::string_view bytes) { return core::countNewlines(bytes.data(), bytes.size()); }

/// Lines as totalLines() counts them.
std::size_t countLines(std::string_view text) {
  if (text.empty()) return 0;
  const auto newlines = static_cast<std::size_t>(countNewlines(text));
  return newlines + (text.back() == '\n' ? 0 : 1);
}

std::string omissionLine(std::uint64_t lines, std::string_view size) {
  return "[\u2026 " + std::to_string(lines) + " lines (" + std::string(size) + ") omitted \u2026]\n";
}

/// Cuts `text` to at most `maxBytes` and `maxLines`, keeping its start. Only limits too small to
/// hold the omission line get here.
void clampFromStart(std::string& text, std::size_t maxBytes, std::size_t maxLines) {
  if (maxLines == 0) {
    text.clear();
    return;
  }
  std::size_t end = std::min(text.size(), maxBytes);
  while (end > 0 && end < text.size() && isContinuation(text[end])) --end;
  std::size_t lines = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n' && ++lines == maxLines) {
      end = i + 1;
      break;
    }
  }
  text.resize(end);
}

} // namespace

/// "512 B", "1.5 KiB", "12.0 MiB", "1.0 GiB": one decimal, rounded, in the largest unit that
/// does not round to 1024 or more of it.
std::string humanSize(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB"};
  std::uint64_t unitBytes = 1024;
  for (std::size_t unit = 0;; ++unit, unitBytes *= 1024) {
    // Tenths of the unit, rounded half up, computed without overflow for any 64-bit size.
    const std::uint64_t whole = bytes / unitBytes;
    const std::uint64_t rest = bytes % unitBytes;
    const std::uint64_t tenths = whole * 10 + (rest * 10 + unitBytes / 2) / unitBytes;
    if (tenths < 10240 || unit == 2) {
      return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " " + kUnits[unit];
    }
  }
}

OutputDigest::OutputDigest(DigestLimits limits) : limits_(limits), headCleaner_(limits.maxLineBytes) {
  headClosed_ = limits_.headLines == 0 || limits_.headBytes == 0;
}

std::uint64_t OutputDigest::totalLines() const { return newlines_ + (lastByte_ == '\n' ? 0 : 1); }

void OutputDigest::append(std::string_view raw) {
  if (raw.empty()) return;
  const std::uint64_t offset = totalBytes_;
  totalBytes_ += raw.size();
  newlines_ += countNewlines(raw);
  lastByte_ = raw.back();
  writeRing(raw);
  if (!headClosed_) feedHead(raw, offset);
}

void OutputDigest::writeRing(std::string_view raw) {
  const std::size_t window = limits_.tailWindowBytes;
  if (window == 0) return;
  if (raw.size() >= window) {
    ring_.assign(raw.substr(raw.size() - window));
    ringStart_ = 0;
    return;
  }
  if (ring_.size() < window) {
    // Still filling: the ring grows with the output, so a short command allocates little.
    const std::size_t fill = std::min(raw.size(), window - ring_.size());
    ring_.append(raw.substr(0, fill));
    raw.remove_prefix(fill);
    if (raw.empty()) return;
  }
  const std::size_t first = std::min(raw.size(), window - ringStart_);
  std::memcpy(ring_.data() + ringStart_, raw.data(), first);
  std::memcpy(ring_.data(), raw.data() + first, raw.size() - first);
  ringStart_ = (ringStart_ + raw.size()) % window;
}

std::string_view OutputDigest::ringView(std::string& scratch) const {
  if (ringStart_ == 0) return ring_;
  scratch.reserve(ring_.size());
  scratch.assign(ring_, ringStart_);
  scratch.append(ring_, 0, ringStart_);
  return scratch;
}

void OutputDigest::feedHead(std::string_view raw, std::uint64_t offset) {
  std::string line;
  while (!raw.empty() && !headClosed_) {
    const void* newline = std::memchr(raw.data(), '\n', raw.size());
    if (newline == nullptr) {
      headCleaner_.feed(raw, line); // ends no line
      break;
    }
    const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - raw.data()) + 1;
    headCleaner_.feed(raw.substr(0, length), line);
    raw.remove_prefix(length);
    offset += length;
    acceptHeadLine(line, offset);
    line.clear();
  }
  if (!headClosed_ && totalBytes_ - headRawEnd_ > limits_.tailWindowBytes) headClosed_ = true;
  if (headClosed_) headCleaner_ = TerminalCleaner(limits_.maxLineBytes); // frees its line
}

void OutputDigest::acceptHeadLine(const std::string& line, std::uint64_t rawEnd) {
  if (!headLineEnds_.empty() &&
      (head_.size() + line.size() > limits_.headBytes || headLineEnds_.size() >= limits_.headLines)) {
    headClosed_ = true;
    return;
  }
  head_ += line;
  headLineEnds_.push_back({head_.size(), rawEnd});
  headRawEnd_ = rawEnd;
  if (head_.size() >= limits_.headBytes || headLineEnds_.size() >= limits_.headLines) headClosed_ = true;
}

OutputDigest::Rendered OutputDigest::render() const {
  Rendered rendered;
  std::string scratch;
  const std::string_view ring = ringView(scratch);
  const std::uint64_t ringBegin = totalBytes_ - ring.size();
  const auto ringAt = [&](std::uint64_t offset) { return static_cast<std::size_t>(offset - ringBegin); };

  // Everything is at hand when the ring still holds all that followed the head.
  if (ringBegin <= headRawEnd_) {
    std::string whole = head_ + cleanTerminalText(ring.substr(ringAt(headRawEnd_)), limits_.maxLineBytes);
    if (whole.size() <= limits_.maxBytes && countLines(whole) <= limits_.maxLines) {
      rendered.text = std::move(whole);
      return rendered;
    }
  }
  rendered.truncated = true;

  // Room for the omission line whatever its numbers turn out to be: they are at most
  // totalLines() and totalBytes_, and a size below 1024 GiB takes at most 10 characters.
  const std::size_t omissionReserve =
      1 + omissionLine(totalLines(), "").size() + std::max<std::size_t>(10, humanSize(totalBytes_).size());
  std::size_t bytesLeft = limits_.maxBytes > omissionReserve ? limits_.maxBytes - omissionReserve : 0;
  std::size_t linesLeft = limits_.maxLines > 0 ? limits_.maxLines - 1 : 0;

  // The head: whole lines while they fit; the head's part ends before its last '\n', which
  // becomes the omission line's first.
  std::size_t headShown = 0;
  std::size_t headPartBytes = 0;
  const std::size_t headByteBudget = std::min(limits_.headBytes, bytesLeft);
  const std::size_t headLineBudget = std::min(limits_.headLines, linesLeft);
  while (headShown < headLineEnds_.size() && headShown < headLineBudget &&
         headLineEnds_[headShown].cleaned - 1 <= headByteBudget) {
    headPartBytes = headLineEnds_[headShown].cleaned - 1;
    ++headShown;
  }
  if (headShown == 0 && !headLineEnds_.empty() && headLineBudget > 0) {
    // A first line larger than the head's share keeps its start.
    std::size_t cut = std::min(headLineEnds_[0].cleaned - 1, headByteBudget);
    while (cut > 0 && isContinuation(head_[cut])) --cut;
    if (cut > 0) {
      headPartBytes = cut;
      headShown = 1;
    }
  }
  const std::uint64_t headEnd = headShown > 0 ? headLineEnds_[headShown - 1].raw : 0;
  bytesLeft -= headPartBytes;
  linesLeft -= headShown;

  // Where the tail is cleaned from: right after the head when nothing was dropped since, else
  // the first line start in the ring, else (one endless line) the first character in it.
  std::uint64_t tailFrom = headEnd;
  if (ringBegin > headEnd) {
    const std::size_t newline = ring.find('\n');
    std::size_t from = 0;
    if (newline != std::string_view::npos && newline + 1 < ring.size()) {
      from = newline + 1;
    } else {
      while (from < 3 && from < ring.size() && isContinuation(ring[from])) ++from;
    }
    tailFrom = ringBegin + from;
  }
  const std::string_view tailRaw = ring.substr(ringAt(tailFrom));
  const std::string cleaned = cleanTerminalText(tailRaw, limits_.maxLineBytes);

  // The tail: the last whole lines that fit, walking back one line start at a time.
  std::size_t tailStart = cleaned.size();
  std::size_t tailLines = 0;
  while (tailStart > 0 && tailLines < linesLeft) {
    // The line ending just before tailStart: its own '\n' (if any) is at tailStart - 1.
    const std::size_t previous = tailStart >= 2 ? cleaned.rfind('\n', tailStart - 2) : std::string::npos;
    const std::size_t start = previous == std::string::npos ? 0 : previous + 1;
    if (cleaned.size() - start > bytesLeft) break;
    tailStart = start;
    ++tailLines;
  }
  if (tailLines == 0 && linesLeft > 0 && bytesLeft > 0 && !cleaned.empty()) {
    // The last line alone is too large: its end.
    tailStart = cleaned.size() - std::min(cleaned.size(), bytesLeft);
    while (tailStart < cleaned.size() && isContinuation(cleaned[tailStart])) ++tailStart;
  }
  const std::string_view tail = std::string_view(cleaned).substr(tailStart);

  // Raw lines map one to one to cleaned lines, so the tail's first line starts after as many raw
  // '\n' (from tailFrom) as there are cleaned '\n' before it.
  std::uint64_t tailRawStart = totalBytes_;
  std::uint64_t newlinesShownInTail = 0;
  if (!tail.empty()) {
    std::uint64_t newlinesBefore = countNewlines(std::string_view(cleaned).substr(0, tailStart));
    newlinesShownInTail = countNewlines(tail);
    std::size_t at = 0;
    while (newlinesBefore > 0) {
      at = tailRaw.find('\n', at) + 1;
      --newlinesBefore;
    }
    tailRawStart = tailFrom + at;
  }
  rendered.omittedBytes = tailRawStart - headEnd;
  rendered.omittedLines = newlines_ - headShown - newlinesShownInTail;
  if (tail.empty() && lastByte_ != '\n' && totalBytes_ > headEnd) ++rendered.omittedLines;

  rendered.text.reserve(headPartBytes + omissionReserve + tail.size());
  rendered.text.append(head_, 0, headPartBytes);
  if (headShown > 0) rendered.text += '\n';
  rendered.text += omissionLine(rendered.omittedLines, humanSize(rendered.omittedBytes));
  rendered.text += tail;
  clampFromStart(rendered.text, limits_.maxBytes, limits_.maxLines);
  return rendered;
}

} // namespace toold::builtins
