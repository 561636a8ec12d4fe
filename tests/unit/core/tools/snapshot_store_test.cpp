#include "core/tools/snapshot_store.h"

#include <catch2/catch.hpp>

using namespace toold::core;

namespace {
std::shared_ptr<const Snapshot> snapshotWithId(std::string id) {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->id = std::move(id);
  return snapshot;
}
} // namespace

TEST_CASE("snapshot store: ids are fresh, release forgets, release twice is false", "[snapshot_store]") {
  SnapshotStore store(4);
  const auto a = store.newId(), b = store.newId();
  CHECK(a != b);
  store.put(snapshotWithId(a));
  CHECK(store.find(a) != nullptr);
  CHECK(store.release(a));
  CHECK(store.find(a) == nullptr);
  CHECK_FALSE(store.release(a));
}

TEST_CASE("snapshot store: past capacity the least recently used snapshot is evicted", "[snapshot_store]") {
  SnapshotStore store(3);
  for (auto id : {"s1", "s2", "s3"}) store.put(snapshotWithId(id));
  REQUIRE(store.find("s1") != nullptr); // s1 is now the most recently used; s2 the least
  store.put(snapshotWithId("s4"));
  CHECK(store.size() == 3);
  CHECK(store.find("s2") == nullptr);
  CHECK(store.find("s1") != nullptr);
  CHECK(store.find("s3") != nullptr);
  CHECK(store.find("s4") != nullptr);
}
