#include "core/net/address_class.h"
#include "core/net/http_exchange.h"
#include "loopback_http_server.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <thread>

using namespace toold::core;
using toold::testing::LoopbackHttpServer;
using namespace std::chrono_literals;

namespace {

HttpRequest get(const std::string& url) {
  HttpRequest request;
  request.url = *parseUrl(url);
  return request;
}

void answer(LoopbackHttpServer::Connection& connection, std::string_view body, std::string_view extra = "") {
  connection.write("HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + std::string(extra) +
                   "\r\n" + std::string(body));
}

// A gate the server waits at, so a test decides when the answer goes on.
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  bool open = false;
  void release() {
    std::lock_guard lock(mutex);
    open = true;
    changed.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [this] { return open; });
  }
};

} // namespace

TEST_CASE("httpFetch gets a body and the response head", "[net]") {
  LoopbackHttpServer server([](auto& c) { answer(c, "hello", "X-Thing: 42\r\nContent-Type: text/plain\r\n"); });
  const auto response = httpFetch(get(server.url("/path?q=1")), {}, {});
  REQUIRE(response.outcome.ok());
  CHECK(response.body == "hello");
  REQUIRE(response.outcome.head);
  CHECK(response.outcome.head->status == 200);
  CHECK(response.outcome.head->header("x-thing") == "42");
  CHECK(response.outcome.head->header("content-type") == "text/plain");
  CHECK_FALSE(response.outcome.head->header("missing"));
  CHECK(response.outcome.connected_address == "127.0.0.1");
  const auto request = server.requests().at(0);
  CHECK(request.starts_with("GET /path?q=1 HTTP/1.1\r\n"));
  CHECK(request.find("Host: 127.0.0.1:" + std::to_string(server.port())) != std::string::npos);
  CHECK(request.find("User-Agent: toold/") != std::string::npos);
}

TEST_CASE("httpExchange sends a POST body with its headers", "[net]") {
  LoopbackHttpServer server([](auto& c) { answer(c, "{}"); });
  HttpRequest request = get(server.url("/mcp"));
  request.method = "POST";
  request.headers = {{"Content-Type", "application/json"}, {"Mcp-Session-Id", "abc"}};
  request.body = R"({"jsonrpc":"2.0"})";
  const auto response = httpFetch(request, {}, {});
  REQUIRE(response.outcome.ok());
  const auto seen = server.requests().at(0);
  CHECK(seen.starts_with("POST /mcp HTTP/1.1\r\n"));
  CHECK(seen.find("Mcp-Session-Id: abc\r\n") != std::string::npos);
  CHECK(seen.find("Content-Length: 17\r\n") != std::string::npos);
  CHECK(seen.ends_with(R"({"jsonrpc":"2.0"})"));
}

TEST_CASE("httpExchange delivers a chunked stream piece by piece, as it arrives", "[net]") {
  Gate gate;
  LoopbackHttpServer server([&gate](auto& c) {
    c.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
    c.write("7\r\ndata: 1\r\n");
    gate.wait(); // the second event goes out only once the client has seen the first
    c.write("7\r\ndata: 2\r\n0\r\n\r\n");
  });
  std::vector<std::string> pieces;
  int heads = 0;
  const auto outcome = httpExchange(
      get(server.url()), {}, {}, [&heads](const HttpResponseHead& head) { heads += head.status == 200; },
      [&](std::string_view chunk) {
        pieces.emplace_back(chunk);
        gate.release();
        return true;
      });
  REQUIRE(outcome.ok());
  CHECK(heads == 1);
  REQUIRE(pieces.size() == 2);
  CHECK(pieces[0] == "data: 1");
  CHECK(pieces[1] == "data: 2");
}

TEST_CASE("httpExchange stops reading when the sink says so", "[net]") {
  LoopbackHttpServer server([](auto& c) {
    c.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n");
    c.waitForClose(); // never finishes: only the client's stop ends this
  });
  std::string seen;
  const auto outcome = httpExchange(get(server.url()), {}, {}, {}, [&seen](std::string_view chunk) {
    seen.append(chunk);
    return false;
  });
  CHECK(outcome.ok());
  CHECK(seen == "first");
}

TEST_CASE("httpExchange reads a body that ends with the connection", "[net]") {
  LoopbackHttpServer server([](auto& c) { c.write("HTTP/1.0 200 OK\r\n\r\nuntil the end"); });
  const auto response = httpFetch(get(server.url()), {}, {});
  REQUIRE(response.outcome.ok());
  CHECK(response.body == "until the end");
}

TEST_CASE("httpExchange caps the body and the headers", "[net]") {
  LoopbackHttpServer server([](auto& c) {
    if (c.request.find("GET /big-body") == 0) answer(c, std::string(2000, 'x'));
    else answer(c, "", "X-Padding: " + std::string(3000, 'p') + "\r\n");
  });
  HttpOptions options;
  options.max_body_bytes = 1000;
  auto response = httpFetch(get(server.url("/big-body")), options, {});
  CHECK(response.outcome.failure == HttpFailure::too_large);
  CHECK(response.outcome.error == "the response's body is larger than 1000 bytes");
  CHECK(response.body.size() <= 1000);

  options.max_header_bytes = 1024;
  response = httpFetch(get(server.url("/big-head")), options, {});
  CHECK(response.outcome.failure == HttpFailure::too_large);
  CHECK(response.outcome.error.find("headers are larger than 1024") != std::string::npos);
}

TEST_CASE("httpExchange reads a body of any length when the cap is 0 (none)", "[net]") {
  LoopbackHttpServer server([](auto& c) { answer(c, std::string(100'000, 'z')); });
  HttpOptions options;
  options.max_body_bytes = 0;
  const auto response = httpFetch(get(server.url()), options, {});
  REQUIRE(response.outcome.ok());
  CHECK(response.body.size() == 100'000);
}

TEST_CASE("httpExchange asks about each resolved address before connecting", "[net]") {
  LoopbackHttpServer server([](auto& c) { answer(c, "secret"); });
  HttpOptions options;
  options.refuse_address = refusePrivateAddress;
  const auto response = httpFetch(get(server.url()), options, {});
  CHECK(response.outcome.failure == HttpFailure::refused_address);
  CHECK(response.outcome.error.find("127.0.0.1 is a loopback or private address") == 0);
  CHECK(response.body.empty());
  CHECK(server.connections() == 0);
}

TEST_CASE("httpExchange ends at its deadline and after an idle wait", "[net]") {
  LoopbackHttpServer server([](auto& c) {
    if (c.request.find("GET /trickle") == 0) c.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n");
    c.waitForClose(); // never answers (or never finishes)
  });
  HttpOptions options;
  options.timeout = 300ms;
  auto response = httpFetch(get(server.url("/silent")), options, {});
  CHECK(response.outcome.failure == HttpFailure::timeout);
  CHECK(response.outcome.error.find("took longer than 300 ms") != std::string::npos);

  options.timeout = 30s;
  options.idle_timeout = 200ms;
  response = httpFetch(get(server.url("/trickle")), options, {});
  CHECK(response.outcome.failure == HttpFailure::timeout);
  CHECK(response.outcome.error.find("sent nothing for 200 ms") != std::string::npos);
  CHECK(response.body == "a");
}

TEST_CASE("httpExchange is cancelled from another thread, and before it starts", "[net]") {
  Gate started;
  LoopbackHttpServer server([&started](auto& c) {
    c.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
    started.release();
    c.waitForClose();
  });
  CancellationSource source;
  std::thread canceller([&] {
    started.wait();
    source.cancel("the call was interrupted");
  });
  auto response = httpFetch(get(server.url()), {}, source.token());
  canceller.join();
  CHECK(response.outcome.failure == HttpFailure::cancelled);
  CHECK(response.outcome.error == "the request was cancelled (the call was interrupted)");

  const int before = server.connections();
  response = httpFetch(get(server.url()), {}, source.token()); // already cancelled
  CHECK(response.outcome.failure == HttpFailure::cancelled);
  CHECK(server.connections() == before);
}

TEST_CASE("httpExchange says when nothing listens", "[net]") {
  unsigned short port = 0;
  {
    LoopbackHttpServer closed([](auto&) {});
    port = closed.port();
  }
  const auto response = httpFetch(get("http://127.0.0.1:" + std::to_string(port) + "/"), {}, {});
  CHECK(response.outcome.failure == HttpFailure::connect);
  CHECK(response.outcome.error.find("could not connect to 127.0.0.1:" + std::to_string(port)) == 0);
}

TEST_CASE("httpExchange verifies TLS certificates unless told not to", "[net]") {
  LoopbackHttpServer server([](auto& c) { answer(c, "over tls"); }, /*tls=*/true);
  auto response = httpFetch(get(server.url()), {}, {});
  CHECK(response.outcome.failure == HttpFailure::tls);
  CHECK(response.outcome.error.find("certificate verify failed") != std::string::npos);

  HttpOptions trusting;
  trusting.verify_tls = false;
  response = httpFetch(get(server.url()), trusting, {});
  REQUIRE(response.outcome.ok());
  CHECK(response.body == "over tls");
}

// Each TEST_CASE runs in a process of its own (ctest), so the module is looked for afresh here.
TEST_CASE("http exchange: without toold-web.so an exchange fails plainly, naming the file", "[net]") {
  ::setenv("TOOLD_WEB_MODULE", "/nonexistent/toold-web.so", 1);
  const auto response = httpFetch(get("http://127.0.0.1:9/"), HttpOptions{}, CancellationToken{});
  CHECK(response.outcome.failure == HttpFailure::unavailable);
  CHECK(response.outcome.error.find("toold-web.so (TLS and HTML support) is missing") != std::string::npos);
  CHECK(response.outcome.error.find("/nonexistent/toold-web.so") != std::string::npos);
}
