#include "builtins/shell/progress_throttle.h"
#include "builtins/text/text_encoding.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using toold::builtins::firstInvalidUtf8;
using toold::builtins::ProgressLimits;
using toold::builtins::ProgressThrottle;
using toold::builtins::ProgressUpdate;
using namespace std::chrono_literals;

namespace {

using Clock = ProgressThrottle::Clock;
const Clock::time_point t0{};
const std::string kReplacement = "\xef\xbf\xbd";

std::string repeat(std::string_view text, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) out += text;
  return out;
}

/// Digits, letters and multi-byte characters, each byte telling its offset apart.
std::string sampleOutput(std::size_t size, std::mt19937& random) {
  static const std::vector<std::string> pieces = {"a", "b", "0", "\n", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
  std::string out;
  while (out.size() < size) out += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(random)];
  return out;
}

struct Sent {
  ProgressUpdate update;
  Clock::time_point at;
  std::size_t rawSoFar = 0; ///< bytes added when it was sent
};

/// Checks a whole sequence of updates of valid UTF-8 `raw`: each is the raw bytes at its offset,
/// valid, and starts where the previous one ended plus what was skipped; together they cover it.
void checkSequence(const std::vector<Sent>& sent, std::string_view raw) {
  std::uint64_t next = 0;
  for (std::size_t i = 0; i < sent.size(); ++i) {
    const ProgressUpdate& update = sent[i].update;
    INFO("update " << i << " at offset " << update.offset << ", skipped " << update.skipped);
    CHECK(firstInvalidUtf8(update.text) == std::string_view::npos);
    CHECK(update.offset == next + update.skipped);
    REQUIRE(update.offset + update.text.size() <= raw.size());
    CHECK(raw.substr(update.offset, update.text.size()) == update.text);
    next = update.offset + update.text.size();
  }
  CHECK(next == raw.size());
}

} // namespace

TEST_CASE("progress: a small write is sent 100 ms after its first byte", "[progress]") {
  ProgressThrottle throttle;
  CHECK_FALSE(throttle.deadline());
  CHECK_FALSE(throttle.add("hello", t0));
  CHECK(throttle.deadline() == t0 + 100ms);
  CHECK_FALSE(throttle.add(" world", t0 + 50ms));
  CHECK(throttle.deadline() == t0 + 100ms);
  CHECK_FALSE(throttle.flush(t0 + 99ms));
  const auto update = throttle.flush(t0 + 100ms);
  REQUIRE(update);
  CHECK(update->text == "hello world");
  CHECK(update->offset == 0);
  CHECK(update->skipped == 0);
  CHECK_FALSE(throttle.deadline());
  CHECK_FALSE(throttle.flush(t0 + 1s));
  CHECK(throttle.updatesSent() == 1);

  // The next wait starts with the next byte, and a due add returns the update itself.
  CHECK_FALSE(throttle.add("again", t0 + 5s));
  CHECK(throttle.deadline() == t0 + 5s + 100ms);
  const auto late = throttle.add("!", t0 + 5s + 120ms);
  REQUIRE(late);
  CHECK(late->text == "again!");
  CHECK(late->offset == 11);
}

TEST_CASE("progress: 8 KiB waiting are sent at once, in chunks", "[progress]") {
  ProgressThrottle throttle;
  CHECK_FALSE(throttle.add(std::string(8191, 'a'), t0));
  const auto full = throttle.add("b", t0 + 1ms);
  REQUIRE(full);
  CHECK(full->text == std::string(8191, 'a') + "b");
  CHECK_FALSE(throttle.deadline());

  const std::string big = std::string(8192, 'x') + std::string(8192, 'y') + std::string(4096, 'z');
  const auto first = throttle.add(big, t0 + 2ms);
  REQUIRE(first);
  CHECK(first->text == std::string(8192, 'x'));
  CHECK(first->offset == 8192);
  REQUIRE(throttle.deadline());
  CHECK(*throttle.deadline() <= t0 + 2ms);
  const auto second = throttle.flush(t0 + 2ms);
  REQUIRE(second);
  CHECK(second->text == std::string(8192, 'y'));
  CHECK(second->offset == 16384);
  // What is left of the batch is due at once, although less than a chunk.
  const auto third = throttle.flush(t0 + 2ms);
  REQUIRE(third);
  CHECK(third->text == std::string(4096, 'z'));
  CHECK(third->offset == 24576);
  CHECK_FALSE(throttle.flush(t0 + 2ms));
  CHECK_FALSE(throttle.deadline());
  CHECK(throttle.updatesSent() == 4);
}

TEST_CASE("progress: after fullUpdates, one update a second with the newest bytes", "[progress]") {
  ProgressLimits limits;
  limits.chunkBytes = 16;
  limits.fullUpdates = 3;
  std::string raw;
  std::vector<Sent> sent;
  ProgressThrottle throttle(limits);
  const auto keep = [&](std::optional<ProgressUpdate> update, Clock::time_point now) {
    if (update) sent.push_back({std::move(*update), now, raw.size()});
    return update.has_value();
  };
  // Ten bytes every 10 ms for five seconds.
  for (int tick = 1; tick <= 500; ++tick) {
    const Clock::time_point now = t0 + tick * 10ms;
    std::string bytes;
    for (int i = 0; i < 10; ++i) bytes += static_cast<char>('a' + (tick * 10 + i) % 26);
    raw += bytes;
    if (keep(throttle.add(bytes, now), now)) {
      while (keep(throttle.flush(now), now)) {}
    }
  }
  keep(throttle.drain(), t0 + 5s);
  checkSequence(sent, raw);

  // Full mode: 16 bytes at 20 ms, the 4 left at once, 16 at 40 ms.
  REQUIRE(sent.size() > 6);
  CHECK(sent[0].update.text.size() == 16);
  CHECK(sent[0].at == t0 + 20ms);
  CHECK(sent[1].update.text.size() == 4);
  CHECK(sent[1].at == t0 + 20ms);
  CHECK(sent[2].update.text.size() == 16);
  CHECK(sent[2].at == t0 + 40ms);
  // Slow mode: a second apart, the newest 16 bytes each time, the rest counted as skipped.
  for (std::size_t i = 3; i + 1 < sent.size(); ++i) {
    INFO("update " << i);
    CHECK(sent[i].at - sent[i - 1].at >= 1s);
    CHECK(sent[i].at - sent[i - 1].at < 1s + 10ms);
    CHECK(sent[i].update.text.size() == 16);
    CHECK(sent[i].update.offset + 16 == sent[i].rawSoFar);
    CHECK(sent[i].update.skipped > 0);
  }
  CHECK(sent.size() == 3 + 4 + 1); // at 1.04 s, 2.04 s, 3.04 s, 4.04 s, then drained
  CHECK(throttle.updatesSent() == sent.size());
  CHECK_FALSE(throttle.drain());
}

TEST_CASE("progress: slow mode passes over a character whose start it passed over", "[progress]") {
  ProgressLimits limits;
  limits.chunkBytes = 8;
  limits.fullUpdates = 0;
  ProgressThrottle throttle(limits);
  const std::string euros = repeat("\xe2\x82\xac", 10);
  CHECK_FALSE(throttle.add(euros, t0));
  CHECK(throttle.deadline() == t0 + 100ms);
  const auto update = throttle.flush(t0 + 100ms);
  REQUIRE(update);
  CHECK(update->text == repeat("\xe2\x82\xac", 2));
  CHECK(update->offset == 24);
  CHECK(update->skipped == 24);
  CHECK_FALSE(throttle.add("x", t0 + 200ms));
  CHECK(throttle.deadline() == t0 + 1100ms);
  const auto drained = throttle.drain();
  REQUIRE(drained);
  CHECK(drained->text == "x");
  CHECK(drained->offset == 30);
  CHECK(drained->skipped == 0);
}

TEST_CASE("progress: a UTF-8 character split across add calls is held back", "[progress]") {
  ProgressThrottle throttle;
  CHECK_FALSE(throttle.add("a\xe2\x82", t0));
  const auto first = throttle.flush(t0 + 100ms);
  REQUIRE(first);
  CHECK(first->text == "a");
  CHECK(first->offset == 0);
  CHECK_FALSE(throttle.deadline()); // a held-back character alone waits for its end
  CHECK_FALSE(throttle.add("\xac b", t0 + 150ms));
  CHECK(throttle.deadline() == t0 + 250ms);
  const auto second = throttle.flush(t0 + 250ms);
  REQUIRE(second);
  CHECK(second->text == "\xe2\x82\xac b");
  CHECK(second->offset == 1);
  CHECK_FALSE(throttle.drain());

  // Held back alone: no update at all until it is complete.
  ProgressThrottle lone;
  CHECK_FALSE(lone.add("\xf0\x9f", t0));
  CHECK_FALSE(lone.flush(t0 + 100ms));
  CHECK_FALSE(lone.deadline());
  CHECK(lone.updatesSent() == 0);
  CHECK_FALSE(lone.add("\x98\x80", t0 + 1s));
  const auto whole = lone.flush(t0 + 1100ms);
  REQUIRE(whole);
  CHECK(whole->text == "\xf0\x9f\x98\x80");
  CHECK(whole->offset == 0);
}

TEST_CASE("progress: a chunk boundary inside a character", "[progress]") {
  ProgressThrottle throttle;
  const auto first = throttle.add(repeat("\xe2\x82\xac", 3000), t0);
  REQUIRE(first);
  CHECK(first->text == repeat("\xe2\x82\xac", 2730)); // 8192 bytes, the last 2 held back
  CHECK(first->offset == 0);
  const auto second = throttle.flush(t0);
  REQUIRE(second);
  CHECK(second->text == repeat("\xe2\x82\xac", 270));
  CHECK(second->offset == 8190);
  CHECK_FALSE(throttle.flush(t0));
}

TEST_CASE("progress: ill-formed bytes become U+FFFD", "[progress]") {
  ProgressThrottle throttle;
  throttle.add("a\xff" "b\xc3(c\xe0\x80" "d\xed\xa0\x80" "e\xf0\x9f\x98", t0);
  const auto update = throttle.drain();
  REQUIRE(update);
  const std::string r = kReplacement;
  CHECK(update->text == "a" + r + "b" + r + "(c" + r + r + "d" + r + r + r + "e" + r);

  // An incomplete character followed by what cannot complete it.
  ProgressThrottle broken;
  CHECK_FALSE(broken.add("x\xe2\x82", t0));
  const auto x = broken.flush(t0 + 100ms);
  REQUIRE(x);
  CHECK(x->text == "x");
  CHECK_FALSE(broken.add("Z", t0 + 200ms));
  const auto z = broken.flush(t0 + 300ms);
  REQUIRE(z);
  CHECK(z->text == r + "Z");
  CHECK(z->offset == 1);

  // At the end, an incomplete character is given up as U+FFFD.
  ProgressThrottle ending;
  ending.add("ok\xf0\x9f", t0);
  ending.flush(t0 + 100ms);
  const auto last = ending.drain();
  REQUIRE(last);
  CHECK(last->text == r);
  CHECK(last->offset == 2);
}

TEST_CASE("progress: drain sends whatever waits, whatever the time", "[progress]") {
  ProgressThrottle throttle;
  CHECK_FALSE(throttle.drain());
  throttle.add("abc", t0);
  const auto update = throttle.drain();
  REQUIRE(update);
  CHECK(update->text == "abc");
  CHECK(update->offset == 0);
  CHECK_FALSE(throttle.drain());
  CHECK_FALSE(throttle.deadline());
  CHECK(throttle.updatesSent() == 1);
}

TEST_CASE("progress: random output, random timing: contiguous valid updates", "[progress]") {
  std::mt19937 random(4242);
  for (int round = 0; round < 60; ++round) {
    ProgressLimits limits;
    limits.chunkBytes = std::uniform_int_distribution<std::size_t>(4, 64)(random);
    limits.fullUpdates = std::uniform_int_distribution<std::size_t>(0, 20)(random);
    const std::string raw = sampleOutput(std::uniform_int_distribution<std::size_t>(0, 5000)(random), random);
    ProgressThrottle throttle(limits);
    std::vector<Sent> sent;
    const auto keep = [&](std::optional<ProgressUpdate> update, Clock::time_point now, std::size_t soFar) {
      if (update) sent.push_back({std::move(*update), now, soFar});
      return update.has_value();
    };
    Clock::time_point now = t0;
    std::size_t at = 0;
    while (at < raw.size()) {
      now += std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 150)(random));
      // The caller's timer: flush at each deadline passed.
      while (throttle.deadline() && *throttle.deadline() <= now) {
        if (!keep(throttle.flush(*throttle.deadline()), now, at)) break;
      }
      const std::size_t size = std::uniform_int_distribution<std::size_t>(1, 100)(random);
      const std::string_view bytes = std::string_view(raw).substr(at, size);
      at += bytes.size();
      if (keep(throttle.add(bytes, now), now, at)) {
        while (keep(throttle.flush(now), now, at)) {}
      }
    }
    keep(throttle.drain(), now, at);
    INFO("round " << round);
    checkSequence(sent, raw);
    for (std::size_t i = 0; i < sent.size(); ++i) {
      if (i < limits.fullUpdates) CHECK(sent[i].update.skipped == 0);
      CHECK(sent[i].update.text.size() <= limits.chunkBytes + 3);
    }
  }
}
