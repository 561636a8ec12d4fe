#include "core/tools/invalid_tool.h"

#include "protocol/bounded_json.h"

namespace toold::core {

std::string invalidArgumentsText(std::string_view error) {
  return "The arguments provided to the tool are invalid: " + std::string(error);
}

std::string invalidToolError(const nlohmann::json& input) {
  if (input.is_object())
    if (auto it = input.find("error"); it != input.end() && it->is_string()) return it->get<std::string>();
  return "the call could not be read: " + protocol::dumpBounded(input, protocol::kLogRender);
}

} // namespace toold::core
