// How a client's permission asks are answered: through the client (`permission/ask`, or an MCP
// `elicitation/create` form), or by toold's unattended policy. `auto` asks the client when it
// declared a way to answer, and notices a host that answers forms with no person behind it: a
// headless `claude -p` cancels toold's form in tens of milliseconds, `codex exec` declines it at
// once. Such a dismissal is not a person's "no" but no answer at all, so that ask goes to the
// unattended policy, and so does every later ask of the connection (waiting for the next form
// would be the same non-answer). A form dismissed slowly, or with content, stays a person's decline.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

enum class AskRoute {
  Auto,       ///< the client when it can answer, until it shows it answers without a person
  Client,     ///< always the client when it declared a way to answer (a fast dismissal is a decline)
  Unattended, ///< never the client: the unattended policy decides every ask
};

std::optional<AskRoute> parseAskRoute(std::string_view name);
std::string_view askRouteName(AskRoute route);

/// No person reads a permission form and dismisses it sooner than this after it was sent: the
/// form has to reach the screen, be read and be answered. Headless hosts answer within tens of
/// milliseconds; a person's quickest deliberate dismissal takes several hundred.
inline constexpr std::chrono::milliseconds kFastestPersonAnswer{300};

/// True when an `elicitation/create` result is a dismissal no person could have given: `decline`
/// or `cancel` without content, answered within kFastestPersonAnswer.
bool dismissedWithoutPerson(const nlohmann::json& result, std::chrono::milliseconds elapsed);

/// How one ask reaches an answer.
enum class AskChannel { Native, Elicitation, Unattended };

struct AskDecision {
  AskChannel channel = AskChannel::Unattended;
  /// For the unattended channel: why no one can answer, in words for the model.
  std::string why;
};

/// One connection's choice of channel, with the memory of a client found answering headless.
/// Thread-safe: asks are made and answered on any thread.
class AskRouter {
public:
  explicit AskRouter(AskRoute route) : route_(route) {}

  AskRoute route() const { return route_; }

  /// The channel for the next ask, given the capabilities the client declared in `initialize`.
  AskDecision decide(const nlohmann::json& capabilities) const;

  /// Judges an `elicitation/create` answer that took `elapsed`. With the auto route, a dismissal
  /// no person could have given returns why no one answered (for the model), and sends every
  /// later ask of the connection to the unattended policy (logged once). Otherwise nullopt: the
  /// answer is the person's.
  std::optional<std::string> judgeFormAnswer(const nlohmann::json& result, std::chrono::milliseconds elapsed);

  /// Judges an error answer to `elicitation/create` (the host cannot show forms after all: "method
  /// not found", "not supported"). No person could have given it either: with the auto route,
  /// returns why no one answered, and sends every later ask to the unattended policy.
  std::optional<std::string> judgeFormError(const std::string& error);

private:
  const AskRoute route_;
  mutable std::mutex mutex_;
  std::string headless_; ///< why the client was found answering headless; empty until then

  void rememberHeadless(std::string why, const std::string& logged);
};

} // namespace toold::core
