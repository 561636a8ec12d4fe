#include "builtins/codemode/worker_input.h"

#include "builtins/codemode/worker_call_lines.h"

#include <poll.h>
#include <time.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace toold::codemode {

using json = nlohmann::json;

WorkerInput::WorkerInput(int fd) : fd_(fd), wakeFd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (wakeFd_ < 0) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

WorkerInput::~WorkerInput() { ::close(wakeFd_); }

void WorkerInput::wake() {
  const std::uint64_t one = 1;
  while (::write(wakeFd_, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

void WorkerInput::drainWake() {
  std::uint64_t count = 0;
  while (::read(wakeFd_, &count, sizeof count) < 0 && errno == EINTR) {
  }
}

void WorkerInput::takeLines(std::vector<ToolCompletion>* out) {
  std::size_t start = 0;
  for (std::size_t end; (end = buffer_.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string_view line = std::string_view(buffer_).substr(start, end - start);
    if (auto result = readResultLine(line)) {
      if (out != nullptr) out->push_back({result->id, result->ok, std::string(result->payload)});
      continue;
    }
    // A raw text answer: its bytes follow the line, newlines and all; taken once all are here.
    if (auto header = readTextHeader(line)) {
      if (buffer_.size() - (end + 1) < header->bytes) break;
      if (out != nullptr) out->push_back({header->id, true, buffer_.substr(end + 1, header->bytes), true});
      end += header->bytes;
      continue;
    }
    json message = json::parse(buffer_.begin() + static_cast<std::ptrdiff_t>(start),
                               buffer_.begin() + static_cast<std::ptrdiff_t>(end), nullptr, false);
    if (!message.is_object()) continue;
    const std::string type = message.value("type", "");
    if (type == "run") {
      runs_.push_back(std::move(message));
    } else if (type == "result" && out != nullptr) {
      const bool ok = message.value("ok", false);
      const json& payload = ok ? message["value"] : message["error"];
      out->push_back({message.value("id", std::uint64_t{0}), ok,
                      payload.dump(-1, ' ', false, json::error_handler_t::replace)});
    }
  }
  buffer_.erase(0, start);
}

bool WorkerInput::readMore(std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (ended_) return false;
  pollfd fds[2] = {{fd_, POLLIN, 0}, {wakeFd_, POLLIN, 0}};
  timespec timeout{};
  if (deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(*deadline - std::chrono::steady_clock::now()).count();
    const auto clamped = std::clamp<std::int64_t>(left, 0, std::int64_t{60} * 1'000'000'000);
    timeout = {static_cast<time_t>(clamped / 1'000'000'000), static_cast<long>(clamped % 1'000'000'000)};
  }
  const int ready = ::ppoll(fds, 2, deadline ? &timeout : nullptr, nullptr);
  if (ready < 0) return errno == EINTR;
  if (ready == 0) return deadline && std::chrono::steady_clock::now() < *deadline; // a clamped wait
  if (fds[1].revents != 0) {
    drainWake();
    return false;
  }
  char chunk[65536];
  const ssize_t n = ::read(fd_, chunk, sizeof chunk);
  if (n < 0) return errno == EINTR || errno == EAGAIN;
  if (n == 0) {
    ended_ = true;
    return false;
  }
  buffer_.append(chunk, static_cast<std::size_t>(n));
  return true;
}

std::optional<json> WorkerInput::nextRun() {
  drainWake(); // a wake meant for the program that ended
  for (;;) {
    takeLines(nullptr); // answers between programs are stale
    if (!runs_.empty()) {
      json run = std::move(runs_.front());
      runs_.pop_front();
      return run;
    }
    if (ended_) return std::nullopt;
    readMore(std::nullopt);
  }
}

bool WorkerInput::quietFor(std::chrono::microseconds quiet) {
  const auto until = std::chrono::steady_clock::now() + quiet;
  for (;;) {
    takeLines(nullptr);
    if (!runs_.empty() || ended_) return false;
    if (!readMore(until) && std::chrono::steady_clock::now() >= until) return !ended_ && runs_.empty();
  }
}

void WorkerInput::wait(std::chrono::steady_clock::time_point deadline, std::vector<ToolCompletion>& out) {
  const std::size_t before = out.size();
  for (;;) {
    takeLines(&out);
    if (out.size() > before) return;
    if (!readMore(deadline)) break;
  }
  // toold went away in the middle of a program: nobody is left to answer its calls or to read
  // its result.
  if (ended_) std::_Exit(0);
}

} // namespace toold::codemode
