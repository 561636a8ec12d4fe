#include "builtins/question.h"

#include "builtins/constant_json.h"
#include "builtins/tool_support.h"
#include "core/permission/ask_route.h"

#include <chrono>

namespace toold::builtins {

namespace {

using core::json;

constexpr std::string_view kDismissed = "The user dismissed this question";

const char* kDescription = R"TEXT(Use this tool when you need to ask the user questions during execution. This allows you to:
1. Gather user preferences or requirements
2. Clarify ambiguous instructions
3. Get decisions on implementation choices as you work
4. Offer choices to the user about what direction to take.

Usage notes:
- Each question has a short header (max 30 chars), the question itself, and options with a label and a description
- Set multiple: true to let the user select more than one option
- If you recommend a specific option, make it the first one in the list and add "(Recommended)" at the end of its label
- The call waits until the user answers)TEXT";

constexpr auto kInputSchema = compactJson(R"json(
{
  "properties": {
    "questions": {
      "description": "Questions to ask",
      "items": {
        "properties": {
          "header": {
            "description": "Very short label (max 30 chars)",
            "type": "string"
          },
          "multiple": {
            "description": "Allow selecting multiple choices",
            "type": "boolean"
          },
          "options": {
            "description": "Available choices",
            "items": {
              "properties": {
                "description": {
                  "description": "Explanation of the choice",
                  "type": "string"
                },
                "label": {
                  "description": "Display text (1-5 words, concise)",
                  "type": "string"
                }
              },
              "required": ["label", "description"],
              "type": "object"
            },
            "type": "array"
          },
          "question": {
            "description": "Complete question",
            "type": "string"
          }
        },
        "required": ["question", "header", "options"],
        "type": "object"
      },
      "type": "array"
    }
  },
  "required": ["questions"],
  "type": "object"
})json");

enum class Route { Native, Elicitation, None };

Route routeFor(const json& capabilities) {
  auto declared = [&](const char* name) {
    return capabilities.is_object() && capabilities.contains(name) && capabilities[name].is_object();
  };
  if (declared("question")) return Route::Native;
  // Form mode: declared without `form`/`url` (MCP 2025-06-18), or with `form`.
  if (declared("elicitation") && (capabilities["elicitation"].contains("form") || !capabilities["elicitation"].contains("url")))
    return Route::Elicitation;
  return Route::None;
}

// One answer: an array of strings (a label, or the person's own words).
bool labelsOf(const json& value, json& labels) {
  labels = json::array();
  if (value.is_string()) {
    labels.push_back(value);
    return true;
  }
  if (!value.is_array()) return false;
  for (const auto& label : value) {
    if (!label.is_string()) return false;
    labels.push_back(label);
  }
  return true;
}

std::string plural(std::size_t n) { return "Asked " + std::to_string(n) + (n == 1 ? " question" : " questions"); }

} // namespace

std::string questionAnswerText(const json& questions, const json& answers) {
  std::string pairs;
  for (std::size_t i = 0; i < questions.size(); ++i) {
    std::string answer;
    if (i < answers.size())
      for (const auto& label : answers[i]) answer += (answer.empty() ? "" : ", ") + label.get<std::string>();
    if (answer.empty()) answer = "Unanswered";
    pairs += (pairs.empty() ? "" : ", ") + std::string("\"") + questions[i].value("question", std::string()) +
             "\"=\"" + answer + "\"";
  }
  return "User has answered your questions: " + pairs + ". You can now continue with the user's answers in mind.";
}

json questionElicitation(const json& questions) {
  json properties = json::object();
  json required = json::array();
  std::string message = questions.size() == 1 ? questions[0].value("question", std::string()) : "Please answer:";
  for (std::size_t i = 0; i < questions.size(); ++i) {
    const json& q = questions[i];
    // Titled choices (MCP 2025-11-25): the label is the value, the title adds its description.
    // `enumNames`, which said the same before, is deprecated and ignored by newer hosts.
    json choices = json::array();
    for (const auto& option : q.value("options", json::array())) {
      const std::string label = option.value("label", std::string());
      const std::string description = option.value("description", std::string());
      choices.push_back(json{{"const", label}, {"title", description.empty() ? label : label + " — " + description}});
    }
    json field{{"title", q.value("header", std::string())}, {"description", q.value("question", std::string())}};
    if (q.value("multiple", false)) {
      field["type"] = "array";
      field["items"] = json{{"anyOf", std::move(choices)}};
    } else {
      field["type"] = "string";
      field["oneOf"] = std::move(choices);
    }
    const std::string key = "q" + std::to_string(i + 1);
    properties[key] = std::move(field);
    required.push_back(key);
    if (questions.size() > 1) message += "\n" + std::to_string(i + 1) + ". " + q.value("question", std::string());
  }
  return json{{"message", message},
              {"requestedSchema", {{"type", "object"}, {"properties", properties}, {"required", required}}}};
}

std::optional<json> answersFromQuestionReply(const json& result, std::size_t count, std::string& problem) {
  if (!result.is_object() || !result.contains("answers") || !result["answers"].is_array()) {
    problem = "the client's answer has no \"answers\" array (nor \"dismissed\": true)";
    return std::nullopt;
  }
  json answers = json::array();
  for (const auto& answer : result["answers"]) {
    json labels;
    if (!labelsOf(answer, labels)) {
      problem = std::string("an answer is not a string or an array of strings (it is ") + answer.type_name() + ")";
      return std::nullopt;
    }
    answers.push_back(std::move(labels));
  }
  while (answers.size() < count) answers.push_back(json::array());
  return answers;
}

std::optional<json> answersFromElicitation(const json& content, std::size_t count, std::string& problem) {
  json answers = json::array();
  for (std::size_t i = 0; i < count; ++i) {
    json labels = json::array();
    if (content.is_object())
      if (auto it = content.find("q" + std::to_string(i + 1)); it != content.end() && !labelsOf(*it, labels)) {
        problem = "the form's answer to question " + std::to_string(i + 1) + " is not a choice";
        return std::nullopt;
      }
    answers.push_back(std::move(labels));
  }
  return answers;
}

core::Tool makeQuestionTool(ClientRequester requester) {
  auto execute = [requester](json input, core::ToolContext context, core::ToolDone done) {
    json questions = std::move(input["questions"]);
    const json capabilities = context.catalog ? context.catalog->capabilities : json::object();
    const Route route = routeFor(capabilities);
    if (route == Route::None)
      return done(failure("No one can answer questions here: the client declared neither the question nor the "
                          "elicitation capability. Continue without asking, and state your assumptions."));
    const bool native = route == Route::Native;
    json params = native ? json{{"sessionID", context.sessionID},
                                {"agent", context.agent},
                                {"messageID", context.messageID},
                                {"callID", context.callID},
                                {"questions", questions}}
                         : questionElicitation(questions);
    const std::size_t count = questions.size();
    const auto sent = std::chrono::steady_clock::now();
    requester.send(
        native ? "question/ask" : "elicitation/create", std::move(params), context.cancellation,
        [native, count, questions, timeout = requester.timeout, done, sent](ClientRequestEnd end) {
          using Kind = ClientRequestEnd::Kind;
          if (end.kind == Kind::Cancelled) return done(failure("The question was withdrawn: the call was cancelled."));
          if (end.kind == Kind::TimedOut)
            return done(failure("The user did not answer within " + secondsText(*timeout) +
                                ". Continue without the answers, and state your assumptions."));
          if (end.reply.error)
            return done(failure("The question could not be asked: the client answered with an error: " +
                                end.reply.error->message));
          const json result = end.reply.result.value_or(json());
          std::string problem;
          std::optional<json> answers;
          if (native) {
            if (result.is_object() && result.value("dismissed", false) == true)
              return done(core::ToolDeclined{std::string(kDismissed)});
            answers = answersFromQuestionReply(result, count, problem);
          } else {
            const std::string action = result.is_object() ? result.value("action", std::string()) : std::string();
            // A headless host (claude -p, codex exec) dismisses the form before anyone could read
            // it: no one answered, and the model must not take it for the user's refusal.
            const auto elapsed =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - sent);
            if (core::dismissedWithoutPerson(result, elapsed))
              return done(failure("No one could answer the question: the host dismissed the form at once, with no "
                                  "person to read it. Continue without the answers, and state your assumptions."));
            if (action == "decline" || action == "cancel") return done(core::ToolDeclined{std::string(kDismissed)});
            if (action != "accept") problem = "the client's elicitation answer has no valid \"action\"";
            else answers = answersFromElicitation(result.value("content", json::object()), count, problem);
          }
          if (!answers) return done(failure("The question could not be asked: " + problem));
          json metadata{{"title", plural(count)}, {"answers", *answers}};
          done(core::ToolResult{std::nullopt, json(questionAnswerText(questions, *answers)), std::move(metadata)});
        });
  };
  core::Tool tool;
  tool.description = kDescription;
  tool.inputSchemaText = kInputSchema.view();
  tool.permission = "question";
  tool.threading = core::ToolThreading::Inline; // it only sends a request and waits for the answer
  tool.execute = std::move(execute);
  // A client that can be asked nothing is not offered the tool: a model would only learn that in a
  // wasted turn. The call itself still says so, for a runner that calls it anyway.
  tool.describe = [](const core::CatalogView& catalog) -> std::optional<std::string> {
    if (routeFor(catalog.capabilities) == Route::None) return std::nullopt;
    return std::string(kDescription);
  };
  return tool;
}

} // namespace toold::builtins
