// The built-ins' input schemas are constant text the registry takes as it is
// (builtins/constant_json.h): each must be what nlohmann writes, an object schema, and one toold
// enforces without compiling it first (its compilation waits for the first call).
#include "builtins/builtin_tools.h"
#include "core/schema/json_schema.h"
#include "core/schema/schema_precheck.h"
#include "core/tool_service.h"
#include "tests/support/recording_channel.h"
#include "tests/support/temp_dir.h"

#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

namespace core = toold::core;
using core::json;

namespace {

// A ToolService in a scratch workspace: no checkpoints, no language servers.
core::ToolServiceOptions scratchOptions(const std::filesystem::path& folder) {
  core::ToolServiceOptions options;
  options.location.directory = folder;
  options.location.dataDir = folder / "data";
  options.checkpoints.reset();
  options.lsp.enabled = false;
  return options;
}

struct Service {
  toold::testing::TempDir dir{"toold_builtin_definitions"};
  boost::asio::io_context io;
  core::ToolService service{io, scratchOptions(dir.path()), std::make_shared<toold::testing::RecordingChannel>()};
};

} // namespace

TEST_CASE("built-in definitions: each input schema is canonical constant text of an object schema toold enforces") {
  Service built;
  core::ToolService& service = built.service;
  const auto tools = toold::builtins::makeBuiltinTools(service);
  REQUIRE(tools.size() >= 21);
  std::set<std::string> names;
  for (const auto& [name, tool] : tools) {
    INFO(name);
    names.insert(name);
    const std::string text(tool.inputSchemaText);
    REQUIRE_FALSE(text.empty());
    const json schema = json::parse(text);
    CHECK(schema.dump() == text);            // compact, keys sorted: as every definition is kept
    CHECK(schema.value("type", "") == "object");
    CHECK(core::compilesForCertain(schema)); // so the registry may defer its compilation
    CHECK_NOTHROW(core::CompiledSchema::compile(schema));
  }
  CHECK(names.size() == tools.size());
}

TEST_CASE("built-in definitions: the registry keeps a constant schema's text as written") {
  Service built;
  core::ToolService& service = built.service;
  toold::builtins::registerBuiltinTools(service);
  const auto snapshot = service.implicitSnapshot();
  const core::RegisteredTool* read = snapshot->find("read");
  REQUIRE(read != nullptr);
  const json definition = json::parse(*read->source);
  CHECK(definition["inputSchema"]["required"] == json::array({"filePath"}));
  CHECK(definition.dump() == *read->source);
  CHECK(read->shownObjectSchemas);
  // Compiled at its first use, from the definition text: a call's input is still checked.
  REQUIRE(read->input);
  CHECK_FALSE(read->input->compiled());
  CHECK(read->input->get() != nullptr);
}
