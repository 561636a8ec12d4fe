// The line grammar: `METHOD [json]`, `!METHOD [json]`, a pasted JSON-RPC message, `TOOL key=value`,
// and the `:` meta-commands.
#include "daemon/repl/repl_command.h"

#include "protocol/bounded_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>

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

/// A number or a quoted string is taken as JSON; a bare word (toold's ids look like toold-1) as a string.
json parseId(std::string_view text) {
  auto parsed = protocol::parseBounded(text);
  if (parsed && (parsed.value.is_number_integer() || parsed.value.is_string())) return std::move(parsed.value);
  return std::string(text);
}

Command parseReply(std::string_view rest) {
  auto [idText, resultText] = firstWord(rest);
  if (idText.empty()) return LineError{"usage: :reply ID [json result]"};
  json result;
  if (!resultText.empty()) {
    auto parsed = protocol::parseBounded(resultText);
    if (!parsed) return LineError{"the result is not valid JSON (" + parsed.refusal->message + "); nothing was sent"};
    result = std::move(parsed.value);
  }
  return SendReply{parseId(idText), std::move(result)};
}

Command parseMeta(std::string_view line) {
  auto [word, rest] = firstWord(line.substr(1));
  if (word == "help" || word == "h" || word == "?") return ShowHelp{};
  if (word == "quit" || word == "q" || word == "exit") return Quit{};
  if (word == "reply") return parseReply(rest);
  if (word == "tools") return ShowTools{};
  if (word == "describe" || word == "d") {
    if (rest.empty()) return LineError{"usage: :describe TOOL"};
    return DescribeTool{std::string(rest)};
  }
  if (word == "call") {
    auto [tool, arguments] = firstWord(rest);
    if (tool.empty()) return LineError{"usage: :call TOOL key=value ... [{json}]"};
    return CallTool{std::string(tool), std::string(arguments)};
  }
  if (word == "session") {
    if (rest.empty()) return LineError{"usage: :session NAME"};
    return SetSession{std::string(rest)};
  }
  if (word == "model") return SetModel{std::string(rest)};
  if (word == "text") return SetMode{OutputMode::Text};
  if (word == "pretty") return SetMode{OutputMode::Pretty};
  if (word == "raw") return SetMode{OutputMode::Raw};
  if (word == "limit") {
    std::size_t lines = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), lines);
    if (rest.empty() || ec != std::errc() || end != rest.data() + rest.size())
      return LineError{"usage: :limit LINES (0 shows everything)"};
    return SetLimit{lines};
  }
  if (word == "cancel") {
    if (rest.empty()) return CancelRequest{};
    return CancelRequest{parseId(rest)};
  }
  if (word == "jobs") return ListJobs{};
  if (word == "kill") {
    if (rest.empty()) return LineError{"usage: :kill JOB (a job id from :jobs, e.g. shell-2)"};
    return KillJob{std::string(rest)};
  }
  if (word == "changes") {
    if (!rest.empty()) return LineError{"usage: :changes (the session's checkpoints; :session NAME for another's)"};
    return ShowChanges{};
  }
  if (word == "diff" || word == "undo") {
    if (rest.find_first_of(kBlanks) != std::string_view::npos) return LineError{"usage: :" + std::string(word) + " [CALL]"};
    std::optional<std::string> call;
    if (!rest.empty()) call = std::string(rest);
    if (word == "diff") return ShowDiff{call};
    return UndoChanges{call};
  }
  if (word == "redo") {
    if (!rest.empty()) return LineError{"usage: :redo (takes the last :undo back)"};
    return RedoChanges{};
  }
  if (word == "record") {
    if (rest.empty()) return LineError{"usage: :record FILE.fixture"};
    return RecordFixture{std::string(rest)};
  }
  return LineError{"unknown command :" + std::string(word) + "; :help lists the commands"};
}

/// A Code Mode path (segments joined by dots) as a program writes it: `.seg` for a segment that
/// is an identifier, else `["seg"]` (tools.github.list_issues, tools["2d_get_scene"]).
std::string pathExpression(std::string_view path) {
  std::string expression = "tools";
  while (true) {
    const auto dot = path.find('.');
    const std::string_view segment = path.substr(0, dot);
    const bool identifier = !segment.empty() && !std::isdigit(static_cast<unsigned char>(segment.front())) &&
                            std::all_of(segment.begin(), segment.end(), [](char c) {
                              return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
                            });
    expression += identifier ? "." + std::string(segment) : "[\\\"" + std::string(segment) + "\\\"]";
    if (dot == std::string_view::npos) return expression;
    path.remove_prefix(dot + 1);
  }
}

/// What to type instead of a tool that exists only inside Code Mode programs.
std::string codemodeHint(std::string_view path) {
  return std::string(path) + " is a Code Mode tool in this snapshot: it is called from a program, e.g.  execute code=\"return await " +
         pathExpression(path) + "({...})\"  (:describe execute; nothing was sent)";
}

} // namespace

Command parseLine(std::string_view line, const std::function<bool(const std::string&)>& isTool,
                  const std::function<bool(const std::string&)>& isCodemodeTool) {
  line = trim(line);
  if (line.empty() || line.front() == '#') return Nothing{};
  if (line.front() == ':') return parseMeta(line);

  if (line.front() == '{' || line.front() == '[') {
    auto parsed = protocol::parseBounded(line);
    if (!parsed) return LineError{"the message is not valid JSON (" + parsed.refusal->message + "); nothing was sent"};
    return SendRaw{std::move(parsed.value)};
  }

  const bool notification = line.front() == '!';
  auto [method, paramsText] = firstWord(notification ? trim(line.substr(1)) : line);
  if (method.empty()) return LineError{"a notification needs a method: !METHOD {params}"};
  if (!notification && isTool && isTool(std::string(method)) &&
      (paramsText.empty() || paramsText.front() != '[')) // `TOOL [..]` is not a tool's input
    return CallTool{std::string(method), std::string(paramsText)};
  if (!notification && isCodemodeTool && isCodemodeTool(std::string(method)) &&
      (paramsText.empty() || (paramsText.front() != '{' && paramsText.front() != '[')))
    return LineError{codemodeHint(method)};
  auto params = parseParams(paramsText);
  if (auto* error = std::get_if<LineError>(&params)) return std::move(*error);
  auto& value = std::get<std::optional<json>>(params);
  if (notification) return SendNotification{std::string(method), std::move(value)};
  return SendRequest{std::string(method), std::move(value)};
}

bool needsMoreInput(std::string_view text) {
  const auto end = text.find_last_not_of(" \t\r\n");
  if (end == std::string_view::npos) return false;
  if (text[end] == '\\') return true;
  int depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '{' || c == '[') ++depth;
    else if ((c == '}' || c == ']') && depth > 0) --depth;
  }
  // An unclosed string alone does not continue: a key="value with a stray quote is an error to
  // show, not a reason to wait for more.
  return depth > 0;
}

const std::vector<std::string>& metaCommands() {
  static const std::vector<std::string> commands{":help",  ":quit",   ":tools", ":describe", ":call", ":session",
                                                 ":model", ":text",   ":pretty", ":raw",     ":limit", ":cancel",
                                                 ":jobs",  ":kill",   ":reply", ":record",
                                                 ":changes", ":diff", ":undo", ":redo"};
  return commands;
}

const std::vector<std::string>& knownMethods() {
  static const std::vector<std::string> methods{
      "ping",           "register",          "unregister",          "snapshot",          "release",
      "call",           "tools/list",        "tools/call",          "hooks/subscribe",   "session/end",
      "permission/list", "permission/approvals", "permission/revoke", "checkpoint/list", "checkpoint/diff",
      "checkpoint/restore", "checkpoint/redo", "$/cancelRequest", "notifications/cancelled",
      "$/test/sleep",   "$/test/echo",       "$/test/fail",         "$/test/ask"};
  return methods;
}

std::string_view helpText() {
  return R"(Tools (from the session's snapshot, taken automatically and refreshed when the tools change):
  :tools                        the tools, one line each
  :describe TOOL                a tool's parameters and what they mean
  TOOL key=value ...            calls the tool (also  :call TOOL ...); values follow the schema:
                                numbers, true/false, JSON for objects and arrays, "quoted text",
                                key=@FILE for a file's content; a trailing {json} is the base input
  :session NAME  :model NAME    take the snapshot for another session or model
  :jobs  :kill JOB              the session's background shell jobs, and stopping one
Checkpoints (what the session's calls changed in the workspace):
  :changes                      the session's checkpoints: id, tool, call, changed paths
  :diff [CALL]                  what a call changed (the call ids :changes shows); all of it without CALL
  :undo [CALL]                  the workspace back to before the call (the newest not undone without
                                CALL); refused, naming the paths, if a path was changed since outside
  :redo                         takes the last :undo back
Messages:
  METHOD {json params}          a request (params optional), e.g.  ping  or  tools/list
  !METHOD {json params}         a notification, e.g.  !notifications/cancelled {"requestId":3}
  {"jsonrpc":"2.0",...}         a whole message, sent as it is
  :reply ID {json result}       answers a request toold sent (a prompt asks for it on a terminal)
  :cancel [ID]                  cancels a request (the newest running one; Ctrl-C does the same)
Output:
  :text  :pretty  :raw          content as the model sees it / indented JSON / JSON as sent
  :limit LINES                  cut long answers after LINES lines (0: never)
  :record FILE                  writes the conversation so far as a fixture for toold-fixture
  :help  :quit                  this text; leave (also Ctrl-D)
A line ending in \, or with an unclosed { or [, goes on on the next line. Lines starting with
# are ignored. Tab completes commands, methods, tools, parameters and paths. Piped lines run one
at a time (each waits for its answer, or for toold's question); a line ending in " &" does not.
)";
}

} // namespace toold::repl
