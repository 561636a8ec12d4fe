// The two lines every inner call sends across the worker's pipes, written and read as text. The
// values inside them are JSON text at both ends already (the program's JSON.stringify of an input,
// toold's encoding of an output): parsing a whole line into a tree only to print one member of it
// again was a tenth of each inner call's time. Both lines are ordinary JSON objects with their keys
// in a fixed order — `{"type":"call","id":N,"path":P,"input":V}` and
// `{"type":"result","id":N,"ok":true,"value":V}` / `{…,"ok":false,"error":E}` — so any JSON reader
// still reads them, and a reader of the fixed form needs no parser.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace toold::codemode {

/// The worker's call line, newline included. `inputJson` must be one JSON value (the program's
/// JSON.stringify output); empty means `{}`.
std::string callLine(std::uint64_t id, std::string_view path, std::string_view inputJson);

/// Whether the JSON text `inputJson` (JSON.stringify's output, which escapes a lone UTF-16 surrogate
/// as `\uD800`..`\uDFFF` and writes a paired one as the character) escapes a surrogate that is not
/// half of a pair. Such a string is not Unicode text: no JSON reader on toold's side accepts it,
/// so the call is refused in the program at once instead of being lost on the way.
bool hasLoneSurrogate(std::string_view inputJson);

/// toold's answer line, newline included: `payload` is the value (ok) or the error object.
std::string resultLine(std::uint64_t id, bool ok, const nlohmann::json& payload);

/// The ok answer line whose value is the string `text`, escaped straight into the line: an inner
/// call's text answer is not first copied into a JSON value.
std::string textResultLine(std::uint64_t id, std::string_view text);

/// The ok answer whose value is the string `text`, sent as it is: the line
/// `{"type":"text","id":N,"bytes":L}` and then the L bytes of `text`, neither escaped nor ended
/// by a newline. `text` must be well-formed UTF-8 (the worker makes a JavaScript string of it
/// directly); textResultLine carries anything else. A 100-line read's text was escaped here,
/// copied, decoded into a JavaScript string and parsed by JSON.parse into a second one: now it is
/// decoded once.
std::string rawTextResult(std::uint64_t id, std::string_view text);

/// A raw text answer's line (rawTextResult), without its newline: the answer's id and how many
/// bytes of text follow the newline; nullopt for any other line.
struct TextHeader {
  std::uint64_t id = 0;
  std::size_t bytes = 0;
};
std::optional<TextHeader> readTextHeader(std::string_view line);

struct ResultLine {
  std::uint64_t id = 0;
  bool ok = false;
  std::string_view payload; ///< the value or error, as JSON text (a view into the line)
};

/// Reads a result line in resultLine's form (without its newline); nullopt for any other line.
std::optional<ResultLine> readResultLine(std::string_view line);

} // namespace toold::codemode
