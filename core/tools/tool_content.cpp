#include "core/tools/tool_content.h"

#include "protocol/json_writer.h"

namespace toold::core {

namespace {

bool isStringMember(const json& item, const char* key) {
  auto it = item.find(key);
  return it != item.end() && it->is_string();
}

void checkItem(const json& item, std::size_t index) {
  const std::string where = "content[" + std::to_string(index) + "]";
  if (!item.is_object() || !isStringMember(item, "type"))
    throw ContentError(where + " is not a content item (an object with a string \"type\")");
  const auto& type = item["type"].get_ref<const std::string&>();
  if (type == "text") {
    if (!isStringMember(item, "text")) throw ContentError(where + ": a text item needs a string \"text\"");
    return;
  }
  if (type == "file") {
    if (!isStringMember(item, "uri") || !isStringMember(item, "mime"))
      throw ContentError(where + ": a file item needs string \"uri\" and \"mime\"");
    if (item.contains("name") && !item["name"].is_string())
      throw ContentError(where + ": a file item's \"name\" must be a string");
    return;
  }
  throw ContentError(where + " has the unknown type \"" + type + "\" (expected \"text\" or \"file\")");
}

json textItem(std::string text) { return json{{"type", "text"}, {"text", std::move(text)}}; }

} // namespace

json normalizeContent(std::optional<json> content, const std::optional<json>& encodedOutput) {
  if (content && !content->is_null()) {
    if (content->is_string()) {
      if (!content->get_ref<const std::string&>().empty()) return json::array({textItem(content->get<std::string>())});
    } else if (content->is_array()) {
      for (std::size_t i = 0; i < content->size(); ++i) checkItem((*content)[i], i);
      if (!content->empty()) return std::move(*content);
    } else {
      throw ContentError("content must be a string or an array of content items");
    }
  }
  if (encodedOutput) {
    if (encodedOutput->is_string()) return json::array({textItem(encodedOutput->get<std::string>())});
    return json::array({textItem(protocol::writeJson(*encodedOutput))});
  }
  throw ContentError("the tool returned no content and no output");
}

std::string metadataProblem(const json& metadata) {
  if (!metadata.is_object()) return "metadata must be a JSON object";
  const std::size_t bytes = protocol::writeJson(metadata).size();
  if (bytes > kMaxMetadataBytes)
    return "metadata is " + std::to_string(bytes) + " bytes encoded; the limit is " + std::to_string(kMaxMetadataBytes);
  return {};
}

} // namespace toold::core
