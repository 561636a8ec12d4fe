// What the model reads when the pipeline, not the tool, answers: an unknown tool, and a call that
// repeats the two before it (held, or let through by the unattended policy).
#pragma once

#include "core/tools/snapshot.h"

#include <string>

namespace toold::core {

/// "Unknown tool: x. Available tools: a, b." (the snapshot's advertised names).
std::string unknownToolMessage(const std::string& name, const Snapshot& snapshot);

/// What a model told its repeat was held is told to do instead (ends with a space: the refusal
/// follows).
std::string loopAdvice(const std::string& tool);

/// The note after the answer of a repeat the unattended policy let run: no person saw it.
std::string loopNoteAfterAnswer(const std::string& tool);

} // namespace toold::core
