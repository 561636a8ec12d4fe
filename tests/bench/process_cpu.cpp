#include "tests/bench/process_cpu.h"

#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <unistd.h>

namespace toold::bench {

namespace {

// utime and stime, the 14th and 15th fields of /proc/PID/stat, in clock ticks (10 ms each,
// usually: enough only over runs of many seconds, hence the clock first).
std::optional<double> statCpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name in parentheses may hold blanks: the fields are counted after its ')'.
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  if (!fields) return std::nullopt;
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

} // namespace

std::optional<double> processCpuSeconds(pid_t pid) {
  clockid_t clock{};
  timespec now{};
  if (::clock_getcpuclockid(pid, &clock) == 0 && ::clock_gettime(clock, &now) == 0)
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
  return statCpuSeconds(pid);
}

} // namespace toold::bench
