#include "builtins/codemode/worker_executable.h"

#include "builtins/codemode/worker_protocol.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <unistd.h>

namespace toold::codemode {

std::string defaultWorkerExecutable() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return (self.parent_path() / kWorkerExecutableName).string();
}

std::optional<std::string> workerExecutableProblem(const std::string& executable) {
  if (executable.empty())
    return std::string("the Code Mode worker ") + kWorkerExecutableName +
           " cannot be found: the folder of toold's executable is unknown (/proc/self/exe unreadable)";
  if (::access(executable.c_str(), X_OK) != 0)
    return std::string("the Code Mode worker ") + kWorkerExecutableName + " is missing beside toold (" + executable +
           ": " + std::strerror(errno) + "); install it in the same folder as toold";
  return std::nullopt;
}

} // namespace toold::codemode
