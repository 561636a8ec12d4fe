// What one line typed at the REPL asks for. Parsing is separate from doing, so a malformed line
// is refused before anything is sent.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace toold::repl {

using nlohmann::json;

/// `METHOD {params}`: a request; params absent when the line has none.
struct SendRequest {
  std::string method;
  std::optional<json> params;
};

/// `!METHOD {params}`: a notification.
struct SendNotification {
  std::string method;
  std::optional<json> params;
};

/// `:reply ID {result}`: answers a request toold sent; the result is null when omitted.
struct SendReply {
  json id;
  json result;
};

struct ShowHelp {};
struct Quit {};
struct Nothing {}; ///< a blank line or a `#` comment

/// A line that cannot be sent as typed; `message` says why.
struct LineError {
  std::string message;
};

using Command = std::variant<SendRequest, SendNotification, SendReply, ShowHelp, Quit, Nothing, LineError>;

Command parseLine(std::string_view line);

/// The text :help prints.
std::string_view helpText();

} // namespace toold::repl
