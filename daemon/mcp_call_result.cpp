#include "daemon/mcp_call_result.h"

#include "protocol/json_writer.h"

namespace toold::daemon {

using nlohmann::json;

namespace {

/// The MCP server's own item a relayed item kept, with the text or bytes the item holds put back
/// (the text as output bounding left it); null when there is none.
json relayedItem(const json& item) {
  const auto kept = item.find(protocol::kMcpItemKey);
  if (kept == item.end() || !kept->is_object()) return nullptr;
  const std::string type = kept->value("type", "");
  if (type == "resource_link") return *kept;
  if (type != "resource" || !kept->contains("resource") || !(*kept)["resource"].is_object()) return nullptr;
  json relayed = *kept;
  json& resource = relayed["resource"];
  if (item.value("type", "") == "text") {
    resource["text"] = item.value("text", "");
    return relayed;
  }
  const std::string uri = item.value("uri", "");
  const std::string prefix = "data:" + item.value("mime", "") + ";base64,";
  if (!uri.starts_with(prefix)) return nullptr;
  resource["blob"] = uri.substr(prefix.size());
  return relayed;
}

} // namespace

json mcpContentItem(json item) {
  if (json relayed = relayedItem(item); !relayed.is_null()) return relayed;
  item.erase(protocol::kMcpItemKey);
  if (item.value("type", "") != "file") return item;
  const std::string uri = item.value("uri", "");
  const std::string mime = item.value("mime", "");
  const std::string prefix = "data:" + mime + ";base64,";
  if (uri.starts_with(prefix) && (mime.starts_with("image/") || mime.starts_with("audio/")))
    return json{{"type", mime.starts_with("image/") ? "image" : "audio"},
                {"data", uri.substr(prefix.size())},
                {"mimeType", mime}};
  if (uri.starts_with(prefix))
    return json{{"type", "resource"},
                {"resource",
                 {{"uri", "attachment:" + item.value("name", std::string("file"))},
                  {"mimeType", mime},
                  {"blob", uri.substr(prefix.size())}}}};
  json link{{"type", "resource_link"}, {"uri", uri}, {"mimeType", mime}};
  link["name"] = item.contains("name") ? item["name"] : json(uri);
  return link;
}

void appendCallToolResult(std::string& out, const protocol::ToolOutcome& outcome) {
  // Written straight from the outcome, members in name order as toold writes every object: a
  // proxied call's answer is mostly its texts, and a tree built for them was only walked once.
  out.reserve(out.size() + protocol::outcomeSizeHint(outcome));
  out += '{';
  if (!outcome.notices.empty()) {
    // For the host, not the model: MCP's _meta is where a result carries such side information.
    out += R"("_meta":{"toold/notices":)";
    protocol::appendJsonStrings(out, outcome.notices);
    out += "},";
  }
  if (!outcome.completed()) {
    out += R"("content":[{"text":)";
    protocol::appendJsonString(out, outcome.errorMessage);
    out += R"(,"type":"text"}],"isError":true})";
    return;
  }
  out += R"("content":[)";
  bool first = true;
  for (const json& item : outcome.content) {
    if (!first) out += ',';
    first = false;
    const auto type = item.is_object() ? item.find("type") : item.end();
    if ((type != item.end() && type->is_string() && type->get_ref<const std::string&>() == "file") ||
        item.contains(protocol::kMcpItemKey))
      protocol::appendJson(out, mcpContentItem(item));
    else
      protocol::appendJson(out, item);
  }
  out += R"(],"isError":false)";
  if (outcome.output && outcome.output->is_object()) {
    out += R"(,"structuredContent":)";
    protocol::appendJson(out, *outcome.output);
  }
  out += '}';
}

} // namespace toold::daemon
