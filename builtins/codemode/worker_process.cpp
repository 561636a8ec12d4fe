#include "builtins/codemode/worker_process.h"

#include "core/process/child_table.h"
#include "core/process/exit_status.h"
#include "core/process/process_runner.h"
#include "core/process/process_spawn.h"
#include "protocol/bounded_json.h"

#include <spdlog/spdlog.h>

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <vector>
#include <memory>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace toold::codemode {

using json = nlohmann::json;

namespace {

// Values cross as JSON nested at most 32 deep, inside a message of a few levels.
constexpr std::size_t kMaxMessageDepth = 64;
constexpr std::chrono::milliseconds kReapPatience{500};

// The thread that reads a worker's messages runs the pipeline of every inner call its programs
// make. Its first program paid for the thread's first pages, about fifty page faults (the deeper
// stack, a malloc arena growing), 1-2 ms on this kind of VM; they are made here instead, while the
// worker starts. Freed blocks stay with the arena (the trim threshold is far above them).
void prefaultThisThread() {
  volatile char stack[64 * 1024];
  for (std::size_t i = 0; i < sizeof stack; i += 4096) stack[i] = 0;
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 96; ++i) {
    blocks.emplace_back(new char[4096]);
    std::memset(blocks.back().get(), 0, 4096);
  }
}

core::ChildTable::Owner workerOwner() {
  static const core::ChildTable::Owner owner = core::ChildTable::instance().newOwner();
  return owner;
}

} // namespace

std::shared_ptr<WorkerProcess> WorkerProcess::start(const std::vector<std::string>& argv) {
  auto worker = std::make_shared<WorkerProcess>(StartKey(), argv);
  // Started here, not in the constructor: a message read at once looks for the worker's owner
  // (weak_from_this), which make_shared sets only after the constructor returns.
  worker->reader_ = std::thread([worker = worker.get(), finished = worker->readerDone_] {
    worker->readLoop();
    std::lock_guard lock(finished->mutex);
    finished->done = true;
    finished->changed.notify_all();
  });
  return worker;
}

WorkerProcess::WorkerProcess(StartKey, const std::vector<std::string>& argv) {
  core::ProcessSpec spec;
  spec.argv = argv;
  spec.stdinData = std::string(); // a pipe, kept open: programs arrive on it
  core::SpawnedProcess spawned = core::spawnProcess(spec, workerOwner());
  if (spawned.pid < 0) throw std::runtime_error(spawned.error);
  child_ = spawned.id;
  pid_ = spawned.pid;
  stdin_ = spawned.stdinPipe.release();
  stdout_ = spawned.stdoutPipe.release();
  stderr_ = spawned.stderrPipe.release();
}

WorkerProcess::~WorkerProcess() {
  kill();
  // The last owner may be a listener running on the reader thread itself.
  if (reader_.joinable()) {
    if (reader_.get_id() == std::this_thread::get_id()) reader_.detach();
    else reader_.join();
  }
  for (int fd : {stdin_, stdout_, stderr_})
    if (fd >= 0) ::close(fd);
  // Not reaped by the reader (the last owner let go on a message, before the pipes closed): the
  // child table kills and reaps it, or every stopped program would leave a zombie behind.
  if (const auto id = child_.exchange(0); id != 0) core::ChildTable::instance().release(id, kReapPatience);
}

void WorkerProcess::waitUntilReaderDone() {
  std::unique_lock lock(readerDone_->mutex);
  readerDone_->changed.wait(lock, [this] { return readerDone_->done; });
}

void WorkerProcess::listen(Listener listener) {
  std::lock_guard lock(listenerMutex_);
  listener_ = std::move(listener);
}

bool WorkerProcess::send(const json& message) {
  std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
  line += '\n';
  return sendLine(line);
}

bool WorkerProcess::sendLine(std::string_view line) {
  std::lock_guard lock(writeMutex_);
  const char* data = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    if (!alive_) return false;
    const ssize_t n = ::write(stdin_, data, left);
    if (n > 0) {
      data += n;
      left -= static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      // A full pipe: the worker is busy; wait, a little at a time, so that a dead one is noticed.
      pollfd out{stdin_, POLLOUT, 0};
      (void)::poll(&out, 1, 100);
      continue;
    }
    return false;
  }
  return true;
}

void WorkerProcess::kill() {
  if (!alive_.exchange(false)) return;
  if (const auto id = child_.load(); id != 0) core::ChildTable::instance().signalGroup(id, SIGKILL);
}

void WorkerProcess::readLoop() {
  prefaultThisThread();
  std::string out, err;
  char chunk[65536];
  pollfd fds[2] = {{stdout_, POLLIN, 0}, {stderr_, POLLIN, 0}};
  int open = 2;
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, chunk, sizeof chunk);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        --open;
        continue;
      }
      std::string& buffer = i == 0 ? out : err;
      buffer.append(chunk, static_cast<std::size_t>(n));
      std::size_t start = 0;
      for (std::size_t end; (end = buffer.find('\n', start)) != std::string::npos; start = end + 1) {
        const std::string_view line(buffer.data() + start, end - start);
        if (i == 1) {
          spdlog::warn("codemode worker {}: {}", pid_, line);
          continue;
        }
        auto parsed = protocol::parseBounded(line, kMaxMessageDepth);
        if (!parsed || !parsed.value.is_object()) {
          spdlog::error("codemode worker {}: unreadable message", pid_);
          continue;
        }
        std::function<void(json)> deliver;
        std::shared_ptr<WorkerProcess> self;
        {
          std::lock_guard lock(listenerMutex_);
          deliver = listener_.message;
          self = weak_from_this().lock();
        }
        if (deliver) deliver(std::move(parsed.value));
        deliver = nullptr;
        // The listener may have let go of every other owner (a program that ended on this
        // message): the object then ends here, on its own reader thread — the destructor kills the
        // worker and detaches this thread — and nothing of it may be touched afterwards.
        if (self && self.use_count() == 1) {
          self.reset();
          return;
        }
      }
      buffer.erase(0, start);
    }
  }
  alive_ = false;
  // Its pipes are closed: it has exited or is about to. Wait briefly for how it ended.
  std::string how = "stopped";
  for (int attempt = 0; attempt < 50; ++attempt) {
    if (auto reaped = core::ChildTable::instance().tryReap(child_)) {
      if (reaped->waitStatus) how = core::ExitStatus::fromWaitStatus(*reaped->waitStatus).describe();
      child_ = 0;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (const auto id = child_.exchange(0); id != 0) core::ChildTable::instance().release(id, kReapPatience);
  std::function<void(std::string)> ended;
  {
    std::lock_guard lock(listenerMutex_);
    ended = listener_.ended;
  }
  if (ended) ended(how);
}

} // namespace toold::codemode
