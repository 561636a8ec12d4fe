#include "builtins/codemode/worker_executable.h"

#include "builtins/codemode/worker_protocol.h"
#include "core/process/program_lookup.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <unistd.h>

namespace toold::codemode {

std::string defaultWorkerExecutable() {
  const auto folder = core::ownExecutableFolder();
  if (folder.empty()) return {};
  return (folder / kWorkerExecutableName).string();
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
