#include "builtins/program_run.h"

#include "builtins/codemode/input_summary.h"

#include "builtins/codemode/program_result.h"
#include "builtins/codemode/worker_call_lines.h"
#include "builtins/text/text_encoding.h"
#include "core/tool_service.h"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <atomic>
#include <limits>
#include <map>
#include <mutex>

namespace toold::builtins {

using json = nlohmann::json;
namespace kind = codemode::diagnostic_kind;

namespace {

constexpr std::size_t kMaxInFlight = 8;
// What the inner calls of one program may pass at once: toold holds each input until its call
// ends (8 × 20 MB once took toold to half a gigabyte).
constexpr std::size_t kMaxInputBytesInFlight = std::size_t{64} << 20;
// The most often the toolCalls list is sent as progress (see publishLocked).
constexpr std::chrono::milliseconds kProgressInterval{50};
// The worker stops a program at its deadline itself; this is for a worker that cannot.
constexpr std::chrono::seconds kBackstopGrace{5};

// Whether the content item `item` is of type `type`, without a string made to compare.
bool isType(const json& item, std::string_view type) {
  const auto it = item.find("type");
  return it != item.end() && it->is_string() && it->get_ref<const std::string&>() == type;
}

bool isImage(const json& item) {
  const auto it = item.find("mime");
  return it != item.end() && it->is_string() && it->get_ref<const std::string&>().starts_with("image/");
}

codemode::ProgramResult failedWith(const char* diagnosticKind, std::string message) {
  codemode::ProgramResult result;
  result.error = codemode::Diagnostic{diagnosticKind, std::move(message), {}, std::nullopt};
  return result;
}

// A text answer: sent as it is when it is well-formed UTF-8 (nearly always: tools' text is),
// else escaped, which shows each ill-formed byte as U+FFFD as before.
std::string textAnswer(std::uint64_t id, std::string_view text) {
  if (firstInvalidUtf8(text) == std::string_view::npos) return codemode::rawTextResult(id, text);
  return codemode::textResultLine(id, text);
}

// The answer of an inner call that completed: the program gets the encoded output when the
// tool declares one, else its text items joined (null when there are none). A text goes from the
// outcome into the answer once: copied into a JSON value first, and joined into a new string on
// the way, a 100-line read's answer was copied twice more per inner call.
std::string completedLine(std::uint64_t id, const protocol::ToolOutcome& outcome) {
  if (outcome.output) return codemode::resultLine(id, true, *outcome.output);
  std::vector<std::string_view> texts;
  std::size_t bytes = 0;
  for (const auto& item : outcome.content) {
    if (!isType(item, "text")) continue;
    const auto text = item.find("text");
    texts.push_back(text != item.end() && text->is_string() ? std::string_view(text->get_ref<const std::string&>())
                                                             : std::string_view());
    bytes += texts.back().size() + 1;
  }
  if (texts.empty()) return codemode::resultLine(id, true, json(nullptr));
  if (texts.size() == 1) return textAnswer(id, texts.front());
  std::string joined;
  joined.reserve(bytes);
  for (std::size_t i = 0; i < texts.size(); ++i) joined.append(i > 0 ? "\n" : "").append(texts[i]);
  return textAnswer(id, joined);
}

class ProgramRun : public std::enable_shared_from_this<ProgramRun> {
public:
  ProgramRun(core::ToolService& service, std::shared_ptr<ProgramRunSetup> setup, core::ToolContext context,
             core::ToolDone done)
      : service_(service), setup_(std::move(setup)), pool_(setup_->pool), limits_(setup_->limits),
        context_(std::move(context)), done_(std::move(done)), backstop_(service.io()), publishTimer_(service.io()) {}

  void start(std::shared_ptr<codemode::WorkerProcess> worker, std::string code) {
    inventory_ = context_.snapshot ? context_.snapshot->inventory : nullptr;
    if (!inventory_) {
      if (worker) pool_->release(std::move(worker));
      return done_(core::ToolFailure{"Code Mode is not on for this snapshot.", std::nullopt});
    }
    catalog_ = setup_->catalogs.forInventory(inventory_);
    try {
      worker_ = worker ? std::move(worker) : pool_->acquire();
    } catch (const std::exception& e) {
      spdlog::error("codemode: cannot start a worker: {}", e.what());
      return done_(core::ToolFailure{std::string("Code Mode's engine could not start: ") + e.what(), std::nullopt});
    }
    auto self = shared_from_this();
    worker_->listen({[self](json message) { self->onMessage(std::move(message)); },
                     [self](std::string how) { self->onEnded(std::move(how)); }});
    json program{{"type", "run"},
                 {"code", std::move(code)},
                 {"catalogKey", catalog_->key},
                 {"limits", {{"timeoutMs", limits_.timeout.count()},
                             {"maxToolCalls", limits_.maxToolCalls},
                             {"maxInFlight", kMaxInFlight}}}};
    // A worker that ran a program of the same catalog still has it.
    const bool sendCatalog = worker_->catalogKey() != catalog_->key;
    if (sendCatalog) {
      program["tools"] = catalog_->paths;
      program["catalog"] = catalog_->catalog;
    }
    // Everything finish() undoes is in place before the program is sent: a quick program's result
    // arrives on the worker's reader thread while this one would otherwise still be arming them.
    // Under mutex_ as well: that order runs through the worker process, where ThreadSanitizer
    // cannot follow it.
    {
      std::lock_guard lock(mutex_);
      lastPublished_ = std::chrono::steady_clock::now();
      backstop_.expires_after(limits_.timeout + kBackstopGrace);
      backstop_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto run = weak.lock();
        if (ec || !run) return;
        spdlog::warn("codemode: worker {} did not stop at its deadline; killing it", run->worker_->pid());
        run->backstopFired_ = true;
        run->worker_->kill();
      });
    }
    // A call already cancelled runs cancel() here, before the registration is kept.
    auto registration = context_.cancellation.onCancel([weak = weak_from_this()] {
      if (auto run = weak.lock()) run->cancel();
    });
    {
      std::lock_guard lock(mutex_);
      cancellation_ = std::move(registration);
    }
    if (sendCatalog) worker_->setCatalogKey(catalog_->key);
    if (!worker_->send(program)) return finish(failedWith(kind::kExecutionFailure, "Code Mode's engine stopped before the program could start."));
  }

private:
  struct Inner {
    std::size_t index;
    core::CancellationSource cancel;
    std::size_t inputBytes = 0;
  };

  void onMessage(json message) {
    const std::string type = message.value("type", "");
    if (type == "call") {
      startInner(message.value("id", std::uint64_t{0}), message.value("path", ""),
                 message.contains("input") ? std::move(message["input"]) : json::object());
    } else if (type == "done") {
      finish(codemode::resultFromJson(message.contains("result") ? message["result"] : json::object()));
    }
  }

  void onEnded(const std::string& how) {
    if (backstopFired_) return finish(failedWith(kind::kTimeoutExceeded, "The program ran out of time."));
    finish(failedWith(kind::kExecutionFailure,
                      "Code Mode's engine stopped while running the program (" + how +
                          "); it may have run out of memory. Process data in smaller pieces."));
  }

  void cancel() {
    cancelled_ = true;
    finish(failedWith(kind::kExecutionFailure, "The program was cancelled."));
  }

  // Under mutex_: the list as the client sees it. It goes out at once when the last update (or
  // the program's start) is older than kProgressInterval; otherwise one update with the newest
  // list follows at the end of the interval, and one still waiting goes out before the result.
  // Sent on every start and end, 100 quick calls cost 200 copies of a growing list (about 600 KB)
  // to show 100 lines. Counting from the start, a program done within the interval sends its list
  // once, before the result: an update at its first call cost it a write to the client and that
  // process's wake-up (~0.1 ms of a 100-call program); a slow first call shows 50 ms late.
  void publishLocked() {
    if (!context_.progress) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - lastPublished_ >= kProgressInterval) return sendLocked(now);
    if (publishPending_) return;
    publishPending_ = true;
    publishTimer_.expires_at(lastPublished_ + kProgressInterval);
    publishTimer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
      auto run = weak.lock();
      if (ec || !run) return;
      std::lock_guard lock(run->mutex_);
      if (run->publishPending_) run->sendLocked(std::chrono::steady_clock::now());
    });
  }

  void sendLocked(std::chrono::steady_clock::time_point now) {
    publishPending_ = false;
    lastPublished_ = now;
    context_.progress(json{{"toolCalls", toolCalls_}});
  }

  void reply(const std::string& line) {
    if (!worker_->sendLine(line)) spdlog::debug("codemode: an answer for worker {} was not delivered", worker_->pid());
  }

  void startInner(std::uint64_t id, const std::string& path, json input) {
    auto found = catalog_->byPath.find(path);
    if (found == catalog_->byPath.end())
      return reply(codemode::resultLine(id, false, {{"kind", kind::kUnknownTool}, {"message", "Unknown tool '" + path + "'."}}));
    const core::RegisteredTool& tool = *found->second;
    core::CancellationToken token;
    const std::size_t inputBytes = codemode::jsonSizeUpTo(input, std::numeric_limits<std::size_t>::max());
    {
      std::lock_guard lock(mutex_);
      if (finished_) return;
      if (inputBytesInFlight_ + inputBytes > kMaxInputBytesInFlight)
        return reply(codemode::resultLine(
            id, false,
            {{"kind", kind::kInvalidDataValue},
             {"message", "The program's inner calls would hold " + std::to_string((inputBytesInFlight_ + inputBytes) >> 20) +
                             " MiB of input at once, over Code Mode's " + std::to_string(kMaxInputBytesInFlight >> 20) +
                             " MiB: await calls before starting more, or pass less data to each."}}));
      inputBytesInFlight_ += inputBytes;
      json entry{{"tool", tool.name}, {"status", "running"}};
      // The list goes out with every update: a large input is shown by a bounded stand-in.
      if (input.is_object() ? !input.empty() : !input.is_null())
        entry["input"] = codemode::inputSummary(input.is_object() ? input : json{{"input", input}});
      auto [it, added] = running_.try_emplace(id, Inner{toolCalls_.size(), {}, inputBytes});
      toolCalls_.push_back(std::move(entry));
      token = it->second.cancel.token();
      publishLocked();
    }
    protocol::CallParams params;
    params.snapshot = inventory_->id;
    params.sessionID = context_.sessionID;
    params.agent = context_.agent;
    params.messageID = context_.messageID;
    params.callID = context_.callID;
    params.name = tool.name;
    params.input = std::move(input);
    core::CallIo io;
    io.cancellation = token;
    io.insideProgram = true;
    service_.call(inventory_, std::move(params), std::move(io),
                  [self = shared_from_this(), id](core::CallAnswer answer) { self->innerAnswered(id, std::move(answer)); });
  }

  void innerAnswered(std::uint64_t id, core::CallAnswer answer) {
    std::string line;
    const char* status = "error";
    std::vector<json> images;
    if (auto* outcome = std::get_if<protocol::ToolOutcome>(&answer)) {
      if (outcome->completed()) {
        status = "completed";
        line = completedLine(id, *outcome);
        for (auto& item : outcome->content)
          if (isType(item, "file") && isImage(item)) images.push_back(std::move(item));
      } else {
        const char* errorKind = outcome->errorType == protocol::error_type::kInvalidInput ? kind::kInvalidToolInput
                                : outcome->errorType == protocol::error_type::kUnknown    ? kind::kUnknownTool
                                                                                          : kind::kToolFailure;
        line = codemode::resultLine(id, false, json{{"kind", errorKind}, {"message", std::move(outcome->errorMessage)}});
      }
    } else {
      auto& error = std::get<protocol::RpcError>(answer);
      line = codemode::resultLine(id, false, json{{"kind", kind::kToolFailure}, {"message", std::move(error.message)}});
    }
    {
      std::lock_guard lock(mutex_);
      if (finished_) return;
      auto it = running_.find(id);
      if (it == running_.end()) return;
      toolCalls_[it->second.index]["status"] = status;
      for (auto& image : images) files_.emplace_back(it->second.index, std::move(image));
      inputBytesInFlight_ -= it->second.inputBytes;
      running_.erase(it);
      publishLocked();
    }
    reply(line);
  }

  void finish(codemode::ProgramResult result) {
    std::map<std::uint64_t, Inner> abandoned;
    json toolCalls;
    std::vector<std::pair<std::size_t, json>> files;
    core::CancellationRegistration cancellation;
    {
      std::lock_guard lock(mutex_);
      if (finished_) return;
      finished_ = true;
      cancellation = std::move(cancellation_);
      backstop_.cancel();
      abandoned.swap(running_);
      for (const auto& [id, inner] : abandoned) toolCalls_[inner.index]["status"] = "error";
      publishTimer_.cancel();
      if ((publishPending_ || !abandoned.empty()) && context_.progress) sendLocked(std::chrono::steady_clock::now());
      toolCalls = toolCalls_;
      files.swap(files_);
    }
    cancellation.reset();
    for (auto& [id, inner] : abandoned) inner.cancel.cancel("the Code Mode program ended");
    if (worker_) {
      if (!result.interrupted && !cancelled_ && worker_->alive()) {
        pool_->release(worker_);
      } else {
        worker_->listen({});
        worker_->kill();
      }
    }
    // The next program should not wait for an engine to start; started now rather than with this
    // program, whose time it would share on a busy machine.
    boost::asio::post(service_.io(), [pool = pool_] {
      try {
        pool->prestartIfNoneIdle();
      } catch (const std::exception& e) {
        spdlog::warn("codemode: cannot start a spare worker: {}", e.what());
      }
    });
    std::stable_sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    json content = json::array({{{"type", "text"}, {"text", codemode::renderProgramOutput(result)}}});
    for (auto& [index, file] : files) content.push_back(std::move(file));
    json metadata{{"toolCalls", std::move(toolCalls)}};
    if (!result.ok) {
      metadata["error"] = true;
      if (result.error) metadata["diagnostic"] = codemode::diagnosticToJson(*result.error);
    }
    done_(core::ToolResult{std::nullopt, std::move(content), std::move(metadata)});
  }

  core::ToolService& service_;
  std::shared_ptr<ProgramRunSetup> setup_;
  std::shared_ptr<codemode::WorkerPool> pool_;
  ProgramRunLimits limits_;
  core::ToolContext context_;
  core::ToolDone done_;
  std::shared_ptr<const core::Snapshot> inventory_;
  std::shared_ptr<const ProgramCatalog> catalog_;
  std::shared_ptr<codemode::WorkerProcess> worker_;
  core::CancellationRegistration cancellation_; // under mutex_
  boost::asio::steady_timer backstop_;            // under mutex_
  std::atomic<bool> backstopFired_{false};
  std::atomic<bool> cancelled_{false};

  std::mutex mutex_;
  boost::asio::steady_timer publishTimer_; // under mutex_, like the rest below
  std::chrono::steady_clock::time_point lastPublished_{};
  bool publishPending_ = false;
  json toolCalls_ = json::array();
  std::size_t inputBytesInFlight_ = 0; ///< of the inner calls running, as jsonSizeUpTo counts them
  std::map<std::uint64_t, Inner> running_;
  std::vector<std::pair<std::size_t, json>> files_;
  bool finished_ = false;
};

} // namespace

void startProgramRun(core::ToolService& service, std::shared_ptr<ProgramRunSetup> setup,
                     std::shared_ptr<codemode::WorkerProcess> worker, std::string code, core::ToolContext context,
                     core::ToolDone done) {
  auto run = std::make_shared<ProgramRun>(service, std::move(setup), std::move(context), std::move(done));
  run->start(std::move(worker), std::move(code));
}

} // namespace toold::builtins
