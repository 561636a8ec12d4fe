#include "core/permission/config_file.h"

#include "core/permission/permission_config.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <system_error>

namespace toold::core {

std::string readConfigFile(const std::filesystem::path& path, const std::string& displayName) {
  const auto cannotRead = [&displayName](int error) {
    return ConfigError(displayName + ": cannot read: " + std::generic_category().message(error));
  };
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw cannotRead(errno);
  std::string text;
  std::array<char, 8192> buffer{};
  while (true) {
    const std::size_t count = std::fread(buffer.data(), 1, buffer.size(), file.get());
    text.append(buffer.data(), count);
    if (count < buffer.size()) break;
  }
  // A directory opens but does not read (EISDIR): that, too, is a file that cannot be read.
  if (std::ferror(file.get())) throw cannotRead(errno);
  return text;
}

} // namespace toold::core
