#include "builtins/codemode/worker_call_lines.h"

#include "protocol/json_writer.h"

#include <charconv>

namespace toold::codemode {

namespace {
constexpr std::string_view kResultHead = R"({"type":"result","id":)";
constexpr std::string_view kValueKey = R"(,"ok":true,"value":)";
constexpr std::string_view kErrorKey = R"(,"ok":false,"error":)";
constexpr std::string_view kTextHead = R"({"type":"text","id":)";
constexpr std::string_view kBytesKey = R"(,"bytes":)";
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

namespace {
// The value of the four hex digits at `at`, or -1.
int hexQuad(std::string_view text, std::size_t at) {
  if (at + 4 > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    const char c = text[i];
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}
} // namespace

bool hasLoneSurrogate(std::string_view inputJson) {
  // Escapes occur only inside strings, and a backslash there always starts one: scanning escape by
  // escape needs no tracking of where strings begin.
  for (std::size_t at = inputJson.find('\\'); at != std::string_view::npos; at = inputJson.find('\\', at)) {
    if (at + 1 >= inputJson.size()) return false;
    if (inputJson[at + 1] != 'u') {
      at += 2; // any other escape, an escaped backslash too
      continue;
    }
    const int unit = hexQuad(inputJson, at + 2);
    at += 6;
    if (unit < 0xD800 || unit > 0xDFFF) continue;
    if (unit >= 0xDC00) return true; // a low half with no high half before it
    const int next = at + 1 < inputJson.size() && inputJson[at] == '\\' && inputJson[at + 1] == 'u' ? hexQuad(inputJson, at + 2) : -1;
    if (next < 0xDC00 || next > 0xDFFF) return true;
    at += 6;
  }
  return false;
}

std::string resultLine(std::uint64_t id, bool ok, const nlohmann::json& payload) {
  std::string line(kResultHead);
  line += std::to_string(id);
  line += ok ? kValueKey : kErrorKey;
  protocol::appendJson(line, payload);
  line += "}\n";
  return line;
}

std::string textResultLine(std::uint64_t id, std::string_view text) {
  std::string line;
  // Escapes make the text a little longer: a sixteenth more, and the frame.
  line.reserve(kResultHead.size() + kValueKey.size() + 32 + text.size() + text.size() / 16);
  line += kResultHead;
  line += std::to_string(id);
  line += kValueKey;
  protocol::appendJsonString(line, text);
  line += "}\n";
  return line;
}

std::string rawTextResult(std::uint64_t id, std::string_view text) {
  std::string answer;
  answer.reserve(kTextHead.size() + kBytesKey.size() + 48 + text.size());
  answer += kTextHead;
  answer += std::to_string(id);
  answer += kBytesKey;
  answer += std::to_string(text.size());
  answer += "}\n";
  answer += text;
  return answer;
}

std::optional<TextHeader> readTextHeader(std::string_view line) {
  if (!line.starts_with(kTextHead) || !line.ends_with('}')) return std::nullopt;
  line.remove_prefix(kTextHead.size());
  line.remove_suffix(1);
  TextHeader header;
  const auto id = std::from_chars(line.data(), line.data() + line.size(), header.id);
  if (id.ec != std::errc() || id.ptr == line.data()) return std::nullopt;
  line.remove_prefix(static_cast<std::size_t>(id.ptr - line.data()));
  if (!line.starts_with(kBytesKey)) return std::nullopt;
  line.remove_prefix(kBytesKey.size());
  const auto bytes = std::from_chars(line.data(), line.data() + line.size(), header.bytes);
  if (bytes.ec != std::errc() || bytes.ptr == line.data() || bytes.ptr != line.data() + line.size()) return std::nullopt;
  return header;
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
