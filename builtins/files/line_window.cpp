#include "builtins/files/line_window.h"

#include "builtins/text/ascii_run.h"
#include "core/base/newline_count.h"

#include <xxhash.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace toold::builtins {

namespace {

constexpr std::size_t kBlockSize = std::size_t{1} << 20; // 1 MiB at most, both passes
constexpr std::size_t kMinBlockSize = 4096;

std::string systemError(int error) { return std::strerror(error); }

/// Closes the descriptor it owns.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

private:
  int fd_;
};

/// pread that retries on EINTR; the byte count, 0 at the end, or -1 with errno set.
ssize_t readAt(int fd, char* buffer, std::size_t size, std::uint64_t offset) {
  for (;;) {
    ssize_t got = ::pread(fd, buffer, size, static_cast<off_t>(offset));
    if (got >= 0 || errno != EINTR)
      return got;
  }
}

LineWindowError cancelledError(const core::CancellationToken& cancellation) {
  std::string reason = cancellation.reason();
  return LineWindowError{reason.empty() ? std::string("cancelled") : reason, true};
}

/// The streaming pass: line count, checkpoints and hash. `stable` tells whether the file stayed
/// the same version throughout (only then may the index be cached).
std::variant<LineIndex, LineWindowError> buildIndex(int fd, const FileIdentity& identity, char* buffer,
                                                    std::size_t bufferSize, const core::CancellationToken& cancellation,
                                                    bool& stable) {
  LineIndex index;
  index.identity = identity;
  const std::uint64_t bytesPerCheckpoint = LineIndex::bytesPerCheckpoint(identity.size);
  index.checkpoints.push_back(LineIndex::Checkpoint{1, 0});

  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
  if (!state || XXH3_64bits_reset(state.get()) != XXH_OK)
    return LineWindowError{systemError(ENOMEM), false};

  std::uint64_t position = 0;
  std::uint64_t newlines = 0;
  char last = '\n';
  for (;;) {
    if (cancellation.isCancelled())
      return cancelledError(cancellation);
    ssize_t got = readAt(fd, buffer, bufferSize, position);
    if (got < 0)
      return LineWindowError{systemError(errno), false};
    if (got == 0)
      break;
    const auto size = static_cast<std::size_t>(got);
    XXH3_64bits_update(state.get(), buffer, size);
    // Most 64-byte blocks hold no checkpoint: they are counted sixteen bytes at a time, and only
    // a block where the next checkpoint falls is walked newline by newline.
    const char* cursor = buffer;
    const char* end = buffer + size;
    auto walk = [&](const char* to) {
      for (; cursor < to; ++cursor) {
        if (*cursor != '\n')
          continue;
        ++newlines;
        const auto& previous = index.checkpoints.back();
        const std::uint64_t offset = position + static_cast<std::uint64_t>(cursor + 1 - buffer);
        if (newlines + 1 - previous.line >= LineIndex::kLinesPerCheckpoint ||
            offset - previous.offset >= bytesPerCheckpoint)
          index.checkpoints.push_back(LineIndex::Checkpoint{newlines + 1, offset});
      }
    };
    while (end - cursor >= 64) {
      const auto& previous = index.checkpoints.back();
      const std::size_t count = core::countNewlines64(cursor);
      const std::uint64_t blockEnd = position + static_cast<std::uint64_t>(cursor + 64 - buffer);
      if (newlines + count + 1 - previous.line < LineIndex::kLinesPerCheckpoint &&
          blockEnd - previous.offset < bytesPerCheckpoint) {
        newlines += count;
        cursor += 64;
      } else {
        walk(cursor + 64);
      }
    }
    walk(end);
    last = buffer[size - 1];
    position += size;
  }

  index.totalLines = newlines + (position > 0 && last != '\n' ? 1 : 0);
  index.contentHash = XXH3_64bits_digest(state.get());

  struct stat after {};
  stable = position == identity.size && ::fstat(fd, &after) == 0 && fileIdentity(after) == identity;
  return index;
}

/// Builds one display line from its raw bytes, fed in pieces, at the end of `text_`: decodes
/// UTF-8 (each maximal ill-formed subsequence becomes U+FFFD, as Unicode recommends), holds back
/// a '\r' until it is known not to precede the '\n', and stops keeping text past `maxChars` code
/// points. The window's lines share the one string: a string of its own per line cost an
/// allocation each, and a copy into the answer.
class LineBuilder {
public:
  LineBuilder(std::string& text, std::size_t maxChars) : maxChars_(maxChars), text_(text) {}

  /// Whether more bytes can still change the text (false once the line is known to be cut).
  bool wantsMore() const { return !cut_; }

  void feed(const char* data, std::size_t size) {
    std::size_t i = 0;
    while (i < size && !cut_) {
      if (needed_ == 0 && !pendingCr_) {
        // Most text is ASCII: a run of it (a '\r' aside) is one character per byte and appended
        // whole, as far as the character budget reaches.
        const std::size_t limit = std::min(size, i + (maxChars_ - chars_));
        const std::size_t run = plainAsciiRunEnd(data, i, limit);
        if (run > i) {
          text_.append(data + i, run - i);
          chars_ += run - i;
          i = run;
          continue;
        }
      }
      feedByte(static_cast<unsigned char>(data[i++]));
    }
  }

  /// Ends the line; `atNewline` tells whether it ended with '\n' (which drops a held '\r').
  void finish(bool atNewline) {
    if (needed_ > 0)
      emitReplacement();
    if (pendingCr_ && !atNewline)
      emit("\r", 1);
    if (cut_)
      text_ += kLineCutSuffix;
  }

private:
  void feedByte(unsigned char byte) {
    if (needed_ == 0) {
      startSequence(byte);
      return;
    }
    if (byte < lower_ || byte > upper_) {
      emitReplacement(); // the bytes so far form one ill-formed subsequence
      if (!cut_)
        startSequence(byte);
      return;
    }
    lower_ = 0x80;
    upper_ = 0xBF;
    sequence_[seen_++] = static_cast<char>(byte);
    if (seen_ == needed_ + 1) {
      const std::size_t length = seen_;
      needed_ = 0;
      seen_ = 0;
      emit(sequence_, length);
    }
  }

  void startSequence(unsigned char byte) {
    if (byte < 0x80) {
      if (byte == '\r') {
        if (pendingCr_)
          emit("\r", 1);
        pendingCr_ = true;
        return;
      }
      char ascii = static_cast<char>(byte);
      emit(&ascii, 1);
      return;
    }
    if (byte >= 0xC2 && byte <= 0xDF) {
      needed_ = 1;
    } else if (byte >= 0xE0 && byte <= 0xEF) {
      needed_ = 2;
      if (byte == 0xE0)
        lower_ = 0xA0; // no overlongs
      if (byte == 0xED)
        upper_ = 0x9F; // no surrogates
    } else if (byte >= 0xF0 && byte <= 0xF4) {
      needed_ = 3;
      if (byte == 0xF0)
        lower_ = 0x90; // no overlongs
      if (byte == 0xF4)
        upper_ = 0x8F; // nothing above U+10FFFF
    } else {
      emitReplacement();
      return;
    }
    sequence_[0] = static_cast<char>(byte);
    seen_ = 1;
  }

  void emitReplacement() {
    needed_ = 0;
    seen_ = 0;
    lower_ = 0x80;
    upper_ = 0xBF;
    emit("\xEF\xBF\xBD", 3);
  }

  /// Appends one code point's bytes, first any '\r' held back (which is a character after all).
  void emit(const char* bytes, std::size_t length) {
    if (pendingCr_ && !(length == 1 && bytes[0] == '\r')) {
      pendingCr_ = false;
      emit("\r", 1);
    }
    if (cut_)
      return;
    if (chars_ == maxChars_) {
      cut_ = true;
      return;
    }
    text_.append(bytes, length);
    ++chars_;
  }

  std::size_t maxChars_;
  std::string& text_;
  std::size_t chars_ = 0;
  bool cut_ = false;
  bool pendingCr_ = false;
  char sequence_[4] = {};
  std::size_t needed_ = 0; ///< continuation bytes the current sequence needs in all
  std::size_t seen_ = 0;   ///< bytes of the current sequence so far, its lead included
  unsigned char lower_ = 0x80;
  unsigned char upper_ = 0xBF;
};

/// The second pass: from the checkpoint before `request.offset`, skip to it and collect the window.
std::variant<LineWindow, LineWindowError> collectWindow(int fd, const LineIndex& index, const LineWindowRequest& request,
                                                        char* buffer, std::size_t bufferSize,
                                                        const core::CancellationToken& cancellation) {
  LineWindow window;
  const std::uint64_t offset = std::max<std::uint64_t>(request.offset, 1);
  window.firstLine = offset;
  window.totalLines = index.totalLines;
  window.contentHash = index.contentHash;
  window.identity = index.identity;
  if (offset > index.totalLines || request.limit == 0) {
    window.more = request.limit == 0 && offset <= index.totalLines;
    return window;
  }

  // The last checkpoint at or before the wanted line (the first one is line 1).
  auto after = std::upper_bound(index.checkpoints.begin(), index.checkpoints.end(), offset,
                                [](std::uint64_t line, const LineIndex::Checkpoint& c) { return line < c.line; });
  const auto& checkpoint = *std::prev(after);
  std::uint64_t line = checkpoint.line;
  std::uint64_t position = checkpoint.offset;
  // The first read reaches as far as the window probably needs: the lines from the checkpoint to
  // its end at the file's mean line length, half again, and a page. Most windows then take one
  // read of a few KiB rather than a block; a short guess only costs another read.
  const std::uint64_t meanLine = index.identity.size / std::max<std::uint64_t>(index.totalLines, 1) + 1;
  const std::uint64_t linesToRead = std::min(offset - line + std::min(request.limit, index.totalLines) + 1, index.totalLines + 1);
  std::size_t readSize = static_cast<std::size_t>(
      std::clamp<std::uint64_t>(linesToRead * meanLine / 2 * 3 + kMinBlockSize, kMinBlockSize, bufferSize));

  bool done = false;
  std::optional<LineBuilder> builder;
  // Room for the window as the mean line length expects it, so that it rarely grows.
  const std::uint64_t expectedLines = std::min<std::uint64_t>(std::min(request.limit, index.totalLines - offset + 1), 4096);
  window.lines.reserve(static_cast<std::size_t>(expectedLines),
                       static_cast<std::size_t>(std::min<std::uint64_t>(expectedLines * meanLine + 64, request.maxBytes + 4096)));
  std::string& text = window.lines.buffer();
  // Ends the line being built; false when it does not fit the byte budget (the window is over).
  // Ends the line whose bytes are in `text`; false when it does not fit the byte budget.
  auto closeLine = [&] {
    // The kept lines joined by "\n": their bytes, one between each two, and each one's overhead.
    const std::size_t joined =
        text.size() + window.lines.size() + (window.lines.size() + 1) * request.lineOverheadBytes;
    if (joined > request.maxBytes) {
      window.cutByBytes = true;
      window.lines.dropOpenLine();
      return false;
    }
    window.lines.endLine();
    return window.lines.size() < request.limit;
  };
  auto keepLine = [&](bool atNewline) {
    builder->finish(atNewline);
    builder.reset();
    return closeLine();
  };

  while (!done) {
    if (cancellation.isCancelled())
      return cancelledError(cancellation);
    ssize_t got = readAt(fd, buffer, readSize, position);
    readSize = bufferSize;
    if (got < 0)
      return LineWindowError{systemError(errno), false};
    if (got == 0) {
      if (builder)
        keepLine(false); // the last line, without a '\n'
      break;
    }
    const char* cursor = buffer;
    const char* end = buffer + got;
    position += static_cast<std::uint64_t>(got);
    while (cursor < end && !done) {
      if (line < offset) { // the lines before the window are only counted
        std::uint64_t remaining = offset - line;
        cursor = core::skipNewlines(cursor, end, remaining);
        line = offset - remaining;
        continue;
      }
      const auto* newline = static_cast<const char*>(std::memchr(cursor, '\n', static_cast<std::size_t>(end - cursor)));
      const char* stop = newline != nullptr ? newline : end;
      if (line >= offset) {
        // Most lines: whole in the buffer, plain ASCII without a '\r', within the character
        // budget. The builder would append their bytes as they are; so does this, without it.
        if (!builder && newline != nullptr) {
          const auto length = static_cast<std::size_t>(newline - cursor);
          if (length <= request.maxLineChars && plainAsciiRunEnd(cursor, 0, length) == length) {
            text.append(cursor, length);
            if (!closeLine())
              done = true;
            ++line;
            cursor = newline + 1;
            continue;
          }
        }
        if (!builder)
          builder.emplace(text, request.maxLineChars);
        if (builder->wantsMore())
          builder->feed(cursor, static_cast<std::size_t>(stop - cursor));
        if (newline != nullptr && !keepLine(true))
          done = true;
      }
      if (newline == nullptr)
        break;
      ++line;
      cursor = newline + 1;
    }
  }

  const std::uint64_t lastKept = offset + window.lines.size() - 1;
  window.more = window.cutByBytes || lastKept < index.totalLines;
  return window;
}

} // namespace

std::uint64_t LineIndex::bytesPerCheckpoint(std::uint64_t fileSize) {
  return std::clamp<std::uint64_t>(fileSize / 256, kMinBlockSize, kBlockSize);
}

FileIdentity fileIdentity(const struct stat& status) {
  FileIdentity id;
  id.device = static_cast<std::uint64_t>(status.st_dev);
  id.inode = static_cast<std::uint64_t>(status.st_ino);
  id.size = static_cast<std::uint64_t>(status.st_size);
  id.mtimeNs = static_cast<std::int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 + static_cast<std::int64_t>(status.st_mtim.tv_nsec);
  return id;
}

std::shared_ptr<const LineIndex> LineIndexCache::find(const std::filesystem::path& path, const FileIdentity& identity) {
  std::lock_guard lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first != path)
      continue;
    if (it->second->identity != identity) {
      entries_.erase(it); // a stale version: it will never match again
      return nullptr;
    }
    entries_.splice(entries_.begin(), entries_, it);
    return entries_.front().second;
  }
  return nullptr;
}

void LineIndexCache::store(const std::filesystem::path& path, std::shared_ptr<const LineIndex> index) {
  if (!index)
    return;
  std::lock_guard lock(mutex_);
  entries_.remove_if([&](const auto& entry) { return entry.first == path; });
  if (capacity_ == 0)
    return;
  entries_.emplace_front(path, std::move(index));
  while (entries_.size() > capacity_)
    entries_.pop_back();
}

std::variant<LineWindow, LineWindowError> readLineWindow(int fd, const std::filesystem::path& key,
                                                         const LineWindowRequest& request, LineIndexCache& cache,
                                                         const core::CancellationToken& cancellation,
                                                         const struct stat* status, std::shared_ptr<const LineIndex> index) {
  struct stat st {};
  if (status != nullptr)
    st = *status;
  else if (::fstat(fd, &st) != 0)
    return LineWindowError{systemError(errno), false};
  const FileIdentity identity = fileIdentity(st);

  // No larger than the file: most files read are far smaller than a block, and a block's worth
  // of fresh pages per read cost more than the read.
  const std::size_t bufferSize =
      static_cast<std::size_t>(std::clamp<std::uint64_t>(identity.size + 1, kMinBlockSize, kBlockSize));
  std::unique_ptr<char[]> buffer(new char[bufferSize]);
  if (!index || index->identity != identity)
    index = cache.find(key, identity);
  if (!index) {
    bool stable = false;
    auto built = buildIndex(fd, identity, buffer.get(), bufferSize, cancellation, stable);
    if (auto* error = std::get_if<LineWindowError>(&built))
      return std::move(*error);
    index = std::make_shared<const LineIndex>(std::move(std::get<LineIndex>(built)));
    if (stable)
      cache.store(key, index);
  }
  return collectWindow(fd, *index, request, buffer.get(), bufferSize, cancellation);
}

std::variant<LineWindow, LineWindowError> readLineWindow(const std::filesystem::path& path, const LineWindowRequest& request,
                                                         LineIndexCache& cache, const core::CancellationToken& cancellation) {
  FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0)
    return LineWindowError{systemError(errno), false};
  return readLineWindow(file.get(), path, request, cache, cancellation);
}

std::optional<FileIdentity> fileIdentity(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return std::nullopt;
  return fileIdentity(st);
}

std::uint64_t contentHash(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

} // namespace toold::builtins
