// ToolOutcome: the one answer of a `call` that reached the pipeline — completed with content, or
// a model-visible error. Interruption, declines and operational failures are JSON-RPC errors
// instead and never take this shape.
#pragma once

#include "protocol/params_error.h"

#include <optional>
#include <string>
#include <vector>

namespace toold::protocol {

/// The model-visible error classes of DESIGN §3.
namespace error_type {
inline constexpr std::string_view kFailure = "tool.failure";
inline constexpr std::string_view kUnknown = "tool.unknown";
inline constexpr std::string_view kInvalidInput = "tool.invalid_input";
inline constexpr std::string_view kUnavailable = "tool.unavailable";
inline constexpr std::string_view kDisabled = "tool.disabled";
} // namespace error_type

struct ToolOutcome {
  enum class Status { Completed, Error };

  // Durable identity: exactly the ids the call supplied.
  std::string sessionID;
  std::string agent;
  std::string messageID;
  std::string callID;

  Status status = Status::Completed;
  // Completed:
  std::optional<json> output;     ///< the validated machine value, when the tool declares an output schema
  json content = json::array();   ///< non-empty array of {type:"text",text} | {type:"file",uri,mime,name?}
  std::optional<json> metadata;   ///< a JSON object, never sent to the model
  std::vector<std::string> outputPaths; ///< managed files holding text cut from `content`
  /// The pipeline cut `content` to its limits. Said here, beside the paths, and never in
  /// `metadata`: metadata is the tool's own, and a tool that returned none has none.
  bool truncated = false;
  /// What the client should know about how the call was run, never shown to the model (an
  /// "always" approval that could not be saved). Either status.
  std::vector<std::string> notices;
  // Error:
  std::string errorType;
  std::string errorMessage;
  std::optional<json> partial;    ///< the last progress update (and the failure's metadata)

  bool completed() const { return status == Status::Completed; }
};

/// The member of a content item that keeps an MCP server's own `resource_link` or `resource` item
/// (an embedded resource without its `text` or `blob`, which the item itself holds), so that
/// toold's MCP face relays it as such. The native face leaves it out.
inline constexpr const char* kMcpItemKey = "mcp";
/// The content as the native face shows it: the items without kMcpItemKey.
void appendNativeContent(std::string& out, const json& content);

void to_json(json& j, const ToolOutcome& outcome);
/// The same, moving the outcome's members instead of copying them.
json outcomeToJson(ToolOutcome&& outcome);
/// The outcome written out as JSON text, exactly as writeJson(outcomeToJson(outcome)) writes it
/// (members in the same order), without building that tree first: the answer's hot path.
void appendOutcomeJson(std::string& out, const ToolOutcome& outcome);
/// About how long the outcome's text is: its long strings (a read's page, its preview, a proxied
/// answer's structured copy) and room for the rest. A writer reserves it, so that the answer is
/// allocated once rather than grown and copied in steps.
std::size_t outcomeSizeHint(const ToolOutcome& outcome);

/// Reads an outcome an after-hook returned, onto `outcome`: everything is replaced except the
/// identity fields (a hook may change what a call produced, not which call it was). Throws
/// ParamsError.
void applyOutcomeJson(const json& value, ToolOutcome& outcome);

} // namespace toold::protocol
