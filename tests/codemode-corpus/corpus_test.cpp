// Runs every program of programs/ (NN_name.js or .ts) in the Code Mode engine with a fixed set of
// fake tools, and compares its result with NN_name.expected: the program's value as JSON, or
// {"error": "<diagnostic kind>"} for a program that must fail. The programs are written the way
// models write them — with and without TypeScript annotations.
#include "builtins/codemode/js_engine.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace toold::codemode;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const json kIssues = json::parse(R"([
  {"number": 1, "title": "Crash on start", "state": "open", "labels": ["bug"], "comments": 4},
  {"number": 2, "title": "Add dark mode", "state": "open", "labels": ["feature"], "comments": 10},
  {"number": 3, "title": "Typo in README", "state": "closed", "labels": ["docs"], "comments": 0},
  {"number": 4, "title": "Crash when saving", "state": "open", "labels": ["bug", "urgent"], "comments": 1}
])");

const std::map<std::string, std::string> kFiles = {
    {"src/a.ts", "export const a = 1;\n// TODO: remove\n"},
    {"src/b.ts", "import { a } from './a';\nexport const b = a + 1;\n"},
    {"README.md", "# Project\n\nTODO: write docs\nTODO: add badges\n"},
};

// Answers the way real tools would, from the fixed data above.
json answer(const std::string& path, const json& input, bool& ok) {
  ok = true;
  auto fail = [&](std::string message) {
    ok = false;
    return json{{"kind", "ToolFailure"}, {"message", std::move(message)}};
  };
  if (path == "fs.list") {
    json names = json::array();
    for (const auto& [name, text] : kFiles)
      if (name.rfind(input.value("dir", ""), 0) == 0) names.push_back(name);
    return names;
  }
  if (path == "fs.read") {
    auto it = kFiles.find(input.value("path", ""));
    if (it == kFiles.end()) return fail("File not found: " + input.value("path", ""));
    return it->second;
  }
  if (path == "github.list_issues") {
    json out = json::array();
    for (const auto& issue : kIssues)
      if (!input.contains("state") || issue["state"] == input["state"]) out.push_back(issue);
    return out;
  }
  if (path == "github.get_issue") {
    for (const auto& issue : kIssues)
      if (issue["number"] == input.value("number", 0)) return issue;
    return fail("Issue not found");
  }
  if (path == "github.add_label") return json{{"number", input.value("number", 0)}, {"label", input.value("label", "")}, {"ok", true}};
  if (path == "math.add") return input.value("a", 0.0) + input.value("b", 0.0);
  if (path == "weather.forecast") {
    static const std::map<std::string, int> temps = {{"Paris", 18}, {"Oslo", 7}, {"Cairo", 33}};
    auto it = temps.find(input.value("city", ""));
    if (it == temps.end()) return fail("Unknown city");
    return json{{"city", it->first}, {"tempC", it->second}};
  }
  if (path == "2d_get_scene") return json{{"objects", {"circle", "square"}}};
  if (path == "context7.resolve-library-id") return "/lib/" + input.value("libraryName", "");
  return fail("no such fake tool: " + path);
}

class CorpusHost final : public ProgramHost {
public:
  explicit CorpusHost(CompletionQueue& queue) : queue_(queue) {}
  void startCall(std::uint64_t id, const std::string& path, const std::string& inputJson) override {
    bool ok = false;
    const json value = answer(path, json::parse(inputJson), ok);
    queue_.post({id, ok, value.dump()});
  }
  std::string search(const std::string&) override { return json{{"result", {{"items", json::array()}}}}.dump(); }

private:
  CompletionQueue& queue_;
};

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: codemode_corpus PROGRAMS_DIR\n");
    return 2;
  }
  if (!JsEngine::initializeProcess()) return 1;
  int failures = 0, count = 0;
  {
    JsEngine engine(EngineOptions{});
    const std::vector<ToolPath> tools = {{"fs", "list"},          {"fs", "read"},          {"github", "list_issues"},
                                         {"github", "get_issue"}, {"github", "add_label"}, {"math", "add"},
                                         {"weather", "forecast"}, {"2d_get_scene"},        {"context7", "resolve-library-id"}};
    std::vector<fs::path> programs;
    for (const auto& entry : fs::directory_iterator(argv[1]))
      if (entry.path().extension() == ".js" || entry.path().extension() == ".ts") programs.push_back(entry.path());
    std::sort(programs.begin(), programs.end());
    for (const auto& program : programs) {
      ++count;
      fs::path expectedPath = program;
      expectedPath.replace_extension(".expected");
      const json expected = json::parse(readAll(expectedPath));
      CompletionQueue queue;
      CorpusHost host(queue);
      ProgramLimits limits;
      limits.timeout = std::chrono::milliseconds(5000);
      const ProgramResult result = engine.run(readAll(program), tools, limits, host, queue);
      const json actual = result.ok ? result.value : json{{"error", result.error ? result.error->kind : "?"}};
      if (actual != expected) {
        ++failures;
        std::printf("FAIL %s\n  expected: %s\n  actual:   %s\n", program.filename().c_str(), expected.dump().c_str(),
                    actual.dump().c_str());
        if (result.error) std::printf("  message:  %s\n", result.error->message.c_str());
      } else {
        std::printf("PASS %s\n", program.filename().c_str());
      }
    }
  }
  JsEngine::shutdownProcess();
  std::printf("%d programs, %d failed\n", count, failures);
  return failures == 0 && count >= 30 ? 0 : 1;
}
