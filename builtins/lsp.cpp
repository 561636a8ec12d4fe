#include "builtins/lsp.h"

#include "builtins/constant_json.h"
#include "builtins/lsp/change_diagnostics.h"
#include "builtins/lsp/lsp_render.h"
#include "builtins/tool_support.h"

#include <map>
#include <mutex>

namespace toold::builtins {

namespace {

using core::json;

const char* kDescription = R"(Asks the workspace's language servers about code, the way an editor does.

Operations:
- goToDefinition / goToImplementation: where the symbol at the position is defined / implemented
- findReferences: every use of the symbol at the position, grouped by file
- hover: the symbol's type and documentation
- documentSymbol: the file's outline (classes, functions, their line ranges)
- workspaceSymbol: symbols across the workspace matching `query` (default: the word at the position)
- prepareCallHierarchy, incomingCalls, outgoingCalls: who calls the function at the position, and what it calls

Usage:
- filePath is the file the position is in (absolute, or relative to the workspace).
- line and character are 1-based, as the read tool numbers lines; character counts characters from the start of the line.
- Locations come back as path:line:column, relative to the workspace, with the line's text. Locations outside the workspace are listed, not read.
- Prefer this over grep to find a symbol's definition or its real uses (grep also finds comments and unrelated names).)";

constexpr auto kInputSchema = compactJson(R"json(
{
  "additionalProperties": false,
  "properties": {
    "character": {
      "description": "The character offset (1-based, as shown in editors)",
      "minimum": 1,
      "type": "integer"
    },
    "filePath": {
      "description": "The absolute or relative path to the file",
      "type": "string"
    },
    "line": {
      "description": "The line number (1-based, as shown in editors)",
      "minimum": 1,
      "type": "integer"
    },
    "operation": {
      "description": "The LSP operation to perform",
      "enum": ["goToDefinition", "findReferences", "hover", "documentSymbol", "workspaceSymbol", "goToImplementation", "prepareCallHierarchy", "incomingCalls", "outgoingCalls"],
      "type": "string"
    },
    "query": {
      "description": "workspaceSymbol only: the name to look for",
      "type": "string"
    }
  },
  "required": ["operation", "filePath", "line", "character"],
  "type": "object"
})json");

struct Method {
  std::string method;
  std::string capability;
};

Method methodOf(const std::string& operation) {
  if (operation == "goToDefinition") return {"textDocument/definition", "definitionProvider"};
  if (operation == "findReferences") return {"textDocument/references", "referencesProvider"};
  if (operation == "hover") return {"textDocument/hover", "hoverProvider"};
  if (operation == "documentSymbol") return {"textDocument/documentSymbol", "documentSymbolProvider"};
  if (operation == "workspaceSymbol") return {"workspace/symbol", "workspaceSymbolProvider"};
  if (operation == "goToImplementation") return {"textDocument/implementation", "implementationProvider"};
  return {"textDocument/prepareCallHierarchy", "callHierarchyProvider"};
}

std::string_view lineOf(std::string_view text, int line0) {
  std::size_t start = 0;
  for (int i = 0; i < line0; ++i) {
    const std::size_t newline = text.find('\n', start);
    if (newline == std::string_view::npos) return {};
    start = newline + 1;
  }
  std::string_view line = text.substr(start, text.find('\n', start) - start);
  if (line.ends_with('\r')) line.remove_suffix(1);
  return line;
}

/// The identifier around `character` (UTF-16 units; ASCII identifiers are what it is for).
std::string wordAt(std::string_view line, int character) {
  auto isWord = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; };
  std::size_t at = std::min<std::size_t>(static_cast<std::size_t>(character), line.size());
  std::size_t start = at;
  while (start > 0 && isWord(line[start - 1])) --start;
  std::size_t end = at;
  while (end < line.size() && isWord(line[end])) ++end;
  return std::string(line.substr(start, end - start));
}

/// Reads the lines of files the answer points into, each file once, only inside the workspace.
class SnippetReader {
public:
  explicit SnippetReader(std::shared_ptr<const core::Location> location) : location_(std::move(location)) {}

  bool inside(const std::filesystem::path& path) {
    try {
      const auto resolved = core::resolveToolPath(path.string(), *location_);
      return resolved.inside && !resolved.inToolOutput;
    } catch (const core::PathError&) {
      return false;
    }
  }

  std::optional<std::string> line(const std::filesystem::path& path, int line0) {
    auto [entry, added] = files_.try_emplace(path.string());
    if (added) entry->second = load(path);
    if (!entry->second) return std::nullopt;
    return std::string(lineOf(*entry->second, line0));
  }

private:
  std::optional<std::string> load(const std::filesystem::path& path) {
    if (files_.size() > 200) return std::nullopt; // a snippet per file is a nicety, not worth unbounded reads
    try {
      const auto resolved = core::resolveToolPath(path.string(), *location_);
      if (!resolved.inside || resolved.inToolOutput || !resolved.exists || resolved.isDirectory) return std::nullopt;
      auto held = core::holdLocation(resolved, core::HoldPurpose::Read);
      if (!std::holds_alternative<core::HeldLocation>(held)) return std::nullopt;
      auto loaded = loadFile(std::get<core::HeldLocation>(held));
      if (auto* file = std::get_if<LoadedFile>(&loaded); file && file->bytes.size() <= kMaxLspDocumentBytes)
        return std::move(file->bytes);
    } catch (const std::exception&) {
    }
    return std::nullopt;
  }

  std::shared_ptr<const core::Location> location_;
  std::map<std::string, std::optional<std::string>> files_;
};

void answer(const std::string& operation, const core::LspRequestOutcome& outcome, const core::ToolContext& context,
            const core::ToolDone& done) {
  if (outcome.answer.error)
    return done(failure("The language server (" + outcome.server + ") could not answer " + operation + ": " +
                        outcome.answer.error->message));
  auto reader = std::make_shared<SnippetReader>(context.location);
  LspRenderContext render;
  render.workspace = context.location->directory;
  render.inside = [reader](const std::filesystem::path& path) { return reader->inside(path); };
  render.lineText = [reader](const std::filesystem::path& path, int line0) { return reader->line(path, line0); };
  const json result = outcome.answer.result.value_or(json(nullptr));
  LspRendered rendered = renderLspResult(operation, result, render);
  rendered.metadata["server"] = outcome.server;
  rendered.metadata["operation"] = operation;
  done(core::ToolResult{std::nullopt, json(std::move(rendered.text)), std::move(rendered.metadata)});
}

} // namespace

int utf16Character(std::string_view line, int column) {
  int units = 0;
  int characters = 1;
  std::size_t i = 0;
  while (i < line.size() && characters < column) {
    const auto lead = static_cast<unsigned char>(line[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    units += length == 4 ? 2 : 1;
    i += length;
    ++characters;
  }
  return units;
}

core::Tool makeLspTool(std::shared_ptr<FileTools> files) {
  auto execute = [files](json input, core::ToolContext context, core::ToolDone done) {
    const std::string operation = input["operation"].get<std::string>();
    const int line = input["line"].get<int>();
    const int column = input["character"].get<int>();
    const std::string query = input.value("query", std::string());
    resolveWithBoundary(context, input["filePath"].get<std::string>(), core::PathKind::File, done, [=](core::ResolvedPath path) {
      if (!path.exists) return done(failure("File not found: " + path.given.string()));
      if (path.isDirectory) return done(failure("Path is a directory, not a file: " + path.given.string()));
      const std::string relative = core::workspaceRelative(path, *context.location);
      core::PermissionAsk ask{"lsp", {relative}, {"*"}, json{{"operation", operation}, {"filePath", path.given.string()}}};
      context.assertPermission(std::move(ask), [=](std::optional<core::ToolCompletion> refusal) {
        if (refusal) return done(std::move(*refusal));
        if (!files->lsp || !files->lsp->serves(path.canonical))
          return done(failure("No language server serves " + relative +
                              " (none configured for its extension, or its program is not installed; "
                              "lsp/status lists them)."));
        auto held = core::holdLocation(path, core::HoldPurpose::Read);
        if (auto* error = std::get_if<std::string>(&held)) return done(failure(*error));
        auto loaded = loadFile(std::get<core::HeldLocation>(held));
        if (auto* error = std::get_if<std::string>(&loaded)) return done(failure(*error));
        std::string text = std::move(std::get<LoadedFile>(loaded).bytes);
        if (text.size() > kMaxLspDocumentBytes) return done(failure(relative + " is too large for the language servers."));
        const std::string_view lineText = lineOf(text, line - 1);
        const int character = utf16Character(lineText, column);
        const json position{{"line", line - 1}, {"character", character}};
        const Method method = methodOf(operation);
        const std::string word = wordAt(lineText, character);
        auto params = [=](const std::string& uri) -> json {
          if (operation == "workspaceSymbol") return json{{"query", query.empty() ? word : query}};
          if (operation == "documentSymbol") return json{{"textDocument", {{"uri", uri}}}};
          json out{{"textDocument", {{"uri", uri}}}, {"position", position}};
          if (operation == "findReferences") out["context"] = {{"includeDeclaration", true}};
          return out;
        };
        const bool hierarchy = operation == "incomingCalls" || operation == "outgoingCalls";
        auto lsp = files->lsp;
        lsp->request(path.canonical, std::move(text), method.capability, method.method, params, context.cancellation,
                     [=](core::LspRequestOutcome outcome) {
                       if (!hierarchy || outcome.answer.error) return answer(operation, outcome, context, done);
                       // Calls are asked of the item prepareCallHierarchy found at the position.
                       const json items = outcome.answer.result.value_or(json(nullptr));
                       if (!items.is_array() || items.empty())
                         return done(core::ToolResult{std::nullopt,
                                                      json("No " + std::string(operation == "incomingCalls" ? "incoming" : "outgoing") +
                                                           " calls found (no callable symbol at " + relative + ":" +
                                                           std::to_string(line) + ":" + std::to_string(column) + ")."),
                                                      json{{"count", 0}, {"server", outcome.server}}});
                       const std::string method2 = operation == "incomingCalls" ? "callHierarchy/incomingCalls"
                                                                                : "callHierarchy/outgoingCalls";
                       const json item = items.front();
                       lsp->request(path.canonical, std::nullopt, "callHierarchyProvider", method2,
                                    [item](const std::string&) { return json{{"item", item}}; }, context.cancellation,
                                    [=](core::LspRequestOutcome calls) { answer(operation, calls, context, done); });
                     });
      });
    });
  };
  core::Tool tool = workerTool(kDescription, kInputSchema.view(), "lsp", false, std::move(execute));
  // Offered where a language server serves the workspace's files: elsewhere it could only fail.
  tool.describe = [files](const core::CatalogView&) -> std::optional<std::string> {
    if (!files->lsp || !files->lsp->servesWorkspace()) return std::nullopt;
    return std::string(kDescription);
  };
  return tool;
}

} // namespace toold::builtins
