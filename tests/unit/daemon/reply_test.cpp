// Reply-exactly-once: one answer per request, a dropped reply answers -32603, a second is dropped.
#include "daemon/reply.h"

#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

using toold::daemon::BatchReply;
using toold::daemon::Reply;
using toold::daemon::WeakReply;
using nlohmann::json;

TEST_CASE("a reply is sent once, a second answer is dropped", "[reply]") {
  std::vector<json> sent;
  int done = 0;
  Reply reply(json(4), "ping", [&](std::string&& m) { sent.push_back(json::parse(m)); }, [&] { ++done; });
  reply(json::object());
  reply.error(toold::protocol::ErrorCode::InternalError, "late");
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == json::parse(R"({"jsonrpc":"2.0","id":4,"result":{}})"));
  CHECK(done == 1);
  CHECK(reply.answered());
}

TEST_CASE("a result written into the message is an answer like any other", "[reply]") {
  std::vector<std::string> sent;
  int done = 0;
  Reply reply(json("r-1"), "call", [&](std::string&& m) { sent.push_back(std::move(m)); }, [&] { ++done; });
  reply.writeResult([](std::string& out) { out += R"({"status":"completed"})"; });
  reply(json::object()); // a second answer, however given, is dropped
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == R"({"id":"r-1","jsonrpc":"2.0","result":{"status":"completed"}})");
  CHECK(done == 1);
  CHECK(reply.answered());
}

TEST_CASE("a result written as pieces is the message writeResult writes, as pieces or joined", "[reply]") {
  const std::string texts[] = {R"({"a":1})", R"({"b":"\u00e9"})"};
  auto pieced = [&] {
    toold::protocol::PiecedText result;
    result.head = R"({"snapshot":"s","tools":)";
    result.pieces = {"[", texts[0], ",", texts[1], "]"};
    result.tail = "}";
    return result;
  };
  const std::string expected = R"({"id":7,"jsonrpc":"2.0","result":{"snapshot":"s","tools":[{"a":1},{"b":"\u00e9"}]}})";
  std::vector<std::string> sent;
  std::vector<toold::protocol::PiecedText> sentPieces;
  int done = 0;
  Reply piecewise(json(7), "snapshot", [&](std::string&& m) { sent.push_back(std::move(m)); }, [&] { ++done; },
                  [&](toold::protocol::PiecedText&& m) { sentPieces.push_back(std::move(m)); });
  piecewise.writeResultPieces(pieced());
  piecewise.writeResultPieces(pieced()); // a second answer is dropped
  CHECK(sent.empty());
  REQUIRE(sentPieces.size() == 1);
  CHECK(sentPieces[0].pieces.size() == 5); // not copied together
  CHECK(sentPieces[0].joined() == expected);
  CHECK(sentPieces[0].size() == expected.size());
  CHECK(done == 1);
  // Without a receiver of pieces (in a batch), the same text joined.
  Reply joined(json(7), "snapshot", [&](std::string&& m) { sent.push_back(std::move(m)); });
  joined.writeResultPieces(pieced());
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == expected);
  // Framed as a body is framed.
  CHECK(toold::protocol::framePieces(pieced(), toold::protocol::Framing::Ndjson).joined() ==
        toold::protocol::frameBody(pieced().joined(), toold::protocol::Framing::Ndjson));
  CHECK(toold::protocol::framePieces(pieced(), toold::protocol::Framing::ContentLength).joined() ==
        toold::protocol::frameBody(pieced().joined(), toold::protocol::Framing::ContentLength));
}

TEST_CASE("dropping every copy unanswered sends an internal error", "[reply]") {
  std::vector<json> sent;
  {
    Reply reply(json("abc"), "tools/call", [&](std::string&& m) { sent.push_back(json::parse(m)); });
    Reply copy = reply; // copies share one answer
  }
  REQUIRE(sent.size() == 1);
  CHECK(sent[0]["id"] == "abc");
  CHECK(sent[0]["error"]["code"] == -32603);
  CHECK(sent[0]["error"]["message"].get<std::string>().find("tools/call") != std::string::npos);
}

TEST_CASE("a weak reply does not keep the request alive", "[reply]") {
  std::vector<json> sent;
  WeakReply weak;
  {
    Reply reply(json(1), "m", [&](std::string&& m) { sent.push_back(json::parse(m)); });
    weak = WeakReply(reply);
    REQUIRE(weak.lock().has_value());
  }
  CHECK_FALSE(weak.lock().has_value());
  CHECK(sent.size() == 1); // the drop was detected
}

TEST_CASE("racing answers from many threads send exactly one", "[reply]") {
  for (int round = 0; round < 20; ++round) {
    std::atomic<int> sent{0};
    Reply reply(json(round), "m", [&](std::string&&) { sent.fetch_add(1); });
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) threads.emplace_back([reply, t] { reply(json(t)); });
    for (auto& thread : threads) thread.join();
    CHECK(sent.load() == 1);
  }
}

TEST_CASE("a batch is sent once every expected answer is in", "[reply]") {
  std::vector<json> sent;
  BatchReply batch(2, [&](std::string&& m) { sent.push_back(json::parse(m)); });
  batch.add(R"({"id":1})");
  CHECK(sent.empty());
  batch.add(R"({"id":2})");
  REQUIRE(sent.size() == 1);
  CHECK(sent[0] == json::parse(R"([{"id":1},{"id":2}])"));
}

TEST_CASE("a withdrawn reply sends nothing and counts as answered, a batch leaves it out", "[reply]") {
  std::vector<json> sent;
  int done = 0;
  Reply reply(json(5), "sleep", [&](std::string&& m) { if (!m.empty()) sent.push_back(json::parse(m)); }, [&] { ++done; });
  reply.withdraw();
  reply(json::object()); // the handler's late answer is dropped
  CHECK(sent.empty());
  CHECK(done == 1);
  CHECK(reply.answered());

  std::vector<json> batches;
  BatchReply batch(2, [&](std::string&& m) { batches.push_back(json::parse(m)); });
  Reply first(json(1), "ping", [batch](std::string&& m) mutable { batch.add(std::move(m)); });
  Reply second(json(2), "sleep", [batch](std::string&& m) mutable { batch.add(std::move(m)); });
  second.withdraw();
  CHECK(batches.empty());
  first(json::object());
  REQUIRE(batches.size() == 1);
  CHECK(batches[0].size() == 1);
  CHECK(batches[0][0]["id"] == 1);

  // A batch whose every request was withdrawn sends nothing at all.
  std::vector<json> none;
  BatchReply empty(1, [&](std::string&& m) { none.push_back(json::parse(m)); });
  Reply only(json(3), "sleep", [empty](std::string&& m) mutable { empty.add(std::move(m)); });
  only.withdraw();
  CHECK(none.empty());
}
