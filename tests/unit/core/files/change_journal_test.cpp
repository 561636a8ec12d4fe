#include "core/files/change_journal.h"
#include "core/files/journal_replay.h"

#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sys/stat.h>

namespace fs = std::filesystem;
using namespace toold::core;
using toold::testing::TempDir;
using toold::testing::contentOf;
using toold::testing::put;

namespace {

// An owner that ran on another boot: certainly gone.
JournalOwner deadOwner() {
  auto owner = JournalOwner::self();
  owner.boot = "00000000-0000-0000-0000-000000000000";
  return owner;
}

void writeJournal(const fs::path& directory, const std::string& name, const JournalRecord& record) {
  fs::create_directories(directory);
  put(directory / name, encodeJournal(record));
}

std::size_t stagingFilesIn(const fs::path& directory) {
  std::size_t count = 0;
  for (const auto& item : fs::recursive_directory_iterator(directory))
    if (item.path().filename().string().find(".toold-") != std::string::npos) ++count;
  return count;
}

} // namespace

TEST_CASE("change journal: the text keeps every path byte for byte, and a torn one is known as such", "[journal]") {
  JournalRecord record;
  record.owner = JournalOwner::self();
  record.state = JournalState::Committing;
  record.folders = {"/w/new", "/w/new/deeper"};
  record.entries = {{"/w/a\tb\n%0A.txt", "/w/.a\tb\n%0A.txt.toold-x"}, {"/w/gone", {}, 7, 42}};
  const auto text = encodeJournal(record);
  CHECK(decodeJournal(text) == record);

  auto torn = decodeJournal(text.substr(0, text.size() - 4)); // "end" is cut
  REQUIRE(torn);
  CHECK_FALSE(torn->complete);
  CHECK(torn->owner == record.owner);
  CHECK_FALSE(decodeJournal("something else\n"));
  CHECK_FALSE(decodeJournal("toold-journal 1\nstate\tstaging\n")); // no owner
}

TEST_CASE("change journal: a running owner is told from a gone one, pid reuse included", "[journal]") {
  CHECK(ownerStatus(JournalOwner::self()) == OwnerStatus::Running);
  CHECK(ownerStatus(deadOwner()) == OwnerStatus::Gone);
  auto reused = JournalOwner::self(); // the same pid, started at another time: another process
  reused.startTime += 1;
  CHECK(ownerStatus(reused) == OwnerStatus::Gone);
  auto elsewhere = JournalOwner::self();
  elsewhere.pidNamespace = "pid:[1]";
  CHECK(ownerStatus(elsewhere) == OwnerStatus::Unknown);
}

TEST_CASE("change journal: a transaction's file exists from begin to its end, in the state it was moved to",
          "[journal]") {
  TempDir dir("journal");
  ChangeJournal journal(dir.path() / "journal");
  fs::path file;
  {
    auto begun = journal.begin({}, {{dir.path() / "a", dir.path() / ".a.toold-1"}}, true);
    auto& intent = std::get<std::unique_ptr<ChangeJournal::Transaction>>(begun);
    file = intent->file();
    CHECK(decodeJournal(contentOf(file))->state == JournalState::Staging);
    CHECK(intent->advance(JournalState::Committing).empty());
    CHECK(decodeJournal(contentOf(file))->state == JournalState::Committing);
  }
  CHECK_FALSE(fs::exists(file));
  CHECK(fs::is_empty(dir.path() / "journal"));
}

TEST_CASE("journal replay: a dead owner's staging change is rolled back", "[journal]") {
  TempDir dir("replay");
  const auto w = dir.path() / "w";
  fs::create_directories(w / "new" / "deeper");
  put(w / "kept.txt", "old");
  put(w / ".kept.txt.toold-1", "new");
  put(w / "new" / "deeper" / ".f.toold-2", "added");
  JournalRecord record;
  record.owner = deadOwner();
  record.folders = {w / "new", w / "new" / "deeper"};
  record.entries = {{w / "kept.txt", w / ".kept.txt.toold-1"}, {w / "new" / "deeper" / "f", w / "new" / "deeper" / ".f.toold-2"}};
  writeJournal(dir.path() / "journal", "1-1-1.journal", record);

  const auto report = replayJournals(dir.path() / "journal");
  CHECK(report.rolledBack == 1);
  CHECK(contentOf(w / "kept.txt") == "old");
  CHECK_FALSE(fs::exists(w / "new"));
  CHECK(stagingFilesIn(w) == 0);
  CHECK(fs::is_empty(dir.path() / "journal") == false); // the replay lock file stays
  CHECK_FALSE(fs::exists(dir.path() / "journal" / "1-1-1.journal"));
}

TEST_CASE("journal replay: a dead owner's committing change is finished, removals only of the recorded file",
          "[journal]") {
  TempDir dir("replay");
  const auto w = dir.path() / "w";
  fs::create_directories(w);
  put(w / "done.txt", "new already"); // renamed before the kill
  put(w / "todo.txt", "old");
  put(w / ".todo.txt.toold-9", "new");
  put(w / "remove.txt", "bye");
  put(w / "recreated.txt", "someone else's");
  struct stat removeStatus {};
  ::stat((w / "remove.txt").c_str(), &removeStatus);
  JournalRecord record;
  record.owner = deadOwner();
  record.state = JournalState::Committing;
  record.entries = {{w / "done.txt", w / ".done.txt.toold-8"},
                    {w / "todo.txt", w / ".todo.txt.toold-9"},
                    {w / "remove.txt", {}, static_cast<std::uint64_t>(removeStatus.st_dev),
                     static_cast<std::uint64_t>(removeStatus.st_ino)},
                    {w / "recreated.txt", {}, static_cast<std::uint64_t>(removeStatus.st_dev), 1}};
  writeJournal(dir.path() / "journal", "1-1-2.journal", record);

  const auto report = replayJournals(dir.path() / "journal");
  CHECK(report.rolledForward == 1);
  CHECK(contentOf(w / "done.txt") == "new already");
  CHECK(contentOf(w / "todo.txt") == "new");
  CHECK_FALSE(fs::exists(w / "remove.txt"));
  CHECK(contentOf(w / "recreated.txt") == "someone else's");
  CHECK(stagingFilesIn(w) == 0);
}

TEST_CASE("journal replay: running owners' journals and forged entries are left alone", "[journal]") {
  TempDir dir("replay");
  const auto w = dir.path() / "w";
  fs::create_directories(w);
  put(w / ".mine.toold-1", "in flight");
  put(w / "victim.txt", "keep");
  put(w / "payload", "forged");
  JournalRecord running;
  running.owner = JournalOwner::self();
  running.entries = {{w / "mine", w / ".mine.toold-1"}};
  writeJournal(dir.path() / "journal", "2-2-1.journal", running);
  JournalRecord forged;
  forged.owner = deadOwner();
  forged.state = JournalState::Committing;
  forged.entries = {{w / "victim.txt", w / "payload"}}; // not a staging file of victim.txt
  writeJournal(dir.path() / "journal", "2-2-2.journal", forged);

  const auto report = replayJournals(dir.path() / "journal");
  CHECK(report.leftAlone == 1);
  CHECK(fs::exists(w / ".mine.toold-1"));
  CHECK(fs::exists(dir.path() / "journal" / "2-2-1.journal"));
  CHECK(contentOf(w / "victim.txt") == "keep");
  CHECK(fs::exists(w / "payload"));
}

TEST_CASE("journal replay: a single-file write killed before its rename leaves no staging file", "[journal]") {
  TempDir dir("replay");
  const auto w = dir.path() / "w";
  fs::create_directories(w);
  put(w / "a.txt", "old");
  const auto staging = stagingPathFor(w / "a.txt");
  put(staging, "half");
  JournalRecord record;
  record.owner = deadOwner();
  record.entries = {{w / "a.txt", staging}};
  auto text = encodeJournal(record);
  writeJournal(dir.path() / "journal", "3-3-1.journal", record);
  put(dir.path() / "journal" / "3-3-2.journal.next", text.substr(0, text.find("state") + 3)); // a rewrite cut short
  replayJournals(dir.path() / "journal");
  CHECK(contentOf(w / "a.txt") == "old");
  CHECK(stagingFilesIn(w) == 0);
  CHECK_FALSE(fs::exists(dir.path() / "journal" / "3-3-2.journal.next"));
}

TEST_CASE("journal replay: a forged journal's huge paths and long lists stay out of the notes", "[journal]") {
  TempDir dir("replay");
  // A path longer than any the kernel takes: not a journal toold wrote.
  JournalRecord huge;
  huge.owner = deadOwner();
  huge.state = JournalState::RollingBack;
  huge.entries = {{"/w/" + std::string(10u << 20, 'a'), {}}};
  CHECK_FALSE(decodeJournal(encodeJournal(huge)));
  writeJournal(dir.path() / "journal", "2-2-1.journal", huge);
  // Thousands of ordinary entries: the note names twenty and counts the rest.
  JournalRecord many;
  many.owner = deadOwner();
  many.state = JournalState::RollingBack;
  for (int i = 0; i < 3000; ++i) many.entries.push_back({"/w/file-" + std::to_string(i), {}});
  writeJournal(dir.path() / "journal", "2-2-2.journal", many);

  const auto report = replayJournals(dir.path() / "journal");
  CHECK(report.leftAlone == 1);
  CHECK(report.interrupted == 1);
  std::size_t longest = 0;
  for (const auto& note : report.notes) longest = std::max(longest, note.size());
  CHECK(longest < 2000);
  CHECK_THAT(report.notes.back(), Catch::Contains("/w/file-19 and 2980 more"));
}
