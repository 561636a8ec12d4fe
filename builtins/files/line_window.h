// The `read` tool's view of a text file: a window of numbered lines, found without loading the
// file. A sparse line index (where a line starts, every 16,384 lines or every 256th of the file,
// the total line count and the content hash), built by one streaming pass and cached per file
// identity, lets a window a million lines into a 1 GiB file be read by seeking, not scanning, and
// a window of a small file without reading the rest of it.
#pragma once

#include "core/base/cancellation.h"

#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <sys/stat.h>

namespace toold::builtins {

/// What identifies one version of a file cheaply: if any of these changed, the file did.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtimeNs = 0; ///< modification time, nanoseconds since the epoch
  bool operator==(const FileIdentity&) const = default;
};

/// The result of the streaming pass over a whole file.
struct LineIndex {
  FileIdentity identity;
  std::uint64_t totalLines = 0;             ///< "a\n" is 1 line, "a" is 1, "" is 0, "a\nb" is 2
  std::uint64_t contentHash = 0;            ///< XXH3-64 of the whole file's bytes
  /// Where a line starts: the first is line 1 at offset 0, then one wherever 16,384 lines or
  /// bytesPerCheckpoint() have passed since the last, so reaching any line reads at most that
  /// much before it.
  struct Checkpoint {
    std::uint64_t line = 1;
    std::uint64_t offset = 0;
  };
  std::vector<Checkpoint> checkpoints;
  static constexpr std::uint64_t kLinesPerCheckpoint = 16384;
  /// The bytes between checkpoints: a 256th of the file, from 4 KiB to 1 MiB, so that a window of
  /// a small file reads a few KiB before it rather than the whole file, and an index stays small.
  static std::uint64_t bytesPerCheckpoint(std::uint64_t fileSize);
};

/// A small LRU of line indexes, keyed by path and valid only while the identity matches.
/// Thread-safe. The read tool stores an index only for a file it found to be text, so a hit also
/// spares it looking at the file's first bytes again.
class LineIndexCache {
public:
  explicit LineIndexCache(std::size_t capacity = 64) : capacity_(capacity) {}
  std::shared_ptr<const LineIndex> find(const std::filesystem::path& path, const FileIdentity& identity);
  void store(const std::filesystem::path& path, std::shared_ptr<const LineIndex> index);

private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::list<std::pair<std::filesystem::path, std::shared_ptr<const LineIndex>>> entries_; ///< most recent first
};

struct LineWindowRequest {
  std::uint64_t offset = 1;         ///< 1-based first line
  std::uint64_t limit = 2000;       ///< at most this many lines
  std::size_t maxLineChars = 2000;  ///< longer lines are cut here (in code points) and get `lineCutSuffix`
  std::size_t maxBytes = 51200;     ///< the kept lines' UTF-8 bytes, joined by "\n", stay within this
  /// Bytes each kept line costs beyond its text, counted against maxBytes too: what the caller
  /// puts before it (read's "N: ").
  std::size_t lineOverheadBytes = 0;
};

inline constexpr std::string_view kLineCutSuffix = "... (line truncated to 2000 chars)";

/// The lines of a window, held in one string. Each is a view into it.
class WindowLines {
public:
  std::size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  std::string_view operator[](std::size_t i) const {
    const std::size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(text_).substr(begin, ends_[i] - begin);
  }
  std::string_view front() const { return (*this)[0]; }
  std::string_view back() const { return (*this)[size() - 1]; }
  /// All lines' bytes, with nothing between them.
  std::size_t bytes() const { return text_.size(); }

  class Iterator {
  public:
    Iterator(const WindowLines& lines, std::size_t at) : lines_(&lines), at_(at) {}
    std::string_view operator*() const { return (*lines_)[at_]; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator==(const Iterator&) const = default;

  private:
    const WindowLines* lines_;
    std::size_t at_;
  };
  Iterator begin() const { return {*this, 0}; }
  Iterator end() const { return {*this, size()}; }

  friend bool operator==(const WindowLines& lines, const std::vector<std::string>& expected) {
    if (lines.size() != expected.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (lines[i] != expected[i]) return false;
    return true;
  }

  /// For the window's reader: a line's bytes are appended to buffer(), then the line is ended
  /// (kept) or dropped.
  std::string& buffer() { return text_; }
  void reserve(std::size_t lines, std::size_t bytes) {
    ends_.reserve(lines);
    text_.reserve(bytes);
  }
  void endLine() { ends_.push_back(text_.size()); }
  void dropOpenLine() { text_.resize(ends_.empty() ? 0 : ends_.back()); }

private:
  std::string text_;
  std::vector<std::size_t> ends_; ///< where each line ends in text_
};

struct LineWindow {
  std::uint64_t firstLine = 0;      ///< the number of lines.front(), = offset
  WindowLines lines;                ///< the window's lines: "\n" and a "\r" before it removed, cut, invalid UTF-8 shown as U+FFFD
  std::uint64_t totalLines = 0;     ///< of the whole file
  bool cutByBytes = false;          ///< stopped because the next line would pass maxBytes
  bool more = false;                ///< lines exist after the window (cut or limit reached)
  std::uint64_t contentHash = 0;    ///< of the whole file, as the index has it
  FileIdentity identity;            ///< of the version that was read
};

/// Why a window cannot be read: the system's reason ("Permission denied"), or cancellation.
struct LineWindowError {
  std::string message;
  bool cancelled = false;
};

/// Reads the window from the file at `path` (already resolved and known to be a regular file):
/// opens it, takes its identity with fstat, builds (or takes from `cache`) its LineIndex — one
/// streaming pass in blocks of up to 1 MiB, checking `cancellation` between blocks — then seeks to the
/// nearest checkpoint before `offset` and reads forward to the window. Memory stays bounded by
/// the block size plus the window, whatever the file size. An offset past the end yields no lines
/// (the caller reports it). Splits on "\n" only; a "\r" before it is dropped.
std::variant<LineWindow, LineWindowError> readLineWindow(const std::filesystem::path& path, const LineWindowRequest& request,
                                                         LineIndexCache& cache, const core::CancellationToken& cancellation);

/// The same over the file open at `fd` (the read tool holds it, see core/workspace/held_location.h), cached
/// under `key`, its canonical path. Reads with pread only, so the descriptor's offset is left alone.
/// `status`, when given, is the descriptor's fstat, taken just now by whoever opened it; `index`,
/// when given, is the one `cache` holds for that identity (the caller looked it up already).
std::variant<LineWindow, LineWindowError> readLineWindow(int fd, const std::filesystem::path& key,
                                                         const LineWindowRequest& request, LineIndexCache& cache,
                                                         const core::CancellationToken& cancellation,
                                                         const struct stat* status = nullptr,
                                                         std::shared_ptr<const LineIndex> index = nullptr);

/// The identity of the file whose fstat (or lstat) is `status`.
FileIdentity fileIdentity(const struct stat& status);

/// The identity of `path` now (stat, following symlinks); nullopt when it cannot be stat'ed.
std::optional<FileIdentity> fileIdentity(const std::filesystem::path& path);

/// XXH3-64 of `bytes`, the content hash read stamps and indexes use.
std::uint64_t contentHash(std::string_view bytes);

} // namespace toold::builtins
