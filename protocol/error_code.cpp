// JSON conversions of the error object.
#include "protocol/error_code.h"

namespace toold::protocol {

void to_json(nlohmann::json& j, const RpcError& e) {
  j = nlohmann::json{{"code", static_cast<int>(e.code)}, {"message", e.message}};
  if (!e.data.is_null()) j["data"] = e.data;
}

void from_json(const nlohmann::json& j, RpcError& e) {
  e.code = static_cast<ErrorCode>(j.at("code").get<int>());
  e.message = j.value("message", std::string{});
  e.data = j.contains("data") ? j.at("data") : nlohmann::json{};
}

} // namespace toold::protocol
