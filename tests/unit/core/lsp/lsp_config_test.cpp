#include "core/lsp/lsp_config.h"
#include "core/permission/permission_config.h"

#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <set>

namespace fs = std::filesystem;
using toold::core::ConfigError;
using toold::core::LspServerConfig;
using toold::core::LspSettings;
using toold::core::parseLspConfig;

namespace {

std::string errorOf(const std::string& text) {
  try {
    parseLspConfig(text, "toold.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

const LspServerConfig& server(const LspSettings& settings, const std::string& name) {
  for (const auto& candidate : settings.servers)
    if (candidate.name == name) return candidate;
  FAIL("no server " << name);
  throw std::logic_error("unreachable");
}

/// A finder that knows exactly these programs, as if installed in /usr/bin.
toold::core::ProgramFinder installed(std::set<std::string> programs) {
  return [programs = std::move(programs)](const std::string& program) -> std::optional<std::string> {
    if (programs.count(program) == 0) return std::nullopt;
    return program.starts_with("/") ? program : "/usr/bin/" + program;
  };
}

std::vector<std::string> namesOf(const std::vector<const LspServerConfig*>& servers) {
  std::vector<std::string> names;
  for (const auto* candidate : servers) names.push_back(candidate->name);
  return names;
}

void touch(const fs::path& path) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "";
}

} // namespace

TEST_CASE("lsp config: without a section, the built-ins with the default timeouts", "[lsp_config]") {
  for (const std::string text : {"", "{}", R"({"permission": "ask"})"}) {
    const LspSettings settings = parseLspConfig(text, "toold.json");
    CHECK(settings == LspSettings{});
    CHECK(settings.enabled);
    CHECK(settings.diagnosticsTimeout == std::chrono::milliseconds(3000));
    CHECK(settings.idleTimeout == std::chrono::milliseconds(600000));
    CHECK(settings.requestTimeout == std::chrono::milliseconds(10000));
  }
  std::vector<std::string> names;
  for (const auto& builtIn : LspSettings{}.servers) {
    names.push_back(builtIn.name);
    CHECK(builtIn.builtIn);
    CHECK_FALSE(builtIn.disabled);
  }
  CHECK(names == std::vector<std::string>{"clangd", "pyright", "pylsp", "typescript", "bash", "gopls", "rust"});
  const LspSettings defaults;
  CHECK(server(defaults, "pyright").command == std::vector<std::string>{"pyright-langserver", "--stdio"});
  CHECK(server(defaults, "pylsp").replacedBy == "pyright");
  CHECK(server(defaults, "rust").command == std::vector<std::string>{"rust-analyzer"});
  CHECK(server(defaults, "gopls").rootMarkers == std::vector<std::string>{"go.work", "go.mod", "go.sum"});
}

TEST_CASE("lsp config: false turns every server off, true is the default", "[lsp_config]") {
  const LspSettings off = parseLspConfig(R"({"lsp": false})", "toold.json");
  CHECK_FALSE(off.enabled);
  CHECK(toold::core::serversForFile(off, "/w/a.cpp", installed({"clangd"})).empty());
  CHECK(parseLspConfig(R"({"lsp": true})", "toold.json") == LspSettings{});
}

TEST_CASE("lsp config: toold's settings beside the servers", "[lsp_config]") {
  const LspSettings settings =
      parseLspConfig(R"({"lsp": {"diagnosticsTimeout": 500, "idleTimeout": 0, "requestTimeout": 2000}})", "toold.json");
  CHECK(settings.diagnosticsTimeout == std::chrono::milliseconds(500));
  CHECK(settings.idleTimeout == std::chrono::milliseconds(0));
  CHECK(settings.requestTimeout == std::chrono::milliseconds(2000));
  CHECK(settings.servers == LspSettings{}.servers);
}

TEST_CASE("lsp config: a built-in is overridden by any subset of its keys", "[lsp_config]") {
  const LspSettings settings = parseLspConfig(R"({"lsp": {
    "clangd": {"disabled": true},
    "pyright": {"command": ["/opt/pyright/bin/pyright-langserver", "--stdio"], "env": {"NODE_OPTIONS": "--max-old-space-size=4096"},
                "initialization": {"python": {"analysis": {"typeCheckingMode": "strict"}}}},
    "gopls": {"extensions": [".go", ".tmpl"], "rootMarkers": ["go.mod"]}}})",
                                              "toold.json");
  const LspServerConfig& clangd = server(settings, "clangd");
  CHECK(clangd.disabled);
  CHECK(clangd.command == std::vector<std::string>{"clangd"});
  CHECK(clangd.builtIn);
  const LspServerConfig& pyright = server(settings, "pyright");
  CHECK(pyright.command.front() == "/opt/pyright/bin/pyright-langserver");
  CHECK(pyright.environment.at("NODE_OPTIONS") == "--max-old-space-size=4096");
  CHECK(pyright.initialization == nlohmann::json::parse(R"({"python": {"analysis": {"typeCheckingMode": "strict"}}})"));
  CHECK(pyright.extensions == std::vector<std::string>{".py", ".pyi"});
  const LspServerConfig& gopls = server(settings, "gopls");
  CHECK(gopls.extensions == std::vector<std::string>{".go", ".tmpl"});
  CHECK(gopls.rootMarkers == std::vector<std::string>{"go.mod"});
  CHECK(settings.servers.size() == LspSettings{}.servers.size());
}

TEST_CASE("lsp config: a new server is declared with its command and extensions, after the built-ins", "[lsp_config]") {
  ::setenv("TOOLD_TEST_LSP_TOKEN", "secret", 1);
  const LspSettings settings = parseLspConfig(R"({"lsp": {
    "zls": {"command": ["zls"], "extensions": [".zig"]},
    "mylang": {"command": ["mylang-ls", "--stdio"], "extensions": [".ml", ".mli"], "env": {"TOKEN": "{env:TOOLD_TEST_LSP_TOKEN}"},
               "rootMarkers": ["dune-project"], "disabled": false}}})",
                                              "toold.json");
  const std::size_t builtIns = LspSettings{}.servers.size();
  REQUIRE(settings.servers.size() == builtIns + 2);
  CHECK(settings.servers[builtIns].name == "mylang"); // by name
  CHECK(settings.servers[builtIns + 1].name == "zls");
  const LspServerConfig& mylang = settings.servers[builtIns];
  CHECK_FALSE(mylang.builtIn);
  CHECK(mylang.command == std::vector<std::string>{"mylang-ls", "--stdio"});
  CHECK(mylang.extensions == std::vector<std::string>{".ml", ".mli"});
  CHECK(mylang.environment.at("TOKEN") == "secret");
  CHECK(mylang.rootMarkers == std::vector<std::string>{"dune-project"});
  CHECK(mylang.initialization.is_null());
}

TEST_CASE("lsp config: errors name the file, the line and the key", "[lsp_config]") {
  CHECK(errorOf("{\n\"lsp\": 5}") == R"(toold.json:2: lsp: expected false or an object of servers, got 5)");
  CHECK(errorOf("{\"lsp\": {\n\"clangd\": {\"cmd\": [\"clangd\"]}}}") ==
        R"(toold.json:2: lsp.clangd: unknown key "cmd" (expected "command", "extensions", "env", "initialization", "rootMarkers" or "disabled"))");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\n\"environment\": {}}}}") ==
        R"(toold.json:2: lsp.clangd: unknown key "environment" (expected "command", "extensions", "env", "initialization", "rootMarkers" or "disabled"); a language server's environment is "env", as in opencode)");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\n\"command\": \"clangd\"}}}") ==
        R"(toold.json:2: lsp.clangd.command: expected the program and its arguments, a non-empty array of strings, got "clangd")");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\"command\": []}}}") ==
        R"(toold.json:1: lsp.clangd.command: expected the program and its arguments, a non-empty array of strings, got [])");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\"command\": [\n\"clangd\",\n5]}}}") ==
        R"(toold.json:3: lsp.clangd.command[1]: expected a string, got 5)");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\"command\": [\"\"]}}}") == R"(toold.json:1: lsp.clangd.command[0]: the program is empty)");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\n\"extensions\": [\"cpp\"]}}}") ==
        R"(toold.json:2: lsp.clangd.extensions[0]: expected an extension with its dot, such as ".py", got "cpp")");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\n\"extensions\": []}}}") ==
        R"(toold.json:2: lsp.clangd.extensions: expected a non-empty array of extensions such as ".py", got [])");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\n\"env\": {\"A\": 1}}}}") == R"(toold.json:2: lsp.clangd.env.A: expected a string, got 1)");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\n\"env\": []}}}") ==
        R"(toold.json:2: lsp.clangd.env: expected an object of strings, got [])");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\n\"disabled\": \"yes\"}}}") ==
        R"(toold.json:2: lsp.clangd.disabled: expected true or false, got "yes")");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\n\"rootMarkers\": \"CMakeLists.txt\"}}}") ==
        R"(toold.json:2: lsp.clangd.rootMarkers: expected an array of strings, got "CMakeLists.txt")");
  CHECK(errorOf("{\"lsp\": {\"clangd\": {\"rootMarkers\": [\n\"\"]}}}") ==
        R"(toold.json:2: lsp.clangd.rootMarkers[0]: expected a non-empty string, got "")");
  CHECK(errorOf("{\"lsp\": {\n\"clangd\": false}}") ==
        R"(toold.json:2: lsp.clangd: expected a server object, got false (the settings beside the servers are "diagnosticsTimeout", "idleTimeout" and "requestTimeout"))");
  CHECK(errorOf("{\"lsp\": {\n\"diagnosticTimeout\": 100}}") ==
        R"(toold.json:2: lsp.diagnosticTimeout: expected a server object, got 100 (the settings beside the servers are "diagnosticsTimeout", "idleTimeout" and "requestTimeout"))");
  CHECK(errorOf("{\"lsp\": {\n\"diagnosticsTimeout\": 0}}") ==
        R"(toold.json:2: lsp.diagnosticsTimeout: expected a positive number of milliseconds, got 0)");
  CHECK(errorOf("{\"lsp\": {\n\"requestTimeout\": 1.5}}") ==
        R"(toold.json:2: lsp.requestTimeout: expected a positive number of milliseconds, got 1.5)");
  CHECK(errorOf("{\"lsp\": {\n\"idleTimeout\": -1}}") ==
        R"(toold.json:2: lsp.idleTimeout: expected 0 or a positive number of milliseconds, got -1)");
  CHECK(errorOf("{\"lsp\": {\n\"\": {}}}") == R"(toold.json:2: lsp: empty server name)");
}

TEST_CASE("lsp config: a name that is not a built-in needs a command and extensions", "[lsp_config]") {
  const std::string builtIns = "clangd, pyright, pylsp, typescript, bash, gopls, rust";
  CHECK(errorOf("{\"lsp\": {\n\"rust-analyzer\": {\"disabled\": true}}}") ==
        "toold.json:2: lsp.rust-analyzer: not a built-in server (" + builtIns + R"(), so it needs "command" and "extensions")");
  CHECK(errorOf("{\"lsp\": {\n\"zls\": {\"command\": [\"zls\"]}}}") ==
        "toold.json:2: lsp.zls: not a built-in server (" + builtIns + R"(), so it needs "command" and "extensions")");
  CHECK(errorOf(R"({"lsp": {"zls": {"command": ["zls"], "extensions": [".zig"]}}})") == "no error");
}

TEST_CASE("lsp config: the language id by extension", "[lsp_config]") {
  using toold::core::lspLanguageId;
  CHECK(lspLanguageId("a/b.c") == "c");
  CHECK(lspLanguageId("b.cpp") == "cpp");
  CHECK(lspLanguageId("b.h") == "cpp");
  CHECK(lspLanguageId("b.hpp") == "cpp");
  CHECK(lspLanguageId("b.mm") == "objective-cpp");
  CHECK(lspLanguageId("b.py") == "python");
  CHECK(lspLanguageId("b.ts") == "typescript");
  CHECK(lspLanguageId("b.tsx") == "typescriptreact");
  CHECK(lspLanguageId("b.mjs") == "javascript");
  CHECK(lspLanguageId("b.jsx") == "javascriptreact");
  CHECK(lspLanguageId("run.sh") == "shellscript");
  CHECK(lspLanguageId("main.go") == "go");
  CHECK(lspLanguageId("lib.rs") == "rust");
  CHECK(lspLanguageId("README") == "plaintext");
  CHECK(lspLanguageId("b.CPP") == "plaintext"); // case-sensitive, as the servers' extensions
}

TEST_CASE("lsp config: the servers of a file: extension, installed, not disabled, replacedBy", "[lsp_config]") {
  using toold::core::serversForFile;
  const LspSettings defaults;
  CHECK(namesOf(serversForFile(defaults, "/w/src/a.cpp", installed({"clangd"}))) == std::vector<std::string>{"clangd"});
  CHECK(serversForFile(defaults, "/w/src/a.cpp", installed({})).empty()); // not installed: nothing
  CHECK(serversForFile(defaults, "/w/src/a.CPP", installed({"clangd"})).empty());
  CHECK(serversForFile(defaults, "/w/Makefile", installed({"clangd"})).empty());
  // pylsp only where pyright is not installed.
  CHECK(namesOf(serversForFile(defaults, "/w/a.py", installed({"pyright-langserver", "pylsp"}))) ==
        std::vector<std::string>{"pyright"});
  CHECK(namesOf(serversForFile(defaults, "/w/a.py", installed({"pylsp"}))) == std::vector<std::string>{"pylsp"});
  // …or where pyright is disabled.
  const LspSettings noPyright = parseLspConfig(R"({"lsp": {"pyright": {"disabled": true}}})", "toold.json");
  CHECK(namesOf(serversForFile(noPyright, "/w/a.py", installed({"pyright-langserver", "pylsp"}))) ==
        std::vector<std::string>{"pylsp"});
  const LspSettings noClangd = parseLspConfig(R"({"lsp": {"clangd": {"disabled": true}}})", "toold.json");
  CHECK(serversForFile(noClangd, "/w/a.cpp", installed({"clangd"})).empty());
  // A declared server beside a built-in for the same extension: both serve the file.
  const LspSettings both = parseLspConfig(
      R"({"lsp": {"ruff": {"command": ["/opt/ruff/bin/ruff", "server"], "extensions": [".py"]}}})", "toold.json");
  CHECK(namesOf(serversForFile(both, "/w/a.py", installed({"pyright-langserver", "/opt/ruff/bin/ruff"}))) ==
        std::vector<std::string>{"pyright", "ruff"});
  CHECK(namesOf(serversForFile(both, "/w/a.pyi", installed({"pyright-langserver", "/opt/ruff/bin/ruff"}))) ==
        std::vector<std::string>{"pyright"});
}

TEST_CASE("lsp config: the project root is the nearest folder with a marker, never above the workspace", "[lsp_config]") {
  using toold::core::lspProjectRoot;
  const toold::testing::TempDir temp("lsp_root");
  const fs::path workspace = temp.path() / "ws";
  touch(temp.path() / "Cargo.toml");                          // above the workspace: ignored
  touch(workspace / "crates" / "core" / "Cargo.toml");
  touch(workspace / "crates" / "core" / "src" / "lib.rs");
  touch(workspace / "tools" / "src" / "main.rs");
  touch(workspace / "web" / "package.json");
  touch(workspace / "web" / "app" / "deep" / "x.ts");
  const LspSettings defaults;
  const LspServerConfig& rust = server(defaults, "rust");
  CHECK(lspProjectRoot(rust, workspace / "crates" / "core" / "src" / "lib.rs", workspace) == workspace / "crates" / "core");
  CHECK(lspProjectRoot(rust, workspace / "tools" / "src" / "main.rs", workspace) == workspace);
  CHECK(lspProjectRoot(rust, "crates/core/src/lib.rs", workspace) == workspace / "crates" / "core"); // relative
  CHECK(lspProjectRoot(server(defaults, "typescript"), workspace / "web" / "app" / "deep" / "x.ts", workspace) ==
        workspace / "web");
  // The nearest marker wins over one further up.
  touch(workspace / "Cargo.toml");
  CHECK(lspProjectRoot(rust, workspace / "crates" / "core" / "src" / "lib.rs", workspace) == workspace / "crates" / "core");
  CHECK(lspProjectRoot(rust, workspace / "tools" / "src" / "main.rs", workspace) == workspace);
  // A marker in the file's own folder; a trailing separator on the workspace changes nothing.
  CHECK(lspProjectRoot(rust, workspace / "crates" / "core" / "build.rs", workspace / "") == workspace / "crates" / "core");
  // No markers, or a file outside the workspace: the workspace.
  CHECK(lspProjectRoot(server(defaults, "bash"), workspace / "web" / "x.sh", workspace) == workspace);
  CHECK(lspProjectRoot(rust, temp.path() / "other" / "a.rs", workspace) == workspace);
}
