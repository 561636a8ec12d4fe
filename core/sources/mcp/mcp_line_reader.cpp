#include "core/sources/mcp/mcp_line_reader.h"

#include <cctype>

namespace toold::core {

namespace {

constexpr std::size_t kIdSearchBytes = 4096;

} // namespace

void McpLineReader::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    if (line_.empty() && !discarding_ && newline != std::string_view::npos && newline <= cap_) {
      // A whole line in this chunk (an answer read at once, as most are): handled where it lies,
      // not copied into the line buffer first.
      deliver(bytes.substr(0, newline));
      bytes.remove_prefix(newline + 1);
      continue;
    }
    const std::string_view piece = bytes.substr(0, newline);
    if (!discarding_) {
      line_.append(piece);
      if (line_.size() > cap_) {
        discarding_ = true;
        onOversize_(recoverJsonRpcId(std::string_view(line_).substr(0, kIdSearchBytes)), line_.size());
        line_ = std::string(); // give the memory back at once
      }
    }
    if (newline == std::string_view::npos) return;
    endLine();
    bytes.remove_prefix(newline + 1);
  }
}

void McpLineReader::endLine() {
  if (discarding_) {
    discarding_ = false;
    return;
  }
  deliver(line_);
  line_.clear();
}

void McpLineReader::deliver(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") != std::string_view::npos) onLine_(line);
}

std::optional<nlohmann::json> recoverJsonRpcId(std::string_view head) {
  std::size_t at = 0;
  while ((at = head.find("\"id\"", at)) != std::string_view::npos) {
    std::size_t i = at + 4;
    at = i;
    while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
    if (i >= head.size() || head[i] != ':') continue;
    ++i;
    while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
    if (i >= head.size()) return std::nullopt;
    if (head[i] == '"') {
      const std::size_t end = head.find('"', i + 1);
      if (end == std::string_view::npos) return std::nullopt;
      return nlohmann::json(std::string(head.substr(i + 1, end - i - 1)));
    }
    std::size_t end = i;
    if (end < head.size() && head[end] == '-') ++end;
    while (end < head.size() && std::isdigit(static_cast<unsigned char>(head[end]))) ++end;
    if (end == i || (end == i + 1 && head[i] == '-')) continue;
    try {
      return nlohmann::json(std::stoll(std::string(head.substr(i, end - i))));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

} // namespace toold::core
