#include "builtins/lsp/lsp_render_parts.h"

#include "protocol/bounded_json.h"

#include <array>
#include <utility>

namespace toold::builtins::lsp_render {

namespace {

/// A snippet longer than this is cut: one line of context, not a minified file.
constexpr std::size_t kMaxSnippetBytes = 200;
/// The unexpected result is shown within this much.
constexpr std::size_t kMaxShapeBytes = 4 * 1024;

std::string_view trimmed(std::string_view text) {
  auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; };
  while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
  return text;
}

/// `text` cut to at most `limit` bytes, never inside a UTF-8 sequence, with "..." when cut.
std::string cutAt(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "...";
}

std::optional<std::int64_t> readNatural(const nlohmann::json& value, std::string_view key) {
  auto found = value.find(key);
  if (found == value.end() || !found->is_number_integer()) return std::nullopt;
  // LSP's uinteger stops at 2^31 - 1; beyond it (an unsigned past int64 wraps to a negative here)
  // the number is refused, which also keeps `line + 1` from overflowing.
  auto number = found->get<std::int64_t>();
  if (number < 0 || number > 0x7fffffff) return std::nullopt;
  return number;
}

} // namespace

std::string Position::text() const { return std::to_string(line + 1) + ":" + std::to_string(character + 1); }

std::optional<Position> readPosition(const nlohmann::json& value) {
  if (!value.is_object()) return std::nullopt;
  auto line = readNatural(value, "line");
  auto character = readNatural(value, "character");
  if (!line || !character) return std::nullopt;
  return Position{*line, *character};
}

std::optional<Range> readRange(const nlohmann::json& value) {
  if (!value.is_object()) return std::nullopt;
  auto start = value.find("start");
  auto end = value.find("end");
  if (start == value.end() || end == value.end()) return std::nullopt;
  auto from = readPosition(*start);
  auto to = readPosition(*end);
  if (!from || !to) return std::nullopt;
  return Range{*from, *to};
}

std::optional<std::string> stringAt(const nlohmann::json& value, std::string_view key) {
  if (!value.is_object()) return std::nullopt;
  auto found = value.find(key);
  if (found == value.end() || !found->is_string()) return std::nullopt;
  return found->get<std::string>();
}

FileName nameFile(std::string_view uri, const LspRenderContext& context) {
  auto path = core::pathFromFileUri(uri);
  if (!path) return FileName{std::string(uri), false, std::nullopt}; // not a file toold could show
  auto normal = path->lexically_normal();
  if (context.inside && context.inside(normal)) {
    auto relative = normal.lexically_relative(context.workspace).generic_string();
    // Inside by the boundary's rule but not below the folder by name (a link): the full path.
    if (relative.empty() || relative == "." || relative.rfind("..", 0) == 0) relative = normal.generic_string();
    return FileName{relative, false, normal};
  }
  return FileName{normal.generic_string(), true, std::nullopt};
}

std::string Place::text(bool withColumn) const {
  std::string out = file.shown + ":" + (withColumn ? position.text() : std::to_string(position.line + 1));
  if (file.outside) out += " (outside the workspace)";
  return out;
}

std::optional<Place> readLocation(const nlohmann::json& value, const LspRenderContext& context) {
  if (!value.is_object()) return std::nullopt;
  std::optional<std::string> uri = stringAt(value, "uri");
  std::optional<Range> range;
  if (uri) {
    if (auto found = value.find("range"); found != value.end()) range = readRange(*found);
  } else if ((uri = stringAt(value, "targetUri"))) {
    // A LocationLink: the selection range is the symbol's name, the range its whole body.
    for (const char* key : {"targetSelectionRange", "targetRange"}) {
      if (auto found = value.find(key); found != value.end() && (range = readRange(*found))) break;
    }
  }
  if (!uri || !range) return std::nullopt;
  return Place{nameFile(*uri, context), range->start};
}

std::string snippet(const Place& place, const LspRenderContext& context) {
  if (!place.file.readable || !context.lineText) return "";
  auto line = context.lineText(*place.file.readable, static_cast<int>(place.position.line));
  if (!line) return "";
  return cutAt(trimmed(*line), kMaxSnippetBytes);
}

std::string kindName(std::int64_t kind) {
  static constexpr std::array<const char*, 26> kNames = {
      "File",     "Module",   "Namespace", "Package",    "Class",    "Method",        "Property",
      "Field",    "Constructor", "Enum",   "Interface",  "Function", "Variable",      "Constant",
      "String",   "Number",   "Boolean",   "Array",      "Object",   "Key",           "Null",
      "EnumMember", "Struct", "Event",     "Operator",   "TypeParameter"};
  if (kind < 1 || kind > static_cast<std::int64_t>(kNames.size())) return "Symbol";
  return kNames[static_cast<std::size_t>(kind - 1)];
}

std::optional<std::int64_t> readKind(const nlohmann::json& value) {
  if (!value.is_object()) return std::nullopt;
  auto found = value.find("kind");
  if (found == value.end() || !found->is_number_integer()) return std::nullopt;
  return found->get<std::int64_t>();
}

std::string moreLine(std::size_t hidden) { return "... and " + std::to_string(hidden) + " more"; }

namespace {

nlohmann::json metadataOf(const Tally& tally) {
  return {{"count", tally.count}, {"outside", tally.outside}, {"truncated", tally.truncated}, {"skipped", tally.skipped}};
}

std::string skippedLine(std::size_t skipped) {
  return "(" + std::to_string(skipped) + (skipped == 1 ? " malformed item" : " malformed items") +
         " in the server's answer skipped)";
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) {
    if (!text.empty()) text += '\n';
    text += line;
  }
  return text;
}

} // namespace

LspRendered finish(std::vector<std::string> lines, const Tally& tally) {
  if (tally.skipped > 0) lines.push_back(skippedLine(tally.skipped));
  return LspRendered{joined(lines), metadataOf(tally)};
}

LspRendered nothingFound(std::string_view message, const Tally& tally) {
  return finish({std::string(message)}, tally);
}

LspRendered unexpectedShape(std::string_view operation, const nlohmann::json& result) {
  protocol::RenderLimits limits;
  limits.maxBytes = kMaxShapeBytes;
  std::string text = "The language server answered " + std::string(operation) +
                     " with a result of an unexpected shape:\n" + protocol::dumpBounded(result, limits);
  return LspRendered{std::move(text), metadataOf(Tally{})};
}

} // namespace toold::builtins::lsp_render
