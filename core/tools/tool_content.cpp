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

json textItem(std::string text) {
  // Not an initializer list, which builds each member as a two-element array first.
  json item(json::value_t::object);
  item["type"] = "text";
  item["text"] = std::move(text);
  return item;
}

/// Never less than the length of `value` written as JSON: each string byte counted as the longest escape
/// (`\u00XX`, six bytes), every number as 32, plus punctuation. Stops adding once past `limit`.
std::size_t encodedSizeBound(const json& value, std::size_t limit) {
  switch (value.type()) {
  case json::value_t::string: return 2 + 6 * value.get_ref<const std::string&>().size();
  case json::value_t::object: {
    std::size_t size = 2;
    for (const auto& [key, member] : value.items()) {
      size += 2 + 6 * key.size() + 2 + encodedSizeBound(member, limit);
      if (size > limit) break;
    }
    return size;
  }
  case json::value_t::array: {
    std::size_t size = 2;
    for (const auto& element : value) {
      size += 1 + encodedSizeBound(element, limit);
      if (size > limit) break;
    }
    return size;
  }
  case json::value_t::binary: return limit + 1; // never in metadata; written exactly below
  default: return 32;
  }
}

} // namespace

json normalizeContent(std::optional<json> content, const std::optional<json>& encodedOutput) {
  if (content && !content->is_null()) {
    if (content->is_string()) {
      // Moved, not copied: a read's whole answer is this one string.
      if (!content->get_ref<const std::string&>().empty())
        return json::array({textItem(std::move(content->get_ref<std::string&>()))});
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
  // Most metadata is far below the limit even written at its longest: then it need not be written.
  if (encodedSizeBound(metadata, kMaxMetadataBytes) <= kMaxMetadataBytes) return {};
  const std::size_t bytes = protocol::writeJson(metadata).size();
  if (bytes > kMaxMetadataBytes)
    return "metadata is " + std::to_string(bytes) + " bytes encoded; the limit is " + std::to_string(kMaxMetadataBytes);
  return {};
}

std::optional<json> failurePartial(const std::optional<json>& lastProgress, const std::optional<json>& metadata) {
  if (!metadata) return lastProgress;
  if (!lastProgress) return metadata;
  if (lastProgress->is_object() && metadata->is_object()) {
    json merged = *lastProgress;
    for (const auto& [key, value] : metadata->items()) merged[key] = value;
    return merged;
  }
  return metadata;
}

} // namespace toold::core
