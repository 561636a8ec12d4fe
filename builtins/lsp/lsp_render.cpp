#include "builtins/lsp/lsp_render.h"

#include "builtins/lsp/lsp_render_parts.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace toold::builtins {

using namespace lsp_render;

namespace {

/// The places of a Location | Location[] | LocationLink[] result; nullopt when it has another shape.
std::optional<std::vector<Place>> readLocations(const nlohmann::json& result, const LspRenderContext& context,
                                                Tally& tally) {
  std::vector<Place> places;
  if (result.is_null()) return places;
  if (result.is_object()) {
    if (!result.contains("uri") && !result.contains("targetUri")) return std::nullopt;
    if (auto place = readLocation(result, context)) places.push_back(std::move(*place));
    else ++tally.skipped;
    return places;
  }
  if (!result.is_array()) return std::nullopt;
  for (const auto& item : result) {
    if (auto place = readLocation(item, context)) places.push_back(std::move(*place));
    else ++tally.skipped;
  }
  std::stable_sort(places.begin(), places.end());
  return places;
}

void countPlaces(const std::vector<Place>& places, Tally& tally) {
  tally.count = places.size();
  tally.outside = static_cast<std::size_t>(
      std::count_if(places.begin(), places.end(), [](const Place& place) { return place.file.outside; }));
}

/// `path:12:5: <snippet>`, or without the snippet when there is none.
std::string locationLine(const Place& place, const LspRenderContext& context) {
  std::string line = place.text();
  if (auto text = snippet(place, context); !text.empty()) line += ": " + text;
  return line;
}

LspRendered renderDefinitions(std::string_view operation, const nlohmann::json& result,
                              const LspRenderContext& context, std::string_view none) {
  Tally tally;
  auto places = readLocations(result, context, tally);
  if (!places) return unexpectedShape(operation, result);
  countPlaces(*places, tally);
  if (places->empty()) return nothingFound(none, tally);
  std::vector<std::string> lines;
  for (const auto& place : *places) {
    if (lines.size() == context.maxItems) break;
    lines.push_back(locationLine(place, context));
  }
  if (places->size() > lines.size()) {
    tally.truncated = true;
    lines.push_back(moreLine(places->size() - lines.size()));
  }
  return finish(std::move(lines), tally);
}

std::string plural(std::size_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

LspRendered renderReferences(const nlohmann::json& result, const LspRenderContext& context) {
  Tally tally;
  if (!result.is_null() && !result.is_array()) return unexpectedShape("findReferences", result);
  auto places = readLocations(result, context, tally);
  countPlaces(*places, tally);
  if (places->empty()) return nothingFound("No references found.", tally);

  // Group the sorted places per file: [first, last) of each.
  std::vector<std::pair<std::size_t, std::size_t>> files;
  for (std::size_t i = 0; i < places->size(); ++i) {
    if (i == 0 || (*places)[i - 1].file.shown != (*places)[i].file.shown ||
        (*places)[i - 1].file.outside != (*places)[i].file.outside)
      files.emplace_back(i, i);
    files.back().second = i + 1;
  }
  std::vector<std::string> lines{plural(places->size(), "reference", "references") + " in " +
                                 plural(files.size(), "file", "files")};
  std::size_t shown = 0;
  for (auto [first, last] : files) {
    if (shown == context.maxItems) break;
    const FileName& file = (*places)[first].file;
    lines.push_back(file.shown + " (" + std::to_string(last - first) + ")" +
                    (file.outside ? " (outside the workspace)" : ""));
    for (std::size_t i = first; i < last && shown < context.maxItems; ++i, ++shown) {
      std::string line = "  " + (*places)[i].position.text();
      if (auto text = snippet((*places)[i], context); !text.empty()) line += ": " + text;
      lines.push_back(std::move(line));
    }
  }
  if (places->size() > shown) {
    tally.truncated = true;
    lines.push_back(moreLine(places->size() - shown));
  }
  return finish(std::move(lines), tally);
}

/// A MarkedString (a string, or {language, value}) or MarkupContent ({kind, value}) as text.
std::optional<std::string> markedText(const nlohmann::json& piece) {
  if (piece.is_string()) return piece.get<std::string>();
  auto value = stringAt(piece, "value");
  if (!value) return std::nullopt;
  if (piece.contains("kind")) return value;
  auto language = stringAt(piece, "language");
  if (!language) return std::nullopt;
  return "```" + *language + "\n" + *value + "\n```";
}

std::string_view trimmedLines(std::string_view text) {
  while (!text.empty() && (text.front() == '\n' || text.front() == '\r')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
  return text;
}

LspRendered renderHover(const nlohmann::json& result) {
  Tally tally;
  if (result.is_null()) return nothingFound("No hover information.", tally);
  if (!result.is_object() || !result.contains("contents")) return unexpectedShape("hover", result);
  const auto& contents = result["contents"];
  std::vector<std::string> pieces;
  auto take = [&](const nlohmann::json& piece) {
    auto text = markedText(piece);
    if (!text) {
      ++tally.skipped;
      return;
    }
    if (auto kept = trimmedLines(*text); !kept.empty()) pieces.emplace_back(kept);
  };
  if (contents.is_array()) {
    for (const auto& piece : contents) take(piece);
  } else {
    take(contents);
  }
  if (pieces.empty()) return nothingFound("No hover information.", tally);
  std::string text;
  for (const auto& piece : pieces) text += (text.empty() ? "" : "\n\n") + piece;
  tally.count = 1;
  return finish({std::move(text)}, tally);
}

} // namespace

LspRendered renderLspResult(std::string_view operation, const nlohmann::json& result, const LspRenderContext& context) {
  if (operation == "goToDefinition") return renderDefinitions(operation, result, context, "No definition found.");
  if (operation == "goToImplementation")
    return renderDefinitions(operation, result, context, "No implementation found.");
  if (operation == "findReferences") return renderReferences(result, context);
  if (operation == "hover") return renderHover(result);
  if (operation == "documentSymbol") return renderDocumentSymbols(result, context);
  if (operation == "workspaceSymbol") return renderWorkspaceSymbols(result, context);
  if (operation == "prepareCallHierarchy") return renderCallItems(result, context);
  if (operation == "incomingCalls") return renderCalls(result, true, context);
  if (operation == "outgoingCalls") return renderCalls(result, false, context);
  auto rendered = unexpectedShape(operation, result);
  rendered.text = "No rendering for the operation " + std::string(operation) + "; the server's answer:" +
                  rendered.text.substr(rendered.text.find('\n'));
  return rendered;
}

} // namespace toold::builtins
