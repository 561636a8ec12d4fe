#include "core/permission/permission_form.h"

#include <algorithm>

namespace toold::core {

using json = nlohmann::json;

namespace {

constexpr std::size_t kResourcesNamed = 3;
constexpr std::size_t kHeadlineCommandBytes = 120;
constexpr std::size_t kLineBytes = 300;   // a path, a URL, a description
constexpr std::size_t kTitleBytes = 120;  // a choice's title: one line of a menu
constexpr std::size_t kMessageBytes = 6 * 1024;

std::string stringField(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings(const json& array) {
  std::vector<std::string> out;
  if (!array.is_array()) return out;
  for (const auto& item : array)
    if (item.is_string()) out.push_back(item.get<std::string>());
  return out;
}

// The start of the UTF-8 character at or before `at`, so a cut never splits one.
std::size_t characterStart(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

std::string oneLine(std::string_view text, std::size_t maxBytes) {
  std::string line(text.substr(0, text.find('\n')));
  if (line.size() < text.size() || line.size() > maxBytes) {
    line.resize(characterStart(line, std::min(line.size(), maxBytes)));
    line += " …";
  }
  return line;
}

std::string namedResources(const std::vector<std::string>& resources) {
  std::string text;
  for (std::size_t i = 0; i < resources.size() && i < kResourcesNamed; ++i)
    text += (i ? ", " : "") + oneLine(resources[i], kLineBytes);
  if (resources.size() > kResourcesNamed) text += " and " + std::to_string(resources.size() - kResourcesNamed) + " more";
  return text.empty() ? "*" : text;
}

bool hasWildcard(std::string_view text) { return text.find_first_of("*?") != std::string_view::npos; }

// One saved pattern as words: `git push *` is "`git push` with any arguments", `/data/*` is
// "anything under /data/", `*` is "anything".
std::string patternWords(const std::string& pattern, bool literal) {
  if (literal) return "exactly `" + oneLine(pattern, kLineBytes) + "`";
  if (pattern == "*") return "anything";
  if (pattern.size() > 2 && pattern.ends_with(" *") && !hasWildcard(pattern.substr(0, pattern.size() - 2)))
    return "`" + pattern.substr(0, pattern.size() - 2) + "` with any arguments";
  if (pattern.size() > 2 && pattern.ends_with("/*") && !hasWildcard(pattern.substr(0, pattern.size() - 2)))
    return "anything under " + pattern.substr(0, pattern.size() - 1);
  if (!hasWildcard(pattern)) return "`" + pattern + "`";
  return "anything matching `" + pattern + "`";
}

// What an allow rule {action, pattern} lets through, as a person would say it.
std::string grantWords(const std::string& action, const std::string& pattern, bool literal) {
  const bool everything = pattern == "*" && !literal;
  const std::string what = patternWords(pattern, literal);
  if (action == "edit")
    return everything ? "every file edit (edit, write, multiedit, apply_patch) anywhere in the workspace"
                      : "file edits of " + what;
  if (action == "bash") return everything ? "every shell command" : "the shell command " + what;
  if (action == "read") return everything ? "reading any file" : "reading " + what;
  if (action == "external_directory")
    return everything ? "access anywhere outside the workspace" : "access outside the workspace to " + what;
  if (action == "doom_loop") return "repeating identical " + pattern + " calls (no more loop checks for it)";
  return everything ? "every " + action + " call, whatever its arguments" : action + " on " + what;
}

std::string headline(const json& request) {
  const std::string action = stringField(request, "action");
  const json& metadata = request.value("metadata", json::object());
  std::string tool = stringField(request, "tool");
  if (tool.empty()) tool = stringField(metadata, "tool");
  if (tool.empty()) tool = action;
  const std::string resources = namedResources(strings(request.value("resources", json::array())));
  if (action == "doom_loop") {
    std::string repeated = stringField(metadata, "tool");
    if (repeated.empty()) repeated = resources;
    return "The model is calling " + repeated +
           " a third time in a row with the same input, and the two calls before it got the same answer. "
           "Allow it to run again?";
  }
  if (action == "edit") return "Allow " + tool + " to change " + resources + "?";
  if (action == "bash") {
    const std::string command = stringField(metadata, "command");
    if (!command.empty() && command.size() <= kHeadlineCommandBytes && command.find('\n') == std::string::npos)
      return "Allow " + tool + " to run `" + command + "`?";
    return "Allow " + tool + " to run this command?";
  }
  if (action == "external_directory") return "Allow " + tool + " to reach outside the workspace: " + resources + "?";
  if (action == "read") return "Allow " + tool + " to read " + resources + "?";
  if (metadata.is_object() && metadata.contains("input") && metadata.contains("tool"))
    return "Allow " + tool + " with these arguments?";
  if (tool == action) return "Allow " + action + " on " + resources + "?";
  return "Allow " + tool + " (" + action + " on " + resources + ")?";
}

// What the call would do, a labelled line (or block) per thing the tool told.
std::string details(const json& request) {
  const json& metadata = request.value("metadata", json::object());
  if (!metadata.is_object()) return {};
  std::string text;
  auto line = [&](const char* label, const std::string& value) {
    if (!value.empty()) text += std::string("\n") + label + ": " + oneLine(value, kLineBytes);
  };
  if (auto command = stringField(metadata, "command"); !command.empty())
    text += "\nCommand: " + boundedForForm(command, kFormCommandBytes, kFormDiffLines);
  line("Description", stringField(metadata, "description"));
  line("Path", stringField(metadata, "filepath"));
  if (auto resolved = stringField(metadata, "resolved"); resolved != stringField(metadata, "filepath"))
    line("Leads to", resolved);
  line("Path", stringField(metadata, "path"));
  line("Pattern", stringField(metadata, "pattern"));
  line("URL", stringField(metadata, "url"));
  if (auto diff = stringField(metadata, "diff"); !diff.empty())
    text += "\nDiff:\n" + boundedForForm(diff, kFormDiffBytes, kFormDiffLines);
  if (auto input = metadata.find("input"); input != metadata.end())
    text += "\nArguments: " +
            boundedForForm(input->dump(-1, ' ', false, json::error_handler_t::replace), kFormArgumentsBytes, kFormDiffLines);
  return text;
}

} // namespace

std::string boundedForForm(std::string_view text, std::size_t maxBytes, std::size_t maxLines) {
  std::size_t end = 0, lines = 0;
  while (end < text.size() && lines < maxLines) {
    const std::size_t newline = text.find('\n', end);
    const std::size_t next = newline == std::string_view::npos ? text.size() : newline + 1;
    if (next > maxBytes) break;
    end = next;
    ++lines;
  }
  if (end == text.size()) return std::string(text);
  if (end == 0) end = characterStart(text, std::min(maxBytes, text.size())); // one line longer than the bound
  const std::string_view kept = text.substr(0, end);
  const std::string_view left = text.substr(end);
  const auto leftLines = std::count(left.begin(), left.end(), '\n') + (left.ends_with('\n') ? 0 : 1);
  std::string out(kept);
  if (!out.empty() && !out.ends_with('\n')) out += '\n';
  return out + "… (" + std::to_string(leftLines) + " more line" + (leftLines == 1 ? "" : "s") + ", " +
         std::to_string(left.size()) + " more bytes not shown)";
}

namespace {

// The grants of the request's save patterns, joined; empty when it saves nothing.
std::string grantList(const json& request) {
  const std::string action = stringField(request, "action");
  const bool literal = request.value("literal", false);
  const auto save = strings(request.value("save", json::array()));
  std::string text;
  for (std::size_t i = 0; i < save.size() && i < kResourcesNamed; ++i)
    text += (i ? "; " : "") + grantWords(action, save[i], literal);
  if (save.size() > kResourcesNamed) text += "; and " + std::to_string(save.size() - kResourcesNamed) + " more";
  return text;
}

} // namespace

std::string alwaysGrants(const json& request) {
  const std::string grants = grantList(request);
  if (grants.empty()) return "nothing beyond this call (there is nothing to save)";
  return grants + ", from now on, without asking again (saved for this workspace, kept after toold restarts)";
}

std::string formMessage(const json& request) {
  std::string message = headline(request);
  const json& source = request.value("source", json::object());
  if (auto call = stringField(source, "callID"); !call.empty())
    message += "\nCall " + oneLine(call, kLineBytes) + " (session " + oneLine(stringField(request, "sessionID"), kLineBytes) + ")";
  message += details(request);
  message += "\n\"Allow always\" allows " + alwaysGrants(request) + ".";
  if (message.size() > kMessageBytes) message = boundedForForm(message, kMessageBytes, static_cast<std::size_t>(-1));
  return message;
}

json elicitationParams(const json& request) {
  const std::string always = alwaysGrants(request);
  const std::string grants = grantList(request);
  const std::string alwaysTitle = grants.empty() ? "Allow always" : oneLine("Allow always: " + grants, kTitleBytes);
  json choices = json::array({json{{"const", "once"}, {"title", "Allow once"}},
                              json{{"const", "always"}, {"title", alwaysTitle}},
                              json{{"const", "reject"}, {"title", "Reject"}}});
  json decision{{"type", "string"},
                {"title", "Decision"},
                {"oneOf", std::move(choices)},
                {"description", "\"Allow always\" allows " + always + "."}};
  json feedback{{"type", "string"}, {"title", "Feedback for the model (when rejecting)"}};
  return json{{"message", formMessage(request)},
              {"requestedSchema",
               {{"type", "object"},
                {"properties", {{"decision", std::move(decision)}, {"message", std::move(feedback)}}},
                {"required", {"decision"}}}}};
}

} // namespace toold::core
