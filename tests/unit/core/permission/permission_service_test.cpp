#include "core/permission/permission_service.h"
#include "core/tools/permission_guard.h"
#include "tests/support/temp_dir.h"

#include <boost/asio/executor_work_guard.hpp>
#include <catch2/catch.hpp>

#include <condition_variable>
#include <future>
#include <thread>

using namespace toold::core;
namespace fs = std::filesystem;
using Kind = PermissionVerdict::Kind;

namespace {

// Records every question and lets the test answer it.
class FakePrompter final : public PermissionPrompter {
public:
  struct Question {
    json request;
    CancellationToken withdrawn;
    std::function<void(PromptAnswer)> answer;
  };

  bool attended() const override { return attended_; }

  void ask(const json& request, CancellationToken cancellation, std::function<void(PromptAnswer)> answered) override {
    std::lock_guard lock(mutex_);
    questions_.push_back({request, std::move(cancellation), std::move(answered)});
  }

  Question question(std::size_t i) {
    std::lock_guard lock(mutex_);
    REQUIRE(i < questions_.size());
    return questions_[i];
  }
  std::size_t count() {
    std::lock_guard lock(mutex_);
    return questions_.size();
  }

  bool attended_ = true;

private:
  std::mutex mutex_;
  std::vector<Question> questions_;
};

// A verdict that arrives later, on any thread.
struct Outcome {
  std::promise<PermissionVerdict> promise;
  std::future<PermissionVerdict> future = promise.get_future();
  std::function<void(PermissionVerdict)> callback() {
    return [this](PermissionVerdict verdict) { promise.set_value(std::move(verdict)); };
  }
  bool ready() { return future.wait_for(std::chrono::milliseconds(0)) == std::future_status::ready; }
  PermissionVerdict get() {
    REQUIRE(future.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    return future.get();
  }
};

struct Fixture {
  toold::testing::TempDir data{"permission_service_test"};
  Location location{"/work/project", data.path(), {}};
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work = boost::asio::make_work_guard(io);
  std::thread loop{[this] { io.run(); }};
  std::shared_ptr<FakePrompter> prompter = std::make_shared<FakePrompter>();

  ~Fixture() {
    work.reset();
    io.stop();
    loop.join();
  }

  std::unique_ptr<PermissionService> service(PermissionConfig config = {}, PermissionOptions options = {}) {
    return std::make_unique<PermissionService>(io, location, std::move(config), options, prompter);
  }
};

PermissionCaller caller(std::string session = "s1", std::string call = "c1", CancellationToken token = {}) {
  return PermissionCaller{std::move(session), "build", "m1", std::move(call), nullptr, std::move(token), "bash"};
}

PermissionConfig askBash() {
  PermissionConfig config;
  config.file = "toold.json";
  config.rules = {{"bash", "*", PermissionEffect::Ask, "toold.json:3"}, {"bash", "rm *", PermissionEffect::Deny, "toold.json:4"}};
  return config;
}

PermissionAsk bash(std::string command, std::string save = "") {
  return PermissionAsk{"bash", {std::move(command)}, save.empty() ? std::vector<std::string>{} : std::vector{save}, {}};
}

} // namespace

TEST_CASE("permission service: rules decide without asking", "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  Outcome allowed, denied;
  service->check(PermissionAsk{"read", {"src/a.ts"}, {}, {}}, caller(), allowed.callback());
  CHECK(allowed.get().kind == Kind::Granted);
  service->check(bash("rm -rf build"), caller(), denied.callback());
  auto verdict = denied.get();
  CHECK(verdict.kind == Kind::Failed);
  CHECK(verdict.message ==
        "Permission denied: the rule {\"action\":\"bash\",\"effect\":\"deny\",\"resource\":\"rm *\"} (toold.json:4) "
        "forbids bash on \"rm -rf build\". Do not retry this call.");
  CHECK(f.prompter->count() == 0);
  CHECK(service->pendingAsks(std::nullopt).size() == 0);
}

TEST_CASE("permission service: an ask goes to the client with its source, and once allows it", "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  Outcome outcome;
  service->check(PermissionAsk{"bash", {"git push"}, {"git push *"}, json{{"command", "git push"}}},
                 caller("s1", "c7"), outcome.callback());
  REQUIRE(f.prompter->count() == 1);
  auto question = f.prompter->question(0);
  CHECK(question.request ==
        json{{"id", "per_1"},
             {"sessionID", "s1"},
             {"agent", "build"},
             {"tool", "bash"},
             {"action", "bash"},
             {"resources", {"git push"}},
             {"save", {"git push *"}},
             {"metadata", {{"command", "git push"}}},
             {"source", {{"type", "tool"}, {"messageID", "m1"}, {"callID", "c7"}}},
             {"always", "the shell command `git push` with any arguments, from now on, without asking again (saved "
                        "for this workspace, kept after toold restarts)"}});
  CHECK(service->pendingAsks(std::nullopt).size() == 1);
  CHECK_FALSE(outcome.ready());
  question.answer(PermissionReply{PermissionReplyKind::Once, {}});
  CHECK(outcome.get().kind == Kind::Granted);
  CHECK(service->pendingAsks(std::nullopt).size() == 0);
  // Once is not remembered.
  Outcome again;
  service->check(bash("git push"), caller(), again.callback());
  CHECK(f.prompter->count() == 2);
  f.prompter->question(1).answer(PermissionReply{PermissionReplyKind::Once, {}});
  CHECK(again.get().granted());
}

TEST_CASE("permission service: always saves the patterns, resolves what they now allow, and persists",
          "[permission_service]") {
  Fixture f;
  {
    auto service = f.service(askBash());
    Outcome first, covered, otherSession, notCovered;
    service->check(bash("git log -3", "git log *"), caller("s1", "c1"), first.callback());
    service->check(bash("git log --oneline"), caller("s1", "c2"), covered.callback());
    service->check(bash("git log"), caller("s2", "c3"), otherSession.callback());
    service->check(bash("git status"), caller("s1", "c4"), notCovered.callback());
    REQUIRE(f.prompter->count() == 4);
    f.prompter->question(0).answer(PermissionReply{PermissionReplyKind::Always, {}});
    CHECK(first.get().granted());
    CHECK(covered.get().granted());
    CHECK(otherSession.get().granted()); // approvals belong to the Location, not the session
    CHECK(f.prompter->question(1).withdrawn.isCancelled());
    CHECK(f.prompter->question(2).withdrawn.isCancelled());
    CHECK_FALSE(notCovered.ready());
    CHECK_FALSE(f.prompter->question(3).withdrawn.isCancelled());
    CHECK(service->pendingAsks(std::nullopt).size() == 1);
    f.prompter->question(3).answer(PermissionReply{PermissionReplyKind::Once, {}});
    CHECK(notCovered.get().granted());
  }
  // A new service (a restart) finds the approval; a configured deny still wins over it.
  auto service = f.service(askBash());
  Outcome later, denied;
  service->check(bash("git log -p"), caller(), later.callback());
  CHECK(later.get().granted());
  service->check(bash("rm -rf x"), caller(), denied.callback());
  CHECK(denied.get().kind == Kind::Failed);
  CHECK(f.prompter->count() == 4);
}

TEST_CASE("permission service: a plain reject declines this ask and every other of its session",
          "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  Outcome rejected, sameSession, otherSession;
  service->check(bash("git push"), caller("s1", "c1"), rejected.callback());
  service->check(bash("make"), caller("s1", "c2"), sameSession.callback());
  service->check(bash("make"), caller("s2", "c3"), otherSession.callback());
  f.prompter->question(0).answer(PermissionReply{PermissionReplyKind::Reject, {}});
  auto verdict = rejected.get();
  CHECK(verdict.kind == Kind::Declined);
  CHECK(verdict.message == "The user rejected permission to use this specific tool call.");
  CHECK(std::holds_alternative<ToolDeclined>(refusalOf(verdict)));
  CHECK(sameSession.get().kind == Kind::Declined);
  CHECK(f.prompter->question(1).withdrawn.isCancelled());
  CHECK_FALSE(otherSession.ready());
  CHECK(service->pendingAsks(std::nullopt).size() == 1);
  f.prompter->question(2).answer(PermissionReply{PermissionReplyKind::Once, {}});
  CHECK(otherSession.get().granted());
}

TEST_CASE("permission service: a reject with a message is feedback for the model", "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  Outcome outcome;
  service->check(bash("npm install"), caller(), outcome.callback());
  f.prompter->question(0).answer(PermissionReply{PermissionReplyKind::Reject, "use pnpm"});
  auto verdict = outcome.get();
  CHECK(verdict.kind == Kind::Failed);
  CHECK(verdict.message ==
        "The user rejected permission to use this specific tool call with the following feedback: use pnpm");
  CHECK(std::holds_alternative<ToolFailure>(refusalOf(verdict)));
}

TEST_CASE("permission service: unattended, the policy decides and no one is asked", "[permission_service]") {
  Fixture f;
  f.prompter->attended_ = false;
  auto denying = f.service(askBash());
  Outcome denied;
  denying->check(bash("git push"), caller(), denied.callback());
  auto verdict = denied.get();
  CHECK(verdict.kind == Kind::Failed);
  CHECK(verdict.message.starts_with("Permission required and not granted: bash on \"git push\" needs approval, and no "
                                    "one could answer the permission request (the client cannot answer permission "
                                    "requests), so toold's unattended policy denied it. Do not retry this call"));
  CHECK(verdict.message.find("--unattended allow") != std::string::npos);
  PermissionOptions allow;
  allow.unattended = UnattendedPolicy::Allow;
  auto allowing = f.service(askBash(), allow);
  Outcome allowed, stillDenied;
  allowing->check(bash("git push"), caller(), allowed.callback());
  CHECK(allowed.get().granted());
  allowing->check(bash("rm -rf /"), caller(), stillDenied.callback()); // a configured deny stays a deny
  CHECK(stillDenied.get().kind == Kind::Failed);
  CHECK(f.prompter->count() == 0);
}

TEST_CASE("permission service: an unanswered ask times out and is withdrawn", "[permission_service]") {
  Fixture f;
  PermissionOptions options;
  options.timeout = std::chrono::milliseconds(50);
  auto service = f.service(askBash(), options);
  Outcome outcome;
  service->check(bash("git push"), caller(), outcome.callback());
  auto verdict = outcome.get();
  CHECK(verdict.kind == Kind::Failed);
  CHECK(verdict.message.find("no answer came within 50 ms") != std::string::npos);
  CHECK(f.prompter->question(0).withdrawn.isCancelled());
  // A late answer changes nothing.
  f.prompter->question(0).answer(PermissionReply{PermissionReplyKind::Always, {}});
  CHECK(service->pendingAsks(std::nullopt).size() == 0);
}

TEST_CASE("permission service: reminders repeat while an ask waits, and do not end it", "[permission_service]") {
  Fixture f;
  PermissionOptions options;
  options.reminder = std::chrono::milliseconds(5);
  auto service = f.service(askBash(), options);
  Outcome outcome;
  service->check(bash("git push"), caller(), outcome.callback());
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  CHECK_FALSE(outcome.ready());
  CHECK(service->pendingAsks(std::nullopt).size() == 1);
  f.prompter->question(0).answer(PermissionReply{PermissionReplyKind::Once, {}});
  CHECK(outcome.get().granted());
}

TEST_CASE("permission service: cancelling the call withdraws its ask", "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  CancellationSource call;
  Outcome outcome;
  service->check(bash("git push"), caller("s1", "c1", call.token()), outcome.callback());
  call.cancel();
  CHECK(outcome.get().kind == Kind::Failed);
  CHECK(f.prompter->question(0).withdrawn.isCancelled());
  CHECK(service->pendingAsks(std::nullopt).size() == 0);
  // Already cancelled: nothing is asked at all.
  Outcome late;
  service->check(bash("git push"), caller("s1", "c2", call.token()), late.callback());
  CHECK(late.get().kind == Kind::Failed);
  CHECK(f.prompter->count() == 1);
}

TEST_CASE("permission service: a client that cannot answer fails the ask", "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  Outcome outcome;
  service->check(bash("git push"), caller(), outcome.callback());
  f.prompter->question(0).answer(std::string("the client answered with an error: Method not found"));
  auto verdict = outcome.get();
  CHECK(verdict.kind == Kind::Failed);
  CHECK(verdict.message.find("could not be asked (the client answered with an error: Method not found)") !=
        std::string::npos);
}

TEST_CASE("permission service: shutdown declines what waits", "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  Outcome waiting, after;
  service->check(bash("git push"), caller(), waiting.callback());
  service->shutdown();
  CHECK(waiting.get().kind == Kind::Declined);
  service->check(bash("git push"), caller(), after.callback());
  CHECK(after.get().kind == Kind::Declined);
}

TEST_CASE("permission service: agent sections and snapshot rules apply to their calls only", "[permission_service]") {
  Fixture f;
  PermissionConfig config;
  config.agents["plan"] = {{"edit", "*", PermissionEffect::Deny, "toold.json:9"}};
  auto service = f.service(config);
  Outcome build, plan, snapshot;
  service->check(PermissionAsk{"edit", {"a.ts"}, {}, {}}, caller(), build.callback());
  CHECK(build.get().granted());
  auto planner = caller();
  planner.agent = "plan";
  service->check(PermissionAsk{"edit", {"a.ts"}, {}, {}}, planner, plan.callback());
  CHECK(plan.get().kind == Kind::Failed);
  auto restricted = caller();
  restricted.snapshotRules = std::make_shared<Ruleset>(Ruleset{{"edit", "*.lock", PermissionEffect::Deny, "snapshot rules"}});
  service->check(PermissionAsk{"edit", {"a.ts", "yarn.lock"}, {}, {}}, restricted, snapshot.callback());
  auto verdict = snapshot.get();
  CHECK(verdict.kind == Kind::Failed);
  CHECK(verdict.message.find("(snapshot rules)") != std::string::npos);
}

TEST_CASE("permission service: waiting asks are listed oldest first, per session", "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  Outcome first, second;
  service->check(bash("make"), caller("s1", "c1"), first.callback());
  service->check(bash("make test"), caller("s2", "c2"), second.callback());
  auto all = service->pendingAsks(std::nullopt);
  REQUIRE(all.size() == 2);
  CHECK(all[0] == f.prompter->question(0).request);
  CHECK(all[1] == f.prompter->question(1).request);
  auto s2 = service->pendingAsks(std::string("s2"));
  REQUIRE(s2.size() == 1);
  CHECK(s2[0]["source"]["callID"] == "c2");
  f.prompter->question(0).answer(PermissionReply{PermissionReplyKind::Once, {}});
  f.prompter->question(1).answer(PermissionReply{PermissionReplyKind::Once, {}});
  CHECK(first.get().granted());
  CHECK(second.get().granted());
  CHECK(service->pendingAsks(std::nullopt).empty());
}

TEST_CASE("permission service: a revoked approval asks again", "[permission_service]") {
  Fixture f;
  auto service = f.service(askBash());
  Outcome saved, covered, revoked;
  service->check(bash("git log -3", "git log *"), caller(), saved.callback());
  f.prompter->question(0).answer(PermissionReply{PermissionReplyKind::Always, {}});
  CHECK(saved.get().granted());
  REQUIRE(service->savedApprovals().size() == 1);
  CHECK(service->savedApprovals()[0].resource == "git log *");
  service->check(bash("git log"), caller(), covered.callback());
  CHECK(covered.get().granted());
  CHECK(service->revokeApproval("bash", "git log *"));
  CHECK_FALSE(service->revokeApproval("bash", "git log *"));
  CHECK(service->savedApprovals().empty());
  service->check(bash("git log"), caller(), revoked.callback());
  REQUIRE(f.prompter->count() == 2);
  f.prompter->question(1).answer(PermissionReply{PermissionReplyKind::Once, {}});
  CHECK(revoked.get().granted());
}

TEST_CASE("permission service: a form no one could answer is decided by the unattended policy, truthfully",
          "[permission_service]") {
  Fixture f;
  auto denying = f.service(askBash());
  Outcome denied;
  denying->check(bash("git push", "git push *"), caller(), denied.callback());
  f.prompter->question(0).answer(NoOneAnswered{"the client answered the form with \"cancel\" after 60 ms"});
  auto verdict = denied.get();
  CHECK(verdict.kind == Kind::Failed); // not a decline: the model reads why
  CHECK(verdict.message ==
        "Permission required and not granted: bash on \"git push\" needs approval, and no one could answer the "
        "permission request (the client answered the form with \"cancel\" after 60 ms), so toold's unattended "
        "policy denied it. Do not retry this call: it would be refused the same way. The user can allow such calls "
        "with a permission rule in toold.json (for example {\"permission\":{\"bash\":{\"git push *\":\"allow\"}}}) "
        "or by starting toold with --unattended allow; continue without it or tell the user what you need.");
  CHECK(verdict.message.find("rejected") == std::string::npos);

  PermissionOptions allow;
  allow.unattended = UnattendedPolicy::Allow;
  auto allowing = f.service(askBash(), allow);
  Outcome allowed;
  allowing->check(bash("git push"), caller(), allowed.callback());
  f.prompter->question(1).answer(NoOneAnswered{"the client answered the form with \"decline\" after 0 ms"});
  CHECK(allowed.get().granted());
  CHECK(allowing->pendingAsks(std::nullopt).empty());
}
