// Unit tests log nowhere, and set the default logger up before any test starts a thread: spdlog's
// registry is created on first use, inside the uninstrumented libspdlog, where ThreadSanitizer
// cannot see the guard that makes a concurrent first use safe.
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

namespace {

const bool kQuietLogging = [] {
  spdlog::set_default_logger(spdlog::null_logger_mt("unit-tests"));
  return true;
}();

} // namespace
