#include "core/sources/mcp/mcp_tool_names.h"

#include "core/tools/tool_name.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <set>

namespace toold::core {

namespace {

constexpr std::size_t kPrefixLength = kMaxToolNameLength - 9; // "_" + 8 hex

/// FNV-1a, 64 bits: stable across builds and platforms, which is all a name suffix needs.
std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

} // namespace

std::string mcpPlainToolName(std::string_view server, std::string_view tool) {
  return normalizeToolName(server) + "_" + normalizeToolName(tool);
}

std::string mcpHashedToolName(std::string_view server, std::string_view tool, unsigned attempt) {
  std::string key = std::string(server) + '\0' + std::string(tool);
  if (attempt > 0) key += '\0' + std::to_string(attempt);
  std::string prefix = mcpPlainToolName(server, tool).substr(0, kPrefixLength);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(key)));
  return prefix + "_" + std::string(hex, 8);
}

std::vector<McpToolName> nameMcpTools(std::string_view server, const std::vector<std::string>& rawNames,
                                      const std::function<bool(const std::string&)>& takenElsewhere) {
  std::map<std::string, std::vector<std::size_t>> byPlain;
  std::vector<McpToolName> names(rawNames.size());
  for (std::size_t i = 0; i < rawNames.size(); ++i) {
    names[i].raw = rawNames[i];
    names[i].effective = mcpPlainToolName(server, rawNames[i]);
    byPlain[names[i].effective].push_back(i);
  }
  std::set<std::string> used;
  std::vector<std::size_t> toHash;
  for (const auto& [plain, members] : byPlain) {
    // In a clash the tool already named exactly so keeps the plain name; none keeps it otherwise,
    // since which one came first is an accident of the server's order.
    std::size_t keeper = members.size();
    if (members.size() == 1) {
      keeper = members.front();
    } else {
      for (std::size_t index : members)
        if (normalizeToolName(names[index].raw) == names[index].raw && keeper == members.size()) keeper = index;
    }
    for (std::size_t index : members) {
      const bool keeps = index == keeper && plain.size() <= kMaxToolNameLength && !takenElsewhere(plain);
      if (keeps)
        used.insert(plain);
      else
        toHash.push_back(index);
    }
  }
  for (std::size_t index : toHash) {
    unsigned attempt = 0;
    std::string name = mcpHashedToolName(server, names[index].raw, attempt);
    while (used.contains(name) || takenElsewhere(name)) name = mcpHashedToolName(server, names[index].raw, ++attempt);
    used.insert(name);
    names[index].effective = std::move(name);
    names[index].renamed = true;
  }
  return names;
}

} // namespace toold::core
