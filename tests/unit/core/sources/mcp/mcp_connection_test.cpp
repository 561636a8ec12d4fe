// The MCP client's conversation: one timer serves every request's deadline, set for the earliest.
#include "core/sources/mcp/mcp_connection.h"

#include <boost/asio/post.hpp>
#include <catch2/catch.hpp>

#include <mutex>
#include <string>
#include <vector>

using namespace toold::core;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

struct Ended {
  std::string name;
  bool timedOut = false;
  std::string message;
};

} // namespace

TEST_CASE("mcp connection: deadlines end in their order, progress restarts one, answered ones never fire",
          "[mcp_client]") {
  boost::asio::io_context io;
  auto strand = boost::asio::make_strand(io);
  std::vector<json> sent;
  McpConnection connection(
      strand, [&](std::string frame) { sent.push_back(json::parse(frame)); },
      [](const std::string&, const json&, std::function<void(McpAnswer)>) {}, [](const std::string&, const json&) {});
  std::vector<Ended> ended;
  auto request = [&](const std::string& name, std::chrono::milliseconds timeout, bool progress = false) {
    McpRequestOptions options;
    options.timeout = timeout;
    if (progress) options.onProgress = [](const json&) {};
    return connection.request("tools/call", json{{"name", name}}, options, [&ended, name](McpAnswer answer) {
      ended.push_back({name, answer.error && answer.error->code == kMcpTimeoutCode,
                       answer.error ? answer.error->message : std::string()});
    });
  };
  std::int64_t answeredId = 0, progressId = 0;
  boost::asio::post(strand, [&] {
    request("late", 800ms);           // sets the timer
    request("first", 100ms);          // earlier: moves it
    progressId = request("restarted", 200ms, true);
    answeredId = request("answered", 150ms);
  });
  boost::asio::steady_timer answer(strand), progress(strand);
  answer.expires_after(20ms);
  answer.async_wait([&](auto) {
    connection.receive(json{{"jsonrpc", "2.0"}, {"id", answeredId}, {"result", {{"ok", true}}}});
  });
  progress.expires_after(150ms);
  progress.async_wait([&](auto) {
    connection.receive(json{{"jsonrpc", "2.0"}, {"method", "notifications/progress"},
                            {"params", {{"progressToken", progressId}, {"progress", 1}}}});
  });
  io.run_for(3s);
  REQUIRE(ended.size() == 4);
  CHECK(ended[0].name == "answered");
  CHECK_FALSE(ended[0].timedOut);
  CHECK(ended[1].name == "first");
  CHECK(ended[2].name == "restarted");
  CHECK(ended[3].name == "late");
  for (std::size_t i = 1; i < 4; ++i) CHECK(ended[i].timedOut);
  CHECK(ended[1].message == "tools/call timed out after 0.1 s");
  // The server heard of each request that timed out, and of no other.
  std::vector<std::int64_t> cancelled;
  for (const json& frame : sent)
    if (frame.value("method", "") == "notifications/cancelled") {
      CHECK(frame["params"]["reason"] == "timeout");
      cancelled.push_back(frame["params"]["requestId"].get<std::int64_t>());
    }
  CHECK(cancelled == std::vector<std::int64_t>{2, 3, 1});

  // With nothing pending the timer is idle; a new request sets it again.
  ended.clear();
  io.restart();
  boost::asio::post(strand, [&] { request("again", 50ms); });
  io.run_for(1s);
  REQUIRE(ended.size() == 1);
  CHECK(ended[0].timedOut);
}

TEST_CASE("mcp connection: requestNow from any thread, an answer read before its bookkeeping is kept for it",
          "[mcp_client]") {
  boost::asio::io_context io;
  auto strand = boost::asio::make_strand(io);
  std::vector<json> sent;
  std::mutex sentMutex;
  auto connection = std::make_shared<McpConnection>(
      strand,
      [&](std::string frame) {
        std::lock_guard lock(sentMutex);
        sent.push_back(json::parse(frame));
      },
      [](const std::string&, const json&, std::function<void(McpAnswer)>) {}, [](const std::string&, const json&) {});
  std::vector<json> answers;
  auto keep = [&answers](McpAnswer answer) { answers.push_back(answer.result.value_or(json("error"))); };
  // From this thread, the io_context not running: the frame is out at once.
  const std::int64_t first = connection->requestNow("tools/call", json{{"n", 1}}, {}, keep);
  {
    std::lock_guard lock(sentMutex);
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["id"] == first);
    CHECK(sent[0]["params"] == json{{"n", 1}});
  }
  // The strand reads the answer to a second request in the same handler that sent it (a reader
  // draining its pipe does that): the request is already in the table.
  boost::asio::post(strand, [&] {
    connection->receive(json{{"jsonrpc", "2.0"}, {"id", first}, {"result", {{"answer", 1}}}});
    const std::int64_t second = connection->requestNow("tools/call", json{{"n", 2}}, {}, keep);
    connection->receive(json{{"jsonrpc", "2.0"}, {"id", second}, {"result", {{"answer", 2}}}});
    // An answer to an id never asked for is dropped, not kept.
    connection->receive(json{{"jsonrpc", "2.0"}, {"id", 999}, {"result", {{"answer", 999}}}});
  });
  io.run_for(1s);
  // The first was answered too, though the strand had not run at all when it was sent.
  CHECK(answers == std::vector<json>{{{"answer", 1}}, {{"answer", 2}}});
  CHECK(connection->pendingCount() == 0);
  // Closed: a request still gets its answer, the close's reason.
  std::vector<std::string> errors;
  boost::asio::post(strand, [&] { connection->close("the server exited"); });
  io.restart();
  io.run_for(1s);
  connection->requestNow("tools/call", nullptr, {}, [&](McpAnswer answer) { errors.push_back(answer.error->message); });
  io.restart();
  io.run_for(1s);
  CHECK(errors == std::vector<std::string>{"the server exited"});
}

TEST_CASE("mcp connection: an answer's result reaches its request's handler without being copied", "[mcp_client]") {
  boost::asio::io_context io;
  auto strand = boost::asio::make_strand(io);
  McpConnection connection(
      strand, [](std::string) {}, [](const std::string&, const json&, std::function<void(McpAnswer)>) {},
      [](const std::string&, const json&) {});
  const char* handed = nullptr;
  std::string received;
  const std::int64_t id = connection.requestNow("tools/call", json::object(), McpRequestOptions{}, [&](McpAnswer answer) {
    REQUIRE(answer.result);
    const auto& text = answer.result->at("content").get_ref<const std::string&>();
    handed = text.data();
    received = text;
  });
  // A text far past any small-string buffer: the same bytes where they were parsed, or a copy.
  json message{{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"content", std::string(64 * 1024, 'x')}}}};
  const char* parsed = message["result"]["content"].get_ref<const std::string&>().data();
  connection.receive(std::move(message));
  CHECK(received == std::string(64 * 1024, 'x'));
  CHECK(handed == parsed);
}
