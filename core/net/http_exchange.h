// One HTTP/1.1 request and its response, over TCP or TLS, as a blocking call bounded in time and
// size and abortable by a cancellation token. Callers are tools and MCP transports running off the
// event loop; each exchange runs a private io_context on the calling thread, so nothing here
// shares state with the daemon's loop.
//
// Redirects are not followed: a caller that follows them must re-check every target (permission,
// private addresses), so it sees each 3xx itself.
#pragma once
#include "core/base/cancellation.h"
#include "core/net/url.h"

#include <boost/asio/ip/address.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace toold::core {

struct HttpHeader {
  std::string name;
  std::string value;
};

struct HttpRequest {
  std::string method = "GET";
  Url url;
  std::vector<HttpHeader> headers; // Host, Content-Length and User-Agent are added when absent
  std::string body;
};

struct HttpResponseHead {
  int status = 0;
  std::string reason;
  std::vector<HttpHeader> headers;
  /// The first header of that name, compared without case.
  std::optional<std::string> header(std::string_view name) const;
};

/// `unavailable`: toold-web.so, which does the exchanges, could not be loaded (web_module.h).
enum class HttpFailure { none, bad_url, refused_address, resolve, connect, tls, timeout, cancelled, too_large, protocol, unavailable };

/// The failure's name for logs and metadata ("timeout", "too_large", ...).
std::string_view toString(HttpFailure failure);

struct HttpOptions {
  std::chrono::milliseconds timeout{30000};      // the whole exchange, connect to last byte
  std::chrono::milliseconds idle_timeout{0};     // 0 = none; else the longest wait for more bytes
  std::size_t max_header_bytes = 64 * 1024;
  std::size_t max_body_bytes = 5 * 1024 * 1024;  // 0 = no cap, for a stream the caller bounds
  /// Asked for every address the host resolved to, before connecting; a returned sentence refuses
  /// that address. When every address is refused the exchange fails with refused_address.
  std::function<std::optional<std::string>(const boost::asio::ip::address&)> refuse_address;
  bool verify_tls = true;                         // system CAs, SNI and the host name
};

/// Body bytes, with chunked transfer encoding removed, as they arrive. Returning false stops
/// reading; the exchange then ends without a failure.
using HttpBodySink = std::function<bool(std::string_view chunk)>;
using HttpHeadSink = std::function<void(const HttpResponseHead& head)>;

struct HttpOutcome {
  HttpFailure failure = HttpFailure::none;
  std::string error;                     // a sentence for a person; empty when none
  std::optional<HttpResponseHead> head;  // present once a response head arrived
  std::string connected_address;         // the address the connection went to, for logs
  bool ok() const { return failure == HttpFailure::none; }
};

HttpOutcome httpExchange(const HttpRequest& request, const HttpOptions& options, const CancellationToken& cancel,
                         const HttpHeadSink& on_head, const HttpBodySink& on_body);

/// The common case: the whole body in memory (still capped by max_body_bytes).
struct HttpResponse {
  HttpOutcome outcome;
  std::string body;
};
HttpResponse httpFetch(const HttpRequest& request, const HttpOptions& options, const CancellationToken& cancel);

} // namespace toold::core
