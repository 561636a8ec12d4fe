#include "builtins/codemode/worker_call_lines.h"

#include "protocol/json_writer.h"

#include <charconv>

namespace toold::codemode {

namespace {
constexpr std::string_view kResultHead = R"({"type":"result","id":)";
constexpr std::string_view kValueKey = R"(,"ok":true,"value":)";
constexpr std::string_view kErrorKey = R"(,"ok":false,"error":)";
} // namespace

std::string callLine(std::uint64_t id, std::string_view path, std::string_view inputJson) {
  std::string line;
  line.reserve(48 + path.size() + inputJson.size());
  line += R"({"type":"call","id":)";
  line += std::to_string(id);
  line += R"(,"path":)";
  protocol::appendJsonString(line, path);
  line += R"(,"input":)";
  line += inputJson.empty() ? std::string_view("{}") : inputJson;
  line += "}\n";
  return line;
}

std::string resultLine(std::uint64_t id, bool ok, const nlohmann::json& payload) {
  std::string line(kResultHead);
  line += std::to_string(id);
  line += ok ? kValueKey : kErrorKey;
  protocol::appendJson(line, payload);
  line += "}\n";
  return line;
}

std::optional<ResultLine> readResultLine(std::string_view line) {
  if (!line.starts_with(kResultHead) || !line.ends_with('}')) return std::nullopt;
  line.remove_prefix(kResultHead.size());
  ResultLine result;
  const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), result.id);
  if (error != std::errc() || end == line.data()) return std::nullopt;
  line.remove_prefix(static_cast<std::size_t>(end - line.data()));
  if (line.starts_with(kValueKey)) {
    result.ok = true;
    line.remove_prefix(kValueKey.size());
  } else if (line.starts_with(kErrorKey)) {
    line.remove_prefix(kErrorKey.size());
  } else {
    return std::nullopt;
  }
  line.remove_suffix(1);
  if (line.empty()) return std::nullopt;
  result.payload = line;
  return result;
}

} // namespace toold::codemode
