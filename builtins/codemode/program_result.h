// What running one Code Mode program produced, in terms the rest of toold understands (no engine
// types): its value or its diagnostic, the warnings, the captured console lines.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace toold::codemode {

/// Diagnostic kinds, as opencode names them, plus toold's MemoryLimitExceeded.
namespace diagnostic_kind {
inline constexpr const char* kParseError = "ParseError";
inline constexpr const char* kUnsupportedSyntax = "UnsupportedSyntax";
inline constexpr const char* kUnknownTool = "UnknownTool";
inline constexpr const char* kInvalidToolInput = "InvalidToolInput";
inline constexpr const char* kInvalidDataValue = "InvalidDataValue";
inline constexpr const char* kToolCallLimitExceeded = "ToolCallLimitExceeded";
inline constexpr const char* kTimeoutExceeded = "TimeoutExceeded";
inline constexpr const char* kMemoryLimitExceeded = "MemoryLimitExceeded";
inline constexpr const char* kToolFailure = "ToolFailure";
inline constexpr const char* kExecutionFailure = "ExecutionFailure";
inline constexpr const char* kTruncated = "Truncated";
} // namespace diagnostic_kind

struct Diagnostic {
  std::string kind;
  std::string message;
  std::vector<std::string> suggestions;
  std::optional<nlohmann::json> location; ///< {line, column} in the program, when known
};

struct ProgramResult {
  bool ok = false;
  nlohmann::json value;              ///< when ok: the program's value as JSON (undefined: null)
  std::optional<Diagnostic> error;   ///< when not ok
  std::vector<Diagnostic> warnings;
  std::vector<std::string> logs;
  /// Ended by the wall clock, cancellation or memory: the engine's state is suspect and its
  /// process should not run another program.
  bool interrupted = false;
};

/// The text the model reads: the value (a string verbatim, other JSON pretty-printed) or the
/// diagnostic's message with the suggestions it does not already say; then `Warnings:` (on
/// success) and `Logs:`, each after a blank line.
std::string renderProgramOutput(const ProgramResult& result);

nlohmann::json diagnosticToJson(const Diagnostic& diagnostic);
Diagnostic diagnosticFromJson(const nlohmann::json& value);
nlohmann::json resultToJson(const ProgramResult& result);
ProgramResult resultFromJson(const nlohmann::json& value);

} // namespace toold::codemode
