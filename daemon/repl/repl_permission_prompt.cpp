#include "daemon/repl/repl_permission_prompt.h"

#include "daemon/repl/repl_render.h"

#include <cctype>

namespace toold::repl {

std::string quoteList(const json& values) {
  std::string text;
  if (!values.is_array()) return text;
  for (const auto& v : values) text += (text.empty() ? "" : ", ") + dumpJson(v);
  return text;
}

std::string permissionSubject(const json& params) {
  if (!params.is_object()) return "?";
  return params.value("action", std::string("?")) + " on " + quoteList(params.value("resources", json::array()));
}

std::string permissionDetails(const json& params, const std::string& call) {
  std::string text = call.empty() ? "" : " for " + call;
  text += ": " + permissionSubject(params);
  if (params.contains("save") && params["save"].is_array() && !params["save"].empty())
    text += "; \"always\" saves " + quoteList(params["save"]);
  text += "\n";
  const json& metadata = params.value("metadata", json::object());
  if (metadata.is_object())
    for (const auto& [key, value] : metadata.items()) {
      // A diff is shown as it is: it is what the person is asked to allow.
      if (value.is_string() && value.get<std::string>().find('\n') != std::string::npos) {
        text += value.get<std::string>();
        if (text.back() != '\n') text += "\n";
      } else {
        text += "  " + key + ": " + (value.is_string() ? value.get<std::string>() : dumpJson(value)) + "\n";
      }
    }
  return text;
}

std::string permissionPrompt(const json& params) {
  const std::string resources = quoteList(params.value("resources", json::array()));
  return "allow " + params.value("action", std::string("?")) + (resources.empty() ? "" : " " + resources) +
         "? [o]nce [a]lways [r]eject (+ message) ";
}

std::optional<json> permissionAnswer(const std::string& line, std::string& said, std::string& why) {
  // The first word is the answer; whatever follows is the message for the model.
  std::string word;
  std::string message;
  if (const auto begin = line.find_first_not_of(" \t"); begin != std::string::npos) {
    const auto end = line.find_first_of(" \t", begin);
    word = line.substr(begin, end - begin);
    if (const auto rest = line.find_first_not_of(" \t", end == std::string::npos ? line.size() : end);
        rest != std::string::npos)
      message = line.substr(rest);
  }
  for (auto& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  json result;
  if (word == "o" || word == "once") result = {{"reply", "once"}};
  else if (word == "a" || word == "always") result = {{"reply", "always"}};
  else if (word == "r" || word == "reject") {
    result = {{"reply", "reject"}};
    if (!message.empty()) result["message"] = message;
  } else {
    why = "answer o (once), a (always) or r (reject), optionally followed by a message for the model";
    return std::nullopt;
  }
  said = result["reply"].get<std::string>() + (message.empty() ? "" : " (" + message + ")");
  return result;
}

} // namespace toold::repl
