// Framing of JSON-RPC messages on a byte stream: newline-delimited JSON (MCP's stdio framing)
// or Content-Length headers (LSP's). The decoder is incremental: bytes may arrive split anywhere.
#pragma once

#include "protocol/error_code.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace toold::protocol {

enum class Framing {
  Auto,          ///< decided by the first non-whitespace byte: `{` or `[` → Ndjson, `C` → ContentLength
  Ndjson,        ///< one JSON value per line; a trailing `\r` is accepted
  ContentLength, ///< `Content-Length: N` headers, a blank line, then N bytes of JSON
};

std::string_view framingName(Framing framing);
std::optional<Framing> parseFraming(std::string_view name); ///< "auto", "ndjson", "lsp"

/// What the decoder hands on: the body of one frame, or a framing error to be answered with `id: null`.
struct DecodedFrame {
  std::string body;
  std::optional<RpcError> error;
};

/// Splits a byte stream into frame bodies. Never buffers more than the frame limit: an oversized
/// frame is reported once and its bytes are skipped as they arrive, and a corrupt header block is
/// reported and skipped up to the next `Content-Length:` header.
class FrameDecoder {
public:
  using Sink = std::function<void(DecodedFrame&&)>;

  FrameDecoder(Framing framing, std::size_t maxFrameBytes);

  /// Feeds the next bytes; every frame they complete is passed to `sink`, in order.
  void feed(std::string_view bytes, const Sink& sink);
  /// The input ended: a final unterminated line is a frame; a partial Content-Length frame is an error.
  void finish(const Sink& sink);

  /// The framing in use: Auto until the first non-whitespace byte has been seen.
  Framing framing() const { return framing_; }

private:
  enum class State { Detect, Ndjson, NdjsonDiscard, Headers, Body, BodyDiscard, Resync };

  void run(const Sink& sink);
  bool stepDetect();
  bool stepNdjson(const Sink& sink);
  bool stepHeaders(const Sink& sink);
  bool stepBody(const Sink& sink);
  bool stepResync();
  void compact();
  /// The frame `line` (a view of buffer_ ending at pos_) as a string of its own.
  std::string takeLine(std::string_view line);

  /// Frames this large are handed over in the buffer that holds them, rather than copied.
  static constexpr std::size_t kTakenFrameBytes = 1u << 20;

  Framing framing_;
  std::size_t maxFrameBytes_;
  State state_ = State::Detect;
  std::string buffer_;
  std::size_t pos_ = 0;          ///< bytes of buffer_ already consumed
  std::size_t scanned_ = 0;      ///< in Ndjson: bytes after pos_ known to hold no newline
  std::size_t bodyLength_ = 0;   ///< in Body: the announced length
  std::size_t discardLeft_ = 0;  ///< in BodyDiscard: bytes still to skip
};

/// Serializes one message for the wire. Text that is not valid UTF-8 is written with U+FFFD in place
/// of the bad bytes; this never throws. Ndjson output never contains a raw newline.
std::string encodeFrame(const nlohmann::json& message, Framing framing);

/// The bytes of a frame around an already serialized body.
std::string frameBody(std::string body, Framing framing);

} // namespace toold::protocol
