#include "protocol/tool_outcome.h"

#include "protocol/json_writer.h"

#include <algorithm>

namespace toold::protocol {

void to_json(json& j, const ToolOutcome& outcome) { j = outcomeToJson(ToolOutcome(outcome)); }

json outcomeToJson(ToolOutcome&& outcome) {
  // Members set one by one: an initializer list builds each {key, value} as an array first.
  json j(json::value_t::object);
  j["sessionID"] = std::move(outcome.sessionID);
  j["agent"] = std::move(outcome.agent);
  j["messageID"] = std::move(outcome.messageID);
  j["callID"] = std::move(outcome.callID);
  if (outcome.completed()) {
    j["status"] = "completed";
    if (outcome.output) j["output"] = std::move(*outcome.output);
    for (json& item : outcome.content)
      if (item.is_object()) item.erase(kMcpItemKey);
    j["content"] = std::move(outcome.content);
    if (outcome.metadata) j["metadata"] = std::move(*outcome.metadata);
    if (!outcome.outputPaths.empty()) j["outputPaths"] = std::move(outcome.outputPaths);
    if (outcome.truncated) j["truncated"] = true;
  } else {
    j["status"] = "error";
    j["error"] = json{{"type", std::move(outcome.errorType)}, {"message", std::move(outcome.errorMessage)}};
    if (outcome.partial) j["partial"] = std::move(*outcome.partial);
  }
  if (!outcome.notices.empty()) j["notices"] = std::move(outcome.notices);
  return j;
}

void appendNativeContent(std::string& out, const json& content) {
  const bool relayed = content.is_array() && std::any_of(content.begin(), content.end(), [](const json& item) {
                         return item.is_object() && item.contains(kMcpItemKey);
                       });
  if (!relayed) return appendJson(out, content);
  json copy = content;
  for (json& item : copy)
    if (item.is_object()) item.erase(kMcpItemKey);
  appendJson(out, copy);
}

std::size_t outcomeSizeHint(const ToolOutcome& outcome) {
  std::size_t size = 512 + outcome.errorMessage.size();
  auto addTexts = [&size](const json& value) {
    if (value.is_string()) size += value.get_ref<const std::string&>().size();
    if (!value.is_object() && !value.is_array()) return;
    for (const json& member : value)
      if (member.is_string()) size += member.get_ref<const std::string&>().size();
  };
  for (const json& item : outcome.content) addTexts(item);
  if (outcome.metadata) addTexts(*outcome.metadata);
  if (outcome.output) addTexts(*outcome.output);
  return size + size / 16;
}

void appendOutcomeJson(std::string& out, const ToolOutcome& outcome) {
  out.reserve(out.size() + outcomeSizeHint(outcome));
  // The members in the order nlohmann's object (a std::map) keeps them, so that the text is the
  // same byte for byte: clients and recorded fixtures see one shape.
  out += R"({"agent":)";
  appendJsonString(out, outcome.agent);
  out += R"(,"callID":)";
  appendJsonString(out, outcome.callID);
  if (outcome.completed()) {
    out += R"(,"content":)";
    appendNativeContent(out, outcome.content);
  } else {
    out += R"(,"error":{"message":)";
    appendJsonString(out, outcome.errorMessage);
    out += R"(,"type":)";
    appendJsonString(out, outcome.errorType);
    out += '}';
  }
  out += R"(,"messageID":)";
  appendJsonString(out, outcome.messageID);
  if (outcome.completed() && outcome.metadata) {
    out += R"(,"metadata":)";
    appendJson(out, *outcome.metadata);
  }
  if (!outcome.notices.empty()) {
    out += R"(,"notices":)";
    appendJsonStrings(out, outcome.notices);
  }
  if (outcome.completed() && outcome.output) {
    out += R"(,"output":)";
    appendJson(out, *outcome.output);
  }
  if (outcome.completed() && !outcome.outputPaths.empty()) {
    out += R"(,"outputPaths":)";
    appendJsonStrings(out, outcome.outputPaths);
  }
  if (!outcome.completed() && outcome.partial) {
    out += R"(,"partial":)";
    appendJson(out, *outcome.partial);
  }
  out += R"(,"sessionID":)";
  appendJsonString(out, outcome.sessionID);
  out += outcome.completed() ? R"(,"status":"completed")" : R"(,"status":"error")";
  if (outcome.completed() && outcome.truncated) out += R"(,"truncated":true)";
  out += '}';
}

void applyOutcomeJson(const json& value, ToolOutcome& outcome) {
  // Everything but the call's ids comes from `value`: absent members are absent afterwards.
  ParamsReader reader(value, "outcome");
  const std::string status = reader.requireString("status");
  if (status == "completed") {
    outcome.status = ToolOutcome::Status::Completed;
    outcome.output = reader.has("output") ? std::optional<json>(reader.require("output")) : std::nullopt;
    outcome.content = reader.require("content");
    outcome.metadata = reader.has("metadata") ? std::optional<json>(reader.require("metadata")) : std::nullopt;
    // The whole outcome is replaced: paths the hook left out no longer belong to what is shown.
    outcome.outputPaths.clear();
    if (reader.has("outputPaths")) {
      const json& paths = reader.require("outputPaths");
      if (!paths.is_array()) reader.fail("outputPaths", "must be an array of strings");
      for (const auto& path : paths) {
        if (!path.is_string()) reader.fail("outputPaths", "must be an array of strings");
        outcome.outputPaths.push_back(path.get<std::string>());
      }
    }
    outcome.truncated = reader.optionalBool("truncated").value_or(false);
    outcome.errorType.clear();
    outcome.errorMessage.clear();
    outcome.partial.reset();
    return;
  }
  if (status != "error") reader.fail("status", "must be \"completed\" or \"error\"");
  ParamsReader error(reader.require("error"), "outcome.error");
  outcome.status = ToolOutcome::Status::Error;
  outcome.errorType = error.optionalString("type").value_or(std::string(error_type::kFailure));
  outcome.errorMessage = error.requireString("message");
  outcome.partial = reader.has("partial") ? std::optional<json>(reader.require("partial")) : std::nullopt;
  outcome.output.reset();
  outcome.content = json::array();
  outcome.metadata.reset();
  outcome.outputPaths.clear();
  outcome.truncated = false;
}

} // namespace toold::protocol
