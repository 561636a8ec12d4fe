// The table that binds wire methods to handlers, and what a handler is given.
#pragma once

#include "core/base/cancellation.h"
#include "daemon/reply.h"
#include "protocol/params_error.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

namespace toold::daemon {

/// Thrown by a handler whose params do not fit; answered -32602 with this message.
using InvalidParams = protocol::ParamsError;

/// What a request handler learns about the request besides its params.
struct RequestContext {
  json id;
  std::string method;
  core::CancellationToken cancellation;
  /// More frames of the same read wait behind this request: work the handler can start on
  /// another thread lets the reader go on to them.
  bool moreFollow = false;
  /// For a method bound with requestTakingText: its params as the frame's text (checked JSON, an
  /// object), the `params` handed to the handler then an empty object; valid only while the
  /// handler runs. Empty when the params came as a tree (a batch, a frame read the long way, a
  /// method read before them): the handler then reads `params`.
  std::string_view paramsText;
};

using RequestHandler = std::function<void(json&& params, const RequestContext& context, Reply reply)>;
using NotificationHandler = std::function<void(json&& params)>;

class MethodTable {
public:
  void request(std::string method, RequestHandler handler) { requests_[std::move(method)] = std::move(handler); }
  /// A request whose params the handler would rather read from their text (see RequestContext).
  void requestTakingText(std::string method, RequestHandler handler) {
    textMethods_.insert(method);
    request(std::move(method), std::move(handler));
  }
  bool takesParamsText(std::string_view method) const {
    return !textMethods_.empty() && textMethods_.find(method) != textMethods_.end();
  }
  void notification(std::string method, NotificationHandler handler) {
    notifications_[std::move(method)] = std::move(handler);
  }
  const RequestHandler* findRequest(const std::string& method) const {
    auto it = requests_.find(method);
    return it == requests_.end() ? nullptr : &it->second;
  }
  const NotificationHandler* findNotification(const std::string& method) const {
    auto it = notifications_.find(method);
    return it == notifications_.end() ? nullptr : &it->second;
  }

private:
  std::map<std::string, RequestHandler, std::less<>> requests_;
  std::map<std::string, NotificationHandler, std::less<>> notifications_;
  std::set<std::string, std::less<>> textMethods_;
};

} // namespace toold::daemon
