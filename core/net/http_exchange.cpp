// toold's side of the HTTP exchange: the names of failures, the whole-body fetch, and the
// forwarding of each exchange to toold-web.so (web_module.h), which holds Beast and OpenSSL
// (tls_http_exchange.cpp) and is loaded by the first exchange.
#include "core/net/http_exchange.h"

#include "core/net/web_module.h"

#include <algorithm>
#include <cctype>

namespace toold::core {

std::string_view toString(HttpFailure failure) {
  switch (failure) {
  case HttpFailure::none: return "none";
  case HttpFailure::bad_url: return "bad_url";
  case HttpFailure::refused_address: return "refused_address";
  case HttpFailure::resolve: return "resolve";
  case HttpFailure::connect: return "connect";
  case HttpFailure::tls: return "tls";
  case HttpFailure::timeout: return "timeout";
  case HttpFailure::cancelled: return "cancelled";
  case HttpFailure::too_large: return "too_large";
  case HttpFailure::protocol: return "protocol";
  case HttpFailure::unavailable: return "unavailable";
  }
  return "unknown";
}

std::optional<std::string> HttpResponseHead::header(std::string_view name) const {
  for (const auto& header : headers) {
    if (std::ranges::equal(header.name, name, [](unsigned char a, unsigned char b) {
          return std::tolower(a) == std::tolower(b);
        })) {
      return header.value;
    }
  }
  return std::nullopt;
}

HttpOutcome httpExchange(const HttpRequest& request, const HttpOptions& options, const CancellationToken& cancel,
                         const HttpHeadSink& on_head, const HttpBodySink& on_body) {
  HttpOutcome outcome;
  if (request.url.host.empty()) {
    outcome.failure = HttpFailure::bad_url;
    outcome.error = "the request has no URL";
    return outcome;
  }
  using Entry = void (*)(const HttpRequest&, const HttpOptions&, const CancellationToken&, const HttpHeadSink&,
                         const HttpBodySink&, HttpOutcome&);
  Entry entry = nullptr;
  try {
    entry = webModuleFunction<Entry>("toold_http_exchange");
  } catch (const WebModuleError& e) {
    outcome.failure = HttpFailure::unavailable;
    outcome.error = e.what();
    return outcome;
  }
  entry(request, options, cancel, on_head, on_body, outcome);
  return outcome;
}

HttpResponse httpFetch(const HttpRequest& request, const HttpOptions& options, const CancellationToken& cancel) {
  HttpResponse response;
  response.outcome = httpExchange(request, options, cancel, {}, [&response](std::string_view chunk) {
    response.body.append(chunk);
    return true;
  });
  return response;
}

} // namespace toold::core
