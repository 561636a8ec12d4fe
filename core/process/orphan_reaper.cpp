// The orphan reaper: listing this process's children from /proc, and reaping those no runner owns.
#include "core/process/orphan_reaper.h"

#include "core/process/child_table.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

namespace toold::core {
namespace {

std::string readWhole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Appends the pids in a space-separated list.
void parsePids(std::string_view text, std::vector<pid_t>& pids) {
  const char* at = text.data();
  const char* end = text.data() + text.size();
  while (at < end) {
    pid_t pid = 0;
    const auto [next, error] = std::from_chars(at, end, pid);
    if (error == std::errc()) {
      pids.push_back(pid);
      at = next;
    } else {
      ++at;
    }
  }
}

/// The parent pid in /proc/PID/stat: the second field after the command name, which is in
/// parentheses and may itself contain spaces and parentheses.
std::optional<pid_t> parentOf(std::string_view stat) {
  const auto close = stat.rfind(')');
  if (close == std::string_view::npos || close + 4 >= stat.size()) return std::nullopt;
  const std::string_view rest = stat.substr(close + 4); // ") S " then the parent pid
  pid_t parent = 0;
  if (std::from_chars(rest.data(), rest.data() + rest.size(), parent).ec != std::errc()) return std::nullopt;
  return parent;
}

} // namespace

struct OrphanReaper::State {
  State(boost::asio::io_context& io, std::chrono::milliseconds every)
      : strand(boost::asio::make_strand(io)), timer(strand), interval(every) {}

  boost::asio::strand<boost::asio::io_context::executor_type> strand;
  boost::asio::steady_timer timer; ///< touched on the strand only
  const std::chrono::milliseconds interval;
  std::atomic<bool> stopped{false};

  static void schedule(const std::shared_ptr<State>& state) {
    state->timer.expires_after(state->interval);
    state->timer.async_wait([state](const boost::system::error_code& error) {
      if (error || state->stopped.load()) return;
      OrphanReaper::reapNow();
      schedule(state);
    });
  }
};

bool OrphanReaper::needed() {
  int subreaper = 0;
  return ::getpid() == 1 || (::prctl(PR_GET_CHILD_SUBREAPER, &subreaper) == 0 && subreaper != 0);
}

std::vector<pid_t> OrphanReaper::listChildren() {
  std::vector<pid_t> children;
  std::error_code error;
  bool listed = false;
  // An orphan is re-parented to some thread of the reaper process, so every thread's list counts.
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    const auto path = task.path() / "children";
    if (!std::filesystem::exists(path, error)) continue;
    listed = true;
    parsePids(readWhole(path), children);
  }
  if (listed) return children;
  // Kernels built without CONFIG_PROC_CHILDREN: every process's parent, the slow way.
  const pid_t self = ::getpid();
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    pid_t pid = 0;
    if (std::from_chars(name.data(), name.data() + name.size(), pid).ptr != name.data() + name.size()) continue;
    if (parentOf(readWhole(entry.path() / "stat")) == self) children.push_back(pid);
  }
  return children;
}

std::size_t OrphanReaper::reapNow() {
  const std::vector<pid_t> children = listChildren();
  return ChildTable::instance().reapUnowned(children);
}

OrphanReaper::OrphanReaper(boost::asio::io_context& io, std::chrono::milliseconds interval)
    : state_(std::make_shared<State>(io, interval)) {
  boost::asio::post(state_->strand, [state = state_] { State::schedule(state); });
}

OrphanReaper::~OrphanReaper() {
  state_->stopped.store(true);
  boost::asio::post(state_->strand, [state = state_] { state->timer.cancel(); });
}

} // namespace toold::core
