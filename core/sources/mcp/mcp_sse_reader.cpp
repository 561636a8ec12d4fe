#include "core/sources/mcp/mcp_sse_reader.h"

#include "core/sources/mcp/mcp_line_reader.h"

namespace toold::core {

McpSseReader::McpSseReader(EventHandler onEvent, OversizeHandler onOversize, std::size_t cap)
    : onEvent_(std::move(onEvent)), onOversize_(std::move(onOversize)), cap_(cap) {}

void McpSseReader::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    const std::size_t newline = bytes.find('\n');
    if (!skipping_) partial_.append(bytes.substr(0, newline));
    if (!skipping_ && partial_.size() + data_.size() > cap_) {
      skipping_ = true;
      onOversize_(recoverJsonRpcId(std::string_view(data_.empty() ? partial_ : data_).substr(0, 4096 + 6)),
                  partial_.size() + data_.size());
      partial_ = std::string();
      data_ = std::string();
    }
    if (newline == std::string_view::npos) return;
    std::string_view text(partial_);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    line(text);
    partial_.clear();
    bytes.remove_prefix(newline + 1);
  }
}

void McpSseReader::line(std::string_view text) {
  if (text.empty()) {
    if (skipping_) {
      skipping_ = false; // reported as oversized: received all the same
      lastEventId_ = idBuffer_;
      return;
    }
    return dispatch();
  }
  if (skipping_ || text.front() == ':') return;
  const std::size_t colon = text.find(':');
  const std::string_view field = text.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "data") {
    if (!data_.empty()) data_ += '\n';
    data_.append(value);
  } else if (field == "id") {
    // As the SSE standard says: an id with a NUL in it is ignored.
    if (value.find('\0') == std::string_view::npos) idBuffer_.assign(value);
  } else if (field == "retry") {
    // Only ASCII digits count; a value too long to be a sensible delay is ignored too.
    if (!value.empty() && value.size() <= 9 && value.find_first_not_of("0123456789") == std::string_view::npos)
      retry_ = std::chrono::milliseconds(std::stol(std::string(value)));
  }
}

void McpSseReader::dispatch() {
  // The id counts as received once its event is (the SSE standard's "last event ID string").
  lastEventId_ = idBuffer_;
  if (data_.empty()) return;
  std::string data = std::move(data_);
  data_.clear();
  ++events_;
  onEvent_(data);
}

void McpSseReader::finish() {
  if (!partial_.empty() && !skipping_) {
    std::string text = std::move(partial_);
    partial_.clear();
    line(text);
  }
  if (!skipping_) dispatch();
  skipping_ = false;
}

} // namespace toold::core
