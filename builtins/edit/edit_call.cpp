#include "builtins/edit/edit_call.h"

#include "builtins/files/file_sniff.h"
#include "builtins/files/single_file_change.h"
#include "builtins/tool_support.h"

namespace toold::builtins {

namespace {

using core::json;

std::string notFound(const core::ResolvedPath& path) {
  std::string message = "File " + path.given.string() + " not found.";
  auto similar = similarNames(path.canonical.parent_path(), path.canonical.filename().string());
  if (!similar.empty()) {
    message += "\n\nDid you mean one of these?";
    for (const auto& candidate : similar) message += "\n" + candidate.string();
  }
  return message + "\nTo create a file, use an empty oldString (or the write tool).";
}

} // namespace

void runEditCall(const std::shared_ptr<FileTools>& files, const core::ToolContext& context, const std::string& filePath,
                 std::vector<TextEdit> edits, const core::ToolDone& done) {
  if (filePath.empty()) return done(failure("filePath is required"));
  const bool several = edits.size() > 1;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const std::string which = several ? "Edit " + std::to_string(i + 1) + " of " + std::to_string(edits.size()) + ": " : "";
    if (edits[i].oldString == edits[i].newString)
      return done(failure(which + "No changes to apply: oldString and newString are identical."));
    if (i > 0 && edits[i].oldString.empty())
      return done(failure(which + "oldString is empty; only the first edit may create the file."));
  }
  const bool creates = edits.front().oldString.empty();
  resolveWithBoundary(context, filePath, core::PathKind::File, done, [=](core::ResolvedPath path) {
    if (path.isDirectory) return done(failure("Path is a directory, not a file: " + path.given.string()));
    const std::string display = path.given.string();
    auto plan = [edits, creates, path, display](const std::optional<LoadedFile>& current)
        -> std::variant<PlannedContent, core::ToolCompletion> {
      // The file's bytes are edited from where they are held: each copy of a large file counts
      // in the call's peak memory.
      std::string created;
      const std::string* start = nullptr;
      std::vector<TextEdit> rest = edits;
      if (creates && current) {
        // An empty oldString only creates: replacing a whole existing file by an edit lost
        // everything the model had not meant to touch (opencode refuses this too).
        return failure("oldString cannot be empty when editing an existing file: " + display +
                       " exists. Give the exact text to replace, or use the write tool to replace the whole file.");
      }
      if (creates) {
        created = keepTextStyle(current, rest.front().newString);
        if (created.size() > kMaxEditableBytes) return failure(describeTooLarge(created.size(), kMaxEditableBytes, display));
        rest.erase(rest.begin());
        start = &created;
      } else if (!current) {
        return failure(notFound(path));
      } else {
        start = &current->bytes;
      }
      if (rest.empty()) return PlannedContent{*start, json{{"results", json::array()}}};
      auto applied = applyTextEdits(*start, rest, display, kMaxEditableBytes);
      if (auto* error = std::get_if<std::string>(&applied)) return failure(*error);
      auto& result = std::get<AppliedEdits>(applied);
      json metadata{{"results", result.results}};
      if (!result.notes.empty()) {
        json notes = json::array();
        for (const auto& note : result.notes) notes.push_back(note);
        metadata["notes"] = std::move(notes);
      }
      return PlannedContent{std::move(result.bytes), std::move(metadata)};
    };
    auto finish = [done, several, count = edits.size(), location = context.location](ChangedFile changed) {
      std::string text = several ? "Applied " + std::to_string(count) + " edits successfully." : "Edit applied successfully.";
      std::size_t replacements = 0;
      for (const auto& result : changed.metadata["results"]) replacements += result.value("replacements", std::size_t{0});
      if (!several && replacements > 1) text += " Replaced " + std::to_string(replacements) + " occurrences.";
      if (changed.metadata.contains("notes"))
        for (const auto& note : changed.metadata["notes"])
          text += "\nNote: " + note.get<std::string>() + "; check that the result is what you meant.";
      appendChangeDiagnostics(text, changed, *location, false);
      done(core::ToolResult{std::nullopt, json(text), changed.metadata});
    };
    changeSingleFile(files, context, std::move(path), creates ? StampRule::Required : StampRule::IfStamped, plan, finish,
                     done);
  });
}

} // namespace toold::builtins
