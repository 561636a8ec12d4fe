// The command line: defaults, both value spellings, and clear errors.
#include "daemon/options.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

using toold::daemon::parseCommandLine;

namespace {

toold::daemon::ParsedCommandLine parse(std::vector<std::string> args) {
  args.insert(args.begin(), "toold");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parseCommandLine(static_cast<int>(argv.size()), argv.data());
}

} // namespace

TEST_CASE("defaults: the current directory, auto framing, 64 MiB frames", "[options]") {
  auto parsed = parse({});
  REQUIRE(parsed.options);
  CHECK(parsed.options->directory == std::filesystem::canonical(std::filesystem::current_path()).string());
  CHECK(parsed.options->framing == toold::protocol::Framing::Auto);
  CHECK(parsed.options->maxFrameBytes == 64u << 20);
  CHECK(parsed.options->busyPollMicros == 50);
  CHECK_FALSE(parsed.options->dataDir.empty());
}

TEST_CASE("values may follow the option or an equals sign", "[options]") {
  auto parsed = parse({"--framing=lsp", "--max-frame-bytes", "1000", "--log-level=debug", "--directory", "/"});
  REQUIRE(parsed.options);
  CHECK(parsed.options->framing == toold::protocol::Framing::ContentLength);
  CHECK(parsed.options->maxFrameBytes == 1000);
  CHECK(parsed.options->logLevel == "debug");
  CHECK(parsed.options->directory == "/");
}

TEST_CASE("help and version print and exit 0", "[options]") {
  auto help = parse({"--help"});
  CHECK_FALSE(help.options);
  CHECK(help.exitStatus == 0);
  CHECK_THAT(help.message, Catch::Contains("--max-frame-bytes"));
  CHECK_THAT(parse({"--version"}).message, Catch::StartsWith("toold "));
}

TEST_CASE("bad options are errors with status 2", "[options]") {
  for (auto args : std::vector<std::vector<std::string>>{{"--bogus"},
                                                          {"--framing", "xml"},
                                                          {"--max-frame-bytes", "0"},
                                                          {"--max-frame-bytes", "12k"},
                                                          {"--log-level", "loud"},
                                                          {"--directory", "/no/such/dir"},
                                                          {"--busy-poll-us", "-1"},
                                                          {"--busy-poll-us", "2000000"},
                                                          {"--data-dir"},
                                                          {"--checkpoints", "maybe"},
                                                          {"--checkpoint-budget", "0"}}) {
    auto parsed = parse(args);
    INFO(args.front());
    CHECK_FALSE(parsed.options);
    CHECK(parsed.exitStatus == 2);
    CHECK_THAT(parsed.message, Catch::StartsWith("toold: "));
  }
}

TEST_CASE("the option --mcp-model names the model of the MCP face and may not be empty", "[options]") {
  auto parsed = parse({"--mcp-model", "gpt-5"});
  REQUIRE(parsed.options);
  CHECK(parsed.options->mcpModel == "gpt-5");
  CHECK(parse({}).options->mcpModel.empty());
  auto empty = parse({"--mcp-model="});
  CHECK_FALSE(empty.options);
  CHECK(empty.exitStatus == 2);
}

TEST_CASE("the option --drain-timeout takes seconds where 0 cancels at once and 30 s is the default", "[options]") {
  CHECK(parse({}).options->drainTimeout == std::chrono::seconds(30));
  CHECK(parse({"--drain-timeout", "0"}).options->drainTimeout == std::chrono::milliseconds(0));
  CHECK(parse({"--drain-timeout=2.5"}).options->drainTimeout == std::chrono::milliseconds(2500));
  for (const char* bad : {"-1", "soon", ""}) CHECK(parse({"--drain-timeout", bad}).exitStatus == 2);
}

TEST_CASE("the options --asks and --unattended are unset unless given, so toold.json may set them", "[options]") {
  auto defaults = parse({});
  CHECK(defaults.options->asks.empty());
  CHECK_FALSE(defaults.options->unattendedAllow.has_value());
  auto given = parse({"--asks", "client", "--unattended=allow"});
  REQUIRE(given.options);
  CHECK(given.options->asks == "client");
  CHECK(given.options->unattendedAllow == true);
  CHECK(parse({"--asks=unattended"}).options->asks == "unattended");
  CHECK(parse({"--unattended", "deny"}).options->unattendedAllow == false);
  auto bad = parse({"--asks", "person"});
  CHECK_FALSE(bad.options);
  CHECK(bad.exitStatus == 2);
  CHECK(bad.message.find("--asks must be auto, client or unattended (got 'person')") != std::string::npos);
  CHECK(parse({"--help"}).message.find("--asks ROUTE") != std::string::npos);
}

TEST_CASE("options: --checkpoints turns checkpoints on or off, --checkpoint-budget sets their bytes", "[options]") {
  CHECK_FALSE(parse({}).options->checkpoints);
  CHECK(parse({"--checkpoints", "off"}).options->checkpoints == false);
  CHECK(parse({"--checkpoints=on"}).options->checkpoints == true);
  CHECK(parse({"--checkpoint-budget", "1048576"}).options->checkpointBudgetBytes == 1048576u);
}
