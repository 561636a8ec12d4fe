// toold's side of one Code Mode worker process: started with the one spawn (core/process), spoken
// to in lines of JSON (worker_protocol.h), read by a thread of its own so that a program's inner
// calls reach toold while toold keeps serving everything else. The worker's stderr becomes log
// lines. Killing it (cancellation, a stuck program) is always safe: it holds nothing of toold's.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace toold::codemode {

class WorkerProcess : public std::enable_shared_from_this<WorkerProcess> {
public:
  /// Called on the worker's reader thread: each message, then once `ended` with how it ended.
  struct Listener {
    std::function<void(nlohmann::json message)> message;
    std::function<void(std::string how)> ended;
  };

  /// Starts `argv` as a worker, and the thread that reads it. Throws std::runtime_error with the
  /// reason when it cannot start.
  static std::shared_ptr<WorkerProcess> start(const std::vector<std::string>& argv);

  /// Only for start(): the reader may use shared_from_this, so it starts once an owner exists.
  class StartKey {
    friend class WorkerProcess;
    explicit StartKey() = default;
  };
  WorkerProcess(StartKey, const std::vector<std::string>& argv);
  ~WorkerProcess(); ///< kills the worker and waits for its reader thread
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  /// Where messages go from now on (replaces the previous listener).
  void listen(Listener listener);
  /// Writes one message; false when the worker is gone.
  bool send(const nlohmann::json& message);
  /// Writes one message already written as a line (newline included).
  bool sendLine(std::string_view line);
  /// SIGKILL; the listener then hears `ended`.
  void kill();
  bool alive() const { return alive_; }
  /// Waits until the reader thread has finished with everything it held (the listener's last
  /// copy included). Call it after kill(), holding an owner, and never from a listener.
  void waitUntilReaderDone();
  /// The key of the catalog this worker was last sent (program_catalog.h); only the run that
  /// holds the worker touches it.
  const std::string& catalogKey() const { return catalogKey_; }
  void setCatalogKey(std::string key) { catalogKey_ = std::move(key); }
  int pid() const { return pid_; }

private:
  /// Set by the reader thread as its very last step. Shared with that thread, not a member: the
  /// reader may end the object itself (see readLoop) before it finishes.
  struct ReaderDone {
    std::mutex mutex;
    std::condition_variable changed;
    bool done = false;
  };

  void readLoop();

  /// The child table's id; 0 once reaped or released. Atomic: kill() may read it on any thread
  /// while the reader reaps.
  std::atomic<std::uint64_t> child_{0};
  int pid_ = -1;
  int stdin_ = -1;
  int stdout_ = -1;
  int stderr_ = -1;
  std::atomic<bool> alive_{true};
  std::mutex writeMutex_;
  std::mutex listenerMutex_;
  Listener listener_;
  std::string catalogKey_;
  std::shared_ptr<ReaderDone> readerDone_ = std::make_shared<ReaderDone>();
  std::thread reader_;
};

} // namespace toold::codemode
