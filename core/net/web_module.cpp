#include "core/net/web_module.h"

#include "core/process/program_lookup.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include <dlfcn.h>
#include <unistd.h>

namespace toold::core {

namespace {

struct LoadedModule {
  void* handle = nullptr;
  std::string error; // when handle is null
};

std::vector<std::filesystem::path> candidates() {
  if (const char* chosen = std::getenv("TOOLD_WEB_MODULE"); chosen && *chosen) return {chosen};
  const auto folder = ownExecutableFolder();
  if (folder.empty()) return {};
  return {folder / kWebModuleName, folder.parent_path() / "lib" / "toold" / kWebModuleName};
}

LoadedModule load() {
  const auto paths = candidates();
  if (paths.empty())
    return {nullptr, std::string(kWebModuleName) + " cannot be found: the folder of toold's executable is unknown"};
  for (const auto& path : paths) {
    if (::access(path.c_str(), F_OK) != 0) continue;
    // RTLD_LOCAL: the module's symbols (its copies of Beast and OpenSSL's users) stay its own.
    if (void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return {handle, {}};
    const char* why = ::dlerror();
    return {nullptr, "cannot load " + path.string() + ": " + (why ? why : "unknown error")};
  }
  std::string looked;
  for (const auto& path : paths) looked += (looked.empty() ? "" : ", ") + path.string();
  return {nullptr, std::string(kWebModuleName) + " (TLS and HTML support) is missing; looked for " + looked +
                       ". Install it beside toold."};
}

const LoadedModule& module() {
  static std::once_flag once;
  static LoadedModule loaded;
  std::call_once(once, [] { loaded = load(); });
  return loaded;
}

} // namespace

void* webModuleSymbol(const char* symbol) {
  const LoadedModule& loaded = module();
  if (!loaded.handle) throw WebModuleError(loaded.error);
  // dlsym's error state is per thread; the module is never unloaded.
  if (void* address = ::dlsym(loaded.handle, symbol)) return address;
  throw WebModuleError(std::string(kWebModuleName) + " has no " + symbol + " (a module from another toold version?)");
}

} // namespace toold::core
