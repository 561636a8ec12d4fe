#include "builtins/files/read_stamps.h"

#include <catch2/catch.hpp>

using namespace toold::builtins;

namespace {

FileIdentity identity(std::uint64_t size, std::int64_t mtime) { return FileIdentity{1, 2, size, mtime}; }

} // namespace

TEST_CASE("read stamps: without a stamp, only a whole overwrite is refused", "[stamps]") {
  ReadStamps stamps;
  CHECK(checkStamp(stamps, "s1", "/w/a", "/w/a", identity(1, 1), "x", StampRule::IfStamped).empty());
  CHECK_THAT(checkStamp(stamps, "s1", "/w/a", "/w/a", identity(1, 1), "x", StampRule::Required),
             Catch::StartsWith("You must read file /w/a before overwriting it"));
}

TEST_CASE("read stamps: a stamp is current while the identity or the content is the same", "[stamps]") {
  ReadStamps stamps;
  stamps.record("s1", "/w/a", stampFor(identity(5, 100), "hello"));
  CHECK(checkStamp(stamps, "s1", "/w/a", "/w/a", identity(5, 100), "hello", StampRule::Required).empty());
  // Touched: a new mtime, the same bytes.
  CHECK(checkStamp(stamps, "s1", "/w/a", "/w/a", identity(5, 200), "hello", StampRule::Required).empty());
  auto refusal = checkStamp(stamps, "s1", "/w/a", "/w/a", identity(5, 300), "HELLO", StampRule::IfStamped);
  CHECK_THAT(refusal, Catch::StartsWith("File /w/a has been modified since it was last read.\nLast modification: "));
  CHECK_THAT(refusal, Catch::Contains("\nLast read: ") && Catch::EndsWith("Please read the file again before modifying it."));
}

TEST_CASE("read stamps: belong to one session and can be forgotten", "[stamps]") {
  ReadStamps stamps;
  stamps.record("s1", "/w/a", stampFor(identity(1, 1), "x"));
  CHECK(stamps.find("s1", "/w/a"));
  CHECK_FALSE(stamps.find("s2", "/w/a"));
  stamps.forget("s1", "/w/a");
  CHECK_FALSE(stamps.find("s1", "/w/a"));
}

TEST_CASE("read stamps: a session keeps a bounded number, forgetting the oldest", "[stamps]") {
  ReadStamps stamps;
  for (std::size_t i = 0; i <= ReadStamps::kMaxStampsPerSession; ++i)
    stamps.record("s1", "/w/" + std::to_string(i), stampFor(identity(1, 1), "x"));
  CHECK_FALSE(stamps.find("s1", "/w/0"));
  CHECK(stamps.find("s1", "/w/" + std::to_string(ReadStamps::kMaxStampsPerSession)));
}

TEST_CASE("read stamps: a stamp recorded again counts as read at its new time when the oldest is evicted",
          "[stamps]") {
  ReadStamps stamps;
  const auto start = std::chrono::system_clock::now();
  auto at = [&](int seconds) { return ReadStamp{identity(1, 1), 0, start + std::chrono::seconds(seconds)}; };
  stamps.record("s1", "/w/first", at(0));
  for (std::size_t i = 1; i < ReadStamps::kMaxStampsPerSession; ++i)
    stamps.record("s1", "/w/" + std::to_string(i), at(static_cast<int>(i)));
  stamps.record("s1", "/w/first", at(100'000)); // read again: now the newest
  stamps.record("s1", "/w/over", at(100'001));
  CHECK(stamps.find("s1", "/w/first"));
  CHECK_FALSE(stamps.find("s1", "/w/1"));
  stamps.forget("s1", "/w/first");
  stamps.record("s1", "/w/more", at(100'002)); // still room: forgetting freed one
  CHECK(stamps.find("s1", "/w/2"));
}

TEST_CASE("read stamps: of two files read at the same instant, the one read again moves, the other stays", "[stamps]") {
  ReadStamps stamps;
  const auto start = std::chrono::system_clock::now();
  auto at = [&](int seconds) { return ReadStamp{identity(1, 1), 0, start + std::chrono::seconds(seconds)}; };
  stamps.record("s1", "/w/a", at(0));
  stamps.record("s1", "/w/b", at(0));
  stamps.record("s1", "/w/b", ReadStamp{identity(2, 2), 7, start + std::chrono::seconds(100'000)});
  REQUIRE(stamps.find("s1", "/w/b"));
  CHECK(stamps.find("s1", "/w/b")->contentHash == 7);
  for (std::size_t i = 2; i < ReadStamps::kMaxStampsPerSession; ++i)
    stamps.record("s1", "/w/" + std::to_string(i), at(static_cast<int>(i)));
  stamps.record("s1", "/w/over", at(100'001)); // one over: the oldest, /w/a, goes; /w/b is newer now
  CHECK_FALSE(stamps.find("s1", "/w/a"));
  CHECK(stamps.find("s1", "/w/b"));
  CHECK(stamps.find("s1", "/w/2"));
}
