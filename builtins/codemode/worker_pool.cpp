#include "builtins/codemode/worker_pool.h"

#include "builtins/codemode/worker_executable.h"

#include <stdexcept>

namespace toold::codemode {

WorkerPool::WorkerPool(std::string executable, WorkerSettings settings, std::size_t maxIdle)
    : executable_(std::move(executable)), settings_(settings), maxIdle_(maxIdle) {}

WorkerPool::~WorkerPool() { clear(); }

std::shared_ptr<WorkerProcess> WorkerPool::start() {
  {
    std::lock_guard lock(mutex_);
    if (closed_) throw std::runtime_error("toold is shutting down");
  }
  // Said plainly, rather than as the spawn's bare errno: a toold installed without its worker.
  if (auto problem = workerExecutableProblem(executable_)) throw std::runtime_error(*problem);
  auto worker = WorkerProcess::start(std::vector<std::string>{
      executable_, "--memory-mb", std::to_string(settings_.memoryMegabytes), "--heap-mb",
      std::to_string(settings_.heapMegabytes), "--resident-mb", std::to_string(settings_.residentMegabytes)});
  std::lock_guard lock(mutex_);
  std::erase_if(started_, [](const auto& weak) { return weak.expired(); });
  started_.push_back(worker);
  if (closed_) worker->kill(); // shut down while it started: shutdown() no longer sees it
  return worker;
}

std::shared_ptr<WorkerProcess> WorkerPool::acquire() {
  if (auto worker = acquireIdle()) return worker;
  return start();
}

std::shared_ptr<WorkerProcess> WorkerPool::acquireIdle() {
  std::lock_guard lock(mutex_);
  while (!idle_.empty()) {
    auto worker = std::move(idle_.back());
    idle_.pop_back();
    if (worker->alive()) return worker;
  }
  return nullptr;
}

void WorkerPool::release(std::shared_ptr<WorkerProcess> worker) {
  if (!worker || !worker->alive()) return;
  worker->listen({});
  std::lock_guard lock(mutex_);
  if (closed_) worker->kill();
  else if (idle_.size() < maxIdle_) idle_.push_back(std::move(worker));
}

void WorkerPool::prestart() {
  auto worker = start();
  std::lock_guard lock(mutex_);
  if (!closed_) idle_.push_back(std::move(worker));
}

void WorkerPool::prestartIfNoneIdle() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) return;
  }
  prestart();
}

void WorkerPool::clear() {
  std::vector<std::shared_ptr<WorkerProcess>> idle;
  {
    std::lock_guard lock(mutex_);
    idle.swap(idle_);
  }
  idle.clear();
}

void WorkerPool::shutdown() {
  std::vector<std::shared_ptr<WorkerProcess>> workers;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    // Destroyed out of the lock: a worker's destructor waits for its reader, which may be releasing.
    workers.swap(idle_);
    for (const auto& weak : started_)
      if (auto worker = weak.lock()) workers.push_back(std::move(worker));
    started_.clear();
  }
  for (const auto& worker : workers) worker->kill();
  for (const auto& worker : workers) worker->waitUntilReaderDone();
}

} // namespace toold::codemode
