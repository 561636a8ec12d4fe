// toold-fixture: plays scripted JSON-RPC conversations (docs/fixtures.md) against toold.
//   toold-fixture --toold PATH [--mode pipe|file|both] [--verbose] [--no-keep] FILE...
#include "fixture_parser.h"
#include "runner.h"

#include <csignal>
#include <iostream>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view kUsage =
    R"(Usage: toold-fixture --toold PATH [--mode pipe|file|both] [--verbose] [--no-keep] FILE...

Plays each fixture FILE against a fresh toold and prints PASS, FAIL or SKIP per fixture and mode,
then "N passed, N failed". Exits 1 when any failed, 2 on a usage error.

  --toold PATH   the toold executable to test
  --mode MODE    pipe (stdin is a pipe, sends happen in script order), file (stdin is a regular
                 file holding every send), or both (default)
  --verbose      print every message sent and received, and toold's stderr
  --no-keep      remove the scratch directory of a failed run too (kept by default)
)";

int usage(const std::string& error) {
  std::cerr << "toold-fixture: " << error << "\n" << kUsage;
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  using namespace toold::fixture;
  // A daemon that exits while a send is being written must be a failure report, not a dead runner.
  std::signal(SIGPIPE, SIG_IGN);

  RunOptions options;
  std::vector<Mode> modes{Mode::Pipe, Mode::File};
  bool verbose = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--verbose" || arg == "-v") {
      verbose = true;
    } else if (arg == "--no-keep") {
      options.keepFailed = false;
    } else if (arg == "--toold" || arg == "--mode") {
      if (i + 1 >= argc) return usage(std::string(arg) + " needs a value");
      const std::string_view value = argv[++i];
      if (arg == "--toold") {
        options.tooldPath = value;
      } else if (value == "pipe") {
        modes = {Mode::Pipe};
      } else if (value == "file") {
        modes = {Mode::File};
      } else if (value == "both") {
        modes = {Mode::Pipe, Mode::File};
      } else {
        return usage("--mode takes pipe, file or both");
      }
    } else if (arg.starts_with("-")) {
      return usage("unknown option " + std::string(arg));
    } else {
      files.emplace_back(arg);
    }
  }
  if (options.tooldPath.empty()) return usage("--toold PATH is required");
  if (files.empty()) return usage("no fixture files given");
  if (verbose) options.trace = &std::cout;

  int passed = 0;
  int failed = 0;
  for (const auto& path : files) {
    Fixture fixture;
    try {
      fixture = loadFixture(path);
    } catch (const FixtureError& e) {
      std::cout << "FAIL " << path << " (not a valid fixture)\n  " << e.what() << "\n" << std::flush;
      ++failed;
      continue;
    }
    for (Mode mode : modes) {
      const std::string label = std::string(modeName(mode)) + " mode";
      if (verbose) std::cout << "RUN  " << path << " (" << label << ")\n" << std::flush;
      const RunResult result = runFixture(fixture, mode, options);
      switch (result.outcome) {
      case RunResult::Outcome::Pass:
        std::cout << "PASS " << path << " (" << label << ")\n";
        ++passed;
        break;
      case RunResult::Outcome::Skip:
        std::cout << "SKIP " << path << " (" << label << ": " << result.detail << ")\n";
        break;
      case RunResult::Outcome::Fail:
        std::cout << "FAIL " << path << " (" << label << ")\n" << result.detail;
        ++failed;
        break;
      }
      std::cout << std::flush;
    }
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed > 0 ? 1 : 0;
}
