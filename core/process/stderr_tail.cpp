#include "core/process/stderr_tail.h"

#include <algorithm>

namespace toold::core {

void StderrTail::feed(std::string_view bytes, const std::function<void(std::string_view)>& line) {
  kept_.append(bytes);
  if (kept_.size() > 2 * keep_) kept_.erase(0, kept_.size() - keep_);
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    if (line_.size() < lineMax_) line_.append(bytes.substr(0, std::min(newline, lineMax_ - line_.size())));
    if (newline == std::string_view::npos) return;
    line(line_);
    line_.clear();
    bytes.remove_prefix(newline + 1);
  }
}

void StderrTail::flush(const std::function<void(std::string_view)>& line) {
  if (!line_.empty()) line(line_);
  line_.clear();
}

std::string StderrTail::tail(std::size_t lines) const {
  std::string text = kept_.size() > keep_ ? kept_.substr(kept_.size() - keep_) : kept_;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  if (lines == std::string::npos) return text;
  std::size_t from = text.size();
  for (std::size_t seen = 0; seen < lines; ++seen) {
    if (from == 0) return text;
    const std::size_t newline = text.rfind('\n', from - 1);
    if (newline == std::string::npos) return text;
    from = newline;
  }
  return text.substr(from + 1);
}

} // namespace toold::core
