// Fuzz target for the frame decoder and message classification. Besides "never crash", it checks
// a differential property: the same bytes fed whole and fed in fuzzer-chosen pieces decode to the
// same frames and errors, and an oversized frame never makes the decoder buffer it.
#include "protocol/framing.h"
#include "tests/support/feed_in_pieces.h"
#include "protocol/message.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using toold::protocol::DecodedFrame;
using toold::protocol::FrameDecoder;
using toold::protocol::Framing;

std::vector<std::string> decode(std::string_view input, Framing framing, std::size_t limit,
                                const std::vector<std::size_t>& cuts) {
  FrameDecoder decoder(framing, limit);
  std::vector<std::string> events;
  const FrameDecoder::Sink sink = [&](DecodedFrame&& frame) {
    if (frame.error) {
      // Appended rather than `"E" + to_string(...)`: GCC 12 at -O3 warns falsely (-Wrestrict) on that.
      std::string event = "E";
      event += std::to_string(static_cast<int>(frame.error->code));
      events.push_back(std::move(event));
      return;
    }
    if (frame.body.size() > limit) std::abort(); // a frame over the limit was handed on
    // What the server does with a body: parse, classify, answer.
    auto value = nlohmann::json::parse(frame.body, nullptr, false);
    if (!value.is_discarded()) {
      auto message = toold::protocol::classify(std::move(value));
      if (auto* invalid = std::get_if<toold::protocol::InvalidMessage>(&message))
        (void)toold::protocol::encodeFrame(toold::protocol::makeError(invalid->id, invalid->error), framing);
    }
    events.push_back("F" + frame.body);
  };
  toold::testing::feedInPieces(decoder, input, cuts, sink);
  return events;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  // The first bytes choose the framing, the frame limit and the split points.
  const Framing framing = data[0] % 3 == 0 ? Framing::Auto : data[0] % 3 == 1 ? Framing::Ndjson : Framing::ContentLength;
  const std::size_t limit = 16 + data[1] * 4u;
  const unsigned seed = data[2] | (static_cast<unsigned>(data[3]) << 8);
  const std::string_view input(reinterpret_cast<const char*>(data + 4), size - 4);

  std::vector<std::size_t> cuts;
  unsigned state = seed | 1u;
  for (std::size_t at = 0; at < input.size();) {
    state = state * 1103515245u + 12345u;
    at += 1 + (state >> 16) % 17;
    if (at < input.size()) cuts.push_back(at);
  }
  if (decode(input, framing, limit, {}) != decode(input, framing, limit, cuts)) std::abort();
  return 0;
}
