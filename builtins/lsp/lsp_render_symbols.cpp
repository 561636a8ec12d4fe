// The symbol-shaped answers: a file's outline (documentSymbol), symbols across the workspace
// (workspaceSymbol), and the call hierarchy (prepareCallHierarchy, incomingCalls, outgoingCalls).
#include "builtins/lsp/lsp_render_parts.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace toold::builtins::lsp_render {

namespace {

/// "Class Greeter", or "Method greet (self)" when the symbol has a detail.
std::string symbolHead(std::int64_t kind, const std::string& name, const std::optional<std::string>& detail) {
  std::string head = kindName(kind) + " " + name;
  if (detail && !detail->empty()) head += " " + *detail;
  return head;
}

/// A DocumentSymbol, read; its children are read when the outline reaches them.
struct OutlineNode {
  std::string head;
  Range range;
  const nlohmann::json* children = nullptr;
};

std::optional<OutlineNode> readDocumentSymbol(const nlohmann::json& value) {
  auto name = stringAt(value, "name");
  auto kind = readKind(value);
  if (!name || !kind) return std::nullopt;
  auto found = value.find("range");
  if (found == value.end()) return std::nullopt;
  auto range = readRange(*found);
  if (!range) return std::nullopt;
  auto children = value.find("children");
  return OutlineNode{symbolHead(*kind, *name, stringAt(value, "detail")), *range,
                     children != value.end() ? &*children : nullptr};
}

void readInto(const nlohmann::json& value, std::vector<OutlineNode>& nodes, Tally& tally) {
  if (auto node = readDocumentSymbol(value)) nodes.push_back(std::move(*node));
  else ++tally.skipped;
}

void sortLevel(std::vector<OutlineNode>& nodes) {
  std::stable_sort(nodes.begin(), nodes.end(),
                   [](const OutlineNode& a, const OutlineNode& b) { return a.range.start < b.range.start; });
}

/// The children of a symbol, sorted by where each starts.
std::vector<OutlineNode> readChildren(const nlohmann::json* children, Tally& tally) {
  std::vector<OutlineNode> nodes;
  if (children == nullptr || children->is_null()) return nodes;
  if (!children->is_array()) {
    ++tally.skipped;
    return nodes;
  }
  for (const auto& value : *children) readInto(value, nodes, tally);
  sortLevel(nodes);
  return nodes;
}

/// `Kind name  12-20` lines, indented two spaces per level, walked with a stack of levels of
/// our own rather than by recursion: a server's nesting is not ours to trust.
void outline(const std::vector<OutlineNode>& roots, const LspRenderContext& context, std::vector<std::string>& lines,
             Tally& tally) {
  struct Level {
    std::vector<OutlineNode> nodes;
    std::size_t next = 0;
  };
  std::vector<Level> stack;
  stack.push_back(Level{roots, 0});
  std::size_t shown = 0;
  while (!stack.empty()) {
    Level& level = stack.back();
    if (level.next == level.nodes.size()) {
      stack.pop_back();
      continue;
    }
    const OutlineNode node = level.nodes[level.next++];
    std::size_t depth = stack.size() - 1;
    ++tally.count;
    if (shown < context.maxItems) {
      ++shown;
      lines.push_back(std::string(2 * depth, ' ') + node.head + "  " + std::to_string(node.range.start.line + 1) + "-" +
                      std::to_string(node.range.end.line + 1));
    }
    auto children = readChildren(node.children, tally);
    if (!children.empty()) stack.push_back(Level{std::move(children), 0}); // `level` is not used past here
  }
}

/// A symbol or call item with the place it points to, for the flat listings.
struct Entry {
  Place place;
  bool hasPosition = true;
  std::string line; ///< everything but the place
  std::string tail; ///< after the place
  std::string text() const { return line + "  " + (hasPosition ? place.text(false) : place.file.shown +
                                                  (place.file.outside ? " (outside the workspace)" : "")) + tail; }
};

/// Sorts the entries by place, shows up to maxItems of them, and counts them.
LspRendered listEntries(std::vector<Entry> entries, std::string_view none, Tally tally,
                        const LspRenderContext& context) {
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.place < b.place; });
  tally.count = entries.size();
  for (const auto& entry : entries)
    if (entry.place.file.outside) ++tally.outside;
  if (entries.empty()) return nothingFound(none, tally);
  std::vector<std::string> lines;
  for (const auto& entry : entries) {
    if (lines.size() == context.maxItems) break;
    lines.push_back(entry.text());
  }
  if (entries.size() > lines.size()) {
    tally.truncated = true;
    lines.push_back(moreLine(entries.size() - lines.size()));
  }
  return finish(std::move(lines), tally);
}

std::string containerTail(const nlohmann::json& value) {
  auto container = stringAt(value, "containerName");
  return container && !container->empty() ? " (in " + *container + ")" : "";
}

/// A CallHierarchyItem: `Kind name detail` at its name's place.
std::optional<Entry> readCallItem(const nlohmann::json& value, const LspRenderContext& context) {
  auto name = stringAt(value, "name");
  auto kind = readKind(value);
  auto uri = stringAt(value, "uri");
  if (!name || !kind || !uri) return std::nullopt;
  std::optional<Range> range;
  for (const char* key : {"selectionRange", "range"}) {
    if (auto found = value.find(key); found != value.end() && (range = readRange(*found))) break;
  }
  if (!range) return std::nullopt;
  return Entry{Place{nameFile(*uri, context), range->start}, true, symbolHead(*kind, *name, stringAt(value, "detail")), ""};
}

} // namespace

LspRendered renderDocumentSymbols(const nlohmann::json& result, const LspRenderContext& context) {
  Tally tally;
  if (result.is_null()) return nothingFound("No symbols found.", tally);
  if (!result.is_array()) return unexpectedShape("documentSymbol", result);
  // DocumentSymbol[] is an outline; SymbolInformation[] (the older answer, told apart by its
  // location) is flat: `Kind name  12 (in Container)`.
  std::vector<OutlineNode> roots;
  std::vector<std::pair<Position, std::string>> flat;
  for (const auto& value : result) {
    if (!value.is_object() || !value.contains("location")) {
      readInto(value, roots, tally);
      continue;
    }
    auto name = stringAt(value, "name");
    auto kind = readKind(value);
    const auto& location = value["location"];
    std::optional<Range> range;
    if (location.is_object() && location.contains("range")) range = readRange(location["range"]);
    if (!name || !kind || !range) {
      ++tally.skipped;
      continue;
    }
    flat.emplace_back(range->start, symbolHead(*kind, *name, std::nullopt) + "  " +
                                        std::to_string(range->start.line + 1) + containerTail(value));
  }
  std::vector<std::string> lines;
  sortLevel(roots);
  outline(roots, context, lines, tally);
  std::stable_sort(flat.begin(), flat.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [start, line] : flat) {
    ++tally.count;
    if (lines.size() < context.maxItems) lines.push_back(std::move(line));
  }
  if (tally.count == 0) return nothingFound("No symbols found.", tally);
  if (tally.count > lines.size()) {
    tally.truncated = true;
    lines.push_back(moreLine(tally.count - lines.size()));
  }
  return finish(std::move(lines), tally);
}

LspRendered renderWorkspaceSymbols(const nlohmann::json& result, const LspRenderContext& context) {
  Tally tally;
  if (result.is_null()) return nothingFound("No symbols found.", tally);
  if (!result.is_array()) return unexpectedShape("workspaceSymbol", result);
  std::vector<Entry> entries;
  for (const auto& value : result) {
    auto name = stringAt(value, "name");
    auto kind = readKind(value);
    const nlohmann::json* location = value.is_object() && value.contains("location") ? &value["location"] : nullptr;
    auto uri = location ? stringAt(*location, "uri") : std::nullopt;
    if (!name || !kind || !uri) {
      ++tally.skipped;
      continue;
    }
    // A WorkspaceSymbol may name only the file ({uri}), leaving the range to a resolve request.
    std::optional<Range> range;
    if (location->contains("range") && !(range = readRange((*location)["range"]))) {
      ++tally.skipped;
      continue;
    }
    entries.push_back(Entry{Place{nameFile(*uri, context), range ? range->start : Position{}}, range.has_value(),
                            symbolHead(*kind, *name, std::nullopt), containerTail(value)});
  }
  return listEntries(std::move(entries), "No symbols found.", tally, context);
}

LspRendered renderCallItems(const nlohmann::json& result, const LspRenderContext& context) {
  Tally tally;
  if (result.is_null()) return nothingFound("No call hierarchy item found.", tally);
  if (!result.is_array()) return unexpectedShape("prepareCallHierarchy", result);
  std::vector<Entry> entries;
  for (const auto& value : result) {
    if (auto entry = readCallItem(value, context)) entries.push_back(std::move(*entry));
    else ++tally.skipped;
  }
  return listEntries(std::move(entries), "No call hierarchy item found.", tally, context);
}

LspRendered renderCalls(const nlohmann::json& result, bool incoming, const LspRenderContext& context) {
  std::string_view none = incoming ? "No incoming calls found." : "No outgoing calls found.";
  Tally tally;
  if (result.is_null()) return nothingFound(none, tally);
  if (!result.is_array()) return unexpectedShape(incoming ? "incomingCalls" : "outgoingCalls", result);
  std::vector<Entry> entries;
  for (const auto& value : result) {
    // incoming: `from` is the caller and fromRanges are the calls in its file; outgoing: `to` is
    // the callee and fromRanges are the calls in the caller's file (the item the request named).
    const char* key = incoming ? "from" : "to";
    auto entry = value.is_object() && value.contains(key) ? readCallItem(value[key], context) : std::nullopt;
    if (!entry) {
      ++tally.skipped;
      continue;
    }
    std::vector<Position> sites;
    auto ranges = value.find("fromRanges");
    if (ranges == value.end() || !ranges->is_array()) {
      ++tally.skipped;
    } else {
      for (const auto& range : *ranges) {
        if (auto read = readRange(range)) sites.push_back(read->start);
        else ++tally.skipped;
      }
    }
    std::sort(sites.begin(), sites.end());
    for (std::size_t i = 0; i < sites.size(); ++i)
      entry->tail += (i == 0 ? (incoming ? " — calls at " : " — called at ") : ", ") + sites[i].text();
    entries.push_back(std::move(*entry));
  }
  return listEntries(std::move(entries), none, tally, context);
}

} // namespace toold::builtins::lsp_render
