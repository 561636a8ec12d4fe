#include "daemon/sandbox/landlock_rules.h"

#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace toold::sandbox_launch {

namespace {

// The kernel's interface (include/uapi/linux/landlock.h), written out here because Debian 12's
// headers stop at ABI 2 while the kernels it runs on go further.
struct RulesetAttributes {
  std::uint64_t handledAccessFs;
  std::uint64_t handledAccessNet;
  std::uint64_t scoped;
};
struct PathBeneathAttributes {
  std::uint64_t allowedAccess;
  std::int32_t parentFd;
} __attribute__((packed));

constexpr unsigned kCreateRulesetVersion = 1U << 0;
constexpr int kRulePathBeneath = 1;

constexpr std::uint64_t kExecute = 1ULL << 0;
constexpr std::uint64_t kWriteFile = 1ULL << 1;
constexpr std::uint64_t kReadFile = 1ULL << 2;
constexpr std::uint64_t kReadDir = 1ULL << 3;
constexpr std::uint64_t kAbi1All = (1ULL << 13) - 1; // EXECUTE .. MAKE_SYM
constexpr std::uint64_t kRefer = 1ULL << 13;         // ABI 2
constexpr std::uint64_t kTruncate = 1ULL << 14;      // ABI 3
constexpr std::uint64_t kIoctlDev = 1ULL << 15;      // ABI 5
constexpr std::uint64_t kBindTcp = 1ULL << 0;        // ABI 4 (network)
constexpr std::uint64_t kConnectTcp = 1ULL << 1;
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ULL << 0; // ABI 6

// The rights a rule on a file (not a folder) may carry; the kernel refuses the others there.
constexpr std::uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;

std::uint64_t handledFsRights(int abi) {
  std::uint64_t rights = kAbi1All;
  if (abi >= 2) rights |= kRefer;
  if (abi >= 3) rights |= kTruncate;
  if (abi >= 5) rights |= kIoctlDev;
  return rights;
}

std::string failure(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

/// Adds one rule; a path that does not exist is no rule at all.
std::string addRule(int ruleset, const std::string& path, std::uint64_t rights, std::uint64_t handled) {
  const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? std::string() : failure(path.c_str());
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    ::close(fd);
    return failure(path.c_str());
  }
  PathBeneathAttributes rule{rights & handled, fd};
  if (!S_ISDIR(status.st_mode)) rule.allowedAccess &= kFileRights;
  const long added = ::syscall(SYS_landlock_add_rule, ruleset, kRulePathBeneath, &rule, 0);
  const int error = errno;
  ::close(fd);
  errno = error;
  return added == 0 ? std::string() : failure(("landlock rule for " + path).c_str());
}

} // namespace

int landlockAbi() {
  const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateRulesetVersion);
  return abi > 0 ? static_cast<int>(abi) : 0;
}

std::string restrictWithLandlock(const LandlockPlan& plan) {
  const int abi = landlockAbi();
  if (abi == 0) return "this kernel has no Landlock";
  RulesetAttributes attributes{handledFsRights(abi), 0, 0};
  std::size_t size = sizeof(std::uint64_t); // ABI 1-3 know only the file system rights
  if (abi >= 4) {
    if (plan.noNetwork) attributes.handledAccessNet = kBindTcp | kConnectTcp;
    size = 2 * sizeof(std::uint64_t);
  }
  if (abi >= 6) {
    // Abstract UNIX sockets reach other programs' services (a desktop bus, an X server), so they
    // go with the network. Signals are not scoped: a server that watches its parent with
    // kill(pid, 0), as language servers watch their editor, would take toold for dead.
    attributes.scoped = plan.noNetwork ? kScopeAbstractUnixSocket : 0;
    size = sizeof(RulesetAttributes);
  }
  const long ruleset = ::syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
  if (ruleset < 0) return failure("landlock_create_ruleset");
  const int fd = static_cast<int>(ruleset);
  const std::uint64_t handled = attributes.handledAccessFs;
  const std::uint64_t readRights = kExecute | kReadFile | kReadDir;
  const std::uint64_t deviceRights = kReadFile | kWriteFile | kReadDir | kTruncate | kIoctlDev;
  std::string error;
  for (const auto& path : plan.read)
    if (error.empty()) error = addRule(fd, path, readRights, handled);
  for (const auto& path : plan.devices)
    if (error.empty()) error = addRule(fd, path, deviceRights, handled);
  for (const auto& path : plan.write)
    if (error.empty()) error = addRule(fd, path, handled, handled);
  if (error.empty() && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) error = failure("no_new_privs");
  if (error.empty() && ::syscall(SYS_landlock_restrict_self, fd, 0) != 0) error = failure("landlock_restrict_self");
  ::close(fd);
  return error;
}

} // namespace toold::sandbox_launch
