// The REPL answering toold's `permission/ask` as a prompt: what is asked about shown above it
// (the action, its resources, what "always" saves, the metadata, a diff as it is), and a typed
// line — o(nce), a(lways) or r(eject), optionally followed by a message for the model — read as
// the reply.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace toold::repl {

using nlohmann::json;

/// Values as a comma-separated list of their JSON: "rm -rf build", "make".
std::string quoteList(const json& values);

/// "bash on "make"": the action and its resources.
std::string permissionSubject(const json& params);

/// The lines above the prompt after "? toold asks (ID)": `call` names the call that asks (empty
/// when it is not known).
std::string permissionDetails(const json& params, const std::string& call);

/// The prompt: `allow bash "make"? [o]nce [a]lways [r]eject (+ message) `.
std::string permissionPrompt(const json& params);

/// The `permission/ask` result for `line`, with `said` set to what is echoed ("reject (use make
/// clean)"); nullopt with `why` set for a line that is no answer.
std::optional<json> permissionAnswer(const std::string& line, std::string& said, std::string& why);

} // namespace toold::repl
