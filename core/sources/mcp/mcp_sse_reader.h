// Server-sent events as an MCP server's Streamable HTTP answer carries them: `data:` lines joined
// with '\n' make one event, dispatched at a blank line; `event:` and comments are ignored (MCP uses
// the default "message" events). `id:` and `retry:` are kept for reconnecting a listening stream
// (the last event id goes back as Last-Event-ID; `retry:` is the server's reconnection delay). An
// event over the frame cap is reported with the JSON-RPC id found at its start and skipped, as on
// stdio.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace toold::core {

class McpSseReader {
public:
  using EventHandler = std::function<void(std::string_view data)>;
  using OversizeHandler = std::function<void(std::optional<nlohmann::json> id, std::size_t bytes)>;

  McpSseReader(EventHandler onEvent, OversizeHandler onOversize, std::size_t cap);

  void feed(std::string_view bytes);
  /// The stream ended: an event not yet closed by a blank line is dispatched.
  void finish();

  /// The id of the last event received whole (the last `id:` before it); empty when none.
  const std::string& lastEventId() const { return lastEventId_; }
  /// The last valid `retry:` the stream gave.
  std::optional<std::chrono::milliseconds> retry() const { return retry_; }
  /// Events dispatched so far.
  std::size_t events() const { return events_; }

private:
  void line(std::string_view text);
  void dispatch();

  EventHandler onEvent_;
  OversizeHandler onOversize_;
  std::size_t cap_;
  std::string partial_; ///< the current line so far
  std::string data_;    ///< the current event's data so far
  bool skipping_ = false;
  std::string idBuffer_;    ///< the last `id:` read, the next event's
  std::string lastEventId_; ///< committed when an event is dispatched
  std::optional<std::chrono::milliseconds> retry_;
  std::size_t events_ = 0;
};

} // namespace toold::core
