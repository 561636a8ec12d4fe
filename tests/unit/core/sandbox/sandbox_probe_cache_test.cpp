// The sandbox probe's remembered answer: kept and found for the same key only, never for a changed
// launcher, a foreign file or a probe that found a problem; and through a stand-in launcher, asked
// once and then answered from the data folder.
#include "core/sandbox/sandbox_probe_cache.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace core = toold::core;
namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A launcher that counts its probes in `calls` and answers with a fixed report.
fs::path standInLauncher(const fs::path& folder, const std::string& report) {
  const auto launcher = folder / "toold-sandbox";
  writeFile(launcher, "#!/bin/sh\necho probe >> '" + (folder / "calls").string() + "'\necho '" + report + "'\n");
  fs::permissions(launcher, fs::perms::owner_all);
  return launcher;
}

core::SandboxKernel someKernel(const fs::path& launcher) {
  core::SandboxKernel kernel;
  kernel.launcher = launcher;
  kernel.landlockAbi = 4;
  kernel.landlock = true;
  kernel.seccomp = true;
  return kernel;
}

} // namespace

TEST_CASE("the probe's key needs the launcher's file and changes with it") {
  toold::testing::TempDir dir("toold_probe_key");
  CHECK(core::sandboxProbeKey(dir.path() / "missing").empty());
  CHECK(core::sandboxProbeKey({}).empty());
  const auto launcher = dir.path() / "toold-sandbox";
  writeFile(launcher, "one");
  const auto before = core::sandboxProbeKey(launcher);
  REQUIRE_FALSE(before.empty());
  CHECK(core::sandboxProbeKey(launcher) == before);
  writeFile(launcher, "a launcher of another size");
  const auto resized = core::sandboxProbeKey(launcher);
  CHECK(resized != before);
  // The launcher reports what TOOLD_SANDBOX_WITHOUT names as missing: another answer.
  ::setenv("TOOLD_SANDBOX_WITHOUT", "seccomp", 1);
  const auto without = core::sandboxProbeKey(launcher);
  ::unsetenv("TOOLD_SANDBOX_WITHOUT");
  CHECK(without != resized);
  CHECK(core::sandboxProbeKey(launcher) == resized);
}

TEST_CASE("a remembered answer is found for its own key only") {
  toold::testing::TempDir dir("toold_probe_memory");
  const auto file = dir.path() / "data" / "sandbox-probe.json";
  const auto kernel = someKernel(dir.path() / "toold-sandbox");
  core::rememberSandboxKernel(file, "key one", kernel);
  REQUIRE(fs::exists(file));

  const auto found = core::rememberedSandboxKernel(file, "key one");
  REQUIRE(found);
  CHECK(found->launcher == kernel.launcher);
  CHECK(found->landlockAbi == 4);
  CHECK(found->landlock);
  CHECK_FALSE(found->mountNamespace);
  CHECK(found->seccomp);
  CHECK(found->problem.empty());

  CHECK_FALSE(core::rememberedSandboxKernel(file, "key two"));
  CHECK_FALSE(core::rememberedSandboxKernel(file, ""));
  CHECK_FALSE(core::rememberedSandboxKernel(dir.path() / "nothing.json", "key one"));
  // Nothing but the file itself is left in the folder (the staging file was renamed over it).
  CHECK(std::distance(fs::directory_iterator(file.parent_path()), fs::directory_iterator()) == 1);
}

TEST_CASE("a foreign or damaged file, or a probe with a problem, is not an answer") {
  toold::testing::TempDir dir("toold_probe_foreign");
  const auto file = dir.path() / "sandbox-probe.json";
  writeFile(file, "{\"key\": \"k\", \"launcher\": \"/x\"");
  CHECK_FALSE(core::rememberedSandboxKernel(file, "k"));
  writeFile(file, "{\"format\": 99, \"key\": \"k\", \"launcher\": \"/x\"}");
  CHECK_FALSE(core::rememberedSandboxKernel(file, "k"));
  writeFile(file, "{\"format\": 1, \"key\": \"k\"}");
  CHECK_FALSE(core::rememberedSandboxKernel(file, "k"));
  // A folder where the file should be reads as nothing (a stream would throw on EISDIR).
  fs::remove(file);
  fs::create_directory(file);
  CHECK_FALSE(core::rememberedSandboxKernel(file, "k"));
  fs::remove(file);

  fs::remove(file);
  auto broken = someKernel("/x");
  broken.problem = "the launcher gave no report";
  core::rememberSandboxKernel(file, "k", broken);
  CHECK_FALSE(fs::exists(file));
}

TEST_CASE("the launcher is asked once, then answered from memory until it changes") {
  toold::testing::TempDir dir("toold_probe_once");
  const std::string report = R"({"landlockAbi": 3, "landlock": true, "mountNamespace": false, "seccomp": true})";
  const auto launcher = standInLauncher(dir.path(), report);
  const auto file = dir.path() / "data" / "sandbox-probe.json";

  bool fromMemory = true;
  const auto first = core::probeSandboxKernelRemembered(launcher, file, &fromMemory);
  CHECK_FALSE(fromMemory);
  REQUIRE(first.problem.empty());
  CHECK(first.landlockAbi == 3);
  CHECK(readFile(dir.path() / "calls") == "probe\n");

  const auto second = core::probeSandboxKernelRemembered(launcher, file, &fromMemory);
  CHECK(fromMemory);
  CHECK(second.landlockAbi == 3);
  CHECK(second.landlock);
  CHECK_FALSE(second.mountNamespace);
  CHECK(second.seccomp);
  CHECK(second.launcher == launcher);
  CHECK(readFile(dir.path() / "calls") == "probe\n");

  // A new launcher (another report, another size) is asked again.
  standInLauncher(dir.path(), R"({"landlockAbi": 5, "landlock": true, "mountNamespace": true, "seccomp": true})");
  const auto third = core::probeSandboxKernelRemembered(launcher, file, &fromMemory);
  CHECK_FALSE(fromMemory);
  CHECK(third.landlockAbi == 5);
  CHECK(third.mountNamespace);
  CHECK(readFile(dir.path() / "calls") == "probe\nprobe\n");
}

TEST_CASE("a start reads the remembered answer without asking the launcher, and finds none when it changed") {
  toold::testing::TempDir dir("toold_probe_now");
  const std::string report = R"({"landlockAbi": 2, "landlock": true, "mountNamespace": true, "seccomp": false})";
  const auto launcher = standInLauncher(dir.path(), report);
  const auto file = dir.path() / "data" / "sandbox-probe.json";

  // Nothing kept yet (and a folder that does not exist): the launcher must be asked.
  CHECK_FALSE(core::rememberedSandboxKernelNow(launcher, file));
  CHECK_FALSE(core::rememberedSandboxKernelNow(dir.path() / "missing-launcher", file));

  core::probeSandboxKernelRemembered(launcher, file);
  REQUIRE(readFile(dir.path() / "calls") == "probe\n");
  const auto kept = core::rememberedSandboxKernelNow(launcher, file);
  REQUIRE(kept);
  CHECK(kept->landlockAbi == 2);
  CHECK(kept->mountNamespace);
  CHECK_FALSE(kept->seccomp);
  CHECK(kept->launcher == launcher);
  CHECK(readFile(dir.path() / "calls") == "probe\n");

  // Another launcher: what was kept is for the old one.
  standInLauncher(dir.path(), R"({"landlockAbi": 6, "landlock": true, "mountNamespace": true, "seccomp": true})");
  CHECK_FALSE(core::rememberedSandboxKernelNow(launcher, file));
  // A file that is not one toold wrote reads as nothing, without an exception.
  writeFile(file, "not json");
  CHECK_FALSE(core::rememberedSandboxKernelNow(launcher, file));
  CHECK(readFile(dir.path() / "calls") == "probe\n");
}
