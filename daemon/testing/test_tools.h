// In-process tools for fixtures and benchmarks, registered with --test-methods only, in the scope
// "toold:test": test_echo (returns its input as output), test_progress (reports progress, then
// finishes or fails) and test_sleep (waits, cancellably, on the worker pool).
#pragma once

namespace toold::core {
class ToolService;
}

namespace toold::daemon {

void registerTestTools(core::ToolService& tools);

} // namespace toold::daemon
