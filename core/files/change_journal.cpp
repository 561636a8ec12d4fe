#include "core/files/change_journal.h"

#include "core/files/tab_fields.h"

#include "core/output/output_store.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace toold::core {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kHeader = "toold-journal 1";

std::string firstLineOf(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string bootId() {
  static const std::string id = firstLineOf("/proc/sys/kernel/random/boot_id");
  return id;
}

std::string currentPidNamespace() {
  std::error_code ec;
  auto target = fs::read_symlink("/proc/self/ns/pid", ec);
  return ec ? std::string() : target.string();
}

// Field 22 of /proc/<pid>/stat; 0 when unreadable. The command name (field 2) may hold spaces and
// parentheses, so the fields are counted from its last ')'.
std::uint64_t startTimeOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  for (int index = 3; fields >> field; ++index)
    if (index == 22) return std::strtoull(field.c_str(), nullptr, 10);
  return 0;
}

const char* stateName(JournalState state) {
  switch (state) {
  case JournalState::Staging: return "staging";
  case JournalState::Committing: return "committing";
  case JournalState::RollingBack: return "rolling-back";
  }
  return "staging";
}

std::optional<JournalState> stateNamed(std::string_view name) {
  if (name == "staging") return JournalState::Staging;
  if (name == "committing") return JournalState::Committing;
  if (name == "rolling-back") return JournalState::RollingBack;
  return std::nullopt;
}

void syncDirectory(const fs::path& directory) {
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

std::shared_ptr<ChangeJournal>& installed() {
  static std::shared_ptr<ChangeJournal> journal;
  return journal;
}
std::mutex installMutex;

} // namespace

JournalOwner JournalOwner::self() {
  static const JournalOwner owner = [] {
    JournalOwner o;
    o.boot = bootId();
    o.pidNamespace = currentPidNamespace();
    o.pid = ::getpid();
    o.startTime = startTimeOf(o.pid);
    return o;
  }();
  return owner;
}

OwnerStatus ownerStatus(const JournalOwner& owner) {
  const auto& self = JournalOwner::self();
  if (owner.boot.empty() || self.boot.empty()) return OwnerStatus::Unknown;
  if (owner.boot != self.boot) return OwnerStatus::Gone;
  if (owner.pidNamespace != self.pidNamespace) return OwnerStatus::Unknown;
  if (owner.pid <= 0) return OwnerStatus::Unknown;
  if (::kill(owner.pid, 0) != 0 && errno == ESRCH) return OwnerStatus::Gone;
  const auto startTime = startTimeOf(owner.pid);
  if (startTime == 0) {
    // Exited between the two looks, or /proc is hidden: only the first is certain.
    return ::kill(owner.pid, 0) != 0 && errno == ESRCH ? OwnerStatus::Gone : OwnerStatus::Unknown;
  }
  return startTime == owner.startTime ? OwnerStatus::Running : OwnerStatus::Gone;
}

std::string encodeJournal(const JournalRecord& record) {
  std::string text(kHeader);
  text += "\nowner\t" + escapeField(record.owner.boot) + "\t" + escapeField(record.owner.pidNamespace) + "\t" +
          std::to_string(record.owner.pid) + "\t" + std::to_string(record.owner.startTime) + "\n";
  text += std::string("state\t") + stateName(record.state) + "\n";
  for (const auto& folder : record.folders) text += "folder\t" + escapeField(folder.string()) + "\n";
  for (const auto& entry : record.entries) {
    if (entry.staging.empty())
      text += "remove\t" + escapeField(entry.target.string()) + "\t" + std::to_string(entry.device) + "\t" +
              std::to_string(entry.inode) + "\n";
    else text += "replace\t" + escapeField(entry.target.string()) + "\t" + escapeField(entry.staging.string()) + "\n";
  }
  text += "end\n";
  return text;
}

std::optional<JournalRecord> decodeJournal(std::string_view text) {
  JournalRecord record;
  record.complete = false;
  bool sawOwner = false, sawHeader = false;
  for (std::size_t start = 0; start < text.size();) {
    const auto newline = text.find('\n', start);
    if (newline == std::string_view::npos) break; // a torn last line is not trusted
    const auto line = text.substr(start, newline - start);
    start = newline + 1;
    if (!sawHeader) {
      if (line != kHeader) return std::nullopt;
      sawHeader = true;
      continue;
    }
    const auto fields = splitTabFields(line);
    const auto& kind = fields[0];
    if (kind == "end" && fields.size() == 1) {
      record.complete = true;
      break;
    }
    std::vector<std::string> values;
    for (std::size_t i = 1; i < fields.size(); ++i) {
      auto value = unescapeField(fields[i]);
      if (!value) return sawOwner ? std::optional(record) : std::nullopt;
      // No path toold writes is longer than the kernel takes: a longer value is not toold's, and
      // would only carry megabytes into the notes and the log.
      if (value->size() > PATH_MAX) return std::nullopt;
      values.push_back(std::move(*value));
    }
    if (kind == "owner" && values.size() == 4) {
      record.owner.boot = values[0];
      record.owner.pidNamespace = values[1];
      record.owner.pid = static_cast<pid_t>(std::strtol(values[2].c_str(), nullptr, 10));
      record.owner.startTime = std::strtoull(values[3].c_str(), nullptr, 10);
      sawOwner = true;
    } else if (!sawOwner) {
      return std::nullopt;
    } else if (kind == "state" && values.size() == 1 && stateNamed(values[0])) {
      record.state = *stateNamed(values[0]);
    } else if (kind == "folder" && values.size() == 1) {
      record.folders.emplace_back(values[0]);
    } else if (kind == "remove" && values.size() == 3) {
      record.entries.push_back({values[0], {}, std::strtoull(values[1].c_str(), nullptr, 10),
                                std::strtoull(values[2].c_str(), nullptr, 10)});
    } else if (kind == "replace" && values.size() == 2) {
      record.entries.push_back({values[0], values[1]});
    } else {
      break; // not a line toold writes: what came before is all that can be trusted
    }
  }
  if (!sawOwner) return std::nullopt;
  return record;
}

fs::path stagingPathFor(const fs::path& target) {
  const auto directory = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  return directory / ("." + target.filename().string() + ".toold-" + newOutputId());
}

namespace {

/// Writes `content` to `next`: as an anonymous file in its folder, named `next` only once whole,
/// when `anonymous` (nullopt when the file system or a missing /proc does not allow it: try
/// again without); else by creating `next` and writing it. Returns what failed, or "".
std::optional<std::string> writeNext(const fs::path& next, std::string_view content, bool durable, bool anonymous) {
  const auto folder = next.parent_path().empty() ? fs::path(".") : next.parent_path();
  const int fd = anonymous ? ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600)
                           : ::open(next.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (anonymous && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) return std::nullopt;
    return "cannot create " + next.string() + ": " + std::strerror(errno);
  }
  auto fail = [&](const char* what) {
    std::string error = std::string(what) + " " + next.string() + ": " + std::strerror(errno);
    ::close(fd);
    if (!anonymous) ::unlink(next.c_str());
    return error;
  };
  for (std::size_t written = 0; written < content.size();) {
    ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot write");
    written += static_cast<std::size_t>(n);
  }
  if (durable && ::fsync(fd) != 0) return fail("cannot flush");
  if (anonymous) {
    // A `next` left by an earlier failure of this process is replaced.
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    bool named = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, next.c_str(), AT_SYMLINK_FOLLOW) == 0;
    if (!named && errno == EEXIST && ::unlink(next.c_str()) == 0)
      named = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, next.c_str(), AT_SYMLINK_FOLLOW) == 0;
    if (!named) {
      ::close(fd);
      return std::nullopt;
    }
  }
  if (::close(fd) != 0) {
    std::string error = "cannot write " + next.string() + ": " + std::strerror(errno);
    ::unlink(next.c_str());
    return error;
  }
  return std::string();
}

} // namespace

// The next content goes to `<journal>.next`, then a rename puts it in place, so a journal is
// always whole. The `.next` must be whole too: a kill between creating it and writing it would
// leave a file that says nothing of its owner, which no replay could ever judge. So it is written
// as an anonymous file and named once complete (created by name only where the file system or a
// missing /proc does not allow that; see docs/security.md).
std::string writeWholeFile(const fs::path& path, std::string_view content, bool durable) {
  const fs::path next = path.string() + ".next";
  auto written = writeNext(next, content, durable, /*anonymous=*/true);
  if (!written) written = writeNext(next, content, durable, /*anonymous=*/false);
  if (!written->empty()) return *written;
  if (::rename(next.c_str(), path.c_str()) != 0) {
    std::string error = "cannot rename " + next.string() + ": " + std::strerror(errno);
    ::unlink(next.c_str());
    return error;
  }
  if (durable) syncDirectory(path.parent_path());
  return {};
}

ChangeJournal::ChangeJournal(fs::path directory) : directory_(std::move(directory)) {}

ChangeJournal::Transaction::Transaction(fs::path file, JournalRecord record, bool durable)
    : file_(std::move(file)), record_(std::move(record)), durable_(durable) {}

ChangeJournal::Transaction::~Transaction() { ::unlink(file_.c_str()); }

std::string ChangeJournal::Transaction::advance(JournalState state) {
  record_.state = state;
  return writeWholeFile(file_, encodeJournal(record_), durable_);
}

std::variant<std::unique_ptr<ChangeJournal::Transaction>, std::string>
ChangeJournal::begin(std::vector<fs::path> folders, std::vector<JournalEntry> entries, bool durable) {
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) return "cannot create the journal folder " + directory_.string() + ": " + ec.message();
  JournalRecord record;
  record.owner = JournalOwner::self();
  record.folders = std::move(folders);
  record.entries = std::move(entries);
  // The pid for people reading the folder; the time-ordered random id because toolds in other pid
  // namespaces share the folder and may have the same pid (and start time).
  const auto file = directory_ / (std::to_string(record.owner.pid) + "-" + newOutputId() + ".journal");
  if (auto error = writeWholeFile(file, encodeJournal(record), durable); !error.empty()) return error;
  return std::make_unique<Transaction>(file, std::move(record), durable);
}

ChangeJournal* processJournal() {
  std::lock_guard lock(installMutex);
  return installed().get();
}

void installProcessJournal(std::shared_ptr<ChangeJournal> journal) {
  std::lock_guard lock(installMutex);
  installed() = std::move(journal);
}

} // namespace toold::core
