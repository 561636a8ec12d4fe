// Cutting an MCP server's stdout into messages: one JSON-RPC message per line, one trailing '\r'
// stripped, blank lines skipped. A line that grows past the frame cap (16 MiB, as opencode's V2)
// is not kept: the JSON-RPC id is recovered from its first 4 KiB, so that only the call it
// answers fails, and the rest of the line is discarded as it arrives.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

inline constexpr std::size_t kMcpFrameCap = 16u * 1024 * 1024;

class McpLineReader {
public:
  using LineHandler = std::function<void(std::string_view line)>;
  /// The id found at the start of an oversized line (nullopt when there was none), and its size so far.
  using OversizeHandler = std::function<void(std::optional<nlohmann::json> id, std::size_t bytes)>;

  McpLineReader(LineHandler onLine, OversizeHandler onOversize, std::size_t cap = kMcpFrameCap)
      : onLine_(std::move(onLine)), onOversize_(std::move(onOversize)), cap_(cap) {}

  void feed(std::string_view bytes);

private:
  void endLine();
  void deliver(std::string_view line);

  LineHandler onLine_;
  OversizeHandler onOversize_;
  std::size_t cap_;
  std::string line_;
  bool discarding_ = false; ///< the current line passed the cap: skip to its end
};

/// The value of the first `"id": <string or integer>` in `head`, if any.
std::optional<nlohmann::json> recoverJsonRpcId(std::string_view head);

} // namespace toold::core
