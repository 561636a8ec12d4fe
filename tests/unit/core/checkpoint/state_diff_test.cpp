#include "core/checkpoint/file_record.h"
#include "core/checkpoint/state_diff.h"

#include "tests/support/temp_dir.h"
#include "tests/unit/core/checkpoint/checkpoint_fixtures.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace toold::core;
using toold::testing::TempDir;
using toold::testing::writeFile;

namespace {

struct Workspace {
  TempDir dir{"checkpoint_ws"};
  int fd = ::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ~Workspace() { ::close(fd); }
  fs::path operator/(const std::string& path) const { return dir.path() / path; }
  WorkspaceState state() const { return toold::testing::recordTree(fd, dir.path()); }
};

FileRecord file(const std::string& path, std::string_view bytes, mode_t mode = 0644) {
  FileRecord record;
  record.path = path;
  record.mode = mode;
  record.size = bytes.size();
  record.content = ChunkId::of(bytes);
  return record;
}

} // namespace

TEST_CASE("file record: files, symlinks and folders are recorded and their text round-trips", "[checkpoint]") {
  Workspace ws;
  TempDir storeDir("checkpoint_store");
  ChunkStore store(storeDir.path());
  std::string binary("a\0b\tc\nd%", 8);
  binary += toold::testing::joined(toold::testing::sourceLines(50000));
  fs::create_directories(ws / "sub dir");
  writeFile(ws / "sub dir/data\tfile%", binary);
  ::chmod((ws / "sub dir/data\tfile%").c_str(), 0750);
  fs::create_symlink("../nowhere\nat all", ws / "link");
  const WorkspaceState state = ws.state();
  REQUIRE(state.size() == 3);

  auto recorded = recordPath(ws.fd, "sub dir/data\tfile%", &store);
  REQUIRE(recorded.index() == 0);
  const FileRecord data = *std::get<0>(recorded);
  CHECK(data.kind == EntryKind::File);
  CHECK(data.mode == 0750);
  CHECK(data.size == binary.size());
  CHECK(data.chunks.size() > 1);
  auto content = recordedContent(data, store);
  REQUIRE(content.index() == 0);
  CHECK(std::get<0>(content) == binary);

  const FileRecord& link = state.at("link");
  CHECK(link.kind == EntryKind::Symlink);
  CHECK(link.linkTarget == "../nowhere\nat all");
  CHECK(state.at("sub dir").kind == EntryKind::Folder);

  std::vector<FileRecord> records{data, link, state.at("sub dir")};
  const auto decoded = decodeRecords(encodeRecords(records));
  REQUIRE(decoded);
  CHECK(*decoded == records);
  CHECK_FALSE(decodeRecords("f\t644\t1\n"));
  CHECK_FALSE(decodeRecords(encodeRecords(records).substr(0, 50)));

  auto missing = recordPath(ws.fd, "sub dir/none", &store);
  REQUIRE(missing.index() == 0);
  CHECK_FALSE(std::get<0>(missing));
  CHECK(recordPath(ws.fd, "../escape", &store).index() == 1);
  // A symlink on the way is not followed: nothing is there as far as the workspace goes.
  fs::create_symlink("sub dir", ws / "via");
  auto through = recordPath(ws.fd, "via/data\tfile%", &store);
  CHECK((through.index() == 1 || !std::get<0>(through)));
}

TEST_CASE("file record: a file over the limit is kept by hash only and cannot be read back", "[checkpoint]") {
  Workspace ws;
  TempDir storeDir("checkpoint_store");
  ChunkStore store(storeDir.path());
  const std::string bytes(300000, 'q');
  writeFile(ws / "big.bin", bytes);
  RecordingLimits limits;
  limits.hashOnlyOver = 100000;
  auto recorded = recordPath(ws.fd, "big.bin", &store, limits);
  REQUIRE(recorded.index() == 0);
  const FileRecord big = *std::get<0>(recorded);
  CHECK(big.hashOnly);
  CHECK(big.chunks.empty());
  CHECK(big.content == ChunkId::of(bytes));
  CHECK(big.size == bytes.size());
  CHECK(store.storedBytes() == 0);
  auto content = recordedContent(big, store);
  REQUIRE(content.index() == 1);
  CHECK_THAT(std::get<1>(content), Catch::Contains("hash only"));
}

TEST_CASE("state diff: created, modified, deleted, renamed and mode changes", "[checkpoint]") {
  WorkspaceState before, after;
  auto put = [](WorkspaceState& state, FileRecord record) { state[record.path] = std::move(record); };
  put(before, file("kept.txt", "same"));
  put(after, file("kept.txt", "same"));
  put(before, file("edited.txt", "one"));
  put(after, file("edited.txt", "two"));
  put(before, file("gone.txt", "bye"));
  put(before, file("old/name.txt", "moved content"));
  put(after, file("new/name.txt", "moved content", 0600));
  put(before, file("script.sh", "#!/bin/sh\n", 0644));
  put(after, file("script.sh", "#!/bin/sh\n", 0755));
  put(before, file("both.txt", "a", 0644));
  put(after, file("both.txt", "b", 0600));
  put(after, file("fresh.txt", "hello"));
  // Empty files are never taken for a rename of one another.
  put(before, file("empty-old", ""));
  put(after, file("empty-new", ""));
  FileRecord link;
  link.path = "edited.txt";
  link.kind = EntryKind::Symlink;

  const auto changes = diffStates(before, after);
  std::vector<std::pair<std::string, ChangeKind>> seen;
  for (const auto& change : changes) seen.emplace_back(change.path, change.kind);
  const std::vector<std::pair<std::string, ChangeKind>> wanted{
      {"both.txt", ChangeKind::Modified}, {"edited.txt", ChangeKind::Modified}, {"empty-new", ChangeKind::Created},
      {"empty-old", ChangeKind::Deleted}, {"fresh.txt", ChangeKind::Created},   {"gone.txt", ChangeKind::Deleted},
      {"new/name.txt", ChangeKind::Renamed}, {"script.sh", ChangeKind::ModeChanged}};
  CHECK(seen == wanted);
  CHECK(changes[0].modeChanged);
  CHECK_FALSE(changes[1].modeChanged);
  CHECK(changes[6].fromPath == "old/name.txt");
  CHECK(changes[6].modeChanged);
  CHECK(changes[7].before->mode == 0644);
  CHECK(changes[7].after->mode == 0755);

  // A file that became a symlink is a modification, whatever the bytes.
  WorkspaceState asLink = before;
  link.linkTarget = "one";
  link.content = ChunkId::of("one");
  link.size = 3;
  asLink["edited.txt"] = link;
  const auto kindChange = diffStates(before, asLink);
  REQUIRE(kindChange.size() == 1);
  CHECK(kindChange[0].kind == ChangeKind::Modified);
  CHECK(diffStates(before, before).empty());
}
