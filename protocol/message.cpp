// Envelope rules of JSON-RPC 2.0, checked in the order a client would want them reported.
#include "protocol/message.h"

#include "protocol/json_writer.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace toold::protocol {
namespace {

InvalidMessage invalid(json id, std::string why, bool replyable = true) {
  return InvalidMessage{std::move(id), RpcError{ErrorCode::InvalidRequest, "Invalid Request: " + std::move(why), {}},
                        replyable};
}

// An error code is a 32-bit integer (JSON-RPC's codes are); a wider one would be cut by the cast.
bool fitsErrorCode(const json& code) {
  if (code.is_number_unsigned()) return code.get<std::uint64_t>() <= std::numeric_limits<std::int32_t>::max();
  const auto value = code.get<std::int64_t>();
  return value >= std::numeric_limits<std::int32_t>::min() && value <= std::numeric_limits<std::int32_t>::max();
}

} // namespace

bool isValidId(const json& id) {
  return id.is_string() || id.is_number_integer(); // number_integer covers unsigned too
}

std::string idKey(const json& id) { return writeJson(id); }

namespace {

// The envelope's rules over a way of finding a member by name (null when absent): the members of
// a parsed object, or those of a frame read one by one.
template <class Find>
Message classifyMembers(Find&& find) {
  json* idIt = find("id");
  const bool hasId = idIt != nullptr;
  json id = (hasId && isValidId(*idIt)) ? *idIt : json(nullptr);

  json* versionIt = find("jsonrpc");
  if (versionIt == nullptr) return invalid(id, "\"jsonrpc\" is missing; it must be \"2.0\"");
  if (!versionIt->is_string() || versionIt->get_ref<const std::string&>() != "2.0")
    return invalid(id, "\"jsonrpc\" must be the string \"2.0\"");

  json* methodIt = find("method");
  if (methodIt == nullptr) {
    json* result = find("result");
    json* error = find("error");
    const bool hasResult = result != nullptr;
    const bool hasError = error != nullptr;
    if (!hasResult && !hasError) return invalid(id, "\"method\" is missing");
    // A malformed response is reported in the log, never answered: answering a response would
    // start a ping-pong between two peers that each think the other is wrong.
    if (hasResult == hasError) return invalid(id, "a response has exactly one of \"result\" and \"error\"", false);
    if (!hasId) return invalid(nullptr, "a response needs an \"id\"", false);
    Response response{std::move(*idIt), {}, {}};
    if (hasResult) {
      response.result = std::move(*result);
    } else {
      if (!error->is_object() || !error->contains("code") || !(*error)["code"].is_number_integer() ||
          !fitsErrorCode((*error)["code"]))
        return invalid(response.id, "\"error\" must be an object with an integer \"code\" of 32 bits", false);
      RpcError parsed;
      parsed.code = static_cast<ErrorCode>((*error)["code"].get<std::int32_t>());
      if (auto m = error->find("message"); m != error->end() && m->is_string()) parsed.message = m->get<std::string>();
      if (auto d = error->find("data"); d != error->end()) parsed.data = *d;
      response.error = std::move(parsed);
    }
    return response;
  }
  if (!methodIt->is_string()) return invalid(id, "\"method\" must be a string");
  std::string method = std::move(methodIt->get_ref<std::string&>());

  json params;
  if (json* paramsIt = find("params"); paramsIt != nullptr) {
    if (!paramsIt->is_object() && !paramsIt->is_array())
      return invalid(id, "\"params\" must be an object or an array");
    params = std::move(*paramsIt);
  }

  if (!hasId) return Notification{std::move(method), std::move(params)};
  if (idIt->is_null()) return invalid(nullptr, "\"id\" must not be null");
  if (idIt->is_number_float()) {
    const double number = idIt->get<double>();
    return invalid(nullptr, number == std::floor(number)
                                ? "\"id\" must be an integer or a string; a number written with a decimal point or an exponent, or beyond 64 bits, is not an integer"
                                : "\"id\" must be an integer or a string, not a fractional number");
  }
  if (!isValidId(*idIt)) return invalid(nullptr, std::string("\"id\" must be an integer or a string, not ") +
                                                      (idIt->is_object() ? "an object" : idIt->is_array() ? "an array" : "a boolean"));
  return Request{std::move(id), std::move(method), std::move(params)};
}

} // namespace

Message classify(json&& value) {
  if (!value.is_object()) return invalid(nullptr, "a message must be a JSON object");
  auto& object = value.get_ref<json::object_t&>();
  return classifyMembers([&object](std::string_view name) -> json* {
    auto it = object.find(name);
    return it == object.end() ? nullptr : &it->second;
  });
}

Message classify(JsonMembers&& members) {
  return classifyMembers([&members](std::string_view name) -> json* {
    for (auto& [key, value] : members)
      if (key == name) return &value;
    return nullptr;
  });
}

// Built member by member rather than from an initializer list: a list's elements are const, so
// nlohmann copies each of them, and a result can be a whole file window.
namespace {
json envelope(const json& id) {
  json message(json::value_t::object);
  message.get_ref<json::object_t&>().emplace("jsonrpc", "2.0");
  message.get_ref<json::object_t&>().emplace("id", id);
  return message;
}
} // namespace

json makeResult(const json& id, json result) {
  json message = envelope(id);
  message.get_ref<json::object_t&>().emplace("result", std::move(result));
  return message;
}

json makeError(const json& id, const RpcError& error) {
  json message = envelope(id);
  message.get_ref<json::object_t&>().emplace("error", error);
  return message;
}

std::string encodeResult(const json& id, const json& result) {
  std::string out;
  out.reserve(48);
  out += R"({"id":)";
  appendJson(out, id);
  out += R"(,"jsonrpc":"2.0","result":)";
  appendJson(out, result);
  out += '}';
  return out;
}

std::string encodeResultWith(const json& id, const std::function<void(std::string&)>& writeResult) {
  std::string out;
  out.reserve(48);
  out += R"({"id":)";
  appendJson(out, id);
  out += R"(,"jsonrpc":"2.0","result":)";
  writeResult(out);
  out += '}';
  return out;
}

std::string encodeError(const json& id, const RpcError& error) {
  std::string out = R"({"error":)";
  appendJson(out, json(error));
  out += R"(,"id":)";
  appendJson(out, id);
  out += R"(,"jsonrpc":"2.0"})";
  return out;
}

json makeNotification(std::string_view method, json params) {
  json message(json::value_t::object);
  auto& members = message.get_ref<json::object_t&>();
  members.emplace("jsonrpc", "2.0");
  members.emplace("method", method);
  if (!params.is_null()) members.emplace("params", std::move(params));
  return message;
}

json makeRequest(const json& id, std::string_view method, json params) {
  json message = envelope(id);
  auto& members = message.get_ref<json::object_t&>();
  members.emplace("method", method);
  if (!params.is_null()) members.emplace("params", std::move(params));
  return message;
}

} // namespace toold::protocol
