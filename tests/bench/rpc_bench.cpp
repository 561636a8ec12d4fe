// Each timed loop sends prebuilt bytes and scans replies without a DOM, so the client's share of
// the round trip stays small next to the server's.
#include "tests/bench/rpc_bench.h"

#include "daemon/child_process.h"
#include "tests/bench/message_scan.h"
#include "tests/bench/resident_memory.h"
#include "tests/bench/rpc_connection.h"

#include <algorithm>
#include <stdexcept>

namespace toold::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::int64_t kInitializeId = 1;
constexpr std::string_view kInitialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
    R"("capabilities":{},"clientInfo":{"name":"toold-bench-rpc","version":"1"}}})";
constexpr std::string_view kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
// How long a server may take to exit once its input is closed before it is terminated, and
// then to stop after SIGTERM before it is killed.
constexpr auto kExitGrace = std::chrono::seconds(5);
constexpr auto kTerminateGrace = std::chrono::seconds(1);

std::string pingBody(std::int64_t id) { return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"ping"})"; }

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string excerpt(const std::string& body) { return body.size() > 300 ? body.substr(0, 300) + "..." : body; }

// stderr goes to /dev/null unless kept, so a chatty server does not slow itself down writing to
// a terminal.
client::ChildProcess::Options serverOptions(const std::vector<std::string>& argv, const BenchConfig& config) {
  return {.argv = argv, .stderrFile = config.keepStderr ? "" : "/dev/null"};
}

/// One running server with its connection, and the replies read but not yet consumed.
class Session {
public:
  Session(const std::vector<std::string>& argv, const BenchConfig& config)
      : child_(serverOptions(argv, config)), connection_(child_, config.framing, config.timeout) {}

  RpcConnection& connection() { return connection_; }
  client::ChildProcess& child() { return child_; }

  /// The next frame that answers one of our requests; notifications are dropped and requests
  /// from the server are refused, so neither disturbs the count.
  std::pair<MessageShape, const std::string*> nextResponse() {
    for (;;) {
      if (next_ == frames_.size()) {
        frames_.clear();
        next_ = 0;
        connection_.receive(frames_);
      }
      const std::string& body = frames_[next_++];
      MessageShape shape = scanMessage(body);
      if (!shape.valid) throw std::runtime_error("the server sent something that is not a JSON object: " + excerpt(body));
      if (shape.hasMethod) {
        if (shape.hasId) refuse(body);
        continue;
      }
      if (!shape.id) throw std::runtime_error("a reply without an integer id: " + excerpt(body));
      if (shape.hasError) throw std::runtime_error("the server answered with an error: " + excerpt(body));
      return {shape, &body};
    }
  }

  /// True when every frame read so far was consumed: the pipelined loop batches its sends by read.
  bool drained() const { return next_ == frames_.size(); }

  void initialize() {
    connection_.send(kInitialize);
    auto [shape, body] = nextResponse();
    if (shape.id != kInitializeId || !shape.hasResult)
      throw std::runtime_error("unexpected reply to initialize: " + excerpt(*body));
    connection_.send(kInitialized);
  }

  void finish() {
    child_.closeStdin();
    if (!child_.waitExit(Clock::now() + kExitGrace)) child_.terminate(kTerminateGrace);
  }

private:
  void refuse(const std::string& body) {
    // Echo the id raw: it may be a string.
    const auto idAt = body.find("\"id\"");
    const auto colon = body.find(':', idAt);
    const auto end = body.find_first_of(",}", colon);
    const std::string id = body.substr(colon + 1, end - colon - 1);
    connection_.send(R"({"jsonrpc":"2.0","id":)" + id +
                     R"(,"error":{"code":-32601,"message":"the benchmark client answers no requests"}})");
  }

  client::ChildProcess child_;
  RpcConnection connection_;
  std::vector<std::string> frames_;
  std::size_t next_ = 0;
};

double medianOf(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::vector<double> initializeLatencies(const std::vector<std::string>& argv, const BenchConfig& config) {
  std::vector<double> millis;
  for (std::size_t i = 0; i < config.spawns; ++i) {
    const auto start = Clock::now();
    Session session(argv, config);
    session.initialize();
    millis.push_back(seconds(Clock::now() - start) * 1000.0);
    session.finish();
  }
  return millis;
}

double sequentialPings(Session& session, std::int64_t& nextId, std::size_t count) {
  const auto start = Clock::now();
  for (std::size_t i = 0; i < count; ++i) {
    const std::int64_t id = nextId++;
    session.connection().send(pingBody(id));
    auto [shape, body] = session.nextResponse();
    if (shape.id != id) throw std::runtime_error("expected the reply to ping " + std::to_string(id) + ": " + excerpt(*body));
  }
  return static_cast<double>(count) / seconds(Clock::now() - start);
}

double pipelinedPings(Session& session, std::int64_t& nextId, std::size_t count, std::size_t window) {
  const std::int64_t firstId = nextId;
  std::vector<bool> answered(count, false);
  std::string batch;
  std::size_t sent = 0;
  std::size_t received = 0;
  auto queuePing = [&] {
    batch += session.connection().frame(pingBody(nextId++));
    ++sent;
  };
  const auto start = Clock::now();
  while (sent < std::min(window, count)) queuePing();
  session.connection().sendFramed(batch);
  batch.clear();
  while (received < count) {
    auto [shape, body] = session.nextResponse();
    const std::int64_t index = *shape.id - firstId;
    if (index < 0 || index >= static_cast<std::int64_t>(sent) || answered[static_cast<std::size_t>(index)])
      throw std::runtime_error("a reply to no ping in flight: " + excerpt(*body));
    answered[static_cast<std::size_t>(index)] = true;
    ++received;
    if (sent < count) queuePing();
    // Refill the window once per read, as one write, like a client that batches its output.
    if (session.drained() && !batch.empty()) {
      session.connection().sendFramed(batch);
      batch.clear();
    }
  }
  return static_cast<double>(count) / seconds(Clock::now() - start);
}

} // namespace

BenchResult runBench(const std::vector<std::string>& argv, const BenchConfig& config) {
  BenchResult result;
  if (config.spawns > 0) {
    const auto millis = initializeLatencies(argv, config);
    result.initializeMedianMs = medianOf(millis);
    result.initializeMinMs = *std::min_element(millis.begin(), millis.end());
    result.initializeMaxMs = *std::max_element(millis.begin(), millis.end());
  }

  Session session(argv, config);
  session.initialize();
  std::int64_t nextId = kInitializeId + 1;
  sequentialPings(session, nextId, config.warmup);
  result.sequentialPerSecond = sequentialPings(session, nextId, config.pings);
  pipelinedPings(session, nextId, config.warmup, config.pipeline);
  result.pipelinedPerSecond = pipelinedPings(session, nextId, config.pings, config.pipeline);
  result.residentKiB = residentKiB(session.child().pid());
  session.finish();
  return result;
}

} // namespace toold::bench
