// The line grammar: `METHOD [json]`, `!METHOD [json]`, `:reply ID [json]`, `:help`, `:quit`.
#include "daemon/repl/repl_command.h"

#include "protocol/bounded_json.h"

namespace toold::repl {
namespace {

constexpr std::string_view kBlanks = " \t\r\n";

std::string_view trim(std::string_view s) {
  const auto begin = s.find_first_not_of(kBlanks);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(kBlanks) - begin + 1);
}

/// Splits off the first word; the rest is trimmed.
std::pair<std::string_view, std::string_view> firstWord(std::string_view s) {
  const auto end = s.find_first_of(kBlanks);
  if (end == std::string_view::npos) return {s, {}};
  return {s.substr(0, end), trim(s.substr(end))};
}

/// Params as JSON-RPC allows them: absent, an object, or an array. A LineError otherwise.
std::variant<std::optional<json>, LineError> parseParams(std::string_view text) {
  if (text.empty()) return std::optional<json>();
  // Bounded as toold bounds frames: a typed 1e999 or a 100,000-deep value is refused here, not
  // sent to be refused (nor crash the REPL when it prints it).
  auto parsed = protocol::parseBounded(text);
  if (!parsed) return LineError{"params are not valid JSON (" + parsed.refusal->message + "); nothing was sent"};
  json params = std::move(parsed.value);
  if (!params.is_object() && !params.is_array())
    return LineError{"params must be a JSON object or array, not " + std::string(params.type_name()) + "; nothing was sent"};
  return std::optional<json>(std::move(params));
}

Command parseReply(std::string_view rest) {
  auto [idText, resultText] = firstWord(rest);
  if (idText.empty()) return LineError{"usage: :reply ID [json result]"};
  // A number or a quoted string is taken as JSON; a bare word (toold's ids look like toold-1) as a string.
  auto parsedId = protocol::parseBounded(idText);
  json id = std::move(parsedId.value);
  if (!parsedId || !(id.is_number_integer() || id.is_string())) id = std::string(idText);
  json result;
  if (!resultText.empty()) {
    auto parsed = protocol::parseBounded(resultText);
    if (!parsed) return LineError{"the result is not valid JSON (" + parsed.refusal->message + "); nothing was sent"};
    result = std::move(parsed.value);
  }
  return SendReply{std::move(id), std::move(result)};
}

} // namespace

Command parseLine(std::string_view line) {
  line = trim(line);
  if (line.empty() || line.front() == '#') return Nothing{};

  if (line.front() == ':') {
    auto [word, rest] = firstWord(line.substr(1));
    if (word == "help" || word == "h" || word == "?") return ShowHelp{};
    if (word == "quit" || word == "q" || word == "exit") return Quit{};
    if (word == "reply") return parseReply(rest);
    return LineError{"unknown command :" + std::string(word) + "; :help lists the commands"};
  }

  const bool notification = line.front() == '!';
  auto [method, paramsText] = firstWord(notification ? trim(line.substr(1)) : line);
  if (method.empty()) return LineError{"a notification needs a method: !METHOD {params}"};
  auto params = parseParams(paramsText);
  if (auto* error = std::get_if<LineError>(&params)) return std::move(*error);
  auto& value = std::get<std::optional<json>>(params);
  if (notification) return SendNotification{std::string(method), std::move(value)};
  return SendRequest{std::string(method), std::move(value)};
}

std::string_view helpText() {
  return R"(Each line sends one message to toold:
  METHOD {json params}          a request (params optional), e.g.  ping  or  $/test/echo {"a":1}
  !METHOD {json params}         a notification, e.g.  !notifications/cancelled {"requestId":3}
  :reply ID {json result}       answers a request toold sent (shown with its id)
  :help                         this text
  :quit                         waits briefly for replies, shuts toold down and leaves (also Ctrl-D)
Replies and notifications from toold are printed as they arrive, after "<-- ".
Lines starting with # are ignored.
)";
}

} // namespace toold::repl
