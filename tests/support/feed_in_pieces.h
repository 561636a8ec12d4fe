// Feeds a frame decoder its input cut at given points, then ends the input: how the framing unit
// tests and the fuzz target play one input split the way a pipe might deliver it.
#pragma once

#include "protocol/framing.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace toold::testing {

/// `cuts` are ascending offsets into `input`; each piece between them is one feed() call.
inline void feedInPieces(protocol::FrameDecoder& decoder, std::string_view input, const std::vector<std::size_t>& cuts,
                         const protocol::FrameDecoder::Sink& sink) {
  std::size_t from = 0;
  for (std::size_t cut : cuts) {
    decoder.feed(input.substr(from, cut - from), sink);
    from = cut;
  }
  decoder.feed(input.substr(from), sink);
  decoder.finish(sink);
}

} // namespace toold::testing
