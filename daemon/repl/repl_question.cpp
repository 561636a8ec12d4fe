#include "daemon/repl/repl_question.h"

#include <cctype>
#include <string_view>
#include <vector>

namespace toold::repl {

namespace {

std::string trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return std::string(text);
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + 1)
    parts.push_back(trimmed(std::string_view(text).substr(start, at - start)));
  parts.push_back(trimmed(std::string_view(text).substr(start)));
  return parts;
}

bool numbersOnly(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != ',' && c != ' ') return false;
  return true;
}

const json& questionsOf(const json& params) {
  static const json none = json::array();
  if (!params.is_object() || !params.contains("questions") || !params["questions"].is_array()) return none;
  return params["questions"];
}

} // namespace

std::string questionDetails(const json& params) {
  std::string text;
  std::size_t index = 0;
  for (const auto& q : questionsOf(params)) {
    ++index;
    if (!q.is_object()) continue;
    text += std::to_string(index) + ". " + q.value("header", std::string()) + ": " + q.value("question", std::string());
    if (q.value("multiple", false)) text += " (several: 1,3)";
    text += "\n";
    std::size_t number = 0;
    for (const auto& option : q.value("options", json::array())) {
      if (!option.is_object()) continue;
      text += "   " + std::to_string(++number) + ") " + option.value("label", std::string());
      const std::string description = option.value("description", std::string());
      if (!description.empty()) text += " — " + description;
      text += "\n";
    }
  }
  return text;
}

std::string questionPrompt(const json& params) {
  const std::size_t count = questionsOf(params).size();
  return count > 1 ? "answers (numbers or words; ';' between questions; empty: dismiss)> "
                   : "answer (a number or words; empty: dismiss)> ";
}

std::optional<json> questionAnswer(const std::string& line, const json& params, std::string& why) {
  if (trimmed(line).empty()) return json{{"dismissed", true}};
  const json& questions = questionsOf(params);
  const auto parts = split(line, ';');
  json answers = json::array();
  for (std::size_t i = 0; i < questions.size(); ++i) {
    json labels = json::array();
    const std::string part = i < parts.size() ? parts[i] : std::string();
    const json options = questions[i].is_object() ? questions[i].value("options", json::array()) : json::array();
    if (numbersOnly(part)) {
      for (const auto& number : split(part, ',')) {
        if (number.empty()) continue;
        const std::size_t n = std::stoul(number);
        if (n == 0 || n > options.size() || !options[n - 1].is_object()) {
          why = "question " + std::to_string(i + 1) + " has no choice " + number;
          return std::nullopt;
        }
        labels.push_back(options[n - 1].value("label", std::string()));
      }
    } else if (!part.empty()) {
      labels.push_back(part);
    }
    answers.push_back(std::move(labels));
  }
  return json{{"answers", std::move(answers)}};
}

} // namespace toold::repl
