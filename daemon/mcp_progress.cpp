#include "daemon/mcp_progress.h"

#include <vector>

namespace toold::daemon {

namespace {

// The tail kept between chunks: the newest lines, however they were cut, fit in this.
constexpr std::size_t kTailBytes = 4 * kProgressMessageBytes;

bool isBlank(std::string_view line) { return line.find_first_not_of(" \t\x1b\b") == std::string_view::npos; }

} // namespace

std::string newestLines(const std::string& text, std::size_t lines, std::size_t bytes) {
  std::vector<std::string_view> kept;
  std::string_view rest(text);
  std::size_t total = 0;
  while (!rest.empty() && kept.size() < lines) {
    // The last line, ended by the last '\n' or '\r' before it (a line being rewritten with '\r'
    // shows its newest state).
    while (!rest.empty() && (rest.back() == '\n' || rest.back() == '\r')) rest.remove_suffix(1);
    const auto cut = rest.find_last_of("\r\n");
    std::string_view line = cut == std::string_view::npos ? rest : rest.substr(cut + 1);
    rest = cut == std::string_view::npos ? std::string_view() : rest.substr(0, cut);
    if (isBlank(line)) continue;
    total += line.size() + (kept.empty() ? 0 : 1);
    kept.push_back(line);
    if (total >= bytes) break;
  }
  std::string joined;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
    if (!joined.empty()) joined += '\n';
    joined += *it;
  }
  if (joined.size() <= bytes) return joined;
  std::size_t start = joined.size() - bytes;
  while (start < joined.size() && (static_cast<unsigned char>(joined[start]) & 0xC0) == 0x80) ++start;
  return "…" + joined.substr(start);
}

nlohmann::json McpProgress::next(const nlohmann::json& update) {
  std::lock_guard lock(mutex_);
  lastSent_ = std::chrono::steady_clock::now();
  nlohmann::json params{{"progressToken", token_}, {"progress", ++count_}};
  if (update.is_string()) {
    params["message"] = update;
    message_ = update.get<std::string>();
    return params;
  }
  if (!update.is_object()) return params;
  if (auto total = update.find("total"); total != update.end() && total->is_number() && *total >= count_)
    params["total"] = *total;
  if (auto message = update.find("message"); message != update.end() && message->is_string()) {
    params["message"] = *message;
  } else if (auto output = update.find("output"); output != update.end() && output->is_string()) {
    tail_ += output->get_ref<const std::string&>();
    if (tail_.size() > kTailBytes) {
      std::size_t cut = tail_.size() - kTailBytes;
      while (cut < tail_.size() && (static_cast<unsigned char>(tail_[cut]) & 0xC0) == 0x80) ++cut;
      tail_.erase(0, cut);
    }
    if (auto shown = newestLines(tail_, kProgressMessageLines, kProgressMessageBytes); !shown.empty())
      params["message"] = std::move(shown);
  }
  if (auto it = params.find("message"); it != params.end()) message_ = it->get<std::string>();
  return params;
}

std::optional<nlohmann::json> McpProgress::keepAlive(std::chrono::steady_clock::duration quiet) {
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (now - lastSent_ < quiet) return std::nullopt;
  lastSent_ = now;
  nlohmann::json params{{"progressToken", token_}, {"progress", ++count_}};
  if (!message_.empty()) params["message"] = message_;
  return params;
}

} // namespace toold::daemon
