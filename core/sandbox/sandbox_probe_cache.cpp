#include "core/sandbox/sandbox_probe_cache.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toold::core {

namespace fs = std::filesystem;

namespace {

constexpr int kFormat = 1;

/// A file's text up to `limit` bytes; nullopt when it cannot be opened or read. read(2) rather than
/// a stream: some /proc and /sys files refuse reads with EINVAL (and a folder with EISDIR), which a
/// filebuf turns into an exception.
std::optional<std::string> fileText(const char* path, std::size_t limit) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  std::array<char, 4096> buffer{};
  bool failed = false;
  while (text.size() < limit) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got > 0) text.append(buffer.data(), static_cast<std::size_t>(got));
    else if (got == 0) break;
    else if (errno != EINTR) {
      failed = true;
      break;
    }
  }
  ::close(fd);
  if (failed) return std::nullopt;
  return text;
}

/// A small /proc or /sys file's text, trimmed of its last newline; "-" when it cannot be read (a
/// sysctl this kernel does not have is a value of the key like any other).
std::string smallFile(const char* path) {
  auto text = fileText(path, 512);
  if (!text) return "-";
  while (!text->empty() && (text->back() == '\n' || text->back() == '\0')) text->pop_back();
  return *text;
}

std::string linkTarget(const char* path) {
  std::array<char, 256> buffer{};
  const ssize_t length = ::readlink(path, buffer.data(), buffer.size() - 1);
  return length > 0 ? std::string(buffer.data(), static_cast<std::size_t>(length)) : std::string("-");
}

/// The confinement lines of /proc/self/status: a process already filtered or without new
/// privileges may not be able to do what a free one can.
std::string confinement() {
  const std::string status = fileText("/proc/self/status", 64 * 1024).value_or("");
  std::string kept;
  std::string_view rest = status;
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    for (const std::string_view field : {"NoNewPrivs:", "Seccomp:", "Seccomp_filters:", "Uid:", "Gid:", "CapEff:"})
      if (line.starts_with(field)) kept.append(line).push_back(';');
  }
  return kept;
}

} // namespace

std::string sandboxProbeKey(const fs::path& launcher) {
  struct stat file {};
  if (launcher.empty() || ::stat(launcher.c_str(), &file) != 0) return {};
  // Appended, not streamed: a string stream is the only thing a start would build the C++
  // locale for (every facet, narrow and wide: a tenth of a millisecond and a dozen page faults).
  auto number = [](auto value) { return std::to_string(value); };
  std::string key = "launcher=" + launcher.string();
  key += ':' + number(file.st_dev) + ':' + number(file.st_ino) + ':' + number(file.st_size) + ':' +
         number(file.st_mtim.tv_sec) + '.' + number(file.st_mtim.tv_nsec);
  key += "|boot=" + smallFile("/proc/sys/kernel/random/boot_id");
  key += "|userns=" + smallFile("/proc/sys/user/max_user_namespaces") + ',' +
         smallFile("/proc/sys/kernel/unprivileged_userns_clone") + ',' +
         smallFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  key += "|landlock=" + smallFile("/sys/kernel/security/lsm");
  key += "|ns=" + linkTarget("/proc/self/ns/user") + ',' + linkTarget("/proc/self/ns/mnt") + ',' +
         linkTarget("/proc/self/ns/pid") + ',' + linkTarget("/proc/self/ns/net");
  key += "|self=" + confinement() + smallFile("/proc/self/attr/current");
  // The launcher reports the mechanisms this names as missing (to try the degraded modes).
  const char* without = std::getenv("TOOLD_SANDBOX_WITHOUT");
  key += "|without=";
  key += without ? without : "-";
  return key;
}

std::optional<SandboxKernel> rememberedSandboxKernel(const fs::path& file, const std::string& key) {
  if (key.empty()) return std::nullopt;
  const auto text = fileText(file.c_str(), 64 * 1024);
  if (!text) return std::nullopt;
  const auto kept = nlohmann::json::parse(*text, nullptr, false);
  if (!kept.is_object() || kept.value("format", 0) != kFormat || kept.value("key", std::string()) != key)
    return std::nullopt;
  const auto launcher = kept.find("launcher");
  if (launcher == kept.end() || !launcher->is_string()) return std::nullopt;
  SandboxKernel kernel;
  kernel.launcher = launcher->get<std::string>();
  kernel.landlockAbi = kept.value("landlockAbi", 0);
  kernel.landlock = kept.value("landlock", false);
  kernel.mountNamespace = kept.value("mountNamespace", false);
  kernel.seccomp = kept.value("seccomp", false);
  return kernel;
}

void rememberSandboxKernel(const fs::path& file, const std::string& key, const SandboxKernel& kernel) {
  if (key.empty() || !kernel.problem.empty()) return;
  const nlohmann::json kept = {{"format", kFormat},
                               {"key", key},
                               {"launcher", kernel.launcher.string()},
                               {"landlockAbi", kernel.landlockAbi},
                               {"landlock", kernel.landlock},
                               {"mountNamespace", kernel.mountNamespace},
                               {"seccomp", kernel.seccomp}};
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  // Beside the file, then renamed over it: a reader sees the old answer or the new, never half.
  const fs::path staging = file.string() + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(staging, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << kept.dump() << '\n';
    if (!out.flush()) {
      out.close();
      fs::remove(staging, ec);
      return;
    }
  }
  fs::rename(staging, file, ec);
  if (ec) fs::remove(staging, ec);
}

std::optional<SandboxKernel> rememberedSandboxKernelNow(const fs::path& launcher, const fs::path& file) {
  try {
    return rememberedSandboxKernel(file, sandboxProbeKey(launcher));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

SandboxKernel probeSandboxKernelRemembered(const fs::path& launcher, const fs::path& file, bool* fromMemory) {
  // The memory only ever saves a probe: whatever goes wrong with it, the launcher is asked.
  std::string key;
  try {
    key = sandboxProbeKey(launcher);
    if (auto kept = rememberedSandboxKernel(file, key)) {
      if (fromMemory) *fromMemory = true;
      return *kept;
    }
  } catch (const std::exception&) {
    key.clear();
  }
  if (fromMemory) *fromMemory = false;
  SandboxKernel kernel = probeSandboxKernel(launcher);
  try {
    rememberSandboxKernel(file, key, kernel);
  } catch (const std::exception&) {
  }
  return kernel;
}

} // namespace toold::core
