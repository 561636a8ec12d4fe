// Keeping the full text of truncated tool results in `<data-dir>/tool-output/`, and removing old
// ones. A file is either written whole or not at all: the marker in the model's preview names it,
// so a short file would silently lose output the model believes it can read.
#include "core/output/output_store.h"

#include <algorithm>
#include <array>
#include <optional>
#include <atomic>
#include <map>
#include <cerrno>
#include <cstdint>
#include <ctime>
#include <random>
#include <system_error>
#include <utility>

#include <spdlog/spdlog.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace toold::core {

namespace {

constexpr std::string_view kFilePrefix = "tool_";
/// The time part, as 14 hex digits: wide enough for the whole value, so ids keep sorting.
constexpr std::size_t kTimeHexDigits = 14;
constexpr std::size_t kRandomChars = 14;
/// Ids made in the same millisecond are told apart, and ordered, by the low 12 bits.
constexpr std::uint64_t kIdsPerMillisecond = 0x1000;

std::string describe(std::string_view action, const fs::path& path, int error) {
  return std::string(action) + " " + path.string() + ": " + std::generic_category().message(error);
}

/// mkdir -p with mode 0700: the folder holds tool output, which may contain secrets, so only the
/// user may list it. Directories that exist are left as they are.
void createDirectories(const fs::path& dir) {
  if (::mkdir(dir.c_str(), 0700) == 0) return;
  int error = errno;
  if (error == EEXIST) return;
  if (error == ENOENT && dir.has_parent_path() && dir.parent_path() != dir) {
    createDirectories(dir.parent_path());
    if (::mkdir(dir.c_str(), 0700) == 0) return;
    error = errno;
    if (error == EEXIST) return;
  }
  throw StorageError(describe("cannot create the tool output folder", dir, error));
}

/// Closes `fd`, removes the partial file and throws: a failed retain leaves nothing behind.
[[noreturn]] void abandonFile(int fd, const fs::path& path, int error) {
  ::close(fd);
  ::unlink(path.c_str());
  throw StorageError(describe("cannot write tool output to", path, error));
}

void writeAll(int fd, const fs::path& path, std::string_view text) {
  const char* next = text.data();
  std::size_t remaining = text.size();
  while (remaining > 0) {
    const ssize_t written = ::write(fd, next, remaining);
    if (written < 0) {
      if (errno == EINTR) continue;
      abandonFile(fd, path, errno);
    }
    // A regular file that accepts no bytes will not accept them on a retry either.
    if (written == 0) abandonFile(fd, path, EIO);
    next += written;
    remaining -= static_cast<std::size_t>(written);
  }
}

/// Milliseconds since the epoch times 0x1000, plus the ids already made in that millisecond. The
/// value only grows: after a clock step back, ids continue from the last one instead of repeating
/// or sorting before it.
std::uint64_t nextTimeValue() {
  static std::atomic<std::uint64_t> last{0};
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const std::uint64_t fromClock = static_cast<std::uint64_t>(std::max<std::int64_t>(millis, 0)) * kIdsPerMillisecond;
  std::uint64_t previous = last.load(std::memory_order_relaxed);
  std::uint64_t next = 0;
  do {
    next = std::max(fromClock, previous + 1);
  } while (!last.compare_exchange_weak(previous, next, std::memory_order_relaxed));
  return next;
}

/// The random part keeps ids of different toold processes sharing one data dir apart.
std::string randomBase62(std::size_t length) {
  static constexpr std::string_view kAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  thread_local std::mt19937_64 generator = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string chars(length, '0');
  for (auto& c : chars) c = kAlphabet[pick(generator)];
  return chars;
}

bool isRetainedFileName(const fs::path& path) {
  return path.filename().string().starts_with(kFilePrefix);
}

constexpr std::string_view kOrderingSuffix = ".ordering";

bool isOrderingFileName(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.starts_with("." + std::string(kFilePrefix)) && name.ends_with(kOrderingSuffix);
}

/// An ordering file is written and renamed within seconds; one this old was left by a toold that
/// died in between, and is not counted anywhere.
constexpr auto kOrderingLeftoverAge = std::chrono::hours(1);

/// A file found on disk that changed this recently may be another toold's log, still growing.
constexpr auto kQuietBeforeRemoval = std::chrono::minutes(1);

bool quietFor(const fs::path& path, fs::file_time_type::duration quiet) {
  std::error_code error;
  const auto modified = fs::last_write_time(path, error);
  return !error && fs::file_time_type::clock::now() - modified >= quiet;
}

/// A kept file named again has its modification time set to now, so that the age clean-up
/// counts from the output's last use; once a minute is enough for a clean-up counted in days.
constexpr std::chrono::nanoseconds kTouchEvery = std::chrono::minutes(1);
/// A change time this long before the look that saw it cannot equal a later change's: the kernel
/// stamps changes from a clock that moves in ticks of at most 10 ms (git's "racily clean" rule).
constexpr std::chrono::nanoseconds kSettledAfter = std::chrono::milliseconds(100);

std::chrono::nanoseconds sinceEpoch(const timespec& time) {
  return std::chrono::seconds(time.tv_sec) + std::chrono::nanoseconds(time.tv_nsec);
}

timespec realNow() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return now;
}

/// What `status`, taken just after `lookedAt`, says of a kept file.
KeptFileSeen seenOf(const struct stat& status, const timespec& lookedAt) {
  return KeptFileSeen{static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino),
                      status.st_ctim.tv_sec, status.st_ctim.tv_nsec,
                      sinceEpoch(lookedAt) - sinceEpoch(status.st_ctim) >= kSettledAfter};
}

/// Whether `status` shows the very file `seen` was, unchanged since, `size` bytes long.
bool unchangedSince(const struct stat& status, const KeptFileSeen& seen, std::uint64_t size) {
  return seen.settled && S_ISREG(status.st_mode) && static_cast<std::uint64_t>(status.st_size) == size &&
         static_cast<std::uint64_t>(status.st_dev) == seen.device && static_cast<std::uint64_t>(status.st_ino) == seen.inode &&
         status.st_ctim.tv_sec == seen.changedSeconds && status.st_ctim.tv_nsec == seen.changedNanoseconds;
}

bool holdsBytes(int fd, std::string_view text) {
  std::array<char, 16384> buffer; // filled by pread before it is read: zeroing it cost a 16 KiB memset a call
  for (std::size_t at = 0; at < text.size();) {
    const ssize_t got = ::pread(fd, buffer.data(), std::min(buffer.size(), text.size() - at), static_cast<off_t>(at));
    if (got <= 0) return false;
    if (text.compare(at, static_cast<std::size_t>(got), std::string_view(buffer.data(), static_cast<std::size_t>(got))) != 0)
      return false;
    at += static_cast<std::size_t>(got);
  }
  return true;
}

/// Whether the kept file `path` (a regular file, not a link) holds exactly `text` still, and what
/// was seen of it if so. A file `before` proves unchanged costs one stat; any other is read and
/// compared. Anything unexpected (the file removed, changed, unreadable) is a no: a new file is
/// written. An output named again an hour after its last write still has its age renewed.
std::optional<KeptFileSeen> stillHolds(const fs::path& path, std::string_view text, const KeptFileSeen& before) {
  struct stat status {};
  timespec lookedAt = realNow();
  if (::fstatat(AT_FDCWD, path.c_str(), &status, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
  const bool touchDue = sinceEpoch(lookedAt) - sinceEpoch(status.st_mtim) >= kTouchEvery;
  if (unchangedSince(status, before, text.size()) && !touchDue) return before;

  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  // The time is taken before the stat whose change time is kept, and the bytes are read after it.
  lookedAt = realNow();
  bool same = ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && static_cast<std::uint64_t>(status.st_size) == text.size();
  if (same && !unchangedSince(status, before, text.size())) same = holdsBytes(fd, text);
  if (same && touchDue) {
    same = ::futimens(fd, nullptr) == 0;
    lookedAt = realNow();
    same = same && ::fstat(fd, &status) == 0;
  }
  ::close(fd);
  if (!same) return std::nullopt;
  return seenOf(status, lookedAt);
}

} // namespace

std::string newOutputId() {
  static constexpr std::string_view kHexDigits = "0123456789abcdef";
  std::uint64_t value = nextTimeValue();
  std::string id(kTimeHexDigits, '0');
  for (std::size_t i = kTimeHexDigits; i-- > 0;) {
    id[i] = kHexDigits[value & 0xFU];
    value >>= 4;
  }
  return id + randomBase62(kRandomChars);
}

OutputStore::OutputStore(fs::path dataDir, RetentionLimits limits)
    : folder_(fs::absolute(std::move(dataDir)) / "tool-output"), limits_(limits), ledger_(limits.folderBytes) {}

RetainedText OutputStore::retain(std::string_view text) {
  // The same text as an output kept lately (a page read twice, a tool called again with the same
  // answer): its file is named again, once it is found to hold the text still.
  const TextHash hash = RecentOutputs::hashOf(text);
  std::optional<RecentOutputs::Entry> same;
  {
    std::lock_guard lock(mutex_);
    same = recent_.find(hash, text.size());
  }
  if (same) {
    const std::optional<KeptFileSeen> seen = stillHolds(folder_ / same->name, text, same->seen);
    std::lock_guard lock(mutex_);
    if (seen) {
      recent_.saw(same->name, *seen);
      return RetainedText{folder_ / same->name, keptPart(text.size(), text.size())};
    }
    recent_.forget(same->name);
  }
  const std::string name = std::string(kFilePrefix) + newOutputId();
  const fs::path path = folder_ / name;
  KeptPart part = keptPart(text.size(), limits_.fileBytes);
  if (!part.whole())
    part = onCharacterBoundaries(part, text.substr(part.headBytes - std::min<std::uint64_t>(part.headBytes, 4), std::min<std::uint64_t>(part.headBytes, 4)),
                                 text.substr(text.size() - part.tailBytes, std::min<std::uint64_t>(part.tailBytes, 4)));
  // O_EXCL: never overwrite or follow anything already there, even a name another toold chose.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 && errno == ENOENT) {
    // The folder is made when a file does not find it (the first time, or when it was removed
    // since): not looked for before every file, which costs a path walk per retained output.
    createDirectories(folder_);
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  }
  if (fd < 0) throw StorageError(describe("cannot create tool output file", path, errno));
  std::uint64_t written = text.size();
  if (part.whole()) {
    writeAll(fd, path, text);
  } else {
    const std::string line = leftOutLine(part);
    writeAll(fd, path, text.substr(0, part.headBytes));
    writeAll(fd, path, line);
    writeAll(fd, path, text.substr(text.size() - part.tailBytes));
    written = part.headBytes + line.size() + part.tailBytes;
  }
  // close() is where some file systems (NFS, quotas) first report a failed write.
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(path.c_str());
    throw StorageError(describe("cannot write tool output to", path, error));
  }
  std::lock_guard lock(mutex_);
  scanOnce();
  ledger_.record(name, written);
  if (part.whole()) recent_.remember(name, hash, text.size(), KeptFileSeen{}); // read and compared when next named
  evictOldest(name);
  return RetainedText{path, part};
}

void OutputStore::writing(const fs::path& path) {
  std::lock_guard lock(mutex_);
  scanOnce();
  ledger_.writing(path.filename().string());
}

void OutputStore::finished(const fs::path& path, std::uint64_t bytes) {
  const std::string name = path.filename().string();
  std::lock_guard lock(mutex_);
  scanOnce();
  ledger_.finished(name, bytes);
  evictOldest(name);
}

void OutputStore::forget(const fs::path& path) {
  std::lock_guard lock(mutex_);
  ledger_.forget(path.filename().string());
}

std::uint64_t OutputStore::keptBytes() {
  std::lock_guard lock(mutex_);
  scanOnce();
  return ledger_.total();
}

void OutputStore::scanOnce() {
  if (scanned_) return;
  scanned_ = true;
  std::map<std::string, std::uint64_t> found;
  std::error_code error;
  for (fs::directory_iterator entries(folder_, error), end; !error && entries != end; entries.increment(error)) {
    std::error_code entryError;
    if (!isRetainedFileName(entries->path()) || !fs::is_regular_file(entries->symlink_status(entryError))) continue;
    const auto size = entries->file_size(entryError);
    if (!entryError) found[entries->path().filename().string()] = size;
  }
  ledger_.resync(found);
}

void OutputStore::evictOldest(const std::string& keep) {
  const auto removable = [this](const std::string& name) { return quietFor(folder_ / name, kQuietBeforeRemoval); };
  for (const auto& name : ledger_.overBudget(keep, removable)) {
    recent_.forget(name);
    // Gone already (another toold's clean-up) is removed all the same.
    if (::unlink((folder_ / name).c_str()) != 0 && errno != ENOENT)
      spdlog::warn("tool-output: cannot remove {} to keep the folder within {} bytes: {}", (folder_ / name).string(),
                   limits_.folderBytes, std::generic_category().message(errno));
  }
}

fs::path orderingPathFor(const fs::path& log) {
  return log.parent_path() / ("." + log.filename().string() + std::string(kOrderingSuffix));
}

OutputStore::CleanupReport OutputStore::cleanup(fs::file_time_type now, std::chrono::hours maxAge) {
  CleanupReport report;
  std::map<std::string, std::uint64_t> left; // what the folder holds after the clean-up
  std::error_code error;
  fs::directory_iterator entries(folder_, error);
  if (error) {
    if (error != std::errc::no_such_file_or_directory) ++report.failed;
    return report;
  }
  for (const fs::directory_iterator end; entries != end;) {
    const fs::directory_entry& entry = *entries;
    std::error_code entryError;
    if (isOrderingFileName(entry.path()) && fs::is_regular_file(entry.symlink_status(entryError))) {
      const auto modified = entry.last_write_time(entryError);
      if (!entryError && now - modified > kOrderingLeftoverAge && fs::remove(entry.path(), entryError)) ++report.deleted;
      else if (entryError) ++report.failed;
      else ++report.kept;
    } else if (!isRetainedFileName(entry.path()) || !fs::is_regular_file(entry.symlink_status(entryError))) {
      // Only files this store could have written; a directory or link named tool_ is not ours.
      if (entryError) {
        ++report.failed;
      } else {
        ++report.kept;
      }
    } else if (const auto modified = entry.last_write_time(entryError); entryError) {
      ++report.failed;
    } else if (now - modified <= maxAge) {
      ++report.kept;
      if (const auto size = entry.file_size(entryError); !entryError) left[entry.path().filename().string()] = size;
    } else {
      // A file another toold removed first is gone all the same, so it counts as deleted.
      fs::remove(entry.path(), entryError);
      if (entryError) {
        ++report.failed;
      } else {
        ++report.deleted;
      }
    }
    entries.increment(error);
    if (error) {
      ++report.failed;
      break;
    }
  }
  if (!error) {
    std::lock_guard lock(mutex_);
    scanned_ = true;
    ledger_.resync(left);
  }
  return report;
}

} // namespace toold::core
