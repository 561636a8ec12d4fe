// The question tool's texts and the answers it accepts from question/ask and elicitation forms.
#include "builtins/question.h"

#include <catch2/catch.hpp>

using toold::builtins::answersFromElicitation;
using toold::builtins::answersFromQuestionReply;
using toold::builtins::questionAnswerText;
using toold::core::json;

TEST_CASE("question: opencode's answer text", "[question]") {
  const json questions = json::parse(R"([{"question":"Q1"},{"question":"Q2"},{"question":"Q3"}])");
  CHECK(questionAnswerText(questions, json::parse(R"([["A","B"],[]])")) ==
        "User has answered your questions: \"Q1\"=\"A, B\", \"Q2\"=\"Unanswered\", \"Q3\"=\"Unanswered\". "
        "You can now continue with the user's answers in mind.");
}

TEST_CASE("question: answers from question/ask", "[question]") {
  std::string problem;
  auto answers = answersFromQuestionReply(json::parse(R"({"answers":["a",["b","c"]]})"), 3, problem);
  REQUIRE(answers);
  CHECK(*answers == json::parse(R"([["a"],["b","c"],[]])"));
  CHECK_FALSE(answersFromQuestionReply(json::parse(R"({"answers":[1]})"), 1, problem));
  CHECK(problem.find("not a string") != std::string::npos);
  CHECK_FALSE(answersFromQuestionReply(json::parse(R"({"dismissed":false})"), 1, problem));
  CHECK_FALSE(answersFromQuestionReply(json::parse(R"([])"), 1, problem));
}

TEST_CASE("question: answers from an elicitation form", "[question]") {
  std::string problem;
  auto answers = answersFromElicitation(json::parse(R"({"q1":"x","q3":["y"]})"), 3, problem);
  REQUIRE(answers);
  CHECK(*answers == json::parse(R"([["x"],[],["y"]])"));
  CHECK_FALSE(answersFromElicitation(json::parse(R"({"q1":{"no":1}})"), 1, problem));
}
