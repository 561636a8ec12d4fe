#include "builtins/edit/text_edits.h"

#include "builtins/text/text_encoding.h"

namespace toold::builtins {

std::variant<AppliedEdits, std::string> applyTextEdits(const std::string& bytes, const std::vector<TextEdit>& edits,
                                                       std::string_view displayPath, std::size_t maxResultBytes) {
  AppliedEdits applied;
  // Edits apply to the caller's bytes until the first one makes a new version; a copy made up
  // front would be one more file-sized block in the edit's peak.
  const std::string* source = &bytes;
  std::string edited;
  const bool several = edits.size() > 1;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const std::string which = several ? "Edit " + std::to_string(i + 1) + " of " + std::to_string(edits.size()) + ": " : "";
    const std::string none = several ? "\nNo edit was applied." : "";
    auto decoded = decodeText(*source);
    if (auto* error = std::get_if<TextDecodeError>(&decoded))
      return "File " + std::string(displayPath) + " " + error->message;
    const auto& text = std::get<DecodedText>(decoded);
    const std::string oldString = toLf(edits[i].oldString);
    const std::string newString = toLf(edits[i].newString);
    auto plan = planEdit(EditRequest{text.text, oldString, newString, edits[i].replaceAll, maxResultBytes});
    if (plan.outcome != EditPlan::Outcome::Applied) return which + describeFailure(plan, displayPath) + none;
    std::vector<TextReplacement> replacements;
    for (std::size_t k = 0; k < plan.spans.size(); ++k)
      replacements.push_back(TextReplacement{plan.spans[k].begin, plan.spans[k].end, plan.replacements[k]});
    // The plan bounded the LF text; CRLF line ends can make the bytes written larger still.
    std::string spliced = spliceRaw(*source, text, replacements);
    if (spliced.size() > maxResultBytes) return which + describeTooLarge(spliced.size(), maxResultBytes, displayPath) + none;
    edited = std::move(spliced);
    source = &edited;
    nlohmann::json result{{"match", std::string(matchStepName(plan.step))}, {"replacements", plan.spans.size()}};
    if (!plan.note.empty()) {
      result["note"] = plan.note;
      const auto& span = plan.spans.front();
      applied.notes.push_back((several ? "edit " + std::to_string(i + 1) + ": " : std::string()) + plan.note +
                              " (lines " + std::to_string(span.firstLine) + "-" + std::to_string(span.lastLine) + ")");
    }
    applied.results.push_back(std::move(result));
  }
  applied.bytes = source == &edited ? std::move(edited) : bytes;
  return applied;
}

} // namespace toold::builtins
