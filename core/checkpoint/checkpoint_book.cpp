#include "core/checkpoint/checkpoint_book.h"

#include "core/checkpoint/unnamed_write.h"
#include "core/checkpoint/call_recorder.h"
#include "core/files/atomic_file.h"
#include "core/files/read_to_end.h"
#include "core/files/stable_key.h"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <stdexcept>
#include <unistd.h>

namespace toold::core {

namespace fs = std::filesystem;

namespace {

std::string manifestName(std::uint64_t sequence) {
  char name[24];
  std::snprintf(name, sizeof name, "%016llu", static_cast<unsigned long long>(sequence));
  return name;
}

template <typename Number> bool parseNumber(std::string_view text, Number& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

std::optional<std::string> readWhole(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  auto text = readToEnd(fd);
  ::close(fd);
  return text;
}

std::string evictedText(std::int64_t whenMs, std::uint64_t budget) {
  const std::time_t seconds = static_cast<std::time_t>(whenMs / 1000);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &utc);
  const std::string limit = budget >= (1u << 20) ? std::to_string(budget >> 20) + " MB" : std::to_string(budget) + " bytes";
  return "evicted on " + std::string(date) + " to keep checkpoints under " + limit;
}

} // namespace

std::int64_t checkpointClockMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

fs::path CheckpointBook::folderFor(const fs::path& dataDir, const fs::path& workspace) {
  return fs::absolute(dataDir) / "checkpoints" / stableKey(workspace.string());
}

CheckpointBook::CheckpointBook(fs::path folder, fs::path workspace, CheckpointOptions options)
    : folder_(std::move(folder)), workspace_(std::move(workspace)), options_(options), store_(folder_ / "chunks") {
  std::error_code ec;
  fs::create_directories(folder_ / "manifests", ec);
  fs::create_directories(folder_ / "sessions", ec);
  manifestsFd_ = ::open((folder_ / "manifests").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (manifestsFd_ < 0)
    throw std::runtime_error("cannot open " + (folder_ / "manifests").string() + ": " + std::strerror(errno));
  // Which workspace the key stands for, for a person looking at the data folder (and a collision).
  if (!fs::exists(folder_ / "workspace", ec))
    writeFileAtomically(folder_ / "workspace", workspace_.string() + "\n", 0600);
}

CheckpointBook::~CheckpointBook() {
  if (manifestsFd_ >= 0) ::close(manifestsFd_);
}

std::shared_ptr<CallRecorder> CheckpointBook::startCall(CallIdentity identity) {
  return std::make_shared<CallRecorder>(shared_from_this(), std::move(identity));
}

fs::path CheckpointBook::indexPathOf(const std::string& sessionID) const {
  return folder_ / "sessions" / stableKey(sessionID);
}

// The first number is one past the largest manifest's: the folder is listed once per book.
std::uint64_t CheckpointBook::nextSequence() {
  if (next_ == 0) {
    next_ = 1;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder_ / "manifests", ec)) {
      std::uint64_t sequence = 0;
      if (parseNumber(entry.path().filename().string(), sequence) && sequence >= next_) next_ = sequence + 1;
    }
  }
  return next_++;
}

std::string CheckpointBook::write(Checkpoint& checkpoint) {
  std::lock_guard lock(mutex_);
  // Staged unflushed (a checkpoint is not the workspace's own data; see chunk_store.h), then
  // linked to its name: a name another toold took meanwhile fails the link, and the next is tried.
  for (int attempt = 0; attempt < 64; ++attempt) {
    checkpoint.sequence = nextSequence();
    const std::string name = manifestName(checkpoint.sequence);
    // Unnamed until whole (a kill leaves no staging file), and never over another toold's.
    const auto unnamed = writeUnnamedThenLink(manifestsFd_, name, encodeCheckpoint(checkpoint), 0600);
    if (unnamed.result == UnnamedWriteResult::Failed) return "cannot write a checkpoint: " + unnamed.error;
    if (unnamed.result == UnnamedWriteResult::NameTaken) {
      next_ = 0; // another toold wrote some: look again
      continue;
    }
    if (unnamed.result == UnnamedWriteResult::Written) return addToIndex(checkpoint, name);
    auto staged = stageFileWrite(manifestsFd_, folder_ / "manifests" / name, encodeCheckpoint(checkpoint), 0600,
                                 StagingOptions{.temporary = {}, .flush = false});
    if (auto* error = std::get_if<std::string>(&staged)) return "cannot write a checkpoint: " + *error;
    const auto& write = std::get<StagedWrite>(staged);
    const std::string temporary = write.temporary.filename().string();
    const bool linked = ::linkat(manifestsFd_, temporary.c_str(), manifestsFd_, name.c_str(), 0) == 0;
    const int error = errno;
    ::unlinkat(manifestsFd_, temporary.c_str(), 0);
    if (!linked && error == EEXIST) {
      next_ = 0; // another toold wrote some: look again
      continue;
    }
    if (!linked) return "cannot write the checkpoint " + name + ": " + std::strerror(error);
    return addToIndex(checkpoint, name);
  }
  return "cannot write a checkpoint: no free sequence number";
}

std::string CheckpointBook::addToIndex(const Checkpoint& checkpoint, const std::string& name) {
  // One short line appended: whole or, after a crash, a torn last line the reader skips.
  const std::string line = std::to_string(checkpoint.sequence) + "\n";
  const int index = ::open(indexPathOf(checkpoint.sessionID).c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (index < 0 || ::write(index, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    const int saved = errno;
    if (index >= 0) ::close(index);
    return "cannot add checkpoint " + name + " to its session's index: " + std::strerror(saved);
  }
  ::close(index);
  return {};
}

fs::path CheckpointBook::manifestPath(std::uint64_t sequence) const {
  return folder_ / "manifests" / manifestName(sequence);
}

std::optional<Checkpoint> CheckpointBook::read(std::uint64_t sequence) const {
  auto text = readWhole(manifestPath(sequence));
  if (!text) return std::nullopt;
  auto checkpoint = decodeCheckpoint(*text);
  if (checkpoint && checkpoint->sequence != sequence) return std::nullopt;
  return checkpoint;
}

CheckpointBook::History CheckpointBook::history(const std::string& sessionID) const {
  History history;
  auto text = readWhole(indexPathOf(sessionID));
  if (!text) return history;
  history.known = true;
  std::set<std::uint64_t> sequences;
  std::string_view rest = *text;
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    if (newline == std::string_view::npos) break; // a torn last line
    const std::string_view line = rest.substr(0, newline);
    rest.remove_prefix(newline + 1);
    std::uint64_t sequence = 0;
    if (parseNumber(line, sequence)) {
      sequences.insert(sequence);
    } else if (line.starts_with("evicted\t")) {
      const std::string_view fields = line.substr(8);
      const std::size_t tab = fields.find('\t');
      std::int64_t when = 0;
      std::uint64_t budget = 0;
      if (tab != std::string_view::npos && parseNumber(fields.substr(0, tab), when) &&
          parseNumber(fields.substr(tab + 1), budget))
        history.evicted = evictedText(when, budget);
    }
  }
  // Two sessions whose keys collide share an index: each manifest says whose it is.
  for (std::uint64_t sequence : sequences)
    if (auto checkpoint = read(sequence); checkpoint && checkpoint->sessionID == sessionID)
      history.checkpoints.push_back(std::move(*checkpoint));
  return history;
}

} // namespace toold::core
