// JSON-RPC 2.0 envelopes: classifying what arrives, and building what is sent.
#pragma once

#include "protocol/error_code.h"
#include "protocol/json_reader.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <variant>

namespace toold::protocol {

using nlohmann::json;

/// A call that expects a response. `id` is an integer or a string, kept exactly as it arrived
/// (an unsigned 64-bit integer stays unsigned), so the reply echoes it byte for byte.
struct Request {
  json id;
  std::string method;
  json params; ///< an object or an array; null when absent
};

/// A call that expects no response.
struct Notification {
  std::string method;
  json params;
};

/// The answer to a request toold sent: exactly one of `result` and `error` is set.
struct Response {
  json id;
  std::optional<json> result;
  std::optional<RpcError> error;
};

/// JSON that is not a valid JSON-RPC 2.0 message. `id` is the message's id when it had a usable
/// one, else null; `replyable` is false for things that must not be answered (a malformed response).
struct InvalidMessage {
  json id;
  RpcError error;
  bool replyable = true;
};

using Message = std::variant<Request, Notification, Response, InvalidMessage>;

/// Sorts one JSON value (one element of a batch, or a whole frame) into a Message.
/// Takes the value by rvalue so params are moved, not copied.
Message classify(json&& value);
/// The same for a frame read as its object's members (see parseObjectMembersFast).
Message classify(JsonMembers&& members);

/// True for an id JSON-RPC allows toold to echo: an integer or a string.
bool isValidId(const json& id);

/// A stable key for an id, distinguishing `1` from `"1"`.
std::string idKey(const json& id);

json makeResult(const json& id, json result);
json makeError(const json& id, const RpcError& error);

/// The same messages written out at once, with the bytes `writeJson(makeResult(...))` gives
/// (members in name order), without building the envelope: every answer is one of these.
std::string encodeResult(const json& id, const json& result);
/// The same with the result written by `writeResult`, which appends one JSON value's text to the
/// message it is given (taken as it is): a result written straight from what it describes.
std::string encodeResultWith(const json& id, const std::function<void(std::string&)>& writeResult);
std::string encodeError(const json& id, const RpcError& error);
json makeNotification(std::string_view method, json params);
json makeRequest(const json& id, std::string_view method, json params);

} // namespace toold::protocol
