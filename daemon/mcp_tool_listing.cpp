#include "daemon/mcp_tool_listing.h"

#include "builtins/codemode_catalog.h"
#include "core/tools/tool_name.h"
#include "protocol/json_writer.h"

namespace toold::daemon {

using nlohmann::json;

namespace {

// MCP requires an object schema for a tool's arguments (and, when given, for its structured
// output), and clients such as the official SDK refuse a whole listing over one that is not.
// Arguments are always an object over MCP, so a schema that states no type is listed as the
// object schema it then amounts to; a tool whose input must be something else cannot be called
// over MCP and is not listed. A non-object output schema is simply not advertised.
bool statesType(const json& schema) { return schema.is_object() && schema.contains("type"); }
bool isObjectSchema(const json& schema) { return schema.is_object() && schema.value("type", json()) == "object"; }

// Over MCP the catalog of Code Mode has no field of its own (the native snapshot's `codemode`):
// it follows `execute`'s description, within the same token budget, so a host that shows its
// model only the tool list still shows what the program can call.
void describeCodemode(json& listed, const core::Snapshot& snapshot) {
  if (!snapshot.codemode || !snapshot.inventory) return;
  const auto summary = codemode::summarizeCatalog(builtins::catalogEntries(*snapshot.inventory));
  listed["description"] = listed.value("description", std::string()) + "\n\n" + codemode::renderCatalog(summary);
}

} // namespace

std::optional<json> mcpDefinition(const core::RegisteredTool& tool) {
  json listed = tool.definition();
  // MCP's title and behaviour hints: the built-ins' own, a registered tool's as it gave them.
  if (!tool.title().empty()) listed["title"] = tool.title();
  if (!tool.annotations().empty()) listed["annotations"] = tool.annotations();
  json& input = listed["inputSchema"];
  if (input.is_boolean() || (input.is_object() && !statesType(input))) {
    if (input.is_boolean()) input = json::object();
    input["type"] = "object";
  } else if (!isObjectSchema(input)) {
    return std::nullopt;
  }
  if (auto it = listed.find("outputSchema"); it != listed.end() && !isObjectSchema(*it)) listed.erase(it);
  return listed;
}

// The shown text is an object whose keys, sorted as nlohmann writes them, all lie between
// "annotations" and "title" (description, inputSchema, name, outputSchema, schemaNote, strict):
// the hints go first and the title last, where the document's sorted keys put them.
bool appendMcpDefinition(std::string& out, const core::RegisteredTool& tool) {
  if (!tool.shown || !tool.shownObjectSchemas || tool.shown->size() < 3) return false;
  const std::string& shown = *tool.shown;
  out += '{';
  if (!tool.annotations().empty()) {
    out += R"("annotations":)";
    protocol::appendJson(out, tool.annotations());
    out += ',';
  }
  out.append(shown, 1, shown.size() - 2);  // the members, without the braces
  if (!tool.title().empty()) {
    out += R"(,"title":)";
    protocol::appendJsonString(out, tool.title());
  }
  out += '}';
  return true;
}

void appendToolsListPage(std::string& out, const core::Snapshot& snapshot, std::size_t offset, std::size_t pageSize,
                         const std::function<std::string(std::size_t next)>& nextCursor) {
  // The cursor sorts before `tools` but is known only once the page is full: the page is
  // written first, then put behind it.
  std::string tools = "[";
  std::size_t listed = 0;
  std::size_t next = offset;
  for (; next < snapshot.tools.size() && listed < pageSize; ++next) {
    const core::RegisteredTool& tool = *snapshot.tools[next];
    if (listed > 0) tools += ',';
    const bool codemode = tool.name == core::kReservedToolName;
    if (!codemode && appendMcpDefinition(tools, tool)) {
      ++listed;
      continue;
    }
    auto document = mcpDefinition(tool);
    if (!document) {
      if (listed > 0) tools.pop_back();  // the comma written for it
      continue;
    }
    if (codemode) describeCodemode(*document, snapshot);
    protocol::appendJson(tools, *document);
    ++listed;
  }
  tools += ']';
  out += '{';
  if (next < snapshot.tools.size()) {
    out += R"("nextCursor":)";
    protocol::appendJsonString(out, nextCursor(next));
    out += ',';
  }
  out += R"("tools":)";
  out += tools;
  out += '}';
}

} // namespace toold::daemon
