// `question`: asks the person questions with choices and waits for the answers (opencode §15.3).
// Through `question/ask` when the client declared `capabilities.question`, through an MCP
// `elicitation/create` form when it declared elicitation, otherwise a failure the model reads.
#pragma once

#include "builtins/client/client_request.h"
#include "core/tools/tool.h"

namespace toold::builtins {

core::Tool makeQuestionTool(ClientRequester requester);

/// opencode's output: `User has answered your questions: "Q1"="A, B", "Q2"="Unanswered". You can
/// now continue with the user's answers in mind.` `answers` is an array of label arrays.
std::string questionAnswerText(const core::json& questions, const core::json& answers);

/// The `elicitation/create` params asking `questions`: one form field per question (`q1`, `q2`,
/// …), a choice of labels, or several for `multiple`.
core::json questionElicitation(const core::json& questions);

/// The answers (an array of label arrays, one per question) in a `question/ask` result
/// `{answers}` or an accepted elicitation's content; nullopt with `problem` set when malformed.
std::optional<core::json> answersFromQuestionReply(const core::json& result, std::size_t count, std::string& problem);
std::optional<core::json> answersFromElicitation(const core::json& content, std::size_t count, std::string& problem);

} // namespace toold::builtins
