#include "core/checkpoint/call_recorder.h"
#include "core/checkpoint/checkpoint_book.h"
#include "core/checkpoint/checkpoint_eviction.h"
#include "core/checkpoint/checkpoint_range.h"
#include "core/checkpoint/checkpoint_undo.h"

#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/core/checkpoint/checkpoint_fixtures.h"

#include <catch2/catch.hpp>

#include <map>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace toold::core;
using toold::testing::TempDir;

namespace {

// A tracker that reports what a test scripts for the next end(), and keeps what it was told.
struct ScriptedTracker : ChangeTracker {
  Mark marks = 0;
  int begun = 0, ended = 0;
  TrackedChanges next;
  std::vector<std::pair<std::string, std::optional<FileRecord>>> toldPaths;
  Mark begin() override {
    ++begun;
    return ++marks;
  }
  TrackedChanges end(Mark) override {
    ++ended;
    return std::exchange(next, {});
  }
  void told(const std::string& path, const std::optional<FileRecord>& after) override { toldPaths.emplace_back(path, after); }
  std::map<std::string, FileRecord> versions; ///< what version() answers
  std::optional<FileRecord> version(const std::string& path) const override {
    const auto found = versions.find(path);
    return found == versions.end() ? std::nullopt : std::optional<FileRecord>(found->second);
  }
};

struct Workspace {
  TempDir dir{"book_ws"};
  TempDir data{"book_data"};
  std::shared_ptr<CheckpointBook> book =
      std::make_shared<CheckpointBook>(CheckpointBook::folderFor(data.path(), dir.path()), dir.path());
  int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ~Workspace() { ::close(fd); }
  fs::path operator/(const std::string& path) const { return dir.path() / path; }

  // What a file tool does: tell the old version, write, tell the new one.
  void toolWrites(CallRecorder& recorder, const std::string& path, const std::optional<std::string>& bytes,
                  mode_t mode = 0644) {
    const fs::path file = dir.path() / path;
    std::optional<std::string> old;
    mode_t oldMode = 0644;
    if (struct stat status {}; ::stat(file.c_str(), &status) == 0) {
      old = toold::testing::contentOf(file);
      oldMode = status.st_mode & 07777;
    }
    recorder.willChange(file, old, oldMode);
    struct stat written {};
    if (bytes) {
      toold::testing::put(file, *bytes);
      ::chmod(file.c_str(), mode);
      ::stat(file.c_str(), &written);
    } else {
      fs::remove(file);
    }
    recorder.changed(file, bytes, mode, bytes ? &written : nullptr);
  }

  std::uint64_t call(const std::string& session, const std::string& callID, const std::string& path,
                     const std::optional<std::string>& bytes, mode_t mode = 0644) {
    auto recorder = book->startCall({session, "m-" + callID, callID, "write"});
    toolWrites(*recorder, path, bytes, mode);
    return recorder->finish();
  }
};

} // namespace

TEST_CASE("a manifest reads back as it was written, and a torn one not at all", "[checkpoint]") {
  Checkpoint c;
  c.sequence = 42;
  c.kind = CheckpointKind::Restore;
  c.sessionID = "s\t1";
  c.messageID = "m\n";
  c.callID = "c%";
  c.tool = "edit";
  c.startedMs = 1;
  c.finishedMs = 2;
  c.concurrent = true;
  c.of = 7;
  c.note = "found by a scan";
  c.unrestorable = {"big.bin"};
  FileRecord a;
  a.path = "a b/c.txt";
  a.mode = 0755;
  a.size = 3;
  a.content = ChunkId::of("abc");
  a.chunks = {a.content};
  c.before.emplace(a.path, a);
  FileRecord link;
  link.path = "l";
  link.kind = EntryKind::Symlink;
  link.linkTarget = "a b/c.txt";
  c.after.emplace(link.path, link);
  const std::string text = encodeCheckpoint(c);
  CHECK(decodeCheckpoint(text) == c);
  CHECK_FALSE(decodeCheckpoint(text.substr(0, text.size() - 1)));
  CHECK_FALSE(decodeCheckpoint(text.substr(0, text.size() / 2)));
  CHECK(c.paths() == std::vector<std::string>{"a b/c.txt", "l"});
}

TEST_CASE("a call the file tools tell of becomes a checkpoint of its session", "[checkpoint]") {
  Workspace w;
  toold::testing::put(w / "a.txt", "one\n");
  const auto first = w.call("s1", "c1", "a.txt", "two\n");
  REQUIRE(first > 0);
  const auto second = w.call("s1", "c2", "new.txt", "fresh\n", 0600);
  CHECK(second > first);
  CHECK(w.call("s2", "c3", "a.txt", std::nullopt) > second);

  const auto history = w.book->history("s1");
  CHECK(history.known);
  REQUIRE(history.checkpoints.size() == 2);
  const Checkpoint& c = history.checkpoints[0];
  CHECK(c.callID == "c1");
  CHECK(c.messageID == "m-c1");
  CHECK(c.tool == "write");
  CHECK(c.kind == CheckpointKind::Call);
  REQUIRE(c.before.contains("a.txt"));
  REQUIRE(c.after.contains("a.txt"));
  CHECK(std::get<0>(recordedContent(c.before.at("a.txt"), w.book->store())) == "one\n");
  CHECK(std::get<0>(recordedContent(c.after.at("a.txt"), w.book->store())) == "two\n");
  CHECK(c.after.at("a.txt").inode != 0); // the written file's stamps, from its status
  const Checkpoint& created = history.checkpoints[1];
  CHECK_FALSE(created.before.contains("new.txt"));
  CHECK(created.after.at("new.txt").mode == 0600);
  CHECK(w.book->history("s2").checkpoints.at(0).after.empty());
  CHECK_FALSE(w.book->history("nobody").known);
}

TEST_CASE("a version before that the baseline holds already is taken from it, not recorded again", "[checkpoint]") {
  Workspace w;
  ScriptedTracker tracker;
  w.book->setTracker(&tracker);
  toold::testing::put(w / "a.txt", "one\n");
  ::chmod((w / "a.txt").c_str(), 0644);
  // The baseline's record of the very bytes, chunked its own way (as an older chunking would
  // have): taken as it is, its stamps dropped.
  FileRecord kept;
  kept.path = "a.txt";
  kept.mode = 0644;
  kept.size = 4;
  kept.content = ChunkId::of("one\n");
  for (std::string_view piece : {"on", "e\n"}) kept.chunks.push_back(std::get<ChunkId>(w.book->store().put(piece)));
  kept.mtimeNanoseconds = 42;
  kept.inode = 7;
  tracker.versions["a.txt"] = kept;
  REQUIRE(w.call("s1", "c1", "a.txt", "two\n") > 0);
  // Of other bytes (a change the baseline has not seen yet): the bytes are recorded.
  tracker.versions["a.txt"].content = ChunkId::of("something else\n");
  REQUIRE(w.call("s1", "c2", "a.txt", "three\n") > 0);
  w.book->setTracker(nullptr);

  const auto history = w.book->history("s1");
  REQUIRE(history.checkpoints.size() == 2);
  const FileRecord& reused = history.checkpoints[0].before.at("a.txt");
  CHECK(reused.chunks == kept.chunks);
  CHECK(reused.mtimeNanoseconds == 0);
  CHECK(reused.inode == 0);
  CHECK(std::get<0>(recordedContent(reused, w.book->store())) == "one\n");
  const FileRecord& recorded = history.checkpoints[1].before.at("a.txt");
  CHECK(recorded.chunks.size() == 1);
  CHECK(std::get<0>(recordedContent(recorded, w.book->store())) == "two\n");
}

TEST_CASE("a call that changed nothing leaves no checkpoint", "[checkpoint]") {
  Workspace w;
  toold::testing::put(w / "a.txt", "same\n");
  CHECK(w.call("s", "c", "a.txt", "same\n") == 0);
  auto recorder = w.book->startCall({"s", "m", "c2", "read"});
  CHECK(recorder->finish() == 0);
  CHECK(recorder->finish() == 0); // finishing twice is harmless
  CHECK_FALSE(w.book->history("s").known);
}

TEST_CASE("a path outside the workspace is not recorded", "[checkpoint]") {
  Workspace w;
  TempDir outside{"book_outside"};
  auto recorder = w.book->startCall({"s", "m", "c", "write"});
  recorder->willChange(outside.path() / "x", std::nullopt, 0644);
  recorder->changed(outside.path() / "x", std::string_view("x"), 0644);
  recorder->changed(fs::path(w.dir.path().string() + "-sibling") / "y", std::string_view("y"), 0644);
  CHECK(recorder->finish() == 0);
}

TEST_CASE("the tracker's changes are merged with the told ones, the tools' word winning", "[checkpoint]") {
  Workspace w;
  ScriptedTracker tracker;
  w.book->setTracker(&tracker);
  toold::testing::put(w / "told.txt", "old\n");
  toold::testing::put(w / "bash.txt", "made by bash\n");
  auto recorder = w.book->startCall({"s", "m", "c", "bash"});
  CHECK(tracker.begun == 1);
  w.toolWrites(*recorder, "told.txt", "new\n");
  REQUIRE(tracker.toldPaths.size() == 1);
  CHECK(tracker.toldPaths[0].first == "told.txt");
  REQUIRE(tracker.toldPaths[0].second);
  CHECK(tracker.toldPaths[0].second->size == 4);
  // The tracker found both: its word for told.txt is stale (it read later) and must lose.
  FileRecord stale;
  stale.path = "told.txt";
  stale.content = ChunkId::of("stale");
  tracker.next.before.emplace("told.txt", stale);
  tracker.next.after.emplace("told.txt", stale);
  auto bash = std::get<std::optional<FileRecord>>(recordPath(w.fd, "bash.txt", &w.book->store()));
  tracker.next.after.emplace("bash.txt", *bash);
  tracker.next.unrestorable = {"bash.txt"};
  tracker.next.concurrent = true;
  tracker.next.note = "found by a stamp scan";
  const auto sequence = recorder->finish();
  CHECK(tracker.ended == 1);
  const auto checkpoint = w.book->read(sequence);
  REQUIRE(checkpoint);
  CHECK(std::get<0>(recordedContent(checkpoint->before.at("told.txt"), w.book->store())) == "old\n");
  CHECK(std::get<0>(recordedContent(checkpoint->after.at("told.txt"), w.book->store())) == "new\n");
  CHECK(checkpoint->after.contains("bash.txt"));
  CHECK(checkpoint->unrestorable == std::vector<std::string>{"bash.txt"});
  CHECK(checkpoint->concurrent);
  CHECK(checkpoint->note == "found by a stamp scan");
}

TEST_CASE("a recorder dropped unfinished still ends the tracker's mark", "[checkpoint]") {
  Workspace w;
  ScriptedTracker tracker;
  w.book->setTracker(&tracker);
  { auto recorder = w.book->startCall({"s", "m", "c", "bash"}); }
  CHECK(tracker.ended == 1);
}

TEST_CASE("a range's change: the first before and the last after of each path", "[checkpoint]") {
  Workspace w;
  toold::testing::put(w / "a.txt", "1\n");
  w.call("s", "c1", "a.txt", "2\n");
  w.call("s", "c2", "b.txt", "b\n");
  w.call("s", "c3", "a.txt", "3\n");
  w.call("s", "c4", "b.txt", std::nullopt);
  const auto history = w.book->history("s").checkpoints;
  REQUIRE(history.size() == 4);
  const auto change = changeOfRange(history, 0, 3);
  CHECK(change.paths == std::vector<std::string>{"a.txt", "b.txt"});
  CHECK(std::get<0>(recordedContent(change.before.at("a.txt"), w.book->store())) == "1\n");
  CHECK(std::get<0>(recordedContent(change.after.at("a.txt"), w.book->store())) == "3\n");
  CHECK_FALSE(change.before.contains("b.txt"));
  CHECK_FALSE(change.after.contains("b.txt"));
  const std::string c3 = "c3", m2 = "m-c2", none = "c9";
  CHECK(firstCheckpointOf(history, &c3, nullptr) == 2u);
  CHECK(firstCheckpointOf(history, nullptr, &m2) == 1u);
  CHECK_FALSE(firstCheckpointOf(history, &none, nullptr));
}

TEST_CASE("an undo with no call named takes the newest call still standing", "[checkpoint]") {
  std::vector<Checkpoint> history;
  const auto add = [&history](CheckpointKind kind, std::uint64_t of = 0) {
    Checkpoint c;
    c.sequence = history.empty() ? 10 : history.back().sequence + 1;
    c.kind = kind;
    c.of = of;
    history.push_back(c);
    return c.sequence;
  };
  CHECK_FALSE(newestStandingCall(history));
  const auto c1 = add(CheckpointKind::Call);
  const auto c2 = add(CheckpointKind::Call);
  CHECK(newestStandingCall(history) == 1u);
  add(CheckpointKind::Restore, c2);
  CHECK(newestStandingCall(history) == 0u);
  const auto undoC1 = add(CheckpointKind::Restore, c1);
  CHECK_FALSE(newestStandingCall(history)); // nothing left to undo
  add(CheckpointKind::Redo, undoC1);        // c1 stands again, c2 not
  CHECK(newestStandingCall(history) == 0u);
  add(CheckpointKind::Call);
  CHECK(newestStandingCall(history) == 5u);
  const auto undoAll = add(CheckpointKind::Restore, c1); // back before c1: every call after it too
  CHECK_FALSE(newestStandingCall(history));
  add(CheckpointKind::Redo, undoAll);
  CHECK(newestStandingCall(history) == 5u);
}

TEST_CASE("restore goes back before a call, refuses a person's later edit, and redo undoes it", "[checkpoint]") {
  Workspace w;
  toold::testing::put(w / "a.txt", "original\n");
  ::chmod((w / "a.txt").c_str(), 0755);
  toold::testing::put(w / "gone.txt", "kept\n");
  w.call("s", "c1", "a.txt", "edited\n", 0755);
  w.call("s", "c2", "made.txt", "new\n");
  w.call("s", "c3", "gone.txt", std::nullopt);
  w.call("other", "o1", "theirs.txt", "other session\n");

  auto history = w.book->history("s").checkpoints;
  const std::string c1 = "c1";
  auto plan = planRestore(history, *firstCheckpointOf(history, &c1, nullptr));
  REQUIRE(plan.error.empty());
  CHECK(plan.paths == std::vector<std::string>{"a.txt", "gone.txt", "made.txt"});

  SECTION("restored exactly, as a checkpoint of its own; redo undoes it") {
    auto outcome = carryOut(*w.book, plan, w.fd, nullptr, {"s", "", "", "checkpoint/restore"});
    REQUIRE(outcome.result.error.empty());
    CHECK(toold::testing::contentOf(w / "a.txt") == "original\n");
    struct stat status {};
    ::stat((w / "a.txt").c_str(), &status);
    CHECK((status.st_mode & 07777) == 0755);
    CHECK_FALSE(fs::exists(w / "made.txt"));
    CHECK(toold::testing::contentOf(w / "gone.txt") == "kept\n");
    CHECK(toold::testing::contentOf(w / "theirs.txt") == "other session\n");
    history = w.book->history("s").checkpoints;
    REQUIRE(history.back().kind == CheckpointKind::Restore);
    CHECK(history.back().sequence == outcome.sequence);
    CHECK(history.back().of == history.front().sequence);
    CHECK(planRestore(history, history.size()).refusal == RestorePlan::Refusal::UnknownCheckpoint);

    auto redo = planRedo(history);
    REQUIRE(redo.error.empty());
    auto redone = carryOut(*w.book, redo, w.fd, nullptr, {"s", "", "", "checkpoint/redo"});
    REQUIRE(redone.result.error.empty());
    CHECK(toold::testing::contentOf(w / "a.txt") == "edited\n");
    CHECK(toold::testing::contentOf(w / "made.txt") == "new\n");
    CHECK_FALSE(fs::exists(w / "gone.txt"));
    history = w.book->history("s").checkpoints;
    CHECK(history.back().kind == CheckpointKind::Redo);
    CHECK(planRedo(history).refusal == RestorePlan::Refusal::NothingToRedo);
  }
  SECTION("a person's later edit refuses it, naming the path, and nothing changes") {
    toold::testing::put(w / "made.txt", "a person's work\n");
    auto outcome = carryOut(*w.book, plan, w.fd, nullptr, {"s", "", "", "checkpoint/restore"});
    CHECK_FALSE(outcome.result.error.empty());
    CHECK(outcome.result.conflicts == std::vector<std::string>{"made.txt"});
    CHECK(outcome.sequence == 0);
    CHECK(toold::testing::contentOf(w / "made.txt") == "a person's work\n");
    CHECK(toold::testing::contentOf(w / "a.txt") == "edited\n");
    CHECK(w.book->history("s").checkpoints.size() == 3);
  }
  SECTION("nothing to redo while the last checkpoint is a call") {
    CHECK(planRedo(history).refusal == RestorePlan::Refusal::NothingToRedo);
  }
}

TEST_CASE("a path whose version before is unknown refuses the restore up front", "[checkpoint]") {
  Workspace w;
  auto recorder = w.book->startCall({"s", "m", "c", "write"});
  recorder->changed(w / "a.txt", std::string_view("x"), 0644); // no willChange: before unknown
  toold::testing::put(w / "a.txt", "x");
  REQUIRE(recorder->finish() > 0);
  const auto history = w.book->history("s").checkpoints;
  const auto plan = planRestore(history, 0);
  CHECK(plan.refusal == RestorePlan::Refusal::Unrestorable);
  CHECK(plan.error.find("a.txt") != std::string::npos);
}

TEST_CASE("two books of one workspace never take the same sequence number", "[checkpoint]") {
  Workspace w;
  auto second = std::make_shared<CheckpointBook>(w.book->folder(), w.dir.path());
  toold::testing::put(w / "a.txt", "1");
  CHECK(w.call("s", "c1", "a.txt", "2") == 1);
  auto recorder = second->startCall({"s", "m", "c2", "write"});
  w.toolWrites(*recorder, "a.txt", "3");
  CHECK(recorder->finish() == 2);
  CHECK(w.call("s", "c3", "a.txt", "4") == 3); // the first book's 2 was taken: it looks again
  CHECK(w.book->history("s").checkpoints.size() == 3);
}

TEST_CASE("a version told before a write that then failed is no change", "[checkpoint]") {
  Workspace w;
  toold::testing::put(w / "a.txt", "kept\n");
  auto recorder = w.book->startCall({"s", "m", "c", "edit"});
  recorder->willChange(w / "a.txt", std::string_view("kept\n"), 0644);
  CHECK(recorder->finish() == 0);
}

namespace {

std::string incompressible(std::size_t size, std::uint64_t seed) {
  std::string bytes(size, '\0');
  for (auto& byte : bytes) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    byte = static_cast<char>(seed >> 56);
  }
  return bytes;
}

} // namespace

TEST_CASE("past the budget, the sessions whose last checkpoint is oldest are evicted, and say so", "[checkpoint]") {
  TempDir dir{"evict_ws"}, data{"evict_data"};
  CheckpointOptions options;
  options.budgetBytes = 64 * 1024;
  auto book = std::make_shared<CheckpointBook>(CheckpointBook::folderFor(data.path(), dir.path()), dir.path(), options);
  auto record = [&](const std::string& session, const std::string& path, const std::string& bytes) {
    auto recorder = book->startCall({session, "m", "c-" + path, "write"});
    recorder->willChange(dir.path() / path, std::nullopt, 0644);
    recorder->changed(dir.path() / path, bytes, 0644);
    return recorder->finish();
  };
  record("old", "big.bin", incompressible(100 * 1024, 1));
  record("new", "small.txt", "small\n");
  record("old", "other.txt", "x\n");
  record("new", "small.txt", "small again\n"); // "new" has the newest checkpoint: "old" goes first
  const auto eviction = evictOverBudget(*book, 1'700'000'000'000);
  CHECK(eviction.error.empty());
  CHECK(eviction.sessions.size() == 1);
  CHECK(eviction.bytesBefore > options.budgetBytes);
  CHECK(eviction.bytesAfter <= options.budgetBytes);
  const auto old = book->history("old");
  CHECK(old.checkpoints.empty());
  CHECK(old.evicted == "evicted on 2023-11-14 22:13 UTC to keep checkpoints under 65536 bytes");
  CHECK(book->history("new").checkpoints.size() == 2);
  CHECK(evictOverBudget(*book, 1).sessions.empty()); // under the budget: nothing more

  // A session evicted and active again lists its new checkpoints and the eviction.
  record("old", "again.txt", "again\n");
  const auto again = book->history("old");
  CHECK(again.checkpoints.size() == 1);
  CHECK_FALSE(again.evicted.empty());
}

// What a checkpoint adds to a one-line edit of a small file (docs/checkpoints.md quotes it), hidden
// from CTest: unit_tests "[.checkpoint-measure]". The recorder's whole work per call, as the
// pipeline and the file tool do it: start, the old version, the new one with its status, finish
// (the chunks, the manifest, the index line). Nothing here depends on the tree's size: no scan.
TEST_CASE("checkpoint: the cost of recording a one-line edit", "[.checkpoint-measure]") {
  Workspace w;
  auto lines = toold::testing::sourceLines(4 * 1024);
  const fs::path file = w / "src.cpp";
  std::string text = toold::testing::joined(lines);
  toold::testing::put(file, text);
  std::vector<double> times;
  for (int i = 0; i < 400; ++i) {
    lines[static_cast<std::size_t>(i) % lines.size()] = "    edited(" + std::to_string(i) + ");\n";
    std::string next = toold::testing::joined(lines);
    toold::testing::put(file, next);
    struct stat status {};
    ::stat(file.c_str(), &status);
    const auto start = std::chrono::steady_clock::now();
    auto recorder = w.book->startCall({"s", "m", "c" + std::to_string(i), "edit"});
    recorder->willChange(file, text, 0644);
    recorder->changed(file, next, status.st_mode, &status);
    REQUIRE(recorder->finish() > 0);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    text = std::move(next);
  }
  std::sort(times.begin(), times.end());
  std::fprintf(stderr, "recording a one-line edit of a %zu-byte file: median %.3f ms, p90 %.3f ms, max %.3f ms\n",
               text.size(), times[times.size() / 2], times[times.size() * 9 / 10], times.back());
  SUCCEED();
}
