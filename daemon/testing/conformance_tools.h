// The fixture tools MCP's conformance suite calls by name (test_simple_text, test_image_content,
// …), served with --test-methods so that scripts/conformance can run its tools scenarios.
#pragma once

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

void registerConformanceTools(core::ToolService& tools);

} // namespace toold::daemon
