// The REPL answering toold's `question/ask` as a prompt: the questions and their numbered choices
// shown above it, and a typed line — per question a choice's number (several, comma-separated,
// where the question allows), or the person's own words, questions separated by ";" — read as
// the answer; an empty line dismisses.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace toold::repl {

using nlohmann::json;

/// The questions of a `question/ask`'s params, with their choices numbered from 1.
std::string questionDetails(const json& params);

/// The prompt for a `question/ask`.
std::string questionPrompt(const json& params);

/// The `question/ask` result for `line`: {answers: [[label, …], …]}, or {dismissed: true} for an
/// empty line; nullopt with `why` set for a choice number that does not exist.
std::optional<json> questionAnswer(const std::string& line, const json& params, std::string& why);

} // namespace toold::repl
