// The process tree walked through /proc, summing VmRSS from each process's status file.
#include "tests/bench/resident_memory.h"

#include <fstream>
#include <string>
#include <vector>

namespace toold::bench {
namespace {

std::size_t vmRssKiB(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6));
  }
  return 0;
}

// Children of every thread of `pid`; needs CONFIG_PROC_CHILDREN, else only the process itself counts.
std::vector<pid_t> childrenOf(pid_t pid) {
  std::vector<pid_t> children;
  const std::string taskDir = "/proc/" + std::to_string(pid) + "/task/";
  std::ifstream tasks(taskDir + std::to_string(pid) + "/children");
  pid_t child = 0;
  while (tasks >> child) children.push_back(child);
  return children;
}

std::size_t treeRssKiB(pid_t pid, int depth) {
  std::size_t total = vmRssKiB(pid);
  if (depth > 16) return total;
  for (pid_t child : childrenOf(pid)) total += treeRssKiB(child, depth + 1);
  return total;
}

} // namespace

std::size_t residentKiB(pid_t pid) { return treeRssKiB(pid, 0); }

OwnMemory ownMemory(pid_t pid) {
  OwnMemory memory;
  std::ifstream rollup("/proc/" + std::to_string(pid) + "/smaps_rollup");
  std::string line;
  auto kib = [&line](std::size_t at) { return static_cast<std::size_t>(std::stoul(line.substr(at))); };
  while (std::getline(rollup, line)) {
    if (line.rfind("Rss:", 0) == 0) memory.residentKiB = kib(4);
    else if (line.rfind("Private_Clean:", 0) == 0) memory.privateKiB += kib(14);
    else if (line.rfind("Private_Dirty:", 0) == 0) {
      memory.writtenKiB = kib(14);
      memory.privateKiB += memory.writtenKiB;
    }
  }
  return memory;
}

} // namespace toold::bench
