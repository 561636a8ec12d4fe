// The frame decoder's state machine and the encoder.
#include "protocol/framing.h"

#include "protocol/json_writer.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace toold::protocol {
namespace {

// A header block longer than this is not LSP framing; 8 KiB is far above any real client's.
constexpr std::size_t kMaxHeaderBytes = 8 * 1024;
constexpr std::string_view kContentLength = "content-length";

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool isTokenChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

DecodedFrame parseError(std::string why) {
  return DecodedFrame{{}, RpcError{ErrorCode::ParseError, "Parse error: " + std::move(why), {}}};
}

DecodedFrame oversized(std::size_t limit, std::optional<std::size_t> size) {
  std::string message = "Invalid Request: frame ";
  if (size) message += "of " + std::to_string(*size) + " bytes ";
  message += "exceeds the limit of " + std::to_string(limit) + " bytes (--max-frame-bytes); it was skipped";
  return DecodedFrame{{}, RpcError{ErrorCode::InvalidRequest, std::move(message), {}}};
}

// Finds "content-length:" in any letter case; the resynchronisation point after a corrupt frame.
std::size_t findContentLength(std::string_view haystack) {
  const std::size_t n = kContentLength.size();
  for (std::size_t i = 0; i + n < haystack.size(); ++i) {
    if (lower(haystack[i]) == 'c' && equalsIgnoreCase(haystack.substr(i, n), kContentLength)) {
      std::size_t j = i + n;
      while (j < haystack.size() && (haystack[j] == ' ' || haystack[j] == '\t')) ++j;
      if (j < haystack.size() && haystack[j] == ':') return i;
    }
  }
  return std::string_view::npos;
}

} // namespace

std::string_view framingName(Framing framing) {
  switch (framing) {
  case Framing::Auto: return "auto";
  case Framing::Ndjson: return "ndjson";
  case Framing::ContentLength: return "lsp";
  }
  return "auto";
}

std::optional<Framing> parseFraming(std::string_view name) {
  if (name == "auto") return Framing::Auto;
  if (name == "ndjson") return Framing::Ndjson;
  if (name == "lsp") return Framing::ContentLength;
  return std::nullopt;
}

FrameDecoder::FrameDecoder(Framing framing, std::size_t maxFrameBytes)
    : framing_(framing), maxFrameBytes_(maxFrameBytes) {
  if (framing_ == Framing::Ndjson) state_ = State::Ndjson;
  if (framing_ == Framing::ContentLength) state_ = State::Headers;
}

void FrameDecoder::feed(std::string_view bytes, const Sink& sink) {
  buffer_.append(bytes);
  run(sink);
  compact();
}

void FrameDecoder::run(const Sink& sink) {
  for (;;) {
    bool progressed = false;
    switch (state_) {
    case State::Detect: progressed = stepDetect(); break;
    case State::Ndjson: progressed = stepNdjson(sink); break;
    case State::NdjsonDiscard: {
      const char* nl = static_cast<const char*>(std::memchr(buffer_.data() + pos_, '\n', buffer_.size() - pos_));
      if (nl != nullptr) {
        pos_ = static_cast<std::size_t>(nl - buffer_.data()) + 1;
        state_ = State::Ndjson;
        progressed = true;
      } else {
        pos_ = buffer_.size();
      }
      break;
    }
    case State::Headers: progressed = stepHeaders(sink); break;
    case State::Body: progressed = stepBody(sink); break;
    case State::BodyDiscard: {
      const std::size_t n = std::min(discardLeft_, buffer_.size() - pos_);
      pos_ += n;
      discardLeft_ -= n;
      if (discardLeft_ == 0) {
        state_ = State::Headers;
        progressed = true;
      }
      break;
    }
    case State::Resync: progressed = stepResync(); break;
    }
    if (!progressed) return;
  }
}

bool FrameDecoder::stepDetect() {
  while (pos_ < buffer_.size() && isSpace(buffer_[pos_])) ++pos_;
  if (pos_ == buffer_.size()) return false;
  const char first = buffer_[pos_];
  framing_ = (first == 'C' || first == 'c') ? Framing::ContentLength : Framing::Ndjson;
  state_ = framing_ == Framing::Ndjson ? State::Ndjson : State::Headers;
  return true;
}

bool FrameDecoder::stepNdjson(const Sink& sink) {
  const char* begin = buffer_.data() + pos_;
  const std::size_t available = buffer_.size() - pos_;
  const char* nl = static_cast<const char*>(std::memchr(begin + scanned_, '\n', available - scanned_));
  if (nl == nullptr) {
    scanned_ = available;
    if (available > maxFrameBytes_ + 1) { // + 1: the line may still end in "\r\n"
      sink(oversized(maxFrameBytes_, std::nullopt));
      state_ = State::NdjsonDiscard;
      pos_ = buffer_.size();
      scanned_ = 0;
    }
    return false;
  }
  std::string_view line(begin, static_cast<std::size_t>(nl - begin));
  pos_ += line.size() + 1;
  scanned_ = 0;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.size() > maxFrameBytes_) {
    sink(oversized(maxFrameBytes_, line.size()));
  } else if (!trim(line).empty()) {
    sink(DecodedFrame{takeLine(line), std::nullopt});
  }
  return true;
}

// A large frame that fills the buffer (it was read to its end, nothing behind it) takes the
// buffer itself: copying megabytes onto fresh pages cost as much as reading them, and the buffer
// would keep their size for good. A small one is copied, and the buffer kept for the next reads.
std::string FrameDecoder::takeLine(std::string_view line) {
  if (line.size() < kTakenFrameBytes || pos_ != buffer_.size() || line.data() != buffer_.data())
    return std::string(line);
  std::string taken = std::move(buffer_);
  buffer_ = std::string();
  taken.resize(line.size());
  pos_ = 0;
  return taken;
}

bool FrameDecoder::stepHeaders(const Sink& sink) {
  while (pos_ < buffer_.size() && isSpace(buffer_[pos_])) ++pos_;
  if (pos_ == buffer_.size()) return false;

  std::optional<std::size_t> length;
  std::size_t p = pos_;
  for (;;) {
    const std::size_t nl = buffer_.find('\n', p);
    std::string_view line(buffer_.data() + p, (nl == std::string::npos ? buffer_.size() : nl) - p);
    // A header line must be `Name: value` with a token name; anything else is not a header, even
    // before the line is complete (a JSON body sent without headers fails here at once).
    const std::size_t colon = line.find(':');
    const std::string_view name = line.substr(0, std::min(colon, line.size()));
    const bool nameOk = colon != std::string_view::npos && !name.empty() && std::all_of(name.begin(), name.end(), isTokenChar);
    const bool partial = nl == std::string::npos;
    const bool blank = line.empty() || line == "\r";
    const bool cannotBecomeHeader =
        colon != std::string_view::npos ? !nameOk : !std::all_of(line.begin(), line.end(), isTokenChar);
    if (!blank && (partial ? cannotBecomeHeader : !nameOk)) {
      sink(parseError("malformed header line; expected 'Content-Length: N'"));
      pos_ = p + 1;
      state_ = State::Resync;
      return true;
    }
    if (partial) {
      if (buffer_.size() - pos_ > kMaxHeaderBytes) {
        sink(parseError("header block longer than 8 KiB"));
        pos_ = buffer_.size();
        state_ = State::Resync;
        return true;
      }
      return false; // wait for the rest of the header block
    }
    p = nl + 1;
    if (blank) break; // the blank line that ends the headers
    if (!equalsIgnoreCase(name, kContentLength)) continue; // Content-Type and the like are ignored
    const std::string_view value = trim(line.substr(colon + 1));
    std::size_t parsed = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (value.empty() || ec != std::errc{} || end != value.data() + value.size()) {
      sink(parseError("invalid Content-Length value '" + std::string(value.substr(0, 40)) + "'"));
      pos_ = p;
      state_ = State::Resync;
      return true;
    }
    if (length && *length != parsed) {
      sink(parseError("conflicting Content-Length headers (" + std::to_string(*length) + " and " +
                      std::to_string(parsed) + ")"));
      pos_ = p;
      state_ = State::Resync;
      return true;
    }
    length = parsed; // a repeated header with the same value is harmless
  }
  pos_ = p;
  if (!length) {
    sink(parseError("missing Content-Length header"));
    state_ = State::Resync;
  } else if (*length > maxFrameBytes_) {
    sink(oversized(maxFrameBytes_, *length));
    discardLeft_ = *length;
    state_ = State::BodyDiscard;
  } else {
    bodyLength_ = *length;
    state_ = State::Body;
  }
  return true;
}

bool FrameDecoder::stepBody(const Sink& sink) {
  if (buffer_.size() - pos_ < bodyLength_) return false;
  sink(DecodedFrame{buffer_.substr(pos_, bodyLength_), std::nullopt});
  pos_ += bodyLength_;
  state_ = State::Headers;
  return true;
}

bool FrameDecoder::stepResync() {
  const std::string_view rest(buffer_.data() + pos_, buffer_.size() - pos_);
  const std::size_t at = findContentLength(rest);
  if (at != std::string_view::npos) {
    pos_ += at;
    state_ = State::Headers;
    return true;
  }
  // Keep a tail long enough to hold a header name split across two reads.
  const std::size_t keep = kContentLength.size() + 16;
  if (rest.size() > keep) pos_ = buffer_.size() - keep;
  return false;
}

void FrameDecoder::compact() {
  if (pos_ == 0) return;
  buffer_.erase(0, pos_);
  pos_ = 0;
  // A large frame read behind others leaves its room: not kept for the small frames that follow.
  if (buffer_.capacity() >= kTakenFrameBytes && buffer_.size() < kTakenFrameBytes / 4) buffer_.shrink_to_fit();
}

void FrameDecoder::finish(const Sink& sink) {
  const std::string_view rest = trim(std::string_view(buffer_).substr(pos_));
  switch (state_) {
  case State::Ndjson:
    if (!rest.empty()) {
      if (rest.size() > maxFrameBytes_) sink(oversized(maxFrameBytes_, rest.size()));
      else sink(DecodedFrame{std::string(rest), std::nullopt});
    }
    break;
  case State::Headers:
    if (!rest.empty()) sink(parseError("input ended inside a frame header"));
    break;
  case State::Body:
    sink(parseError("input ended after " + std::to_string(buffer_.size() - pos_) + " of the " +
                    std::to_string(bodyLength_) + " bytes announced by Content-Length"));
    break;
  case State::Detect:
  case State::NdjsonDiscard:
  case State::BodyDiscard:
  case State::Resync: break;
  }
  buffer_.clear();
  pos_ = 0;
  scanned_ = 0;
}

std::string frameBody(std::string body, Framing framing) {
  if (framing == Framing::ContentLength) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  body.push_back('\n');
  return body;
}

std::string encodeFrame(const nlohmann::json& message, Framing framing) {
  return frameBody(writeJson(message), framing);
}

} // namespace toold::protocol
