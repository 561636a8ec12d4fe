#include "builtins/shell/output_log.h"

#include "core/output/output_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace toold::builtins {

namespace fs = std::filesystem;

namespace {

/// Copies `length` bytes from `from` at `offset` to the end of `to`: in the kernel when it can,
/// else through a buffer. Returns 0 or the system's error.
int copyRange(int from, std::uint64_t offset, int to, std::uint64_t length) {
  auto in = static_cast<off_t>(offset);
  while (length > 0) {
    const ssize_t copied = ::copy_file_range(from, &in, to, nullptr, static_cast<std::size_t>(length), 0);
    if (copied > 0) {
      length -= static_cast<std::uint64_t>(copied);
      continue;
    }
    if (copied < 0 && errno == EINTR) continue;
    if (copied == 0 || (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP)) return copied == 0 ? EIO : errno;
    break; // not between these files: copy by hand below
  }
  std::vector<char> buffer(std::min<std::uint64_t>(length, 1 << 20));
  while (length > 0) {
    const ssize_t got = ::pread(from, buffer.data(), std::min<std::uint64_t>(length, buffer.size()), in);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return got == 0 ? EIO : errno;
    for (std::size_t done = 0; done < static_cast<std::size_t>(got);) {
      const ssize_t put = ::write(to, buffer.data() + done, static_cast<std::size_t>(got) - done);
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) return put == 0 ? EIO : errno;
      done += static_cast<std::size_t>(put);
    }
    in += got;
    length -= static_cast<std::uint64_t>(got);
  }
  return 0;
}

/// Up to `length` bytes of `fd` at `offset` (fewer at its end, none on an error).
std::string readAt(int fd, std::uint64_t offset, std::size_t length) {
  std::string bytes(length, '\0');
  const ssize_t got = ::pread(fd, bytes.data(), length, static_cast<off_t>(offset));
  bytes.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return bytes;
}

} // namespace

OutputLog::OutputLog(fs::path folder, std::size_t memoryBytes, std::uint64_t maxFileBytes,
                     std::shared_ptr<core::OutputStore> store)
    : folder_(std::move(folder)), memoryBytes_(memoryBytes), store_(std::move(store)) {
  if (maxFileBytes > 0) {
    const auto part = core::keptPart(maxFileBytes + 1, maxFileBytes);
    headBytes_ = part.headBytes;
    ringBytes_ = part.tailBytes;
    // A bound of one byte has no room for a tail: keep that byte as the head.
    if (ringBytes_ == 0) headBytes_ = maxFileBytes;
  }
}

OutputLog::~OutputLog() {
  if (fd_ < 0) return;
  ::close(fd_);
  if (store_ && path_) store_->finished(*path_, bytesOnDisk());
}

std::uint64_t OutputLog::bytesOnDisk() const {
  if (ringBytes_ == 0 && headBytes_ > 0) return std::min(filed_, headBytes_);
  return headBytes_ == 0 ? filed_ : std::min(filed_, headBytes_ + ringBytes_);
}

std::uint64_t OutputLog::orderedBytes() const {
  if (headBytes_ == 0 || filed_ <= headBytes_ + ringBytes_) return bytesOnDisk();
  return headBytes_;
}

bool OutputLog::open() {
  if (fd_ >= 0 || finished_) return fd_ >= 0 || path_.has_value();
  if (!error_.empty()) return false;
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (ec) {
    error_ = "cannot create " + folder_.string() + ": " + ec.message();
    return false;
  }
  ::chmod(folder_.c_str(), 0700);
  auto path = folder_ / ("tool_" + core::newOutputId());
  // Read as well as written: the ring is copied out of it when the command ends.
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd_ < 0) {
    error_ = "cannot create " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  path_ = std::move(path);
  if (store_) store_->writing(*path_);
  return true;
}

void OutputLog::writeAt(std::string_view bytes, std::uint64_t offset) {
  while (!bytes.empty() && error_.empty()) {
    const ssize_t written = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (written < 0) {
      if (errno == EINTR) continue;
      error_ = "cannot write " + path_->string() + ": " + std::strerror(errno);
      return;
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
    offset += static_cast<std::uint64_t>(written);
  }
}

void OutputLog::writeToFile(std::string_view bytes) {
  while (!bytes.empty() && error_.empty()) {
    std::size_t chunk = bytes.size();
    if (headBytes_ == 0 || filed_ < headBytes_) {
      if (headBytes_ > 0) chunk = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, headBytes_ - filed_));
      writeAt(bytes.substr(0, chunk), filed_);
    } else if (ringBytes_ == 0) {
      chunk = bytes.size(); // past a head-only bound: counted, not kept
    } else {
      // Of a run longer than the ring, only its last ringBytes_ would stay.
      if (bytes.size() > ringBytes_) chunk = bytes.size() - static_cast<std::size_t>(ringBytes_);
      else {
        const std::uint64_t at = (filed_ - headBytes_) % ringBytes_;
        chunk = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, ringBytes_ - at));
        writeAt(bytes.substr(0, chunk), headBytes_ + at);
      }
    }
    filed_ += chunk;
    bytes.remove_prefix(chunk);
  }
}

void OutputLog::append(std::string_view raw) {
  size_ += raw.size();
  if (finished_) return;
  if (fd_ < 0 && memory_.size() + raw.size() <= memoryBytes_ && error_.empty()) {
    memory_.append(raw);
    return;
  }
  if (!open()) return;
  if (!memory_.empty()) {
    writeToFile(memory_);
    memory_ = std::string();
  }
  writeToFile(raw);
}

std::optional<fs::path> OutputLog::persist() {
  if (!open()) return std::nullopt;
  if (!memory_.empty()) {
    writeToFile(memory_);
    memory_ = std::string();
  }
  if (!error_.empty()) return std::nullopt;
  return path_;
}

void OutputLog::reorder() {
  const std::uint64_t wrap = (filed_ - headBytes_) % ringBytes_; // the oldest byte of the tail
  core::KeptPart part{filed_, headBytes_, ringBytes_};
  const std::size_t headEndBytes = static_cast<std::size_t>(std::min<std::uint64_t>(headBytes_, 4));
  const std::string headEnd = readAt(fd_, headBytes_ - headEndBytes, headEndBytes);
  const std::string tailStart = readAt(fd_, headBytes_ + wrap, static_cast<std::size_t>(std::min<std::uint64_t>(4, ringBytes_ - wrap)));
  part = core::onCharacterBoundaries(part, headEnd, tailStart);
  const std::uint64_t from = (wrap + (ringBytes_ - part.tailBytes)) % ringBytes_;
  const std::uint64_t first = std::min(part.tailBytes, ringBytes_ - from);
  const std::string line = core::leftOutLine(part);

  const fs::path ordered = core::orderingPathFor(*path_);
  const int out = ::open(ordered.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  int error = out < 0 ? errno : 0;
  if (error == 0) error = copyRange(fd_, 0, out, part.headBytes);
  if (error == 0 && ::write(out, line.data(), line.size()) != static_cast<ssize_t>(line.size())) error = errno ? errno : EIO;
  if (error == 0) error = copyRange(fd_, headBytes_ + from, out, first);
  if (error == 0) error = copyRange(fd_, headBytes_, out, part.tailBytes - first);
  if (out >= 0 && ::close(out) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(ordered.c_str(), path_->c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(ordered.c_str());
    // The head is in order whatever happened; the ring is not, so it goes.
    if (::ftruncate(fd_, static_cast<off_t>(headBytes_)) != 0) {}
    error_ = "cannot put the end of the output in order in " + path_->string() + ": " + std::strerror(error);
    kept_ = core::KeptPart{filed_, headBytes_, 0};
    return;
  }
  kept_ = part;
}

core::KeptPart OutputLog::finish() {
  if (finished_) return kept_;
  finished_ = true;
  kept_ = core::KeptPart{size_, size_, 0};
  if (fd_ < 0) return kept_;
  if (headBytes_ > 0 && filed_ > headBytes_ + ringBytes_ && error_.empty()) {
    if (ringBytes_ > 0) reorder();
    else kept_ = core::KeptPart{filed_, headBytes_, 0};
  }
  ::close(fd_);
  fd_ = -1;
  std::error_code ec;
  const auto onDisk = fs::file_size(*path_, ec);
  if (store_) store_->finished(*path_, ec ? bytesOnDisk() : onDisk);
  return kept_;
}

void OutputLog::remove() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (path_) {
    std::error_code ec;
    fs::remove(*path_, ec);
    if (store_) store_->forget(*path_);
  }
  memory_ = std::string();
}

LogSlice readLogSlice(const fs::path& path, std::uint64_t offset, std::size_t maxBytes, std::size_t maxLines) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot read " + path.string() + ": " + std::strerror(errno));
  struct stat info {};
  ::fstat(fd, &info);
  LogSlice slice;
  slice.fileSize = static_cast<std::uint64_t>(info.st_size);
  slice.offset = std::min(offset, slice.fileSize);
  const std::size_t want =
      static_cast<std::size_t>(std::min<std::uint64_t>(maxBytes, slice.fileSize - slice.offset));
  slice.bytes.resize(want);
  std::size_t got = 0;
  while (got < want) {
    const ssize_t n = ::pread(fd, slice.bytes.data() + got, want - got, static_cast<off_t>(slice.offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  slice.bytes.resize(got);
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = slice.bytes.find('\n', at)) != std::string::npos; ++at)
    if (++lines == maxLines) {
      slice.bytes.resize(at + 1);
      break;
    }
  if (slice.offset + slice.bytes.size() < slice.fileSize) {
    // More follows: end after the last whole line, else at a character boundary.
    const auto newline = slice.bytes.rfind('\n');
    if (newline != std::string::npos) {
      slice.bytes.resize(newline + 1);
    } else {
      // Back to the last character's lead byte; drop the character only if it is incomplete.
      const std::size_t size = slice.bytes.size();
      std::size_t lead = size;
      while (lead > 0 && size - lead < 4 && (static_cast<unsigned char>(slice.bytes[lead - 1]) & 0xC0) == 0x80) --lead;
      if (lead > 0) {
        const auto byte = static_cast<unsigned char>(slice.bytes[lead - 1]);
        const std::size_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
        if (lead - 1 + length > size && lead - 1 > 0) slice.bytes.resize(lead - 1);
      }
    }
  }
  slice.nextOffset = slice.offset + slice.bytes.size();
  return slice;
}

} // namespace toold::builtins
