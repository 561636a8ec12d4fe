#include "core/sandbox/sandbox_kernel.h"

#include "core/process/program_lookup.h"
#include "core/process/spawn_plan.h"
#include "core/sandbox/launch_arguments.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace toold::core {

std::filesystem::path defaultSandboxLauncher() {
  const auto folder = ownExecutableFolder();
  if (folder.empty()) return {};
  return folder / std::string(sandbox_launch::kLauncherName);
}

SandboxKernel probeSandboxKernel(const std::filesystem::path& launcher) {
  SandboxKernel kernel;
  if (launcher.empty() || ::access(launcher.c_str(), X_OK) != 0) {
    kernel.problem = "the sandbox launcher " + std::string(sandbox_launch::kLauncherName) + " was not found beside toold" +
                     (launcher.empty() ? std::string() : " (" + launcher.string() + ")");
    return kernel;
  }
  std::string answer;
  try {
    PipeEnds pipe = makePipe();
    keepAboveStdio(pipe.write);
    SpawnPlan plan({launcher.string(), std::string(sandbox_launch::kProbe)}, {}, SpawnPlan::Isolation::ProcessGroup);
    plan.setStream(pipe.write, STDOUT_FILENO);
    pid_t pid = -1;
    if (const int error = plan.spawn(pid); error != 0) {
      kernel.problem = "cannot run " + launcher.string() + ": " + std::strerror(error);
      return kernel;
    }
    pipe.write.reset();
    char buffer[512];
    for (;;) {
      const ssize_t got = ::read(pipe.read.get(), buffer, sizeof buffer);
      if (got > 0 && answer.size() < 4096) answer.append(buffer, static_cast<std::size_t>(got));
      else if (got == 0 || (got < 0 && errno != EINTR)) break;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  } catch (const std::exception& e) {
    kernel.problem = std::string("cannot ask the sandbox launcher: ") + e.what();
    return kernel;
  }
  const auto report = nlohmann::json::parse(answer, nullptr, false);
  if (!report.is_object()) {
    kernel.problem = "the sandbox launcher " + launcher.string() + " gave no report";
    return kernel;
  }
  kernel.launcher = launcher;
  kernel.landlockAbi = report.value("landlockAbi", 0);
  kernel.landlock = report.value("landlock", false);
  kernel.mountNamespace = report.value("mountNamespace", false);
  kernel.seccomp = report.value("seccomp", false);
  return kernel;
}

} // namespace toold::core
