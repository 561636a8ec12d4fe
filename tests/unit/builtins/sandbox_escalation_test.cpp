// When a failed command counts as stopped by the sandbox, the ask that follows, and the note a
// refusal gives the model.
#include "builtins/shell/sandbox_escalation.h"

#include <catch2/catch.hpp>

namespace builtins = toold::builtins;
namespace core = toold::core;

namespace {

builtins::ShellRunResult ended(int code, std::string output) {
  builtins::ShellRunResult result;
  result.outcome.status = core::ExitStatus{code, std::nullopt};
  result.text.text = std::move(output);
  return result;
}

} // namespace

TEST_CASE("sandbox escalation: a failure with a refusal in its output, and nothing else") {
  CHECK(builtins::looksStoppedBySandbox(ended(1, "cat: /x/secret: Permission denied\n")));
  CHECK(builtins::looksStoppedBySandbox(ended(2, "touch: cannot touch '.git/x': Read-only file system\n")));
  CHECK(builtins::looksStoppedBySandbox(ended(6, "curl: (6) Could not resolve host: example.com\n")));
  CHECK(builtins::looksStoppedBySandbox(ended(1, "PermissionError: [Errno 13] PERMISSION DENIED: 'x'\n")));
  // Succeeded despite the words, or failed for its own reasons: no ask.
  CHECK_FALSE(builtins::looksStoppedBySandbox(ended(0, "ls: cannot open directory '/root': Permission denied\n")));
  CHECK_FALSE(builtins::looksStoppedBySandbox(ended(2, "make: *** No rule to make target 'x'.  Stop.\n")));
  auto timedOut = ended(1, "Permission denied");
  timedOut.outcome.timedOut = true;
  CHECK_FALSE(builtins::looksStoppedBySandbox(timedOut));
  builtins::ShellRunResult killed;
  killed.outcome.status = core::ExitStatus{std::nullopt, 9};
  killed.text.text = "Permission denied";
  CHECK_FALSE(builtins::looksStoppedBySandbox(killed));
}

TEST_CASE("sandbox escalation: the ask is for the exact line, granted only by name") {
  const auto sandbox = core::CommandSandbox::off();
  const auto ask = builtins::sandboxEscalationAsk("make deploy", sandbox);
  CHECK(ask.action == "sandbox");
  CHECK(ask.resources == std::vector<std::string>{"make deploy"});
  CHECK(ask.save == std::vector<std::string>{"make deploy"});
  CHECK(ask.literalOnly);
  CHECK(ask.grantedOnlyByName);
}

TEST_CASE("sandbox escalation: a long refusal is cut in the note, on a whole character") {
  const auto sandbox = core::CommandSandbox::off();
  const std::string refusal = "denied: " + std::string(700, 'x') + "é tail";
  const auto note = builtins::sandboxRefusalNote(sandbox, refusal);
  CHECK(note.find("x…") != std::string::npos);
  CHECK(note.find(" tail") == std::string::npos);
  CHECK(note.find("Do not try to get around the sandbox") != std::string::npos);
  const std::string accented = std::string(599, 'y') + "é";
  const auto cut = builtins::sandboxRefusalNote(sandbox, accented + std::string(10, 'z'));
  CHECK(cut.find(std::string(599, 'y') + "…") != std::string::npos);
}
