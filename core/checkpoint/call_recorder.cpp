#include "core/checkpoint/call_recorder.h"

#include <spdlog/spdlog.h>

namespace toold::core {

namespace fs = std::filesystem;

CallRecorder::CallRecorder(std::shared_ptr<CheckpointBook> book, CallIdentity identity)
    : book_(std::move(book)), identity_(std::move(identity)), startedMs_(checkpointClockMs()) {
  if (auto* tracker = book_->tracker()) mark_ = tracker->begin();
}

// A recorder dropped unfinished (a call torn down on shutdown) still ends the tracker's mark.
CallRecorder::~CallRecorder() {
  if (!finished_ && mark_)
    if (auto* tracker = book_->tracker()) tracker->end(*mark_);
}

std::optional<std::string> CallRecorder::relativeOf(const fs::path& canonical) const {
  const std::string& root = book_->workspace().native();
  const std::string& path = canonical.native();
  if (path.size() <= root.size() + 1 || path.compare(0, root.size(), root) != 0) return std::nullopt;
  // The root "/" ends in its separator; any other is followed by one.
  const std::size_t start = root.ends_with('/') ? root.size() : root.size() + 1;
  if (!root.ends_with('/') && path[root.size()] != '/') return std::nullopt;
  return path.substr(start);
}

std::optional<FileRecord> CallRecorder::recorded(const std::string& path, std::string_view bytes, mode_t mode) {
  if (!hold_) hold_ = std::make_unique<ChunkStore::Hold>(book_->store());
  auto record = recordBytes(path, bytes, mode, book_->store(), book_->options().recording);
  if (auto* error = std::get_if<std::string>(&record)) {
    note_ += (note_.empty() ? "" : "; ") + *error;
    unrestorable_.insert(path);
    return std::nullopt;
  }
  return std::get<FileRecord>(std::move(record));
}

void CallRecorder::willChange(const fs::path& canonical, std::optional<std::string_view> bytes, mode_t mode) {
  const auto path = relativeOf(canonical);
  if (!path) return;
  std::lock_guard lock(mutex_);
  if (finished_ || !told_.insert(*path).second) return; // the first told version is the "before"
  if (!bytes) return;
  // The baseline's record, when it holds these very bytes (checked by their hash, which recording
  // takes anyway): its chunks are stored already and kept live by the baseline. A file written
  // again and again by the session was chunked and hashed twice a write (a 710 KB file: about
  // 8 million instructions of the 34 million its write took).
  if (auto* tracker = book_->tracker()) {
    // Held first, as a recording holds the store: no sweep runs between the check and the
    // checkpoint that names the chunks.
    if (!hold_) hold_ = std::make_unique<ChunkStore::Hold>(book_->store());
    if (auto kept = tracker->version(*path);
        kept && kept->kind == EntryKind::File && !kept->hashOnly && kept->size == bytes->size() &&
        kept->mode == (mode & 07777) && kept->content == ChunkId::of(*bytes)) {
      // As recordBytes would have made it: its stamps are the baseline's, not a recording's.
      kept->path = *path;
      kept->mtimeNanoseconds = 0;
      kept->inode = 0;
      before_.emplace(*path, std::move(*kept));
      return;
    }
  }
  if (auto record = recorded(*path, *bytes, mode)) {
    if (record->hashOnly) unrestorable_.insert(*path);
    before_.emplace(*path, std::move(*record));
  }
}

void CallRecorder::changed(const fs::path& canonical, std::optional<std::string_view> bytes, mode_t mode,
                           const struct stat* status) {
  const auto path = relativeOf(canonical);
  if (!path) return;
  std::optional<FileRecord> after;
  {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    // A change told without its "before" (a tool that could not hold the old version) is not restorable.
    if (!told_.contains(*path)) unrestorable_.insert(*path);
    changed_.insert(*path);
    after_.erase(*path);
    if (bytes) {
      after = recorded(*path, *bytes, status ? status->st_mode : mode);
      if (after && status) {
        after->mtimeNanoseconds =
            static_cast<std::int64_t>(status->st_mtim.tv_sec) * 1'000'000'000 + status->st_mtim.tv_nsec;
        after->inode = static_cast<std::uint64_t>(status->st_ino);
      }
      if (after) after_.emplace(*path, *after);
    }
  }
  if (auto* tracker = book_->tracker()) tracker->told(*path, after);
}

std::uint64_t CallRecorder::finish() {
  {
    std::lock_guard lock(mutex_);
    if (openHolds_ > 0) {
      finishWanted_ = true;
      return 0;
    }
  }
  return finishNow();
}

std::function<void()> CallRecorder::holdOpen() {
  std::lock_guard lock(mutex_);
  if (finished_) return [] {};
  ++openHolds_;
  // Let go once, however often the job's end is reported.
  auto once = std::make_shared<std::once_flag>();
  return [self = shared_from_this(), once] { std::call_once(*once, [&self] { self->letGo(); }); };
}

void CallRecorder::letGo() {
  {
    std::lock_guard lock(mutex_);
    if (--openHolds_ > 0 || !finishWanted_) return;
  }
  finishNow();
}

std::uint64_t CallRecorder::finishNow() {
  std::unique_lock lock(mutex_);
  if (finished_) return 0;
  finished_ = true;
  Checkpoint checkpoint;
  if (mark_)
    if (auto* tracker = book_->tracker()) {
      lock.unlock(); // the tracker may take a while; nothing is told after finished_
      TrackedChanges found = tracker->end(*mark_);
      lock.lock();
      // The tools' word wins for their paths: it is exact, and taken from memory.
      auto tool = [this](const std::string& path) { return told_.contains(path) || changed_.contains(path); };
      for (auto& [path, record] : found.before)
        if (!tool(path)) checkpoint.before.emplace(path, std::move(record));
      for (auto& [path, record] : found.after)
        if (!tool(path)) checkpoint.after.emplace(path, std::move(record));
      for (auto& path : found.unrestorable)
        if (!tool(path)) unrestorable_.insert(std::move(path));
      checkpoint.concurrent = found.concurrent;
      if (!found.note.empty()) note_ = found.note + (note_.empty() ? "" : "; " + note_);
    }
  for (const auto& path : changed_) {
    if (auto it = before_.find(path); it != before_.end()) checkpoint.before.insert_or_assign(path, it->second);
    if (auto it = after_.find(path); it != after_.end()) checkpoint.after.insert_or_assign(path, it->second);
  }
  // A path the call left as it found it is no change.
  for (const auto& path : checkpoint.paths()) {
    const auto b = checkpoint.before.find(path), a = checkpoint.after.find(path);
    const bool same = (b == checkpoint.before.end() && a == checkpoint.after.end()) ||
                      (b != checkpoint.before.end() && a != checkpoint.after.end() && b->second.sameState(a->second));
    if (same && !unrestorable_.contains(path)) {
      checkpoint.before.erase(path);
      checkpoint.after.erase(path);
    }
  }
  if (checkpoint.before.empty() && checkpoint.after.empty()) return 0;
  for (const auto& path : unrestorable_)
    if (checkpoint.before.contains(path) || checkpoint.after.contains(path)) checkpoint.unrestorable.push_back(path);
  checkpoint.kind = CheckpointKind::Call;
  checkpoint.sessionID = identity_.sessionID;
  checkpoint.messageID = identity_.messageID;
  checkpoint.callID = identity_.callID;
  checkpoint.tool = identity_.tool;
  checkpoint.startedMs = startedMs_;
  checkpoint.finishedMs = checkpointClockMs();
  checkpoint.note = note_;
  if (auto error = book_->write(checkpoint); !error.empty()) {
    spdlog::warn("call {} (session {}): {}", identity_.callID, identity_.sessionID, error);
    return 0;
  }
  hold_.reset();
  return checkpoint.sequence;
}

} // namespace toold::core
