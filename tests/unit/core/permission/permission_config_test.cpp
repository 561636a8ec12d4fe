#include "core/permission/permission_config.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using toold::core::AskRoute;
using toold::core::ConfigError;
using toold::core::loadPermissionConfig;
using toold::core::parsePermissionConfig;
using toold::core::PermissionConfig;
using toold::core::PermissionEffect;
using toold::core::PermissionRule;
using toold::core::Ruleset;
using toold::testing::TempDir;

namespace {

constexpr PermissionEffect kAllow = PermissionEffect::Allow;
constexpr PermissionEffect kDeny = PermissionEffect::Deny;
constexpr PermissionEffect kAsk = PermissionEffect::Ask;

PermissionConfig parse(const std::string& text) { return parsePermissionConfig(text, "toold.json", "/home/tester"); }

/// The message parse() refuses `text` with; "" when it does not.
std::string errorOf(const std::string& text) {
  try {
    parse(text);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "";
}

/// The resources of the rules of a `permission` section whose only action is "read".
Ruleset readRules(const std::string& resource, const std::optional<std::string>& home) {
  return parsePermissionConfig(R"({"permission": {"read": {")" + resource + R"(": "allow"}}})", "toold.json", home)
      .rules;
}

std::string expandedWithHome(const std::string& resource, const std::string& home) {
  const Ruleset rules = readRules(resource, home);
  REQUIRE(rules.size() == 1);
  return rules[0].resource;
}


void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

} // namespace

TEST_CASE("permission config: one effect is one rule for everything", "[permission_config]") {
  const PermissionConfig config = parse("{\n  \"permission\": \"deny\"\n}\n");
  CHECK(config.file == "toold.json");
  CHECK(config.rules == Ruleset{{"*", "*", kDeny, "toold.json:2"}});
  CHECK(config.agents.empty());
  CHECK(parse(R"({"permission": "allow"})").rules == Ruleset{{"*", "*", kAllow, "toold.json:1"}});
  CHECK(parse(R"({"permission": "ask"})").rules == Ruleset{{"*", "*", kAsk, "toold.json:1"}});
}

TEST_CASE("permission config: actions and resources keep the order of the file", "[permission_config]") {
  CHECK(parse("{\"permission\": {\n\"*\": \"ask\",\n\"bash\": \"allow\"}}").rules ==
        Ruleset{{"*", "*", kAsk, "toold.json:2"}, {"bash", "*", kAllow, "toold.json:3"}});
  CHECK(parse("{\"permission\": {\n\"bash\": \"allow\",\n\"*\": \"ask\"}}").rules ==
        Ruleset{{"bash", "*", kAllow, "toold.json:2"}, {"*", "*", kAsk, "toold.json:3"}});
  // Not alphabetical either: "z" before "a" stays so.
  CHECK(parse("{\"permission\": {\"bash\": {\n\"z *\": \"deny\",\n\"*\": \"ask\",\n\"git *\": \"allow\"}}}").rules ==
        Ruleset{{"bash", "z *", kDeny, "toold.json:2"},
                {"bash", "*", kAsk, "toold.json:3"},
                {"bash", "git *", kAllow, "toold.json:4"}});
  CHECK(parse("{\"permission\": {\"bash\": {\n\"git *\": \"allow\",\n\"*\": \"ask\"}}}").rules ==
        Ruleset{{"bash", "git *", kAllow, "toold.json:2"}, {"bash", "*", kAsk, "toold.json:3"}});
}

TEST_CASE("permission config: effects and resource maps mixed, each rule sourced by its key", "[permission_config]") {
  const PermissionConfig config = parse(R"({
  "$schema": "https://example.com/toold.schema.json",
  "permission": {
    "edit": "deny",
    "bash": {"git *": "allow",
             "rm *": "deny", "*": "ask"},
    "mymcp_*": "allow"
  }
})");
  CHECK(config.rules == Ruleset{{"edit", "*", kDeny, "toold.json:4"},
                                {"bash", "git *", kAllow, "toold.json:5"},
                                {"bash", "rm *", kDeny, "toold.json:6"},
                                {"bash", "*", kAsk, "toold.json:6"},
                                {"mymcp_*", "*", kAllow, "toold.json:7"}});
}

TEST_CASE("permission config: nothing given is no rules", "[permission_config]") {
  CHECK(parse("{}").rules.empty());
  CHECK(parse("{}").file == "toold.json");
  CHECK(parse(R"({"permission": {}})").rules.empty());
  CHECK(parse(R"({"permission": {"bash": {}}, "agent": {}})").rules.empty());
  CHECK(parse(R"({"permission": {"bash": {}}, "agent": {}})").agents.empty());
  CHECK(parse(R"({"$schema": 5})").rules.empty()); // ignored, whatever it holds
}

TEST_CASE("permission config: agents have sections of their own", "[permission_config]") {
  const PermissionConfig config = parse(R"({
  "permission": {"edit": "allow"},
  "agent": {
    "plan": {"permission": {"edit": "deny",
                            "bash": {"ls *": "allow"}}},
    "review": {"permission": "ask"},
    "build": {}
  }
})");
  CHECK(config.rules == Ruleset{{"edit", "*", kAllow, "toold.json:2"}});
  REQUIRE(config.agents.size() == 3);
  CHECK(config.agents.at("plan") ==
        Ruleset{{"edit", "*", kDeny, "toold.json:4"}, {"bash", "ls *", kAllow, "toold.json:5"}});
  CHECK(config.agents.at("review") == Ruleset{{"*", "*", kAsk, "toold.json:6"}});
  CHECK(config.agents.at("build").empty()); // named, with no rules of its own
}

TEST_CASE("permission config: ~ and $HOME at the start of a resource are the home directory", "[permission_config]") {
  CHECK(expandedWithHome("~", "/home/tester") == "/home/tester");
  CHECK(expandedWithHome("~/x", "/home/tester") == "/home/tester/x");
  CHECK(expandedWithHome("~/", "/home/tester") == "/home/tester/");
  CHECK(expandedWithHome("$HOME", "/home/tester") == "/home/tester");
  CHECK(expandedWithHome("$HOME/x/*", "/home/tester") == "/home/tester/x/*");
  CHECK(expandedWithHome("~/x", "/home/tester/") == "/home/tester/x"); // no "//"
  CHECK(expandedWithHome("~/x", "/") == "/x");
  CHECK(expandedWithHome("~", "/") == "/");
  // Anything else is literal.
  CHECK(expandedWithHome("a~b", "/home/tester") == "a~b");
  CHECK(expandedWithHome("~user/x", "/home/tester") == "~user/x");
  CHECK(expandedWithHome("x/~/y", "/home/tester") == "x/~/y");
  CHECK(expandedWithHome("$HOMEDIR", "/home/tester") == "$HOMEDIR");
  CHECK(expandedWithHome("$home/x", "/home/tester") == "$home/x");
  CHECK(expandedWithHome("*~", "/home/tester") == "*~");
  // Actions are names, never paths.
  CHECK(parse(R"({"permission": {"~": "allow"}})").rules[0].action == "~");
}

TEST_CASE("permission config: by default the home directory is $HOME", "[permission_config]") {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0' || std::string(home) == "/") return; // nothing to compare with
  const Ruleset rules = readRules("~/x", std::nullopt);
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].resource == std::string(home) + "/x");
}

TEST_CASE("permission config: an effect is exactly allow, deny or ask", "[permission_config]") {
  CHECK(errorOf(R"({
  "$schema": "https://example.com/toold.schema.json",
  "permission": {
    "bash": {
      "git *": 5
    }
  }
})") == R"(toold.json:5: permission.bash."git *": expected "allow", "deny" or "ask", got 5)");
  CHECK(errorOf("{\"permission\": {\n\"edit\": \"Allow\"}}") ==
        R"(toold.json:2: permission.edit: expected "allow", "deny" or "ask", got "Allow")");
  CHECK(errorOf("{\"permission\": {\n\"edit\": \"\"}}") ==
        R"(toold.json:2: permission.edit: expected "allow", "deny" or "ask", got "")");
  CHECK(errorOf("{\n\"permission\": \"DENY\"}") ==
        R"(toold.json:2: permission: expected "allow", "deny" or "ask", got "DENY")");
  CHECK(errorOf("{\"permission\": {\n\"mcp_*\": true}}") ==
        R"(toold.json:2: permission."mcp_*": expected "allow", "deny", "ask" or an object, got true)");
  CHECK(errorOf("{\n\"permission\": [\"allow\"]}") ==
        R"(toold.json:2: permission: expected "allow", "deny", "ask" or an object, got an array)");
  CHECK(errorOf("{\n\"permission\": null}") ==
        R"(toold.json:2: permission: expected "allow", "deny", "ask" or an object, got null)");
  CHECK(errorOf("{\"permission\": {\"read\": {\n\"~/x\": {\"a\": \"allow\"}}}}") ==
        R"(toold.json:2: permission.read."~/x": expected "allow", "deny" or "ask", got an object)");
  CHECK(errorOf("{\"permission\": {\"read\": {\n\"say \\\"hi\\\"\": 1.5}}}") ==
        R"(toold.json:2: permission.read."say \"hi\"": expected "allow", "deny" or "ask", got 1.5)");
}

TEST_CASE("permission config: an error anywhere refuses the whole file", "[permission_config]") {
  // The valid rules before the error do not come back on their own.
  CHECK_THROWS_AS(parse(R"({"permission": {"edit": "allow", "bash": "maybe"}})"), ConfigError);
  CHECK_THROWS_AS(parse(R"({"permission": "allow", "agent": {"plan": {"permission": 1}}})"), ConfigError);
}

TEST_CASE("permission config: unknown keys are errors", "[permission_config]") {
  CHECK(errorOf("{\n  \"permision\": {}\n}") ==
        R"(toold.json:2: unknown key "permision" (expected "$schema", "permission", "agent", "mcp", "tools", "skills", "webfetch", "codemode", "asks", "output", "checkpoints", "sandbox", "lsp" or "formatter"))");
  CHECK(errorOf("{\"permission\": \"allow\",\n\"agents\": {}}") ==
        R"(toold.json:2: unknown key "agents" (expected "$schema", "permission", "agent", "mcp", "tools", "skills", "webfetch", "codemode", "asks", "output", "checkpoints", "sandbox", "lsp" or "formatter"))");
  CHECK(errorOf("{\"agent\": {\"plan\": {\n\"permissions\": \"ask\"}}}") ==
        R"(toold.json:2: agent.plan: unknown key "permissions" (expected "permission"))");
  CHECK(errorOf("{\"agent\": {\"my agent\": {\"permission\": \"ask\",\n\"model\": \"x\"}}}") ==
        R"(toold.json:2: agent."my agent": unknown key "model" (expected "permission"); toold chooses no model: the runner names it in each snapshot's "model")");
  CHECK(errorOf("{\n\"mcp\": {\"model\": \"\"}}") == R"(toold.json:2: mcp.model: expected a model name, got "")");
}

TEST_CASE("permission config: opencode's keys are answered with toold's equivalent", "[permission_config]") {
  CHECK(errorOf("{\"agent\": {\"build\": {\n\"tools\": {\"write\": false}}}}") ==
        R"(toold.json:2: agent.build: unknown key "tools" (expected "permission"); opencode's per-agent tool switches are permission rules in toold: "agent": {"build": {"permission": {"write": "deny"}}})");
  CHECK(errorOf("{\"agent\": {\"build\": {\n\"prompt\": \"x\"}}}") ==
        R"(toold.json:2: agent.build: unknown key "prompt" (expected "permission"); agent.build.prompt is an opencode agent setting: it belongs in opencode's config)");
  CHECK(errorOf("{\n\"model\": \"anthropic/claude\"}") ==
        R"(toold.json:2: unknown key "model" (expected "$schema", "permission", "agent", "mcp", "tools", "skills", "webfetch", "codemode", "asks", "output", "checkpoints", "sandbox", "lsp" or "formatter"); toold chooses no model: the runner names it in each snapshot's "model", and the MCP face's is "mcp": {"model": "…"})");
  CHECK(errorOf("{\n\"theme\": \"dark\"}").ends_with("; it is an opencode setting, which belongs in opencode's own config, not toold.json"));
}

TEST_CASE("permission config: a comment is a syntax error that says toold.json is plain JSON", "[permission_config]") {
  const std::string lineComment = errorOf("{\n  // rules\n  \"permission\": \"ask\"}");
  CHECK(lineComment.starts_with("toold.json:2:3: syntax error while parsing object key - invalid literal;"));
  CHECK(lineComment.ends_with(
      "expected string literal (toold.json is plain JSON: comments, which opencode's JSONC allows, are not; remove them)"));
  CHECK(errorOf("{\"permission\": \"ask\" /* all */}").ends_with("remove them)"));
  CHECK(errorOf("{\"permission\": \"ask\",\n\"$schema\": \"./toold.schema.json\"}").empty());
}

TEST_CASE("permission config: agent sections must be objects", "[permission_config]") {
  CHECK(errorOf("{\n\"agent\": \"plan\"}") == R"(toold.json:2: agent: expected an object, got "plan")");
  CHECK(errorOf("{\"agent\": {\n\"review\": \"ask\"}}") == R"(toold.json:2: agent.review: expected an object, got "ask")");
  CHECK(errorOf("{\"agent\": {\n\"\": {}}}") == R"(toold.json:2: agent."": empty agent name)");
  CHECK(errorOf("{\"agent\": {\"plan\": {\"permission\": {\n\"edit\": \"no\"}}}}") ==
        R"(toold.json:2: agent.plan.permission.edit: expected "allow", "deny" or "ask", got "no")");
}

TEST_CASE("permission config: empty patterns are errors", "[permission_config]") {
  CHECK(errorOf("{\"permission\": {\n\"\": \"allow\"}}") == R"(toold.json:2: permission."": empty action pattern)");
  CHECK(errorOf("{\"permission\": {\"read\": {\n\"\": \"allow\"}}}") ==
        R"(toold.json:2: permission.read."": empty resource pattern)");
}

TEST_CASE("permission config: a key given twice names both lines", "[permission_config]") {
  CHECK(errorOf(R"({
  "permission": {
    "bash": {
      "git *": "allow",
      "git *": "deny"
    }
  }
})") == R"(toold.json:5: permission.bash."git *": duplicate key (first on line 4))");
  CHECK(errorOf("{\"permission\": \"allow\",\n\n\"permission\": \"deny\"}") ==
        "toold.json:3: permission: duplicate key (first on line 1)");
  // Anywhere in the file, even where the key itself would be an error later.
  CHECK(errorOf("{\"x\": [0, {\"a\": 1,\n\"a\": 2}]}") == "toold.json:2: x[1].a: duplicate key (first on line 1)");
  // The first repetition in the file is the one reported.
  CHECK(errorOf("{\"a\": {\"k\": 1,\n\"k\": 2},\n\"a\": 0}") == "toold.json:2: a.k: duplicate key (first on line 1)");
}

TEST_CASE("permission config: the document must be one JSON object", "[permission_config]") {
  CHECK(errorOf("") == "toold.json:1: expected a JSON object, got an empty file");
  CHECK(errorOf(" \r\n\t\n") == "toold.json:1: expected a JSON object, got an empty file");
  CHECK(errorOf("\n[\"allow\"]") == "toold.json:2: expected a JSON object at the top level, got an array");
  CHECK(errorOf("\"allow\"") == R"(toold.json:1: expected a JSON object at the top level, got "allow")");
  CHECK(errorOf("null") == "toold.json:1: expected a JSON object at the top level, got null");
}

TEST_CASE("permission config: syntax errors name line and column", "[permission_config]") {
  // The position is where nlohmann noticed the error: the last character it read.
  CHECK(errorOf("{\n  \"permission\": tru\n}") ==
        "toold.json:2:20: syntax error while parsing value - invalid literal; last read: "
        "'\"permission\": tru<U+000A>'");
  CHECK(errorOf("{\n  \"permission\": \"allow\",\n}") ==
        "toold.json:3:1: syntax error while parsing object key - unexpected '}'; expected string literal");
  CHECK(errorOf("{\r\n  \"a\": 1\r\n  \"b\": 2\r\n}") ==
        "toold.json:3:5: syntax error while parsing object - unexpected string literal; expected '}'");
  CHECK(errorOf("{\"permission\": \"allow\"") ==
        "toold.json:1:23: syntax error while parsing object - unexpected end of input; expected '}'");
  CHECK(errorOf("{\"permission\": \"\\ud800\"}") ==
        "toold.json:1:23: syntax error while parsing value - invalid string: surrogate U+D800..U+DBFF must be "
        "followed by U+DC00..U+DFFF; last read: '\"\\ud800\"'");
  CHECK(errorOf("{} {}") == "toold.json:1:4: syntax error while parsing value - unexpected '{'; expected end of input");
  // nlohmann's DOM parse throws this one without a position; it is found all the same.
  CHECK(errorOf("{\n\"permission\": 1e999}") == "toold.json:2:19: number overflow parsing '1e999'");
}

TEST_CASE("permission config: loading from the workspace directory", "[permission_config]") {
  const TempDir dir("permission_config_test");
  SECTION("no toold.json: no configuration") {
    const PermissionConfig config = loadPermissionConfig(dir.path(), std::nullopt);
    CHECK(config.file.empty());
    CHECK(config.rules.empty());
    CHECK(config.agents.empty());
  }
  SECTION("toold.json is read and named by its file name") {
    writeFile(dir.path() / "toold.json", "{\n  \"permission\": {\"edit\": \"deny\"}\n}\n");
    const PermissionConfig config = loadPermissionConfig(dir.path(), std::nullopt);
    CHECK(config.file == "toold.json");
    CHECK(config.rules == Ruleset{{"edit", "*", kDeny, "toold.json:2"}});
  }
  SECTION("an invalid toold.json is an error, not an empty configuration") {
    writeFile(dir.path() / "toold.json", "{\"permission\": \"yes\"}");
    CHECK_THROWS_WITH(loadPermissionConfig(dir.path(), std::nullopt),
                      R"(toold.json:1: permission: expected "allow", "deny" or "ask", got "yes")");
  }
  SECTION("a toold.json that cannot be read is an error") {
    fs::create_directory(dir.path() / "toold.json");
    CHECK_THROWS_WITH(loadPermissionConfig(dir.path(), std::nullopt), "toold.json: cannot read: Is a directory");
  }
  SECTION("a dangling symlink named toold.json is an error too") {
    fs::create_symlink(dir.path() / "nowhere.json", dir.path() / "toold.json");
    CHECK_THROWS_WITH(loadPermissionConfig(dir.path(), std::nullopt),
                      "toold.json: cannot read: No such file or directory");
  }
}

TEST_CASE("permission config: an explicit file replaces toold.json and must exist", "[permission_config]") {
  const TempDir dir("permission_config_test");
  writeFile(dir.path() / "toold.json", R"({"permission": "deny"})");
  const fs::path explicitFile = dir.path() / "other.json";
  SECTION("it is read instead, named as given") {
    writeFile(explicitFile, "{\n\"permission\": \"allow\"}");
    const PermissionConfig config = loadPermissionConfig(dir.path(), explicitFile);
    CHECK(config.file == explicitFile.string());
    CHECK(config.rules == Ruleset{{"*", "*", kAllow, explicitFile.string() + ":2"}});
  }
  SECTION("a missing one is an error even though toold.json exists") {
    CHECK_THROWS_WITH(loadPermissionConfig(dir.path(), explicitFile),
                      explicitFile.string() + ": cannot read: No such file or directory");
  }
  SECTION("its errors name it") {
    writeFile(explicitFile, "{\"agent\": 1}");
    CHECK_THROWS_WITH(loadPermissionConfig(dir.path(), explicitFile),
                      explicitFile.string() + ":1: agent: expected an object, got 1");
  }
  SECTION("an unreadable one is an error naming the cause") {
    writeFile(explicitFile, "{}");
    fs::permissions(explicitFile, fs::perms::none);
    if (::access(explicitFile.c_str(), R_OK) == 0) return; // privileged: the file is readable anyway
    CHECK_THROWS_WITH(loadPermissionConfig(dir.path(), explicitFile),
                      explicitFile.string() + ": cannot read: Permission denied");
  }
}

TEST_CASE("a config nested deeper than 512 levels is refused at the first bracket too deep", "[permission_config]") {
  // 100,000 levels: the reader would describe the bad value with a recursive dump.
  const std::string text = "{\"permission\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK(errorOf(text) == "toold.json:1:526: nested deeper than 512 levels (at byte 525)");
}

TEST_CASE("permission config: the codemode section", "[permission_config]") {
  CHECK_FALSE(parse("{}").codemode.enabled);
  CHECK(parse(R"({"codemode": true})").codemode.enabled);
  CHECK_FALSE(parse(R"({"codemode": false})").codemode.enabled);
  const auto settings = parse(R"({"codemode": {"timeout": 5000, "maxToolCalls": 50, "tools": {"read": true, "acme_*": false}}})").codemode;
  CHECK(settings.enabled);
  CHECK(settings.timeoutMs == 5000u);
  CHECK(settings.maxToolCalls == 50u);
  CHECK(settings.tools == std::vector<std::pair<std::string, bool>>{{"read", true}, {"acme_*", false}});
  CHECK_FALSE(parse(R"({"codemode": {"enabled": false, "timeout": 5}})").codemode.enabled);
  CHECK(errorOf(R"({"codemode": "yes"})") == R"(toold.json:1: codemode: expected true, false or an object, got "yes")");
  CHECK(errorOf("{\"codemode\": {\n\"timeout\": 0}}") == R"(toold.json:2: codemode.timeout: expected a positive integer, got 0)");
  CHECK(errorOf("{\"codemode\": {\n\"tools\": {\"read\": \"yes\"}}}") ==
        R"(toold.json:2: codemode.tools.read: expected true (inside Code Mode) or false (direct), got "yes")");
  CHECK(errorOf("{\"codemode\": {\n\"budget\": 1}}") ==
        R"(toold.json:2: codemode: unknown key "budget" (expected "enabled", "timeout", "maxToolCalls", "memory" or "tools"))");
  CHECK(parse(R"({"codemode": {"memory": 128}})").codemode.memoryMb == 128u);
}

TEST_CASE("permission config: the asks section", "[permission_config]") {
  CHECK_FALSE(parse("{}").asks.has_value());
  CHECK_FALSE(parse("{}").unattendedAllow.has_value());
  CHECK(parse(R"({"asks": "unattended"})").asks == AskRoute::Unattended);
  CHECK(parse(R"({"asks": "client"})").asks == AskRoute::Client);
  const auto both = parse(R"({"asks": {"route": "auto", "unattended": "allow"}})");
  CHECK(both.asks == AskRoute::Auto);
  CHECK(both.unattendedAllow == true);
  CHECK(parse(R"({"asks": {"unattended": "deny"}})").unattendedAllow == false);
  CHECK(errorOf(R"({"asks": "person"})") == R"(toold.json:1: asks: expected "auto", "client" or "unattended", got "person")");
  CHECK(errorOf("{\"asks\": {\n\"unattended\": true}}") ==
        R"(toold.json:2: asks.unattended: expected "deny" or "allow", got true)");
  CHECK(errorOf("{\"asks\": {\n\"mode\": \"auto\"}}") ==
        R"(toold.json:2: asks: unknown key "mode" (expected "route" or "unattended"))");
}

TEST_CASE("permission config: the output section sets the budget of a tool's answer", "[permission_config]") {
  CHECK_FALSE(parse("{}").outputMaxBytes);
  CHECK_FALSE(parse("{}").outputMaxLines);
  const auto config = parse(R"({"output": {"maxBytes": 20000, "maxLines": 400}})");
  CHECK(config.outputMaxBytes == 20000u);
  CHECK(config.outputMaxLines == 400u);
  CHECK(parse(R"({"output": {"maxBytes": 4000}})").outputMaxBytes == 4000u);
  CHECK_FALSE(parse(R"({"output": {"maxBytes": 4000}})").outputMaxLines);
  CHECK(errorOf(R"({"output": 4000})") == R"(toold.json:1: output: expected an object, got 4000)");
  CHECK(errorOf("{\"output\": {\n\"maxBytes\": 0}}") == R"(toold.json:2: output.maxBytes: expected a positive integer, got 0)");
  CHECK(errorOf("{\"output\": {\n\"bytes\": 10}}") ==
        R"(toold.json:2: output: unknown key "bytes" (expected "maxBytes", "maxLines", "budgetBytes" or "fileBytes"))");
}

TEST_CASE("permission config: the checkpoints section turns them off and sets their budget", "[permission_config]") {
  CHECK_FALSE(parse("{}").checkpointsEnabled);
  const auto config = parse(R"({"checkpoints": {"enabled": false, "budgetBytes": 1048576}})");
  CHECK(config.checkpointsEnabled == false);
  CHECK(config.checkpointBudgetBytes == 1048576u);
  CHECK(errorOf("{\"checkpoints\": {\n\"enabled\": 1}}") == R"(toold.json:2: checkpoints.enabled: expected true or false, got 1)");
  CHECK(errorOf("{\"checkpoints\": {\n\"budgetBytes\": 0}}") ==
        R"(toold.json:2: checkpoints.budgetBytes: expected a positive integer, got 0)");
  CHECK(errorOf("{\"checkpoints\": {\n\"on\": true}}") ==
        R"(toold.json:2: checkpoints: unknown key "on" (expected "enabled" or "budgetBytes"))");
}

TEST_CASE("permission config: the lsp and formatter sections are left to their own readers", "[permission_config]") {
  CHECK(errorOf(R"({"lsp": {"clangd": {"disabled": true}}, "formatter": true})").empty());
  CHECK(errorOf(R"({"lsp": false, "formatter": {"gofmt": {"disabled": true}}})").empty());
}
