// Layout of the failure report: location, expected, actual, the conversation, toold's stderr.
#include "failure_report.h"

#include <deque>
#include <fstream>
#include <sstream>

namespace toold::fixture {
namespace {

constexpr std::size_t kStderrLines = 40;

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += prefix;
    out.append(text, start, end - start);
    out.push_back('\n');
    start = end + 1;
  }
  return out;
}

std::string compact(const Received& received) {
  if (!received.garbage.empty()) return "(" + received.garbage + ")";
  return received.message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

std::string prettyJson(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::string> lastLines(const std::filesystem::path& file, std::size_t count, std::size_t& total) {
  std::ifstream in(file, std::ios::binary);
  std::deque<std::string> lines;
  total = 0;
  for (std::string line; std::getline(in, line);) {
    ++total;
    lines.push_back(std::move(line));
    if (lines.size() > count) lines.pop_front();
  }
  return {lines.begin(), lines.end()};
}

std::string formatFailure(const Failure& failure, const FailureContext& context) {
  std::ostringstream out;
  out << "  " << context.fixture.path;
  if (failure.line > 0) out << ":" << failure.line;
  out << ": " << failure.headline << "\n";
  if (!failure.expected.empty()) {
    const bool group = failure.expected.size() > 1;
    out << (group ? "  expected, in any order:\n" : "  expected:\n");
    for (const auto& pattern : failure.expected) {
      if (group) out << "    (line " << pattern.line << ")\n";
      out << indent(prettyJson(pattern.value), "    ");
    }
  }
  if (!failure.actual.empty()) out << "  actual:\n" << indent(failure.actual, "    ");
  if (!failure.why.empty()) out << "  why: " << failure.why << "\n";

  out << "  received so far (" << context.receivedSoFar.size() << "):\n";
  for (std::size_t i = 0; i < context.receivedSoFar.size(); ++i)
    out << "    " << i + 1 << ". " << compact(context.receivedSoFar[i]) << "\n";

  std::size_t total = 0;
  const auto tail = lastLines(context.stderrFile, kStderrLines, total);
  out << "  toold stderr";
  if (total > tail.size()) out << " (last " << tail.size() << " of " << total << " lines)";
  out << ":\n";
  for (const auto& line : tail) out << "    | " << line << "\n";
  if (total == 0) out << "    (empty)\n";
  if (!context.keptDirectory.empty()) out << "  kept for inspection: " << context.keptDirectory.string() << "\n";
  return out.str();
}

} // namespace toold::fixture
