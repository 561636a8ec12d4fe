#include "core/lsp/formatter_config.h"
#include "core/permission/permission_config.h"

#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <set>

namespace fs = std::filesystem;
using toold::core::ConfigError;
using toold::core::FormatterSettings;
using toold::core::FormattingCommand;
using toold::core::formatterForFile;
using toold::core::parseFormatterConfig;

namespace {

std::string errorOf(const std::string& text) {
  try {
    parseFormatterConfig(text, "toold.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

/// Every program is installed in /usr/bin except those named; a path is there when the file is.
std::function<std::optional<std::string>(const std::string&)> installedExcept(std::set<std::string> missing = {}) {
  return [missing = std::move(missing)](const std::string& program) -> std::optional<std::string> {
    if (missing.count(program) != 0) return std::nullopt;
    if (program.starts_with("/")) return fs::exists(program) ? std::optional<std::string>(program) : std::nullopt;
    return "/usr/bin/" + program;
  };
}

void write(const fs::path& path, const std::string& text = "") {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string nameFor(const FormatterSettings& settings, const fs::path& file, const fs::path& workspace,
                    std::set<std::string> missing = {}) {
  const auto command = formatterForFile(settings, file, workspace, installedExcept(std::move(missing)));
  return command ? command->name : "none";
}

} // namespace

TEST_CASE("formatter config: off unless the section turns it on", "[formatter_config]") {
  for (const std::string text : {"", "{}", R"({"formatter": false})"}) {
    const FormatterSettings settings = parseFormatterConfig(text, "toold.json");
    CHECK(settings == FormatterSettings{});
    CHECK_FALSE(settings.enabled);
    CHECK_FALSE(formatterForFile(settings, "/w/main.go", "/w", installedExcept()).has_value());
  }
  const FormatterSettings on = parseFormatterConfig(R"({"formatter": true})", "toold.json");
  CHECK(on.enabled);
  CHECK(on.formatters == FormatterSettings{}.formatters);
  std::vector<std::string> names;
  for (const auto& formatter : on.formatters) names.push_back(formatter.name);
  CHECK(names == std::vector<std::string>{"clang-format", "gofmt", "rustfmt", "ruff", "black", "prettier"});
}

TEST_CASE("formatter config: $FILE is the file's absolute path, wherever it is in an argument", "[formatter_config]") {
  const FormatterSettings on = parseFormatterConfig(R"({"formatter": true})", "toold.json");
  const auto gofmt = formatterForFile(on, "cmd/main.go", "/w", installedExcept());
  REQUIRE(gofmt.has_value());
  CHECK(*gofmt == FormattingCommand{"gofmt", {"/usr/bin/gofmt", "-w", "/w/cmd/main.go"}, {}});
  const FormatterSettings custom = parseFormatterConfig(
      R"({"formatter": {"mix": {"command": ["mix", "format", "--file=$FILE", "$FILE.bak"], "extensions": [".ex"],
                                "environment": {"MIX_ENV": "dev"}}}})",
      "toold.json");
  const auto mix = formatterForFile(custom, "/w/lib/a.ex", "/w", installedExcept());
  REQUIRE(mix.has_value());
  CHECK(mix->argv == std::vector<std::string>{"/usr/bin/mix", "format", "--file=/w/lib/a.ex", "/w/lib/a.ex.bak"});
  CHECK(mix->environment == std::map<std::string, std::string>{{"MIX_ENV", "dev"}});
}

TEST_CASE("formatter config: an object turns the built-ins on, overrides them and declares new ones first", "[formatter_config]") {
  const FormatterSettings settings = parseFormatterConfig(R"({"formatter": {
    "gofmt": {"disabled": true},
    "rustfmt": {"command": ["rustfmt", "--edition", "2021", "$FILE"]},
    "yapf": {"command": ["yapf", "-i", "$FILE"], "extensions": [".py"]}}})",
                                                          "toold.json");
  CHECK(settings.enabled);
  REQUIRE(settings.formatters.size() == FormatterSettings{}.formatters.size() + 1);
  CHECK(settings.formatters.front().name == "yapf");
  CHECK_FALSE(settings.formatters.front().builtIn);
  CHECK(nameFor(settings, "/w/main.go", "/w") == "none");
  const auto rustfmt = formatterForFile(settings, "/w/lib.rs", "/w", installedExcept());
  REQUIRE(rustfmt.has_value());
  CHECK(rustfmt->argv == std::vector<std::string>{"/usr/bin/rustfmt", "--edition", "2021", "/w/lib.rs"});
  CHECK(nameFor(settings, "/w/a.py", "/w") == "yapf");      // before ruff and black, which have no config here
  CHECK(nameFor(settings, "/w/a.py", "/w", {"yapf"}) == "none"); // not installed
  CHECK(nameFor(settings, "/w/main.rs", "/w", {"rustfmt"}) == "none");
  CHECK(nameFor(settings, "/w/a.txt", "/w") == "none");
  CHECK(nameFor(settings, "/w/LIB.RS", "/w") == "none");
}

TEST_CASE("formatter config: the built-ins' conditions", "[formatter_config]") {
  const toold::testing::TempDir temp("formatter_conditions");
  const fs::path workspace = temp.path() / "ws";
  fs::create_directories(workspace);
  const FormatterSettings on = parseFormatterConfig(R"({"formatter": true})", "toold.json");

  // clang-format: only under a .clang-format or _clang-format, up to the workspace.
  write(temp.path() / ".clang-format"); // above the workspace: not this project's
  CHECK(nameFor(on, workspace / "src" / "a.cpp", workspace) == "none");
  write(workspace / "src" / "_clang-format");
  CHECK(nameFor(on, workspace / "src" / "a.cpp", workspace) == "clang-format");
  CHECK(nameFor(on, workspace / "b.cpp", workspace) == "none");
  write(workspace / ".clang-format");
  const auto clangFormat = formatterForFile(on, workspace / "b.cpp", workspace, installedExcept());
  REQUIRE(clangFormat.has_value());
  CHECK(clangFormat->argv == std::vector<std::string>{"/usr/bin/clang-format", "-i", (workspace / "b.cpp").string()});

  // ruff: a ruff.toml, or a pyproject.toml with [tool.ruff]; black: a pyproject.toml with [tool.black].
  CHECK(nameFor(on, workspace / "a.py", workspace) == "none");
  write(workspace / "pyproject.toml", "[project]\nname = \"x\"\n[tool.black]\nline-length = 100\n");
  CHECK(nameFor(on, workspace / "a.py", workspace) == "black");
  CHECK(nameFor(on, workspace / "a.py", workspace, {"black"}) == "none");
  write(workspace / "pyproject.toml", "[project]\nname = \"x\"\n[tool.ruff.lint]\nselect = [\"E\"]\n");
  CHECK(nameFor(on, workspace / "a.py", workspace) == "ruff");
  write(workspace / "pyproject.toml", "[project]\n");
  write(workspace / "pkg" / "ruff.toml");
  CHECK(nameFor(on, workspace / "pkg" / "m.py", workspace) == "ruff");
  CHECK(nameFor(on, workspace / "m.py", workspace) == "none");

  // prettier: only the workspace's own node_modules install.
  CHECK(nameFor(on, workspace / "web" / "a.ts", workspace) == "none");
  write(workspace / "node_modules" / ".bin" / "prettier");
  const auto prettier = formatterForFile(on, workspace / "web" / "a.ts", workspace, installedExcept());
  REQUIRE(prettier.has_value());
  CHECK(prettier->argv == std::vector<std::string>{(workspace / "node_modules" / ".bin" / "prettier").string(), "--write",
                                                   (workspace / "web" / "a.ts").string()});

  // An override of a built-in's command keeps its condition.
  const FormatterSettings overridden =
      parseFormatterConfig(R"({"formatter": {"black": {"command": ["black", "--fast", "$FILE"]}}})", "toold.json");
  CHECK(nameFor(overridden, workspace / "m.py", workspace) == "none");
}

TEST_CASE("formatter config: errors name the file, the line and the key", "[formatter_config]") {
  const std::string builtIns = "clang-format, gofmt, rustfmt, ruff, black, prettier";
  CHECK(errorOf("{\n\"formatter\": \"yes\"}") ==
        R"(toold.json:2: formatter: expected true, false or an object of formatters, got "yes")");
  CHECK(errorOf("{\"formatter\": {\n\"gofmt\": true}}") == R"(toold.json:2: formatter.gofmt: expected a formatter object, got true)");
  CHECK(errorOf("{\"formatter\": {\"gofmt\": {\n\"cmd\": []}}}") ==
        R"(toold.json:2: formatter.gofmt: unknown key "cmd" (expected "command", "extensions", "environment" or "disabled"))");
  CHECK(errorOf("{\"formatter\": {\"gofmt\": {\n\"env\": {}}}}") ==
        R"(toold.json:2: formatter.gofmt: unknown key "env" (expected "command", "extensions", "environment" or "disabled"); a formatter's environment is "environment", as in opencode)");
  CHECK(errorOf("{\"formatter\": {\"gofmt\": {\n\"command\": [\"gofmt\", \"-w\"]}}}") ==
        R"(toold.json:2: formatter.gofmt.command: no argument holds "$FILE", where the file's path goes)");
  CHECK(errorOf("{\"formatter\": {\"gofmt\": {\n\"command\": \"gofmt $FILE\"}}}") ==
        R"(toold.json:2: formatter.gofmt.command: expected the program and its arguments, a non-empty array of strings, got "gofmt $FILE")");
  CHECK(errorOf("{\"formatter\": {\"gofmt\": {\"extensions\": [\n\"go\"]}}}") ==
        R"(toold.json:2: formatter.gofmt.extensions[0]: expected an extension with its dot, such as ".py", got "go")");
  CHECK(errorOf("{\"formatter\": {\"gofmt\": {\n\"environment\": {\"A\": true}}}}") ==
        R"(toold.json:2: formatter.gofmt.environment.A: expected a string, got true)");
  CHECK(errorOf("{\"formatter\": {\"gofmt\": {\n\"disabled\": 1}}}") ==
        R"(toold.json:2: formatter.gofmt.disabled: expected true or false, got 1)");
  CHECK(errorOf("{\"formatter\": {\n\"yapf\": {\"command\": [\"yapf\", \"$FILE\"]}}}") ==
        "toold.json:2: formatter.yapf: not a built-in formatter (" + builtIns + R"(), so it needs "command" and "extensions")");
  CHECK(errorOf("{\"formatter\": {\n\"clangformat\": {\"disabled\": true}}}") ==
        "toold.json:2: formatter.clangformat: not a built-in formatter (" + builtIns + R"(), so it needs "command" and "extensions")");
}
