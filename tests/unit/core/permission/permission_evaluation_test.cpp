#include "core/permission/permission_defaults.h"
#include "core/permission/permission_evaluation.h"

#include <catch2/catch.hpp>

#include <array>

using namespace toold::core;

namespace {

constexpr auto allow = PermissionEffect::Allow;
constexpr auto deny = PermissionEffect::Deny;
constexpr auto ask = PermissionEffect::Ask;

PermissionEffect effectOf(const Ruleset& rules, std::string_view action, std::string_view resource) {
  const std::array<const Ruleset*, 1> layers{&rules};
  return lastMatchingRule(action, resource, layers).effect;
}

} // namespace

TEST_CASE("permission evaluation: the last matching rule wins, in both directions", "[permission_evaluation]") {
  const Ruleset allowThenDeny{{"bash", "git *", allow, "a"}, {"bash", "*", deny, "b"}};
  CHECK(effectOf(allowThenDeny, "bash", "git status") == deny);
  const Ruleset denyThenAllow{{"bash", "*", deny, "a"}, {"bash", "git *", allow, "b"}};
  CHECK(effectOf(denyThenAllow, "bash", "git status") == allow);
  CHECK(effectOf(denyThenAllow, "bash", "rm -rf /") == deny);
  // No specificity sorting: a later general rule beats an earlier exact one.
  const Ruleset exactThenGeneral{{"read", "src/a.ts", allow, "a"}, {"read", "*", ask, "b"}};
  CHECK(effectOf(exactThenGeneral, "read", "src/a.ts") == ask);
}

TEST_CASE("permission evaluation: no match, unknown actions and empty rules ask", "[permission_evaluation]") {
  CHECK(effectOf({}, "read", "a") == ask);
  const Ruleset readOnly{{"read", "*", allow, "a"}};
  CHECK(effectOf(readOnly, "edit", "a") == ask);
  const std::array<const Ruleset*, 1> layers{&readOnly};
  CHECK(lastMatchingRule("edit", "a", layers).rule == nullptr);
  CHECK(lastMatchingRule("read", "a", layers).rule == &readOnly[0]);
}

TEST_CASE("permission evaluation: action patterns are wildcards too", "[permission_evaluation]") {
  const Ruleset rules{{"*", "*", deny, "a"}, {"mcp_*", "*", allow, "b"}, {"read", "*.env", ask, "c"}};
  CHECK(effectOf(rules, "mcp_fetch", "x") == allow);
  CHECK(effectOf(rules, "fetch", "x") == deny);
  CHECK(effectOf(rules, "read", "config/.env") == ask);
  CHECK(effectOf(rules, "read", "config/env") == deny);
}

TEST_CASE("permission evaluation: later layers override earlier ones", "[permission_evaluation]") {
  const Ruleset defaults{{"*", "*", allow, "defaults"}, {"external_directory", "*", ask, "defaults"}};
  const Ruleset config{{"bash", "*", ask, "config"}};
  const Ruleset agent{{"bash", "ls *", allow, "agent"}};
  const std::array<const Ruleset*, 3> layers{&defaults, &config, &agent};
  CHECK(lastMatchingRule("bash", "ls -la", layers).effect == allow);
  CHECK(lastMatchingRule("bash", "ls -la", layers).rule->source == "agent");
  CHECK(lastMatchingRule("bash", "rm x", layers).effect == ask);
  CHECK(lastMatchingRule("read", "x", layers).effect == allow);
  // A missing layer (no agent section) is skipped.
  const std::array<const Ruleset*, 3> withGap{&defaults, nullptr, &config};
  CHECK(lastMatchingRule("bash", "x", withGap).effect == ask);
}

TEST_CASE("permission judgement: deny if any resource is denied, else ask if any asks", "[permission_evaluation]") {
  const Ruleset rules{{"*", "*", allow, "d"}, {"read", "*.env", ask, "c"}, {"read", "secret/*", deny, "c"}};
  const std::array<const Ruleset*, 1> configured{&rules};
  const Ruleset saved;
  auto judge = [&](std::vector<std::string> resources) {
    return judgeAsk(PermissionAsk{"read", std::move(resources), {}, {}}, configured, saved);
  };
  CHECK(judge({"a", "b"}).effect == allow);
  auto asked = judge({"a", ".env", "b"});
  CHECK(asked.effect == ask);
  CHECK(asked.resource == ".env");
  // A later deny still denies even after an earlier resource needed asking.
  auto denied = judge({".env", "secret/key"});
  CHECK(denied.effect == deny);
  CHECK(denied.resource == "secret/key");
  CHECK(denied.rule == &rules[2]);
  // No resources means every resource.
  CHECK(judgeAsk(PermissionAsk{"read", {}, {}, {}}, configured, saved).resource == "*");
}

TEST_CASE("permission judgement: a saved approval overrides ask but never a configured deny",
          "[permission_evaluation]") {
  const Ruleset config{{"*", "*", allow, "d"}, {"bash", "*", ask, "c"}, {"bash", "rm *", deny, "c"}};
  const std::array<const Ruleset*, 1> configured{&config};
  const Ruleset saved{{"bash", "*", allow, "saved approval"}};
  CHECK(judgeAsk(PermissionAsk{"bash", {"pwd"}, {}, {}}, configured, saved).effect == allow);
  auto denied = judgeAsk(PermissionAsk{"bash", {"rm -rf x"}, {}, {}}, configured, saved);
  CHECK(denied.effect == deny);
  CHECK(denied.rule->source == "c");
  CHECK(judgeAsk(PermissionAsk{"bash", {"pwd"}, {}, {}}, configured, Ruleset{}).effect == ask);
}

TEST_CASE("permission evaluation: only a last deny on * hides a tool", "[permission_evaluation]") {
  auto hidden = [](std::string_view action, const Ruleset& rules) {
    const std::array<const Ruleset*, 1> layers{&rules};
    return whollyDenied(action, layers);
  };
  CHECK_FALSE(hidden("question", {}));
  const Ruleset denyQuestion{{"question", "*", deny, ""}};
  CHECK(hidden("question", denyQuestion));
  CHECK_FALSE(hidden("edit", denyQuestion));
  const Ruleset allButPrivateQuestion{{"*", "*", deny, ""}, {"question", "private", allow, ""}};
  CHECK(hidden("edit", allButPrivateQuestion));
  CHECK_FALSE(hidden("question", allButPrivateQuestion));
  const Ruleset denyLast{{"question", "private", allow, ""}, {"*", "*", deny, ""}};
  CHECK(hidden("question", denyLast));
  CHECK_FALSE(hidden("read", Ruleset{{"read", "secret/*", deny, ""}}));
  CHECK_FALSE(hidden("bash", Ruleset{{"bash", "*", ask, ""}}));
  const Ruleset wildcardAction{{"mcp_*", "*", deny, ""}};
  CHECK(hidden("mcp_fetch", wildcardAction));
  CHECK_FALSE(hidden("fetch", wildcardAction));
  // Across layers: an agent's allow after the config's deny shows the tool again.
  const Ruleset config{{"edit", "*", deny, ""}};
  const Ruleset agent{{"edit", "docs/*", allow, ""}};
  const std::array<const Ruleset*, 2> layers{&config, &agent};
  CHECK_FALSE(whollyDenied("edit", layers));
}

TEST_CASE("permission defaults: secrets and external directories ask, templates and tool output do not",
          "[permission_evaluation]") {
  const Ruleset defaults = defaultPermissionRules("/data/tool-output");
  CHECK(effectOf(defaults, "read", "src/a.ts") == allow);
  CHECK(effectOf(defaults, "read", ".env") == ask);
  CHECK(effectOf(defaults, "read", "config/.env.local") == ask);
  CHECK(effectOf(defaults, "read", ".env.example") == allow);
  CHECK(effectOf(defaults, "read", "app/.env.sample") == allow);
  CHECK(effectOf(defaults, "external_directory", "/etc/*") == ask);
  CHECK(effectOf(defaults, "external_directory", "/data/tool-output/*") == allow);
  CHECK(effectOf(defaults, "doom_loop", "read") == ask);
  CHECK(effectOf(defaults, "bash", "rm -rf /") == allow);
}

TEST_CASE("permission judgement: a literal-only ask is allowed only by * or its exact saved text",
          "[permission_evaluation]") {
  const std::string line = "git status '";
  const Ruleset config{{"*", "*", allow, "d"}, {"bash", "*", ask, "c"}, {"bash", "git *", allow, "c"}};
  const std::array<const Ruleset*, 1> configured{&config};
  auto literalAsk = PermissionAsk{"bash", {line}, {line}, {}, /*literalOnly=*/true};
  // The prefix rule that allows `git status` does not allow the line toold could not read...
  CHECK(judgeAsk(PermissionAsk{"bash", {"git status"}, {}, {}}, configured, Ruleset{}).effect == allow);
  CHECK(judgeAsk(literalAsk, configured, Ruleset{}).effect == ask);
  // ...an allow-everything rule does...
  const Ruleset everything{{"bash", "*", allow, "c"}};
  const std::array<const Ruleset*, 1> allowAll{&everything};
  CHECK(judgeAsk(literalAsk, allowAll, Ruleset{}).effect == allow);
  // ...and so does an "always" saved for exactly this line, as a literal rule.
  const Ruleset saved{{"bash", line, allow, "saved approval", /*literal=*/true}};
  CHECK(judgeAsk(literalAsk, configured, saved).effect == allow);
  CHECK(judgeAsk(PermissionAsk{"bash", {line + " x"}, {}, {}, true}, configured, saved).effect == ask);
  // Deny rules apply to it as to any ask.
  const Ruleset denyGit{{"bash", "*", allow, "c"}, {"bash", "git *", deny, "c"}};
  const std::array<const Ruleset*, 1> denying{&denyGit};
  CHECK(judgeAsk(literalAsk, denying, Ruleset{}).effect == PermissionEffect::Deny);
}

TEST_CASE("permission evaluation: a literal rule is exact text, its wildcards are plain characters",
          "[permission_evaluation]") {
  const Ruleset rules{{"bash", "rm *", allow, "saved approval", /*literal=*/true}};
  CHECK(effectOf(rules, "bash", "rm *") == allow);
  CHECK(effectOf(rules, "bash", "rm -rf /") == ask);
  CHECK(effectOf(rules, "bash", "rm") == ask);
}
