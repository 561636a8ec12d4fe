// toold-sandbox: puts itself in the sandbox toold describes on its command line, then becomes the
// command (see core/sandbox/launch_arguments.h for the words). A program of its own rather than
// code between fork and exec in toold: toold starts children with posix_spawn, which runs nothing
// of the caller's in the child, and a separate small program starts in a millisecond where toold's
// own binary, with all its libraries, takes twenty.
//
// Order matters: the mount namespace first (Landlock forbids mounting once applied), then
// Landlock, then seccomp (both need no_new_privs, which Landlock sets), then exec.
#include "core/sandbox/launch_arguments.h"
#include "daemon/sandbox/landlock_rules.h"
#include "daemon/sandbox/network_filter.h"
#include "daemon/sandbox/protected_mounts.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace launch = toold::sandbox_launch;

namespace {

struct Request {
  launch::LandlockPlan landlock;
  std::vector<std::string> protect;
  std::vector<std::string> rebind;
  std::vector<char*> command; // null-terminated
};

[[noreturn]] void fail(int status, const std::string& message) {
  std::fprintf(stderr, "%s%s\n", launch::kLauncherErrorPrefix.data(), message.c_str());
  std::_Exit(status);
}

Request parse(int argc, char** argv) {
  Request request;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == launch::kEndOfOptions) {
      for (int j = i + 1; j < argc; ++j) request.command.push_back(argv[j]);
      break;
    }
    if (word == launch::kNoNetwork) {
      request.landlock.noNetwork = true;
      continue;
    }
    if (i + 1 >= argc) fail(launch::kSetupFailedStatus, "option " + std::string(word) + " needs a path");
    const std::string path = argv[++i];
    if (word == launch::kRead) request.landlock.read.push_back(path);
    else if (word == launch::kWrite) request.landlock.write.push_back(path);
    else if (word == launch::kDevice) request.landlock.devices.push_back(path);
    else if (word == launch::kProtect) request.protect.push_back(path);
    else if (word == launch::kRebind) request.rebind.push_back(path);
    else fail(launch::kSetupFailedStatus, "unknown option " + std::string(word));
  }
  if (request.command.empty()) fail(launch::kSetupFailedStatus, "no command after --");
  request.command.push_back(nullptr);
  return request;
}

// What the probe's child managed, one bit each, as its exit status.
constexpr int kNamespaceWorked = 1;
constexpr int kLandlockWorked = 2;
constexpr int kSeccompWorked = 4;
constexpr int kProbeFailed = 64; // no status at all (the fork failed, or the child was killed)

/// Tries each mechanism for real, in one child and in the order a command gets them, rather than
/// guessing from version numbers (a container may forbid what the kernel has). One child, not
/// three: the probe runs at every start of toold.
int tryMechanisms(bool namespaces, bool landlock, bool seccomp) {
  const pid_t child = ::fork();
  if (child < 0) return kProbeFailed;
  if (child == 0) {
    int worked = 0;
    if (namespaces && launch::enterMountNamespace().empty()) worked |= kNamespaceWorked;
    if (landlock && launch::restrictWithLandlock({}).empty()) worked |= kLandlockWorked;
    if (seccomp && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && launch::closeNetworkWithSeccomp().empty())
      worked |= kSeccompWorked;
    std::_Exit(worked);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kProbeFailed;
}

/// Whether TOOLD_SANDBOX_WITHOUT (a comma-separated list: landlock, namespaces, seccomp) names
/// `mechanism`: the probe then reports it missing, as an older kernel or a stricter container
/// would, so that toold's degraded modes can be tested on any machine.
bool pretendMissing(std::string_view mechanism) {
  const char* list = std::getenv("TOOLD_SANDBOX_WITHOUT");
  if (list == nullptr) return false;
  std::string_view rest = list;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    if (rest.substr(0, comma) == mechanism) return true;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return false;
}

int probe() {
  const int abi = pretendMissing("landlock") ? 0 : launch::landlockAbi();
  const int worked = tryMechanisms(!pretendMissing("namespaces"), abi > 0, !pretendMissing("seccomp"));
  const bool failed = worked == kProbeFailed;
  const bool mountNamespace = !failed && (worked & kNamespaceWorked) != 0;
  const bool landlock = !failed && (worked & kLandlockWorked) != 0;
  const bool seccomp = !failed && (worked & kSeccompWorked) != 0;
  // The report goes to the launcher's own stdout, the pipe toold reads it from.
  char report[160];
  const int length = std::snprintf(report, sizeof report, "{\"landlockAbi\":%d,\"landlock\":%s,\"mountNamespace\":%s,\"seccomp\":%s}\n",
                                   abi, landlock ? "true" : "false", mountNamespace ? "true" : "false",
                                   seccomp ? "true" : "false");
  return length > 0 && ::write(STDOUT_FILENO, report, static_cast<std::size_t>(length)) == length ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == launch::kProbe) return probe();
  const Request request = parse(argc, argv);
  if (!request.protect.empty()) {
    if (auto error = launch::enterMountNamespace(); !error.empty()) fail(launch::kSetupFailedStatus, error);
    if (auto error = launch::protectPaths(request.protect, request.rebind); !error.empty())
      fail(launch::kSetupFailedStatus, error);
  }
  const auto& plan = request.landlock;
  const bool restrictsFiles = !plan.read.empty() || !plan.write.empty() || !plan.devices.empty();
  if (restrictsFiles || plan.noNetwork) {
    // An empty plan with the network closed still handles every file right: allow everything.
    launch::LandlockPlan effective = plan;
    if (!restrictsFiles) effective.write.push_back("/");
    if (auto error = launch::restrictWithLandlock(effective); !error.empty()) {
      // Without Landlock, toold asks only for what seccomp can do (it probed): a closed network.
      if (restrictsFiles) fail(launch::kSetupFailedStatus, error);
    }
  }
  if (plan.noNetwork) {
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(launch::kSetupFailedStatus, "no_new_privs: " + std::string(std::strerror(errno)));
    if (auto error = launch::closeNetworkWithSeccomp(); !error.empty()) fail(launch::kSetupFailedStatus, error);
  }
  ::execv(request.command[0], request.command.data());
  fail(launch::kExecFailedStatus, std::string("cannot run \"") + request.command[0] + "\": " + std::strerror(errno));
}
