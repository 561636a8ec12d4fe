// CommandSandbox: what a command's argv becomes for each kernel and setting, and what is claimed.
// The kernel is described, not probed, so each case is the same on every machine; the launcher
// itself is exercised through the daemon (tests/fixtures/sandbox/).
#include "core/process/process_runner.h"
#include "core/sandbox/command_sandbox.h"
#include "tests/support/temp_dir.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace core = toold::core;
namespace fs = std::filesystem;

namespace {

core::SandboxKernel fullKernel() {
  core::SandboxKernel kernel;
  kernel.launcher = "/opt/toold/toold-sandbox";
  kernel.landlockAbi = 7;
  kernel.landlock = kernel.mountNamespace = kernel.seccomp = true;
  return kernel;
}

struct Workspace {
  toold::testing::TempDir root{"toold_sandbox"};
  core::Location location;
  Workspace() {
    fs::create_directory(root.path() / "ws");
    location.directory = root.path() / "ws";
    location.dataDir = root.path() / "data";
  }
};

/// The value after each occurrence of `option` in argv.
std::vector<std::string> valuesOf(const std::vector<std::string>& argv, const std::string& option) {
  std::vector<std::string> values;
  for (std::size_t i = 0; i + 1 < argv.size() && argv[i] != "--"; ++i)
    if (argv[i] == option) values.push_back(argv[i + 1]);
  return values;
}

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

core::ProcessSpec shellSpec() { return core::ProcessSpec{.argv = {"sh", "-c", "true"}}; }

} // namespace

TEST_CASE("command sandbox: a shell command runs through the launcher with the workspace writable") {
  Workspace ws;
  const core::CommandSandbox sandbox({}, fullKernel(), ws.location);
  auto spec = shellSpec();
  sandbox.wrap(spec, core::SandboxedProcess::ShellCommand);
  REQUIRE(spec.argv.size() > 4);
  CHECK(spec.argv.front() == "/opt/toold/toold-sandbox");
  const auto end = std::find(spec.argv.begin(), spec.argv.end(), "--");
  REQUIRE(end != spec.argv.end());
  // The program is resolved in PATH by toold, so that a missing one is toold's error to report.
  CHECK(fs::path(*(end + 1)).filename() == "sh");
  CHECK(fs::path(*(end + 1)).is_absolute());
  CHECK(std::vector<std::string>(end + 2, spec.argv.end()) == std::vector<std::string>{"-c", "true"});
  CHECK(has(valuesOf(spec.argv, "--write"), ws.location.directory.string()));
  CHECK(has(valuesOf(spec.argv, "--write"), "/tmp"));
  CHECK(has(valuesOf(spec.argv, "--read"), "/usr"));
  CHECK_FALSE(has(valuesOf(spec.argv, "--read"), std::string(std::getenv("HOME") ? std::getenv("HOME") : "/root")));
  CHECK(has(spec.argv, "--no-network"));
  // Nothing to keep read-only yet: no mount namespace is asked for.
  CHECK(valuesOf(spec.argv, "--protect").empty());
}

TEST_CASE("command sandbox: .git, toold.json and .toold are protected once they exist") {
  Workspace ws;
  fs::create_directory(ws.location.directory / ".git");
  std::ofstream(ws.location.directory / "toold.json") << "{}";
  const core::CommandSandbox sandbox({}, fullKernel(), ws.location, ws.location.directory / "toold.json");
  auto spec = shellSpec();
  sandbox.wrap(spec, core::SandboxedProcess::ShellCommand);
  const auto protect = valuesOf(spec.argv, "--protect");
  CHECK(has(protect, (ws.location.directory / ".git").string()));
  CHECK(has(protect, (ws.location.directory / "toold.json").string()));
  CHECK_FALSE(has(protect, (ws.location.directory / ".toold").string()));
  CHECK(sandbox.report()["enforced"]["gitReadOnly"] == true);
}

TEST_CASE("command sandbox: temp off gives toold's scratch folder as TMPDIR") {
  Workspace ws;
  core::SandboxSettings settings;
  settings.systemTemp = false;
  const core::CommandSandbox sandbox(settings, fullKernel(), ws.location);
  auto spec = shellSpec();
  sandbox.wrap(spec, core::SandboxedProcess::ShellCommand);
  CHECK_FALSE(has(valuesOf(spec.argv, "--write"), "/tmp"));
  CHECK(has(valuesOf(spec.argv, "--write"), (ws.location.dataDir / "scratch").string()));
  CHECK(has(spec.extraEnv, "TMPDIR=" + (ws.location.dataDir / "scratch").string()));
  CHECK(fs::is_directory(ws.location.dataDir / "scratch"));
}

TEST_CASE("command sandbox: read-only writes nowhere and reads the workspace") {
  Workspace ws;
  core::SandboxSettings settings;
  settings.mode = core::SandboxMode::ReadOnly;
  const core::CommandSandbox sandbox(settings, fullKernel(), ws.location);
  auto spec = shellSpec();
  sandbox.wrap(spec, core::SandboxedProcess::ShellCommand);
  CHECK(valuesOf(spec.argv, "--write").empty());
  CHECK(has(valuesOf(spec.argv, "--read"), ws.location.directory.string()));
  CHECK(sandbox.allowance().starts_with("commands may write nowhere"));
}

TEST_CASE("command sandbox: MCP servers only when asked, and off or a missing program leaves argv alone") {
  Workspace ws;
  const core::CommandSandbox byDefault({}, fullKernel(), ws.location);
  auto server = shellSpec();
  byDefault.wrap(server, core::SandboxedProcess::McpServer);
  CHECK(server.argv == shellSpec().argv);
  auto tool = shellSpec();
  byDefault.wrap(tool, core::SandboxedProcess::CommandTool);
  CHECK(tool.argv.front() == "/opt/toold/toold-sandbox");

  core::SandboxSettings withServers;
  withServers.mcpServers = true;
  auto wrapped = shellSpec();
  core::CommandSandbox(withServers, fullKernel(), ws.location).wrap(wrapped, core::SandboxedProcess::McpServer);
  CHECK(wrapped.argv.front() == "/opt/toold/toold-sandbox");

  core::ProcessSpec missing{.argv = {"no-such-program-anywhere", "x"}};
  byDefault.wrap(missing, core::SandboxedProcess::ShellCommand);
  CHECK(missing.argv == std::vector<std::string>{"no-such-program-anywhere", "x"});

  core::SandboxSettings off;
  off.mode = core::SandboxMode::Off;
  auto plain = shellSpec();
  core::CommandSandbox(off, fullKernel(), ws.location).wrap(plain, core::SandboxedProcess::ShellCommand);
  CHECK(plain.argv == shellSpec().argv);
}

TEST_CASE("command sandbox: claims only what the kernel enforces") {
  Workspace ws;
  core::SandboxKernel noLandlock = fullKernel();
  noLandlock.landlock = false;
  noLandlock.landlockAbi = 0;
  const core::CommandSandbox networkOnly({}, noLandlock, ws.location);
  const auto report = networkOnly.report();
  CHECK(report["enforced"]["files"] == false);
  CHECK(report["enforced"]["network"] == true);
  CHECK(report["enforced"]["gitReadOnly"] == false);
  REQUIRE(report.contains("unenforced"));
  CHECK(report["unenforced"][0].get<std::string>().starts_with("files: this kernel offers no Landlock"));
  auto spec = shellSpec();
  networkOnly.wrap(spec, core::SandboxedProcess::ShellCommand);
  CHECK(valuesOf(spec.argv, "--read").empty());
  CHECK(has(spec.argv, "--no-network"));

  core::SandboxKernel noNamespaces = fullKernel();
  noNamespaces.mountNamespace = false;
  fs::create_directory(ws.location.directory / ".git");
  const core::CommandSandbox noGit({}, noNamespaces, ws.location);
  CHECK(noGit.report()["enforced"]["gitReadOnly"] == false);
  auto unprotected = shellSpec();
  noGit.wrap(unprotected, core::SandboxedProcess::ShellCommand);
  CHECK(valuesOf(unprotected.argv, "--protect").empty());
  CHECK(noGit.summary().find(".git NOT read-only") != std::string::npos);

  core::SandboxKernel none;
  none.problem = "the sandbox launcher toold-sandbox was not found beside toold";
  const core::CommandSandbox nothing({}, none, ws.location);
  CHECK_FALSE(nothing.active());
  auto untouched = shellSpec();
  nothing.wrap(untouched, core::SandboxedProcess::ShellCommand);
  CHECK(untouched.argv == shellSpec().argv);
  CHECK(nothing.summary().find("not enforced: everything: the sandbox launcher") != std::string::npos);
}

TEST_CASE("command sandbox: a version manager's folder in PATH opens its parent, never a home folder") {
  Workspace ws;
  const std::string home = (ws.root.path() / "home").string();
  const std::string manager = home + "/.pyenv";
  const char* oldPath = std::getenv("PATH");
  const char* oldHome = std::getenv("HOME");
  const std::string savedPath = oldPath ? oldPath : "";
  const std::string savedHome = oldHome ? oldHome : "";
  ::setenv("PATH", ("/usr/local/bin:" + manager + "/shims:" + home + "/bin:" + home + "/.local/bin:/usr/bin").c_str(), 1);
  ::setenv("HOME", home.c_str(), 1);
  const core::CommandSandbox sandbox({}, fullKernel(), ws.location);
  ::setenv("PATH", savedPath.c_str(), 1);
  if (oldHome) ::setenv("HOME", savedHome.c_str(), 1);
  else ::unsetenv("HOME");
  const auto& read = sandbox.readable();
  CHECK(has(read, manager + "/shims"));
  CHECK(has(read, manager));                 // the shims need their manager's folder
  CHECK(has(read, home + "/bin"));
  CHECK_FALSE(has(read, home));               // a home folder is never opened whole
  CHECK_FALSE(has(read, home + "/.local"));   // nor ~/.local, which holds keyrings
  CHECK(has(read, "/usr/local/bin"));
  CHECK_FALSE(has(read, "/usr/local"));       // /usr is readable already
}
