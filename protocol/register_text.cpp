#include "protocol/register_text.h"

#include "protocol/bounded_json.h"
#include "protocol/json_reader.h"
#include "protocol/params_error.h"

namespace toold::protocol {

std::optional<RegisterParamsText> RegisterParamsText::open(std::string_view text) {
  std::string_view scope;
  std::string_view tools;
  std::string_view options;
  const bool read = forEachMemberText(text, kMaxJsonDepth, [&](std::string&& key, std::string_view value) {
    if (key == "scope") scope = value;
    else if (key == "tools") tools = value;
    else if (key == "options") options = value;
  });
  if (!read || tools.empty() || tools.front() != '{') return std::nullopt;
  RegisterParamsText record;
  record.tools_ = tools;
  if (!scope.empty()) {
    auto value = parseJsonFast(scope, kMaxJsonDepth);
    if (!value || !value->is_string() || value->get_ref<const std::string&>().empty()) return std::nullopt;
    record.scope_ = std::move(value->get_ref<std::string&>());
  }
  if (!options.empty()) {
    const auto value = parseJsonFast(options, kMaxJsonDepth);
    if (!value || !value->is_object()) return std::nullopt;
    try {
      ParamsReader reader(*value, "options");
      record.options_.ns = reader.optionalString("namespace");
      record.options_.codemode = reader.optionalBool("codemode");
    } catch (const ParamsError&) {
      return std::nullopt;
    }
  }
  return record;
}

bool RegisterParamsText::forEachTool(const std::function<void(std::string&& name, ToolSpec&& spec)>& each) const {
  std::size_t count = 0;
  const bool read = forEachMemberText(tools_, kMaxJsonDepth, [&](std::string&& name, std::string_view value) {
    auto spec = parseJsonFast(value, kMaxJsonDepth);
    if (!spec) throw ParamsError("tools." + name + ": not readable");  // checked before: does not happen
    std::string path = "tools." + name;
    each(std::move(name), parseToolSpec(std::move(*spec), path));
    ++count;
  });
  return read && count > 0;
}

} // namespace toold::protocol
