#include "builtins/codemode/program_result.h"

namespace toold::codemode {

using json = nlohmann::json;

std::string renderProgramOutput(const ProgramResult& result) {
  std::string text;
  if (result.ok) {
    text = result.value.is_string() ? result.value.get<std::string>()
                                    : result.value.dump(2, ' ', false, json::error_handler_t::replace);
  } else if (result.error) {
    text = result.error->message;
    for (const auto& suggestion : result.error->suggestions)
      if (text.find(suggestion) == std::string::npos) text += "\n" + suggestion;
  }
  if (result.ok && !result.warnings.empty()) {
    text += "\n\nWarnings:";
    for (const auto& warning : result.warnings) text += "\n- [" + warning.kind + "] " + warning.message;
  }
  if (!result.logs.empty()) {
    text += "\n\nLogs:";
    for (const auto& line : result.logs) text += "\n" + line;
  }
  return text;
}

json diagnosticToJson(const Diagnostic& diagnostic) {
  json out{{"kind", diagnostic.kind}, {"message", diagnostic.message}};
  if (!diagnostic.suggestions.empty()) out["suggestions"] = diagnostic.suggestions;
  if (diagnostic.location) out["location"] = *diagnostic.location;
  return out;
}

Diagnostic diagnosticFromJson(const json& value) {
  Diagnostic diagnostic;
  if (!value.is_object()) return {diagnostic_kind::kExecutionFailure, "malformed diagnostic", {}, std::nullopt};
  diagnostic.kind = value.value("kind", std::string(diagnostic_kind::kExecutionFailure));
  diagnostic.message = value.value("message", std::string());
  if (auto it = value.find("suggestions"); it != value.end() && it->is_array())
    for (const auto& s : *it)
      if (s.is_string()) diagnostic.suggestions.push_back(s.get<std::string>());
  if (auto it = value.find("location"); it != value.end() && it->is_object()) diagnostic.location = *it;
  return diagnostic;
}

json resultToJson(const ProgramResult& result) {
  json out{{"ok", result.ok}, {"logs", result.logs}, {"interrupted", result.interrupted}};
  if (result.ok) out["value"] = result.value;
  if (result.error) out["error"] = diagnosticToJson(*result.error);
  json warnings = json::array();
  for (const auto& warning : result.warnings) warnings.push_back(diagnosticToJson(warning));
  out["warnings"] = std::move(warnings);
  return out;
}

ProgramResult resultFromJson(const json& value) {
  ProgramResult result;
  result.ok = value.value("ok", false);
  result.interrupted = value.value("interrupted", false);
  if (result.ok) result.value = value.contains("value") ? value["value"] : json(nullptr);
  if (auto it = value.find("error"); it != value.end()) result.error = diagnosticFromJson(*it);
  if (!result.ok && !result.error)
    result.error = Diagnostic{diagnostic_kind::kExecutionFailure, "The program failed without a diagnostic.", {}, std::nullopt};
  if (auto it = value.find("warnings"); it != value.end() && it->is_array())
    for (const auto& warning : *it) result.warnings.push_back(diagnosticFromJson(warning));
  if (auto it = value.find("logs"); it != value.end() && it->is_array())
    for (const auto& line : *it)
      if (line.is_string()) result.logs.push_back(line.get<std::string>());
  return result;
}

} // namespace toold::codemode
