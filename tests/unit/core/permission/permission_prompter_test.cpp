#include "core/permission/permission_prompter.h"

#include <mutex>
#include <thread>

#include <catch2/catch.hpp>

using namespace toold::core;

namespace {

PermissionReply reply(const PromptAnswer& answer) {
  REQUIRE(std::holds_alternative<PermissionReply>(answer));
  return std::get<PermissionReply>(answer);
}

std::string problem(const PromptAnswer& answer) {
  REQUIRE(std::holds_alternative<std::string>(answer));
  return std::get<std::string>(answer);
}

} // namespace

TEST_CASE("permission prompter: permission/ask replies", "[permission_prompter]") {
  CHECK(reply(parsePermissionReply(json{{"reply", "once"}})).kind == PermissionReplyKind::Once);
  CHECK(reply(parsePermissionReply(json{{"reply", "always"}})).kind == PermissionReplyKind::Always);
  auto rejected = reply(parsePermissionReply(json{{"reply", "reject"}, {"message", "use rg instead"}}));
  CHECK(rejected.kind == PermissionReplyKind::Reject);
  CHECK(rejected.message == "use rg instead");
  CHECK(problem(parsePermissionReply(json{{"reply", "yes"}})) ==
        "the client's reply \"yes\" is not \"once\", \"always\" or \"reject\"");
  CHECK(problem(parsePermissionReply(json::object())).find("has no \"reply\"") != std::string::npos);
  CHECK(problem(parsePermissionReply(json())).find("has no \"reply\"") != std::string::npos);
}

TEST_CASE("permission prompter: elicitation replies", "[permission_prompter]") {
  auto accepted = [](json content) { return parseElicitationReply(json{{"action", "accept"}, {"content", content}}); };
  CHECK(reply(accepted(json{{"decision", "once"}})).kind == PermissionReplyKind::Once);
  CHECK(reply(accepted(json{{"decision", "always"}})).kind == PermissionReplyKind::Always);
  auto corrected = reply(accepted(json{{"decision", "reject"}, {"message", "not there"}}));
  CHECK(corrected.kind == PermissionReplyKind::Reject);
  CHECK(corrected.message == "not there");
  for (const char* action : {"decline", "cancel"}) {
    auto declined = reply(parseElicitationReply(json{{"action", action}}));
    CHECK(declined.kind == PermissionReplyKind::Reject);
    CHECK(declined.message.empty());
  }
  CHECK(problem(accepted(json{{"decision", "maybe"}})).find("no valid \"decision\"") != std::string::npos);
  // What hosts send besides the constant: the choice's title, another case, a one-element array.
  CHECK(reply(accepted(json{{"decision", "Allow once"}})).kind == PermissionReplyKind::Once);
  CHECK(reply(accepted(json{{"decision", " ALWAYS "}})).kind == PermissionReplyKind::Always);
  CHECK(reply(accepted(json{{"decision", "Allow always: every shell command"}})).kind == PermissionReplyKind::Always);
  CHECK(reply(accepted(json{{"decision", json::array({"reject"})}})).kind == PermissionReplyKind::Reject);
  CHECK(problem(parseElicitationReply(json{{"action", "accept"}})).find("no valid \"decision\"") != std::string::npos);
  CHECK(problem(parseElicitationReply(json{{"action", "ok"}})).find("\"ok\"") != std::string::npos);
}


namespace {

// A client that records toold's requests and lets the test answer them.
class FakeClient final : public ClientChannel {
public:
  explicit FakeClient(json capabilities) : capabilities_(std::move(capabilities)) {}
  struct Sent {
    std::string method;
    json params;
    std::function<void(ClientReply)> reply;
  };
  void request(std::string method, json params, CancellationToken, std::function<void(ClientReply)> onReply) override {
    std::lock_guard lock(mutex_);
    sent_.push_back({std::move(method), std::move(params), std::move(onReply)});
  }
  void notify(std::string, json) override {}
  json capabilities() const override { return capabilities_; }
  Sent sent(std::size_t i) {
    std::lock_guard lock(mutex_);
    REQUIRE(i < sent_.size());
    return sent_[i];
  }
  std::size_t count() {
    std::lock_guard lock(mutex_);
    return sent_.size();
  }

private:
  json capabilities_;
  std::mutex mutex_;
  std::vector<Sent> sent_;
};

json bashRequest() {
  return json{{"id", "per_1"},
              {"sessionID", "s1"},
              {"agent", "build"},
              {"tool", "bash"},
              {"action", "bash"},
              {"resources", {"git push origin main"}},
              {"save", {"git push *"}},
              {"metadata", {{"command", "git push origin main"}}},
              {"source", {{"type", "tool"}, {"messageID", "m1"}, {"callID", "toolu_01ABC"}}}};
}

// Asks once through `prompter` and returns what came back, after the client's answer `result`.
PromptAnswer askAndAnswer(PermissionPrompter& prompter, FakeClient& client, json result,
                          std::chrono::milliseconds delay = std::chrono::milliseconds(0)) {
  std::optional<PromptAnswer> got;
  const std::size_t before = client.count();
  prompter.ask(bashRequest(), CancellationToken{}, [&](PromptAnswer answer) { got = std::move(answer); });
  REQUIRE(client.count() == before + 1);
  if (delay.count() > 0) std::this_thread::sleep_for(delay);
  client.sent(before).reply(ClientReply{std::move(result), std::nullopt});
  REQUIRE(got.has_value());
  return *got;
}

} // namespace

TEST_CASE("permission prompter: the form offers titled oneOf choices, and says what always grants",
          "[permission_prompter]") {
  json params = elicitationParams(bashRequest());
  const std::string message = params["message"];
  CHECK(message.starts_with("Allow bash to run `git push origin main`?\nCall toolu_01ABC (session s1)\n"));
  CHECK(message.find("Command: git push origin main") != std::string::npos);
  CHECK(message.ends_with("\"Allow always\" allows the shell command `git push` with any arguments, from now on, "
                          "without asking again (saved for this workspace, kept after toold restarts)."));
  const json& decision = params["requestedSchema"]["properties"]["decision"];
  CHECK(decision["type"] == "string");
  CHECK_FALSE(decision.contains("enum"));
  CHECK_FALSE(decision.contains("enumNames"));
  CHECK(decision["oneOf"] == json::array({json{{"const", "once"}, {"title", "Allow once"}},
                                          json{{"const", "always"},
                                               {"title", "Allow always: the shell command `git push` with any arguments"}},
                                          json{{"const", "reject"}, {"title", "Reject"}}}));
  CHECK(params["requestedSchema"]["required"] == json{"decision"});
  CHECK(params["requestedSchema"]["properties"]["message"]["type"] == "string");
}

TEST_CASE("permission prompter: \"always\" in plain words, per action and pattern", "[permission_prompter]") {
  auto grants = [](std::string action, json save, bool literal = false) {
    json request{{"action", std::move(action)}, {"save", std::move(save)}};
    if (literal) request["literal"] = true;
    const std::string text = alwaysGrants(request);
    return text.substr(0, text.find(", from now on"));
  };
  CHECK(grants("edit", {"*"}) == "every file edit (edit, write, multiedit, apply_patch) anywhere in the workspace");
  CHECK(grants("bash", {"git push *", "npm test"}) ==
        "the shell command `git push` with any arguments; the shell command `npm test`");
  CHECK(grants("bash", {"make && rm *"}, true) == "the shell command exactly `make && rm *`");
  CHECK(grants("external_directory", {"/data/*"}) == "access outside the workspace to anything under /data/");
  CHECK(grants("doom_loop", {"bash"}) == "repeating identical bash calls (no more loop checks for it)");
  CHECK(grants("fs_write_file", {"*"}) == "every fs_write_file call, whatever its arguments");
  CHECK(grants("read", {"src/*.env"}) == "reading anything matching `src/*.env`");
  CHECK(alwaysGrants(json{{"action", "bash"}, {"save", json::array()}}) ==
        "nothing beyond this call (there is nothing to save)");
}

TEST_CASE("permission prompter: the form shows a bounded diff, a registered tool's bounded arguments",
          "[permission_prompter]") {
  std::string diff = "--- a/src/a.ts\n+++ b/src/a.ts\n";
  for (int i = 0; i < 500; ++i) diff += "+line " + std::to_string(i) + "\n";
  json edit{{"tool", "write"},        {"action", "edit"},     {"resources", {"src/a.ts"}}, {"save", {"*"}},
            {"sessionID", "mcp"},     {"source", {{"callID", "c1"}}},
            {"metadata", {{"filepath", "/w/src/a.ts"}, {"diff", diff}}}};
  const std::string message = elicitationParams(edit)["message"];
  CHECK(message.starts_with("Allow write to change src/a.ts?"));
  CHECK(message.find("Path: /w/src/a.ts") != std::string::npos);
  CHECK(message.find("Diff:\n--- a/src/a.ts\n+++ b/src/a.ts\n+line 0\n") != std::string::npos);
  CHECK(message.find("+line 37\n… (462 more lines") != std::string::npos); // 40 lines kept
  CHECK(message.find("+line 38") == std::string::npos);
  CHECK(message.find("every file edit (edit, write, multiedit, apply_patch)") != std::string::npos);
  CHECK(message.size() < 3000);

  json registered{{"tool", "fs_write_file"}, {"action", "fs_write_file"}, {"resources", {"*"}}, {"save", {"*"}},
                  {"metadata", {{"tool", "fs_write_file"}, {"input", {{"path", "x"}, {"content", std::string(5000, 'y')}}}}}};
  const std::string form = elicitationParams(registered)["message"];
  CHECK(form.starts_with("Allow fs_write_file with these arguments?"));
  const auto arguments = form.find("Arguments: {\"content\":\"yyy");
  REQUIRE(arguments != std::string::npos);
  CHECK(form.find("more bytes not shown", arguments) != std::string::npos);
  CHECK(form.size() < 2000);

  // A cut never splits a UTF-8 character, and says what it left out.
  CHECK(boundedForForm("ééé", 3, 10) == "é\n… (1 more line, 4 more bytes not shown)");
  CHECK(boundedForForm("a\nb\n", 10, 1) == "a\n… (1 more line, 2 more bytes not shown)");
  CHECK(boundedForForm("short", 10, 10) == "short");
}

TEST_CASE("permission prompter: a doom-loop form says the model repeated itself", "[permission_prompter]") {
  json loop{{"tool", "bash"}, {"action", "doom_loop"}, {"resources", {"bash"}}, {"save", {"bash"}},
            {"metadata", {{"tool", "bash"}, {"input", {{"command", "ls"}}}}}};
  const std::string message = elicitationParams(loop)["message"];
  CHECK(message.starts_with("The model is calling bash a third time in a row with the same input"));
  CHECK(message.find("Arguments: {\"command\":\"ls\"}") != std::string::npos);
}

TEST_CASE("ask route: a fast dismissal without content is no person's answer", "[permission_prompter]") {
  using std::chrono::milliseconds;
  CHECK(dismissedWithoutPerson(json{{"action", "cancel"}}, milliseconds(60)));
  CHECK(dismissedWithoutPerson(json{{"action", "decline"}}, milliseconds(0)));
  CHECK(dismissedWithoutPerson(json{{"action", "decline"}, {"content", json::object()}}, milliseconds(5)));
  CHECK_FALSE(dismissedWithoutPerson(json{{"action", "decline"}}, kFastestPersonAnswer));
  CHECK_FALSE(dismissedWithoutPerson(json{{"action", "cancel"}}, milliseconds(2000)));
  CHECK_FALSE(dismissedWithoutPerson(json{{"action", "decline"}, {"content", {{"message", "no"}}}}, milliseconds(5)));
  CHECK_FALSE(dismissedWithoutPerson(json{{"action", "accept"}, {"content", {{"decision", "once"}}}}, milliseconds(5)));

  AskRouter client(AskRoute::Client);
  CHECK_FALSE(client.judgeFormAnswer(json{{"action", "cancel"}}, milliseconds(1)).has_value());
  CHECK(client.decide(json{{"elicitation", json::object()}}).channel == AskChannel::Elicitation);

  AskRouter unattended(AskRoute::Unattended);
  CHECK(unattended.decide(json{{"permission", json::object()}}).channel == AskChannel::Unattended);
  CHECK(unattended.decide(json::object()).why.find("--asks unattended") != std::string::npos);

  AskRouter router(AskRoute::Auto);
  CHECK(router.decide(json{{"permission", json::object()}}).channel == AskChannel::Native);
  CHECK(router.decide(json{{"elicitation", {{"url", json::object()}}}}).channel == AskChannel::Unattended);
  CHECK_FALSE(router.judgeFormAnswer(json{{"action", "decline"}}, milliseconds(900)).has_value()); // a person's decline
  CHECK(router.decide(json{{"elicitation", json::object()}}).channel == AskChannel::Elicitation);
  auto why = router.judgeFormAnswer(json{{"action", "cancel"}}, milliseconds(61));
  REQUIRE(why);
  CHECK(*why == "the client answered the form with \"cancel\" after 61 ms, sooner than a person can read it, so "
                "no person saw it");
  // From then on, the connection's asks go to the unattended policy, saying why.
  auto after = router.decide(json{{"elicitation", json::object()}});
  CHECK(after.channel == AskChannel::Unattended);
  CHECK(after.why.find("answers permission forms without showing them to anyone") != std::string::npos);
}

TEST_CASE("permission prompter: auto sends a fast cancel to the unattended policy, for good", "[permission_prompter]") {
  auto client = std::make_shared<FakeClient>(json{{"elicitation", json::object()}});
  auto prompter = makeClientPermissionPrompter(client);
  CHECK(prompter->attended());
  // A person who reads the form and then declines it: a decline.
  auto slow = askAndAnswer(*prompter, *client, json{{"action", "decline"}}, kFastestPersonAnswer + std::chrono::milliseconds(50));
  REQUIRE(std::holds_alternative<PermissionReply>(slow));
  CHECK(std::get<PermissionReply>(slow).kind == PermissionReplyKind::Reject);
  CHECK(prompter->attended());
  CHECK(client->sent(0).method == "elicitation/create");
  // A host that cancels at once: no one answered, and no one will.
  auto fast = askAndAnswer(*prompter, *client, json{{"action", "cancel"}});
  REQUIRE(std::holds_alternative<NoOneAnswered>(fast));
  CHECK(std::get<NoOneAnswered>(fast).why.find("\"cancel\"") != std::string::npos);
  CHECK_FALSE(prompter->attended());
  CHECK(prompter->whyUnattended().find("without showing them to anyone") != std::string::npos);
}

TEST_CASE("permission prompter: --asks client keeps a fast cancel a decline", "[permission_prompter]") {
  auto client = std::make_shared<FakeClient>(json{{"elicitation", json::object()}});
  auto prompter = makeClientPermissionPrompter(client, AskRoute::Client);
  auto fast = askAndAnswer(*prompter, *client, json{{"action", "cancel"}});
  REQUIRE(std::holds_alternative<PermissionReply>(fast));
  CHECK(std::get<PermissionReply>(fast).kind == PermissionReplyKind::Reject);
  CHECK(prompter->attended());
  // A native client's reject is always the person's: no timing applies to permission/ask.
  auto native = std::make_shared<FakeClient>(json{{"permission", json::object()}});
  auto nativePrompter = makeClientPermissionPrompter(native);
  auto rejected = askAndAnswer(*nativePrompter, *native, json{{"reply", "reject"}});
  REQUIRE(std::holds_alternative<PermissionReply>(rejected));
  CHECK(native->sent(0).method == "permission/ask");
  CHECK(nativePrompter->attended());
}

TEST_CASE("permission prompter: a form the client answers with an error is no one's answer (auto only)",
          "[permission_prompter]") {
  auto reject = [](FakeClient& client, std::size_t i, std::string message) {
    client.sent(i).reply(ClientReply{std::nullopt, toold::protocol::RpcError{toold::protocol::ErrorCode::MethodNotFound,
                                                                             std::move(message), nullptr}});
  };
  auto client = std::make_shared<FakeClient>(json{{"elicitation", json::object()}});
  auto prompter = makeClientPermissionPrompter(client);
  std::optional<PromptAnswer> got;
  prompter->ask(bashRequest(), CancellationToken{}, [&](PromptAnswer answer) { got = std::move(answer); });
  reject(*client, 0, "Method not found: elicitation/create " + std::string(300, 'x'));
  REQUIRE(got.has_value());
  REQUIRE(std::holds_alternative<NoOneAnswered>(*got));
  const std::string why = std::get<NoOneAnswered>(*got).why;
  CHECK(why.starts_with("the client answered the form with the error \"Method not found: elicitation/create xxx"));
  CHECK(why.size() < 300); // the client's words are bounded
  CHECK_FALSE(prompter->attended());
  CHECK(prompter->whyUnattended().starts_with("the client cannot show permission forms"));

  auto kept = std::make_shared<FakeClient>(json{{"elicitation", json::object()}});
  auto clientRoute = makeClientPermissionPrompter(kept, AskRoute::Client);
  got.reset();
  clientRoute->ask(bashRequest(), CancellationToken{}, [&](PromptAnswer answer) { got = std::move(answer); });
  reject(*kept, 0, "Method not found");
  REQUIRE(got.has_value());
  CHECK(std::holds_alternative<std::string>(*got)); // could not be asked, as before
  CHECK(clientRoute->attended());
}
