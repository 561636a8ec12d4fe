// What one line typed at the REPL asks for. Parsing is separate from doing, so a malformed line
// is refused before anything is sent.
#pragma once

#include "daemon/repl/repl_render.h"

#include <nlohmann/json.hpp>

#include <functional>
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

/// A whole JSON-RPC message (or batch) pasted as it is: sent unchanged.
struct SendRaw {
  json message;
};

/// `:reply ID {result}`: answers a request toold sent; the result is null when omitted.
struct SendReply {
  json id;
  json result;
};

/// `:call TOOL key=value ... {json}`, or `TOOL key=value ...` when TOOL is a tool's name.
struct CallTool {
  std::string tool;
  std::string arguments; ///< the words after the name, converted once the schema is at hand
};

struct ShowTools {};
struct DescribeTool {
  std::string tool;
};
struct SetSession {
  std::string name;
};
struct SetModel {
  std::string name; ///< empty: no model
};
struct SetMode {
  OutputMode mode;
};
struct SetLimit {
  std::size_t lines; ///< 0: no limit
};
/// `:cancel [id]`: the newest running request when no id is given.
struct CancelRequest {
  std::optional<json> id;
};
struct ListJobs {};
struct KillJob {
  std::string id;
};
struct RecordFixture {
  std::string path;
};

/// `:changes`: the session's checkpoints.
struct ShowChanges {};
/// `:diff [CALL]`: what one call changed; with no call, all the session changed.
struct ShowDiff {
  std::optional<std::string> callID;
};
/// `:undo [CALL]`: the workspace back to before the call; with no call, before the session's
/// newest call still standing.
struct UndoChanges {
  std::optional<std::string> callID;
};
/// `:redo`: takes the session's last undo back.
struct RedoChanges {};

struct ShowHelp {};
struct Quit {};
struct Nothing {}; ///< a blank line or a `#` comment

/// A line that cannot be sent as typed; `message` says why.
struct LineError {
  std::string message;
};

using Command = std::variant<SendRequest, SendNotification, SendRaw, SendReply, CallTool, ShowTools, DescribeTool, SetSession,
                             SetModel, SetMode, SetLimit, CancelRequest, ListJobs, KillJob, RecordFixture, ShowChanges, ShowDiff,
                             UndoChanges, RedoChanges, ShowHelp, Quit, Nothing, LineError>;

/// `isTool` says whether a bare first word is a tool's name (then the line calls it);
/// `isCodemodeTool`, whether it names a tool the snapshot offers only inside `execute` (then the
/// line is refused with a program that would call it).
Command parseLine(std::string_view line, const std::function<bool(const std::string&)>& isTool = {},
                  const std::function<bool(const std::string&)>& isCodemodeTool = {});

/// True when `text` asks for another line: it ends in `\`, or a `{` or `[` is still open
/// (outside JSON strings).
bool needsMoreInput(std::string_view text);

/// The meta-commands, for :help and completion.
const std::vector<std::string>& metaCommands();
/// toold's methods a person may type, for completion.
const std::vector<std::string>& knownMethods();

/// The text :help prints.
std::string_view helpText();

} // namespace toold::repl
