#include "core/checkpoint/checkpoint_eviction.h"

#include "core/checkpoint/change_tracker.h"
#include "core/files/atomic_file.h"
#include "core/files/read_to_end.h"

#include <algorithm>
#include <charconv>
#include <fcntl.h>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {

namespace fs = std::filesystem;

namespace {

std::uint64_t folderBytes(const fs::path& folder) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    struct stat status {};
    if (::lstat(entry.path().c_str(), &status) == 0 && S_ISREG(status.st_mode)) total += static_cast<std::uint64_t>(status.st_size);
  }
  return total;
}

std::uint64_t bookBytes(const CheckpointBook& book) {
  return book.store().storedBytes() + folderBytes(book.folder() / "manifests");
}

// A session's index: the file, and its checkpoints' sequence numbers.
struct IndexFile {
  fs::path path;
  std::vector<std::uint64_t> sequences;
  std::uint64_t newest = 0;
};

std::vector<IndexFile> indexes(const CheckpointBook& book) {
  std::vector<IndexFile> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(book.folder() / "sessions", ec)) {
    const int fd = ::open(entry.path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    const auto text = readToEnd(fd);
    ::close(fd);
    if (!text) continue;
    IndexFile index{entry.path(), {}, 0};
    std::string_view rest = *text;
    for (std::size_t newline; (newline = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(newline + 1)) {
      std::uint64_t sequence = 0;
      const std::string_view line = rest.substr(0, newline);
      if (std::from_chars(line.data(), line.data() + line.size(), sequence).ptr == line.data() + line.size()) {
        index.sequences.push_back(sequence);
        index.newest = std::max(index.newest, sequence);
      }
    }
    if (!index.sequences.empty()) found.push_back(std::move(index));
  }
  // Oldest first: the session whose last checkpoint is oldest.
  std::sort(found.begin(), found.end(), [](const IndexFile& a, const IndexFile& b) { return a.newest < b.newest; });
  return found;
}

// Every chunk the remaining manifests name, and those the tracker's baseline needs.
std::set<ChunkId> liveChunks(const CheckpointBook& book) {
  std::set<ChunkId> live;
  if (const auto* tracker = book.tracker()) tracker->addLiveChunks(live);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(book.folder() / "manifests", ec)) {
    std::uint64_t sequence = 0;
    const std::string name = entry.path().filename().string();
    if (std::from_chars(name.data(), name.data() + name.size(), sequence).ptr != name.data() + name.size()) continue;
    const auto checkpoint = book.read(sequence);
    if (!checkpoint) continue;
    for (const auto* state : {&checkpoint->before, &checkpoint->after})
      for (const auto& [path, record] : *state) live.insert(record.chunks.begin(), record.chunks.end());
  }
  return live;
}

} // namespace

Eviction evictOverBudget(CheckpointBook& book, std::int64_t nowMs) {
  Eviction eviction;
  eviction.bytesBefore = eviction.bytesAfter = bookBytes(book);
  const std::uint64_t budget = book.options().budgetBytes;
  if (eviction.bytesBefore <= budget) return eviction;
  for (auto& index : indexes(book)) {
    if (eviction.bytesAfter <= budget) break;
    // The index first: from then on the session answers "evicted", even if a removal fails.
    const std::string line = "evicted\t" + std::to_string(nowMs) + "\t" + std::to_string(budget) + "\n";
    if (auto error = writeFileAtomically(index.path, line, 0600); !error.empty()) {
      eviction.error = error;
      break;
    }
    for (std::uint64_t sequence : index.sequences) {
      // Two sessions whose keys collide share the index, and go together.
      std::error_code ec;
      fs::remove(book.manifestPath(sequence), ec);
    }
    eviction.sessions.push_back(index.path.filename().string());
    auto sweep = book.store().sweepExcept(liveChunks(book));
    if (!sweep.error.empty()) {
      eviction.error = sweep.error;
      break;
    }
    eviction.bytesAfter = bookBytes(book);
  }
  return eviction;
}

} // namespace toold::core
