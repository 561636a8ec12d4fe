// What the model reads when the pipeline, not the tool, answers: an unknown tool, a call that
// repeats the two before it (held, or let through by the unattended policy), arguments the schema
// refuses, and the first line of an answer the pipeline cut.
#pragma once

#include "core/output/kept_text.h"
#include "core/schema/schema_issue.h"
#include "core/tools/snapshot.h"

#include <string>
#include <vector>

namespace toold::core {

/// "Unknown tool: x. Available tools: a, b." (the snapshot's advertised names).
std::string unknownToolMessage(const std::string& name, const Snapshot& snapshot);

/// What a model told its repeat was held is told to do instead (ends with a space: the refusal
/// follows).
std::string loopAdvice(const std::string& tool);

/// The note after the answer of a repeat the unattended policy let run: no person saw it.
std::string loopNoteAfterAnswer(const std::string& tool);

/// The schema's issues in one line: "path: message; path: message".
std::string joinIssues(const std::vector<SchemaIssue>& issues);

/// The first line of a cut answer, for hosts that keep only the head of what they are given.
std::string cutFirstLine(const RetainedText& retained);

} // namespace toold::core
