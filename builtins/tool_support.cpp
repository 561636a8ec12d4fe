#include "builtins/tool_support.h"

#include "builtins/files/read_stamps.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::builtins {

namespace {

// The asks of one assertEach, asserted in turn. A verdict the rules give at once comes back inside
// assertPermission; the loop then goes on itself rather than from the verdict, so a command with
// thousands of paths to ask about does not nest a stack frame per ask.
struct AskRun {
  core::ToolContext context;
  std::vector<core::PermissionAsk> asks;
  core::PermissionContinuation done;
  std::size_t next = 0;
};

// Where one ask stands between the loop and its verdict, whichever comes first.
enum AskState : int { kInLoop, kGrantedInLoop, kLoopLeft };

void askInTurn(const std::shared_ptr<AskRun>& run) {
  while (run->next < run->asks.size()) {
    auto state = std::make_shared<std::atomic<int>>(kInLoop);
    run->context.assertPermission(std::move(run->asks[run->next++]),
                                  [run, state](std::optional<core::ToolCompletion> refusal) {
                                    if (refusal) return run->done(std::move(refusal));
                                    int expected = kInLoop;
                                    if (state->compare_exchange_strong(expected, kGrantedInLoop)) return;
                                    askInTurn(run); // granted after the loop left: go on from here
                                  });
    int expected = kInLoop;
    // Refused, or waiting for the person: the verdict ends the run or goes on with it.
    if (state->compare_exchange_strong(expected, kLoopLeft)) return;
  }
  run->done(std::nullopt);
}

} // namespace

void assertEach(const core::ToolContext& context, std::vector<core::PermissionAsk> asks,
                core::PermissionContinuation done) {
  // One ask (a read, most calls): asserted as it is, with no run to share, nor the context copied
  // into one. Its verdict ends the run either way, as it would at the loop's end.
  if (asks.size() == 1) return context.assertPermission(std::move(asks.front()), std::move(done));
  askInTurn(std::make_shared<AskRun>(AskRun{context, std::move(asks), std::move(done)}));
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

std::variant<LoadedFile, std::string> loadFile(const core::HeldLocation& held) {
  const std::string& name = held.display;
  auto opened = core::openHeldFile(held);
  if (auto* error = std::get_if<std::string>(&opened)) return *error;
  const int fd = std::get<core::UniqueFd>(opened).get();
  struct stat status {};
  if (::fstat(fd, &status) != 0) return "Cannot stat " + name + ": " + std::strerror(errno);
  if (static_cast<std::uintmax_t>(status.st_size) > kMaxEditableBytes)
    return "File " + name + " is too large to edit here (" + std::to_string(status.st_size >> 20) +
           " MiB; the limit is 64 MiB). Use the shell for files this large.";
  LoadedFile loaded;
  loaded.identity = identityOf(status);
  loaded.mode = status.st_mode & 07777;
  // One byte more than fstat said, so that the read meeting the end has room and the string never
  // grows (growing would double it: an edit's peak memory is counted in copies of the file).
  loaded.bytes.resize(static_cast<std::size_t>(status.st_size) + 1);
  std::size_t filled = 0;
  while (true) {
    if (filled == loaded.bytes.size()) {
      // It grew meanwhile; the limit holds for what is read, not only for what fstat said.
      if (filled >= kMaxEditableBytes) return "File " + name + " is too large to edit here (it grew past 64 MiB while being read).";
      loaded.bytes.resize(filled + 65536);
    }
    ssize_t n = ::read(fd, loaded.bytes.data() + filled, loaded.bytes.size() - filled);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return "Cannot read " + name + ": " + std::strerror(errno);
    if (n == 0) break;
    filled += static_cast<std::size_t>(n);
  }
  loaded.bytes.resize(filled);
  return loaded;
}

bool unchangedSince(const std::filesystem::path& path, const core::WorkspaceRoot* root, const std::string* expected,
                    std::string* holdRefusal) {
  auto held = core::holdLocation(path, path.string(), core::HoldPurpose::Read, root);
  auto* location = std::get_if<core::HeldLocation>(&held);
  if (!location) {
    if (holdRefusal) *holdRefusal = std::get<std::string>(held);
    return false;
  }
  if (!location->exists()) return expected == nullptr;
  if (expected == nullptr) return false;
  auto opened = core::openHeldFile(*location);
  auto* file = std::get_if<core::UniqueFd>(&opened);
  if (!file) return false;
  // Compared block by block rather than loaded: this runs while the planned content is held, and
  // a second copy of the file would be the largest thing in memory.
  std::string block(std::min<std::size_t>(expected->size() + 1, 1 << 16), '\0');
  std::size_t compared = 0;
  for (;;) {
    const ssize_t n = ::read(file->get(), block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return compared == expected->size();
    const auto got = static_cast<std::size_t>(n);
    if (got > expected->size() - compared ||
        std::memcmp(block.data(), expected->data() + compared, got) != 0)
      return false;
    compared += got;
  }
}

core::Tool workerTool(std::string description, std::string_view inputSchemaText, std::string permission, bool mutates,
                      core::ToolExecute execute) {
  core::Tool tool;
  tool.description = std::move(description);
  tool.inputSchemaText = inputSchemaText;
  tool.permission = std::move(permission);
  tool.mutates = mutates;
  tool.threading = core::ToolThreading::Workers;
  tool.execute = std::move(execute);
  return tool;
}

core::ToolCompletion failure(std::string message) { return core::ToolFailure{std::move(message), std::nullopt}; }

} // namespace toold::builtins
