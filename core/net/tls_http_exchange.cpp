#include "core/net/http_exchange.h"

#include <utility> // Boost 1.74's awaitable.hpp uses std::exchange without including it

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <memory>
#include <mutex>

namespace toold::core {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using boost::system::error_code;

// Joins a cancellation (from any thread) to the exchange (on its own thread). It outlives the
// exchange, so a cancellation racing with the end finds nothing to abort instead of a freed context.
struct AbortLink {
  std::mutex mutex;
  std::function<void()> abort; // empty once the exchange has ended
  void fire() {
    std::lock_guard lock(mutex);
    if (abort) abort();
  }
  void detach() {
    std::lock_guard lock(mutex);
    abort = nullptr;
  }
};

std::string seconds(std::chrono::milliseconds duration) {
  const auto count = duration.count();
  return count % 1000 == 0 ? std::to_string(count / 1000) + " s" : std::to_string(count) + " ms";
}

class Exchange {
public:
  Exchange(const HttpRequest& request, const HttpOptions& options, const HttpHeadSink& onHead,
           const HttpBodySink& onBody)
      : request_(request), options_(options), onHead_(onHead), onBody_(onBody) {}

  HttpOutcome run(const CancellationToken& cancel) {
    auto link = std::make_shared<AbortLink>();
    link->abort = [this, cancel] {
      asio::post(ioc_, [this, cancel] { abort(HttpFailure::cancelled, cancelMessage(cancel)); });
    };
    auto registration = cancel.onCancel([link] { link->fire(); });
    deadline_.expires_after(options_.timeout);
    deadline_.async_wait([this](const error_code& ec) {
      if (!ec) abort(HttpFailure::timeout, "the request to " + request_.url.text() + " took longer than " +
                                               seconds(options_.timeout));
    });
    asio::co_spawn(ioc_, perform(), [this](const std::exception_ptr& error) {
      deadline_.cancel();
      if (!error) return;
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        fail(HttpFailure::protocol, e.what());
      }
    });
    ioc_.run();
    link->detach(); // from here on a cancellation posts nothing
    registration.reset();
    return std::move(outcome_);
  }

private:
  static std::string cancelMessage(const CancellationToken& cancel) {
    const std::string reason = cancel.reason();
    return reason.empty() ? "the request was cancelled" : "the request was cancelled (" + reason + ")";
  }

  void fail(HttpFailure failure, std::string error) {
    if (outcome_.failure != HttpFailure::none) return; // the first cause is the one worth telling
    outcome_.failure = failure;
    outcome_.error = std::move(error);
  }

  // Ends whatever is pending: the operation then fails, and failFrom() reports this cause.
  void abort(HttpFailure why, std::string message) {
    if (abortReason_ == HttpFailure::none) {
      abortReason_ = why;
      abortMessage_ = std::move(message);
    }
    resolver_.cancel();
    error_code ignored;
    socket().close(ignored);
    deadline_.cancel();
  }

  bool aborted() {
    if (abortReason_ == HttpFailure::none) return false;
    fail(abortReason_, abortMessage_);
    return true;
  }

  void failFrom(const error_code& ec, HttpFailure otherwise, const std::string& context) {
    if (aborted()) return;
    if (ec == beast::error::timeout) {
      fail(HttpFailure::timeout, request_.url.authority() + " sent nothing for " + seconds(options_.idle_timeout));
    } else if (ec == http::error::header_limit) {
      fail(HttpFailure::too_large, "the response's headers are larger than " +
                                       std::to_string(options_.max_header_bytes) + " bytes");
    } else if (ec == http::error::body_limit) {
      fail(HttpFailure::too_large, "the response's body is larger than " + std::to_string(options_.max_body_bytes) +
                                       " bytes");
    } else if (ec == http::error::end_of_stream || ec == asio::error::eof) {
      fail(HttpFailure::protocol, request_.url.authority() + " closed the connection before the response ended");
    } else {
      fail(otherwise, context + ": " + ec.message());
    }
  }

  tcp::socket& socket() { return tls_ ? beast::get_lowest_layer(*tls_).socket() : tcp_.socket(); }

  template <class Stream> void armIdle(Stream& stream) {
    if (options_.idle_timeout.count() > 0) {
      beast::get_lowest_layer(stream).expires_after(options_.idle_timeout);
    } else {
      beast::get_lowest_layer(stream).expires_never();
    }
  }

  asio::awaitable<void> perform() {
    const Url& url = request_.url;
    error_code ec;
    if (aborted()) co_return;
    const auto results =
        co_await resolver_.async_resolve(url.host, std::to_string(url.port), asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return failFrom(ec, HttpFailure::resolve, "could not resolve " + url.host);

    std::vector<tcp::endpoint> allowed;
    std::string refusal;
    for (const auto& entry : results) {
      if (options_.refuse_address) {
        if (auto why = options_.refuse_address(entry.endpoint().address())) {
          if (refusal.empty()) refusal = std::move(*why);
          continue;
        }
      }
      allowed.push_back(entry.endpoint());
    }
    if (allowed.empty()) co_return fail(HttpFailure::refused_address, refusal);

    if (aborted()) co_return;
    const tcp::endpoint endpoint = co_await tcp_.async_connect(allowed, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return failFrom(ec, HttpFailure::connect, "could not connect to " + url.authority());
    outcome_.connected_address = endpoint.address().to_string();

    if (url.scheme != "https") co_return co_await converse(tcp_);

    tlsContext_ = std::make_unique<ssl::context>(ssl::context::tls_client);
    if (options_.verify_tls) {
      tlsContext_->set_default_verify_paths(ec);
      tlsContext_->set_verify_mode(ssl::verify_peer);
    } else {
      tlsContext_->set_verify_mode(ssl::verify_none);
    }
    tls_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(std::move(tcp_), *tlsContext_);
    SSL* native = tls_->native_handle();
    error_code notAnAddress;
    asio::ip::make_address(url.host, notAnAddress);
    const bool literal = !notAnAddress;
    if (!literal) { // RFC 6066: server names only; SSL_set_tlsext_host_name is a macro with a C cast
      SSL_ctrl(native, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, const_cast<char*>(url.host.c_str()));
    }
    if (options_.verify_tls) {
      if (literal) {
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(native), url.host.c_str());
      } else {
        SSL_set1_host(native, url.host.c_str());
      }
    }
    armIdle(*tls_);
    if (aborted()) co_return;
    co_await tls_->async_handshake(ssl::stream_base::client, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return failFrom(ec, HttpFailure::tls, "the TLS handshake with " + url.authority() + " failed");
    co_await converse(*tls_);
  }

  template <class Stream> asio::awaitable<void> converse(Stream& stream) {
    const Url& url = request_.url;
    http::request<http::string_body> message;
    const http::verb verb = http::string_to_verb(request_.method);
    if (verb == http::verb::unknown) {
      message.method_string(request_.method);
    } else {
      message.method(verb);
    }
    message.target(url.target);
    message.version(11);
    for (const auto& header : request_.headers) message.insert(header.name, header.value);
    if (message.find(http::field::host) == message.end()) message.set(http::field::host, url.authority());
    if (message.find(http::field::user_agent) == message.end()) message.set(http::field::user_agent, "toold/" TOOLD_VERSION);
    message.body() = request_.body;
    if (!request_.body.empty() || verb == http::verb::post || verb == http::verb::put || verb == http::verb::patch) {
      message.prepare_payload();
    }

    error_code ec;
    armIdle(stream);
    if (aborted()) co_return;
    co_await http::async_write(stream, message, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return failFrom(ec, HttpFailure::connect, "could not send the request to " + url.authority());

    beast::flat_buffer buffer;
    http::response_parser<http::buffer_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(
        std::min<std::size_t>(options_.max_header_bytes, std::numeric_limits<std::uint32_t>::max())));
    // "No cap" is the largest cap: Boost 1.74's parser compares a Content-Length with an empty
    // optional limit as if the limit were below every length.
    parser.body_limit(options_.max_body_bytes > 0 ? std::uint64_t{options_.max_body_bytes}
                                                  : std::numeric_limits<std::uint64_t>::max());
    if (verb == http::verb::head) parser.skip(true);

    armIdle(stream);
    co_await http::async_read_header(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return failFrom(ec, HttpFailure::protocol, "could not read the response of " + url.authority());
    HttpResponseHead head;
    head.status = parser.get().result_int();
    head.reason = std::string(parser.get().reason());
    for (const auto& field : parser.get()) head.headers.push_back({std::string(field.name_string()), std::string(field.value())});
    outcome_.head = head;
    if (onHead_) onHead_(*outcome_.head);

    std::vector<char> chunk(64 * 1024);
    while (!parser.is_done()) {
      parser.get().body().data = chunk.data();
      parser.get().body().size = chunk.size();
      armIdle(stream);
      // read_some rather than read: an event stream must reach its reader as each event arrives.
      co_await http::async_read_some(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
      if (ec == http::error::need_buffer) ec = {};
      const std::size_t received = chunk.size() - parser.get().body().size;
      if (ec) co_return failFrom(ec, HttpFailure::protocol, "could not read the response of " + url.authority());
      if (received > 0 && onBody_ && !onBody_(std::string_view(chunk.data(), received))) co_return;
    }
  }

  const HttpRequest& request_;
  const HttpOptions& options_;
  const HttpHeadSink& onHead_;
  const HttpBodySink& onBody_;
  asio::io_context ioc_;
  asio::steady_timer deadline_{ioc_};
  tcp::resolver resolver_{ioc_};
  beast::tcp_stream tcp_{ioc_};
  std::unique_ptr<ssl::context> tlsContext_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls_;
  HttpFailure abortReason_ = HttpFailure::none;
  std::string abortMessage_;
  HttpOutcome outcome_;
};

} // namespace

} // namespace toold::core

// The module's entry point (web_module.h), forwarded to by httpExchange in toold.
extern "C" __attribute__((visibility("default"))) void
toold_http_exchange(const toold::core::HttpRequest& request, const toold::core::HttpOptions& options,
                    const toold::core::CancellationToken& cancel, const toold::core::HttpHeadSink& on_head,
                    const toold::core::HttpBodySink& on_body, toold::core::HttpOutcome& outcome) {
  toold::core::Exchange exchange(request, options, on_head, on_body);
  outcome = exchange.run(cancel);
}
