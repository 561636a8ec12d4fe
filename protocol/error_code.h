// JSON-RPC 2.0 error codes toold answers with, and the error object that carries them.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace toold::protocol {

/// The error codes of the wire. The JSON-RPC 2.0 ones, plus those LSP and MCP clients know.
enum class ErrorCode : int {
  ParseError = -32700,           ///< the frame is not JSON (or not UTF-8, or not framed right)
  InvalidRequest = -32600,       ///< JSON, but not a JSON-RPC 2.0 message
  MethodNotFound = -32601,
  InvalidParams = -32602,        ///< the message names the JSON path of the first problem
  InternalError = -32603,        ///< a defect in toold; logged with its cause
  ServerNotInitialized = -32002, ///< a request other than initialize came first
  PermissionDeclined = -32001,   ///< the person declined a permission ask without a message
  RequestCancelled = -32800,     ///< the client cancelled the request, or toold is exiting
};

/// A JSON-RPC error object: `{code, message, data?}`.
struct RpcError {
  ErrorCode code = ErrorCode::InternalError;
  std::string message;
  nlohmann::json data; ///< omitted from the wire when null
};

void to_json(nlohmann::json& j, const RpcError& e);
void from_json(const nlohmann::json& j, RpcError& e);

} // namespace toold::protocol
