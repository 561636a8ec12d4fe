// $/test/sleep, $/test/echo, $/test/fail, $/test/dropReply, $/test/ask and $/test/threads.
#include "daemon/testing/test_methods.h"

#include "daemon/server.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <filesystem>
#include <memory>
#include <stdexcept>

namespace toold::daemon {

namespace asio = boost::asio;

void bindTestMethods(Server& server) {
  MethodTable& methods = server.methods();

  // {ms}: answers {slept: ms} after ms milliseconds, or -32800 when cancelled first.
  methods.request("$/test/sleep", [&server](json&& params, const RequestContext& context, Reply reply) {
    if (!params.is_object() || !params.contains("ms") || !params["ms"].is_number_unsigned())
      throw InvalidParams("ms: must be a non-negative integer");
    const auto ms = params["ms"].get<std::uint64_t>();
    // The timer lives on its own strand so that a cancellation from another thread is safe.
    auto strand = asio::make_strand(server.io());
    auto timer = std::make_shared<asio::steady_timer>(strand, std::chrono::milliseconds(ms));
    auto registration = std::make_shared<core::CancellationRegistration>(
        context.cancellation.onCancel([strand, timer] { asio::post(strand, [timer] { timer->cancel(); }); }));
    timer->async_wait([timer, registration, reply, ms](const boost::system::error_code& ec) {
      if (!ec) reply(json{{"slept", ms}});
      // When cancelled, the server has answered -32800 already.
    });
  });

  methods.request("$/test/echo", [](json&& params, const RequestContext&, Reply reply) { reply(std::move(params)); });

  // {count, text: "N threads"}: how many threads toold runs now (/proc/self/task), for the tests
  // that check which start only when needed.
  methods.request("$/test/threads", [](json&&, const RequestContext&, Reply reply) {
    std::error_code ec;
    std::size_t count = 0;
    for (std::filesystem::directory_iterator it("/proc/self/task", ec), end; !ec && it != end; it.increment(ec)) ++count;
    reply(json{{"count", count}, {"text", std::to_string(count) + " threads"}});
  });

  // A defect: the handler throws; answered -32603 and logged.
  methods.request("$/test/fail", [](json&& params, const RequestContext&, Reply) {
    std::string message = "deliberate failure";
    if (params.is_object() && params.contains("message") && params["message"].is_string())
      message = params["message"].get<std::string>();
    throw std::runtime_error(message);
  });

  // A defect: the handler drops its reply; the reply's last copy answers -32603.
  methods.request("$/test/dropReply", [](json&&, const RequestContext&, Reply) {});

  // {method, params?}: sends that request to the client and answers {result} or {error} with its reply.
  methods.request("$/test/ask", [&server](json&& params, const RequestContext&, Reply reply) {
    if (!params.is_object() || !params.contains("method") || !params["method"].is_string())
      throw InvalidParams("method: must be a string");
    json forwarded = params.contains("params") ? params["params"] : json();
    server.callClient(params["method"].get<std::string>(), std::move(forwarded),
                      [reply](protocol::Response&& response) {
                        if (response.result) return reply(json{{"result", std::move(*response.result)}});
                        reply(json{{"error", *response.error}});
                      });
  });
}

} // namespace toold::daemon
