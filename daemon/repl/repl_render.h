// How an answer from toold is shown. Text mode shows a tool's content as the model would see it
// and its metadata on one line; pretty mode the whole message as indented JSON; raw mode the
// message as the one line toold sent.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace toold::repl {

using nlohmann::json;

enum class OutputMode { Text, Pretty, Raw };

/// What the REPL remembers of a request it sent, to show its answer.
struct SentRequest {
  std::string method;
  std::string tool; ///< the tool's name, for `call` and `tools/call`
  std::string id;   ///< the request's id as shown, e.g. 3
  double elapsedMs = 0;
};

/// True when the answer is a failure: a JSON-RPC error, a call outcome with status "error", or
/// an MCP result with isError.
bool answerFailed(const json& answer);

/// The text shown for the answer to `sent` (ends in a newline).
std::string renderAnswer(const json& answer, const SentRequest& sent, OutputMode mode);
/// Any other message from toold (a notification, a request), in the mode's form.
std::string renderMessage(const json& message, OutputMode mode);

/// A language server's verdict on a file a tool touched (`lsp/diagnostics`), for text mode: one
/// line when the file has errors, nothing otherwise (rather than the JSON after every read).
/// renderMessage gives it in text mode.
std::string lspDiagnosticsLine(const json& params);

/// One line for a progress update on the status line: its text, its `message`, the newest
/// non-blank line of its `output` (bash's updates), or else its JSON.
std::string progressSummary(const json& update);

/// What a tool's description says first, for a one-line list: its first sentence, without a
/// list's bullet ("- Fetches content from a URL\n- ..." says "Fetches content from a URL").
std::string firstSentence(const std::string& description);

/// Keeps the first `maxLines` lines of `text` and says how many were left out (0: no limit).
std::string cutLines(const std::string& text, std::size_t maxLines);

/// The JSON dump used everywhere: invalid UTF-8 replaced, never thrown on.
std::string dumpJson(const json& value, int indent = -1);

/// A JSON-RPC id as shown: a string as it is, any other id as JSON.
std::string idText(const json& id);

} // namespace toold::repl
