#include "builtins/tool_support.h"

#include "builtins/files/read_stamps.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::builtins {

void assertEach(const core::ToolContext& context, std::vector<core::PermissionAsk> asks,
                core::PermissionContinuation done) {
  if (asks.empty()) return done(std::nullopt);
  auto first = std::move(asks.front());
  asks.erase(asks.begin());
  context.assertPermission(std::move(first), [context, rest = std::move(asks), done = std::move(done)](
                                                 std::optional<core::ToolCompletion> refusal) mutable {
    if (refusal) return done(std::move(refusal));
    assertEach(context, std::move(rest), std::move(done));
  });
}

void resolveWithBoundary(const core::ToolContext& context, std::string_view path, core::PathKind kind,
                         const core::ToolDone& done, std::function<void(core::ResolvedPath)> next) {
  core::ResolvedPath resolved;
  try {
    resolved = core::resolveToolPath(path, *context.location);
  } catch (const core::PathError& e) {
    return done(failure(e.what()));
  }
  auto ask = core::externalDirectoryAsk(resolved, kind);
  if (!ask) return next(std::move(resolved));
  context.assertPermission(std::move(*ask), [done, next = std::move(next), resolved](
                                                std::optional<core::ToolCompletion> refusal) {
    if (refusal) return done(std::move(*refusal));
    next(resolved);
  });
}

std::variant<LoadedFile, std::string> loadFile(const std::filesystem::path& path, std::string_view displayPath) {
  const std::string name(displayPath);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return "File " + name + " not found.";
    return "Cannot open " + name + ": " + std::strerror(errno);
  }
  std::unique_ptr<int, void (*)(int*)> closer(&fd, [](int* f) { ::close(*f); });
  struct stat status {};
  if (::fstat(fd, &status) != 0) return "Cannot stat " + name + ": " + std::strerror(errno);
  if (S_ISDIR(status.st_mode)) return "Path is a directory, not a file: " + name;
  if (!S_ISREG(status.st_mode)) return name + " is not a regular file (a device, FIFO or socket), so it cannot be edited.";
  if (static_cast<std::uintmax_t>(status.st_size) > kMaxEditableBytes)
    return "File " + name + " is too large to edit here (" + std::to_string(status.st_size >> 20) +
           " MiB; the limit is 64 MiB). Use the shell for files this large.";
  LoadedFile loaded;
  loaded.identity = identityOf(status);
  loaded.mode = status.st_mode & 07777;
  loaded.bytes.resize(static_cast<std::size_t>(status.st_size));
  std::size_t filled = 0;
  while (true) {
    if (filled == loaded.bytes.size()) loaded.bytes.resize(filled + 65536); // it grew meanwhile
    ssize_t n = ::read(fd, loaded.bytes.data() + filled, loaded.bytes.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return "Cannot read " + name + ": " + std::strerror(errno);
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  loaded.bytes.resize(filled);
  return loaded;
}

bool unchangedSince(const std::filesystem::path& path, const std::optional<std::string>& expected) {
  auto current = loadFile(path, path.string());
  if (auto* file = std::get_if<LoadedFile>(&current)) return expected && file->bytes == *expected;
  std::error_code ec;
  return !expected && !std::filesystem::exists(std::filesystem::symlink_status(path, ec));
}

std::string boundedDiff(std::string_view diff, std::size_t maxBytes) {
  if (diff.size() <= maxBytes) return std::string(diff);
  std::size_t cut = diff.rfind('\n', maxBytes);
  if (cut == std::string_view::npos) cut = 0;
  std::size_t omitted = 0;
  for (std::size_t i = cut; i < diff.size(); ++i)
    if (diff[i] == '\n') ++omitted;
  std::string result(diff.substr(0, cut));
  result += "\n... (diff cut here; " + std::to_string(omitted) + " more lines)";
  return result;
}

core::Tool workerTool(std::string description, core::json inputSchema, std::string permission, bool mutates,
                      core::ToolExecute execute) {
  core::Tool tool;
  tool.description = std::move(description);
  tool.inputSchema = std::move(inputSchema);
  tool.permission = std::move(permission);
  tool.mutates = mutates;
  tool.threading = core::ToolThreading::Workers;
  tool.execute = std::move(execute);
  return tool;
}

core::ToolCompletion failure(std::string message) { return core::ToolFailure{std::move(message), std::nullopt}; }

} // namespace toold::builtins
