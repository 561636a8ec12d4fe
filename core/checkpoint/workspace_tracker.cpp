#include "core/checkpoint/workspace_tracker.h"

#include "core/checkpoint/baseline_manifest.h"
#include "core/checkpoint/relative_folder.h"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

namespace toold::core {

namespace {

using Clock = std::chrono::steady_clock;

std::chrono::microseconds since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
}

bool startsWith(const std::string& text, const std::string& prefix) { return text.compare(0, prefix.size(), prefix) == 0; }

void addNote(std::string& note, const std::string& more) {
  if (note.find(more) != std::string::npos) return;
  note += note.empty() ? more : "; " + more;
}

// Two seconds covers the coarsest modification clocks in use: a record of a file modified that
// close to the manifest's writing may have missed a change made in the same tick.
constexpr std::int64_t kRacyNanoseconds = 2'000'000'000;

// Events read during a call and not handled yet, at most (some 10 MB).
constexpr std::size_t kMostUnhandled = 100'000;

} // namespace

WorkspaceTracker::WorkspaceTracker(int root, std::filesystem::path rootPath, ChunkStore& store,
                                   WorkspaceTrackerOptions options)
    : root_(root), rootPath_(std::move(rootPath)), store_(store), options_(std::move(options)),
      watches_(options_.watchLimit), kept_(rootPath_, options_.ignore, options_.respectIgnores) {
  if (options_.ignore.ceiling.empty()) options_.ignore.ceiling = rootPath_;
  if (options_.baselineFile.empty()) options_.baselineFile = store_.directory().parent_path() / "baseline";
  wakeFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

WorkspaceTracker::~WorkspaceTracker() {
  stop();
  if (wakeFd_ >= 0) ::close(wakeFd_);
}

void WorkspaceTracker::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void WorkspaceTracker::stop() {
  if (!thread_.joinable()) return;
  stopping_.cancel("the tracker stops");
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = ::write(wakeFd_, &one, sizeof one);
  thread_.join();
}

// ---- the tracker's thread ----

void WorkspaceTracker::run() {
  setUpWatches();
  if (options_.beforeBaseline && !stopping_.isCancelled()) options_.beforeBaseline();
  if (!stopping_.isCancelled()) takeBaseline();
  auto lastPersist = Clock::now();
  while (!stopping_.isCancelled()) {
    pollfd polled[2] = {{watches_.fd(), POLLIN, 0}, {wakeFd_, POLLIN, 0}};
    ::poll(polled, 2, 1000);
    if (stopping_.isCancelled()) break;
    {
      // Reading the queue as it fills keeps it from overflowing during a long command (what is
      // read is handled by the next begin, end or told, unless it piles up); with no call
      // running, what changed was changed outside any call, and is taken now rather than by the
      // next call's begin().
      std::lock_guard lock(mutex_);
      if (!live_.empty()) {
        readQueueLocked();
        if (unhandled_.size() >= kMostUnhandled) drainLocked();
        continue;
      }
      drainLocked();
      if (!repairScan_.empty()) {
        scanLocked(repairScan_);
        repairScan_.clear();
      }
      takeOutsideChangesLocked();
    }
    bool due;
    {
      std::lock_guard lock(mutex_);
      due = baselineChanged_ && baselineTaken_ && Clock::now() - lastPersist >= options_.persistEvery;
    }
    if (due) {
      persistBaseline();
      lastPersist = Clock::now();
    }
  }
  bool changed;
  {
    std::lock_guard lock(mutex_);
    changed = baselineChanged_ && baselineTaken_;
  }
  if (changed) persistBaseline();
}

bool WorkspaceTracker::watchFolderLocked(int folderFd, const std::string& relative) {
  std::string why;
  const auto added = watches_.add(folderFd, relative, why);
  if (added == FolderWatches::Added::Yes) return true;
  if (scanning_.empty())
    scanning_ = added == FolderWatches::Added::LimitReached ? why : "a folder cannot be watched (" + why + ")";
  return false;
}

void WorkspaceTracker::setUpWatches() {
  const auto started = Clock::now();
  // The kept baseline is read first, so the listing can reuse its records by their stamps.
  auto kept = loadBaseline(store_, options_.baselineFile);
  {
    std::lock_guard lock(mutex_);
    if (watches_.fd() < 0) scanning_ = watches_.error();
    else watchFolderLocked(root_, "");
  }
  ListingOptions listing{options_.ignore, options_.respectIgnores, options_.walkThreads};
  TreeListing tree = listTree(
      root_, rootPath_, "", listing,
      [this](const std::string& relative, int folderFd) {
        std::lock_guard lock(mutex_);
        if (watches_.fd() >= 0) watchFolderLocked(folderFd, relative);
      },
      stopping_.token());
  if (tree.cancelled) return;

  std::unordered_map<std::string, FileRecord*> byPath;
  if (kept)
    for (FileRecord& record : kept->records) byPath.emplace(record.path, &record);
  std::lock_guard lock(mutex_);
  for (ListedPath& listed : tree.paths) {
    // An event already had the baseline take this path: that version is newer than the listing's.
    if (baseline_.count(listed.path) || outside_.count(listed.path)) continue;
    const auto found = byPath.find(listed.path);
    if (found != byPath.end() && stampMatches(*found->second, listed.stamp) &&
        found->second->mtimeNanoseconds < kept->writtenNanoseconds - kRacyNanoseconds) {
      baseline_.emplace(listed.path, std::move(*found->second));
      ++pathsReused_;
    } else {
      pending_.emplace(std::move(listed.path), listed.stamp);
    }
  }
  if (kept) manifestChunks_ = std::move(kept->manifestChunks);
  listed_ = true;
  watchSetup_ = since(started);
}

void WorkspaceTracker::takeBaseline() {
  const auto started = Clock::now();
  std::vector<std::string> work;
  {
    std::lock_guard lock(mutex_);
    work.reserve(pending_.size());
    for (const auto& [path, stamp] : pending_) work.push_back(path);
  }
  std::sort(work.begin(), work.end());
  // In batches: each is recorded without the lock (begin and end go on meanwhile), then taken
  // under it, after the queue is read, unless an event named the path since the batch began —
  // that event's reader decides its version (the recording may have seen the change half made).
  constexpr std::size_t kBatch = 256;
  for (std::size_t first = 0; first < work.size() && !stopping_.isCancelled(); first += kBatch) {
    const std::size_t last = std::min(work.size(), first + kBatch);
    std::uint64_t seen;
    {
      std::lock_guard lock(mutex_);
      drainLocked();
      seen = eventCount_;
    }
    ChunkStore::Hold hold(store_);
    std::vector<std::variant<std::optional<FileRecord>, std::string>> recorded;
    recorded.reserve(last - first);
    std::uint64_t read = 0;
    for (std::size_t i = first; i < last; ++i) {
      recorded.push_back(recordPath(root_, work[i], &store_, options_.limits));
      if (auto* record = std::get_if<0>(&recorded.back()); record && *record && (*record)->kind == EntryKind::File)
        ++read;
    }
    std::lock_guard lock(mutex_);
    drainLocked();
    filesRead_ += read;
    for (std::size_t i = first; i < last; ++i) {
      const std::string& path = work[i];
      if (!pending_.count(path)) continue;
      if (auto named = namedAt_.find(path); named != namedAt_.end() && named->second > seen) continue;
      if (auto* record = std::get_if<0>(&recorded[i - first])) takeLocked(path, *record);
      // A path that cannot be read stays pending: its version is not known.
    }
  }
  std::lock_guard lock(mutex_);
  baselineTaken_ = true;
  namedAt_.clear();
  baselineTime_ = since(started);
  baselineChanged_ = true;
  baselineTakenSignal_.notify_all();
}

// ---- events ----

void WorkspaceTracker::readQueueLocked() {
  if (watches_.fd() < 0) return;
  bool overflowed = false;
  watches_.read(unhandled_, overflowed);
  if (overflowed && repairScan_.empty())
    repairScan_ = "the watcher's event queue overflowed (fs.inotify.max_queued_events)";
}

void WorkspaceTracker::drainLocked(const std::string* toldPath) {
  readQueueLocked();
  std::vector<FolderEvent> events;
  events.swap(unhandled_);
  for (const FolderEvent& event : events) handleEventLocked(event, toldPath);
}

void WorkspaceTracker::handleEventLocked(const FolderEvent& event, const std::string* toldPath) {
  // Events come from watched folders, which are kept: only the entry's own name is judged.
  if (!kept_.keptIn(event.path, event.isFolder)) return;
  if (!event.isFolder && KeptPaths::isIgnoreFileName(leafOf(event.path))) kept_.forget();
  const bool told = toldPath && (*toldPath == event.path || startsWith(*toldPath, event.path + "/"));
  if (!told) changedLocked(event.path);
  if (!event.isFolder) return;
  if (event.mask & (IN_DELETE | IN_MOVED_FROM)) {
    // What the folder held is gone from here too (for a delete, its own events said so already,
    // unless it was never watched).
    if (event.mask & IN_MOVED_FROM) watches_.removeBelow(event.path);
    const std::string prefix = event.path + "/";
    std::vector<std::string> below;
    for (auto it = baseline_.lower_bound(prefix); it != baseline_.end() && startsWith(it->first, prefix); ++it)
      below.push_back(it->first);
    for (const auto& [path, stamp] : pending_)
      if (startsWith(path, prefix)) below.push_back(path);
    for (const std::string& path : below) changedLocked(path);
  }
  if (event.mask & (IN_CREATE | IN_MOVED_TO)) newFolderLocked(event.path, toldPath);
}

void WorkspaceTracker::changedLocked(const std::string& path) {
  ++eventCount_;
  if (!baselineTaken_) namedAt_[path] = eventCount_;
  if (live_.empty()) {
    outside_.insert(path);
    return;
  }
  std::optional<Version> version;
  for (auto& [id, mark] : live_) {
    if (mark.before.count(path)) continue;
    if (!version) version = versionLocked(path);
    mark.before.emplace(path, *version);
  }
}

// A folder made or moved in: it is watched before it is read, and everything already in it is
// named, since it may have been filled before the watch was in place (mkdir -p a/b && touch a/b/c).
void WorkspaceTracker::newFolderLocked(const std::string& folder, const std::string* toldPath) {
  OpenedFolder parent = openFolderOf(root_, folder);
  if (parent.fd < 0) return; // gone again: its removal is queued
  const int fd = ::openat(parent.fd, parent.leaf.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  ::close(parent.fd);
  if (fd < 0) return;
  watchFolderLocked(fd, folder);
  ::close(fd);
  ListingOptions listing{options_.ignore, options_.respectIgnores, 1};
  TreeListing tree = listTree(
      root_, rootPath_, folder, listing,
      [this](const std::string& relative, int folderFd) { watchFolderLocked(folderFd, relative); }, {});
  for (const ListedPath& listed : tree.paths)
    if (!toldPath || (*toldPath != listed.path && !startsWith(*toldPath, listed.path + "/"))) changedLocked(listed.path);
}

// Every kept path's stamp against the baseline's: what differs, appeared or vanished is named as
// an event would have named it. Folders found unwatched are watched, if they can be.
void WorkspaceTracker::scanLocked(const std::string& why) {
  std::mutex folders;
  ListingOptions listing{options_.ignore, options_.respectIgnores, options_.walkThreads};
  TreeListing tree = listTree(
      root_, rootPath_, "", listing,
      [this, &folders](const std::string& relative, int folderFd) {
        std::lock_guard lock(folders);
        if (watches_.fd() >= 0 && !watches_.watching(relative)) watchFolderLocked(folderFd, relative);
      },
      {});
  std::unordered_set<std::string> seen;
  seen.reserve(tree.paths.size());
  for (const ListedPath& listed : tree.paths) {
    seen.insert(listed.path);
    if (auto recorded = baseline_.find(listed.path); recorded != baseline_.end()) {
      if (!stampMatches(recorded->second, listed.stamp)) changedLocked(listed.path);
    } else if (auto pending = pending_.find(listed.path); pending != pending_.end()) {
      if (!(pending->second == listed.stamp)) changedLocked(listed.path);
    } else {
      changedLocked(listed.path);
    }
  }
  std::vector<std::string> vanished;
  for (const auto& [path, record] : baseline_)
    if (!seen.count(path)) vanished.push_back(path);
  for (const auto& [path, stamp] : pending_)
    if (!seen.count(path)) vanished.push_back(path);
  for (const std::string& path : vanished) changedLocked(path);
  for (auto& [id, mark] : live_) addNote(mark.note, "changes found by a stamp scan: " + why);
}

// ---- versions ----

WorkspaceTracker::Version WorkspaceTracker::versionLocked(const std::string& path) const {
  if (auto found = baseline_.find(path); found != baseline_.end()) return {!found->second.hashOnly, found->second};
  if (!listed_ || pending_.count(path)) return {false, std::nullopt};
  return {true, std::nullopt};
}

std::variant<std::optional<FileRecord>, std::string> WorkspaceTracker::recordNowLocked(const std::string& path) {
  // A file tool's own record is trusted while the file's stamp is the one it recorded.
  if (told_.erase(path)) {
    const auto found = baseline_.find(path);
    const auto stamp = stampOf(root_, path);
    if (found == baseline_.end() && !stamp) return std::optional<FileRecord>{};
    if (found != baseline_.end() && stamp && stampMatches(found->second, *stamp)) return found->second;
  }
  auto recorded = recordPath(root_, path, &store_, options_.limits);
  if (auto* record = std::get_if<0>(&recorded); record && *record && (*record)->kind == EntryKind::File) ++filesRead_;
  return recorded;
}

void WorkspaceTracker::takeLocked(const std::string& path, const std::optional<FileRecord>& record) {
  pending_.erase(path);
  if (record) {
    FileRecord& kept = baseline_[path];
    kept = *record;
    kept.path = path;
  } else {
    baseline_.erase(path);
  }
  baselineChanged_ = true;
}

void WorkspaceTracker::takeOutsideChangesLocked() {
  if (outside_.empty()) return;
  ChunkStore::Hold hold(store_);
  for (const std::string& path : outside_) {
    auto recorded = recordNowLocked(path);
    if (auto* record = std::get_if<0>(&recorded)) takeLocked(path, *record);
    else {
      // Not readable now: its version is not known until an event names it again.
      baseline_.erase(path);
      pending_[path] = PathStamp{};
    }
  }
  outside_.clear();
}

// ---- ChangeTracker ----

ChangeTracker::Mark WorkspaceTracker::begin() {
  std::lock_guard lock(mutex_);
  drainLocked();
  if (!repairScan_.empty() || !scanning_.empty()) {
    scanLocked(!repairScan_.empty() ? repairScan_ : scanning_);
    repairScan_.clear();
  }
  takeOutsideChangesLocked();
  LiveMark mark;
  if (!live_.empty()) {
    mark.concurrent = true;
    for (auto& [id, other] : live_) other.concurrent = true;
  }
  if (!listed_)
    mark.note = "the workspace's watches were still being set up when the call began: changes in folders not "
                "watched yet may be missing";
  const Mark id = nextMark_++;
  live_.emplace(id, std::move(mark));
  return id;
}

TrackedChanges WorkspaceTracker::end(Mark id) {
  std::lock_guard lock(mutex_);
  drainLocked();
  if (!repairScan_.empty() || !scanning_.empty()) {
    scanLocked(!repairScan_.empty() ? repairScan_ : scanning_);
    repairScan_.clear();
  }
  TrackedChanges changes;
  auto node = live_.extract(id);
  if (node.empty()) {
    changes.note = "no such mark: " + std::to_string(id);
    return changes;
  }
  LiveMark& mark = node.mapped();
  changes.concurrent = mark.concurrent;
  changes.note = std::move(mark.note);
  // Only a call that changed something writes chunks: one that did not (most calls) costs no
  // opening and locking of the store.
  std::optional<ChunkStore::Hold> hold;
  if (!mark.before.empty()) hold.emplace(store_);
  for (auto& [path, before] : mark.before) {
    auto recorded = recordNowLocked(path);
    if (auto* failure = std::get_if<std::string>(&recorded)) {
      addNote(changes.note, "not recorded: " + *failure);
      baseline_.erase(path);
      pending_[path] = PathStamp{};
      continue;
    }
    const auto& after = std::get<0>(recorded);
    takeLocked(path, after);
    const bool same = before.known && (before.record ? after && before.record->sameState(*after) : !after);
    if (same) continue;
    if (before.record) changes.before.emplace(path, std::move(*before.record));
    if (after) {
      FileRecord now = *after;
      now.path = path;
      changes.after.emplace(path, std::move(now));
    }
    if (!before.known) changes.unrestorable.push_back(path);
  }
  return changes;
}

void WorkspaceTracker::told(const std::string& path, const std::optional<FileRecord>& after) {
  if (!isWellFormedRelativePath(path)) return;
  std::lock_guard lock(mutex_);
  if (!kept_.kept(path, after && after->kind == EntryKind::Folder)) return;
  // The tool's own events read so far are left out; a running call that named this path before
  // may be reporting the tool's change as its own.
  drainLocked(&path);
  for (auto& [id, mark] : live_)
    if (mark.before.count(path)) mark.concurrent = true;
  takeLocked(path, after);
  told_.insert(path);
  // The folders the tool made for it: the baseline has them too (their events were left out).
  for (std::size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const std::string folder = path.substr(0, slash);
    if (baseline_.count(folder)) continue;
    auto recorded = recordPath(root_, folder, nullptr, options_.limits);
    if (auto* record = std::get_if<0>(&recorded)) takeLocked(folder, *record);
  }
}

std::optional<FileRecord> WorkspaceTracker::version(const std::string& path) const {
  std::lock_guard lock(mutex_);
  const auto found = baseline_.find(path);
  if (found == baseline_.end()) return std::nullopt;
  return found->second;
}

// ---- the rest ----

WorkspaceTracker::Progress WorkspaceTracker::progress() const {
  std::lock_guard lock(mutex_);
  Progress progress;
  progress.watching = listed_;
  progress.baselineTaken = baselineTaken_;
  progress.watches = watches_.count();
  progress.baselinePaths = baseline_.size();
  progress.pendingPaths = pending_.size();
  progress.filesRead = filesRead_;
  progress.pathsReused = pathsReused_;
  progress.scanning = scanning_;
  progress.watchSetup = watchSetup_;
  progress.baselineTime = baselineTime_;
  return progress;
}

bool WorkspaceTracker::waitForBaseline(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return baselineTakenSignal_.wait_for(lock, timeout, [this] { return baselineTaken_; });
}

std::string WorkspaceTracker::persistBaseline() {
  std::vector<FileRecord> records;
  {
    std::lock_guard lock(mutex_);
    records.reserve(baseline_.size());
    for (const auto& [path, record] : baseline_) records.push_back(record);
    baselineChanged_ = false;
  }
  std::set<ChunkId> chunks;
  const std::string error = saveBaseline(store_, options_.baselineFile, records, &chunks);
  std::lock_guard lock(mutex_);
  if (!error.empty()) baselineChanged_ = true;
  else manifestChunks_ = std::move(chunks);
  return error;
}

void WorkspaceTracker::addLiveChunks(std::set<ChunkId>& live) const {
  std::lock_guard lock(mutex_);
  for (const auto& [path, record] : baseline_) live.insert(record.chunks.begin(), record.chunks.end());
  live.insert(manifestChunks_.begin(), manifestChunks_.end());
}

void WorkspaceTracker::simulateOverflow() {
  std::lock_guard lock(mutex_);
  repairScan_ = "the watcher's event queue overflowed (fs.inotify.max_queued_events)";
}

} // namespace toold::core
