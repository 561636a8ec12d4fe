#include "builtins/shell/output_log.h"

#include "core/output/output_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace toold::builtins {

namespace fs = std::filesystem;

OutputLog::OutputLog(fs::path folder, std::size_t memoryBytes)
    : folder_(std::move(folder)), memoryBytes_(memoryBytes) {}

OutputLog::~OutputLog() {
  if (fd_ >= 0) ::close(fd_);
}

bool OutputLog::open() {
  if (fd_ >= 0) return true;
  if (!error_.empty()) return false;
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (ec) {
    error_ = "cannot create " + folder_.string() + ": " + ec.message();
    return false;
  }
  ::chmod(folder_.c_str(), 0700);
  auto path = folder_ / ("tool_" + core::newOutputId());
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_APPEND, 0600);
  if (fd_ < 0) {
    error_ = "cannot create " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  path_ = std::move(path);
  return true;
}

void OutputLog::writeAll(std::string_view bytes) {
  while (!bytes.empty() && error_.empty()) {
    const ssize_t written = ::write(fd_, bytes.data(), bytes.size());
    if (written < 0) {
      if (errno == EINTR) continue;
      error_ = "cannot write " + path_->string() + ": " + std::strerror(errno);
      return;
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

void OutputLog::append(std::string_view raw) {
  size_ += raw.size();
  if (fd_ < 0 && memory_.size() + raw.size() <= memoryBytes_ && error_.empty()) {
    memory_.append(raw);
    return;
  }
  if (!open()) return;
  if (!memory_.empty()) {
    writeAll(memory_);
    memory_ = std::string();
  }
  writeAll(raw);
}

std::optional<fs::path> OutputLog::persist() {
  if (!open()) return std::nullopt;
  if (!memory_.empty()) {
    writeAll(memory_);
    memory_ = std::string();
  }
  if (!error_.empty()) return std::nullopt;
  return path_;
}

void OutputLog::remove() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (path_) {
    std::error_code ec;
    fs::remove(*path_, ec);
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
