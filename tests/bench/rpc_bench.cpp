// Each timed loop sends prebuilt bytes and scans replies without a DOM, so the client's share of
// the round trip stays small next to the server's. Pings and calls go through the same loops, so
// a call's cost in pings measures the server, not a difference in the client. The servers run
// side by side and take turns, round by round: a change of the machine's load lands on all of
// them, not on whichever was being measured.
#include "tests/bench/rpc_bench.h"

#include "core/process/child_process.h"
#include "tests/bench/message_scan.h"
#include "tests/bench/process_cpu.h"
#include "tests/bench/resident_memory.h"
#include "tests/bench/rpc_connection.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <signal.h>
#include <sys/resource.h>
#include <memory>
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

  /// Stops the server while the others take their turn (SIGSTOP), so that what it does in the
  /// background (a garbage collector after a burst, say) lands in its own turns, not theirs.
  void pause() { ::kill(child_.pid(), SIGSTOP); }
  void resume() { ::kill(child_.pid(), SIGCONT); }

  void finish() {
    resume();
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

/// What a reply must show beyond answering the right id; checked by scanning, never parsing.
enum class ReplyCheck {
  Result,           ///< a result of any kind: a ping's
  CompletedOutcome, ///< toold's ToolOutcome with `"status":"completed"`
  McpSuccess,       ///< MCP's CallToolResult with `isError` false or absent (MCP's default is false)
};

/// One request whose bytes differ between sends only in its id, spliced in at every gap between
/// the pieces (a native call repeats it in its callID). Built once, so that each send is a few
/// appends into reused buffers, as cheap for a call as for a ping.
struct Request {
  std::string what; ///< for messages: "ping", "call"
  std::vector<std::string> pieces;
  ReplyCheck check = ReplyCheck::Result;
  /// When set, the last gap (a call's arguments) takes 1 + id % cycle instead of the id.
  std::int64_t cycle = 0;
  /// When set, the gap at this index takes sessionTexts[id % their number]: a native call's
  /// snapshot and session, one of several.
  std::size_t sessionGap = 0;
  std::vector<std::string> sessionTexts{};

  void appendBody(std::string& out, std::int64_t id) const {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, id).ptr;
    out += pieces.front();
    for (std::size_t i = 1; i < pieces.size(); ++i) {
      char other[24];
      if (cycle > 0 && i + 1 == pieces.size()) {
        out.append(other, std::to_chars(other, other + sizeof other, 1 + id % cycle).ptr);
      } else if (!sessionTexts.empty() && i == sessionGap) {
        out += sessionTexts[static_cast<std::size_t>(id) % sessionTexts.size()];
      } else {
        out.append(digits, end);
      }
      out += pieces[i];
    }
  }
};

void checkReply(const Request& request, const MessageShape& shape, const std::string& body) {
  if (!shape.hasResult) throw std::runtime_error("a reply to a " + request.what + " without a result: " + excerpt(body));
  switch (request.check) {
  case ReplyCheck::Result: return;
  case ReplyCheck::CompletedOutcome:
    if (memberText(shape.result, "status") != R"("completed")")
      throw std::runtime_error("a call that did not complete: " + excerpt(body));
    return;
  case ReplyCheck::McpSuccess: {
    const auto isError = memberText(shape.result, "isError");
    if (isError && *isError != "false") throw std::runtime_error("a tools/call that failed: " + excerpt(body));
    return;
  }
  }
}

double sequentialRun(Session& session, std::int64_t& nextId, std::size_t count, const Request& request) {
  std::string body;
  std::string bytes;
  const auto start = Clock::now();
  for (std::size_t i = 0; i < count; ++i) {
    const std::int64_t id = nextId++;
    body.clear();
    request.appendBody(body, id);
    bytes.clear();
    session.connection().appendFrame(bytes, body);
    session.connection().sendFramed(bytes);
    auto [shape, reply] = session.nextResponse();
    if (shape.id != id)
      throw std::runtime_error("expected the reply to " + request.what + " " + std::to_string(id) + ": " + excerpt(*reply));
    checkReply(request, shape, *reply);
  }
  return static_cast<double>(count) / seconds(Clock::now() - start);
}

double pipelinedRun(Session& session, std::int64_t& nextId, std::size_t count, std::size_t window, const Request& request) {
  const std::int64_t firstId = nextId;
  std::vector<bool> answered(count, false);
  std::string body;
  std::string batch;
  std::size_t sent = 0;
  std::size_t received = 0;
  auto queue = [&] {
    body.clear();
    request.appendBody(body, nextId++);
    session.connection().appendFrame(batch, body);
    ++sent;
  };
  const auto start = Clock::now();
  while (sent < std::min(window, count)) queue();
  session.connection().sendFramed(batch);
  batch.clear();
  while (received < count) {
    auto [shape, reply] = session.nextResponse();
    const std::int64_t index = *shape.id - firstId;
    if (index < 0 || index >= static_cast<std::int64_t>(sent) || answered[static_cast<std::size_t>(index)])
      throw std::runtime_error("a reply to no " + request.what + " in flight: " + excerpt(*reply));
    checkReply(request, shape, *reply);
    answered[static_cast<std::size_t>(index)] = true;
    ++received;
    if (sent < count) queue();
    // Refill the window once per read, as one write, like a client that batches its output.
    if (session.drained() && !batch.empty()) {
      session.connection().sendFramed(batch);
      batch.clear();
    }
  }
  return static_cast<double>(count) / seconds(Clock::now() - start);
}

Request pingRequest() { return {"ping", {R"({"jsonrpc":"2.0","id":)", R"(,"method":"ping"})"}, ReplyCheck::Result}; }

/// Takes the snapshot the native calls of `sessionID` go through; returns its id as a JSON string
/// literal.
std::string takeSnapshot(Session& session, std::int64_t id, const std::string& sessionID) {
  session.connection().send(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
                            R"(,"method":"snapshot","params":{"sessionID":")" + sessionID + R"(","agent":"bench"}})");
  auto [shape, body] = session.nextResponse();
  if (shape.id != id || !shape.hasResult) throw std::runtime_error("unexpected reply to snapshot: " + excerpt(*body));
  const auto reply = nlohmann::json::parse(*body, nullptr, false);
  const nlohmann::json::json_pointer snapshot("/result/snapshot");
  if (!reply.is_object() || !reply.contains(snapshot) || !reply.at(snapshot).is_string())
    throw std::runtime_error("a reply to snapshot without a snapshot id: " + excerpt(*body));
  return reply.at(snapshot).dump();
}

/// The native call's request with `$/test/echo` as its method: the same bytes to parse (but for
/// the method name), and an answer of a similar size, without the pipeline.
Request echoRequest(Request call) {
  const std::string method = R"("method":"call")";
  for (auto& piece : call.pieces)
    if (auto at = piece.find(method); at != std::string::npos) piece.replace(at, method.size(), R"("method":"$/test/echo")");
  call.what = "$/test/echo";
  call.check = ReplyCheck::Result;
  return call;
}

// Every call's input carries its request id, as a model's calls differ from each other: toold
// holds the third identical call in a row for the person (its doom-loop check). In place of a
// value written "$seq" or "$seq%N" (1 + id % N: read's offset within a file), else as an extra
// "seq" (tools with a strict schema refuse that).
struct SequencedArguments {
  std::string head;
  std::string tail;
  std::int64_t cycle = 0;
};

SequencedArguments sequencedArguments(const std::string& arguments) {
  const std::string placeholder = R"("$seq)";
  if (const auto at = arguments.find(placeholder); at != std::string::npos) {
    const auto close = arguments.find('"', at + 1);
    std::int64_t cycle = 0;
    if (close > at + placeholder.size()) {
      const std::string_view rest(arguments.data() + at + placeholder.size(), close - at - placeholder.size());
      const auto [end, ec] = std::from_chars(rest.data() + 1, rest.data() + rest.size(), cycle);
      if (rest.front() != '%' || ec != std::errc() || end != rest.data() + rest.size() || cycle <= 0)
        throw std::invalid_argument("--call: a placeholder is \"$seq\" or \"$seq%N\" with N > 0");
    }
    return {arguments.substr(0, at), arguments.substr(close + 1), cycle};
  }
  if (arguments == "{}") return {R"({"seq":)", "}"};
  return {R"({"seq":)", "," + arguments.substr(1)};
}

Request callRequest(Session& session, std::int64_t& nextId, const CallSpec& call, std::size_t sessions) {
  const std::string tool = nlohmann::json(call.tool).dump();
  const auto [argumentsHead, argumentsTail, cycle] = sequencedArguments(call.arguments);
  if (call.kind == CallSpec::Kind::Mcp)
    return {"tools/call",
            {R"({"jsonrpc":"2.0","id":)",
             R"(,"method":"tools/call","params":{"name":)" + tool + R"(,"arguments":)" + argumentsHead,
             argumentsTail + "}}"},
            ReplyCheck::McpSuccess, cycle};
  const std::string head = R"({"jsonrpc":"2.0","id":)";
  const std::string agent = R"(,"agent":"bench","messageID":"m","callID":"c)";
  const std::string rest = R"(","name":)" + tool + R"(,"input":)" + argumentsHead;
  if (sessions <= 1) {
    const std::string snapshot = takeSnapshot(session, nextId++, "bench");
    return {"call",
            {head, R"(,"method":"call","params":{"snapshot":)" + snapshot + R"(,"sessionID":"bench")" + agent, rest,
             argumentsTail + "}}"},
            ReplyCheck::CompletedOutcome, cycle};
  }
  // Sessions "bench-0" … "bench-<N-1>", each with its snapshot, in turn by request id: N agents
  // calling at once.
  Request request{"call",
                  {head, R"(,"method":"call","params":{)", agent, rest, argumentsTail + "}}"},
                  ReplyCheck::CompletedOutcome, cycle};
  request.sessionGap = 2;
  for (std::size_t i = 0; i < sessions; ++i) {
    const std::string sessionID = "bench-" + std::to_string(i);
    request.sessionTexts.push_back(R"("snapshot":)" + takeSnapshot(session, nextId++, sessionID) + R"(,"sessionID":")" +
                                   sessionID + '"');
  }
  return request;
}

} // namespace

CallSpec parseCallSpec(std::string_view spec) {
  CallSpec call;
  const std::size_t kindEnd = spec.find(':');
  const std::string_view kind = spec.substr(0, kindEnd);
  if (kind == "native") call.kind = CallSpec::Kind::Native;
  else if (kind == "mcp") call.kind = CallSpec::Kind::Mcp;
  else throw std::invalid_argument("--call needs native:TOOL[:JSON] or mcp:TOOL[:JSON]");
  const std::string_view rest = kindEnd == std::string_view::npos ? std::string_view() : spec.substr(kindEnd + 1);
  const std::size_t toolEnd = rest.find(':');
  call.tool = rest.substr(0, toolEnd);
  if (call.tool.empty()) throw std::invalid_argument("--call needs a tool name: " + std::string(spec));
  if (toolEnd == std::string_view::npos) {
    call.arguments = call.kind == CallSpec::Kind::Native ? R"({"text":"hello"})" : "{}";
    return call;
  }
  const auto arguments = nlohmann::json::parse(rest.substr(toolEnd + 1), nullptr, false);
  if (arguments.is_discarded() || !arguments.is_object())
    throw std::invalid_argument("--call: the arguments after the tool name must be a JSON object: " + std::string(spec));
  call.arguments = arguments.dump();
  sequencedArguments(call.arguments); // a malformed placeholder is refused here, with the options
  return call;
}

std::string describeCall(const CallSpec& call) {
  return (call.kind == CallSpec::Kind::Native ? "`call` " : "`tools/call` ") + call.tool;
}

namespace {

/// One server through the run: its session, its requests, and the time and count of each timed
/// loop so far (the rounds add up).
struct Contender {
  std::unique_ptr<Session> session;
  std::int64_t nextId = kInitializeId + 1;
  std::optional<Request> call;
  std::optional<Request> echo;
  BenchResult result;
  bool failed = false; ///< it broke: out of every later round, its result dropped
  std::string failure;
};

enum class Phase { Pings, Calls, Echoes };

const Request* requestOf(Contender& c, Phase phase, const Request& ping) {
  switch (phase) {
  case Phase::Pings: return &ping;
  case Phase::Calls: return c.call ? &*c.call : nullptr;
  case Phase::Echoes: return c.echo ? &*c.echo : nullptr;
  }
  return nullptr;
}

/// One contender's turn: the only server running while it lasts.
class Turn {
public:
  explicit Turn(Session& session) : session_(session) { session_.resume(); }
  ~Turn() { session_.pause(); }
  Turn(const Turn&) = delete;
  Turn& operator=(const Turn&) = delete;

private:
  Session& session_;
};

/// Runs `work` as one contender's turn; an error ends it (the pings) or only its calls (the calls).
template <class Work>
void guarded(Contender& c, Phase phase, Work work) {
  try {
    Turn turn(*c.session);
    work();
  } catch (const std::runtime_error& e) {
    if (phase == Phase::Pings) {
      c.failed = true;
      c.failure = e.what();
      return;
    }
    // The calls' failure leaves the pings standing; the echoes' leaves the calls too.
    c.result.callFailure = e.what();
    c.echo.reset();
    c.result.echoes.reset();
    if (phase == Phase::Calls) {
      c.call.reset();
      c.result.calls.reset();
    }
  }
}

/// One phase for every contender that has its request: each warmed up once, then `rounds`
/// rounds in which each runs its share of the sequential loop, then of the pipelined one, the
/// order turning by one each round, so that a change of the machine's load is shared.
void runPhase(std::vector<Contender>& contenders, Phase phase, std::size_t count, const BenchConfig& config) {
  const Request ping = pingRequest();
  const std::size_t rounds = std::max<std::size_t>(1, std::min(config.rounds, count));
  const std::size_t share = count / rounds;
  struct Totals {
    double sequentialSeconds = 0;
    double pipelinedSeconds = 0;
    double sequentialCpuSeconds = 0;
    bool cpuRead = true; ///< every sequential loop's CPU time could be read
  };
  std::vector<Totals> totals(contenders.size());
  auto active = [&](std::size_t i) { return !contenders[i].failed && requestOf(contenders[i], phase, ping) != nullptr; };
  for (std::size_t i = 0; i < contenders.size(); ++i) {
    if (!active(i)) continue;
    Contender& c = contenders[i];
    guarded(c, phase, [&] {
      const Request& request = *requestOf(c, phase, ping);
      sequentialRun(*c.session, c.nextId, config.warmup, request);
      pipelinedRun(*c.session, c.nextId, config.warmup, config.pipeline, request);
    });
  }
  for (std::size_t round = 0; round < rounds; ++round) {
    for (const bool pipelined : {false, true}) {
      for (std::size_t k = 0; k < contenders.size(); ++k) {
        const std::size_t i = (k + round) % contenders.size();
        if (!active(i)) continue;
        Contender& c = contenders[i];
        guarded(c, phase, [&] {
          const Request& request = *requestOf(c, phase, ping);
          if (pipelined)
            totals[i].pipelinedSeconds += static_cast<double>(share) /
                                          pipelinedRun(*c.session, c.nextId, share, config.pipeline, request);
          else {
            // The server's CPU time around its loop alone: the others are stopped meanwhile.
            const pid_t pid = c.session->child().pid();
            const auto cpuBefore = processCpuSeconds(pid);
            totals[i].sequentialSeconds += static_cast<double>(share) / sequentialRun(*c.session, c.nextId, share, request);
            const auto cpuAfter = processCpuSeconds(pid);
            if (cpuBefore && cpuAfter) totals[i].sequentialCpuSeconds += *cpuAfter - *cpuBefore;
            else totals[i].cpuRead = false;
          }
        });
      }
    }
  }
  const double done = static_cast<double>(share * rounds);
  for (std::size_t i = 0; i < contenders.size(); ++i) {
    if (!active(i)) continue;
    Contender& c = contenders[i];
    const double cpuMicros = totals[i].cpuRead ? totals[i].sequentialCpuSeconds * 1e6 / done : 0;
    const Rates rates{done / totals[i].sequentialSeconds, done / totals[i].pipelinedSeconds, cpuMicros};
    if (phase == Phase::Pings) {
      c.result.sequentialPerSecond = rates.sequentialPerSecond;
      c.result.pipelinedPerSecond = rates.pipelinedPerSecond;
      c.result.sequentialPingCpuMicros = rates.sequentialCpuMicros;
    } else {
      (phase == Phase::Calls ? c.result.calls : c.result.echoes) = rates;
    }
  }
}

} // namespace

std::vector<BenchOutcome> runBenches(const std::vector<BenchTarget>& targets, const BenchConfig& config) {
  std::vector<Contender> contenders(targets.size());

  // Spawns in turn too: the first server's spawn, the second's, …, and again.
  std::vector<std::vector<double>> millis(targets.size());
  // A start's CPU time and page faults: what the children reaped meanwhile cost, from getrusage
  // (no other child of the benchmark runs during the spawns).
  std::vector<std::vector<double>> cpuMillis(targets.size());
  std::vector<std::vector<double>> faults(targets.size());
  auto reaped = [] {
    rusage usage{};
    ::getrusage(RUSAGE_CHILDREN, &usage);
    return usage;
  };
  auto millisOf = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1000.0 + static_cast<double>(t.tv_usec) / 1000.0; };
  for (std::size_t n = 0; n < config.spawns; ++n) {
    for (std::size_t i = 0; i < targets.size(); ++i) {
      Contender& c = contenders[i];
      if (c.failed) continue;
      try {
        const rusage before = reaped();
        const auto start = Clock::now();
        Session session(targets[i].startArgv.empty() ? targets[i].argv : targets[i].startArgv, config);
        session.initialize();
        millis[i].push_back(seconds(Clock::now() - start) * 1000.0);
        if (n + 1 == config.spawns) {
          const OwnMemory idle = ownMemory(session.child().pid());
          c.result.idleResidentKiB = idle.residentKiB;
          c.result.idlePrivateKiB = idle.privateKiB;
          c.result.idleWrittenKiB = idle.writtenKiB;
        }
        session.finish();
        const rusage after = reaped();
        cpuMillis[i].push_back(millisOf(after.ru_utime) + millisOf(after.ru_stime) - millisOf(before.ru_utime) -
                               millisOf(before.ru_stime));
        faults[i].push_back(static_cast<double>(after.ru_minflt - before.ru_minflt));
      } catch (const std::runtime_error& e) {
        c.failed = true;
        c.failure = e.what();
      }
    }
  }
  for (std::size_t i = 0; i < targets.size(); ++i) {
    Contender& c = contenders[i];
    if (c.failed) continue;
    if (!millis[i].empty()) {
      c.result.initializeMedianMs = medianOf(millis[i]);
      c.result.initializeMinMs = *std::min_element(millis[i].begin(), millis[i].end());
      c.result.initializeMaxMs = *std::max_element(millis[i].begin(), millis[i].end());
      c.result.startCpuMedianMs = medianOf(cpuMillis[i]);
      c.result.startPageFaultsMedian = medianOf(faults[i]);
    }
    try {
      c.session = std::make_unique<Session>(targets[i].argv, config);
      c.session->initialize();
      c.session->pause();
    } catch (const std::runtime_error& e) {
      c.failed = true;
      c.failure = e.what();
    }
  }

  runPhase(contenders, Phase::Pings, config.pings, config);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    Contender& c = contenders[i];
    if (c.failed || !targets[i].call) continue;
    guarded(c, Phase::Calls, [&] {
      c.call = callRequest(*c.session, c.nextId, *targets[i].call, config.sessions);
      if (targets[i].call->kind == CallSpec::Kind::Native) c.echo = echoRequest(*c.call);
    });
  }
  runPhase(contenders, Phase::Calls, config.calls, config);
  runPhase(contenders, Phase::Echoes, config.calls, config);

  std::vector<BenchOutcome> outcomes(targets.size());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    Contender& c = contenders[i];
    if (c.failed) {
      outcomes[i].failure = c.failure;
      if (c.session) c.session->finish();
      continue;
    }
    // After the calls too: a server that holds on to something per call shows it here.
    c.session->resume();
    c.result.residentKiB = residentKiB(c.session->child().pid());
    c.session->finish();
    outcomes[i].result = std::move(c.result);
  }
  return outcomes;
}

} // namespace toold::bench
