#include "core/sources/mcp/mcp_result.h"

#include <cctype>

namespace toold::core {

using protocol::kMcpItemKey;

namespace {

std::string stringOr(const json& object, const char* key, std::string fallback) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::move(fallback);
}

json fileItem(const std::string& mime, const std::string& base64, const std::string& name) {
  json item{{"type", "file"}, {"mime", mime}, {"uri", "data:" + mime + ";base64," + base64}};
  if (!name.empty()) item["name"] = name;
  return item;
}

} // namespace

json mcpResourceToItem(const json& resource) {
  if (!resource.is_object()) return nullptr;
  const std::string uri = stringOr(resource, "uri", "");
  if (const auto text = resource.find("text"); text != resource.end() && text->is_string())
    return json{{"type", "text"}, {"text", *text}};
  if (const auto blob = resource.find("blob"); blob != resource.end() && blob->is_string())
    return fileItem(stringOr(resource, "mimeType", "application/octet-stream"), blob->get<std::string>(), uri);
  return json{{"type", "text"}, {"text", uri}};
}

json mcpContentToItems(json content) {
  json items = json::array();
  if (!content.is_array()) return items;
  for (json& part : content) {
    if (!part.is_object()) continue;
    const std::string type = stringOr(part, "type", "");
    if (type == "text" && part.contains("text") && part["text"].is_string()) {
      items.push_back(json{{"type", "text"}, {"text", std::move(part["text"])}});
    } else if ((type == "image" || type == "audio") && part.contains("data") && part["data"].is_string()) {
      const std::string fallback = type == "image" ? "image/png" : "audio/wav";
      items.push_back(fileItem(stringOr(part, "mimeType", fallback), part["data"].get<std::string>(), ""));
    } else if (type == "resource_link") {
      const std::string uri = stringOr(part, "uri", "");
      const std::string name = stringOr(part, "name", "");
      json item{{"type", "text"}, {"text", name.empty() || name == uri ? "Resource: " + uri : "Resource " + name + ": " + uri}};
      item[kMcpItemKey] = std::move(part);
      items.push_back(std::move(item));
    } else if (type == "resource") {
      json item = mcpResourceToItem(part.value("resource", json()));
      if (item.is_null()) continue;
      // The server's own item rides along for an MCP host, without the text or bytes the item
      // holds already (and which output bounding may cut).
      json& resource = part["resource"];
      resource.erase("text");
      resource.erase("blob");
      item[kMcpItemKey] = std::move(part);
      items.push_back(std::move(item));
    }
  }
  return items;
}

ToolCompletion mcpResultToCompletion(json result, bool hasOutputSchema, std::string_view toolName) {
  if (!result.is_object()) return ToolDefect{"MCP tool " + std::string(toolName) + " answered " + result.type_name() + ", not a result object"};
  json items;
  if (const auto content = result.find("content"); content != result.end())
    items = mcpContentToItems(std::move(*content));
  else
    items = json::array();
  if (result.value("isError", false) == true) {
    std::string message;
    for (const json& item : items)
      if (item["type"] == "text") message += (message.empty() ? "" : "\n") + item["text"].get<std::string>();
    while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back()))) message.pop_back();
    return ToolFailure{message.empty() ? "MCP tool returned an error" : message, std::nullopt};
  }
  ToolResult done;
  if (hasOutputSchema) {
    if (const auto structured = result.find("structuredContent"); structured != result.end())
      done.output = std::move(*structured);
    else
      return ToolFailure{"MCP tool " + std::string(toolName) + " declares an output schema but returned no structuredContent", std::nullopt};
  }
  // With no items at all the pipeline shows the output, or says there was none.
  if (items.empty() && !done.output) items.push_back(json{{"type", "text"}, {"text", "(no output)"}});
  if (!items.empty()) done.content = std::move(items);
  return done;
}

} // namespace toold::core
