#include "daemon/testing/conformance_tools.h"

#include "core/tool_service.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <thread>

namespace toold::daemon {

namespace {

using core::json;

// A 1×1 red PNG and a 44-byte silent WAV: the smallest media the suite accepts.
constexpr const char* kPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
constexpr const char* kWav = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";
constexpr auto kStepPause = std::chrono::milliseconds(50);

json file(const std::string& mime, const char* base64, const std::string& name) {
  return json{{"type", "file"}, {"uri", "data:" + mime + ";base64," + base64}, {"mime", mime}, {"name", name}};
}

core::Tool fixedTool(std::string description, json content) {
  core::Tool tool;
  tool.description = std::move(description) + " (a conformance-suite fixture tool).";
  tool.inputSchema = json{{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}};
  tool.threading = core::ToolThreading::Inline;
  tool.execute = [content = std::move(content)](json, core::ToolContext, core::ToolDone done) {
    done(core::ToolResult{std::nullopt, content, std::nullopt});
  };
  return tool;
}

// Three steps 50 ms apart, each reported by `step` (a progress update or a log line).
core::Tool steppingTool(std::string description, bool progress) {
  core::Tool tool = fixedTool(std::move(description), json());
  tool.threading = core::ToolThreading::Workers;
  tool.execute = [progress](json, core::ToolContext context, core::ToolDone done) {
    for (int step = 1; step <= 3 && !context.cancellation.isCancelled(); ++step) {
      if (progress) context.progress(json{{"step", step}, {"total", 3}, {"message", "step " + std::to_string(step)}});
      else spdlog::info("test_tool_with_logging: step {} of 3", step);
      std::this_thread::sleep_for(kStepPause);
    }
    done(core::ToolResult{std::nullopt, json("done"), std::nullopt});
  };
  return tool;
}

} // namespace

void registerConformanceTools(core::ToolService& tools) {
  std::vector<std::pair<std::string, core::Tool>> list;
  list.emplace_back("test_simple_text",
                    fixedTool("Returns a text item", json("This is a simple text response for testing.")));
  list.emplace_back("test_image_content", fixedTool("Returns an image item",
                                                    json::array({file("image/png", kPng, "pixel.png")})));
  list.emplace_back("test_audio_content", fixedTool("Returns an audio item",
                                                    json::array({file("audio/wav", kWav, "silence.wav")})));
  list.emplace_back("test_embedded_resource",
                    fixedTool("Returns an embedded resource", json::array({file("text/plain", "aGVsbG8K", "hello.txt")})));
  list.emplace_back("test_multiple_content_types",
                    fixedTool("Returns text, an image and an embedded resource",
                              json::array({json{{"type", "text"}, {"text", "Multiple content types test:"}},
                                           file("image/png", kPng, "pixel.png"),
                                           file("application/json", "eyJ0ZXN0IjoiZGF0YSJ9", "data.json")})));
  core::Tool failing = fixedTool("Always fails", json());
  failing.execute = [](json, core::ToolContext, core::ToolDone done) {
    done(core::ToolFailure{"This tool intentionally returns an error for testing", std::nullopt});
  };
  list.emplace_back("test_error_handling", std::move(failing));
  list.emplace_back("test_tool_with_progress", steppingTool("Reports progress three times", true));
  list.emplace_back("test_tool_with_logging", steppingTool("Logs three lines", false));
  tools.registerTools("toold:conformance", std::move(list));
}

} // namespace toold::daemon
